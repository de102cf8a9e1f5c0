// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sleep cycle: wakeup_count read, pre hooks, sync, the mode's
 * writes, RTC alarm, the wakeup_count handshake, the state write, then the
 * resume hooks in reverse and every old value restored.  A failure
 * before the state write skips the sleep and still runs the resume pass
 * for the hooks that ran.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ps.h"

volatile sig_atomic_t ps_signal;

static const char *const pm_dirs[] = { "/etc/pm/sleep.d",
				       "/usr/lib/pm-utils/sleep.d" };
static const char *const sd_dirs[] = { "/etc/systemd/system-sleep",
				       "/usr/lib/systemd/system-sleep" };

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ps_log(struct ps *p, const char *fmt, ...)
{
	char when[40], msg[1024];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;

	if (p->logfd < 0)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	localtime_r(&now, &tm);
	if (!strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S%z", &tm))
		when[0] = '\0';
	dprintf(p->logfd, "%s %s[%ld]: %s\n", when, p->name, (long)getpid(),
		msg);
}

static void record(struct ps *p, const struct pm_hook *h, const char *phase,
		   const char *a1, const char *a2, int status,
		   const char *result, double s, bool timed_out)
{
	struct ps_hookrec *r;

	if (p->nrec == p->caprec) {
		int cap = p->caprec ? p->caprec * 2 : 16;
		void *n = realloc(p->rec, (size_t)cap * sizeof(*p->rec));

		if (!n)
			return;
		p->rec = n;
		p->caprec = cap;
	}
	r = &p->rec[p->nrec++];
	memset(r, 0, sizeof(*r));
	snprintf(r->path, sizeof(r->path), "%s", h->path);
	snprintf(r->args, sizeof(r->args), "%s%s%s", a1, a2 ? " " : "",
		 a2 ? a2 : "");
	r->phase = phase;
	r->status = status;
	r->result = result;
	r->seconds = s;
	r->timed_out = timed_out;
}

/* The real path of the log, for PM_LOGFILE; NULL when it is not open. */
static const char *log_path(struct ps *p, char *buf, size_t size)
{
	if (p->logfd < 0)
		return NULL;
	snprintf(buf, size, "%s%s", p->ctx.real_root ? "" : p->ctx.root,
		 PS_LOG);
	return buf;
}

/* A hook that is not run (disabled, not executable, refused): logged
 * and recorded, and the pass goes on. */
static bool not_run(struct ps *p, const struct pm_hook *h, bool sd,
		    const char *phase, const char *a1, const char *a2,
		    const char *args)
{
	switch (h->state) {
	case PM_HOOK_DISABLED:
		ps_log(p, "hook %s %s: disabled by HOOK_BLACKLIST", h->path,
		       args);
		record(p, h, phase, a1, a2, PM_HOOK_EXIT_DX, "disabled", 0,
		       false);
		return true;
	case PM_HOOK_NOEXEC:
		ps_log(p, "hook %s %s: not executable", h->path, args);
		record(p, h, phase, a1, a2, PM_HOOK_EXIT_NX,
		       "not executable", 0, false);
		return true;
	case PM_HOOK_REFUSED:
		if (!strcmp(phase, "pre"))
			pm_warn(&p->t, "refusing to run the hook %s: %s",
				h->path, h->why);
		ps_log(p, "hook %s %s: refused: %s", h->path, args, h->why);
		record(p, h, phase, a1, a2, -1, "refused", 0, false);
		return true;
	default:
		break;
	}
	/* pm-utils' disablehook, called by a hook before this one. */
	if (!sd && pm_hook_store_disabled(&p->store, h->name)) {
		ps_log(p, "hook %s %s: disabled by disablehook", h->path, args);
		record(p, h, phase, a1, a2, PM_HOOK_EXIT_DX, "disabled", 0,
		       false);
		return true;
	}
	return false;
}

/*
 * Run one hook: a pm-utils one, or a systemd system-sleep one (sd).
 * Returns true when the pass may go on: success and pm-utils' 254/253/
 * 252, or a refused hook (named, not run).
 */
static bool run_hook(struct ps *p, const struct pm_hook *h, bool sd,
		     const char *phase, const char *a1, const char *a2,
		     const struct ps_leg *l)
{
	char logfile[PM_PATH_MAX + 64];
	const struct pm_hook_api api = {
		.functions = PM_FUNCTIONS_FILE,
		.storagedir = p->store.path,
		.logfile = log_path(p, logfile, sizeof(logfile)),
		.suspend_modules = p->suspend_modules,
		.cpufreq_governor = p->cpufreq_gov,
	};
	struct pm_hook_env e = {
		.mode = pm_sleep_mode_name(l->mode),
		.cmdline = p->cmdline,
		.timeout_s = p->hook_timeout_s,
		.logfd = p->logfd,
		.api = sd ? NULL : &api,
		.sleep_action = sd ? l->sd_action : NULL,
	};
	struct pm_hook_run r;
	char args[64];

	snprintf(args, sizeof(args), "%s%s%s", a1, a2 ? " " : "",
		 a2 ? a2 : "");
	if (p->t.dry_run) {
		if (h->state == PM_HOOK_RUN)
			pm_fprintf(stdout, "hook %s %s\n", h->path, args);
		return true;
	}
	if (not_run(p, h, sd, phase, a1, a2, args))
		return true;
	if (pm_hook_exec(&p->ctx, h, a1, a2, &e, &r) < 0) {
		pm_warn(&p->t, "cannot run the hook %s: %s", h->path,
			strerror(errno));
		record(p, h, phase, a1, a2, 126, "failed", 0, false);
		return false;
	}
	const char *res = r.timed_out ? "timed out" :
			  r.exec_err  ? "could not run" :
					pm_hook_result_name(r.status);

	ps_log(p, "hook %s %s: %s (exit %d) in %.3f s", h->path, args, res,
	       r.status, r.seconds);
	record(p, h, phase, a1, a2, r.status, res, r.seconds, r.timed_out);
	/* A hook changed the parameters (add_parameters): the hooks after
	 * it get them as PM_CMDLINE, as pm-utils gives them. */
	if (!sd && pm_hook_store_params(&p->store, p->cmdline,
					sizeof(p->cmdline)))
		ps_log(p, "hook %s %s: PM_CMDLINE is now '%s'", h->path, args,
		       p->cmdline);
	if (r.timed_out) {
		pm_warn(&p->t,
			"the hook %s %s took longer than %.0f s: killed with "
			"its process group",
			h->path, args, p->hook_timeout_s);
		return false;
	}
	if (r.exec_err) {
		pm_warn(&p->t, "cannot run the hook %s: %s", h->path,
			strerror(r.exec_err));
		return false;
	}
	return r.status == 0 || r.status == PM_HOOK_EXIT_NA ||
	       r.status == PM_HOOK_EXIT_NX || r.status == PM_HOOK_EXIT_DX;
}

static void load_hooks(struct ps *p)
{
	if (p->no_hooks)
		return;
	if (pm_hooks_list(&p->ctx, pm_dirs, 2, p->blacklist, &p->hooks) < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot list the hook folders: %s",
		       strerror(ENOMEM));
	if (p->systemd_hooks &&
	    pm_hooks_list(&p->ctx, sd_dirs, 2, p->blacklist, &p->sdhooks) < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot list the hook folders: %s",
		       strerror(ENOMEM));
}

/*
 * The pre pass.  Returns the number of pm-utils hooks that ran (all of
 * them on success), and *failed the failed hook's path, or *inhibit the
 * reason of the hook that called pm-utils' inhibit (that hook ran, and
 * is resumed).
 */
static int pre_hooks(struct ps *p, const struct ps_leg *l, const char **failed,
		     char *inhibit, size_t isize, int *sd_ran)
{
	int i;

	*failed = NULL;
	*sd_ran = 0;
	for (i = 0; i < p->hooks.n; i++) {
		if (!run_hook(p, &p->hooks.h[i], false, "pre", l->down,
			      l->method, l)) {
			*failed = p->hooks.h[i].path;
			return i; /* pm-utils: the failed one is not resumed */
		}
		if (pm_hook_store_read(&p->store, "inhibit", inhibit, isize) >=
		    0) {
			*failed = p->hooks.h[i].path;
			return i + 1;
		}
		if (ps_signal)
			return i + 1;
	}
	for (int k = 0; k < p->sdhooks.n; k++) {
		/* As systemd-sleep: a failed system-sleep hook is logged only. */
		run_hook(p, &p->sdhooks.h[k], true, "pre", "pre", l->verb, l);
		*sd_ran = k + 1;
		if (ps_signal)
			break;
	}
	return i;
}

static void post_hooks(struct ps *p, const struct ps_leg *l, int ran,
		       int sd_ran)
{
	for (int k = sd_ran - 1; k >= 0; k--)
		run_hook(p, &p->sdhooks.h[k], true, "post", "post", l->verb, l);
	for (int i = ran - 1; i >= 0; i--)
		run_hook(p, &p->hooks.h[i], false, "post", l->up, l->method,
			 l);
}

/* Under --dry-run, every write of the cycle is shown, not made. */
static void show_write(void *arg, const char *path, const char *value)
{
	(void)arg;
	pm_fprintf(stdout, "%s = %s\n", path, value);
}

static void fail_write(struct ps *p, struct ps_result *r)
{
	char buf[700];

	r->err = p->ctx.err.err;
	snprintf(r->error, sizeof(r->error), "%s",
		 pm_err_str(&p->ctx.err, buf, sizeof(buf)));
}

/* A file the sleep changed that could not be put back: named, logged. */
static void not_restored(struct ps *p, const struct pm_write *x)
{
	char why[PM_PATH_MAX + 300];

	p->not_restored++;
	if (x->undo_err > 0)
		snprintf(why, sizeof(why), "cannot write '%s' to %s: %s (%s)",
			 x->old, x->path, strerror(x->undo_err),
			 pm_errno_name(x->undo_err));
	else
		snprintf(why, sizeof(why), "it reads '%s'", x->got);
	pm_warn(&p->t, "could not restore %s to '%s': %s", x->path, x->old,
		why);
	ps_log(p, "could not restore %s to '%s'", x->path, x->old);
}

/* A fresh transaction for the next leg, journalled but in a dry run. */
static void sleep_txn_init(struct ps *p)
{
	pm_sleep_txn_init(&p->sx, &p->ctx);
	if (!p->t.dry_run)
		p->sx.txn.journal = &p->journal;
}

/*
 * The journal a pm-suspend killed in its sleep left (PM_SLEEP_JOURNAL,
 * under our lock): every file it had changed put back before anything
 * else, and said.  One that cannot be read or trusted stops us.
 */
static void recover(struct ps *p)
{
	struct pm_recovery r;
	char buf[700];

	if (pm_journal_recover_file(&p->ctx, PM_SLEEP_JOURNAL, &r) < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot read the journal of an "
					    "earlier sleep: %s; nothing was "
					    "changed",
		       pm_err_str(&p->ctx.err, buf, sizeof(buf)));
	if (r.bad)
		pm_die(&p->t, PM_EXIT_FAIL,
		       "%s: %s: it is not restored, and no sleep is made "
		       "while it is there (remove it once the files it names "
		       "are checked); nothing was changed",
		       PM_SLEEP_JOURNAL, r.why);
	if (r.found)
		ps_log(p, "%s (pid %ld) died in its sleep: %d file%s "
			  "restored, %d not",
		       r.tool, r.pid, r.restored, r.restored == 1 ? "" : "s",
		       r.failed);
	(void)pm_recovery_say(&p->t, &r, false);
	pm_recovery_free(&r);
	pm_err_clear(&p->ctx);
}

/* Every file changed put back (those a failed write put back already
 * too), in reverse order; the ones left changed named.  Then the
 * journal goes, as a writer's does after its rollback. */
static void restore_all(struct ps *p)
{
	const struct pm_txn *t = &p->sx.txn;
	char buf[700];

	pm_sleep_undo(&p->sx);
	for (int i = t->n - 1; i >= 0; i--)
		if (t->w[i].undo_err && !(t->w[i].flags & PM_W_NOUNDO))
			not_restored(p, &t->w[i]);
	if (pm_journal_remove(&p->journal) < 0) {
		pm_warn(&p->t, "cannot remove the journal: %s; the next "
			       "pm-suspend would undo these writes again: "
			       "remove it",
			pm_err_str(&p->ctx.err, buf, sizeof(buf)));
		p->not_restored++;
		pm_err_clear(&p->ctx);
	}
	pm_sleep_txn_free(&p->sx);
	sleep_txn_init(p);
}

static int set_alarm(struct ps *p, struct ps_result *r, uint64_t when)
{
	if (pm_sleep_plan_alarm(&p->sx, p->rtc, when, p->replaced_alarm) <
		    0 ||
	    pm_sleep_apply(&p->sx) < 0) {
		fail_write(p, r);
		return -1;
	}
	r->alarm = when;
	ps_log(p, "RTC %s alarm set for %llu (RTC seconds)", p->rtc,
	       (unsigned long long)when);
	return 0;
}

static void clear_alarm(struct ps *p, const struct ps_result *r)
{
	char buf[700];

	if (r->alarm && pm_rtc_alarm_clear(&p->ctx, p->rtc) < 0)
		pm_warn(&p->t, "could not clear the RTC alarm: %s",
			pm_err_str(&p->ctx.err, buf, sizeof(buf)));
}

/* The reason suspend_stats gives for a failed transition. */
static void kernel_reason(struct ps_result *r)
{
	const struct pm_suspend_stats *a = &r->before, *b = &r->after;

	r->failure[0] = '\0';
	if (a->v[1] == PM_UNKNOWN || b->v[1] == PM_UNKNOWN ||
	    b->v[1] <= a->v[1])
		return;
	if (b->last_failed_dev[0] && b->last_failed_errno != PM_UNKNOWN_S64)
		snprintf(r->failure, sizeof(r->failure),
			 "device %s failed to %s: %lld (%s)",
			 b->last_failed_dev,
			 b->last_failed_step[0] ? b->last_failed_step :
						  "suspend",
			 (long long)b->last_failed_errno,
			 pm_errno_name((int)-b->last_failed_errno));
	else if (b->last_failed_step[0] &&
		 b->last_failed_errno != PM_UNKNOWN_S64)
		snprintf(r->failure, sizeof(r->failure),
			 "the %s step failed: %lld (%s)", b->last_failed_step,
			 (long long)b->last_failed_errno,
			 pm_errno_name((int)-b->last_failed_errno));
}

static void wake_reason(struct ps *p, struct ps_result *r)
{
	uint64_t irq;

	r->wake_irq = -1;
	r->wake_irq_name[0] = '\0';
	if (pm_wakeup_irq_read(&p->ctx, &irq) == 0 && irq < 1u << 30) {
		r->wake_irq = (int64_t)irq;
		pm_irq_name(&p->ctx, (unsigned)irq, r->wake_irq_name,
			    sizeof(r->wake_irq_name));
	}
	pm_err_clear(&p->ctx);
	r->nsrc1 = pm_wakeup_sources_read(&p->ctx, &r->src1);
}

static bool kernel_syncs(struct ps *p, const struct ps_leg *l)
{
	return l->disk || pm_sleep_syncs(&p->ctx);
}

static const char *sig_name(int s)
{
	return s == SIGINT ? "SIGINT" : s == SIGTERM ? "SIGTERM" :
	       s == SIGHUP ? "SIGHUP" : "a signal";
}

static uint64_t rtc_value(struct ps *p, const struct pm_rtc *rtc,
			  uint64_t after_s);

static int interrupted(struct ps_result *r)
{
	snprintf(r->error, sizeof(r->error),
		 "interrupted by %s before the sleep: nothing was entered",
		 sig_name(ps_signal));
	return PM_EXIT_FAIL;
}

/* A leg's start: the counters before it, and the wakeup count the sleep
 * is conditional on (*have_wc false where the kernel has none). */
static int leg_begin(struct ps *p, const struct ps_leg *l,
		     struct ps_result *r, uint64_t *wc, bool *have_wc)
{
	char buf[700];
	int e;

	free(r->src0); /* a --diagnose level before this one */
	free(r->src1);
	pm_trace_free(&r->trace);
	memset(r, 0, sizeof(*r));
	r->hw_sleep_us = PM_UNKNOWN;
	r->leg = l;
	r->wake_irq = -1;
	pm_suspend_stats_read(&p->ctx, &r->before);
	r->nsrc0 = pm_wakeup_sources_read(&p->ctx, &r->src0);
	e = pm_wakeup_count_read(&p->ctx, PS_WAKEUP_COUNT_TIMEOUT_S, wc);
	*have_wc = e == 0;
	if (e == -EINTR)
		return interrupted(r);
	if (e < 0 && e != -ENOENT) {
		snprintf(r->error, sizeof(r->error),
			 "cannot read the wakeup count: %s",
			 pm_err_str(&p->ctx.err, buf, sizeof(buf)));
		r->err = -e;
		return PM_EXIT_FAIL;
	}
	if (e == -ENOENT && p->t.verbose > 0)
		pm_warn(&p->t, "no /sys/power/wakeup_count: sleeping without "
			       "the wakeup event handshake");
	pm_err_clear(&p->ctx);
	return PM_EXIT_OK;
}

/* The hooks going down, in a fresh STORAGEDIR; a failed or inhibiting
 * hook skips the sleep. */
static int leg_hooks_down(struct ps *p, const struct ps_leg *l,
			  struct ps_result *r, int *ran, int *sd_ran)
{
	char inhibit[256], buf[700];
	const char *failed;

	if (!p->t.dry_run && (p->hooks.n || p->sdhooks.n) &&
	    pm_hook_store_open(&p->ctx, p->cmdline, &p->store) < 0) {
		snprintf(r->error, sizeof(r->error),
			 "cannot make the hooks' STORAGEDIR: %s: the sleep "
			 "was skipped",
			 pm_err_str(&p->ctx.err, buf, sizeof(buf)));
		r->err = p->ctx.err.err;
		return PM_EXIT_FAIL;
	}
	ps_log(p, "%s: running the %s hooks", pm_sleep_mode_name(l->mode),
	       l->down);
	inhibit[0] = '\0';
	*ran = pre_hooks(p, l, &failed, inhibit, sizeof(inhibit), sd_ran);
	if (!failed)
		return ps_signal ? interrupted(r) : PM_EXIT_OK;
	if (pm_hook_store_read(&p->store, "inhibit", inhibit,
			       sizeof(inhibit)) >= 0)
		snprintf(r->error, sizeof(r->error),
			 "the hook %s inhibited the sleep%s%s%s: the sleep "
			 "was skipped",
			 failed, inhibit[0] ? " (" : "", inhibit,
			 inhibit[0] ? ")" : "");
	else
		snprintf(r->error, sizeof(r->error),
			 "the hook %s failed: the sleep was skipped", failed);
	return PM_EXIT_FAIL;
}

/* The RTC alarm, counted from now: the hooks and the sync took their
 * time. */
static int leg_alarm(struct ps *p, const struct ps_leg *l,
		     struct ps_result *r)
{
	uint64_t when = l->alarm;
	struct pm_rtc rtc;

	if (!l->alarm)
		return PM_EXIT_OK;
	if (!p->t.dry_run && pm_rtc_read(&p->ctx, p->rtc, &rtc) == 0) {
		if (l->after_s)
			when = rtc_value(p, &rtc, l->after_s);
		if (rtc.now != PM_UNKNOWN && when <= rtc.now) {
			snprintf(r->error, sizeof(r->error),
				 "the wake-up time (%llu, RTC seconds) passed "
				 "before the alarm could be set (during the "
				 "hooks and the sync): the sleep was skipped",
				 (unsigned long long)when);
			return PM_EXIT_FAIL;
		}
	}
	pm_err_clear(&p->ctx);
	return set_alarm(p, r, when) < 0 ? PM_EXIT_FAIL : PM_EXIT_OK;
}

/* A sync where the kernel makes none, then pm_test, disk and mem_sleep. */
static int leg_choices(struct ps *p, const struct ps_leg *l,
		       struct ps_result *r)
{
	/* The kernel syncs on entry when sync_on_suspend is 1 (and always
	 * before hibernating): a sync of ours would only flush twice. */
	if (!p->t.dry_run && !kernel_syncs(p, l))
		sync();
	if ((p->test_level &&
	     pm_sleep_plan_choice(&p->sx, "pm_test", p->test_level) < 0) ||
	    (l->disk && pm_sleep_plan_choice(&p->sx, "disk", l->disk) < 0) ||
	    (l->mem_sleep &&
	     pm_sleep_plan_choice(&p->sx, "mem_sleep", l->mem_sleep) < 0) ||
	    ps_timings_plan(p, r) < 0 || pm_sleep_apply(&p->sx) < 0) {
		fail_write(p, r);
		return PM_EXIT_FAIL;
	}
	return ps_signal ? interrupted(r) : PM_EXIT_OK;
}

/* The handshake: the count read at the start written back; the kernel
 * refuses it (EINVAL) when a wakeup event came in between. */
static int leg_wakeup_count(struct ps *p, struct ps_result *r, uint64_t wc)
{
	char buf[700];

	if (pm_wakeup_count_write(&p->ctx, wc) == 0)
		return PM_EXIT_OK;
	r->err = p->ctx.err.err;
	if (r->err == EINVAL)
		snprintf(r->error, sizeof(r->error),
			 "wakeup event during preparation: the kernel refused "
			 "the wakeup count %llu (EINVAL), so the sleep was "
			 "skipped",
			 (unsigned long long)wc);
	else
		snprintf(r->error, sizeof(r->error), "%s",
			 pm_err_str(&p->ctx.err, buf, sizeof(buf)));
	return PM_EXIT_FAIL;
}

/* The sleep itself: from here a signal waits for the resume. */
static int leg_enter(struct ps *p, const struct ps_leg *l,
		     struct ps_result *r, double t0)
{
	int status = PM_EXIT_OK;
	double b0, m0, b1, m1;

	ps_log(p, "%s: writing '%s' to /sys/power/state",
	       pm_sleep_mode_name(l->mode), l->state);
	r->prepare_s = clock_s(CLOCK_MONOTONIC) - t0;
	b0 = clock_s(CLOCK_BOOTTIME);
	m0 = clock_s(CLOCK_MONOTONIC);
	r->attempted = true;
	if (p->userspace && l->mode == PM_MODE_HIBERNATE && !p->t.dry_run) {
		status = ps_user_hibernate(p, l, r);
	} else if (pm_sleep_enter(&p->ctx, l->state) < 0) {
		fail_write(p, r);
		status = PM_EXIT_FAIL;
	} else {
		r->entered = true;
	}
	b1 = clock_s(CLOCK_BOOTTIME);
	m1 = clock_s(CLOCK_MONOTONIC);
	r->kernel_s = m1 - m0;
	r->asleep_s = (b1 - b0) - (m1 - m0);
	if (r->asleep_s < 0)
		r->asleep_s = 0;
	if (!p->t.dry_run)
		wake_reason(p, r);
	if (r->entered)
		ps_log(p, "%s: back after %.3f s (asleep %.3f s)",
		       pm_sleep_mode_name(l->mode), b1 - b0, r->asleep_s);
	return status;
}

/* Coming back, whatever happened: the hooks up, the alarm cleared, every
 * file changed put back, the kernel's counters and reason. */
static int leg_resume(struct ps *p, const struct ps_leg *l,
		      struct ps_result *r, int ran, int sd_ran, int status)
{
	double t1 = clock_s(CLOCK_MONOTONIC);

	ps_timings_read(p, r);
	post_hooks(p, l, ran, sd_ran);
	clear_alarm(p, r);
	restore_all(p);
	ps_timings_unmount(p);
	if (p->not_restored && status == PM_EXIT_OK)
		status = PM_EXIT_FAIL; /* named by restore_all */
	pm_suspend_stats_read(&p->ctx, &r->after);
	if (r->attempted && !r->entered)
		kernel_reason(r);
	if (r->error[0])
		ps_log(p, "%s: %s%s%s", pm_sleep_mode_name(l->mode), r->error,
		       r->failure[0] ? "; " : "", r->failure);
	r->resume_s = clock_s(CLOCK_MONOTONIC) - t1;
	return status;
}

/*
 * One leg.  Returns the exit status; r holds what happened.
 */
static int run_leg(struct ps *p, const struct ps_leg *l, struct ps_result *r)
{
	double t0 = clock_s(CLOCK_MONOTONIC);
	int ran = 0, sd_ran = 0, status;
	bool have_wc;
	uint64_t wc = 0;

	status = leg_begin(p, l, r, &wc, &have_wc);
	if (status != PM_EXIT_OK)
		return status;
	status = leg_hooks_down(p, l, r, &ran, &sd_ran);
	if (status == PM_EXIT_OK)
		status = leg_choices(p, l, r);
	/* The alarm last before the handshake: a long sync or a slow
	 * tracing set-up does not eat into --wake-after's time, and an alarm
	 * that fires before the state write is a wakeup event that makes
	 * the kernel refuse the sleep. */
	if (status == PM_EXIT_OK)
		status = leg_alarm(p, l, r);
	if (status == PM_EXIT_OK && have_wc)
		status = leg_wakeup_count(p, r, wc);
	if (status == PM_EXIT_OK)
		status = leg_enter(p, l, r, t0);
	return leg_resume(p, l, r, ran, sd_ran, status);
}

/* The writes of a mode (CLI.md table). */
static void leg_for(struct ps *p, enum pm_sleep_mode m, struct ps_leg *l)
{
	struct pm_sleep s;

	pm_sleep_read(&p->ctx, &s);
	memset(l, 0, sizeof(*l));
	l->mode = m;
	l->state = "mem";
	l->down = "suspend";
	l->up = "resume";
	l->method = "suspend";
	l->verb = "suspend";
	l->sd_action = "suspend";
	switch (m) {
	case PM_MODE_DEEP:
		l->mem_sleep = "deep";
		break;
	case PM_MODE_S2IDLE:
		if (pm_word_in(s.state, "mem") &&
		    pm_word_in(s.mem_sleep, "s2idle"))
			l->mem_sleep = "s2idle";
		else
			l->state = "freeze";
		break;
	case PM_MODE_STANDBY:
		if (pm_word_in(s.state, "standby"))
			l->state = "standby";
		else
			l->mem_sleep = "shallow";
		break;
	case PM_MODE_HIBERNATE:
		l->state = "disk";
		l->disk = p->hib_mode[0]	       ? p->hib_mode :
			  pm_word_in(s.disk, "platform") ? "platform" :
							   "shutdown";
		l->down = "hibernate";
		l->up = "thaw";
		l->method = "hibernate";
		l->verb = "hibernate";
		l->sd_action = "hibernate";
		break;
	case PM_MODE_HYBRID:
		l->state = "disk";
		l->disk = "suspend";
		/* Debian's pm-utils passes suspend/resume here (the golden). */
		l->method = "suspend_hybrid";
		l->verb = "hybrid-sleep";
		l->sd_action = "hybrid-sleep";
		break;
	default:
		break;
	}
}

static uint64_t rtc_value(struct ps *p, const struct pm_rtc *rtc,
			  uint64_t after_s)
{
	if (p->wake_at) {
		time_t t = (time_t)p->wake_at;
		struct tm tm;

		if (pm_rtc_local(&p->ctx) && localtime_r(&t, &tm))
			return (uint64_t)(p->wake_at + tm.tm_gmtoff);
		return (uint64_t)p->wake_at;
	}
	if (!after_s)
		return 0;
	if (rtc->now != PM_UNKNOWN)
		return rtc->now + after_s;
	return (uint64_t)time(NULL) + after_s;
}

/* The RTC checks before anything runs: exit 3 or 4 here. */
static void check_rtc(struct ps *p, struct pm_rtc *rtc)
{
	int r = pm_rtc_read(&p->ctx, p->rtc, rtc);

	if (r < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no RTC alarm to wake up with: "
		       "/sys/class/rtc/%s/wakealarm: %s",
		       p->rtc, strerror(-r));
	if (rtc->alarm && (rtc->now == PM_UNKNOWN || rtc->alarm > rtc->now)) {
		if (!p->force)
			pm_die(&p->t, PM_EXIT_BUSY,
			       "the RTC %s already has an alarm set (at %llu, "
			       "RTC seconds): someone else's wake-up time; "
			       "--force replaces it",
			       p->rtc, (unsigned long long)rtc->alarm);
		p->replaced_alarm = true;
		pm_warn(&p->t, "replacing the RTC alarm set for %llu (--force)",
			(unsigned long long)rtc->alarm);
	}
	if (strcmp(rtc->wakeup, "enabled"))
		pm_warn(&p->t,
			"the RTC alarm may not wake the machine: "
			"/sys/class/rtc/%s/device/power/wakeup is %s",
			p->rtc, rtc->wakeup[0] ? rtc->wakeup : "missing");
}

static const char *const test_levels[] = { "freezer", "devices", "platform",
					   "processors", "core" };

/*
 * The pm_test levels --diagnose runs for l, in order, in lev: those the
 * kernel offers up to what the mode reaches (suspend-to-idle, written or
 * as selected, stops at platform).  With none it has nothing to say:
 * exit 3, before the log or any file is touched.
 */
static int diagnose_levels(struct ps *p, const struct ps_leg *l,
			   const char **lev)
{
	struct pm_sleep s;
	char cur[32];
	int nlev, n = 0;

	pm_sleep_read(&p->ctx, &s);
	pm_choice_selected(s.mem_sleep, cur, sizeof(cur));
	nlev = !strcmp(l->state, "freeze") ||
			       (l->mem_sleep ? !strcmp(l->mem_sleep, "s2idle") :
					       !strcmp(l->state, "mem") &&
						       !strcmp(cur, "s2idle")) ?
		       3 :
		       5;
	for (int i = 0; i < nlev; i++)
		if (pm_word_in(s.pm_test, test_levels[i]))
			lev[n++] = test_levels[i];
	if (!n)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "--diagnose: no pm_test level is offered for %s "
		       "(pm_test: %s)",
		       pm_sleep_mode_name(l->mode), s.pm_test);
	return n;
}

