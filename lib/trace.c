// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's trace of a sleep, as tracefs' trace file prints it
 * (kernel/trace/trace_output.c, include/trace/events/power.h):
 *
 *   "  COMM-PID     [CPU] FLAGS  SECS.USECS: EVENT: TEXT"
 *
 * COMM right-aligned in 16 (it may hold spaces and '-'), PID left-aligned
 * in 7, an optional "(TGID) " (record-tgid), FLAGS only with irq-info
 * (4 characters before Linux 5.15, 5 since).  The events:
 *
 *   suspend_resume: ACTION[VAL] begin|end
 *   device_pm_callback_start: DRIVER DEVICE, parent: PARENT, OPS[VERB]
 *   device_pm_callback_end: DRIVER DEVICE, err=ERROR
 *
 * OPS is the kernel's "late bus " (with its space), "none " or "".  The
 * ring buffer marks what it dropped with "CPU:N [LOST M EVENTS]" or
 * "CPU:N [LOST EVENTS]".  A line that is none of these, or cut by the
 * end of the text, is counted, never guessed at.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace.h"
#include "core.h"
#include "txn.h"

/* A line, as a pointer and a length: the text is not NUL-terminated. */
struct span_s {
	const char *p;
	size_t n;
};

static bool digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits into *v (no sign, no overflow): false otherwise. */
static bool num(const char *p, size_t n, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (!n || n > 20)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!digit(p[i]))
			return false;
		if (x > (max - (uint64_t)(p[i] - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(p[i] - '0');
	}
	*v = x;
	return true;
}

static bool copy(char *dst, size_t size, const char *p, size_t n)
{
	if (n >= size || memchr(p, '\0', n))
		return false;
	memcpy(dst, p, n);
	dst[n] = '\0';
	return true;
}

static const char *find(const char *p, size_t n, const char *what)
{
	size_t w = strlen(what);

	for (size_t i = 0; i + w <= n; i++)
		if (!memcmp(p + i, what, w))
			return p + i;
	return NULL;
}

static const char *rfind(const char *p, size_t n, const char *what)
{
	size_t w = strlen(what);

	for (size_t i = n; i >= w; i--)
		if (!memcmp(p + i - w, what, w))
			return p + i - w;
	return NULL;
}

/* The context before an event: its time and CPU. */
struct trace_ctx {
	uint64_t us;
	int cpu;
};

/*
 * Is the ':' at line[k] the end of a context?  Walks back: USECS (six
 * digits), '.', SECS, spaces, FLAGS and a space (optional), "[CPU]",
 * spaces, "(TGID) " (optional), PID, '-', then COMM to the line's start.
 */
static bool context_at(const char *l, size_t k, struct trace_ctx *c)
{
	size_t i = k, e;
	uint64_t secs, usecs, cpu, pid;

	if (i < 8 || !num(l + i - 6, 6, 999999, &usecs) || l[i - 7] != '.')
		return false;
	i -= 7;
	for (e = i; i > 0 && digit(l[i - 1]); i--)
		;
	if (!num(l + i, e - i, UINT64_MAX / 1000000 - 1, &secs))
		return false;
	if (i == 0 || l[i - 1] != ' ')
		return false;
	while (i > 0 && l[i - 1] == ' ')
		i--;
	if (i > 0 && l[i - 1] != ']') { /* FLAGS, then one space */
		for (e = i; i > 0 && l[i - 1] != ' '; i--)
			;
		if (e - i < 4 || e - i > 5 || i < 2 || l[i - 2] != ']')
			return false;
		i--;
	}
	if (i == 0 || l[i - 1] != ']')
		return false;
	for (e = --i; i > 0 && digit(l[i - 1]); i--)
		;
	if (e - i < 3 || i == 0 || l[i - 1] != '[' ||
	    !num(l + i, e - i, INT32_MAX, &cpu))
		return false;
	i--;
	if (i == 0 || l[i - 1] != ' ')
		return false;
	while (i > 0 && l[i - 1] == ' ')
		i--;
	if (i > 0 && l[i - 1] == ')') { /* "(   123) " or "(-------) " */
		for (e = --i; i > 0 && l[i - 1] != '('; i--)
			if (!digit(l[i - 1]) && l[i - 1] != ' ' &&
			    l[i - 1] != '-')
				return false;
		if (i < 2 || e - i != 7 || l[i - 2] != ' ')
			return false;
		i -= 2;
		while (i > 0 && l[i - 1] == ' ')
			i--;
	}
	for (e = i; i > 0 && digit(l[i - 1]); i--)
		;
	if (!num(l + i, e - i, INT32_MAX, &pid) || i == 0 || l[i - 1] != '-')
		return false;
	c->us = secs * 1000000 + usecs;
	c->cpu = (int)cpu;
	return true;
}

/* The context of a line: *event is where the event's name starts. */
static bool context(struct span_s l, struct trace_ctx *c, struct span_s *ev)
{
	for (size_t k = 0; k + 1 < l.n; k++) {
		if (l.p[k] != ':' || l.p[k + 1] != ' ')
			continue;
		if (context_at(l.p, k, c)) {
			ev->p = l.p + k + 2;
			ev->n = l.n - k - 2;
			return true;
		}
	}
	return false;
}

static const struct {
	const char *name;
	enum pm_trace_dir dir;
} phase_dirs[] = {
	{ "suspend_enter", PM_TRACE_SUSPEND },
	{ "sync_filesystems", PM_TRACE_SUSPEND },
	{ "freeze_processes", PM_TRACE_SUSPEND },
	{ "dpm_prepare", PM_TRACE_SUSPEND },
	{ "dpm_suspend", PM_TRACE_SUSPEND },
	{ "dpm_suspend_late", PM_TRACE_SUSPEND },
	{ "dpm_suspend_noirq", PM_TRACE_SUSPEND },
	{ "CPU_OFF", PM_TRACE_SUSPEND },
	{ "syscore_suspend", PM_TRACE_SUSPEND },
	{ "syscore_resume", PM_TRACE_RESUME },
	{ "CPU_ON", PM_TRACE_RESUME },
	{ "dpm_resume_noirq", PM_TRACE_RESUME },
	{ "dpm_resume_early", PM_TRACE_RESUME },
	{ "dpm_resume", PM_TRACE_RESUME },
	{ "dpm_complete", PM_TRACE_RESUME },
	{ "thaw_processes", PM_TRACE_RESUME },
	{ "resume_console", PM_TRACE_RESUME },
};

enum pm_trace_dir pm_trace_phase_dir(const char *name)
{
	for (size_t i = 0; i < sizeof(phase_dirs) / sizeof(phase_dirs[0]);
	     i++)
		if (!strcmp(name, phase_dirs[i].name))
			return phase_dirs[i].dir;
	return PM_TRACE_OTHER;
}

/* pm_verb_symbolic of include/trace/events/power.h. */
static const struct {
	const char *verb;
	enum pm_trace_dir dir;
} verbs[] = {
	{ "suspend", PM_TRACE_SUSPEND },   { "resume", PM_TRACE_RESUME },
	{ "freeze", PM_TRACE_SUSPEND },	   { "quiesce", PM_TRACE_SUSPEND },
	{ "hibernate", PM_TRACE_SUSPEND }, { "thaw", PM_TRACE_RESUME },
	{ "restore", PM_TRACE_RESUME },	   { "recover", PM_TRACE_RESUME },
};

enum pm_trace_dir pm_trace_event_dir(const char *event)
{
	for (size_t i = 0; i < sizeof(verbs) / sizeof(verbs[0]); i++)
		if (!strcmp(event, verbs[i].verb))
			return verbs[i].dir;
	return PM_TRACE_OTHER;
}

static bool ident(const char *p, size_t n)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!digit(p[i]) && !(p[i] >= 'a' && p[i] <= 'z') &&
		    !(p[i] >= 'A' && p[i] <= 'Z') && p[i] != '_')
			return false;
	return true;
}

