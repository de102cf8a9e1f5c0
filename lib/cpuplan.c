// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The planners of the CPU side, shared by pmctl and opp-set: SMT, CPU
 * hotplug, boost, the cpuidle governor (the idle states: idleplan.c),
 * intel_pstate's limits and a pstate driver's status.  What is asked is
 * checked against what the machine offers before anything is written
 * (exit 2 or 3, 1 for a file that is there and cannot be read), each
 * error after the caller's "where" (the point's "FILE:LINE: [cpu] smt: ",
 * or nothing for pmctl), then planned in a safe order.  The paths are
 * built here only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plan.h"
#include "core.h"
#include "txn.h"
#include "parse.h"
#include "cpuset.h"
#include "cpu.h"
#include "cpufreq.h"
#include "cpuidle.h"
#include "tool.h"
#include "writer.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define SMT_CONTROL CPU_DIR "/smt/control"
#define IDLE_GOVERNOR CPU_DIR "/cpuidle/current_governor"
#define BOOST CPU_DIR "/cpufreq/boost"
#define PSTATE CPU_DIR "/intel_pstate"
#define NO_TURBO PSTATE "/no_turbo"
#define MIN_PERF PSTATE "/min_perf_pct"
#define MAX_PERF PSTATE "/max_perf_pct"

static const char *at(const char *where)
{
	return where ? where : "";
}

/* A file that is there but cannot be read: exit 1 naming it and the
 * kernel's errno, never "not offered" nor a guess at its value. */
static void unreadable(struct pm_writer *w, const char *where,
		       const char *path, int err)
{
	pm_die(w->t, PM_EXIT_FAIL, "%scannot read %s: %s (%s)", at(where),
	       path, strerror(err), pm_errno_name(err));
}

/* ---------------------------------------------------------------- smt */

void pm_smt_plan(struct pm_writer *w, const struct pm_cpus *cpus,
		 const char *value, const char *where)
{
	const char *c = cpus->smt_control;

	if (!c[0] || !strcmp(c, "notsupported") ||
	    !strcmp(c, "notimplemented"))
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sthis machine has no SMT to switch (smt/control: %s)",
		       at(where), c[0] ? c : "missing");
	/* Forced off, it is off already: only "on" cannot be done. */
	if (!strcmp(c, "forceoff") && strcmp(value, "off"))
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sSMT was forced off at boot (nosmt=force): only a "
		       "reboot turns it on",
		       at(where));
	if (!strcmp(c, "forceoff"))
		return;
	/* Siblings go offline and come back: their folders are new. */
	pm_writer_set(w, SMT_CONTROL, c, value, PM_W_RESHAPE, NULL);
}

/* ---------------------------------------------------------------- hotplug */

/*
 * A CPU that the kernel lists offline while its online file reads 1
 * failed to come up (at resume: "Error taking CPU1 up"): the device
 * still counts as online, so a write of 1 is taken and does nothing.
 * Say so (exit 1), instead of "nothing to change".
 */
static void check_failed_up(struct pm_writer *w, const struct pm_cpus *cpus,
			    const struct pm_cpuset *up, const char *where)
{
	pm_cpuset_foreach(cpu, up)
	{
		char path[PM_PATH_MAX], v[16];

		if (pm_cpuset_isset(&cpus->online, (unsigned)cpu))
			continue;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", cpu);
		if (pm_attr_read(w->ctx, path, v, sizeof(v)) > 0 &&
		    !strcmp(v, "1"))
			pm_die(w->t, PM_EXIT_FAIL,
			       "%scpu%d is offline though %s reads 1: the "
			       "kernel failed to bring it up (after a resume, "
			       "dmesg says \"Error taking CPU%d up\"), and a "
			       "write of 1 does not retry; taking it offline, "
			       "then online, does while another CPU stays "
			       "online",
			       at(where), cpu, path, cpu);
	}
	pm_err_clear(w->ctx);
}

void pm_hotplug_check(struct pm_writer *w, const struct pm_cpus *cpus,
		      const struct pm_hotplug *h)
{
	struct pm_cpuset both = h->up, left;

	pm_cpuset_or(&both, &h->down);
	pm_cpuset_foreach(cpu, &both)
	{
		if (!pm_cpu_hotpluggable(w->ctx, (unsigned)cpu))
			pm_die(w->t, PM_EXIT_UNSUPPORTED,
			       "%scpu%d cannot be hot-plugged (it has no "
			       "online file)",
			       at(h->where), cpu);
	}
	check_failed_up(w, cpus, &h->up, h->where);
	left = cpus->online;
	pm_cpuset_andnot(&left, &h->down);
	pm_cpuset_or(&left, &h->up);
	if (!pm_cpuset_empty(&h->down) && pm_cpuset_empty(&left))
		pm_die(w->t, PM_EXIT_USAGE,
		       "%scpu offline: that would leave no CPU online (the "
		       "kernel refuses the last one: EBUSY)",
		       at(h->where));
}

