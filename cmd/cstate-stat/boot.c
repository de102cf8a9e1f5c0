// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cstate-stat since boot: one snapshot of cpuidle state residency,
 * cpufreq time in state, the CPU time of /proc/stat, s390's own idle
 * statistics and the interrupts, in every format.  CPUs with the same
 * idle states, and policies with the same frequencies, are grouped in
 * the human summary; JSON keeps every row.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cstate-stat.h"

/* cpufreq stats count USER_HZ ticks: 10 ms each. */
#define TICK_MS 10
/* How many interrupt sources the report names. */
#define TOP_IRQS 5
/* Groups of idle-state tables shown apart; more are summed as "all". */
#define MAX_GROUPS 64

struct cpu_snap {
	unsigned cpu;
	bool online;
	int nstates;
	struct pm_idle_state st[PM_MAX_IDLE_STATES];
	double share[PM_MAX_IDLE_STATES];	/* of the time since boot */
	int policy;		/* index into snap.pol, -1 none */
	int group;		/* index of its idle-state table */
	struct pm_cpu_ticks ticks;	/* f[] PM_UNKNOWN without /proc/stat */
	struct pm_cputime ct;
	enum pm_idle_src idle_src;
	uint64_t s390_count, s390_time_us;
	double s390_share;
	uint64_t irqs;		/* since boot, PM_UNKNOWN */
};

struct snap {
	struct pm_cpuidle idle;
	bool have_idle;
	double uptime_s;	/* NAN if unknown */
	time_t now;
	int ncpu;
	struct cpu_snap *cpu;
	int npol;
	struct pm_policy *pol;
	struct pm_trans_table *tt;	/* per policy, with --trans-table */
	int *tt_err;			/* why a table is missing (errno) */
	bool have_stat;
	bool have_irq;
	struct pm_irq_table irq;
	int ngroups;
	struct pm_anoms an;
};

static const struct cs_opts *opt;

/* ---------------------------------------------------------------- reading */

static bool same_table(const struct cpu_snap *a, const struct cpu_snap *b)
{
	if (a->nstates != b->nstates)
		return false;
	for (int i = 0; i < a->nstates; i++)
		if (strcmp(a->st[i].name, b->st[i].name) ||
		    a->st[i].latency_us != b->st[i].latency_us ||
		    a->st[i].residency_us != b->st[i].residency_us)
			return false;
	return true;
}

/* Online CPUs with identical idle-state tables share a group. */
static void group_cpus(struct snap *s)
{
	s->ngroups = 0;
	for (int c = 0; c < s->ncpu; c++) {
		struct cpu_snap *cs = &s->cpu[c];

		cs->group = -1;
		if (!cs->online)
			continue;
		for (int o = 0; o < c && cs->group < 0; o++)
			if (s->cpu[o].group >= 0 && same_table(&s->cpu[o], cs))
				cs->group = s->cpu[o].group;
		if (cs->group < 0)
			cs->group = s->ngroups++;
	}
}

static void read_cputime(struct pm_ctx *ctx, struct snap *s)
{
	struct pm_cpu_ticks *ticks = calloc(PM_MAX_CPUS, sizeof(*ticks));

	if (!ticks)
		return;
	if (pm_proc_stat_read(ctx, ticks, PM_MAX_CPUS) >= 0) {
		for (int c = 0; c < s->ncpu; c++) {
			struct cpu_snap *cs = &s->cpu[c];

			cs->ticks = ticks[cs->cpu];
			pm_cputime_boot(&cs->ticks, &cs->ct);
			if (isfinite(cs->ct.pct[PM_CT_IDLE])) {
				cs->idle_src = PM_IDLE_SRC_PROC_STAT;
				s->have_stat = true;
			}
		}
	}
	free(ticks);
}

static void read_irqs(struct pm_ctx *ctx, const struct pm_cpuset *sel,
		      struct snap *s)
{
	if (pm_irq_table_read(ctx, sel, &s->irq) == 0) {
		s->have_irq = true;
		for (int c = 0; c < s->ncpu; c++)
			s->cpu[c].irqs = pm_irq_table_cpu(&s->irq,
							  s->cpu[c].cpu);
	}
}

static void read_s390(struct pm_ctx *ctx, const struct pm_cpuset *sel,
		      struct snap *s)
{
	for (int c = 0; c < s->ncpu; c++)
		s->cpu[c].s390_share = NAN;
	if (!pm_s390_idle_present(ctx, sel))
		return;
	for (int c = 0; c < s->ncpu; c++) {
		struct cpu_snap *cs = &s->cpu[c];
		struct pm_ctr_id id = { (int)cs->cpu, -1, "s390 idle_time_us" };

		if (!cs->online ||
		    pm_s390_idle_read(ctx, cs->cpu, &cs->s390_count,
				      &cs->s390_time_us) < 0)
			continue;
		cs->s390_share = pm_share_boot(&s->an, cs->s390_time_us,
					       s->uptime_s, 1, &id);
		/* Every wait of the CPU: the idle figure there. */
		if (isfinite(cs->s390_share)) {
			cs->ct.pct[PM_CT_IDLE] = cs->s390_share;
			cs->ct.pct[PM_CT_BUSY] = 100.0 - cs->s390_share;
			cs->idle_src = PM_IDLE_SRC_S390;
		}
	}
	pm_err_clear(ctx);
}

/* The cpufreq policies, their transition tables with --trans-table,
 * and an anomaly for each malformed time_in_state. */
static void snap_policies(struct pm_tool *t, struct pm_ctx *ctx,
			  bool trans_table, struct snap *s)
{
	unsigned *ids = calloc(PM_MAX_CPUS, sizeof(*ids));
	int n;

	if (!ids)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
	if (opt->pstates) {
		n = pm_policies_list(ctx, ids, PM_MAX_CPUS);
		if (n > 0) {
			s->pol = calloc((size_t)n, sizeof(*s->pol));
			if (!s->pol)
				pm_die(t, PM_EXIT_FAIL, "out of memory");
		}
		for (int i = 0; i < n; i++) {
			if (pm_policy_read(ctx, ids[i], &s->pol[s->npol]) == 0)
				s->npol++;
		}
	}
	free(ids);
	if (trans_table && s->npol) {
		s->tt = calloc((size_t)s->npol, sizeof(*s->tt));
		s->tt_err = calloc((size_t)s->npol, sizeof(*s->tt_err));
		if (!s->tt || !s->tt_err)
			pm_die(t, PM_EXIT_FAIL, "out of memory");
		for (int i = 0; i < s->npol; i++)
			s->tt_err[i] = -pm_trans_table_read(ctx, &s->pol[i],
							    &s->tt[i]);
		pm_err_clear(ctx);
	}
	for (int i = 0; i < s->npol; i++)
		if (s->pol[i].tis_bad_line)
			pm_anom(&s->an, PM_ANOM_MALFORMED,
				"%s/stats/time_in_state: line %d is malformed",
				s->pol[i].path, s->pol[i].tis_bad_line);
}

