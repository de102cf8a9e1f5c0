// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --timeline FILE.html: the cycle drawn in one self-contained page,
 * inline SVG only (no script, no style sheet or font from elsewhere), so
 * that it opens anywhere, also from a bug report: the hooks before and
 * after around the kernel's sleep, then for each way the phases and one
 * bar per device callback over a time axis, the slowest labelled.  Every
 * name the kernel gave is escaped for HTML; the page is well-formed XML.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps.h"

#define TL_LEFT 40		/* px left of the axis */
#define TL_AXIS 1000		/* px of the time axis */
#define TL_WIDTH (TL_LEFT + TL_AXIS + 40)
#define TL_TICKS 20		/* px of the tick labels */
#define TL_PHASE 14		/* px of a phase band (two: nested) */
#define TL_LANE 10		/* px of a lane of callbacks */
#define TL_BAR 8		/* px of a bar in it */
#define TL_LABEL 13		/* px of a label row */
#define TL_LANES 48		/* lanes at most: later ones share the last */
#define TL_SLOWEST 10		/* labelled each way */
#define TL_SLEEP 60		/* px of the sleep in the cycle, any length */
#define TL_CHAR 6		/* px of a character of 10px text, about */

/* The colours the test looks for: keep them distinct from the rest. */
#define C_SUSPEND "#c0392b"
#define C_RESUME "#1f77b4"
#define C_FAILED "#ff00ff"
#define C_HOOK "#2ca02c"
#define C_SLEEP "#555555"

/* One time axis: the suspend side, the resume side, or the whole trace
 * when it has no machine_suspend to cut it at. */
struct tl_panel {
	const char *name;
	uint64_t t0, t1;	/* trace clock, microseconds */
	int *lane;		/* per callback: its lane, -1 not here */
	int nlanes;
	int slow[TL_SLOWEST];	/* the slowest here, slowest first */
	int nslow;
};

static double ms(uint64_t us)
{
	return (double)us / 1000.0;
}

static int xpos(const struct tl_panel *pn, uint64_t t)
{
	uint64_t span = pn->t1 > pn->t0 ? pn->t1 - pn->t0 : 1;

	if (t < pn->t0)
		t = pn->t0;
	if (t > pn->t1)
		t = pn->t1;
	return TL_LEFT + (int)((t - pn->t0) * TL_AXIS / span);
}

static uint64_t cb_end(const struct tl_panel *pn, const struct pm_trace_cb *c)
{
	return c->end_us == PM_UNKNOWN ? pn->t1 : c->end_us;
}

static bool in_panel(const struct tl_panel *pn, uint64_t t)
{
	return t >= pn->t0 && t <= pn->t1;
}

/* A slower callback among the panel's slowest, ties in trace order. */
static void keep_slow(struct tl_panel *pn, const struct pm_trace *t, int i)
{
	uint64_t us = pm_trace_cb_us(&t->cb[i]);
	int j;

	if (us == PM_UNKNOWN)
		return;
	if (pn->nslow < TL_SLOWEST)
		j = pn->nslow++;
	else if (pm_trace_cb_us(&t->cb[pn->slow[TL_SLOWEST - 1]]) >= us)
		return;
	else
		j = TL_SLOWEST - 1;
	for (; j > 0 && pm_trace_cb_us(&t->cb[pn->slow[j - 1]]) < us; j--)
		pn->slow[j] = pn->slow[j - 1];
	pn->slow[j] = i;
}

/*
 * Each callback of the panel in the first lane free at its start: the
 * kernel's callbacks mostly run one after the other, so a few lanes
 * hold them, and the async ones side by side.  0 or -ENOMEM.
 */
static int pack(struct tl_panel *pn, const struct pm_trace *t)
{
	uint64_t busy[TL_LANES];

	pn->lane = malloc(sizeof(int) * (size_t)(t->ncb ? t->ncb : 1));
	if (!pn->lane)
		return -ENOMEM;
	for (int i = 0; i < t->ncb; i++) {
		const struct pm_trace_cb *c = &t->cb[i];
		int k = 0;

		pn->lane[i] = -1;
		if (!in_panel(pn, c->start_us))
			continue;
		while (k < pn->nlanes && busy[k] > c->start_us)
			k++;
		if (k == TL_LANES)
			k = TL_LANES - 1;
		else if (k == pn->nlanes)
			pn->nlanes++;
		busy[k] = cb_end(pn, c);
		pn->lane[i] = k;
		if (c->error)
			continue; /* labelled as the failure */
		keep_slow(pn, t, i);
	}
	return 0;
}

