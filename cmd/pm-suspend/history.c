// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The history of the sleeps: after each cycle, one JSON line per leg in
 * the history log (lib/history.c: appended whole, rotated at its limit;
 * a log that cannot be written is a warning, never the sleep's failure);
 * and --history, the log summed up per ISO week (cycles, success rate,
 * median and worst resume time, wake reasons) as text, JSON or kv, or
 * with -F prom the pm_suspend_* metrics for node_exporter's textfile
 * collector.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ps.h"

/* An error's text in the line: long enough for the kernel's reason. */
#define PS_HIST_ERROR_MAX 512

static const char *const result_names[] = { "ok", "failed", "skipped" };

static enum pm_hist_result leg_result(const struct ps_result *r)
{
	return r->entered ? PM_HIST_OK :
	       r->attempted ? PM_HIST_FAILED : PM_HIST_SKIPPED;
}

/* The device that failed: the trace's callback, else the one the
 * kernel's suspend_stats named when its fail count moved in this leg. */
static void json_failed(struct pm_out *o, const struct ps_result *r)
{
	const struct pm_suspend_stats *a = &r->before, *b = &r->after;
	int k = r->traced ? pm_trace_failed(&r->trace) : -1;
	const struct pm_trace_cb *c = k >= 0 ? &r->trace.cb[k] : NULL;
	bool stats = !c && r->attempted && !r->entered &&
		     b->last_failed_dev[0] && a->v[1] != PM_UNKNOWN &&
		     b->v[1] != PM_UNKNOWN && b->v[1] != a->v[1];

	pm_out_str_or_null(o, "failed_device",
			   c ? c->device : stats ? b->last_failed_dev : "");
	pm_out_str_or_null(o, "failed_driver", c ? c->driver : "");
	pm_out_str_or_null(o, "failed_phase",
			   c && c->span >= 0 ? r->trace.span[c->span].name :
			   stats		 ? b->last_failed_step :
						   "");
	if (c)
		pm_out_s64(o, "failed_errno", c->error);
	else if (stats && b->last_failed_errno != PM_UNKNOWN_S64)
		pm_out_s64(o, "failed_errno", b->last_failed_errno);
	else
		pm_out_null(o, "failed_errno");
	pm_out_str_or_null(o, "failed_source",
			   c ? "trace" : stats ? "suspend_stats" : "");
}

static void json_times(struct pm_out *o, const struct ps_result *r)
{
	struct pm_trace_split s;

	ps_json_times(o, r);
	if (r->traced && pm_trace_split(&r->trace, &s) == 0)
		pm_out_double(o, "trace_resume_s", (double)s.resume_us / 1e6,
			      6);
	else
		pm_out_null(o, "trace_resume_s");
	if (r->wake_irq >= 0 && r->entered)
		pm_out_u64(o, "wake_irq", (uint64_t)r->wake_irq);
	else
		pm_out_null(o, "wake_irq");
	pm_out_str_or_null(o, "wake_irq_name",
			   r->entered ? r->wake_irq_name : "");
}

/* One leg as one line: the fields of the JSON report's leg that say how
 * it went, without the lists. */
static void json_line(struct pm_out *o, const struct ps_result *r)
{
	char error[PS_HIST_ERROR_MAX];

	snprintf(error, sizeof(error), "%s", r->error);
	pm_out_obj_begin(o, NULL);
	pm_out_u64(o, "v", 1);
	pm_out_s64(o, "time", (int64_t)time(NULL));
	pm_out_str(o, "mode", pm_sleep_mode_name(r->leg->mode));
	pm_out_str(o, "state", r->leg->state);
	pm_out_str(o, "result", result_names[leg_result(r)]);
	pm_out_str_or_null(o, "error", error);
	if (r->err)
		pm_out_str(o, "errno", pm_errno_name(r->err));
	else
		pm_out_null(o, "errno");
	pm_out_str_or_null(o, "failure", r->failure);
	json_failed(o, r);
	json_times(o, r);
	pm_out_obj_begin(o, "suspend_stats");
	for (int i = 0; i < PM_SUSPEND_STATS; i++) {
		uint64_t a = r->before.v[i], b = r->after.v[i];

		/* As the report: a counter that went back is since 0. */
		if (a == PM_UNKNOWN || b == PM_UNKNOWN)
			b = PM_UNKNOWN;
		else if (b >= a)
			b -= a;
		pm_out_u64_or_null(o, pm_suspend_stat_names[i], b);
	}
	pm_out_obj_end(o);
	pm_out_obj_end(o);
}

/* The line of leg r, malloc'd in *line: its length, or -1. */
static ssize_t make_line(const struct ps_result *r, char **line)
{
	struct pm_out o;
	size_t len = 0;
	FILE *f;

	*line = NULL;
	f = open_memstream(line, &len);
	if (!f)
		return -1;
	pm_out_open(&o, PM_FMT_JSON, NULL);
	o.f = f;
	o.compact = true;
	json_line(&o, r);
	if (pm_out_commit(&o) < 0 || fclose(f) != 0) {
		free(*line);
		*line = NULL;
		return -1;
	}
	return (ssize_t)len;
}

void ps_history_log(struct ps *p)
{
	char buf[PM_PATH_MAX + 600];

	/* A pm_test run does not sleep: its times are not a cycle's. */
	if (p->t.dry_run || p->test_level)
		return;
	for (int i = 0; i < p->nres; i++) {
		char *line;
		ssize_t n = make_line(&p->res[i], &line);

		if (n < 0) {
			pm_warn(&p->t, "cannot add the cycle to %s: out of "
				       "memory",
				PM_HIST_LOG);
		} else if (pm_hist_append(&p->ctx, line, (size_t)n) < 0) {
			pm_warn(&p->t,
				"cannot add the cycle to the history: %s",
				pm_err_str(&p->ctx.err, buf, sizeof(buf)));
			pm_err_clear(&p->ctx);
		}
		free(line);
	}
}

/* ------------------------------------------------------------ --history */

/* The options of a cycle, which --history does not take. */
static void history_rules(struct ps *p, const char *mode_arg,
			  bool set_timeout, bool set_delay)
{
	const struct {
		bool given;
		const char *name;
	} opts[] = {
		{ p->check, "--check" },
		{ p->t.dry_run, "--dry-run" },
		{ p->test_level, "--test" },
		{ p->diagnose, "--diagnose" },
		{ p->wake_after_s, "--wake-after" },
		{ p->wake_at, "--wake-at" },
		{ p->rtc, "--rtc" },
		{ p->no_hooks, "--no-hooks" },
		/* before --timings, which --timeline turns on */
		{ p->timeline != NULL, "--timeline" },
		{ p->timings, "--timings" },
		{ p->budget_s > 0, "--budget" },
		{ p->userspace, "--userspace" },
		{ p->force, "--force" },
		{ p->config, "--config" },
		{ set_timeout, "--hook-timeout" },
		{ set_delay, "--hibernate-delay" },
	};

	if (mode_arg)
		pm_usage_error(&p->t,
			       "--history reads the cycles of every mode: it "
			       "takes no MODE ('%s')",
			       mode_arg);
	for (size_t i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (opts[i].given)
			pm_usage_error(&p->t,
				       "--history reads the log of past "
				       "cycles: %s does not apply",
				       opts[i].name);
	pm_tool_only(&p->t, PM_SEEN_FORMAT | PM_SEEN_OUTPUT, "--history");
	pm_tool_formats(&p->t, 1u << PM_FMT_HUMAN | 1u << PM_FMT_JSON |
				       1u << PM_FMT_KV | 1u << PM_FMT_PROM);
}

static const char *week_name(const struct pm_hist_week *w, char *buf,
			     size_t size)
{
	snprintf(buf, size, "%04d-W%02d", w->year, w->week);
	return buf;
}

static double pct(unsigned a, unsigned b)
{
	return b ? 100.0 * a / b : NAN;
}

static void json_week(struct pm_out *o, const struct pm_hist_week *w)
{
	char name[16];

	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "week", week_name(w, name, sizeof(name)));
	pm_out_u64(o, "cycles", w->cycles);
	pm_out_u64(o, "ok", w->ok);
	pm_out_u64(o, "failed", w->failed);
	pm_out_u64(o, "skipped", w->skipped);
	pm_out_double(o, "success_pct", pct(w->ok, w->cycles), 1);
	pm_out_double(o, "resume_median_s", w->resume_median_s, 6);
	pm_out_double(o, "resume_worst_s", w->resume_worst_s, 6);
	pm_out_u64(o, "traced", w->ntrace);
	pm_out_double(o, "trace_resume_median_s", w->trace_median_s, 6);
	pm_out_double(o, "trace_resume_worst_s", w->trace_worst_s, 6);
	pm_out_arr_begin(o, "wake_reasons", "wake");
	for (int i = 0; i < w->nwake; i++) {
		pm_out_obj_begin(o, NULL);
		if (w->wake[i].irq >= 0)
			pm_out_u64(o, "irq", (uint64_t)w->wake[i].irq);
		else
			pm_out_null(o, "irq");
		pm_out_str_or_null(o, "name", w->wake[i].name);
		pm_out_u64(o, "cycles", w->wake[i].cycles);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	pm_out_obj_end(o);
}

static void json_history(struct pm_out *o, const struct pm_hist *h,
			 const struct pm_hist_week *w, int nw)
{
	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "log", PM_HIST_LOG);
	pm_out_u64(o, "lines", (uint64_t)h->lines);
	pm_out_u64(o, "cycles", (uint64_t)h->n);
	pm_out_u64(o, "unparsed", (uint64_t)h->unparsed);
	pm_out_str_or_null(o, "first_unparsed", h->first_bad);
	pm_out_arr_begin(o, "weeks", "week");
	for (int i = 0; i < nw; i++)
		json_week(o, &w[i]);
	pm_out_arr_end(o);
	pm_out_obj_end(o);
}

/* "12.345" ms, or "-" */
static const char *ms(double s, char *buf, size_t size)
{
	if (isnan(s))
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%.3f", s * 1e3);
	return buf;
}

static void human_wake(struct pm_out *o, const struct pm_hist_week *w)
{
	if (!w->nwake)
		return;
	pm_out_printf(o, "          woken by:");
	for (int i = 0; i < w->nwake; i++) {
		const struct pm_hist_wake *k = &w->wake[i];

		if (k->irq < 0)
			pm_out_printf(o, "%s no IRQ recorded %u", i ? "," : "",
				      k->cycles);
		else
			pm_out_printf(o, "%s IRQ %lld%s%s%s %u", i ? "," : "",
				      (long long)k->irq, k->name[0] ? " (" : "",
				      k->name, k->name[0] ? ")" : "",
				      k->cycles);
	}
	pm_out_printf(o, "\n");
}

static void human_history(struct pm_out *o, const struct pm_hist_week *w,
			  int nw)
{
	char name[16], a[32], b[32], c[32], d[32];

	pm_out_printf(o, "%-27s%-22s%s\n", "", "resume ms",
		      "kernel resume ms");
	pm_out_printf(o, "%-8s  %6s  %7s  %9s  %9s  %9s  %9s\n", "week",
		      "cycles", "ok %", "median", "worst", "median",
		      "worst");
	for (int i = 0; i < nw; i++) {
		pm_out_printf(o, "%-8s  %6u  %7.1f  %9s  %9s  %9s  %9s\n",
			      week_name(&w[i], name, sizeof(name)),
			      w[i].cycles, pct(w[i].ok, w[i].cycles),
			      ms(w[i].resume_median_s, a, sizeof(a)),
			      ms(w[i].resume_worst_s, b, sizeof(b)),
			      ms(w[i].trace_median_s, c, sizeof(c)),
			      ms(w[i].trace_worst_s, d, sizeof(d)));
		human_wake(o, &w[i]);
	}
}

static void gauge(struct pm_out *o, const char *name, const char *help)
{
	pm_out_prom_meta(o, name, "gauge", help);
}

/* Cycles and failures by mode. */
static void prom_modes(struct pm_out *o, const struct pm_hist *h)
{
	unsigned n[PM_MODE_SUSPEND_THEN_HIBERNATE + 1] = { 0 };
	unsigned bad[PM_MODE_SUSPEND_THEN_HIBERNATE + 1] = { 0 };
	const char *l[] = { "mode", NULL, NULL };

	for (int i = 0; i < h->n; i++) {
		n[h->rec[i].mode]++;
		bad[h->rec[i].mode] += h->rec[i].result != PM_HIST_OK;
	}
	gauge(o, "pm_suspend_cycles",
	      "Sleep cycles in pm-suspend's history log, by mode.");
	for (int m = 0; m <= PM_MODE_SUSPEND_THEN_HIBERNATE; m++)
		if (n[m]) {
			l[1] = pm_sleep_mode_name((enum pm_sleep_mode)m);
			pm_out_prom_sample_u64(o, "pm_suspend_cycles", l, n[m]);
		}
	gauge(o, "pm_suspend_failures",
	      "Cycles of the history log that did not sleep and resume "
	      "(failed or skipped), by mode.");
	for (int m = 0; m <= PM_MODE_SUSPEND_THEN_HIBERNATE; m++)
		if (n[m]) {
			l[1] = pm_sleep_mode_name((enum pm_sleep_mode)m);
			pm_out_prom_sample_u64(o, "pm_suspend_failures", l,
					       bad[m]);
		}
}

/* The last resume of h, as metrics. */
static void prom_resume(struct pm_out *o, const struct pm_hist_rec *ok)
{
	gauge(o, "pm_suspend_last_resume_seconds",
	      "pm-suspend's resume (hooks, restores) of the last cycle that "
	      "resumed.");
	pm_out_prom_sample(o, "pm_suspend_last_resume_seconds", NULL,
			   ok->resume_s);
	if (isnan(ok->trace_resume_s))
		return;
	gauge(o, "pm_suspend_last_trace_resume_seconds",
	      "The kernel's resume in the trace (--timings) of the last "
	      "cycle that resumed, when it was traced.");
	pm_out_prom_sample(o, "pm_suspend_last_trace_resume_seconds", NULL,
			   ok->trace_resume_s);
}

/* The last cycle, the last resume, the last failure, the last device
 * that failed. */
static void prom_last(struct pm_out *o, const struct pm_hist *h)
{
	const struct pm_hist_rec *ok = NULL, *bad = NULL, *dev = NULL;

	for (int i = 0; i < h->n; i++) {
		if (h->rec[i].result == PM_HIST_OK)
			ok = &h->rec[i];
		else
			bad = &h->rec[i];
		if (h->rec[i].failed_device[0])
			dev = &h->rec[i];
	}
	gauge(o, "pm_suspend_last_cycle_timestamp_seconds",
	      "When the last cycle of the history log ended.");
	pm_out_prom_sample(o, "pm_suspend_last_cycle_timestamp_seconds", NULL,
			   (double)h->rec[h->n - 1].time);
	if (ok)
		prom_resume(o, ok);
	if (bad) {
		const char *l[] = { "mode", pm_sleep_mode_name(bad->mode),
				    "result", result_names[bad->result],
				    NULL };

		gauge(o, "pm_suspend_last_failure_timestamp_seconds",
		      "When the last cycle that failed or was skipped ended.");
		pm_out_prom_sample(o,
				   "pm_suspend_last_failure_timestamp_seconds",
				   l, (double)bad->time);
	}
	if (dev) {
		const char *l[] = { "device", dev->failed_device,
				    "driver", dev->failed_driver,
				    "mode",   pm_sleep_mode_name(dev->mode),
				    NULL };

		gauge(o, "pm_suspend_last_failed_device_timestamp_seconds",
		      "When a device last failed a sleep, and which.");
		pm_out_prom_sample(
			o, "pm_suspend_last_failed_device_timestamp_seconds", l,
			(double)dev->time);
	}
}

static void prom_history(struct pm_out *o, const struct pm_hist *h)
{
	prom_modes(o, h);
	prom_last(o, h);
	gauge(o, "pm_suspend_history_unparsed_lines",
	      "Lines of the history log that did not parse (not counted).");
	pm_out_prom_sample_u64(o, "pm_suspend_history_unparsed_lines", NULL,
			       (uint64_t)h->unparsed);
}

/* The log read, or exit: 1 when it cannot be read, 3 with no cycle. */
static void read_history(struct ps *p, struct pm_hist *h)
{
	char buf[PM_PATH_MAX + 600];

	if (pm_hist_read(&p->ctx, h) < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot read the history: %s",
		       pm_err_str(&p->ctx.err, buf, sizeof(buf)));
	if (h->unparsed)
		pm_warn(&p->t,
			"%d line%s of the history not parsed, not counted "
			"(the first: %s)",
			h->unparsed, h->unparsed > 1 ? "s" : "", h->first_bad);
	if (!h->files)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no history yet: %s does not exist (each sleep adds "
		       "a line)",
		       PM_HIST_LOG);
	if (!h->n) {
		pm_hist_free(h);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no history yet: %s holds no cycle", PM_HIST_LOG);
	}
}

int ps_history(struct ps *p, const char *mode_arg, bool set_timeout,
	       bool set_delay)
{
	struct pm_hist_week *w = NULL;
	struct pm_hist h;
	struct pm_out o;
	int nw = 0;

	history_rules(p, mode_arg, set_timeout, set_delay);
	pm_tool_ctx(&p->t, &p->ctx);
	ps_probe_output(p); /* bad input, before the log */
	read_history(p, &h);
	if (p->t.fmt != PM_FMT_PROM) {
		nw = pm_hist_weeks(&h, &w);
		if (nw < 0) {
			pm_hist_free(&h);
			pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
		}
	}
	pm_tool_out(&p->t, &o);
	if (p->t.fmt == PM_FMT_PROM)
		prom_history(&o, &h);
	else if (p->t.fmt == PM_FMT_HUMAN)
		human_history(&o, w, nw);
	else
		json_history(&o, &h, w, nw);
	pm_tool_out_done(&p->t, &o);
	pm_hist_weeks_free(w, nw);
	pm_hist_free(&h);
	pm_ctx_close(&p->ctx);
	return PM_EXIT_OK;
}
