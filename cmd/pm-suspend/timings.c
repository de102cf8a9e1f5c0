// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --timings: the kernel's own trace of the sleep.  The power events are
 * set up in tracefs through the sleep's transaction (each file read
 * first, put back as found after the resume, a failure or a signal),
 * the trace file read after the resume, and reported: each phase both
 * ways, the slowest device callbacks each way, the sleep split in
 * suspend, asleep and resume, the callback that failed, --budget.
 * Without tracefs, the kernel's pm_print_times logs each device's time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps.h"

/*
 * --json traces too where tracefs offers the power events: the report
 * then carries the timings.  Without them it is as it was ("timings":
 * null): pm_print_times is only for --timings, since it fills the
 * kernel's log.
 */
static bool json_traces(const struct ps *p)
{
	return !p->timings && p->t.fmt == PM_FMT_JSON;
}

/* This leg is timed: --timings, or --json with tracefs set up. */
static bool timed(const struct ps *p, const struct ps_result *r)
{
	return p->timings || r->tsource;
}

/*
 * On the real root, a tracefs not mounted (/sys/kernel/tracing an empty
 * folder, no mount point) is mounted for the sleep and unmounted after
 * it (ps_timings_unmount).  One that cannot be is as no tracefs.
 */
static void mount_tracefs(struct ps *p)
{
	const char *dir;
	char buf[700];
	int e;

	if (p->t.dry_run || p->tracefs_mounted ||
	    pm_tracefs_find(&p->ctx, &dir) == 0)
		return;
	e = pm_tracefs_mount(&p->ctx);
	if (e > 0)
		p->tracefs_mounted = true;
	if (e < 0 && p->t.verbose > 0)
		pm_warn(&p->t, "cannot mount tracefs: %s",
			pm_err_str(&p->ctx.err, buf, sizeof(buf)));
	pm_err_clear(&p->ctx);
}

void ps_timings_unmount(struct ps *p)
{
	char buf[700];

	if (!p->tracefs_mounted)
		return;
	p->tracefs_mounted = false;
	if (pm_tracefs_umount(&p->ctx) < 0)
		pm_warn(&p->t, "cannot unmount tracefs: %s",
			pm_err_str(&p->ctx.err, buf, sizeof(buf)));
	pm_err_clear(&p->ctx);
}

/* Planned in the sleep's transaction, applied with pm_test and the rest. */
int ps_timings_plan(struct ps *p, struct ps_result *r)
{
	struct pm_txn *t = &p->sx.txn;
	const char *dir;
	int n0 = t->n, e;

	if (p->timings || json_traces(p))
		mount_tracefs(p);
	if (json_traces(p)) {
		if (pm_tracefs_find(&p->ctx, &dir) == 0 &&
		    pm_trace_plan(t, dir) == 0) {
			pm_fpdt_read(&p->ctx, &r->fpdt0);
			r->tsource = "tracefs";
			return 0;
		}
		/* Not offered, or not readable: the report as without. */
		pm_txn_truncate(t, n0);
		pm_err_clear(&p->ctx);
		return 0;
	}
	if (!p->timings)
		return 0;
	/* Its resume_count moves when the firmware records this sleep. */
	pm_fpdt_read(&p->ctx, &r->fpdt0);
	if (pm_tracefs_find(&p->ctx, &dir) == 0) {
		e = pm_trace_plan(t, dir);
		if (e == 0) {
			r->tsource = "tracefs";
			return 0;
		}
		pm_txn_truncate(t, n0);
		if (e != -ENOENT)
			return e;
		/* A kernel without the power events: as without tracefs. */
	}
	pm_err_clear(&p->ctx);
	e = pm_print_times_plan(t);
	if (e == 0) {
		r->tsource = "pm_print_times";
		snprintf(r->tnote, sizeof(r->tnote),
			 "no tracefs with the power events: the kernel logs "
			 "each device's time (pm_print_times), no detail here");
		return 0;
	}
	pm_txn_truncate(t, n0);
	if (e != -ENOENT)
		return e;
	pm_err_clear(&p->ctx);
	snprintf(r->tnote, sizeof(r->tnote),
		 "no tracefs and no /sys/power/pm_print_times: no timings");
	return 0;
}