/* A step of 1, 2 or 5 times a power of ten giving 5 to 10 ticks. */
static uint64_t tick_step(uint64_t span)
{
	uint64_t step = 1;

	for (;;) {
		if (span / step <= 10)
			return step;
		if (span / (step * 2) <= 10)
			return step * 2;
		if (span / (step * 5) <= 10)
			return step * 5;
		step *= 10;
	}
}

static void axis(FILE *f, const struct tl_panel *pn, int height)
{
	uint64_t span = pn->t1 - pn->t0, step = tick_step(span ? span : 1);

	for (uint64_t d = 0; d <= span; d += step) {
		int x = xpos(pn, pn->t0 + d);

		fprintf(f,
			"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
			"stroke=\"#e4e4e4\"/>\n"
			"<text x=\"%d\" y=\"12\" text-anchor=\"middle\">%g ms"
			"</text>\n",
			x, TL_TICKS - 4, x, height, x, ms(d));
	}
}

/* The depth of a span among those of the panel that hold it. */
static int depth(const struct tl_panel *pn, const struct pm_trace *t, int i)
{
	const struct pm_trace_span *s = &t->span[i];
	uint64_t e = s->end_us == PM_UNKNOWN ? pn->t1 : s->end_us;
	int d = 0;

	for (int j = 0; j < t->nspan; j++) {
		const struct pm_trace_span *o = &t->span[j];
		uint64_t oe = o->end_us == PM_UNKNOWN ? pn->t1 : o->end_us;

		if (j != i && in_panel(pn, o->begin_us) &&
		    o->begin_us <= s->begin_us && oe >= e &&
		    (o->begin_us < s->begin_us || oe > e || j < i))
			d++;
	}
	return d > 1 ? 1 : d;
}

static void phases(FILE *f, const struct tl_panel *pn,
		   const struct pm_trace *t)
{
	for (int i = 0; i < t->nspan; i++) {
		const struct pm_trace_span *s = &t->span[i];
		uint64_t e = s->end_us == PM_UNKNOWN ? pn->t1 : s->end_us;
		int d, x0, w, y;

		if (!in_panel(pn, s->begin_us) ||
		    !strcmp(s->name, "machine_suspend"))
			continue;
		d = depth(pn, t, i);
		x0 = xpos(pn, s->begin_us);
		w = xpos(pn, e) - x0;
		y = TL_TICKS + d * TL_PHASE;
		fprintf(f,
			"<rect class=\"phase\" x=\"%d\" y=\"%d\" width=\"%d\" "
			"height=\"%d\" fill=\"%s\" stroke=\"#fff\">"
			"<title>",
			x0, y, w > 0 ? w : 1, TL_PHASE - 2,
			d ? "#c8c8c8" : "#e0e0e0");
		pm_html_escape(f, s->name);
		fprintf(f, " %.3f ms</title></rect>\n", ms(e - s->begin_us));
		if ((int)strlen(s->name) * TL_CHAR + 4 < w) {
			fprintf(f, "<text x=\"%d\" y=\"%d\">", x0 + 2,
				y + TL_PHASE - 5);
			pm_html_escape(f, s->name);
			fputs("</text>\n", f);
		}
	}
}

/* "e1000e 0000:00:19.0 (dpm_resume) 80.000 ms", escaped. */
static void cb_words(FILE *f, const struct pm_trace *t,
		     const struct pm_trace_cb *c)
{
	uint64_t us = pm_trace_cb_us(c);

	if (c->driver[0]) {
		pm_html_escape(f, c->driver);
		fputc(' ', f);
	}
	pm_html_escape(f, c->device);
	fputs(" (", f);
	pm_html_escape(f, c->span >= 0 ? t->span[c->span].name : c->event);
	if (us == PM_UNKNOWN)
		fputs(") no end in the trace", f);
	else
		fprintf(f, ") %.3f ms", ms(us));
	if (c->error)
		fprintf(f, ", failed: %d (%s)", c->error,
			pm_errno_name(-c->error));
}

static int lanes_top(void)
{
	return TL_TICKS + 2 * TL_PHASE + 4;
}