static int diagnose(struct ps *p, struct ps_leg *l, const char **lev,
		    int nlev)
{
	for (int i = 0; i < nlev; i++) {
		int st;

		p->test_level = lev[i];
		st = run_leg(p, l, &p->res[0]);
		p->nres = 1;
		if (st != PM_EXIT_OK) {
			const struct ps_result *r = &p->res[0];
			char cb[512];

			/* With the trace: the driver's callback that failed. */
			if (!ps_failed_words(cb, sizeof(cb), r))
				cb[0] = '\0';
			pm_warn(&p->t, "pm_test %s: failed: %s%s%s%s%s", lev[i],
				r->error, r->failure[0] ? "; " : "",
				r->failure, cb[0] ? "; " : "", cb);
			return st;
		}
		if (!p->t.dry_run)
			pm_note(&p->t, "pm_test %s: passed", lev[i]);
	}
	return PM_EXIT_OK;
}

int ps_run(struct ps *p)
{
	struct ps_leg *legs = p->legs;
	struct pm_rtc rtc = { 0 };
	const char *lev[5];
	int st, nlev = 0;

	if (p->t.dry_run) {
		p->ctx.dry_run = true;
		p->ctx.on_write = show_write;
	}
	pm_journal_init(&p->journal, &p->ctx, p->name);
	p->journal.file = PM_SLEEP_JOURNAL;
	sleep_txn_init(p);
	if (!p->diagnose)
		load_hooks(p);
	if (p->mode == PM_MODE_SUSPEND_THEN_HIBERNATE) {
		leg_for(p, PM_MODE_SUSPEND, &legs[0]);
		leg_for(p, PM_MODE_HIBERNATE, &legs[1]);
		legs[0].verb = legs[1].verb = "suspend-then-hibernate";
		check_rtc(p, &rtc);
		legs[0].after_s = (uint64_t)(p->hibernate_delay_s + 0.5);
		legs[0].alarm = rtc_value(p, &rtc, legs[0].after_s);
	} else {
		leg_for(p, p->mode, &legs[0]);
		if (p->wake_after_s || p->wake_at) {
			check_rtc(p, &rtc);
			legs[0].after_s = p->wake_after_s;
			legs[0].alarm = rtc_value(p, &rtc, p->wake_after_s);
		}
	}
	if (p->diagnose)
		nlev = diagnose_levels(p, &legs[0], lev);
	/* The checks that may refuse (exit 3, 4) are done: now the log. */
	if (!p->t.dry_run) {
		p->logfd = pm_open_create(&p->ctx, PS_LOG,
					  O_WRONLY | O_APPEND | O_NOFOLLOW,
					  0640);
		if (p->logfd < 0 && p->t.verbose > 0)
			pm_warn(&p->t,
				"cannot open %s: %s: hook output is "
				"discarded",
				PS_LOG, strerror(-p->logfd));
		pm_err_clear(&p->ctx);
		recover(p);
	}
	if (p->diagnose)
		return diagnose(p, &legs[0], lev, nlev);
	st = run_leg(p, &legs[0], &p->res[0]);
	p->nres = 1;
	if (st != PM_EXIT_OK || p->mode != PM_MODE_SUSPEND_THEN_HIBERNATE ||
	    p->t.dry_run) {
		if (p->t.dry_run && p->mode == PM_MODE_SUSPEND_THEN_HIBERNATE) {
			printf("# on a wake by the alarm:\n");
			st = run_leg(p, &legs[1], &p->res[1]);
			p->nres = 2;
		}
		return st;
	}
	/* Woken by our alarm (or within the slack of it): hibernate. */
	if (pm_rtc_read(&p->ctx, p->rtc, &rtc) == 0 &&
	    rtc.now != PM_UNKNOWN &&
	    rtc.now + PS_ALARM_SLACK_S >= p->res[0].alarm) {
		p->res[0].alarm_woke = true;
		ps_log(p, "suspend-then-hibernate: woken by the alarm: "
			  "hibernating");
		p->replaced_alarm = false;
		st = run_leg(p, &legs[1], &p->res[1]);
		p->nres = 2;
	} else {
		ps_log(p, "suspend-then-hibernate: woken before the alarm: "
			  "staying up");
	}
	pm_err_clear(&p->ctx);
	return st;
}