/* After the state write returned, before the tracing is put back. */
void ps_timings_read(struct ps *p, struct ps_result *r)
{
	const char *dir;
	char *text = NULL, buf[700];
	size_t len = 0;

	if (!timed(p, r) || !r->attempted || p->t.dry_run)
		return;
	r->hw_sleep_us = pm_last_hw_sleep_us(&p->ctx);
	r->fpdt = pm_fpdt_read(&p->ctx, &r->fpdt1) == 0;
	if (!r->tsource || strcmp(r->tsource, "tracefs"))
		return;
	if (pm_tracefs_find(&p->ctx, &dir) < 0 ||
	    pm_trace_read(&p->ctx, dir, &text, &len) < 0) {
		snprintf(r->tnote, sizeof(r->tnote),
			 "cannot read the trace: %s",
			 pm_err_str(&p->ctx.err, buf, sizeof(buf)));
		pm_err_clear(&p->ctx);
		return;
	}
	if (pm_trace_parse(text, len, &r->trace) < 0)
		snprintf(r->tnote, sizeof(r->tnote),
			 "cannot parse the trace: %s", strerror(ENOMEM));
	else
		r->traced = true;
	free(text);
}

static double ms(uint64_t us)
{
	return (double)us / 1000.0;
}

static const char *dir_name(enum pm_trace_dir d)
{
	return d == PM_TRACE_SUSPEND ? "suspend" :
	       d == PM_TRACE_RESUME  ? "resume" :
				       "other";
}

static const char *phase_of(const struct pm_trace *t,
			    const struct pm_trace_cb *c)
{
	return c->span >= 0 ? t->span[c->span].name : "";
}

/*
 * The devices that broke the budget: the kernel's resume over it, the
 * resume callbacks, slowest first, until their time covers the excess.
 * Returns how many (in idx), 0 when within it or no budget.
 */
static int over_budget(const struct ps *p, const struct ps_result *r,
		       const struct pm_trace_split *s, int *idx, int n)
{
	uint64_t budget = (uint64_t)(p->budget_s * 1e6 + 0.5), sum = 0;
	int k, i;

	if (!p->budget_s || s->resume_us <= budget)
		return 0;
	k = pm_trace_slowest(&r->trace, PM_TRACE_RESUME, idx, n);
	for (i = 0; i < k && sum < s->resume_us - budget; i++)
		sum += pm_trace_cb_us(&r->trace.cb[idx[i]]);
	return i;
}

#define PS_SLOWEST 10

/* The firmware's records are of this sleep: its resume count moved. */
static bool fpdt_this(const struct ps_result *r)
{
	return r->fpdt && r->fpdt0.resume_count != PM_UNKNOWN &&
	       r->fpdt1.resume_count != PM_UNKNOWN &&
	       r->fpdt1.resume_count > r->fpdt0.resume_count;
}

/*
 * The firmware's part of the resume (its resume and the kernel's, from
 * the trace), as a fraction; a negative number when either is unknown.
 */
static double fpdt_share(const struct ps_result *r)
{
	struct pm_trace_split s;
	uint64_t fw = r->fpdt1.resume_prev_ns;

	if (!fpdt_this(r) || fw == PM_UNKNOWN || !r->traced ||
	    pm_trace_split(&r->trace, &s) < 0 || fw + s.resume_us * 1000 == 0)
		return -1;
	return (double)fw / (double)(fw + s.resume_us * 1000);
}

static void json_ns(struct pm_out *o, const char *key, uint64_t ns)
{
	if (ns == PM_UNKNOWN)
		pm_out_null(o, key);
	else
		pm_out_double(o, key, (double)ns / 1e9, 9);
}

static void json_firmware(struct pm_out *o, const struct ps_result *r)
{
	double share = fpdt_share(r);

	if (!r->fpdt) {
		pm_out_null(o, "firmware");
		return;
	}
	pm_out_obj_begin(o, "firmware");
	pm_out_str(o, "source", "acpi_fpdt");
	pm_out_u64_or_null(o, "resume_count", r->fpdt1.resume_count);
	pm_out_bool(o, "this_sleep", fpdt_this(r));
	json_ns(o, "suspend_s", pm_fpdt_suspend_ns(&r->fpdt1));
	json_ns(o, "resume_s", r->fpdt1.resume_prev_ns);
	json_ns(o, "resume_avg_s", r->fpdt1.resume_avg_ns);
	if (share >= 0)
		pm_out_double(o, "resume_share", share, 4);
	else
		pm_out_null(o, "resume_share");
	pm_out_obj_end(o);
}