static void bar(FILE *f, const struct tl_panel *pn, const struct pm_trace *t,
		int i)
{
	const struct pm_trace_cb *c = &t->cb[i];
	int x0 = xpos(pn, c->start_us), w = xpos(pn, cb_end(pn, c)) - x0;

	fprintf(f,
		"<rect class=\"cb %s\" data-dev=\"",
		c->dir == PM_TRACE_RESUME ? "r" : "s");
	pm_html_escape(f, c->device);
	fprintf(f,
		"\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"fill=\"%s\"%s><title>",
		x0, lanes_top() + pn->lane[i] * TL_LANE, w > 0 ? w : 1, TL_BAR,
		c->error ? C_FAILED :
		c->dir == PM_TRACE_RESUME ? C_RESUME : C_SUSPEND,
		c->end_us == PM_UNKNOWN ? " fill-opacity=\"0.5\"" : "");
	cb_words(f, t, c);
	fputs(", parent ", f);
	pm_html_escape(f, c->parent);
	fputs("</title></rect>\n", f);
}

static int mid(const struct tl_panel *pn, const struct pm_trace_cb *c)
{
	return (xpos(pn, c->start_us) + xpos(pn, cb_end(pn, c))) / 2;
}

/* A label row under the lanes, a line up to its bar. */
static void label(FILE *f, const struct tl_panel *pn,
		  const struct pm_trace *t, int i, int row, bool right)
{
	const struct pm_trace_cb *c = &t->cb[i];
	int xm = mid(pn, c), y = lanes_top() + pn->nlanes * TL_LANE +
				 (row + 1) * TL_LABEL;

	fprintf(f,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#999\"/>\n"
		"<text class=\"label\" x=\"%d\" y=\"%d\"%s>",
		xm, lanes_top() + pn->lane[i] * TL_LANE + TL_BAR, xm, y - 9,
		right ? xm - 3 : xm + 3, y,
		right ? " text-anchor=\"end\"" : "");
	cb_words(f, t, c);
	fputs("</text>\n", f);
}

/*
 * The slowest and the failed, one row each, all on the side of their
 * line where most of them have room; in the order of their lines away
 * from that side, so that no line crosses another's text.
 */
static void labels(FILE *f, const struct tl_panel *pn,
		   const struct pm_trace *t, int *idx, int n)
{
	long sum = 0;
	bool right;

	for (int k = 0; k < n; k++)
		sum += mid(pn, &t->cb[idx[k]]);
	right = n && sum / n > TL_LEFT + TL_AXIS / 2;
	for (int k = 1; k < n; k++) {
		int v = idx[k], x = mid(pn, &t->cb[v]), j = k;

		for (; j > 0 && (right ? mid(pn, &t->cb[idx[j - 1]]) > x :
					 mid(pn, &t->cb[idx[j - 1]]) < x);
		     j--)
			idx[j] = idx[j - 1];
		idx[j] = v;
	}
	for (int k = 0; k < n; k++)
		label(f, pn, t, idx[k], k, right);
}

static void panel(FILE *f, const struct tl_panel *pn,
		  const struct pm_trace *t)
{
	int idx[TL_SLOWEST + 8], n = pn->nslow, height;

	memcpy(idx, pn->slow, sizeof(int) * (size_t)n);
	/* The failed too: a failing suspend has one, at most a few. */
	for (int i = 0; i < t->ncb && n < (int)(sizeof(idx) / sizeof(*idx));
	     i++)
		if (pn->lane[i] >= 0 && t->cb[i].error)
			idx[n++] = i;
	height = lanes_top() + pn->nlanes * TL_LANE + (n + 1) * TL_LABEL;
	fprintf(f, "<h2>%s: %.3f ms</h2>\n", pn->name, ms(pn->t1 - pn->t0));
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"%d\" shape-rendering=\"crispEdges\">\n",
		TL_WIDTH, height);
	axis(f, pn, lanes_top() + pn->nlanes * TL_LANE);
	phases(f, pn, t);
	/* The labels' lines first: the bars are drawn over them. */
	labels(f, pn, t, idx, n);
	for (int i = 0; i < t->ncb; i++)
		if (pn->lane[i] >= 0)
			bar(f, pn, t, i);
	fputs("</svg>\n", f);
}

/* The first event's time and the last end's. */
static void bounds(const struct pm_trace *t, uint64_t *t0, uint64_t *t1)
{
	*t0 = PM_UNKNOWN;
	*t1 = 0;
	for (int i = 0; i < t->nspan; i++) {
		if (t->span[i].begin_us < *t0)
			*t0 = t->span[i].begin_us;
		if (t->span[i].end_us != PM_UNKNOWN && t->span[i].end_us > *t1)
			*t1 = t->span[i].end_us;
	}
	for (int i = 0; i < t->ncb; i++) {
		if (t->cb[i].start_us < *t0)
			*t0 = t->cb[i].start_us;
		if (t->cb[i].end_us != PM_UNKNOWN && t->cb[i].end_us > *t1)
			*t1 = t->cb[i].end_us;
	}
	if (*t0 == PM_UNKNOWN)
		*t0 = 0;
	if (*t1 <= *t0)
		*t1 = *t0 + 1;
}