static int grow(void **a, int *cap, int n, size_t size)
{
	void *x;
	int c;

	if (n < *cap)
		return 0;
	c = *cap ? *cap * 2 : 64;
	x = realloc(*a, (size_t)c * size);
	if (!x)
		return -ENOMEM;
	*a = x;
	*cap = c;
	return 0;
}

/* The phase a callback runs in: the last dpm_* phase begun (by then),
 * not ended. */
static int open_dpm(const struct pm_trace *t, uint64_t us)
{
	for (int i = t->nspan - 1; i >= 0; i--)
		if (!strncmp(t->span[i].name, "dpm_", 4))
			return t->span[i].end_us == PM_UNKNOWN &&
					       t->span[i].begin_us <= us ?
				       i :
				       -1;
	return -1;
}

/* "ACTION[VAL] begin" or "... end".  1 parsed, 0 not, -ENOMEM. */
static int suspend_resume(struct pm_trace *t, struct span_s x,
			  const struct trace_ctx *c)
{
	const char *lb = memchr(x.p, '[', x.n), *rb;
	struct pm_trace_span *s;
	char name[sizeof(s->name)];
	uint64_t val;
	bool begin;
	size_t rest;

	if (!lb || !ident(x.p, (size_t)(lb - x.p)) ||
	    !copy(name, sizeof(name), x.p, (size_t)(lb - x.p)))
		return 0;
	rb = memchr(lb, ']', x.n - (size_t)(lb - x.p));
	if (!rb || !num(lb + 1, (size_t)(rb - lb - 1), UINT32_MAX, &val))
		return 0;
	rest = x.n - (size_t)(rb - x.p);
	if (rest == 7 && !memcmp(rb, "] begin", 7))
		begin = true;
	else if (rest == 5 && !memcmp(rb, "] end", 5))
		begin = false;
	else
		return 0;
	if (!begin) {
		for (int i = t->nspan - 1; i >= 0; i--) {
			s = &t->span[i];
			if (s->end_us == PM_UNKNOWN && s->val == val &&
			    !strcmp(s->name, name) && c->us >= s->begin_us) {
				s->end_us = c->us;
				return 1;
			}
		}
		t->unmatched++;
		return 1;
	}
	if (grow((void **)&t->span, &t->capspan, t->nspan, sizeof(*s)) < 0)
		return -ENOMEM;
	s = &t->span[t->nspan++];
	memcpy(s->name, name, sizeof(name));
	s->val = (uint32_t)val;
	s->begin_us = c->us;
	s->end_us = PM_UNKNOWN;
	s->dir = pm_trace_phase_dir(name);
	return 1;
}

