// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cstate-stat over time: per-interval deltas on absolute deadlines, and
 * the residency over a command's run.  The measured interval is what is
 * divided by; what each counter did in between is decided in libpm
 * (pm_delta_compute), and shown here.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cstate-stat.h"

/* How many interrupt sources a sample names. */
#define TOP_IRQS 5
/* Width of a residency bar on a terminal, in cells. */
#define BAR_CELLS 30
#define NSEC_PER_SEC 1000000000LL

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* A reading and when it was taken. */
struct stamped {
	struct pm_reading r;
	struct timespec mono;
	struct timespec real;
};

static double ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* ---------------------------------------------------------------- output */

/* "intel-rapl:0:1": the zone's name in /sys/class/powercap. */
static const char *rapl_id(const struct pm_rapl_zone *z)
{
	const char *slash = strrchr(z->path, '/');

	return slash ? slash + 1 : z->path;
}

struct report {
	struct pm_out *o;
	const struct cs_opts *opt;
	const struct pm_sampler *s;
	const struct pm_delta *d;
	const struct pm_reading *b;	/* the later reading: its rows */
	double dt;
	double epoch;
	const char *period;	/* "sample", "run" or "command" */
	bool jsonl;		/* one JSON object per line */
	bool header_done;
	bool hv_said;		/* the hypervisor line was printed */
	int top[TOP_IRQS];
	int ntop;
};

/* The summary row: averages over online CPUs, entries and wakeups summed. */
static void summarize(const struct report *r, struct pm_cpu_delta *sum)
{
	unsigned n = 0, nct[PM_CT_KINDS] = { 0 }, nw = 0, ns = 0;
	double khz_w = 0, khz_n = 0;

	memset(sum, 0, sizeof(*sum));
	sum->irqs = PM_UNKNOWN;
	sum->s390_count = sum->s390_time_us = PM_UNKNOWN;
	sum->s390_entries_per_s = 0;
	sum->idle_src = PM_IDLE_SRC_NONE;
	for (int c = 0; c < r->s->ncpu; c++) {
		const struct pm_cpu_delta *d = &r->d->cpu[c];

		if (!d->online)
			continue;
		n++;
		if (d->nstates > sum->nstates)
			sum->nstates = d->nstates;
		for (int i = 0; i < d->nstates; i++) {
			if (isfinite(d->res_pct[i]))
				sum->res_pct[i] += d->res_pct[i];
			if (isfinite(d->entries_per_s[i]))
				sum->entries_per_s[i] += d->entries_per_s[i];
		}
		for (int k = 0; k < PM_CT_KINDS; k++)
			if (isfinite(d->ct.pct[k])) {
				sum->ct.pct[k] += d->ct.pct[k];
				nct[k]++;
			}
		if (d->idle_src > sum->idle_src)
			sum->idle_src = d->idle_src;
		if (isfinite(d->wakeups_per_s)) {
			sum->wakeups_per_s += d->wakeups_per_s;
			nw++;
		}
		if (isfinite(d->s390_idle_pct)) {
			sum->s390_idle_pct += d->s390_idle_pct;
			sum->s390_entries_per_s += d->s390_entries_per_s;
			ns++;
		}
		if (isfinite(d->avg_khz)) {
			khz_w += d->avg_khz;
			khz_n++;
		}
	}
	sum->online = n > 0;
	for (int i = 0; i < sum->nstates; i++)
		sum->res_pct[i] = n ? sum->res_pct[i] / n : NAN;
	for (int k = 0; k < PM_CT_KINDS; k++)
		sum->ct.pct[k] = nct[k] ? sum->ct.pct[k] / nct[k] : NAN;
	if (!nw)
		sum->wakeups_per_s = NAN;
	sum->s390_idle_pct = ns ? sum->s390_idle_pct / ns : NAN;
	if (!ns)
		sum->s390_entries_per_s = NAN;
	sum->avg_khz = khz_n ? khz_w / khz_n : NAN;
}

static const char *state_name(const struct pm_sampler *s, int i)
{
	for (int c = 0; c < s->ncpu; c++)
		if (s->cpu[c].online && i < s->cpu[c].nstates)
			return s->cpu[c].names[i];
	return "?";
}

/* A CPU's own state name; for the summary (c < 0), the first CPU's. */
static const char *cpu_state_name(const struct pm_sampler *s, int c, int i)
{
	if (c >= 0 && i < s->cpu[c].nstates)
		return s->cpu[c].names[i];
	return state_name(s, i);
}

static int max_states(const struct pm_sampler *s)
{
	int n = 0;

	for (int c = 0; c < s->ncpu; c++)
		if (s->cpu[c].nstates > n)
			n = s->cpu[c].nstates;
	return n;
}