static void json_cb(struct pm_out *o, const struct pm_trace *t,
		    const struct pm_trace_cb *c)
{
	uint64_t us = pm_trace_cb_us(c);

	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "device", c->device);
	pm_out_str_or_null(o, "driver", c->driver);
	pm_out_str(o, "parent", c->parent);
	pm_out_str_or_null(o, "phase", phase_of(t, c));
	pm_out_str_or_null(o, "ops", c->ops);
	pm_out_str(o, "event", c->event);
	if (us != PM_UNKNOWN)
		pm_out_double(o, "time_s", (double)us / 1e6, 6);
	else
		pm_out_null(o, "time_s");
	pm_out_s64(o, "error", c->error);
	pm_out_obj_end(o);
}

static void json_slowest(struct pm_out *o, const char *key,
			 const struct pm_trace *t, enum pm_trace_dir d)
{
	int idx[PS_SLOWEST], n = pm_trace_slowest(t, d, idx, PS_SLOWEST);

	pm_out_arr_begin(o, key, "callback");
	for (int i = 0; i < n; i++)
		json_cb(o, t, &t->cb[idx[i]]);
	pm_out_arr_end(o);
}

static void json_trace_counts(struct pm_out *o, const struct pm_trace *t)
{
	pm_out_obj_begin(o, "trace");
	pm_out_u64(o, "lines", (uint64_t)t->lines);
	pm_out_u64(o, "events", (uint64_t)t->events);
	pm_out_u64(o, "unparsed", (uint64_t)t->unparsed);
	if (t->first_bad)
		pm_out_u64(o, "first_unparsed_line", (uint64_t)t->first_bad);
	else
		pm_out_null(o, "first_unparsed_line");
	pm_out_bool(o, "truncated", t->truncated);
	pm_out_u64(o, "unmatched", (uint64_t)t->unmatched);
	pm_out_u64(o, "lost_marks", (uint64_t)t->lost_marks);
	pm_out_u64(o, "lost_events", t->lost);
	pm_out_obj_end(o);
}

static void json_split(struct pm_out *o, const struct ps *p,
		       const struct ps_result *r)
{
	struct pm_trace_split s;
	int idx[PS_SLOWEST], n = 0;
	bool split = r->traced && pm_trace_split(&r->trace, &s) == 0;

	if (split) {
		pm_out_double(o, "suspend_s", (double)s.suspend_us / 1e6, 6);
		pm_out_double(o, "asleep_s", (double)s.asleep_us / 1e6, 6);
		pm_out_double(o, "resume_s", (double)s.resume_us / 1e6, 6);
		n = over_budget(p, r, &s, idx, PS_SLOWEST);
	} else {
		pm_out_null(o, "suspend_s");
		pm_out_null(o, "asleep_s");
		pm_out_null(o, "resume_s");
	}
	if (r->hw_sleep_us != PM_UNKNOWN && r->attempted)
		pm_out_double(o, "hw_sleep_s", (double)r->hw_sleep_us / 1e6, 6);
	else
		pm_out_null(o, "hw_sleep_s");
	if (p->budget_s > 0)
		pm_out_double(o, "budget_s", p->budget_s, 6);
	else
		pm_out_null(o, "budget_s");
	pm_out_bool(o, "over_budget",
		    split && p->budget_s > 0 &&
			    s.resume_us > (uint64_t)(p->budget_s * 1e6 + 0.5));
	pm_out_arr_begin(o, "budget_devices", "callback");
	for (int i = 0; i < n; i++)
		json_cb(o, &r->trace, &r->trace.cb[idx[i]]);
	pm_out_arr_end(o);
}

