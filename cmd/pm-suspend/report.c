// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The report of a cycle: one JSON document with --json (or its kv
 * lines with -F kv); otherwise a
 * summary to syslog (at the real root), to the log, and to stderr when
 * it is a terminal or with -v.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "ps.h"

/* prepare_s, kernel_s, asleep_s (null for a leg that did not reach the
 * state write) and resume_s: the report's and the history's. */
void ps_json_times(struct pm_out *o, const struct ps_result *r)
{
	if (r->attempted) {
		pm_out_double(o, "prepare_s", r->prepare_s, 6);
		pm_out_double(o, "kernel_s", r->kernel_s, 6);
		pm_out_double(o, "asleep_s", r->asleep_s, 6);
	} else {
		pm_out_null(o, "prepare_s");
		pm_out_null(o, "kernel_s");
		pm_out_null(o, "asleep_s");
	}
	pm_out_double(o, "resume_s", r->resume_s, 6);
}

static uint64_t moved(const struct pm_wsrc *a, int na, const struct pm_wsrc *b)
{
	for (int i = 0; i < na; i++)
		if (!strcmp(a[i].id, b->id)) {
			uint64_t x = b->wakeup_count, y = a[i].wakeup_count;

			if (x == PM_UNKNOWN || y == PM_UNKNOWN) {
				x = b->event_count;
				y = a[i].event_count;
			}
			return x != PM_UNKNOWN && y != PM_UNKNOWN && x > y ?
				       x - y :
				       0;
		}
	return 0;
}

/* --userspace: the image pmtools wrote, null for the kernel's. */
static void json_user(struct pm_out *o, const struct ps_result *r)
{
	if (!r->user || !r->img_bytes) {
		pm_out_null(o, "image");
		return;
	}
	pm_out_obj_begin(o, "image");
	pm_out_str(o, "id", r->img_id);
	pm_out_u64(o, "image_bytes", r->img_bytes);
	pm_out_u64(o, "stored_bytes", r->stored_bytes);
	pm_out_double(o, "ratio", (double)r->stored_bytes /
				  (double)r->img_bytes, 4);
	pm_out_double(o, "write_s", r->write_s, 3);
	pm_out_double(o, "mb_per_s", r->write_s > 0 ?
			(double)r->img_bytes / r->write_s / 1e6 : 0, 1);
	pm_out_double(o, "resume_read_s", r->read_s, 3);
	pm_out_obj_end(o);
}

static void json_leg(struct pm_out *o, const struct ps *p,
		     const struct ps_result *r)
{
	const struct ps_leg *l = r->leg;

	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "mode", pm_sleep_mode_name(l->mode));
	pm_out_str(o, "state", l->state);
	pm_out_str_or_null(o, "mem_sleep", l->mem_sleep ? l->mem_sleep : "");
	pm_out_str_or_null(o, "disk", l->disk ? l->disk : "");
	pm_out_bool(o, "entered", r->entered);
	pm_out_str_or_null(o, "error", r->error);
	if (r->err)
		pm_out_str(o, "errno", pm_errno_name(r->err));
	else
		pm_out_null(o, "errno");
	pm_out_str_or_null(o, "failure", r->failure);
	pm_out_obj_begin(o, "last_failed");
	pm_out_str_or_null(o, "dev", r->after.last_failed_dev);
	if (r->after.last_failed_errno != PM_UNKNOWN_S64)
		pm_out_s64(o, "errno", r->after.last_failed_errno);
	else
		pm_out_null(o, "errno");
	pm_out_str_or_null(o, "step", r->after.last_failed_step);
	pm_out_obj_end(o);
	ps_json_times(o, r);
	json_user(o, r);
	if (r->alarm)
		pm_out_u64(o, "alarm", r->alarm);
	else
		pm_out_null(o, "alarm");
	pm_out_bool(o, "alarm_woke", r->alarm_woke);
	pm_out_obj_begin(o, "suspend_stats");
	for (int i = 0; i < PM_SUSPEND_STATS; i++) {
		uint64_t a = r->before.v[i], b = r->after.v[i];

		pm_out_u64_or_null(o, pm_suspend_stat_names[i],
				   a == PM_UNKNOWN || b == PM_UNKNOWN ? PM_UNKNOWN :
				   b >= a ? b - a :
					    b);
	}
	pm_out_obj_end(o);
	pm_out_obj_begin(o, "wake");
	if (r->wake_irq >= 0)
		pm_out_u64(o, "irq", (uint64_t)r->wake_irq);
	else
		pm_out_null(o, "irq");
	pm_out_str_or_null(o, "irq_name", r->wake_irq_name);
	pm_out_arr_begin(o, "sources", "source");
	for (int i = 0; i < r->nsrc1; i++) {
		uint64_t d = moved(r->src0, r->nsrc0, &r->src1[i]);

		if (!d)
			continue;
		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "id", r->src1[i].id);
		pm_out_str(o, "name", r->src1[i].name);
		pm_out_u64(o, "count", d);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	pm_out_obj_end(o);
	ps_timings_json(o, p, r);
	pm_out_obj_end(o);
}