static void human_val(struct pm_out *o, int w, double v, int prec)
{
	if (isfinite(v))
		pm_out_printf(o, " %*.*f", w, prec, v);
	else
		pm_out_printf(o, " %*s", w, "-");
}

/* Without idle-state columns, the CPU time is shown split. */
static const enum pm_ct split_cols[] = { PM_CT_USER, PM_CT_SYSTEM,
					 PM_CT_IOWAIT, PM_CT_IRQ,
					 PM_CT_STEAL, PM_CT_IDLE };
static const char *const split_heads[] = { "USER%", "SYS%", "IOWAIT%",
					   "IRQ%", "STEAL%", "IDLE%" };
#define NSPLIT (sizeof(split_cols) / sizeof(split_cols[0]))

static void human_row(const struct report *r, const char *label,
		      const struct pm_cpu_delta *d, int nst)
{
	struct pm_out *o = r->o;

	pm_out_printf(o, "%5s", label);
	if (!d->online) {
		pm_out_printf(o, " offline\n");
		return;
	}
	human_val(o, 6, d->ct.pct[PM_CT_BUSY], 1);
	if (r->opt->pstates && r->s->npol)
		human_val(o, 7, d->avg_khz / 1000.0, 0);
	for (int i = 0; r->opt->cstates && i < nst; i++) {
		const char *n = state_name(r->s, i);
		int w = (int)strlen(n) < 6 ? 6 : (int)strlen(n);

		human_val(o, w, i < d->nstates ? d->res_pct[i] : NAN, 2);
	}
	for (size_t k = 0; !nst && k < NSPLIT; k++)
		human_val(o, (int)strlen(split_heads[k]), d->ct.pct[split_cols[k]],
			  1);
	if (r->opt->wakeups)
		human_val(o, 8, d->wakeups_per_s, 0);
	pm_out_printf(o, "\n");
}

static void human_bars(const struct report *r, const struct pm_cpu_delta *sum)
{
	static const char *const blocks[] = { "", "▏", "▎", "▍", "▌",
					      "▋", "▊", "▉" };

	for (int i = 0; i < sum->nstates; i++) {
		double v = sum->res_pct[i];
		int eighths;

		if (!isfinite(v))
			continue;
		eighths = (int)lround(v / 100.0 * BAR_CELLS * 8);
		if (eighths > BAR_CELLS * 8)
			eighths = BAR_CELLS * 8;
		if (eighths < 0)
			eighths = 0;
		pm_out_printf(r->o, "  %-12s %6.2f%% ", state_name(r->s, i), v);
		for (int k = 0; k < eighths / 8; k++)
			pm_out_printf(r->o, "█");
		pm_out_printf(r->o, "%s\n", blocks[eighths % 8]);
	}
}

/* The time and length of the period, then the columns' heads. */
static void human_head(struct report *r, int nst)
{
	struct pm_out *o = r->o;
	time_t sec = (time_t)r->epoch;
	struct tm tm;
	char when[32];

	localtime_r(&sec, &tm);
	if (!strftime(when, sizeof(when), "%H:%M:%S", &tm))
		when[0] = '\0';
	if (!r->hv_said) {
		cs_human_hypervisor(o, &r->opt->hv);
		r->hv_said = true;
	}
	if (r->header_done)
		pm_out_printf(o, "\n");
	pm_out_printf(o, "%s  %s %.3f s\n", when,
		      !strcmp(r->period, "sample") ? "interval" :
		      !strcmp(r->period, "command") ? "command ran" :
						       "whole run",
		      r->dt);
	pm_out_printf(o, "%5s %6s", "CPU", "BUSY%");
	if (r->opt->pstates && r->s->npol)
		pm_out_printf(o, " %7s", "AVG_MHz");
	for (int i = 0; i < nst; i++) {
		const char *n = state_name(r->s, i);

		pm_out_printf(o, " %*s%%", (int)strlen(n) < 6 ? 5 :
						(int)strlen(n) - 1, n);
	}
	for (size_t k = 0; !nst && k < NSPLIT; k++)
		pm_out_printf(o, " %s", split_heads[k]);
	if (r->opt->wakeups)
		pm_out_printf(o, " %8s", "WAKE/s");
	pm_out_printf(o, "\n");
}

/* The wakeups line: the total and the top sources. */
static void human_wakeups(const struct report *r)
{
	const struct pm_delta *d = r->d;

	pm_out_printf(r->o, "  wakeups %.0f/s%s", (double)d->irq_total / r->dt,
		      r->ntop ? "; top:" : "");
	for (int i = 0; i < r->ntop; i++) {
		const struct pm_irq_row *row = &r->b->irq.rows[r->top[i]];

		pm_out_printf(r->o, "%s %s (%s) %.0f/s", i ? "," : "",
			      row->label, row->desc,
			      (double)d->row[r->top[i]] / r->dt);
	}
	pm_out_printf(r->o, "\n");
}