/* The kernel's OPS: "", or lower-case words each ending in a space. */
static bool ops_ok(const char *p, size_t n)
{
	if (!n)
		return true;
	if (p[n - 1] != ' ' || p[0] == ' ')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!(p[i] >= 'a' && p[i] <= 'z') &&
		    !(p[i] == ' ' && p[i + 1] != ' '))
			return false;
	return true;
}

/* "DRIVER DEVICE" (DRIVER may be empty, DEVICE may hold spaces). */
static bool driver_device(struct pm_trace_cb *cb, const char *p, size_t n)
{
	const char *sp = memchr(p, ' ', n);

	if (!sp || sp + 1 == p + n)
		return false;
	return copy(cb->driver, sizeof(cb->driver), p, (size_t)(sp - p)) &&
	       copy(cb->device, sizeof(cb->device), sp + 1,
		    n - (size_t)(sp - p) - 1);
}

/* "DRIVER DEVICE, parent: PARENT, OPS[VERB]".  1, 0, -ENOMEM. */
static int cb_start(struct pm_trace *t, struct span_s x,
		    const struct trace_ctx *c)
{
	struct pm_trace_cb cb;
	const char *lb, *par, *comma;

	memset(&cb, 0, sizeof(cb));
	if (!x.n || x.p[x.n - 1] != ']')
		return 0;
	lb = rfind(x.p, x.n, "[");
	if (!lb || !copy(cb.event, sizeof(cb.event), lb + 1,
			 x.n - (size_t)(lb - x.p) - 2))
		return 0;
	cb.dir = pm_trace_event_dir(cb.event);
	if (cb.dir == PM_TRACE_OTHER)
		return 0;
	comma = rfind(x.p, (size_t)(lb - x.p), ", ");
	if (!comma || !ops_ok(comma + 2, (size_t)(lb - comma - 2)) ||
	    !copy(cb.ops, sizeof(cb.ops), comma + 2,
		  (size_t)(lb - comma - 2)))
		return 0;
	if (cb.ops[0])
		cb.ops[strlen(cb.ops) - 1] = '\0'; /* the kernel's space */
	par = find(x.p, (size_t)(comma - x.p), ", parent: ");
	if (!par || par + 10 == comma ||
	    !copy(cb.parent, sizeof(cb.parent), par + 10,
		  (size_t)(comma - par - 10)) ||
	    !driver_device(&cb, x.p, (size_t)(par - x.p)))
		return 0;
	if (grow((void **)&t->cb, &t->capcb, t->ncb, sizeof(cb)) < 0)
		return -ENOMEM;
	cb.span = open_dpm(t, c->us);
	cb.start_us = c->us;
	cb.end_us = PM_UNKNOWN;
	cb.cpu = c->cpu;
	t->cb[t->ncb++] = cb;
	return 1;
}