/* One selected CPU: its idle states and their shares since boot, and
 * its policy; cut gets it when it has more states than kept. */
static void snap_cpu(struct pm_ctx *ctx, const struct pm_cpus *cpus,
		     unsigned c, struct snap *s, struct pm_cpuset *cut)
{
	struct cpu_snap *cs = &s->cpu[s->ncpu++];

	cs->cpu = c;
	cs->online = pm_cpuset_isset(&cpus->online, c);
	cs->policy = -1;
	cs->irqs = PM_UNKNOWN;
	cs->s390_count = cs->s390_time_us = PM_UNKNOWN;
	for (int k = 0; k < PM_CT_KINDS; k++)
		cs->ct.pct[k] = NAN;
	for (int k = 0; k < PM_ST_FIELDS; k++)
		cs->ticks.f[k] = PM_UNKNOWN;
	if (opt->cstates)
		cs->nstates = pm_idle_states_read_fields(
			ctx, c, cs->st, PM_MAX_IDLE_STATES,
			PM_IDLE_NAMES | PM_IDLE_COUNTERS | PM_IDLE_DISABLE);
	cs_states_cut_add(ctx, c, cs->nstates, cut);
	/* The kernel's (u32)-1: it does not know. */
	for (int i = 0; i < cs->nstates; i++) {
		cs->st[i].latency_us = pm_known_u32(cs->st[i].latency_us);
		cs->st[i].residency_us = pm_known_u32(cs->st[i].residency_us);
	}
	for (int i = 0; i < cs->nstates; i++) {
		struct pm_ctr_id id = { (int)c, i, "time" };

		cs->share[i] = pm_share_boot(&s->an, cs->st[i].time_us,
					     s->uptime_s, 1, &id);
	}
	for (int i = 0; i < s->npol; i++)
		if (pm_cpuspan_isset(&s->pol[i].related, c))
			cs->policy = i;
}

static void take_snapshot(struct pm_tool *t, struct pm_ctx *ctx,
			  const struct pm_cpus *cpus,
			  const struct pm_cpuset *sel, bool trans_table,
			  struct snap *s)
{
	struct pm_cpuset cut;

	memset(s, 0, sizeof(*s));
	pm_cpuset_zero(&cut);
	s->now = time(NULL);
	if (pm_uptime_read(ctx, &s->uptime_s) < 0)
		s->uptime_s = NAN;
	s->have_idle = pm_cpuidle_read(ctx, &s->idle) == 0;
	s->cpu = calloc(pm_cpuset_count(sel) + 1, sizeof(*s->cpu));
	if (!s->cpu)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
	snap_policies(t, ctx, trans_table, s);
	pm_cpuset_foreach(c, sel)
		snap_cpu(ctx, cpus, (unsigned)c, s, &cut);
	cs_states_cut_say(t, &cut);
	read_cputime(ctx, s);
	read_s390(ctx, sel, s);
	if (opt->wakeups)
		read_irqs(ctx, sel, s);
	group_cpus(s);
	pm_err_clear(ctx);
}

static void free_snapshot(struct snap *s)
{
	for (int i = 0; s->tt && i < s->npol; i++)
		pm_trans_table_free(&s->tt[i]);
	free(s->tt);
	free(s->tt_err);
	free(s->cpu);
	pm_policies_free(s->pol, s->npol);
	pm_irq_table_free(&s->irq);
}

static uint64_t tis_total_ticks(const struct pm_tis *tis, int n)
{
	uint64_t t = 0;

	for (int i = 0; i < n; i++)
		t += tis[i].ticks;
	return t;
}

static double tis_share(const struct pm_tis *tis, int n, int i)
{
	uint64_t tot = tis_total_ticks(tis, n);

	return tot ? (double)tis[i].ticks * 100.0 / (double)tot : NAN;
}

/* Sum of a counter over the online CPUs of a group that have state i. */
struct state_sum {
	uint64_t latency_us, residency_us;
	uint64_t usage, time_us;
	unsigned ncpu, disabled;
	bool names_differ, usage_unknown, time_unknown;
	char name[PM_NAME_MAX];
};

/* group < 0: every online CPU. */
static int sum_states(const struct snap *s, int group, struct state_sum *sum,
		      unsigned *ncpu, struct pm_cpuset *cpus)
{
	int n = 0;

	memset(sum, 0, sizeof(*sum) * PM_MAX_IDLE_STATES);
	*ncpu = 0;
	pm_cpuset_zero(cpus);
	for (int c = 0; c < s->ncpu; c++) {
		const struct cpu_snap *cs = &s->cpu[c];

		if (!cs->online || (group >= 0 && cs->group != group))
			continue;
		(*ncpu)++;
		pm_cpuset_set(cpus, cs->cpu);
		for (int i = 0; i < cs->nstates; i++) {
			const struct pm_idle_state *st = &cs->st[i];
			struct state_sum *u = &sum[i];

			if (!u->ncpu) {
				snprintf(u->name, sizeof(u->name), "%s",
					 st->name);
				u->latency_us = st->latency_us;
				u->residency_us = st->residency_us;
			} else if (strcmp(u->name, st->name)) {
				u->names_differ = true;
			}
			if (i >= n)
				n = i + 1;
			u->ncpu++;
			if (st->usage == PM_UNKNOWN)
				u->usage_unknown = true;
			else
				u->usage += st->usage;
			if (st->time_us == PM_UNKNOWN)
				u->time_unknown = true;
			else
				u->time_us += st->time_us;
			if (st->disabled == 1)
				u->disabled++;
		}
	}
	return n;
}

/* ---------------------------------------------------------------- human */

static void human_num(struct pm_out *o, int width, uint64_t v)
{
	if (v == PM_UNKNOWN)
		pm_out_printf(o, " %*s", width, "-");
	else
		pm_out_printf(o, " %*llu", width, (unsigned long long)v);
}

static void human_pct(struct pm_out *o, double v)
{
	if (isfinite(v))
		pm_out_printf(o, " %6.2f%%", v);
	else
		pm_out_printf(o, " %7s", "-");
}

static void human_time(struct pm_out *o, uint64_t us)
{
	if (us == PM_UNKNOWN)
		pm_out_printf(o, " %14s", "-");
	else
		pm_out_printf(o, " %13.3fs", (double)us / 1e6);
}

