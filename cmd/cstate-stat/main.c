// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cstate-stat: how deep and how long the CPUs sleep, and how fast they
 * run, since boot: cpuidle state residency and cpufreq time in state.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cstate-stat.h"

/* Above this many CPUs the human report shows the summary row only. */
#define AUTO_SUMMARY_CPUS 16
/* The longest --interval: a year of days, like pm-suspend's alarm. */
#define INTERVAL_MAX_US (366ULL * 86400 * 1000000)

/* cpufreq stats count USER_HZ ticks: 10 ms each. */
#define TICK_MS 10

enum {
	OPT_CSTATES = PM_OPT_TOOL,
	OPT_PSTATES,
	OPT_PERCPU,
	OPT_WAKEUPS,
	OPT_POWER,
	OPT_TRANS,
};

struct cpu_snap {
	unsigned cpu;
	bool online;
	int nstates;
	struct pm_idle_state st[PM_MAX_IDLE_STATES];
	int policy;		/* index into snap.pol, -1 none */
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
};

static struct cs_opts opt;
static bool trans_table;

static void usage(FILE *f)
{
	fputs("Usage: cstate-stat [options]                    since boot\n"
	      "       cstate-stat [options] -i SEC [-n COUNT]  every SEC "
	      "seconds\n"
	      "       cstate-stat [options] -- COMMAND [ARG...] over COMMAND's "
	      "run\n"
	      "\n"
	      "Report C-state (cpuidle) and P-state (cpufreq) residency.\n"
	      "\n"
	      "Options:\n"
	      "  -i, --interval SEC   sample every SEC seconds (500ms, 2, 1.5s "
	      "...)\n"
	      "  -n, --count COUNT    stop after COUNT samples (default: until "
	      "interrupted)\n"
	      "  -c, --cpu LIST       CPUs to report: 0-3,8, all or online "
	      "(default)\n"
	      "      --cstates        idle states only\n"
	      "      --pstates        frequency states only\n"
	      "      --wakeups        interrupts per second and the top sources "
	      "(-i, --)\n"
	      "      --power          package/core watts from RAPL energy_uj "
	      "(-i, --)\n"
	      "      --trans-table    the cpufreq transition table (since "
	      "boot)\n"
	      "  -s, --summary        one row for all selected CPUs (the "
	      "human default\n"
	      "                       above 16 CPUs)\n"
	      "      --per-cpu        human rows per CPU even above 16 CPUs\n"
	      "  -F, --format FMT     human, json, kv, csv or prom\n"
	      "  -J, --json           same as --format json\n"
	      "  -o, --output FILE    write the report to FILE atomically\n"
	      "      --sysroot DIR    read /sys and /proc under DIR\n"
	      "  -q, --quiet          fewer messages on stderr\n"
	      "  -v, --verbose        more messages on stderr\n"
	      "  -h, --help           show this help\n"
	      "  -V, --version        show the version\n"
	      "\n"
	      "Exit status: 0 done, 1 failed, 2 usage error, 3 not supported "
	      "here.\n"
	      "See cstate-stat(8).\n",
	      f);
}

static double read_uptime(struct pm_ctx *ctx)
{
	char buf[128], *sp;
	uint64_t ip, fp = 0;
	unsigned fd = 0;

	if (pm_attr_read(ctx, "/proc/uptime", buf, sizeof(buf)) <= 0)
		return NAN;
	sp = strchr(buf, ' ');
	if (sp)
		*sp = '\0';
	/* "12345.67": parse exactly, no locale-dependent strtod. */
	char *dot = strchr(buf, '.');

	if (dot) {
		*dot = '\0';
		fd = (unsigned)strlen(dot + 1);
		if (fd > 9 || (fd && pm_parse_u64(dot + 1, &fp) < 0))
			return NAN;
	}
	if (pm_parse_u64(buf, &ip) < 0)
		return NAN;
	return (double)ip + (double)fp / pow(10, fd);
}

