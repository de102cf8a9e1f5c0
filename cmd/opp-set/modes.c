// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opp-set --save (the machine as a point file), --current (the points
 * the machine is at) and --auto (the point whose [match] holds now).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "opp.h"

/* --auto keeps the point it applied last while its battery conditions
 * hold within this margin (percent), its thermal one within 2 °C and its
 * CPU pressure one within 5 points: two points on either side of a
 * threshold do not take turns. */
#define HYST_PCT 5
#define HYST_MC 2000
#define HYST_PRESSURE 5

/* ---------------------------------------------------------------- save */

/* A value read from the machine, written into the point only if it
 * reads back as itself; else nothing is saved. */
static const char *saved(struct opp *op, struct pm_out *o, const char *file,
			 const char *what, const char *v, bool arg)
{
	const char *why = opp_save_unsafe(v, arg);

	if (!why)
		return v;
	pm_out_abort(o);
	pm_die(&op->t, PM_EXIT_FAIL, "cannot save %s: %s '%s' does not fit "
				     "in a point file: %s",
	       file, what, v, why);
}

static void save_khz(struct pm_out *o, const char *key, uint64_t khz)
{
	if (khz != PM_UNKNOWN)
		pm_out_printf(o, "%s = %llu\n", key, (unsigned long long)khz);
}

/* The tunables of the governor a policy runs (per policy or global). */
static void save_tunables(struct opp *op, struct pm_out *o,
			  const struct pm_policy *pol)
{
	for (int k = 0; opp_tunable_at(k); k++) {
		const struct opp_tunable *t = opp_tunable_at(k);
		char path[PM_PATH_MAX];
		uint64_t v;

		if (strcmp(t->gov, pol->governor))
			continue;
		if (pm_gov_tunable(&op->ctx, pol, t->gov, t->name, path,
				   sizeof(path), NULL, 0) &&
		    pm_attr_read_u64(&op->ctx, path, &v) == 0 &&
		    v >= t->lo && v <= t->hi)
			pm_out_printf(o, "%s.%s = %llu\n", t->gov, t->name,
				      (unsigned long long)v);
	}
}

/* The batteries' charge thresholds and behaviour ([supply NAME]). */
static void save_supplies(struct opp *op, struct pm_out *o)
{
	struct pm_supply *s = NULL;
	int n = pm_supplies_read(&op->ctx, &s);

	for (int i = 0; i < n; i++) {
		char beh[PM_NAME_MAX];

		pm_choice_current(s[i].charge_behaviour, beh, sizeof(beh));
		if (!pm_supply_name_ok(s[i].name) ||
		    (s[i].charge_start_pct == PM_UNKNOWN &&
		     s[i].charge_stop_pct == PM_UNKNOWN && !beh[0]))
			continue;
		pm_out_printf(o, "\n[supply %s]\n", s[i].name);
		if (s[i].charge_start_pct <= 100)
			pm_out_printf(o, "charge_start = %llu\n",
				      (unsigned long long)s[i].charge_start_pct);
		if (s[i].charge_stop_pct <= 100)
			pm_out_printf(o, "charge_stop = %llu\n",
				      (unsigned long long)s[i].charge_stop_pct);
		if (beh[0] && pm_fset_name_ok(beh, PM_NAME_MAX - 1))
			pm_out_printf(o, "charge_behaviour = %s\n", beh);
	}
	free(s);
	pm_err_clear(&op->ctx);
}

/*
 * [cpuidle]: what -f can write back.  The governor only where the
 * kernel lets it change; the disabled states (by index: names such as
 * POLL repeat on some drivers) only where the states have a disable
 * file, which kernels before 3.x lack.  One list serves every CPU.
 */