/* The trace cut at the machine's sleep (the last, as the report's
 * split), or whole. */
static int panels(FILE *f, const struct ps_result *r)
{
	const struct pm_trace *t = &r->trace;
	struct tl_panel pn[2];
	uint64_t t0, t1, m0 = 0, m1 = PM_UNKNOWN;
	int n = 1, e = 0;

	bounds(t, &t0, &t1);
	for (int i = 0; i < t->nspan; i++)
		if (!strcmp(t->span[i].name, "machine_suspend") &&
		    t->span[i].end_us != PM_UNKNOWN) {
			m0 = t->span[i].begin_us;
			m1 = t->span[i].end_us;
		}
	memset(pn, 0, sizeof(pn));
	if (m1 != PM_UNKNOWN) {
		pn[0] = (struct tl_panel){ .name = "suspend", .t0 = t0,
					   .t1 = m0 };
		pn[1] = (struct tl_panel){ .name = "resume", .t0 = m1,
					   .t1 = t1 > m1 ? t1 : m1 + 1 };
		n = 2;
	} else {
		pn[0] = (struct tl_panel){
			.name = "the trace (no machine sleep in it)",
			.t0 = t0, .t1 = t1 };
	}
	for (int k = 0; k < n && !e; k++) {
		e = pack(&pn[k], t);
		if (!e)
			panel(f, &pn[k], t);
	}
	for (int k = 0; k < n; k++)
		free(pn[k].lane);
	return e;
}

static const char *base(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

/* One segment of the cycle: x advances by its width. */
static void segment(FILE *f, int *x, int w, const char *fill,
		    const char *name, double s)
{
	if (w < 2)
		w = 2;
	/* A pixel between two: the hooks one after the other show. */
	fprintf(f,
		"<rect class=\"seg\" x=\"%d\" y=\"4\" width=\"%d\" "
		"height=\"20\" fill=\"%s\"><title>",
		*x, w - 1, fill);
	pm_html_escape(f, name);
	fprintf(f, " %.3f ms</title></rect>\n", s * 1e3);
	if ((int)strlen(name) * TL_CHAR + 4 < w) {
		fprintf(f, "<text x=\"%d\" y=\"38\">", *x + 2);
		pm_html_escape(f, name);
		fputs("</text>\n", f);
	}
	*x += w;
}

/* The kernel's suspend and resume of a leg, from the trace if it has
 * them, else the state write's whole time as one. */
static void leg_parts(const struct ps_result *r, double *down,
		      double *asleep, double *up)
{
	struct pm_trace_split s;

	if (r->traced && pm_trace_split(&r->trace, &s) == 0) {
		*down = (double)s.suspend_us / 1e6;
		*asleep = (double)s.asleep_us / 1e6;
		*up = (double)s.resume_us / 1e6;
	} else {
		*down = r->attempted ? r->kernel_s : 0;
		*asleep = r->asleep_s;
		*up = 0;
	}
}

static void hooks(FILE *f, const struct ps *p, const char *phase, int *x,
		  double scale)
{
	for (int i = 0; i < p->nrec; i++)
		if (p->rec[i].status >= 0 && !strcmp(p->rec[i].phase, phase))
			segment(f, x, (int)(p->rec[i].seconds * scale), C_HOOK,
				base(p->rec[i].path), p->rec[i].seconds);
}

/* The whole cycle on one line: hooks, kernel, sleep, kernel, hooks. */
static void cycle(FILE *f, const struct ps *p)
{
	double total = 0, down, asleep, up, scale;
	int x = TL_LEFT;

	for (int i = 0; i < p->nrec; i++)
		total += p->rec[i].status >= 0 ? p->rec[i].seconds : 0;
	for (int i = 0; i < p->nres; i++) {
		leg_parts(&p->res[i], &down, &asleep, &up);
		total += down + up;
	}
	scale = (TL_AXIS - TL_SLEEP * p->nres) / (total > 0 ? total : 1);
	/* A leg that did not sleep leaves its sleep's room unused. */
	fputs("<h2>the cycle: hooks, the kernel's suspend, the sleep, its "
	      "resume, hooks</h2>\n",
	      f);
	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
		"height=\"44\" shape-rendering=\"crispEdges\">\n",
		TL_WIDTH);
	hooks(f, p, "pre", &x, scale);
	for (int i = 0; i < p->nres; i++) {
		const struct ps_result *r = &p->res[i];

		leg_parts(r, &down, &asleep, &up);
		segment(f, &x, (int)(down * scale), C_SUSPEND, "suspend",
			down);
		if (r->entered)
			segment(f, &x, TL_SLEEP, C_SLEEP, "asleep", asleep);
		if (up > 0)
			segment(f, &x, (int)(up * scale), C_RESUME, "resume",
				up);
	}
	hooks(f, p, "post", &x, scale);
	fputs("</svg>\n", f);
}