/* "DRIVER DEVICE, err=ERROR": ends the device's open callback. */
static int cb_end(struct pm_trace *t, struct span_s x,
		  const struct trace_ctx *c)
{
	struct pm_trace_cb cb;
	const char *e = rfind(x.p, x.n, ", err=");
	const char *v;
	uint64_t mag;
	size_t vn;

	memset(&cb, 0, sizeof(cb));
	if (!e || !driver_device(&cb, x.p, (size_t)(e - x.p)))
		return 0;
	v = e + 6;
	vn = x.n - (size_t)(v - x.p);
	if (vn && *v == '-') {
		if (!num(v + 1, vn - 1, (uint64_t)INT32_MAX + 1, &mag) || !mag)
			return 0;
		cb.error = (int)-(int64_t)mag;
	} else {
		if (!num(v, vn, INT32_MAX, &mag))
			return 0;
		cb.error = (int)mag;
	}
	for (int i = t->ncb - 1; i >= 0; i--) {
		struct pm_trace_cb *o = &t->cb[i];

		if (o->end_us == PM_UNKNOWN && c->us >= o->start_us &&
		    !strcmp(o->device, cb.device) &&
		    !strcmp(o->driver, cb.driver)) {
			o->end_us = c->us;
			o->error = cb.error;
			return 1;
		}
	}
	t->unmatched++;
	return 1;
}

/* "CPU:N [LOST M EVENTS]" or "CPU:N [LOST EVENTS]". */
static bool lost(struct pm_trace *t, struct span_s l)
{
	const char *p = l.p, *end = l.p + l.n, *q;
	uint64_t v;

	if (l.n < 4 || memcmp(p, "CPU:", 4))
		return false;
	p += 4;
	for (q = p; q < end && digit(*q); q++)
		;
	if (!num(p, (size_t)(q - p), INT32_MAX, &v))
		return false;
	p = q;
	if ((size_t)(end - p) == 14 && !memcmp(p, " [LOST EVENTS]", 14)) {
		t->lost_marks++;
		t->lost_unknown = true;
		return true;
	}
	if ((size_t)(end - p) < 8 || memcmp(p, " [LOST ", 7))
		return false;
	p += 7;
	for (q = p; q < end && digit(*q); q++)
		;
	if (!num(p, (size_t)(q - p), UINT64_MAX, &v) ||
	    (size_t)(end - q) != 8 || memcmp(q, " EVENTS]", 8))
		return false;
	t->lost_marks++;
	t->lost = v > UINT64_MAX - t->lost ? UINT64_MAX : t->lost + v;
	return true;
}

static const struct {
	const char *name;
	int (*parse)(struct pm_trace *, struct span_s,
		     const struct trace_ctx *);
} events[] = {
	{ "suspend_resume: ", suspend_resume },
	{ "device_pm_callback_start: ", cb_start },
	{ "device_pm_callback_end: ", cb_end },
};

/* An event's name: [a-z0-9_]+ then ": " (or the line's end). */
static bool other_event(struct span_s ev)
{
	size_t i = 0;

	while (i < ev.n && ((ev.p[i] >= 'a' && ev.p[i] <= 'z') ||
			    digit(ev.p[i]) || ev.p[i] == '_'))
		i++;
	return i && (i == ev.n || (ev.p[i] == ':' &&
				   (i + 1 == ev.n || ev.p[i + 1] == ' ')));
}