static void save_cpuidle(struct opp *op, struct pm_out *o, const char *file,
			 const struct pm_cpuidle *ci,
			 const struct pm_cpus *cpus)
{
	int c = pm_cpuset_next(&cpus->online, 0), k = 0;
	struct pm_idle_state *st = NULL;
	char dis[256] = "";
	bool have = false;

	if (c >= 0)
		k = pm_idle_states_alloc(&op->ctx, (unsigned)c,
					 PM_IDLE_NAMES | PM_IDLE_NODESC |
						 PM_IDLE_DISABLE,
					 &st, NULL);
	for (int i = 0; i < k; i++) {
		have |= st[i].disabled >= 0;
		if (st[i].disabled > 0)
			snprintf(dis + strlen(dis), sizeof(dis) - strlen(dis),
				 "%s%u", dis[0] ? " " : "", st[i].index);
	}
	if (ci->governor_writable || have)
		pm_out_printf(o, "\n[cpuidle]\n");
	if (ci->governor_writable)
		pm_out_printf(o, "governor = %s\n",
			      saved(op, o, file, "the cpuidle governor",
				    ci->governor, false));
	if (have)
		pm_out_printf(o, "disable = %s\n", dis);
	for (int x = pm_cpuset_next(&cpus->online, 0); x >= 0 && have;
	     x = pm_cpuset_next(&cpus->online, (unsigned)x + 1)) {
		struct pm_idle_state *s2;
		int k2 = pm_idle_states_alloc(&op->ctx, (unsigned)x,
					      PM_IDLE_DISABLE, &s2, NULL);
		bool differ = false;

		for (int i = 0; i < k2 && i < k; i++)
			differ |= s2[i].disabled != st[i].disabled;
		free(s2);
		if (differ) {
			pm_warn(&op->t, "cpu%d disables other idle states "
					"than cpu%d: saved as cpu%d's",
				x, c, c);
			break;
		}
	}
	free(st);
}

/* [cpu], and [intel_pstate] when the driver is there. */
static void save_cpu(struct opp *op, struct pm_out *o, const char *file,
		     const struct pm_cpus *cpus, const struct pm_cpufreq_global *g)
{
	char list[1024];

	pm_cpulist_format(&cpus->online, list, sizeof(list));
	pm_out_printf(o, "\n[cpu]\nonline = %s\n", list);
	if (cpus->smt_control[0] && (!strcmp(cpus->smt_control, "on") ||
				     !strcmp(cpus->smt_control, "off")))
		pm_out_printf(o, "smt = %s\n", cpus->smt_control);
	if (!g->intel_status[0])
		return;
	pm_out_printf(o, "\n[intel_pstate]\nstatus = %s\n",
		      saved(op, o, file, "intel_pstate's status",
			    g->intel_status, false));
	if (g->intel_min_perf_pct >= 0)
		pm_out_printf(o, "min_perf_pct = %d\n", g->intel_min_perf_pct);
	if (g->intel_max_perf_pct >= 0)
		pm_out_printf(o, "max_perf_pct = %d\n", g->intel_max_perf_pct);
	if (g->intel_no_turbo >= 0)
		pm_out_printf(o, "no_turbo = %s\n",
			      g->intel_no_turbo ? "on" : "off");
}

/* [cpufreq] boost, then a [cpufreq cpus=LIST] a policy. */
static void save_cpufreq(struct opp *op, struct pm_out *o, const char *file,
			 const struct pm_cpufreq_global *g)
{
	struct pm_policy *pol = NULL;
	char list[1024];
	int n = pm_policies_read(&op->ctx,
				 PM_POL_DRIVER | PM_POL_GOVERNOR |
					 PM_POL_LIMITS | PM_POL_EPP |
					 PM_POL_BOOST | PM_POL_SPEED,
				 &pol);

	if (g->boost >= 0)
		pm_out_printf(o, "\n[cpufreq]\nboost = %s\n",
			      g->boost ? "on" : "off");
	for (int i = 0; i < n; i++) {
		const struct pm_policy *x = &pol[i];

		if (pm_cpuspan_empty(&x->affected))
			continue;
		pm_cpuspan_format(&x->related, list, sizeof(list));
		pm_out_printf(o, "\n[cpufreq cpus=%s]\n", list);
		if (x->governor[0])
			pm_out_printf(o, "governor = %s\n",
				      saved(op, o, file, "the governor",
					    x->governor, false));
		save_khz(o, "min", x->min_khz);
		save_khz(o, "max", x->max_khz);
		if (!strcmp(x->governor, "userspace") &&
		    x->setspeed[0] >= '0' && x->setspeed[0] <= '9')
			pm_out_printf(o, "speed = %s\n",
				      saved(op, o, file, "scaling_setspeed",
					    x->setspeed, false));
		if (x->epp[0])
			pm_out_printf(o, "epp = %s\n",
				      saved(op, o, file, "the EPP", x->epp,
					    false));
		save_tunables(op, o, x);
		if (x->boost >= 0 && g->boost < 0 && g->intel_no_turbo < 0)
			pm_out_printf(o, "boost = %s\n",
				      x->boost ? "on" : "off");
	}
	pm_policies_free(pol, n);
}