static void human_summary_rows(struct pm_out *o, struct snap *s, int group,
			       const char *label, int w)
{
	struct state_sum sum[PM_MAX_IDLE_STATES];
	struct pm_cpuset cpus;
	unsigned ncpu;
	int n = sum_states(s, group, sum, &ncpu, &cpus);

	for (int i = 0; i < n; i++) {
		uint64_t tu = sum[i].time_unknown ? PM_UNKNOWN : sum[i].time_us;

		pm_out_printf(o, "%*s %3d %-15s", w, label, i, sum[i].name);
		human_num(o, 8, sum[i].latency_us);
		human_num(o, 8, sum[i].residency_us);
		human_num(o, 14, sum[i].usage_unknown ? PM_UNKNOWN :
							sum[i].usage);
		human_time(o, tu);
		/* Each CPU's share was decided (and counted) on its own. */
		human_pct(o, pm_share_boot(NULL, tu, s->uptime_s, sum[i].ncpu,
					   NULL));
		if (sum[i].disabled)
			pm_out_printf(o, " disabled on %u of %u",
				      sum[i].disabled, sum[i].ncpu);
		pm_out_printf(o, "\n");
	}
	if (!n && group < 0)
		pm_out_printf(o, "  no idle states on the selected CPUs\n");
}

static void human_cstates(struct pm_out *o, struct snap *s)
{
	if (!s->have_idle) {
		pm_out_printf(o, "cpuidle: not available (no "
				 "/sys/devices/system/cpu/cpuidle)\n");
		return;
	}
	pm_out_printf(o, "cpuidle: driver %s, governor %s\n",
		      s->idle.driver[0] ? s->idle.driver : "-",
		      s->idle.governor[0] ? s->idle.governor : "-");
	if (!strcmp(s->idle.driver, "none")) {
		pm_out_printf(o, "  no idle states: the cpuidle driver is "
				 "'none'\n");
		return;
	}
	if (opt->summary) {
		char labels[MAX_GROUPS][128];
		int w = 4, ng = s->ngroups < MAX_GROUPS ? s->ngroups :
							   MAX_GROUPS;

		/* One group: "all"; several: each its CPUs. */
		for (int g = 0; g < ng; g++) {
			struct state_sum sum[PM_MAX_IDLE_STATES];
			struct pm_cpuset cpus;
			unsigned ncpu;

			sum_states(s, g, sum, &ncpu, &cpus);
			pm_cpulist_format(&cpus, labels[g], sizeof(labels[g]));
			if ((int)strlen(labels[g]) > w)
				w = (int)strlen(labels[g]);
		}
		pm_out_printf(o, "%*s %-3s %-15s %8s %8s %14s %14s %7s\n", w,
			      "CPU", "IDX", "STATE", "LAT(us)", "RES(us)",
			      "USAGE", "TIME", "SHARE");
		if (s->ngroups <= 1 || s->ngroups > ng)
			human_summary_rows(o, s, -1, "all", w);
		else
			for (int g = 0; g < ng; g++)
				human_summary_rows(o, s, g, labels[g], w);
		return;
	}
	pm_out_printf(o, "%4s %-3s %-15s %8s %8s %14s %14s %7s\n", "CPU",
		      "IDX", "STATE", "LAT(us)", "RES(us)", "USAGE", "TIME",
		      "SHARE");
	for (int c = 0; c < s->ncpu; c++) {
		const struct cpu_snap *cs = &s->cpu[c];

		if (!cs->online) {
			pm_out_printf(o, "%4u offline\n", cs->cpu);
			continue;
		}
		if (!cs->nstates)
			pm_out_printf(o, "%4u no idle states\n", cs->cpu);
		for (int i = 0; i < cs->nstates; i++) {
			const struct pm_idle_state *st = &cs->st[i];

			pm_out_printf(o, "%4u %3u %-15s", cs->cpu, st->index,
				      st->name);
			human_num(o, 8, st->latency_us);
			human_num(o, 8, st->residency_us);
			human_num(o, 14, st->usage);
			human_time(o, st->time_us);
			human_pct(o, cs->share[i]);
			pm_out_printf(o, "%s\n",
				      st->disabled == 1 ? " disabled" : "");
		}
	}
}

static bool any_s390(const struct snap *s)
{
	for (int c = 0; c < s->ncpu; c++)
		if (s->cpu[c].s390_time_us != PM_UNKNOWN)
			return true;
	return false;
}

static void human_s390(struct pm_out *o, const struct snap *s)
{
	uint64_t cnt = 0, tu = 0;
	unsigned n = 0;
	double sh = 0;
	unsigned nsh = 0;

	pm_out_printf(o, "s390 idle (cpuN/idle_count, idle_time_us):\n");
	pm_out_printf(o, "%4s %14s %14s %7s\n", "CPU", "ENTRIES", "TIME",
		      "SHARE");
	for (int c = 0; c < s->ncpu; c++) {
		const struct cpu_snap *cs = &s->cpu[c];

		if (!cs->online) {
			if (!opt->summary)
				pm_out_printf(o, "%4u offline\n", cs->cpu);
			continue;
		}
		if (cs->s390_time_us == PM_UNKNOWN) {
			if (!opt->summary)
				pm_out_printf(o, "%4u no idle statistics\n",
					      cs->cpu);
			continue;
		}
		n++;
		cnt += cs->s390_count == PM_UNKNOWN ? 0 : cs->s390_count;
		tu += cs->s390_time_us;
		if (isfinite(cs->s390_share)) {
			sh += cs->s390_share;
			nsh++;
		}
		if (opt->summary)
			continue;
		pm_out_printf(o, "%4u", cs->cpu);
		human_num(o, 14, cs->s390_count);
		human_time(o, cs->s390_time_us);
		human_pct(o, cs->s390_share);
		pm_out_printf(o, "\n");
	}
	if (opt->summary && n) {
		pm_out_printf(o, "%4s", "all");
		human_num(o, 14, cnt);
		human_time(o, tu);
		human_pct(o, nsh == n ? sh / nsh : NAN);
		pm_out_printf(o, "\n");
	}
}

static bool pol_selected(const struct snap *s, int p)
{
	for (int c = 0; c < s->ncpu; c++)
		if (s->cpu[c].policy == p)
			return true;
	return false;
}

static void human_trans(struct pm_out *o, const struct pm_trans_table *tt,
			int err)
{
	if (err) {
		pm_out_printf(o, "  transitions: %s\n",
			      err == EFBIG ? "the table is larger than a page: "
					     "the kernel does not show it" :
			      err == ENOENT ? "no trans_table" :
					      strerror(err));
		return;
	}
	/* MHz rounded to the nearest, as everywhere in human output. */
	pm_out_printf(o, "  transitions (rows from, columns to, MHz):\n  %9s",
		      "");
	for (int c = 0; c < tt->n; c++)
		pm_out_printf(o, " %8llu",
			      (unsigned long long)(tt->khz[c] + 500) / 1000);
	pm_out_printf(o, "\n");
	for (int r = 0; r < tt->n; r++) {
		pm_out_printf(o, "  %8llu:",
			      (unsigned long long)(tt->khz[r] + 500) / 1000);
		for (int c = 0; c < tt->n; c++)
			pm_out_printf(o, " %8llu",
				      (unsigned long long)tt->counts[r * tt->n + c]);
		pm_out_printf(o, "\n");
	}
}