/* One whole line.  0 or -ENOMEM. */
static int line(struct pm_trace *t, struct span_s l)
{
	struct trace_ctx c;
	struct span_s ev;

	if (l.n && l.p[0] == '#') {
		t->header++;
		return 0;
	}
	if (lost(t, l))
		return 0;
	if (context(l, &c, &ev)) {
		for (size_t i = 0; i < sizeof(events) / sizeof(events[0]);
		     i++) {
			size_t k = strlen(events[i].name);
			struct span_s x = { ev.p + k, ev.n - k };
			int r;

			if (ev.n < k || memcmp(ev.p, events[i].name, k))
				continue;
			r = events[i].parse(t, x, &c);
			if (r < 0)
				return r;
			if (r) {
				t->events++;
				return 0;
			}
			goto bad;
		}
		if (other_event(ev)) {
			t->other++;
			return 0;
		}
	}
bad:
	t->unparsed++;
	if (!t->first_bad)
		t->first_bad = t->lines;
	return 0;
}

int pm_trace_parse(const char *text, size_t len, struct pm_trace *t)
{
	const char *p = text, *end = text + len;

	memset(t, 0, sizeof(*t));
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		struct span_s l = { p, nl ? (size_t)(nl - p) : (size_t)(end - p) };

		t->lines++;
		if (!nl) { /* the end of the text cut this line */
			t->truncated = true;
			t->unparsed++;
			if (!t->first_bad)
				t->first_bad = t->lines;
			break;
		}
		if (line(t, l) < 0) {
			pm_trace_free(t);
			return -ENOMEM;
		}
		p = nl + 1;
	}
	return 0;
}

void pm_trace_free(struct pm_trace *t)
{
	free(t->span);
	free(t->cb);
	memset(t, 0, sizeof(*t));
}

uint64_t pm_trace_span_us(const struct pm_trace_span *s)
{
	return s->end_us == PM_UNKNOWN ? PM_UNKNOWN : s->end_us - s->begin_us;
}

uint64_t pm_trace_cb_us(const struct pm_trace_cb *c)
{
	return c->end_us == PM_UNKNOWN ? PM_UNKNOWN : c->end_us - c->start_us;
}

int pm_trace_slowest(const struct pm_trace *t, enum pm_trace_dir dir,
		     int *idx, int n)
{
	int k = 0;

	for (int i = 0; i < t->ncb && n > 0; i++) {
		uint64_t us = pm_trace_cb_us(&t->cb[i]);
		int j;

		if (t->cb[i].dir != dir || us == PM_UNKNOWN)
			continue;
		if (k < n)
			j = k++;
		else if (pm_trace_cb_us(&t->cb[idx[n - 1]]) >= us)
			continue;
		else
			j = n - 1;
		/* After every one as slow: ties keep the trace's order. */
		for (; j > 0 && pm_trace_cb_us(&t->cb[idx[j - 1]]) < us; j--)
			idx[j] = idx[j - 1];
		idx[j] = i;
	}
	return k;
}

int pm_trace_failed(const struct pm_trace *t)
{
	for (int i = 0; i < t->ncb; i++)
		if (t->cb[i].error)
			return i;
	return -1;
}

int pm_trace_split(const struct pm_trace *t, struct pm_trace_split *s)
{
	const struct pm_trace_span *m = NULL;
	uint64_t first = PM_UNKNOWN, last = 0;

	memset(s, 0, sizeof(*s));
	for (int i = 0; i < t->nspan; i++) {
		const struct pm_trace_span *x = &t->span[i];

		if (!strcmp(x->name, "machine_suspend") &&
		    x->end_us != PM_UNKNOWN)
			m = x;
		if (x->begin_us < first)
			first = x->begin_us;
		if (x->end_us != PM_UNKNOWN && x->end_us > last)
			last = x->end_us;
	}
	for (int i = 0; i < t->ncb; i++) {
		if (t->cb[i].start_us < first)
			first = t->cb[i].start_us;
		if (t->cb[i].end_us != PM_UNKNOWN && t->cb[i].end_us > last)
			last = t->cb[i].end_us;
	}
	if (!m)
		return -ENOENT;
	s->suspend_us = m->begin_us - first;
	s->asleep_us = m->end_us - m->begin_us;
	s->resume_us = last - m->end_us;
	return 0;
}

/* ------------------------------------------------------------ tracefs */

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing",
					    "/sys/kernel/debug/tracing" };