/* A line per RAPL zone: its watts, or why it cannot be read. */
static void human_power(const struct report *r)
{
	struct pm_out *o = r->o;

	if (!r->s->nrapl)
		pm_out_printf(o, "  power: not available (no RAPL "
				 "zones in /sys/class/powercap)\n");
	for (int i = 0; i < r->s->nrapl; i++) {
		const struct pm_rapl_zone *z = &r->s->rapl[i];
		uint64_t de = r->d->energy_uj[i];

		if (z->fd < 0)
			pm_out_printf(o, "  %s: %s\n", z->name,
				      z->err == EACCES ?
					      "readable by root only" :
					      strerror(z->err));
		else if (de != PM_UNKNOWN)
			pm_out_printf(o, "  %s: %.2f W\n", z->name,
				      (double)de / 1e6 / r->dt);
	}
}

static void human_report(struct report *r, const struct pm_cpu_delta *sum)
{
	const struct pm_delta *d = r->d;
	int nst = r->opt->cstates ? max_states(r->s) : 0;

	human_head(r, nst);
	if (r->opt->summary)
		human_row(r, "all", sum, nst);
	if (!r->opt->summary || r->opt->percpu)
		for (int c = 0; c < r->s->ncpu; c++) {
			char l[16];

			snprintf(l, sizeof(l), "%u", d->cpu[c].cpu);
			human_row(r, l, &d->cpu[c], nst);
		}
	if (r->o->color && r->opt->cstates)
		human_bars(r, sum);
	if (r->opt->wakeups && d->have_irq)
		human_wakeups(r);
	if (r->opt->power)
		human_power(r);
	cs_human_anoms(r->o, &d->an);
	r->header_done = true;
}

static void json_s390(const struct report *r, const struct pm_cpu_delta *d,
		      bool summary)
{
	struct pm_out *o = r->o;

	if (!isfinite(d->s390_idle_pct) && d->s390_count == PM_UNKNOWN) {
		pm_out_null(o, "s390_idle");
		return;
	}
	pm_out_obj_begin(o, "s390_idle");
	pm_out_double(o, "residency_pct", d->s390_idle_pct, 2);
	pm_out_double(o, "entries_per_s", d->s390_entries_per_s, 1);
	if (!summary) {
		pm_out_u64_or_null(o, "usage", d->s390_count);
		pm_out_u64_or_null(o, "time_us", d->s390_time_us);
	}
	pm_out_obj_end(o);
}