/* A policy without statistics says why. */
static bool human_no_stats(struct pm_out *o, const struct pm_policy *pol)
{
	if (pol->tis_bad_line) {
		pm_out_printf(o, "  time-in-state statistics: line %d of "
				 "%s/stats/time_in_state is malformed\n",
			      pol->tis_bad_line, pol->path);
		return true;
	}
	if (!pol->has_stats) {
		pm_out_printf(o, "  no time-in-state statistics: %s keeps "
				 "none\n",
			      pol->driver[0] ? pol->driver : "the driver");
		return true;
	}
	return false;
}

static void human_tis_rows(struct pm_out *o, const struct pm_tis *tis, int n)
{
	char b[32];

	for (int i = 0; i < n; i++) {
		pm_out_printf(o, "  %12s %14.2fs",
			      pm_fmt_khz(tis[i].khz, b, sizeof(b)),
			      (double)tis[i].ticks * TICK_MS / 1e3);
		human_pct(o, tis_share(tis, n, i));
		pm_out_printf(o, "\n");
	}
}

/* Policies of one kind: same driver, governor and frequencies. */
static bool same_policy_kind(const struct pm_policy *a,
			     const struct pm_policy *b)
{
	if (strcmp(a->driver, b->driver) || strcmp(a->governor, b->governor) ||
	    a->has_stats != b->has_stats || a->tis_bad_line ||
	    b->tis_bad_line || a->n_tis != b->n_tis)
		return false;
	for (int i = 0; i < a->n_tis; i++)
		if (a->tis[i].khz != b->tis[i].khz)
			return false;
	return true;
}

/* The summary: one block per kind of policy, its times summed. */
static void human_pstates_summary(struct pm_out *o, const struct snap *s)
{
	bool *done = calloc((size_t)s->npol + 1, sizeof(*done));
	struct pm_tis tis[PM_MAX_FREQS];
	char a[32], b[32], cpus[256];

	if (!done)
		return;
	for (int p = 0; p < s->npol; p++) {
		const struct pm_policy *pol = &s->pol[p];
		struct pm_cpuset set;
		uint64_t trans = 0, lo = PM_UNKNOWN, hi = 0;
		bool trans_known = true;
		int count = 0;

		if (done[p] || !pol_selected(s, p))
			continue;
		pm_cpuset_zero(&set);
		memset(tis, 0, sizeof(tis));
		for (int i = 0; i < pol->n_tis; i++)
			tis[i].khz = pol->tis[i].khz;
		for (int q = p; q < s->npol; q++) {
			const struct pm_policy *x = &s->pol[q];

			if (done[q] || !pol_selected(s, q) ||
			    !same_policy_kind(pol, x))
				continue;
			done[q] = true;
			count++;
			pm_cpuspan_or(&set, &x->related);
			for (int i = 0; i < x->n_tis; i++)
				tis[i].ticks += x->tis[i].ticks;
			if (x->total_trans == PM_UNKNOWN)
				trans_known = false;
			else
				trans += x->total_trans;
			if (x->cur_khz != PM_UNKNOWN) {
				lo = x->cur_khz < lo ? x->cur_khz : lo;
				hi = x->cur_khz > hi ? x->cur_khz : hi;
			}
		}
		pm_cpulist_format(&set, cpus, sizeof(cpus));
		if (count == 1)
			pm_out_printf(o, "policy%u (cpus %s): ", pol->id, cpus);
		else
			pm_out_printf(o, "%d policies (cpus %s): ", count,
				      cpus);
		pm_out_printf(o, "%s, %s, cur %s", pol->driver[0] ? pol->driver : "-",
			      pol->governor[0] ? pol->governor : "-",
			      pm_fmt_khz(lo, a, sizeof(a)));
		if (lo != PM_UNKNOWN && hi != lo)
			pm_out_printf(o, " to %s", pm_fmt_khz(hi, b, sizeof(b)));
		if (trans_known && pol->total_trans != PM_UNKNOWN)
			pm_out_printf(o, ", %llu transitions",
				      (unsigned long long)trans);
		pm_out_printf(o, "\n");
		if (!human_no_stats(o, pol))
			human_tis_rows(o, tis, pol->n_tis);
	}
	free(done);
}

static void human_pstates(struct pm_out *o, const struct snap *s)
{
	char a[32];

	if (!s->npol) {
		pm_out_printf(o, "cpufreq: not available (no policies)\n");
		return;
	}
	if (opt->summary && !s->tt) {
		human_pstates_summary(o, s);
		return;
	}
	for (int p = 0; p < s->npol; p++) {
		const struct pm_policy *pol = &s->pol[p];
		char cpus[256];

		if (!pol_selected(s, p))
			continue;
		pm_cpuspan_format(&pol->related, cpus, sizeof(cpus));
		pm_out_printf(o, "policy%u (cpus %s): %s, %s, cur %s", pol->id,
			      cpus, pol->driver[0] ? pol->driver : "-",
			      pol->governor[0] ? pol->governor : "-",
			      pm_fmt_khz(pol->cur_khz, a, sizeof(a)));
		if (pol->total_trans != PM_UNKNOWN)
			pm_out_printf(o, ", %llu transitions",
				      (unsigned long long)pol->total_trans);
		pm_out_printf(o, "\n");
		if (human_no_stats(o, pol))
			continue;
		human_tis_rows(o, pol->tis, pol->n_tis);
		if (s->tt)
			human_trans(o, &s->tt[p], s->tt_err[p]);
	}
}

static double wakeups_boot(const struct snap *s, uint64_t n)
{
	return n == PM_UNKNOWN || !isfinite(s->uptime_s) || s->uptime_s <= 0 ?
		       NAN :
		       (double)n / s->uptime_s;
}

static void human_cputime_row(struct pm_out *o, const char *label,
			      const struct pm_cputime *ct, double wk)
{
	pm_out_printf(o, "%4s", label);
	for (int k = 0; k < PM_CT_KINDS; k++) {
		if (isfinite(ct->pct[k]))
			pm_out_printf(o, " %7.2f", ct->pct[k]);
		else
			pm_out_printf(o, " %7s", "-");
	}
	if (opt->wakeups) {
		if (isfinite(wk))
			pm_out_printf(o, " %8.0f", wk);
		else
			pm_out_printf(o, " %8s", "-");
	}
	pm_out_printf(o, "\n");
}

/* Rows of the same top interrupt sources, largest first. */
static int top_rows(const struct snap *s, int *top, int n)
{
	int k = 0;

	for (int r = 0; r < s->irq.nrows; r++) {
		uint64_t x = s->irq.rows[r].total;
		int j;

		if (!x || (k == n && s->irq.rows[top[n - 1]].total >= x))
			continue;
		j = k < n ? k++ : n - 1;
		while (j > 0 && s->irq.rows[top[j - 1]].total < x) {
			top[j] = top[j - 1];
			j--;
		}
		top[j] = r;
	}
	return k;
}