static void take_snapshot(struct pm_tool *t, struct pm_ctx *ctx,
			  const struct pm_cpus *cpus,
			  const struct pm_cpuset *sel, struct snap *s)
{
	unsigned *ids;
	int n;

	memset(s, 0, sizeof(*s));
	s->now = time(NULL);
	s->uptime_s = read_uptime(ctx);
	s->have_idle = pm_cpuidle_read(ctx, &s->idle) == 0;
	s->cpu = calloc(pm_cpuset_count(sel) + 1, sizeof(*s->cpu));
	ids = calloc(PM_MAX_CPUS, sizeof(*ids));
	if (!s->cpu || !ids)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
	if (opt.pstates) {
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
	pm_cpuset_foreach(c, sel)
	{
		struct cpu_snap *cs = &s->cpu[s->ncpu++];

		cs->cpu = (unsigned)c;
		cs->online = pm_cpuset_isset(&cpus->online, (unsigned)c);
		cs->policy = -1;
		if (opt.cstates)
			cs->nstates = pm_idle_states_read_fields(
				ctx, (unsigned)c, cs->st, PM_MAX_IDLE_STATES,
				PM_IDLE_NAMES | PM_IDLE_COUNTERS |
					PM_IDLE_DISABLE);
		for (int i = 0; i < s->npol; i++)
			if (pm_cpuset_isset(&s->pol[i].related, (unsigned)c))
				cs->policy = i;
	}
}

static double share(uint64_t time_us, double uptime_s, unsigned ncpu)
{
	if (time_us == PM_UNKNOWN || !isfinite(uptime_s) || uptime_s <= 0 ||
	    !ncpu)
		return NAN;
	return (double)time_us / (uptime_s * 1e6 * ncpu) * 100.0;
}

static uint64_t tis_total_ticks(const struct pm_policy *p)
{
	uint64_t t = 0;

	for (int i = 0; i < p->n_tis; i++)
		t += p->tis[i].ticks;
	return t;
}

static double tis_share(const struct pm_policy *p, int i)
{
	uint64_t tot = tis_total_ticks(p);

	return tot ? (double)p->tis[i].ticks * 100.0 / (double)tot : NAN;
}

/* Sum of a counter over the online CPUs that have state i. */
struct state_sum {
	char name[PM_NAME_MAX];
	uint64_t latency_us, residency_us;
	uint64_t usage, time_us;
	unsigned ncpu, disabled;
	bool usage_unknown, time_unknown;
};

static int sum_states(const struct snap *s, struct state_sum *sum,
		      unsigned *ncpu)
{
	int n = 0;

	memset(sum, 0, sizeof(*sum) * PM_MAX_IDLE_STATES);
	*ncpu = 0;
	for (int c = 0; c < s->ncpu; c++) {
		const struct cpu_snap *cs = &s->cpu[c];

		if (!cs->online)
			continue;
		(*ncpu)++;
		for (int i = 0; i < cs->nstates; i++) {
			const struct pm_idle_state *st = &cs->st[i];
			struct state_sum *u = &sum[i];

			if (i >= n) {
				n = i + 1;
				snprintf(u->name, sizeof(u->name), "%s",
					 st->name);
				u->latency_us = st->latency_us;
				u->residency_us = st->residency_us;
			}
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

static void human_cstates(struct pm_out *o, const struct snap *s)
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
	pm_out_printf(o, "%4s %-3s %-15s %8s %8s %14s %14s %7s\n", "CPU",
		      "IDX", "STATE", "LAT(us)", "RES(us)", "USAGE", "TIME",
		      "SHARE");
	if (opt.summary) {
		struct state_sum sum[PM_MAX_IDLE_STATES];
		unsigned ncpu;
		int n = sum_states(s, sum, &ncpu);

		for (int i = 0; i < n; i++) {
			pm_out_printf(o, "%4s %3d %-15s", "all", i,
				      sum[i].name);
			human_num(o, 8, sum[i].latency_us);
			human_num(o, 8, sum[i].residency_us);
			human_num(o, 14,
				  sum[i].usage_unknown ? PM_UNKNOWN :
							 sum[i].usage);
			human_time(o, sum[i].time_unknown ? PM_UNKNOWN :
							    sum[i].time_us);
			human_pct(o, share(sum[i].time_unknown ? PM_UNKNOWN :
								 sum[i].time_us,
					   s->uptime_s, sum[i].ncpu));
			if (sum[i].disabled)
				pm_out_printf(o, " disabled on %u of %u",
					      sum[i].disabled, sum[i].ncpu);
			pm_out_printf(o, "\n");
		}
		if (!n)
			pm_out_printf(o, "  no idle states on the selected "
					 "CPUs\n");
		return;
	}
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
			human_pct(o, share(st->time_us, s->uptime_s, 1));
			pm_out_printf(o, "%s\n",
				      st->disabled == 1 ? " disabled" : "");
		}
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
	pm_out_printf(o, "  transitions (rows from, columns to, MHz):\n  %9s",
		      "");
	for (int c = 0; c < tt->n; c++)
		pm_out_printf(o, " %8llu",
			      (unsigned long long)tt->khz[c] / 1000);
	pm_out_printf(o, "\n");
	for (int r = 0; r < tt->n; r++) {
		pm_out_printf(o, "  %8llu:", (unsigned long long)tt->khz[r] / 1000);
		for (int c = 0; c < tt->n; c++)
			pm_out_printf(o, " %8llu",
				      (unsigned long long)tt->counts[r * tt->n + c]);
		pm_out_printf(o, "\n");
	}
}

static void human_pstates(struct pm_out *o, const struct snap *s)
{
	char a[32], b[32];

	if (!s->npol) {
		pm_out_printf(o, "cpufreq: not available (no policies)\n");
		return;
	}
	for (int p = 0; p < s->npol; p++) {
		const struct pm_policy *pol = &s->pol[p];
		char cpus[256];

		if (!pol_selected(s, p))
			continue;
		pm_cpulist_format(&pol->related, cpus, sizeof(cpus));
		pm_out_printf(o, "policy%u (cpus %s): %s, %s, cur %s", pol->id,
			      cpus, pol->driver[0] ? pol->driver : "-",
			      pol->governor[0] ? pol->governor : "-",
			      pm_fmt_khz(pol->cur_khz, a, sizeof(a)));
		if (pol->total_trans != PM_UNKNOWN)
			pm_out_printf(o, ", %llu transitions",
				      (unsigned long long)pol->total_trans);
		pm_out_printf(o, "\n");
		if (!pol->has_stats) {
			pm_out_printf(o, "  no time-in-state statistics: %s "
					 "keeps none\n",
				      pol->driver[0] ? pol->driver :
						       "the driver");
			continue;
		}
		for (int i = 0; i < pol->n_tis; i++) {
			pm_out_printf(o, "  %12s %14.2fs",
				      pm_fmt_khz(pol->tis[i].khz, b, sizeof(b)),
				      (double)pol->tis[i].ticks * TICK_MS /
					      1e3);
			human_pct(o, tis_share(pol, i));
			pm_out_printf(o, "\n");
		}
		if (s->tt)
			human_trans(o, &s->tt[p], s->tt_err[p]);
	}
}

/* ---------------------------------------------------------------- json/kv */

static void out_state(struct pm_out *o, const struct pm_idle_state *st,
		      double uptime_s)
{
	pm_out_elem_begin(o, st->index);
	pm_out_u64(o, "index", st->index);
	pm_out_str_or_null(o, "name", st->name);
	pm_out_str_or_null(o, "desc", st->desc);
	pm_out_u64_or_null(o, "latency_us", st->latency_us);
	pm_out_u64_or_null(o, "residency_us", st->residency_us);
	pm_out_u64_or_null(o, "usage", st->usage);
	pm_out_u64_or_null(o, "time_us", st->time_us);
	pm_out_double(o, "share_pct", share(st->time_us, uptime_s, 1), 2);
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
	if (!p->has_stats) {
		pm_out_null(o, "time_in_state");
	} else {
		pm_out_arr_begin(o, "time_in_state", "freq");
		for (int i = 0; i < p->n_tis; i++) {
			pm_out_elem_begin(o, p->tis[i].khz);
			pm_out_u64(o, "khz", p->tis[i].khz);
			pm_out_u64(o, "time_ms", p->tis[i].ticks * TICK_MS);
			pm_out_double(o, "share_pct", tis_share(p, i), 2);
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
	}
	if (s->tt)
		out_trans(o, &s->tt[pi], s->tt_err[pi]);
	pm_out_obj_end(o);
}

static void out_doc(struct pm_out *o, const struct snap *s)
{
	pm_out_obj_begin(o, NULL);
	pm_out_u64(o, "time", (uint64_t)s->now);
	pm_out_double(o, "uptime_s", s->uptime_s, 2);
	pm_out_obj_begin(o, "cpuidle");
	pm_out_str_or_null(o, "driver", s->have_idle ? s->idle.driver : "");
	pm_out_str_or_null(o, "governor",
			   s->have_idle ? s->idle.governor : "");
	pm_out_obj_end(o);
	if (opt.summary && opt.cstates) {
		struct state_sum sum[PM_MAX_IDLE_STATES];
		unsigned ncpu;
		int n = sum_states(s, sum, &ncpu);

		pm_out_obj_begin(o, "summary");
		pm_out_u64(o, "cpus", ncpu);
		pm_out_arr_begin(o, "cstates", "state");
		for (int i = 0; i < n; i++) {
			uint64_t tu = sum[i].time_unknown ? PM_UNKNOWN :
							    sum[i].time_us;

			pm_out_elem_begin(o, (uint64_t)i);
			pm_out_u64(o, "index", (uint64_t)i);
			pm_out_str_or_null(o, "name", sum[i].name);
			pm_out_u64_or_null(o, "usage",
					   sum[i].usage_unknown ?
						   PM_UNKNOWN :
						   sum[i].usage);
			pm_out_u64_or_null(o, "time_us", tu);
			pm_out_double(o, "share_pct",
				      share(tu, s->uptime_s, sum[i].ncpu), 2);
			pm_out_u64(o, "disabled_cpus", sum[i].disabled);
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
		if (opt.cstates) {
			pm_out_arr_begin(o, "cstates", "state");
			for (int i = 0; i < cs->nstates; i++)
				out_state(o, &cs->st[i], s->uptime_s);
			pm_out_arr_end(o);
		}
		if (opt.pstates) {
			if (cs->policy >= 0)
				out_pstates(o, s, cs->policy);
			else
				pm_out_null(o, "pstates");
		}
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	pm_out_obj_end(o);
}

/* ---------------------------------------------------------------- csv */

static void out_csv(struct pm_out *o, const struct snap *s)
{
	static const char *const head[] = {
		"time",	 "cpu",	      "kind",	    "id",
		"name",	 "usage",     "time_us",    "share_pct",
		"latency_us", "residency_us", "disabled",
	};
	char t[24], cpu[16], id[24], us[24], tm[24], sh[24], lat[24],
		res[24], dis[8];
	const char *row[11] = { t, cpu, NULL, id, NULL, us, tm, sh, lat,
				res, dis };

	pm_out_csv_row(o, 11, head);
	snprintf(t, sizeof(t), "%lld", (long long)s->now);
#define NUM(buf, v)                                                          \
	((v) == PM_UNKNOWN ? (void)((buf)[0] = '\0') :                       \
			     (void)snprintf(buf, sizeof(buf), "%llu",         \
					    (unsigned long long)(v)))
	for (int c = 0; c < s->ncpu; c++) {
		const struct cpu_snap *cs = &s->cpu[c];

		snprintf(cpu, sizeof(cpu), "%u", cs->cpu);
		for (int i = 0; opt.cstates && i < cs->nstates; i++) {
			const struct pm_idle_state *st = &cs->st[i];
			double v = share(st->time_us, s->uptime_s, 1);

			row[2] = "cstate";
			row[4] = st->name;
			snprintf(id, sizeof(id), "%u", st->index);
			NUM(us, st->usage);
			NUM(tm, st->time_us);
			if (isfinite(v))
				snprintf(sh, sizeof(sh), "%.2f", v);
			else
				sh[0] = '\0';
			NUM(lat, st->latency_us);
			NUM(res, st->residency_us);
			snprintf(dis, sizeof(dis), "%s",
				 st->disabled < 0 ? "" :
				 st->disabled	  ? "1" :
						    "0");
			pm_out_csv_row(o, 11, row);
		}
		if (!opt.pstates || cs->policy < 0)
			continue;
		const struct pm_policy *p = &s->pol[cs->policy];

		for (int i = 0; i < p->n_tis; i++) {
			double v = tis_share(p, i);

			row[2] = "pstate";
			snprintf(id, sizeof(id), "%llu",
				 (unsigned long long)p->tis[i].khz);
			row[4] = id;
			us[0] = '\0';
			NUM(tm, p->tis[i].ticks * TICK_MS * 1000);
			if (isfinite(v))
				snprintf(sh, sizeof(sh), "%.2f", v);
			else
				sh[0] = '\0';
			lat[0] = res[0] = dis[0] = '\0';
			pm_out_csv_row(o, 11, row);
		}
	}
#undef NUM
}

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

static void out_prom(struct pm_out *o, const struct snap *s)
{
	char cpu[16], freq[32];

	if (opt.cstates) {
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
	if (!opt.pstates)
		return;
	pm_out_prom_meta(o, "pm_cpufreq_time_in_state_seconds_total",
			 "counter",
			 "Time the CPU's policy spent at the frequency since "
			 "boot.");
	for (int c = 0; c < s->ncpu; c++) {
		const struct pm_policy *p;

		if (s->cpu[c].policy < 0)
			continue;
		p = &s->pol[s->cpu[c].policy];
		snprintf(cpu, sizeof(cpu), "%u", s->cpu[c].cpu);
		for (int i = 0; i < p->n_tis; i++) {
			const char *l[] = { "cpu", cpu, "freq_hz", freq, NULL };

			snprintf(freq, sizeof(freq), "%llu",
				 (unsigned long long)p->tis[i].khz * 1000);
			pm_out_prom_sample(o,
					   "pm_cpufreq_time_in_state_seconds_"
					   "total",
					   l,
					   (double)p->tis[i].ticks * TICK_MS /
						   1e3);
		}
	}
	prom_per_cpu(o, s, "pm_cpufreq_transitions_total", "counter",
		     "Frequency transitions of the CPU's policy since boot.",
		     POL_TRANS);
	prom_per_cpu(o, s, "pm_cpufreq_frequency_hz", "gauge",
		     "Current frequency of the CPU's policy (scaling_cur_freq).",
		     POL_CUR_HZ);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "summary", no_argument, NULL, 's' },
		{ "per-cpu", no_argument, NULL, OPT_PERCPU },
		{ "cstates", no_argument, NULL, OPT_CSTATES },
		{ "pstates", no_argument, NULL, OPT_PSTATES },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "wakeups", no_argument, NULL, OPT_WAKEUPS },
		{ "power", no_argument, NULL, OPT_POWER },
		{ "trans-table", no_argument, NULL, OPT_TRANS },
		{ NULL, 0, NULL, 0 },
	};
	struct pm_tool t;
	struct pm_ctx ctx;
	struct pm_cpus cpus;
	struct pm_cpuset sel;
	struct pm_out o;
	struct snap s;
	char msg[PM_PATH_MAX + 600];
	bool only_c = false, only_p = false, summary_set = false;
	int c;

	pm_tool_init(&t, "cstate-stat", usage);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" PM_SHARED_SHORTOPTS "si:n:",
				longopts, NULL)) != -1) {
		if (pm_tool_opt(&t, c, optarg, argv))
			continue;
		switch (c) {
		case 's':
			opt.summary = summary_set = true;
			break;
		case 'i': {
			uint64_t us;

			/* The deadlines are nanoseconds in an int64_t. */
			if (pm_parse_duration_us(optarg, &us) < 0 || us == 0 ||
			    us > INTERVAL_MAX_US)
				pm_usage_error(&t, "--interval: invalid interval "
						   "'%s' (a number of seconds "
						   "> 0, or 500ms, 2s...; at "
						   "most 366 days)",
					       optarg);
			if (opt.interval_us && opt.interval_us != us)
				pm_usage_error(&t, "--interval given twice with "
						   "different values");
			opt.interval_us = us;
			break;
		}
		case 'n': {
			uint64_t n;

			if (pm_parse_u64(optarg, &n) < 0 || n == 0)
				pm_usage_error(&t, "--count: invalid count '%s' "
						   "(a whole number >= 1)",
					       optarg);
			if (opt.count && opt.count != n)
				pm_usage_error(&t, "--count given twice with "
						   "different values");
			opt.count = n;
			break;
		}
		case OPT_WAKEUPS:
			opt.wakeups = true;
			break;
		case OPT_POWER:
			opt.power = true;
			break;
		case OPT_TRANS:
			trans_table = true;
			break;
		case OPT_PERCPU:
			opt.percpu = true;
			break;
		case OPT_CSTATES:
			only_c = true;
			break;
		case OPT_PSTATES:
			only_p = true;
			break;
		default:
			pm_usage_error(&t, "unrecognized option '%s'",
				       argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			pm_usage_error(&t, "unexpected argument '%s' (put -- "
					   "before a command)",
				       argv[optind]);
		opt.cmd = argv + optind;
	} else if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		pm_usage_error(&t, "a command is missing after --");
	}
	if (opt.percpu && summary_set)
		pm_usage_error(&t, "--summary conflicts with --per-cpu");
	pm_tool_only(&t, PM_SEEN_CPU | PM_SEEN_OUTPUT | PM_SEEN_FORMAT,
		     "cstate-stat");
	if (opt.cmd && opt.interval_us)
		pm_usage_error(&t, "--interval conflicts with -- COMMAND");
	if (trans_table && (opt.interval_us || opt.cmd))
		pm_usage_error(&t, "--trans-table is for the since-boot report");
	if (trans_table && only_c)
		pm_usage_error(&t, "--trans-table conflicts with --cstates");
	if (opt.count && !opt.interval_us)
		pm_usage_error(&t, "--count needs --interval");
	if ((opt.wakeups || opt.power) && !opt.interval_us && !opt.cmd)
		pm_usage_error(&t, "--%s needs --interval or -- COMMAND",
			       opt.wakeups ? "wakeups" : "power");
	opt.cstates = only_c || !only_p;
	opt.pstates = only_p || !only_c;

	pm_tool_ctx(&t, &ctx);
	if (pm_cpus_read(&ctx, &cpus) < 0)
		pm_die(&t, PM_EXIT_UNSUPPORTED, "cannot read the CPUs: %s",
		       pm_err_str(&ctx.err, msg, sizeof(msg)));
	if (pm_cpus_select(&ctx, &cpus, t.cpu ? t.cpu : "online", &sel) < 0)
		pm_usage_error(&t, "--cpu '%s': %s", t.cpu, ctx.err.hint);
	if (!summary_set && !opt.percpu && t.fmt == PM_FMT_HUMAN &&
	    pm_cpuset_count(&sel) > AUTO_SUMMARY_CPUS)
		opt.summary = true;

	/* Nothing to report at all is "not supported here", in every mode. */
	struct pm_cpuidle ci;
	unsigned one;
	bool have_idle = pm_cpuidle_read(&ctx, &ci) == 0 &&
			 strcmp(ci.driver, "none") != 0;
	bool have_freq = pm_policies_list(&ctx, &one, 1) > 0;

	pm_err_clear(&ctx);
	if ((!opt.cstates || !have_idle) && (!opt.pstates || !have_freq))
		pm_die(&t, PM_EXIT_UNSUPPORTED, "%s",
		       opt.pstates && opt.cstates ?
			       "neither cpuidle nor cpufreq on this machine" :
		       opt.cstates ? "no cpuidle on this machine "
				     "(/sys/devices/system/cpu/cpuidle is "
				     "missing or its driver is none)" :
				     "no cpufreq policies on this machine");
	/*
	 * An --output that cannot be written fails now, not after the first
	 * interval or the whole command.
	 */
	if (t.output && (opt.interval_us || opt.cmd)) {
		struct pm_out probe;
		int r = pm_out_open(&probe, t.fmt, t.output);

		if (r < 0)
			pm_die(&t, PM_EXIT_FAIL, "cannot write %s: %s (%s)",
			       t.output, strerror(-r), pm_errno_name(-r));
		pm_out_abort(&probe);
	}
	if (opt.interval_us)
		return cs_run_interval(&t, &ctx, &sel, &opt);
	if (opt.cmd)
		return cs_run_command(&t, &ctx, &sel, &opt);
	take_snapshot(&t, &ctx, &cpus, &sel, &s);

	pm_tool_out(&t, &o);
	switch (t.fmt) {
	case PM_FMT_HUMAN:
		if (opt.cstates)
			human_cstates(&o, &s);
		if (opt.cstates && opt.pstates)
			pm_out_printf(&o, "\n");
		if (opt.pstates)
			human_pstates(&o, &s);
		break;
	case PM_FMT_JSON:
	case PM_FMT_KV:
		out_doc(&o, &s);
		break;
	case PM_FMT_CSV:
		out_csv(&o, &s);
		break;
	case PM_FMT_PROM:
		out_prom(&o, &s);
		break;
	}
	pm_tool_out_done(&t, &o);
	for (int i = 0; s.tt && i < s.npol; i++)
		pm_trans_table_free(&s.tt[i]);
	free(s.tt);
	free(s.tt_err);
	free(s.cpu);
	free(s.pol);
	pm_ctx_close(&ctx);
	return PM_EXIT_OK;
}