int pm_tracefs_find(struct pm_ctx *ctx, const char **dir)
{
	char path[64];

	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/trace", tracefs_dirs[i]);
		if (pm_exists(ctx, path)) {
			*dir = tracefs_dirs[i];
			return 0;
		}
	}
	*dir = NULL;
	return -ENOENT;
}

static const char *const power_events[] = { "suspend_resume",
					    "device_pm_callback_start",
					    "device_pm_callback_end" };

/* A file of dir planned = value, read first.  The index, or -errno. */
static int plan(struct pm_txn *t, const char *dir, const char *name,
		const char *value)
{
	char path[PM_PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return pm_txn_add(t, path, value, 0);
}

int pm_trace_plan(struct pm_txn *t, const char *dir)
{
	char name[PM_PATH_MAX], was[PM_W_VAL];
	int i;

	/* Stopped while it is set up: no event of another tracer lands in
	 * the cleared buffer. */
	i = plan(t, dir, "tracing_on", "0");
	if (i < 0)
		return i;
	snprintf(was, sizeof(was), "%s", t->w[i].old);
	/* buffer_size_kb is left as it is: the kernel rounds a size to its
	 * pages (1408 reads 1410 once used), so a size written would not
	 * read back, nor could it be put back as found.  An overflow shows
	 * as the ring buffer's LOST marks, which the report gives. */
	i = plan(t, dir, "current_tracer", "nop");
	if (i < 0)
		return i;
	for (size_t k = 0; k < 3; k++) {
		snprintf(name, sizeof(name), "events/power/%s/enable",
			 power_events[k]);
		i = plan(t, dir, name, "1");
		if (i < 0)
			return i;
	}
	/* Opened with O_TRUNC, the trace file is cleared: nothing to read
	 * back, nothing to put back. */
	snprintf(name, sizeof(name), "%s/trace", dir);
	i = pm_txn_add_known(t, name, "", "",
			     PM_W_FORCE | PM_W_NOREAD | PM_W_NOUNDO);
	if (i < 0)
		return i;
	/* On, whatever it was; undone to what it was. */
	snprintf(name, sizeof(name), "%s/tracing_on", dir);
	i = pm_txn_add_known(t, name, was, "1", PM_W_FORCE);
	return i < 0 ? i : 0;
}

int pm_trace_read(struct pm_ctx *ctx, const char *dir, char **text,
		  size_t *len)
{
	char path[PM_PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/trace", dir);
	n = pm_file_read(ctx, path, text);
	if (n < 0)
		return (int)n;
	*len = (size_t)n;
	return 0;
}

int pm_print_times_plan(struct pm_txn *t)
{
	int i = pm_txn_add(t, "/sys/power/pm_print_times", "1", 0);

	return i < 0 ? i : 0;
}

/* The files of drivers/acpi/acpi_fpdt.c, each a decimal number. */
static const struct {
	const char *path;
	size_t off;
} fpdt_files[] = {
	{ "/sys/firmware/acpi/fpdt/resume/resume_count",
	  offsetof(struct pm_fpdt, resume_count) },
	{ "/sys/firmware/acpi/fpdt/resume/resume_prev_ns",
	  offsetof(struct pm_fpdt, resume_prev_ns) },
	{ "/sys/firmware/acpi/fpdt/resume/resume_avg_ns",
	  offsetof(struct pm_fpdt, resume_avg_ns) },
	{ "/sys/firmware/acpi/fpdt/suspend/suspend_start_ns",
	  offsetof(struct pm_fpdt, suspend_start_ns) },
	{ "/sys/firmware/acpi/fpdt/suspend/suspend_end_ns",
	  offsetof(struct pm_fpdt, suspend_end_ns) },
};

int pm_fpdt_read(struct pm_ctx *ctx, struct pm_fpdt *f)
{
	int found = 0;

	for (size_t i = 0; i < sizeof(fpdt_files) / sizeof(fpdt_files[0]);
	     i++) {
		uint64_t *v = (uint64_t *)((char *)f + fpdt_files[i].off);

		if (pm_attr_read_u64(ctx, fpdt_files[i].path, v) < 0)
			*v = PM_UNKNOWN;
		else
			found++;
		pm_err_clear(ctx);
	}
	return found ? 0 : -ENOENT;
}

uint64_t pm_fpdt_suspend_ns(const struct pm_fpdt *f)
{
	/* One timer, read twice: an end before the start is no time. */
	if (f->suspend_start_ns == PM_UNKNOWN ||
	    f->suspend_end_ns == PM_UNKNOWN ||
	    f->suspend_end_ns < f->suspend_start_ns)
		return PM_UNKNOWN;
	return f->suspend_end_ns - f->suspend_start_ns;
}

uint64_t pm_last_hw_sleep_us(struct pm_ctx *ctx)
{
	uint64_t v;

	if (pm_attr_read_u64(ctx, "/sys/power/suspend_stats/last_hw_sleep",
			     &v) < 0) {
		pm_err_clear(ctx);
		return PM_UNKNOWN;
	}
	return v;
}

/* ------------------------------------------------------------ mounting */

#define TRACEFS "/sys/kernel/tracing"
#define MOUNTINFO "/proc/self/mountinfo"

/* Field n (0-based) of a mountinfo line, its \ooo escapes decoded. */
static bool mi_field(const char *line, const char *end, int n, char *out,
		     size_t size)
{
	const char *p = line;
	size_t k = 0;

	for (int i = 0; i < n; i++) {
		while (p < end && *p != ' ')
			p++;
		if (p >= end)
			return false;
		p++;
	}
	while (p < end && *p != ' ' && k + 1 < size) {
		if (p[0] == '\\' && end - p >= 4 && p[1] >= '0' && p[1] <= '3' &&
		    p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
			out[k++] = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 +
					  (p[3] - '0'));
			p += 4;
		} else {
			out[k++] = *p++;
		}
	}
	out[k] = '\0';
	return k > 0 && (p >= end || *p == ' ');
}

bool pm_mountinfo_has(const char *text, size_t len, const char *dir)
{
	const char *p = text, *end = text + len;
	char mnt[PM_PATH_MAX];

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
		if (mi_field(p, le, 4, mnt, sizeof(mnt)) && !strcmp(mnt, dir))
			return true;
		p = le + 1;
	}
	return false;
}