static void json(struct ps *p, int status)
{
	struct pm_out o;

	pm_tool_out(&p->t, &o);
	pm_out_obj_begin(&o, NULL);
	pm_out_str(&o, "mode", pm_sleep_mode_name(p->mode));
	pm_out_bool(&o, "dry_run", p->t.dry_run);
	pm_out_str_or_null(&o, "test", p->test_level ? p->test_level : "");
	pm_out_u64(&o, "status", (uint64_t)status);
	pm_out_arr_begin(&o, "legs", "leg");
	for (int i = 0; i < p->nres; i++)
		json_leg(&o, p, &p->res[i]);
	pm_out_arr_end(&o);
	pm_out_arr_begin(&o, "hooks", "hook");
	for (int i = 0; i < p->nrec; i++) {
		const struct ps_hookrec *h = &p->rec[i];

		pm_out_obj_begin(&o, NULL);
		pm_out_str(&o, "path", h->path);
		pm_out_str(&o, "phase", h->phase);
		pm_out_words(&o, "args", h->args);
		if (h->status >= 0)
			pm_out_u64(&o, "status", (uint64_t)h->status);
		else
			pm_out_null(&o, "status");
		pm_out_str(&o, "result", h->result);
		pm_out_double(&o, "time_s", h->seconds, 6);
		pm_out_obj_end(&o);
	}
	pm_out_arr_end(&o);
	pm_out_obj_end(&o);
	pm_tool_out_done(&p->t, &o);
}

static void say(struct ps *p, bool tty, int prio, const char *msg)
{
	if (p->ctx.real_root)
		syslog(prio, "%s", msg);
	if (tty)
		fprintf(stderr, "%s: %s\n", p->name, msg);
}

static void summary(struct ps *p, const struct ps_result *r, bool tty)
{
	char line[1024], src[512] = "";
	int hooks = 0, n = 0;

	for (int i = 0; i < p->nrec; i++)
		hooks += p->rec[i].status >= 0 && !strcmp(p->rec[i].phase, "pre");
	if (r->entered) {
		snprintf(line, sizeof(line),
			 "%s: prepared in %.3f s, asleep %.3f s, kernel %.3f "
			 "s, resumed in %.3f s, %d hooks",
			 pm_sleep_mode_name(r->leg->mode), r->prepare_s,
			 r->asleep_s, r->kernel_s, r->resume_s, hooks);
		say(p, tty, LOG_INFO, line);
	}
	if (r->wake_irq >= 0 || r->nsrc1 > 0) {
		for (int i = 0; i < r->nsrc1; i++) {
			uint64_t d = moved(r->src0, r->nsrc0, &r->src1[i]);
			size_t k = strlen(src);

			if (d && k < sizeof(src))
				snprintf(src + k, sizeof(src) - k, "%s%s (+%llu)",
					 n++ ? ", " : "",
					 r->src1[i].name[0] ? r->src1[i].name :
							      r->src1[i].id,
					 (unsigned long long)d);
		}
		if (r->entered && (r->wake_irq >= 0 || n)) {
			char irq[128] = "no wake IRQ recorded";

			if (r->wake_irq >= 0)
				snprintf(irq, sizeof(irq), "IRQ %lld%s%s%s",
					 (long long)r->wake_irq,
					 r->wake_irq_name[0] ? " (" : "",
					 r->wake_irq_name,
					 r->wake_irq_name[0] ? ")" : "");
			snprintf(line, sizeof(line), "woken by %s%s%s", irq,
				 n ? "; wakeup sources that moved: " : "", src);
			say(p, tty, LOG_INFO, line);
			ps_log(p, "%s", line);
		}
	}
}

void ps_report(struct ps *p, int status)
{
	bool tty = (isatty(2) || p->t.verbose > 0) && p->t.verbose >= 0;

	if (p->ctx.real_root)
		openlog(p->name, LOG_PID, LOG_DAEMON);
	for (int i = 0; i < p->nres; i++) {
		const struct ps_result *r = &p->res[i];
		char line[1100];

		if (r->error[0]) {
			snprintf(line, sizeof(line), "%s%s%s", r->error,
				 r->failure[0] ? "; " : "", r->failure);
			/* The error itself always goes to stderr. */
			if (p->ctx.real_root)
				syslog(LOG_ERR, "%s", line);
			if (!p->diagnose) /* diagnose named it already */
				pm_warn(&p->t, "%s", line);
		}
		if (!p->t.dry_run)
			summary(p, r, tty);
		/* Asked for: on stdout, unless the JSON report has it. */
		if (!p->t.dry_run && p->t.fmt == PM_FMT_HUMAN)
			ps_timings_human(stdout, p, r);
	}
	if (p->t.fmt == PM_FMT_JSON || p->t.fmt == PM_FMT_KV)
		json(p, status);
	if (p->ctx.real_root)
		closelog();
}