void pm_hotplug_plan(struct pm_writer *w, const struct pm_cpuset *set,
		     bool on)
{
	pm_cpuset_foreach(cpu, set)
	{
		char path[PM_PATH_MAX];

		/* The old value is the file's own, read now. */
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/online", cpu);
		pm_writer_set(w, path, NULL, on ? "1" : "0", PM_W_RESHAPE,
			      NULL);
	}
}

bool pm_hotplug_cpu(const char *path, unsigned *cpu)
{
	const char *p = CPU_DIR "/cpu";
	char *end;
	unsigned long v;

	if (strncmp(path, p, strlen(p)))
		return false;
	v = strtoul(path + strlen(p), &end, 10);
	if (end == path + strlen(p) || strcmp(end, "/online") ||
	    v >= PM_MAX_CPUS)
		return false;
	*cpu = (unsigned)v;
	return true;
}

/* ---------------------------------------------------------------- boost */

/* 0 with *v read, -ENOENT when the file is not there; exit 1 else. */
static int read_flag(struct pm_writer *w, const char *path,
		     const char *where, uint64_t *v)
{
	int e;

	if (pm_attr_read_u64(w->ctx, path, v) == 0)
		return 0;
	e = w->ctx->err.err;
	pm_err_clear(w->ctx);
	if (e != ENOENT)
		unreadable(w, where, path, e);
	return -ENOENT;
}

/* Each policy's own boost file (Linux 6.6), as b->pol_on says. */
static void plan_policy_boost(struct pm_writer *w, const struct pm_boost *b,
			      const struct pm_policy *pol, int n)
{
	int have = 0, planned = 0;

	for (int i = 0; i < n; i++) {
		char path[PM_PATH_MAX];

		if (pol[i].boost < 0)
			continue;
		have++;
		if (!b->pol_on || b->pol_on[i] < 0 ||
		    pm_cpuspan_empty(&pol[i].affected))
			continue;
		snprintf(path, sizeof(path), "%s/boost", pol[i].path);
		pm_writer_set(w, path, NULL, b->pol_on[i] ? "1" : "0", 0,
			      b->tag);
		planned++;
	}
	if (!have)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       b->policies_only ?
			       "%sno per-policy boost on this machine "
			       "(policyN/boost appeared in Linux 6.6)" :
			       "%sno boost control on this machine (no "
			       "cpufreq/boost, intel_pstate/no_turbo or "
			       "per-policy boost)",
		       at(b->where));
	if (!planned)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno selected online policy has a boost file",
		       at(b->where));
}

void pm_boost_plan(struct pm_writer *w, const struct pm_boost *b,
		   const struct pm_policy *pol, int n)
{
	uint64_t v;

	if (!b->policies_only) {
		/* The global switch first, then intel_pstate's inverted
		 * one; the policies' own files only without either. */
		if (read_flag(w, BOOST, b->where, &v) == 0) {
			pm_writer_set(w, BOOST, NULL, b->on ? "1" : "0", 0,
				      b->tag);
			return;
		}
		if (read_flag(w, NO_TURBO, b->where, &v) == 0) {
			pm_writer_set(w, NO_TURBO, NULL, b->on ? "0" : "1", 0,
				      b->tag);
			return;
		}
	}
	plan_policy_boost(w, b, pol, n);
}

/* ---------------------------------------------------------------- cpuidle */

void pm_idle_governor_plan(struct pm_writer *w, const char *name,
			   const char *where)
{
	struct pm_cpuidle ci;
	int r = pm_cpuidle_read(w->ctx, &ci);

	pm_err_clear(w->ctx);
	if (r == 0 && ci.governor_err)
		unreadable(w, where, IDLE_GOVERNOR, ci.governor_err);
	if (r < 0)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno cpuidle on this machine "
		       "(/sys/devices/system/cpu/cpuidle is missing)",
		       at(where));
	if (!ci.governor_writable)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sthis kernel does not let the cpuidle governor change "
		       "(no cpuidle/current_governor: before Linux 5.8 it "
		       "needs cpuidle_sysfs_switch on the command line)",
		       at(where));
	if (!pm_word_in(ci.available_governors, name))
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%scannot set the cpuidle governor '%s': not available "
		       "(available: %s)",
		       at(where), name,
		       ci.available_governors[0] ? ci.available_governors :
						   "none");
	pm_writer_set(w, IDLE_GOVERNOR, ci.governor, name, 0, NULL);
}

/* ---------------------------------------------------------------- pstate */

void pm_pstate_plan(struct pm_writer *w, const struct pm_pstate *p)
{
	char cur[32];
	uint64_t curmax = 100;

	if (!p->has_min && !p->has_max && p->no_turbo < 0)
		return;
	if (pm_attr_read(w->ctx, PSTATE "/status", cur, sizeof(cur)) < 0)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sintel_pstate does not run here (%s is missing)",
		       at(p->where), PSTATE);
	if (p->has_min && p->has_max && p->min > p->max)
		pm_die(w->t, PM_EXIT_USAGE,
		       "%smin_perf_pct %u is above max_perf_pct %u",
		       at(p->where_min), p->min, p->max);
	pm_attr_read_u64(w->ctx, MAX_PERF, &curmax);
	pm_err_clear(w->ctx);
	/* Each clamps against the other when written: raising, max first. */
	for (int pass = 0; pass < 2; pass++) {
		bool max_first = p->has_min && p->has_max && p->min > curmax;
		bool do_max = (pass == 0) == max_first;
		char v[16];

		if (!(do_max ? p->has_max : p->has_min))
			continue;
		snprintf(v, sizeof(v), "%u", do_max ? p->max : p->min);
		pm_writer_set(w, do_max ? MAX_PERF : MIN_PERF, NULL, v, 0,
			      NULL);
	}
	if (p->no_turbo >= 0)
		pm_writer_set(w, NO_TURBO, NULL, p->no_turbo ? "1" : "0", 0,
			      NULL);
}