void ps_timings_json(struct pm_out *o, const struct ps *p,
		     const struct ps_result *r)
{
	const struct pm_trace *t = &r->trace;
	int f;

	if (!timed(p, r)) {
		pm_out_null(o, "timings");
		return;
	}
	pm_out_obj_begin(o, "timings");
	pm_out_str_or_null(o, "source", r->tsource ? r->tsource : "");
	pm_out_str_or_null(o, "note", r->tnote);
	json_split(o, p, r);
	pm_out_arr_begin(o, "phases", "phase");
	for (int i = 0; i < t->nspan; i++) {
		uint64_t us = pm_trace_span_us(&t->span[i]);

		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "name", t->span[i].name);
		pm_out_u64(o, "val", t->span[i].val);
		pm_out_str(o, "direction", dir_name(t->span[i].dir));
		if (us != PM_UNKNOWN)
			pm_out_double(o, "time_s", (double)us / 1e6, 6);
		else
			pm_out_null(o, "time_s");
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	json_slowest(o, "slowest_suspend", t, PM_TRACE_SUSPEND);
	json_slowest(o, "slowest_resume", t, PM_TRACE_RESUME);
	f = pm_trace_failed(t);
	if (f >= 0) {
		pm_out_arr_begin(o, "failed", "callback");
		json_cb(o, t, &t->cb[f]);
		pm_out_arr_end(o);
	} else {
		pm_out_null(o, "failed");
	}
	json_trace_counts(o, t);
	json_firmware(o, r);
	pm_out_obj_end(o);
}

/* "e1000e 0000:00:19.0 (dpm_suspend) 30.000 ms" */
static void cb_words(char *buf, size_t size, const struct pm_trace *t,
		     const struct pm_trace_cb *c)
{
	snprintf(buf, size, "%s%s%s (%s) %.3f ms", c->driver,
		 c->driver[0] ? " " : "", c->device,
		 c->span >= 0 ? t->span[c->span].name : c->event,
		 ms(pm_trace_cb_us(c)));
}

static void human_slowest(FILE *f, const char *name, const char *what,
			  const struct pm_trace *t, enum pm_trace_dir d)
{
	int idx[PS_SLOWEST], n = pm_trace_slowest(t, d, idx, PS_SLOWEST);
	char w[400];

	if (!n)
		return;
	fprintf(f, "%s: slowest %s:\n", name, what);
	for (int i = 0; i < n; i++) {
		cb_words(w, sizeof(w), t, &t->cb[idx[i]]);
		fprintf(f, "  %s, parent %s\n", w, t->cb[idx[i]].parent);
	}
}

static void human_phases(FILE *f, const char *name,
			 const struct pm_trace *t, enum pm_trace_dir d)
{
	bool any = false;

	for (int i = 0; i < t->nspan; i++) {
		const struct pm_trace_span *s = &t->span[i];
		uint64_t us = pm_trace_span_us(s);

		if (s->dir != d || !strncmp(s->name, "CPU_O", 5))
			continue;
		if (!any)
			fprintf(f, "%s: %s phases:", name, dir_name(d));
		any = true;
		if (us == PM_UNKNOWN)
			fprintf(f, " %s ?", s->name);
		else
			fprintf(f, " %s %.3f ms", s->name, ms(us));
	}
	if (any)
		fputc('\n', f);
}

static void human_budget(FILE *f, const struct ps *p,
			 const struct ps_result *r,
			 const struct pm_trace_split *s)
{
	int idx[PS_SLOWEST], n = over_budget(p, r, s, idx, PS_SLOWEST);
	char w[400];

	if (!p->budget_s)
		return;
	if (s->resume_us <= (uint64_t)(p->budget_s * 1e6 + 0.5)) {
		fprintf(f, "%s: resume within the budget of %.3f ms\n",
			p->name, p->budget_s * 1e3);
		return;
	}
	fprintf(f, "%s: resume %.3f ms, over the budget of %.3f ms by:\n",
		p->name, ms(s->resume_us), p->budget_s * 1e3);
	for (int i = 0; i < n; i++) {
		cb_words(w, sizeof(w), &r->trace, &r->trace.cb[idx[i]]);
		fprintf(f, "  %s\n", w);
	}
}