static void summary(FILE *f, const struct ps *p, const struct ps_result *r)
{
	const struct pm_trace *t = &r->trace;
	struct pm_trace_split s;
	char fw[256];

	fputs("<p>", f);
	pm_html_escape(f, pm_sleep_mode_name(r->leg->mode));
	if (r->traced && pm_trace_split(t, &s) == 0)
		fprintf(f,
			": the kernel's suspend %.3f ms, asleep %.3f ms, "
			"resume %.3f ms",
			ms(s.suspend_us), ms(s.asleep_us), ms(s.resume_us));
	else
		fputs(r->entered ? ": slept" : ": did not sleep", f);
	if (r->error[0]) {
		fputs("; ", f);
		pm_html_escape(f, r->error);
	}
	if (r->tnote[0]) {
		fputs("; ", f);
		pm_html_escape(f, r->tnote);
	}
	if (r->traced)
		fprintf(f,
			". The trace: %d lines, %d device callback%s, %d "
			"lines not parsed, %llu events lost%s.",
			t->lines, t->ncb, t->ncb == 1 ? "" : "s", t->unparsed,
			(unsigned long long)t->lost,
			t->truncated ? ", the last line cut" : "");
	if (ps_firmware_words(fw, sizeof(fw), r)) {
		fputs(" The firmware (ACPI FPDT): ", f);
		pm_html_escape(f, fw);
		fputc('.', f);
	}
	fputs("</p>\n", f);
	(void)p;
}

static const char head[] =
	"<!DOCTYPE html>\n"
	"<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n"
	"<head>\n<meta charset=\"utf-8\"/>\n"
	"<title>pm-suspend timeline</title>\n"
	"<style>\n"
	"body { font: 13px sans-serif; margin: 12px; background: #fff; "
	"color: #222; }\n"
	"h1 { font-size: 17px; margin: 0 0 6px; }\n"
	"h2 { font-size: 14px; margin: 10px 0 2px; }\n"
	"p { margin: 2px 0; }\n"
	"svg { display: block; }\n"
	"text { font: 10px sans-serif; fill: #222; }\n"
	"</style>\n</head>\n<body>\n";

static int page(FILE *f, const struct ps *p)
{
	int e = 0;

	fputs(head, f);
	fputs("<h1>", f);
	pm_html_escape(f, p->name);
	fprintf(f, " %s</h1>\n", pm_sleep_mode_name(p->mode));
	for (int i = 0; i < p->nres; i++)
		summary(f, p, &p->res[i]);
	fputs("<p>Red: suspend callbacks; blue: resume; magenta: failed; "
	      "green: hooks.  Every bar is at least one pixel wide; its "
	      "tooltip gives the device, the phase and the time.</p>\n",
	      f);
	cycle(f, p);
	for (int i = 0; i < p->nres && !e; i++)
		if (p->res[i].traced)
			e = panels(f, &p->res[i]);
	fputs("</body>\n</html>\n", f);
	return e;
}

/* Before the sleep: a page that cannot be written stops us there. */
void ps_timeline_probe(struct ps *p)
{
	struct pm_out o;
	int r;

	if (!p->timeline)
		return;
	r = pm_out_open(&o, PM_FMT_HUMAN, p->timeline);
	if (r < 0)
		pm_die(&p->t, pm_out_exit(r), "cannot write %s: %s (%s)",
		       p->timeline, strerror(-r), pm_errno_name(-r));
	pm_out_abort(&o);
}

int ps_timeline(struct ps *p, int status)
{
	struct pm_out o;
	int r;

	if (!p->timeline || p->t.dry_run)
		return status;
	r = pm_out_open(&o, PM_FMT_HUMAN, p->timeline);
	if (r == 0) {
		r = page(o.f, p);
		if (r < 0)
			pm_out_abort(&o);
		else
			r = pm_out_commit(&o);
	}
	if (r == 0)
		return status;
	pm_warn(&p->t, "cannot write %s: %s (%s)", p->timeline, strerror(-r),
		pm_errno_name(-r));
	return status == PM_EXIT_OK ? PM_EXIT_FAIL : status;
}