int pm_tracefs_unmounted(struct pm_ctx *ctx, const char *mountinfo,
			 size_t len)
{
	struct stat st, up;
	int fd, parent, e = 0;
	DIR *d;

	if (pm_mountinfo_has(mountinfo, len, TRACEFS))
		return 0;
	fd = pm_open(ctx, TRACEFS, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return fd == -ENOENT || fd == -ENOTDIR ? 0 : fd;
	parent = pm_open(ctx, "/sys/kernel", O_RDONLY | O_DIRECTORY);
	/* Another device than its parent's: a mount point all the same. */
	if (parent < 0 || fstat(fd, &st) < 0 || fstat(parent, &up) < 0 ||
	    st.st_dev != up.st_dev)
		e = -1;
	if (parent >= 0)
		close(parent);
	d = e ? NULL : fdopendir(fd);
	if (!d) {
		close(fd);
		return 0;
	}
	for (struct dirent *de; (de = readdir(d));)
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) {
			e = -1;
			break;
		}
	closedir(d);
	return e ? 0 : 1;
}

int pm_tracefs_mount(struct pm_ctx *ctx)
{
	char *text = NULL;
	ssize_t n;
	int r;

	if (!ctx->real_root)
		return 0;
	n = pm_file_read(ctx, MOUNTINFO, &text);
	if (n < 0)
		return (int)n;
	r = pm_tracefs_unmounted(ctx, text, (size_t)n);
	free(text);
	if (r <= 0)
		return r;
	r = pm_write_allowed(ctx, TRACEFS);
	if (r < 0)
		return r;
	if (mount("tracefs", TRACEFS, "tracefs",
		  MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) < 0)
		return pm_err_set(ctx, "mount", TRACEFS, "tracefs", errno,
				  NULL);
	return 1;
}

int pm_tracefs_umount(struct pm_ctx *ctx)
{
	/* Busy (a reader of the trace): detached, gone once it lets go. */
	if (umount2(TRACEFS, 0) < 0 &&
	    (errno != EBUSY || umount2(TRACEFS, MNT_DETACH) < 0))
		return pm_err_set(ctx, "unmount", TRACEFS, NULL, errno, NULL);
	return 0;
}