bool ps_firmware_words(char *buf, size_t size, const struct ps_result *r)
{
	uint64_t sus = pm_fpdt_suspend_ns(&r->fpdt1);
	double share = fpdt_share(r);
	size_t n = 0;

	if (!r->fpdt)
		return false;
	if (!fpdt_this(r)) {
		snprintf(buf, size, "no record of this sleep (its resume count "
				    "did not move)");
		return true;
	}
	buf[0] = '\0';
	if (sus != PM_UNKNOWN)
		n += (size_t)snprintf(buf, size, " suspend %.3f ms",
				      (double)sus / 1e6);
	if (r->fpdt1.resume_prev_ns != PM_UNKNOWN && n < size)
		n += (size_t)snprintf(buf + n, size - n, "%s resume %.3f ms",
				      n ? "," : "",
				      (double)r->fpdt1.resume_prev_ns / 1e6);
	if (share >= 0 && n < size)
		snprintf(buf + n, size - n,
			 " (%.0f %% of the resume, the kernel's with it)",
			 share * 100);
	/* The words without the blank they were joined with. */
	memmove(buf, buf + (buf[0] == ' '), strlen(buf) + 1);
	return true;
}

static void human_firmware(FILE *f, const struct ps *p,
			   const struct ps_result *r)
{
	char w[256];

	if (ps_firmware_words(w, sizeof(w), r))
		fprintf(f, "%s: firmware (ACPI FPDT): %s\n", p->name, w);
}

/* The callback the trace saw fail, in words; false when none did. */
bool ps_failed_words(char *buf, size_t size, const struct ps_result *r)
{
	const struct pm_trace *t = &r->trace;
	int k;

	if (!r->traced)
		return false;
	k = pm_trace_failed(t);
	if (k < 0)
		return false;
	snprintf(buf, size, "%s %s failed in %s (%s): %d (%s)",
		 t->cb[k].driver, t->cb[k].device, phase_of(t, &t->cb[k]),
		 t->cb[k].event, t->cb[k].error,
		 pm_errno_name(-t->cb[k].error));
	return true;
}

void ps_timings_human(FILE *f, const struct ps *p, const struct ps_result *r)
{
	const struct pm_trace *t = &r->trace;
	struct pm_trace_split s;
	char buf[512];

	if (!timed(p, r) || !r->attempted)
		return;
	if (r->tnote[0])
		fprintf(f, "%s: timings: %s\n", p->name, r->tnote);
	if (!r->traced) {
		human_firmware(f, p, r);
		return;
	}
	if (pm_trace_split(t, &s) == 0) {
		fprintf(f,
			"%s: %s: kernel suspend %.3f ms, asleep %.3f ms, "
			"resume %.3f ms",
			p->name, pm_sleep_mode_name(r->leg->mode),
			ms(s.suspend_us), ms(s.asleep_us), ms(s.resume_us));
		if (r->hw_sleep_us != PM_UNKNOWN)
			fprintf(f, " (hardware asleep %.3f ms)",
				ms(r->hw_sleep_us));
		fputc('\n', f);
	}
	human_firmware(f, p, r);
	human_phases(f, p->name, t, PM_TRACE_SUSPEND);
	human_phases(f, p->name, t, PM_TRACE_RESUME);
	human_slowest(f, p->name, "suspend callbacks", t, PM_TRACE_SUSPEND);
	human_slowest(f, p->name, "resume callbacks", t, PM_TRACE_RESUME);
	if (ps_failed_words(buf, sizeof(buf), r))
		fprintf(f, "%s: %s\n", p->name, buf);
	if (pm_trace_split(t, &s) == 0)
		human_budget(f, p, r, &s);
	if (t->unparsed)
		fprintf(f, "%s: trace: %d line%s not parsed (the first: line "
			   "%d)%s\n",
			p->name, t->unparsed, t->unparsed > 1 ? "s" : "",
			t->first_bad, t->truncated ? ", the last one cut" : "");
	if (t->lost_marks)
		fprintf(f, "%s: trace: the ring buffer lost %llu event%s%s: "
			   "times may be missing\n",
			p->name, (unsigned long long)t->lost,
			t->lost == 1 ? "" : "s",
			t->lost_unknown ? " and more" : "");
}