static void human_cputime(struct pm_out *o, const struct snap *s)
{
	static const char *const heads[PM_CT_KINDS] = {
		"BUSY%", "USER%", "SYS%", "IOWAIT%", "IRQ%", "STEAL%", "IDLE%",
	};
	struct pm_cputime avg;
	unsigned n[PM_CT_KINDS] = { 0 };
	uint64_t irqs = 0;
	bool s390 = false;
	int top[TOP_IRQS], ntop;

	pm_out_printf(o, "CPU time since boot (/proc/stat):\n%4s", "CPU");
	for (int k = 0; k < PM_CT_KINDS; k++)
		pm_out_printf(o, " %7s", heads[k]);
	if (opt->wakeups)
		pm_out_printf(o, " %8s", "WAKE/s");
	pm_out_printf(o, "\n");
	for (int k = 0; k < PM_CT_KINDS; k++)
		avg.pct[k] = 0;
	for (int c = 0; c < s->ncpu; c++) {
		const struct cpu_snap *cs = &s->cpu[c];
		char l[16];

		if (!cs->online) {
			if (!opt->summary)
				pm_out_printf(o, "%4u offline\n", cs->cpu);
			continue;
		}
		s390 |= cs->idle_src == PM_IDLE_SRC_S390;
		for (int k = 0; k < PM_CT_KINDS; k++)
			if (isfinite(cs->ct.pct[k])) {
				avg.pct[k] += cs->ct.pct[k];
				n[k]++;
			}
		if (cs->irqs != PM_UNKNOWN)
			irqs += cs->irqs;
		if (opt->summary)
			continue;
		snprintf(l, sizeof(l), "%u", cs->cpu);
		human_cputime_row(o, l, &cs->ct, wakeups_boot(s, cs->irqs));
	}
	for (int k = 0; k < PM_CT_KINDS; k++)
		avg.pct[k] = n[k] ? avg.pct[k] / n[k] : NAN;
	if (opt->summary)
		human_cputime_row(o, "all", &avg,
				  s->have_irq ? wakeups_boot(s, irqs) : NAN);
	if (s390)
		pm_out_printf(o, "  idle and busy: from s390's idle_time_us\n");
	if (!opt->wakeups || !s->have_irq)
		return;
	ntop = top_rows(s, top, TOP_IRQS);
	if (!isfinite(s->uptime_s)) {
		pm_out_printf(o, "  wakeups since boot: unknown (no "
				 "/proc/uptime)\n");
		return;
	}
	pm_out_printf(o, "  wakeups since boot %.0f/s%s",
		      wakeups_boot(s, irqs), ntop ? "; top:" : "");
	for (int i = 0; i < ntop; i++) {
		const struct pm_irq_row *row = &s->irq.rows[top[i]];

		pm_out_printf(o, "%s %s (%s) %.0f/s", i ? "," : "", row->label,
			      row->desc, wakeups_boot(s, row->total));
	}
	pm_out_printf(o, "\n");
}

static void human_doc(struct pm_out *o, struct snap *s)
{
	bool sep = false;

	cs_human_hypervisor(o, &opt->hv);
	if (opt->cstates) {
		human_cstates(o, s);
		if (any_s390(s))
			human_s390(o, s);
		sep = true;
	}
	if (opt->pstates) {
		if (sep)
			pm_out_printf(o, "\n");
		human_pstates(o, s);
		sep = true;
	}
	/* Both halves (the default): the CPU time too, where it is kept. */
	if (opt->cstates && opt->pstates && (s->have_stat || s->have_irq)) {
		if (sep)
			pm_out_printf(o, "\n");
		human_cputime(o, s);
	}
	cs_human_anoms(o, &s->an);
}

/* ---------------------------------------------------------------- json/kv */

static void out_state(struct pm_out *o, const struct cpu_snap *cs, int i)
{
	const struct pm_idle_state *st = &cs->st[i];

	pm_out_elem_begin(o, st->index);
	pm_out_u64(o, "index", st->index);
	pm_out_str_or_null(o, "name", st->name);
	pm_out_str_or_null(o, "desc", st->desc);
	pm_out_u64_or_null(o, "latency_us", st->latency_us);
	pm_out_u64_or_null(o, "residency_us", st->residency_us);
	pm_out_u64_or_null(o, "usage", st->usage);
	pm_out_u64_or_null(o, "time_us", st->time_us);
	pm_out_double(o, "share_pct", cs->share[i], 2);
	pm_out_flag(o, "disabled", st->disabled);
	pm_out_u64_or_null(o, "above", st->above);
	pm_out_u64_or_null(o, "below", st->below);
	pm_out_u64_or_null(o, "rejected", st->rejected);
	pm_out_u64_or_null(o, "s2idle_usage", st->s2idle_usage);
	pm_out_u64_or_null(o, "s2idle_time_us", st->s2idle_time_us);
	pm_out_obj_end(o);
}

static void out_trans(struct pm_out *o, const struct pm_trans_table *tt,
		      int err)
{
	if (err) {
		pm_out_null(o, "trans_table");
		return;
	}
	pm_out_obj_begin(o, "trans_table");
	pm_out_arr_begin(o, "khz", NULL);
	for (int c = 0; c < tt->n; c++)
		pm_out_u64(o, NULL, tt->khz[c]);
	pm_out_arr_end(o);
	pm_out_arr_begin(o, "counts", "from");
	for (int r = 0; r < tt->n; r++) {
		pm_out_arr_begin(o, NULL, NULL);
		for (int c = 0; c < tt->n; c++)
			pm_out_u64(o, NULL, tt->counts[r * tt->n + c]);
		pm_out_arr_end(o);
	}
	pm_out_arr_end(o);
	pm_out_obj_end(o);
}