void pm_pstate_status_read(struct pm_writer *w, const char *driver,
			   const char *where, char *cur, size_t size)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), CPU_DIR "/%s/status", driver);
	if (pm_attr_read(w->ctx, path, cur, size) >= 0)
		return;
	if (w->ctx->err.err != ENOENT)
		unreadable(w, where, path, w->ctx->err.err);
	pm_die(w->t, PM_EXIT_UNSUPPORTED, "%snot offered here (%s is missing%s)",
	       at(where), path,
	       strcmp(driver, "amd_pstate") ?
		       "" :
		       "; amd_pstate has it since Linux 6.3");
}

/* A setting read now, put back by a rollback only (PM_W_RESTORE). */
static void snap(struct pm_writer *w, const char *path)
{
	char v[PM_W_VAL];

	if (pm_attr_read(w->ctx, path, v, sizeof(v)) > 0)
		pm_writer_plan(w, path, v, v, PM_W_RESTORE, NULL);
	pm_err_clear(w->ctx);
}

/*
 * A status switch unregisters the driver and registers it again: every
 * policy comes back with the driver's defaults, and intel_pstate's
 * global limits are reset.  What they are now, for a rollback, which
 * undoes the switch first and then puts these back in reverse: the
 * intel_pstate globals (no_turbo first: it clamps min_perf_pct), then
 * each policy's governor, its tunables, setspeed, max, min and EPP.
 */
static void snapshot_policies(struct pm_writer *w, bool intel,
			      const struct pm_status_switch *s)
{
	static const char *const files[] = {
		"energy_performance_preference", "scaling_min_freq",
		"scaling_max_freq", "scaling_setspeed", NULL
	};
	struct pm_policy *pol = NULL;
	char path[PM_PATH_MAX + 40];
	int n = pm_policies_read(w->ctx, PM_POL_GOVERNOR, &pol);

	if (n < 0)
		pm_die(w->t, PM_EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		if (pm_cpuspan_empty(&pol[i].affected))
			continue;
		for (int k = 0; files[k]; k++) {
			if (k == 3 && strcmp(pol[i].governor, "userspace"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", pol[i].path,
				 files[k]);
			snap(w, path);
		}
		if (s->snap_tunables)
			s->snap_tunables(w, &pol[i], s->arg);
		snprintf(path, sizeof(path), "%s/scaling_governor",
			 pol[i].path);
		snap(w, path);
	}
	pm_policies_free(pol, n);
	if (!intel)
		return;
	snap(w, MIN_PERF);
	snap(w, MAX_PERF);
	snap(w, NO_TURBO);
}

bool pm_pstate_status_write(const struct pm_write *x)
{
	return !strcmp(x->path, PSTATE "/status");
}

bool pm_pstate_status_plan(struct pm_writer *w,
			   const struct pm_status_switch *s, const char *cur)
{
	char path[PM_PATH_MAX];

	if (!strcmp(cur, s->value))
		return false;
	if (!w->t->dry_run)
		snapshot_policies(w, !strcmp(s->driver, "intel_pstate"), s);
	snprintf(path, sizeof(path), CPU_DIR "/%s/status", s->driver);
	pm_writer_set(w, path, cur, s->value, PM_W_RESHAPE, NULL);
	return true;
}

/* ---------------------------------------------------------------- governors */

bool pm_gov_folder(struct pm_ctx *ctx, const struct pm_policy *pol,
		   const char *gov)
{
	char dir[PM_PATH_MAX + 32];

	snprintf(dir, sizeof(dir), "%s/%s", pol->path, gov);
	if (pm_exists(ctx, dir))
		return true;
	snprintf(dir, sizeof(dir), CPU_DIR "/cpufreq/%s", gov);
	return pm_exists(ctx, dir);
}

int pm_gov_layout(struct pm_ctx *ctx, const struct pm_policy *pol, int n)
{
	static const char *const govs[] = { "ondemand", "conservative",
					    "schedutil", NULL };
	char path[PM_PATH_MAX + 32];

	for (int g = 0; govs[g]; g++) {
		snprintf(path, sizeof(path), CPU_DIR "/cpufreq/%s", govs[g]);
		if (pm_exists(ctx, path))
			return 2;
		for (int i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/%s", pol[i].path,
				 govs[g]);
			if (pm_exists(ctx, path))
				return 1;
		}
	}
	return 0;
}