static void save_devfreq(struct opp *op, struct pm_out *o, const char *file)
{
	struct pm_devfreq *df = NULL;
	int n = pm_devfreqs_read(&op->ctx, &df);

	for (int i = 0; i < n; i++) {
		pm_out_printf(o, "\n[devfreq %s]\n",
			      saved(op, o, file, "the devfreq name", df[i].name,
				    true));
		if (df[i].governor[0])
			pm_out_printf(o, "governor = %s\n",
				      saved(op, o, file, "the devfreq governor",
					    df[i].governor, false));
		if (df[i].min_hz != PM_UNKNOWN)
			pm_out_printf(o, "min = %lluHz\n",
				      (unsigned long long)df[i].min_hz);
		if (df[i].max_hz != PM_UNKNOWN)
			pm_out_printf(o, "max = %lluHz\n",
				      (unsigned long long)df[i].max_hz);
	}
	free(df);
}

int opp_save(struct opp *op, const char *file)
{
	struct pm_out o;
	struct pm_cpus cpus;
	struct pm_cpufreq_global g;
	struct pm_cpuidle ci;
	struct pm_profile pr;
	int r;

	if (pm_cpus_read(&op->ctx, &cpus) < 0)
		pm_die(&op->t, PM_EXIT_UNSUPPORTED, "cannot read the CPUs");
	r = pm_out_open(&o, PM_FMT_HUMAN, file);
	if (r < 0)
		pm_die(&op->t, pm_out_exit(r), "cannot write %s: %s (%s)", file,
		       strerror(-r), pm_errno_name(-r));
	pm_out_printf(&o, "# The power settings of this machine, saved by "
			  "opp-set --save;\n# opp-set -f FILE puts them back.\n"
			  "[opp]\ndescription = saved\n");
	if (pm_cpufreq_global_read(&op->ctx, &g) < 0)
		g.intel_status[0] = '\0';
	save_cpu(op, &o, file, &cpus, &g);
	save_cpufreq(op, &o, file, &g);
	if (pm_cpuidle_read(&op->ctx, &ci) == 0 && ci.governor[0])
		save_cpuidle(op, &o, file, &ci, &cpus);
	save_devfreq(op, &o, file);
	if (pm_profile_read(&op->ctx, &pr) == 0 && pr.current[0] &&
	    strcmp(pr.current, "custom"))
		pm_out_printf(&o, "\n[platform]\nprofile = %s\n",
			      saved(op, &o, file, "the platform profile",
				    pr.current, false));
	save_supplies(op, &o);
	opp_save_devtune(op, &o);
	r = pm_out_commit(&o);
	if (r < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "cannot write %s: %s (%s)", file,
		       strerror(-r), pm_errno_name(-r));
	return PM_EXIT_OK;
}

/* ---------------------------------------------------------------- current */

/* 0: the machine is at the point, 1: it is not, 2: it cannot be (the
 * point does not load or does not fit this machine).  In a child: the
 * planner dies on the first thing it refuses. */