static void out_pstates(struct pm_out *o, const struct snap *s, int pi)
{
	const struct pm_policy *p = &s->pol[pi];

	pm_out_obj_begin(o, "pstates");
	pm_out_u64(o, "policy", p->id);
	pm_out_str_or_null(o, "driver", p->driver);
	pm_out_u64_or_null(o, "cur_khz", p->cur_khz);
	pm_out_u64_or_null(o, "total_trans", p->total_trans);
	if (!p->has_stats || p->tis_bad_line) {
		pm_out_null(o, "time_in_state");
	} else {
		pm_out_arr_begin(o, "time_in_state", "freq");
		for (int i = 0; i < p->n_tis; i++) {
			pm_out_elem_begin(o, p->tis[i].khz);
			pm_out_u64(o, "khz", p->tis[i].khz);
			pm_out_u64(o, "time_ms", p->tis[i].ticks * TICK_MS);
			pm_out_double(o, "share_pct",
				      tis_share(p->tis, p->n_tis, i), 2);
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
	}
	pm_out_u64_or_null(o, "time_in_state_bad_line",
			   p->tis_bad_line ? (uint64_t)p->tis_bad_line :
					     PM_UNKNOWN);
	if (s->tt)
		out_trans(o, &s->tt[pi], s->tt_err[pi]);
	pm_out_obj_end(o);
}

static void out_summary_states(struct pm_out *o, struct snap *s, int group)
{
	struct state_sum sum[PM_MAX_IDLE_STATES];
	struct pm_cpuset cpus;
	unsigned ncpu;
	int n = sum_states(s, group, sum, &ncpu, &cpus);

	if (group >= 0)
		pm_out_cpuset(o, "cpus", &cpus);
	else
		pm_out_u64(o, "cpus", ncpu);
	pm_out_arr_begin(o, "cstates", "state");
	for (int i = 0; i < n; i++) {
		uint64_t tu = sum[i].time_unknown ? PM_UNKNOWN : sum[i].time_us;

		pm_out_elem_begin(o, (uint64_t)i);
		pm_out_u64(o, "index", (uint64_t)i);
		pm_out_str_or_null(o, "name",
				   sum[i].names_differ ? "" : sum[i].name);
		pm_out_u64_or_null(o, "usage",
				   sum[i].usage_unknown ? PM_UNKNOWN :
							  sum[i].usage);
		pm_out_u64_or_null(o, "time_us", tu);
		pm_out_double(o, "share_pct",
			      pm_share_boot(NULL, tu, s->uptime_s,
					    sum[i].ncpu, NULL),
			      2);
		pm_out_u64(o, "disabled_cpus", sum[i].disabled);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

static void out_wakeups(struct pm_out *o, const struct snap *s)
{
	uint64_t irqs = 0;
	int top[TOP_IRQS], ntop;

	pm_out_obj_begin(o, "wakeups");
	if (!s->have_irq) {
		pm_out_null(o, "total_per_s");
		pm_out_null(o, "top");
		pm_out_obj_end(o);
		return;
	}
	for (int c = 0; c < s->ncpu; c++)
		if (s->cpu[c].irqs != PM_UNKNOWN)
			irqs += s->cpu[c].irqs;
	pm_out_double(o, "total_per_s", wakeups_boot(s, irqs), 1);
	ntop = top_rows(s, top, TOP_IRQS);
	pm_out_arr_begin(o, "top", "irq");
	for (int i = 0; i < ntop; i++) {
		const struct pm_irq_row *row = &s->irq.rows[top[i]];

		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "irq", row->label);
		pm_out_str(o, "name", row->desc);
		pm_out_u64(o, "count", row->total);
		pm_out_double(o, "per_s", wakeups_boot(s, row->total), 1);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	pm_out_obj_end(o);
}

static void out_cpu_time(struct pm_out *o, const struct snap *s,
			 const struct cpu_snap *cs)
{
	cs_json_cputime(o, &cs->ct);
	if (cs_idle_src_name(cs->idle_src))
		pm_out_str(o, "idle_source", cs_idle_src_name(cs->idle_src));
	else
		pm_out_null(o, "idle_source");
	if (cs->s390_time_us == PM_UNKNOWN) {
		pm_out_null(o, "s390_idle");
	} else {
		pm_out_obj_begin(o, "s390_idle");
		pm_out_u64_or_null(o, "usage", cs->s390_count);
		pm_out_u64_or_null(o, "time_us", cs->s390_time_us);
		pm_out_double(o, "share_pct", cs->s390_share, 2);
		pm_out_obj_end(o);
	}
	if (opt->wakeups) {
		pm_out_u64_or_null(o, "interrupts", cs->irqs);
		pm_out_double(o, "wakeups_per_s", wakeups_boot(s, cs->irqs),
			      1);
	}
}

static void out_doc(struct pm_out *o, struct snap *s)
{
	pm_out_obj_begin(o, NULL);
	pm_out_u64(o, "time", (uint64_t)s->now);
	pm_out_double(o, "uptime_s", s->uptime_s, 2);
	pm_out_obj_begin(o, "cpuidle");
	pm_out_str_or_null(o, "driver", s->have_idle ? s->idle.driver : "");
	pm_out_str_or_null(o, "governor",
			   s->have_idle ? s->idle.governor : "");
	pm_out_obj_end(o);
	cs_json_hypervisor(o, &opt->hv);
	if (opt->summary && opt->cstates) {
		pm_out_obj_begin(o, "summary");
		out_summary_states(o, s, -1);
		pm_out_arr_begin(o, "groups", "group");
		for (int g = 0; g < s->ngroups; g++) {
			pm_out_elem_begin(o, (uint64_t)g);
			out_summary_states(o, s, g);
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
		pm_out_obj_end(o);
	}
	pm_out_arr_begin(o, "cpus", "cpu");
	for (int c = 0; c < s->ncpu; c++) {
		const struct cpu_snap *cs = &s->cpu[c];

		pm_out_elem_begin(o, cs->cpu);
		pm_out_u64(o, "cpu", cs->cpu);
		pm_out_bool(o, "online", cs->online);
		out_cpu_time(o, s, cs);
		if (opt->cstates) {
			pm_out_arr_begin(o, "cstates", "state");
			for (int i = 0; i < cs->nstates; i++)
				out_state(o, cs, i);
			pm_out_arr_end(o);
		}
		if (opt->pstates) {
			if (cs->policy >= 0)
				out_pstates(o, s, cs->policy);
			else
				pm_out_null(o, "pstates");
		}
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	if (opt->wakeups)
		out_wakeups(o, s);
	cs_json_anoms(o, &s->an);
	pm_out_obj_end(o);
}

/* ---------------------------------------------------------------- csv */

#define NUM(buf, v)                                                          \
	((v) == PM_UNKNOWN ? (void)((buf)[0] = '\0') :                       \
			     (void)snprintf(buf, sizeof(buf), "%llu",         \
					    (unsigned long long)(v)))
/* Two decimals as the JSON keys, without trailing zeros; empty if NaN. */
#define PCT(buf, v) pm_fmt_decimals(v, 2, buf, sizeof(buf))

/* The ticks behind each share of the CPU time, in us. */
static uint64_t ct_time_us(const struct pm_cpu_ticks *t, enum pm_ct k)
{
	const uint64_t *f = t->f;
	uint64_t v = PM_UNKNOWN;

	switch (k) {
	case PM_CT_USER:
		v = f[PM_ST_USER] == PM_UNKNOWN || f[PM_ST_NICE] == PM_UNKNOWN ?
			    PM_UNKNOWN :
			    f[PM_ST_USER] + f[PM_ST_NICE];
		break;
	case PM_CT_SYSTEM:
		v = f[PM_ST_SYSTEM];
		break;
	case PM_CT_IOWAIT:
		v = f[PM_ST_IOWAIT];
		break;
	case PM_CT_IRQ:
		v = f[PM_ST_IRQ] == PM_UNKNOWN ||
				    f[PM_ST_SOFTIRQ] == PM_UNKNOWN ?
			    PM_UNKNOWN :
			    f[PM_ST_IRQ] + f[PM_ST_SOFTIRQ];
		break;
	case PM_CT_STEAL:
		v = f[PM_ST_STEAL];
		break;
	case PM_CT_IDLE:
		v = f[PM_ST_IDLE];
		break;
	case PM_CT_BUSY:
	default:
		v = t->total == PM_UNKNOWN || t->idle == PM_UNKNOWN ?
			    PM_UNKNOWN :
			    t->total - t->idle;
		break;
	}
	return v == PM_UNKNOWN ? v : (uint64_t)((double)v * 1e6 / pm_user_hz());
}

/* One CSV row's cells, refilled for each row (row[] points at them). */
struct csv_row {
	char t[24], cpu[16], id[24], us[24], tm[24], sh[24], lat[24], res[24];
	char dis[8];
	const char *row[11];
};

/* A CPU's idle states: a row each, with latency, residency, disabled. */
static void csv_cstates(struct pm_out *o, struct csv_row *r,
			const struct cpu_snap *cs)
{
	for (int i = 0; i < cs->nstates; i++) {
		const struct pm_idle_state *st = &cs->st[i];
		double v = cs->share[i];

		r->row[2] = "cstate";
		r->row[4] = st->name;
		snprintf(r->id, sizeof(r->id), "%u", st->index);
		NUM(r->us, st->usage);
		NUM(r->tm, st->time_us);
		PCT(r->sh, v);
		NUM(r->lat, st->latency_us);
		NUM(r->res, st->residency_us);
		snprintf(r->dis, sizeof(r->dis), "%s",
			 st->disabled < 0 ? "" :
			 st->disabled	  ? "1" :
					    "0");
		pm_out_csv_row(o, 11, r->row);
	}
}

/* s390's idle count, /proc/stat's CPU time and the wakeups of a CPU. */
static void csv_counters(struct pm_out *o, struct csv_row *r,
			 const struct snap *s, const struct cpu_snap *cs)
{
	if (cs->s390_time_us != PM_UNKNOWN) {
		r->row[2] = "s390_idle";
		r->row[4] = "idle";
		r->id[0] = '\0';
		NUM(r->us, cs->s390_count);
		NUM(r->tm, cs->s390_time_us);
		PCT(r->sh, cs->s390_share);
		pm_out_csv_row(o, 11, r->row);
	}
	for (int k = 0; cs->online && s->have_stat && k < PM_CT_KINDS; k++) {
		r->row[2] = "cputime";
		r->row[4] = pm_ct_name(k);
		snprintf(r->id, sizeof(r->id), "%s", pm_ct_name(k));
		r->us[0] = '\0';
		NUM(r->tm, ct_time_us(&cs->ticks, k));
		PCT(r->sh, cs->ct.pct[k]);
		pm_out_csv_row(o, 11, r->row);
	}
	if (opt->wakeups && cs->irqs != PM_UNKNOWN) {
		r->row[2] = "wakeups";
		r->row[4] = "interrupts";
		r->id[0] = r->tm[0] = r->sh[0] = '\0';
		NUM(r->us, cs->irqs);
		pm_out_csv_row(o, 11, r->row);
	}
}

/* The frequencies of the CPU's policy: a row each (time_in_state). */
static void csv_pstates(struct pm_out *o, struct csv_row *r,
			const struct pm_policy *p)
{
	for (int i = 0; i < p->n_tis; i++) {
		double v = tis_share(p->tis, p->n_tis, i);

		r->row[2] = "pstate";
		snprintf(r->id, sizeof(r->id), "%llu",
			 (unsigned long long)p->tis[i].khz);
		r->row[4] = r->id;
		r->us[0] = '\0';
		NUM(r->tm, p->tis[i].ticks * TICK_MS * 1000);
		PCT(r->sh, v);
		pm_out_csv_row(o, 11, r->row);
	}
}

static void out_csv(struct pm_out *o, struct snap *s)
{
	static const char *const head[] = {
		"time",	 "cpu",	      "kind",	    "id",
		"name",	 "usage",     "time_us",    "share_pct",
		"latency_us", "residency_us", "disabled",
	};
	struct csv_row r = { .row = { r.t, r.cpu, NULL, r.id, NULL, r.us, r.tm,
				      r.sh, r.lat, r.res, r.dis } };

	pm_out_csv_row(o, 11, head);
	snprintf(r.t, sizeof(r.t), "%lld", (long long)s->now);
	for (int c = 0; c < s->ncpu; c++) {
		const struct cpu_snap *cs = &s->cpu[c];

		snprintf(r.cpu, sizeof(r.cpu), "%u", cs->cpu);
		if (opt->cstates)
			csv_cstates(o, &r, cs);
		r.lat[0] = r.res[0] = r.dis[0] = '\0';
		csv_counters(o, &r, s, cs);
		if (opt->pstates && cs->policy >= 0)
			csv_pstates(o, &r, &s->pol[cs->policy]);
	}
}

#undef NUM
#undef PCT

/* ---------------------------------------------------------------- prom */

enum state_value { ST_TIME_S, ST_USAGE, ST_DISABLED };

/* One sample per CPU and idle state. */
static void prom_per_state(struct pm_out *o, const struct snap *s,
			   const char *name, const char *type,
			   const char *help, enum state_value which)
{
	char cpu[16];

	pm_out_prom_meta(o, name, type, help);
	for (int c = 0; c < s->ncpu; c++) {
		snprintf(cpu, sizeof(cpu), "%u", s->cpu[c].cpu);
		for (int i = 0; i < s->cpu[c].nstates; i++) {
			const struct pm_idle_state *st = &s->cpu[c].st[i];
			const char *l[] = { "cpu", cpu, "state", st->name,
					    NULL };

			if (which == ST_TIME_S && st->time_us != PM_UNKNOWN)
				pm_out_prom_sample(o, name, l,
						   (double)st->time_us / 1e6);
			else if (which == ST_USAGE && st->usage != PM_UNKNOWN)
				pm_out_prom_sample_u64(o, name, l, st->usage);
			else if (which == ST_DISABLED && st->disabled >= 0)
				pm_out_prom_sample_u64(o, name, l,
						       (uint64_t)st->disabled);
		}
	}
}

enum pol_value { POL_TRANS, POL_CUR_HZ };

/* One sample per CPU of a value of its policy. */
static void prom_per_cpu(struct pm_out *o, const struct snap *s,
			 const char *name, const char *type, const char *help,
			 enum pol_value which)
{
	char cpu[16];

	pm_out_prom_meta(o, name, type, help);
	for (int c = 0; c < s->ncpu; c++) {
		const char *l[] = { "cpu", cpu, NULL };
		const struct pm_policy *p;
		uint64_t v;

		if (s->cpu[c].policy < 0)
			continue;
		p = &s->pol[s->cpu[c].policy];
		v = which == POL_TRANS ? p->total_trans : p->cur_khz;
		if (v == PM_UNKNOWN)
			continue;
		snprintf(cpu, sizeof(cpu), "%u", s->cpu[c].cpu);
		pm_out_prom_sample_u64(o, name, l,
				       which == POL_CUR_HZ ? v * 1000 : v);
	}
}

static void prom_cputime(struct pm_out *o, const struct snap *s)
{
	static const char *const modes[PM_ST_FIELDS] = {
		"user", "nice", "system", "idle",
		"iowait", "irq", "softirq", "steal",
	};
	char cpu[16];

	if (s->have_stat) {
		pm_out_prom_meta(o, "pm_cpu_time_seconds_total", "counter",
				 "Time the CPU spent in each mode since boot "
				 "(/proc/stat).");
		for (int c = 0; c < s->ncpu; c++) {
			snprintf(cpu, sizeof(cpu), "%u", s->cpu[c].cpu);
			for (int k = 0; k < PM_ST_FIELDS; k++) {
				const char *l[] = { "cpu", cpu, "mode",
						    modes[k], NULL };
				uint64_t v = s->cpu[c].ticks.f[k];

				if (v != PM_UNKNOWN)
					pm_out_prom_sample(
						o, "pm_cpu_time_seconds_total",
						l, (double)v / pm_user_hz());
			}
		}
	}
	if (any_s390(s)) {
		pm_out_prom_meta(o, "pm_s390_cpu_idle_seconds_total", "counter",
				 "Time the CPU waited since boot (s390's "
				 "idle_time_us).");
		for (int c = 0; c < s->ncpu; c++) {
			const char *l[] = { "cpu", cpu, NULL };

			if (s->cpu[c].s390_time_us == PM_UNKNOWN)
				continue;
			snprintf(cpu, sizeof(cpu), "%u", s->cpu[c].cpu);
			pm_out_prom_sample(o, "pm_s390_cpu_idle_seconds_total",
					   l,
					   (double)s->cpu[c].s390_time_us / 1e6);
		}
		pm_out_prom_meta(o, "pm_s390_cpu_idle_entries_total",
				 "counter",
				 "Times the CPU went idle since boot (s390's "
				 "idle_count).");
		for (int c = 0; c < s->ncpu; c++) {
			const char *l[] = { "cpu", cpu, NULL };

			if (s->cpu[c].s390_count == PM_UNKNOWN)
				continue;
			snprintf(cpu, sizeof(cpu), "%u", s->cpu[c].cpu);
			pm_out_prom_sample_u64(
				o, "pm_s390_cpu_idle_entries_total", l,
				s->cpu[c].s390_count);
		}
	}
	if (opt->wakeups && s->have_irq) {
		pm_out_prom_meta(o, "pm_cpu_interrupts_total", "counter",
				 "Interrupts on the CPU since boot "
				 "(/proc/interrupts).");
		for (int c = 0; c < s->ncpu; c++) {
			const char *l[] = { "cpu", cpu, NULL };

			if (s->cpu[c].irqs == PM_UNKNOWN)
				continue;
			snprintf(cpu, sizeof(cpu), "%u", s->cpu[c].cpu);
			pm_out_prom_sample_u64(o, "pm_cpu_interrupts_total", l,
					       s->cpu[c].irqs);
		}
	}
}

static void out_prom(struct pm_out *o, struct snap *s)
{
	char cpu[16], freq[32];

	cs_prom_hypervisor(o, &opt->hv);
	prom_cputime(o, s);
	if (opt->cstates) {
		prom_per_state(o, s, "pm_cpuidle_state_time_seconds_total",
			       "counter",
			       "Time spent in the cpuidle state since boot.",
			       ST_TIME_S);
		prom_per_state(o, s, "pm_cpuidle_state_usage_total", "counter",
			       "Entries into the cpuidle state since boot.",
			       ST_USAGE);
		prom_per_state(o, s, "pm_cpuidle_state_disabled", "gauge",
			       "1 if the state is disabled by the user.",
			       ST_DISABLED);
	}
	if (opt->pstates) {
		pm_out_prom_meta(o, "pm_cpufreq_time_in_state_seconds_total",
				 "counter",
				 "Time the CPU's policy spent at the frequency "
				 "since boot.");
		for (int c = 0; c < s->ncpu; c++) {
			const struct pm_policy *p;

			if (s->cpu[c].policy < 0)
				continue;
			p = &s->pol[s->cpu[c].policy];
			snprintf(cpu, sizeof(cpu), "%u", s->cpu[c].cpu);
			for (int i = 0; i < p->n_tis; i++) {
				const char *l[] = { "cpu", cpu, "freq_hertz",
						    freq, NULL };

				snprintf(freq, sizeof(freq), "%llu",
					 (unsigned long long)p->tis[i].khz *
						 1000);
				pm_out_prom_sample(
					o,
					"pm_cpufreq_time_in_state_seconds_"
					"total",
					l,
					(double)p->tis[i].ticks * TICK_MS /
						1e3);
			}
		}
		prom_per_cpu(o, s, "pm_cpufreq_transitions_total", "counter",
			     "Frequency transitions of the CPU's policy since "
			     "boot.",
			     POL_TRANS);
		prom_per_cpu(o, s, "pm_cpufreq_frequency_hertz", "gauge",
			     "Current frequency of the CPU's policy "
			     "(scaling_cur_freq).",
			     POL_CUR_HZ);
	}
	cs_prom_anoms(o, &s->an);
}

/* ---------------------------------------------------------------- run */

int cs_run_boot(struct pm_tool *t, struct pm_ctx *ctx,
		const struct pm_cpus *cpus, const struct pm_cpuset *sel,
		const struct cs_opts *o, bool trans_table)
{
	struct pm_out out;
	struct snap s;

	opt = o;
	take_snapshot(t, ctx, cpus, sel, trans_table, &s);
	pm_tool_out(t, &out);
	switch (t->fmt) {
	case PM_FMT_HUMAN:
		human_doc(&out, &s);
		break;
	case PM_FMT_JSON:
	case PM_FMT_KV:
		out_doc(&out, &s);
		break;
	case PM_FMT_CSV:
		out_csv(&out, &s);
		break;
	case PM_FMT_PROM:
		out_prom(&out, &s);
		break;
	}
	cs_warn_anoms(t, &s.an, "since boot");
	pm_tool_out_done(t, &out);
	free_snapshot(&s);
	return PM_EXIT_OK;
}