static void json_cpu(const struct report *r, const struct pm_cpu_delta *d,
		     int c)
{
	struct pm_out *o = r->o;
	bool summary = c < 0;

	if (!summary) {
		pm_out_elem_begin(o, d->cpu);
		pm_out_u64(o, "cpu", d->cpu);
		pm_out_bool(o, "online", d->online);
	} else {
		pm_out_obj_begin(o, "summary");
	}
	cs_json_cputime(o, &d->ct);
	if (cs_idle_src_name(d->idle_src))
		pm_out_str(o, "idle_source", cs_idle_src_name(d->idle_src));
	else
		pm_out_null(o, "idle_source");
	json_s390(r, d, summary);
	if (r->opt->pstates) {
		pm_out_double(o, "avg_khz", d->avg_khz, 0);
		if (!summary)
			pm_out_u64_or_null(o, "cur_khz",
					   r->s->cpu[c].policy >= 0 &&
							   d->online ?
						   r->s->pol[r->s->cpu[c].policy]
							   .cur_khz :
						   PM_UNKNOWN);
	}
	if (r->opt->wakeups)
		pm_out_double(o, "wakeups_per_s", d->wakeups_per_s, 1);
	if (r->opt->cstates) {
		pm_out_arr_begin(o, "cstates", "state");
		for (int i = 0; i < d->nstates; i++) {
			pm_out_elem_begin(o, (uint64_t)i);
			pm_out_u64(o, "index", (uint64_t)i);
			pm_out_str(o, "name", cpu_state_name(r->s, c, i));
			pm_out_double(o, "residency_pct", d->res_pct[i], 2);
			pm_out_double(o, "entries_per_s", d->entries_per_s[i],
				      1);
			if (!summary) {
				pm_out_u64_or_null(o, "usage", d->dusage[i]);
				pm_out_u64_or_null(o, "time_us",
						   d->dtime_us[i]);
				pm_out_flag(o, "disabled",
					    r->s->cpu[c].disabled[i]);
			}
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
	}
	pm_out_obj_end(o);
}

static void json_top(const struct report *r)
{
	struct pm_out *o = r->o;

	pm_out_arr_begin(o, "top", "irq");
	for (int i = 0; i < r->ntop; i++) {
		const struct pm_irq_row *row = &r->b->irq.rows[r->top[i]];

		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "irq", row->label);
		pm_out_str(o, "name", row->desc);
		pm_out_double(o, "per_s", (double)r->d->row[r->top[i]] / r->dt,
			      1);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

static void json_report(struct report *r, const struct pm_cpu_delta *sum)
{
	struct pm_out *o = r->o;
	const struct pm_delta *d = r->d;

	pm_out_obj_begin(o, NULL);
	pm_out_double(o, "time", r->epoch, 3);
	pm_out_double(o, "interval_s", r->dt, 6);
	pm_out_str(o, "period", r->period);
	cs_json_hypervisor(o, &r->opt->hv);
	if (r->opt->summary)
		json_cpu(r, sum, -1);
	pm_out_arr_begin(o, "cpus", "cpu");
	for (int c = 0; c < r->s->ncpu; c++)
		json_cpu(r, &d->cpu[c], c);
	pm_out_arr_end(o);
	if (r->opt->wakeups) {
		pm_out_obj_begin(o, "wakeups");
		if (d->have_irq) {
			pm_out_double(o, "total_per_s",
				      (double)d->irq_total / r->dt, 1);
			json_top(r);
		} else {
			pm_out_null(o, "total_per_s");
			pm_out_null(o, "top");
		}
		pm_out_obj_end(o);
	}
	if (r->opt->power) {
		pm_out_arr_begin(o, "power", "zone");
		for (int i = 0; i < r->s->nrapl; i++) {
			const struct pm_rapl_zone *z = &r->s->rapl[i];
			uint64_t de = d->energy_uj[i];

			pm_out_obj_begin(o, NULL);
			pm_out_str(o, "zone", rapl_id(z));
			pm_out_str(o, "name", z->name);
			pm_out_u64_or_null(o, "energy_uj", de);
			pm_out_double(o, "watts",
				      de == PM_UNKNOWN ? NAN :
							 (double)de / 1e6 /
								 r->dt,
				      3);
			if (z->fd < 0)
				pm_out_str(o, "error",
					   z->err == EACCES ?
						   "readable by root only" :
						   strerror(z->err));
			else
				pm_out_null(o, "error");
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
	}
	cs_json_anoms(o, &d->an);
	pm_out_obj_end(o);
}

static void csv_num(char *b, size_t n, double v, int prec)
{
	pm_fmt_decimals(v, prec, b, n);
}

/* The columns of a csv row, in the header's order. */
enum {
	CSV_TIME, CSV_INTERVAL, CSV_CPU, CSV_STATE, CSV_NAME, CSV_RES,
	CSV_ENT, CSV_BUSY, CSV_KHZ, CSV_WAKE, CSV_ZONE, CSV_WATTS, CSV_PERIOD,
	CSV_SPLIT, /* user_pct ... idle_pct: NSPLIT columns */
	CSV_COLS = CSV_SPLIT + 6
};

/* --power: one row per RAPL zone, its CPU and state columns empty. */
static void csv_power(struct report *r, const char **row)
{
	char w[32];

	for (int i = CSV_CPU; i < CSV_COLS; i++)
		if (i != CSV_PERIOD)
			row[i] = "";
	for (int i = 0; i < r->s->nrapl; i++) {
		const struct pm_rapl_zone *z = &r->s->rapl[i];
		uint64_t de = r->d->energy_uj[i];

		csv_num(w, sizeof(w),
			de == PM_UNKNOWN ? NAN : (double)de / 1e6 / r->dt, 3);
		row[CSV_NAME] = z->name;
		row[CSV_ZONE] = rapl_id(z);
		row[CSV_WATTS] = w;
		pm_out_csv_row(r->o, CSV_COLS, row);
	}
}

static void csv_report(struct report *r, const struct pm_cpu_delta *sum)
{
	char t[32], dt[32], cpu[16], idx[16], res[32], ent[32], busy[32],
		khz[32], wk[32], ct[NSPLIT][32];
	const char *row[CSV_COLS] = {
		[CSV_TIME] = t,	    [CSV_INTERVAL] = dt, [CSV_CPU] = cpu,
		[CSV_STATE] = idx,  [CSV_RES] = res,	 [CSV_ENT] = ent,
		[CSV_BUSY] = busy,  [CSV_KHZ] = khz,	 [CSV_WAKE] = wk,
		[CSV_ZONE] = "",    [CSV_WATTS] = "",	 [CSV_PERIOD] = r->period,
	};

	_Static_assert(CSV_COLS - CSV_SPLIT == NSPLIT, "one column per mode");
	for (size_t k = 0; k < NSPLIT; k++)
		row[CSV_SPLIT + k] = ct[k];
	if (!r->header_done) {
		static const char *const head[CSV_COLS] = {
			"time",		 "interval_s",	  "cpu",
			"state",	 "name",	  "residency_pct",
			"entries_per_s", "busy_pct",	  "avg_khz",
			"wakeups_per_s", "zone",	  "watts",
			"period",	 "user_pct",	  "system_pct",
			"iowait_pct",	 "irq_pct",	  "steal_pct",
			"idle_pct",
		};

		pm_out_csv_row(r->o, CSV_COLS, head);
		r->header_done = true;
	}
	csv_num(t, sizeof(t), r->epoch, 3);
	csv_num(dt, sizeof(dt), r->dt, 6);
	for (int c = -1; c < r->s->ncpu; c++) {
		const struct pm_cpu_delta *d = c < 0 ? sum : &r->d->cpu[c];

		if (c < 0 && !r->opt->summary)
			continue;
		if (c < 0)
			snprintf(cpu, sizeof(cpu), "all");
		else
			snprintf(cpu, sizeof(cpu), "%u", d->cpu);
		csv_num(busy, sizeof(busy), d->ct.pct[PM_CT_BUSY], 2);
		csv_num(khz, sizeof(khz), d->avg_khz, 0);
		csv_num(wk, sizeof(wk), d->wakeups_per_s, 1);
		for (size_t k = 0; k < NSPLIT; k++)
			csv_num(ct[k], sizeof(ct[k]), d->ct.pct[split_cols[k]],
				2);
		if (!r->opt->cstates || !d->nstates) {
			idx[0] = res[0] = ent[0] = '\0';
			row[CSV_NAME] = "";
			pm_out_csv_row(r->o, CSV_COLS, row);
			continue;
		}
		for (int i = 0; i < d->nstates; i++) {
			snprintf(idx, sizeof(idx), "%d", i);
			row[CSV_NAME] = cpu_state_name(r->s, c, i);
			csv_num(res, sizeof(res), d->res_pct[i], 2);
			csv_num(ent, sizeof(ent), d->entries_per_s[i], 1);
			pm_out_csv_row(r->o, CSV_COLS, row);
		}
	}
	if (r->opt->power)
		csv_power(r, row);
}

/* s390's idle share: only there, so its family only then. */
static void prom_s390(struct report *r)
{
	char cpu[16];
	bool meta = false;

	for (int c = 0; c < r->s->ncpu; c++) {
		const char *l[] = { "cpu", cpu, NULL };
		double v = r->d->cpu[c].s390_idle_pct;

		if (!isfinite(v))
			continue;
		if (!meta)
			pm_out_prom_meta(r->o, "pm_s390_cpu_idle_percent",
					 "gauge",
					 "Share of the last interval the CPU "
					 "waited (s390's idle_time_us).");
		meta = true;
		snprintf(cpu, sizeof(cpu), "%u", r->d->cpu[c].cpu);
		pm_out_prom_sample(r->o, "pm_s390_cpu_idle_percent", l, v);
	}
}

static void prom_cputime(struct report *r)
{
	char cpu[16];

	pm_out_prom_meta(r->o, "pm_cpu_time_percent", "gauge",
			 "Share of the last interval the CPU spent in each "
			 "mode (/proc/stat; idle from s390's own statistics "
			 "there).");
	for (int c = 0; c < r->s->ncpu; c++) {
		const struct pm_cpu_delta *d = &r->d->cpu[c];

		snprintf(cpu, sizeof(cpu), "%u", d->cpu);
		for (int k = PM_CT_USER; k < PM_CT_KINDS; k++) {
			const char *l[] = { "cpu", cpu, "mode", pm_ct_name(k),
					    NULL };

			if (isfinite(d->ct.pct[k]))
				pm_out_prom_sample(r->o, "pm_cpu_time_percent",
						   l, d->ct.pct[k]);
		}
	}
}

/* pm_cpu_busy_percent: /proc/stat's busy share per CPU. */
static void prom_busy(struct report *r)
{
	const struct pm_delta *d = r->d;
	char cpu[16];

	pm_out_prom_meta(r->o, "pm_cpu_busy_percent", "gauge",
			 "Share of the last interval the CPU was not idle "
			 "(/proc/stat).");
	for (int c = 0; c < r->s->ncpu; c++) {
		const char *l[] = { "cpu", cpu, NULL };

		if (!isfinite(d->cpu[c].ct.pct[PM_CT_BUSY]))
			continue;
		snprintf(cpu, sizeof(cpu), "%u", d->cpu[c].cpu);
		pm_out_prom_sample(r->o, "pm_cpu_busy_percent", l,
				   d->cpu[c].ct.pct[PM_CT_BUSY]);
	}
}

/* The cpuidle states' counters since boot: time and usage. */
static void prom_cstate_totals(struct report *r)
{
	struct pm_out *o = r->o;
	char cpu[16];

	pm_out_prom_meta(o, "pm_cpuidle_state_time_seconds_total", "counter",
			 "Time spent in the cpuidle state since boot.");
	for (int c = 0; c < r->s->ncpu; c++) {
		const struct pm_scpu *sc = &r->s->cpu[c];

		for (int i = 0; sc->online && i < sc->nstates; i++) {
			const char *l[] = { "cpu", cpu, "state", sc->names[i],
					    NULL };

			if (sc->time_us[i] == PM_UNKNOWN)
				continue;
			snprintf(cpu, sizeof(cpu), "%u", sc->cpu);
			pm_out_prom_sample(
				o, "pm_cpuidle_state_time_seconds_total", l,
				(double)sc->time_us[i] / 1e6);
		}
	}
	pm_out_prom_meta(o, "pm_cpuidle_state_usage_total", "counter",
			 "Entries into the cpuidle state since boot.");
	for (int c = 0; c < r->s->ncpu; c++) {
		const struct pm_scpu *sc = &r->s->cpu[c];

		for (int i = 0; sc->online && i < sc->nstates; i++) {
			const char *l[] = { "cpu", cpu, "state", sc->names[i],
					    NULL };

			if (sc->usage[i] == PM_UNKNOWN)
				continue;
			snprintf(cpu, sizeof(cpu), "%u", sc->cpu);
			pm_out_prom_sample_u64(
				o, "pm_cpuidle_state_usage_total", l,
				sc->usage[i]);
		}
	}
}

/* cpuidle: the residency over the interval, then the totals. */
static void prom_cstates(struct report *r)
{
	const struct pm_delta *d = r->d;
	char cpu[16];

	pm_out_prom_meta(r->o, "pm_cpuidle_state_residency_percent", "gauge",
			 "Share of the last interval in the idle state.");
	for (int c = 0; c < r->s->ncpu; c++)
		for (int i = 0; i < d->cpu[c].nstates; i++) {
			const char *l[] = { "cpu", cpu, "state",
					    cpu_state_name(r->s, c, i), NULL };

			if (!isfinite(d->cpu[c].res_pct[i]))
				continue;
			snprintf(cpu, sizeof(cpu), "%u", d->cpu[c].cpu);
			pm_out_prom_sample(r->o,
					   "pm_cpuidle_state_residency_percent",
					   l, d->cpu[c].res_pct[i]);
		}
	prom_cstate_totals(r);
}

/* cpufreq: the average frequency over the interval. */
static void prom_pstates(struct report *r)
{
	const struct pm_delta *d = r->d;
	char cpu[16];

	pm_out_prom_meta(r->o, "pm_cpufreq_average_hertz", "gauge",
			 "Average frequency over the last interval "
			 "(cpufreq stats).");
	for (int c = 0; c < r->s->ncpu; c++) {
		const char *l[] = { "cpu", cpu, NULL };

		if (!isfinite(d->cpu[c].avg_khz))
			continue;
		snprintf(cpu, sizeof(cpu), "%u", d->cpu[c].cpu);
		pm_out_prom_sample(r->o, "pm_cpufreq_average_hertz", l,
				   d->cpu[c].avg_khz * 1000.0);
	}
}

/* /proc/interrupts: wakeups per CPU, and the top sources. */
static void prom_wakeups(struct report *r)
{
	const struct pm_delta *d = r->d;
	char cpu[16];

	pm_out_prom_meta(r->o, "pm_cpu_wakeups_per_second", "gauge",
			 "Interrupts per second on the CPU over the "
			 "last interval.");
	for (int c = 0; c < r->s->ncpu; c++) {
		const char *l[] = { "cpu", cpu, NULL };

		if (!isfinite(d->cpu[c].wakeups_per_s))
			continue;
		snprintf(cpu, sizeof(cpu), "%u", d->cpu[c].cpu);
		pm_out_prom_sample(r->o, "pm_cpu_wakeups_per_second", l,
				   d->cpu[c].wakeups_per_s);
	}
	pm_out_prom_meta(r->o, "pm_interrupts_per_second", "gauge",
			 "The sources that raised the most interrupts "
			 "on the selected CPUs over the last interval.");
	for (int i = 0; i < r->ntop; i++) {
		const struct pm_irq_row *row = &r->b->irq.rows[r->top[i]];
		const char *l[] = { "irq", row->label, "name", row->desc,
				    NULL };

		pm_out_prom_sample(r->o, "pm_interrupts_per_second", l,
				   (double)d->row[r->top[i]] / r->dt);
	}
}

/* RAPL: each zone's watts over the interval. */
static void prom_power(struct report *r)
{
	pm_out_prom_meta(r->o, "pm_rapl_power_watts", "gauge",
			 "Power of the RAPL zone over the last "
			 "interval.");
	for (int i = 0; i < r->s->nrapl; i++) {
		const struct pm_rapl_zone *z = &r->s->rapl[i];
		uint64_t de = r->d->energy_uj[i];
		const char *l[] = { "zone", rapl_id(z), "name", z->name,
				    NULL };

		if (de == PM_UNKNOWN)
			continue;
		pm_out_prom_sample(r->o, "pm_rapl_power_watts", l,
				   (double)de / 1e6 / r->dt);
	}
}

static void prom_report(struct report *r)
{
	cs_prom_hypervisor(r->o, &r->opt->hv);
	prom_busy(r);
	prom_cputime(r);
	prom_s390(r);
	if (r->opt->cstates)
		prom_cstates(r);
	if (r->opt->pstates)
		prom_pstates(r);
	if (r->opt->wakeups)
		prom_wakeups(r);
	if (r->opt->power)
		prom_power(r);
	cs_prom_anoms(r->o, &r->d->an);
}

/* One report of the deltas the run has just computed. */
static void report(struct pm_tool *t, struct report *r, struct pm_out *o)
{
	struct pm_cpu_delta sum;

	summarize(r, &sum);
	r->ntop = r->opt->wakeups ? pm_delta_top(r->d, r->top, TOP_IRQS) : 0;
	r->o = o;
	switch (o->fmt) {
	case PM_FMT_HUMAN:
		human_report(r, &sum);
		break;
	case PM_FMT_JSON:
	case PM_FMT_KV:
		json_report(r, &sum);
		break;
	case PM_FMT_CSV:
		csv_report(r, &sum);
		break;
	case PM_FMT_PROM:
		prom_report(r);
		break;
	}
	/* Each sample reaches its reader now, not at exit. */
	if (fflush(o->f) != 0 && !t->output)
		pm_tool_out_done(t, o);
	r->o = NULL; /* o may be emit's own, gone when it returns */
}

static unsigned flags_of(const struct cs_opts *opt)
{
	return (opt->cstates ? PM_SAMPLE_CSTATES : 0) |
	       (opt->pstates ? PM_SAMPLE_PSTATES : 0) |
	       (opt->wakeups ? PM_SAMPLE_WAKEUPS : 0) |
	       (opt->power ? PM_SAMPLE_POWER : 0) | PM_SAMPLE_BUSY;
}

struct run {
	struct pm_sampler s;
	struct stamped first, prev, cur;
	struct pm_delta d;
	struct report r;
	struct pm_out out;	/* stdout, opened at the first report */
	bool out_open;
	uint64_t n;		/* reports so far */
};

static void run_open(struct pm_tool *t, struct pm_ctx *ctx,
		     const struct pm_cpuset *sel, const struct cs_opts *opt,
		     struct run *run)
{
	struct pm_cpuset cut;
	int e = pm_sampler_open(ctx, &run->s, sel, flags_of(opt));

	if (e < 0)
		pm_die(t, PM_EXIT_FAIL, "cannot start sampling: %s",
		       strerror(-e));
	if (pm_reading_alloc(&run->first.r, &run->s) < 0 ||
	    pm_reading_alloc(&run->prev.r, &run->s) < 0 ||
	    pm_reading_alloc(&run->cur.r, &run->s) < 0 ||
	    pm_delta_alloc(&run->d, &run->s) < 0)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
	run->r.opt = opt;
	run->r.s = &run->s;
	run->r.d = &run->d;
	pm_cpuset_zero(&cut);
	for (int i = 0; i < run->s.ncpu; i++)
		cs_states_cut_add(ctx, run->s.cpu[i].cpu, run->s.cpu[i].nstates,
				  &cut);
	cs_states_cut_say(t, &cut);
	if (opt->power && t->verbose >= 0)
		for (int i = 0; i < run->s.nrapl; i++)
			if (run->s.rapl[i].fd < 0 &&
			    run->s.rapl[i].err == EACCES)
				pm_warn(t, "%s/energy_uj is readable by root "
					   "only: no power for %s",
					run->s.rapl[i].path,
					run->s.rapl[i].name);
}

static void run_close(struct pm_tool *t, struct run *run)
{
	if (run->out_open)
		pm_tool_out_done(t, &run->out);
	pm_reading_free(&run->first.r);
	pm_reading_free(&run->prev.r);
	pm_reading_free(&run->cur.r);
	pm_delta_free(&run->d);
	pm_sampler_close(&run->s);
}

/* Said once, after the first reading counted them. */
static void say_fallback(struct pm_tool *t, const struct pm_sampler *s)
{
	if (s->fallback && t->verbose > 0)
		pm_warn(t, "%u values are read by path each time: the file "
			   "limit allows %u open files",
			s->fallback, s->fd_budget);
}

/* Read the counters into st, and when. */
static void take(struct pm_tool *t, struct run *run, struct stamped *st)
{
	pm_sampler_read(&run->s);
	clock_gettime(CLOCK_MONOTONIC, &st->mono);
	clock_gettime(CLOCK_REALTIME, &st->real);
	if (pm_reading_take(&st->r, &run->s) < 0)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
}

static void emit(struct pm_tool *t, struct run *run,
		 const struct stamped *from, const struct stamped *to,
		 const char *period)
{
	struct pm_out o;
	char when[32];

	run->r.dt = ts_diff(&from->mono, &to->mono);
	run->r.epoch = (double)to->real.tv_sec + (double)to->real.tv_nsec / 1e9;
	run->r.period = period;
	run->r.b = &to->r;
	if (pm_delta_compute(&run->d, &run->s, &from->r, &to->r, run->r.dt) <
	    0)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
	snprintf(when, sizeof(when), "%s %llu", period,
		 (unsigned long long)run->n + 1);
	cs_warn_anoms(t, &run->d.an, when);
	/* With --output every report replaces the file. */
	if (t->output) {
		pm_tool_out(t, &o);
		o.compact = run->r.jsonl;
		run->r.header_done = false;
		run->r.hv_said = false;
		report(t, &run->r, &o);
		pm_tool_out_done(t, &o);
	} else {
		if (!run->out_open) {
			pm_tool_out(t, &run->out);
			run->out.compact = run->r.jsonl;
			run->out_open = true;
		}
		report(t, &run->r, &run->out);
	}
}

static void catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* prev takes cur's place (the readings swap, nothing is copied). */
static void advance(struct run *run)
{
	struct stamped tmp = run->prev;

	run->prev = run->cur;
	run->cur = tmp;
}

int cs_run_interval(struct pm_tool *t, struct pm_ctx *ctx,
		    const struct pm_cpuset *sel, const struct cs_opts *opt)
{
	struct run run;
	struct timespec next;
	int64_t step = (int64_t)opt->interval_us * 1000;

	memset(&run, 0, sizeof(run));
	run_open(t, ctx, sel, opt, &run);
	run.r.jsonl = true;
	catch_signals();
	take(t, &run, &run.first);
	say_fallback(t, &run.s);
	run.prev.mono = run.first.mono;
	run.prev.real = run.first.real;
	if (pm_reading_take(&run.prev.r, &run.s) < 0)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
	next = run.first.mono;
	while (!stop_signal && (!opt->count || run.n < opt->count)) {
		/* Absolute deadlines: the k-th sample is due at start + k*i. */
		int64_t ns = next.tv_nsec + step % NSEC_PER_SEC;

		next.tv_sec += (time_t)(step / NSEC_PER_SEC + ns / NSEC_PER_SEC);
		next.tv_nsec = ns % NSEC_PER_SEC;
		while (!stop_signal &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
				       NULL) == EINTR)
			;
		take(t, &run, &run.cur);
		if (ts_diff(&run.prev.mono, &run.cur.mono) <= 0)
			continue;
		emit(t, &run, &run.prev, &run.cur, "sample");
		run.n++;
		advance(&run);
		if (t->verbose > 1)
			pm_warn(t, "sample %llu: %llu reads for %llu values",
				(unsigned long long)run.n,
				(unsigned long long)run.s.syscalls,
				(unsigned long long)run.s.values);
	}
	/* Interrupted: the whole run since the first reading, then exit 0. */
	if (stop_signal && run.n > 0 && t->fmt != PM_FMT_PROM)
		emit(t, &run, &run.first, &run.prev, "run");
	run_close(t, &run);
	return PM_EXIT_OK;
}

int cs_run_command(struct pm_tool *t, struct pm_ctx *ctx,
		   const struct pm_cpuset *sel, const struct cs_opts *opt)
{
	struct run run;
	struct pm_child child;
	int st, child_err, r;

	memset(&run, 0, sizeof(run));
	run_open(t, ctx, sel, opt, &run);
	take(t, &run, &run.first);
	say_fallback(t, &run.s);
	r = pm_child_start(ctx, opt->cmd, &child);
	if (r < 0)
		pm_die(t, PM_EXIT_FAIL, "cannot start '%s': %s", opt->cmd[0],
		       strerror(-r));
	st = pm_child_wait(&child, &child_err);
	if (child_err) {
		pm_warn(t, "cannot run '%s': %s", opt->cmd[0],
			strerror(child_err));
		run_close(t, &run);
		return st;
	}
	take(t, &run, &run.cur);
	emit(t, &run, &run.first, &run.cur, "command");
	run_close(t, &run);
	return st;
}