static int at_point(struct opp *op, const char *name)
{
	pid_t pid = fork();
	int st;

	if (pid < 0)
		return 2;
	if (pid == 0) {
		struct opp_point pt;
		struct pm_writer w;
		int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		op->t.dry_run = true;
		op->ctx.dry_run = true;
		op->t.fmt = PM_FMT_HUMAN;
		memset(&pt, 0, sizeof(pt));
		pm_writer_begin(&w, &op->t, &op->ctx, &op->o);
		opp_load_name(op, name, &pt);
		opp_plan(op, &pt, &w);
		_exit(pm_txn_changes(&w.txn) ? 1 : 0);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return 2;
	if (!WIFEXITED(st))
		return 2;
	return WEXITSTATUS(st) > 1 ? 2 : WEXITSTATUS(st);
}

/* The name in /run/pmtools/opp.current, or "". */
static void last_applied(struct opp *op, char *buf, size_t size)
{
	if (pm_attr_read(&op->ctx, OPP_CURRENT_FILE, buf, size) < 0 ||
	    !pm_opp_name_valid(buf))
		buf[0] = '\0';
}

int opp_current(struct opp *op)
{
	struct pm_opp_entry *v;
	char last[PM_NAME_MAX];
	struct pm_out *o = &op->o;
	int n = pm_opp_list(&op->ctx, PM_DATADIR, &v), k = 0;
	bool *at;

	if (n < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	at = calloc((size_t)n + 1, sizeof(*at));
	if (!at)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	last_applied(op, last, sizeof(last));
	(void)fflush(NULL);
	for (int i = 0; i < n; i++) {
		/* A point that does not load is said, as --list does. */
		if (v[i].error[0])
			pm_warn(&op->t, "%s: %s", v[i].path, v[i].error);
		else if (at_point(op, v[i].name) == 0) {
			at[i] = true;
			k++;
		}
	}
	pm_tool_out(&op->t, o);
	if (op->t.fmt == PM_FMT_HUMAN) {
		/* The last applied first. */
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < n; i++)
				if (at[i] && (!strcmp(v[i].name, last)) == !pass)
					pm_out_printf(o, "%s\n", v[i].name);
		if (!k)
			pm_out_printf(o, "custom\n");
	} else {
		pm_out_obj_begin(o, NULL);
		pm_out_arr_begin(o, "current", NULL);
		for (int pass = 0; pass < 2; pass++)
			for (int i = 0; i < n; i++)
				if (at[i] && (!strcmp(v[i].name, last)) == !pass)
					pm_out_str(o, NULL, v[i].name);
		pm_out_arr_end(o);
		pm_out_str_or_null(o, "last_applied", last);
		pm_out_bool(o, "custom", !k);
		pm_out_obj_end(o);
	}
	pm_tool_out_done(&op->t, o);
	free(at);
	free(v);
	return PM_EXIT_OK;
}

/* ---------------------------------------------------------------- auto */

struct now {
	int ac;			/* 1 online, 0 offline, -1 no AC adapter */
	double battery_pct;	/* combined, NAN without a battery */
	int64_t hottest_mc;	/* PM_UNKNOWN_S64 without a zone */
	double cpu_pressure;	/* PSI cpu some avg10 (%), NAN without PSI */
};

static void read_now(struct opp *op, struct now *nw)
{
	struct pm_supply *s = NULL;
	struct pm_tzone *z = NULL;
	struct pm_psi psi;
	double e = 0, ef = 0, c = 0, cf = 0, cap = 0;
	int n, nb = 0, ncap = 0;
	bool have_e = true, have_c = true;

	nw->ac = -1;
	nw->battery_pct = NAN;
	nw->hottest_mc = PM_UNKNOWN_S64;
	n = pm_supplies_read(&op->ctx, &s);
	for (int i = 0; i < n; i++) {
		if (!strcmp(s[i].type, "Mains") && s[i].online >= 0) {
			if (nw->ac < 1)
				nw->ac = s[i].online;
			continue;
		}
		if (strcmp(s[i].type, "Battery"))
			continue;
		nb++;
		if (s[i].energy_now_uwh >= 0 && s[i].energy_full_uwh > 0) {
			e += (double)s[i].energy_now_uwh;
			ef += (double)s[i].energy_full_uwh;
		} else {
			have_e = false;
		}
		if (s[i].charge_now_uah >= 0 && s[i].charge_full_uah > 0) {
			c += (double)s[i].charge_now_uah;
			cf += (double)s[i].charge_full_uah;
		} else {
			have_c = false;
		}
		if (s[i].capacity_pct != PM_UNKNOWN) {
			cap += (double)s[i].capacity_pct;
			ncap++;
		}
	}
	free(s);
	/* Several batteries: their combined energy (CLI.md). */
	if (nb && have_e)
		nw->battery_pct = 100.0 * e / ef;
	else if (nb && have_c)
		nw->battery_pct = 100.0 * c / cf;
	else if (ncap)
		nw->battery_pct = cap / ncap;
	n = pm_tzones_read(&op->ctx, &z);
	for (int i = 0; i < n; i++)
		if (z[i].temp_mc != PM_UNKNOWN_S64 &&
		    (nw->hottest_mc == PM_UNKNOWN_S64 ||
		     z[i].temp_mc > nw->hottest_mc))
			nw->hottest_mc = z[i].temp_mc;
	free(z);
	/* The share of the last 10 s in which some task waited for a CPU:
	 * the load the cpufreq governors try to predict, measured. */
	nw->cpu_pressure = pm_psi_read(&op->ctx, "cpu", &psi) == 0 ?
				   psi.some[0] :
				   NAN;
	pm_err_clear(&op->ctx);
}

/* The state --auto read, in one line of ASCII for logs. */
static const char *describe(const struct now *nw, char *buf, size_t size)
{
	char bat[32], hot[48], psi[40];

	if (isnan(nw->battery_pct))
		snprintf(bat, sizeof(bat), "no battery");
	else
		snprintf(bat, sizeof(bat), "battery %.0f %%", nw->battery_pct);
	if (nw->hottest_mc == PM_UNKNOWN_S64)
		snprintf(hot, sizeof(hot), "no thermal zone");
	else
		snprintf(hot, sizeof(hot), "hottest zone %.1f C",
			 (double)nw->hottest_mc / 1000.0);
	if (isnan(nw->cpu_pressure))
		snprintf(psi, sizeof(psi), "no CPU pressure (PSI)");
	else
		snprintf(psi, sizeof(psi), "CPU pressure %.1f %%",
			 nw->cpu_pressure);
	snprintf(buf, size, "AC %s, %s, %s, %s",
		 nw->ac < 0 ? "absent" : nw->ac ? "online" : "offline", bat,
		 hot, psi);
	return buf;
}

/* value < limit (below) or value > limit (above), the current point's
 * limit moved by margin its way; an unknown value holds neither. */
static bool beyond(double value, double limit, bool above, double margin)
{
	if (isnan(value))
		return false;
	return above ? value > limit - margin : value < limit + margin;
}

/*
 * Does the point's [match] hold?  -1: it has none.  A [match] without a
 * condition (priority alone) always holds: the default point.
 */
static int matches(const struct opp_point *pt, const struct now *nw,
		   bool current, long *prio)
{
	int any = 0;

	*prio = 0;
	for (int i = 0; i < pt->n; i++) {
		const struct opp_setting *s = &pt->v[i];
		const char *k = s->key;
		double v = strtod(s->value, NULL);
		bool held = true;

		if (strcmp(s->section, "match"))
			continue;
		any = 1;
		if (!strcmp(k, "priority"))
			*prio = strtol(s->value, NULL, 10);
		else if (!strcmp(k, "ac"))
			held = nw->ac >= 0 &&
			       nw->ac == !strcmp(s->value, "online");
		else if (!strcmp(k, "thermal_above"))
			held = nw->hottest_mc != PM_UNKNOWN_S64 &&
			       beyond((double)nw->hottest_mc, v * 1000, true,
				      current ? HYST_MC : 0);
		else if (!strcmp(k, "battery_below") ||
			 !strcmp(k, "battery_above"))
			held = beyond(nw->battery_pct, v, k[8] == 'a',
				      current ? HYST_PCT : 0);
		else if (!strcmp(k, "cpu_pressure_below") ||
			 !strcmp(k, "cpu_pressure_above"))
			held = beyond(nw->cpu_pressure, v, k[13] == 'a',
				      current ? HYST_PRESSURE : 0);
		if (!held)
			return 0;
	}
	return any ? 1 : -1;
}

/* The name of the point to apply, or exit 3. */
void opp_auto_pick(struct opp *op, char *out, size_t size)
{
	struct pm_opp_entry *v;
	char last[PM_NAME_MAX], why[200];
	struct now nw;
	long best = 0;
	int n = pm_opp_list(&op->ctx, PM_DATADIR, &v), pick = -1;

	if (n < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	read_now(op, &nw);
	last_applied(op, last, sizeof(last));
	for (int i = 0; i < n; i++) {
		struct opp_point pt;
		long prio;
		int m;

		if (v[i].error[0]) {
			pm_warn(&op->t, "%s: %s (left out)", v[i].path,
				v[i].error);
			continue;
		}
		memset(&pt, 0, sizeof(pt));
		opp_load_name(op, v[i].name, &pt);
		m = matches(&pt, &nw, !strcmp(v[i].name, last), &prio);
		opp_point_free(&pt);
		if (m != 1)
			continue;
		/* Higher priority wins; a tie keeps the last applied. */
		if (pick < 0 || prio > best ||
		    (prio == best && !strcmp(v[i].name, last))) {
			pick = i;
			best = prio;
		}
	}
	describe(&nw, why, sizeof(why));
	if (pick < 0) {
		free(v);
		/* Not quiet: the machine is left at no point. */
		pm_die(&op->t, PM_EXIT_UNSUPPORTED,
		       "no operating point's [match] holds now (%s): nothing "
		       "was applied; a point whose [match] has only a priority "
		       "is the default (opp.conf(5))",
		       why);
	}
	pm_note(&op->t, "--auto: %s (priority %ld): %s", v[pick].name, best,
		why);
	snprintf(out, size, "%s", v[pick].name);
	free(v);
}
