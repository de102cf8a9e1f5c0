// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cstate-stat over time: per-interval deltas on absolute deadlines, and
 * the residency over a command's run.  The measured interval is what is
 * divided by, and a counter that goes backwards counts from its reset.
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

/* The previous reading: only counters, allocated once. */
struct prev {
	bool *online;
	uint64_t *usage, *time_us;	/* [cpu * PM_MAX_IDLE_STATES + i] */
	struct pm_cpu_ticks *ticks;
	uint64_t *irqs;
	struct pm_tis *tis;		/* [pol * PM_MAX_FREQS + i] */
	int *ntis;
	uint64_t rapl[PM_MAX_RAPL];
	struct pm_irq_row *rows;
	int nrows;
	struct timespec mono;
	struct timespec real;
};

static int prev_alloc(struct prev *p, const struct pm_sampler *s)
{
	size_t n = (size_t)(s->ncpu ? s->ncpu : 1);
	size_t np = (size_t)(s->npol ? s->npol : 1);

	memset(p, 0, sizeof(*p));
	p->online = calloc(n, sizeof(*p->online));
	p->usage = calloc(n * PM_MAX_IDLE_STATES, sizeof(*p->usage));
	p->time_us = calloc(n * PM_MAX_IDLE_STATES, sizeof(*p->time_us));
	p->ticks = calloc(n, sizeof(*p->ticks));
	p->irqs = calloc(n, sizeof(*p->irqs));
	p->tis = calloc(np * PM_MAX_FREQS, sizeof(*p->tis));
	p->ntis = calloc(np, sizeof(*p->ntis));
	p->rows = calloc(PM_MAX_IRQ_ROWS, sizeof(*p->rows));
	if (!p->online || !p->usage || !p->time_us || !p->ticks ||
	    !p->irqs || !p->tis || !p->ntis || !p->rows)
		return -ENOMEM;
	return 0;
}

static void prev_free(struct prev *p)
{
	free(p->online);
	free(p->usage);
	free(p->time_us);
	free(p->ticks);
	free(p->irqs);
	free(p->tis);
	free(p->ntis);
	free(p->rows);
}

static void prev_save(struct prev *p, const struct pm_sampler *s)
{
	for (int c = 0; c < s->ncpu; c++) {
		const struct pm_scpu *sc = &s->cpu[c];

		p->online[c] = sc->online;
		for (int i = 0; i < PM_MAX_IDLE_STATES; i++) {
			bool have = sc->online && i < sc->nstates;

			p->usage[c * PM_MAX_IDLE_STATES + i] =
				have ? sc->usage[i] : PM_UNKNOWN;
			p->time_us[c * PM_MAX_IDLE_STATES + i] =
				have ? sc->time_us[i] : PM_UNKNOWN;
		}
		p->ticks[c] = sc->ticks;
		p->irqs[c] = sc->irqs;
	}
	for (int i = 0; i < s->npol; i++) {
		p->ntis[i] = s->pol[i].n_tis;
		memcpy(&p->tis[(size_t)i * PM_MAX_FREQS], s->pol[i].tis,
		       sizeof(struct pm_tis) * (size_t)s->pol[i].n_tis);
	}
	for (int i = 0; i < s->nrapl; i++)
		p->rapl[i] = s->rapl[i].energy_uj;
	p->nrows = s->nirq;
	if (s->nirq)
		memcpy(p->rows, s->irq, sizeof(*p->rows) * (size_t)s->nirq);
}

static double ts_diff(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) +
	       (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* ---------------------------------------------------------------- deltas */

struct cdelta {
	unsigned cpu;
	bool online;
	const struct pm_scpu *sc;	/* its names; NULL for the summary */
	double busy_pct, avg_khz, wakeups_per_s;
	uint64_t cur_khz;
	int nstates;
	double res_pct[PM_MAX_IDLE_STATES], entries_per_s[PM_MAX_IDLE_STATES];
	uint64_t dusage[PM_MAX_IDLE_STATES], dtime_us[PM_MAX_IDLE_STATES];
};

static double ratio(uint64_t d, double dt, double scale)
{
	return d == PM_UNKNOWN || dt <= 0 ? NAN : (double)d / dt * scale;
}

/* Average frequency of a policy from its time_in_state deltas. */
static double pol_avg_khz(const struct pm_sampler *s, const struct prev *p,
			  int pol)
{
	const struct pm_spol *sp = &s->pol[pol];
	double sum = 0, ticks = 0;

	if (!sp->n_tis || sp->n_tis != p->ntis[pol])
		return NAN;
	for (int i = 0; i < sp->n_tis; i++) {
		const struct pm_tis *o = &p->tis[pol * PM_MAX_FREQS + i];
		uint64_t d;

		if (o->khz != sp->tis[i].khz)
			return NAN;
		d = pm_delta(o->ticks, sp->tis[i].ticks);
		sum += (double)d * (double)sp->tis[i].khz;
		ticks += (double)d;
	}
	return ticks > 0 ? sum / ticks : NAN;
}

static void cpu_delta(const struct pm_sampler *s, const struct prev *p, int c,
		      double dt, struct cdelta *d)
{
	const struct pm_scpu *sc = &s->cpu[c];

	memset(d, 0, sizeof(*d));
	d->cpu = sc->cpu;
	d->sc = sc;
	d->online = sc->online;
	d->busy_pct = d->avg_khz = d->wakeups_per_s = NAN;
	d->cur_khz = PM_UNKNOWN;
	if (!sc->online)
		return;
	d->nstates = sc->nstates;
	for (int i = 0; i < sc->nstates; i++) {
		size_t k = (size_t)c * PM_MAX_IDLE_STATES + (size_t)i;

		d->dusage[i] = pm_delta(p->usage[k], sc->usage[i]);
		d->dtime_us[i] = pm_delta(p->time_us[k], sc->time_us[i]);
		d->res_pct[i] = ratio(d->dtime_us[i], dt * 1e6, 100.0);
		d->entries_per_s[i] = ratio(d->dusage[i], dt, 1.0);
	}
	if (sc->ticks.total != PM_UNKNOWN && p->ticks[c].total != PM_UNKNOWN) {
		uint64_t dtot = pm_delta(p->ticks[c].total, sc->ticks.total);
		uint64_t didle = pm_delta(p->ticks[c].idle, sc->ticks.idle);

		if (dtot && dtot != PM_UNKNOWN && didle != PM_UNKNOWN)
			d->busy_pct = didle >= dtot ? 0 :
						      (double)(dtot - didle) *
							      100.0 /
							      (double)dtot;
	}
	/* Unknown unless the CPU had a column at both readings. */
	if (s->fd_irq >= 0)
		d->wakeups_per_s = ratio(pm_delta(p->irqs[c], sc->irqs), dt,
					 1.0);
	if (sc->policy >= 0) {
		d->avg_khz = pol_avg_khz(s, p, sc->policy);
		d->cur_khz = s->pol[sc->policy].cur_khz;
	}
}

struct irq_top {
	const struct pm_irq_row *row;
	uint64_t delta;
};

/*
 * The interrupts on the CPUs whose wakeups are reported: the sum of their
 * counts' deltas, so that total_per_s is the sum of the CPUs' rates.
 */
static uint64_t irq_sum(const struct pm_sampler *s, const struct prev *p,
			const struct cdelta *d)
{
	uint64_t total = 0;

	for (int c = 0; c < s->ncpu; c++) {
		uint64_t x = pm_delta(p->irqs[c], s->cpu[c].irqs);

		if (d[c].online && x != PM_UNKNOWN)
			total += x;
	}
	return total;
}

/*
 * The rows of two readings count the same CPUs when each CPU had a column
 * at both (and is reported) or at neither.  /proc/interrupts lists online
 * CPUs only: across a CPU that went offline or came back, a row's total
 * drops or jumps by that CPU's count since boot, which is no rate.
 */
static bool irq_rows_comparable(const struct pm_sampler *s,
				const struct prev *p, const struct cdelta *d)
{
	for (int c = 0; c < s->ncpu; c++) {
		bool was = p->irqs[c] != PM_UNKNOWN;
		bool is = s->cpu[c].irqs != PM_UNKNOWN;

		if (was != is || (is && !d[c].online))
			return false;
	}
	return true;
}

static int top_irqs(const struct pm_sampler *s, const struct prev *p,
		    struct irq_top *top)
{
	int n = 0;

	for (int i = 0; i < s->nirq; i++) {
		const struct pm_irq_row *r = &s->irq[i];
		uint64_t old = PM_UNKNOWN, d;

		/* Rows keep their order; search only when they moved. */
		if (i < p->nrows && !strcmp(p->rows[i].label, r->label)) {
			old = p->rows[i].total;
		} else {
			for (int j = 0; j < p->nrows; j++)
				if (!strcmp(p->rows[j].label, r->label)) {
					old = p->rows[j].total;
					break;
				}
		}
		d = pm_delta(old, r->total);
		if (d == PM_UNKNOWN || !d)
			continue;
		/* Insertion into the top list, largest first. */
		int k = n < TOP_IRQS ? n++ : TOP_IRQS - 1;

		if (k == TOP_IRQS - 1 && n == TOP_IRQS && top[k].delta >= d)
			continue;
		while (k > 0 && top[k - 1].delta < d) {
			top[k] = top[k - 1];
			k--;
		}
		top[k].row = r;
		top[k].delta = d;
	}
	return n;
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
	const struct prev *p;
	struct cdelta *d;	/* [ncpu] */
	double dt;
	double epoch;
	const char *period;	/* "sample", "run" or "command" */
	bool jsonl;		/* one JSON object per line */
	bool header_done;
};

/* The summary row: averages over online CPUs, entries and wakeups summed. */
static void summarize(const struct report *r, struct cdelta *sum)
{
	unsigned n = 0, nbusy = 0, nw = 0;
	double khz_w = 0, khz_n = 0;

	memset(sum, 0, sizeof(*sum));
	sum->busy_pct = 0;
	sum->wakeups_per_s = 0;
	sum->cur_khz = PM_UNKNOWN;
	for (int c = 0; c < r->s->ncpu; c++) {
		const struct cdelta *d = &r->d[c];

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
		if (isfinite(d->busy_pct)) {
			sum->busy_pct += d->busy_pct;
			nbusy++;
		}
		if (isfinite(d->wakeups_per_s)) {
			sum->wakeups_per_s += d->wakeups_per_s;
			nw++;
		}
		if (isfinite(d->avg_khz)) {
			khz_w += d->avg_khz;
			khz_n++;
		}
	}
	sum->online = n > 0;
	for (int i = 0; i < sum->nstates; i++)
		sum->res_pct[i] = n ? sum->res_pct[i] / n : NAN;
	sum->busy_pct = nbusy ? sum->busy_pct / nbusy : NAN;
	if (!nw)
		sum->wakeups_per_s = NAN;
	sum->avg_khz = khz_n ? khz_w / khz_n : NAN;
}

static const char *state_name(const struct pm_sampler *s, int i)
{
	for (int c = 0; c < s->ncpu; c++)
		if (s->cpu[c].online && i < s->cpu[c].nstates)
			return s->cpu[c].names[i];
	return "?";
}

/* A CPU's own state name; for the summary, the first CPU's. */
static const char *cpu_state_name(const struct pm_sampler *s,
				  const struct cdelta *d, int i)
{
	if (d->sc && i < d->sc->nstates)
		return d->sc->names[i];
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

static void human_row(const struct report *r, const char *label,
		      const struct cdelta *d, int nst)
{
	struct pm_out *o = r->o;

	pm_out_printf(o, "%5s", label);
	if (!d->online) {
		pm_out_printf(o, " offline\n");
		return;
	}
	human_val(o, 6, d->busy_pct, 1);
	if (r->opt->pstates)
		human_val(o, 7, d->avg_khz / 1000.0, 0);
	for (int i = 0; r->opt->cstates && i < nst; i++) {
		const char *n = state_name(r->s, i);
		int w = (int)strlen(n) < 6 ? 6 : (int)strlen(n);

		human_val(o, w, i < d->nstates ? d->res_pct[i] : NAN, 2);
	}
	if (r->opt->wakeups)
		human_val(o, 8, d->wakeups_per_s, 0);
	pm_out_printf(o, "\n");
}

static void human_bars(const struct report *r, const struct cdelta *sum)
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

static void human_report(struct report *r, const struct cdelta *sum,
			 const struct irq_top *top, int ntop,
			 uint64_t irq_total)
{
	struct pm_out *o = r->o;
	int nst = max_states(r->s);
	time_t sec = (time_t)r->epoch;
	struct tm tm;
	char when[32];

	localtime_r(&sec, &tm);
	if (!strftime(when, sizeof(when), "%H:%M:%S", &tm))
		when[0] = '\0';
	pm_out_printf(o, "%s%s  %s %.3f s\n", r->header_done ? "\n" : "",
		      when,
		      !strcmp(r->period, "sample") ? "interval" :
		      !strcmp(r->period, "command") ? "command ran" :
						       "whole run",
		      r->dt);
	pm_out_printf(o, "%5s %6s", "CPU", "BUSY%");
	if (r->opt->pstates)
		pm_out_printf(o, " %7s", "AVG_MHz");
	for (int i = 0; r->opt->cstates && i < nst; i++) {
		const char *n = state_name(r->s, i);

		pm_out_printf(o, " %*s%%", (int)strlen(n) < 6 ? 5 :
						(int)strlen(n) - 1, n);
	}
	if (r->opt->wakeups)
		pm_out_printf(o, " %8s", "WAKE/s");
	pm_out_printf(o, "\n");
	if (r->opt->summary)
		human_row(r, "all", sum, nst);
	if (!r->opt->summary || r->opt->percpu)
		for (int c = 0; c < r->s->ncpu; c++) {
			char l[16];

			snprintf(l, sizeof(l), "%u", r->d[c].cpu);
			human_row(r, l, &r->d[c], nst);
		}
	if (o->color && r->opt->cstates)
		human_bars(r, sum);
	if (r->opt->wakeups && ntop < 0 && r->s->fd_irq >= 0)
		pm_out_printf(o, "  wakeups %.0f/s; top: unknown (CPUs went "
				 "offline or came back)\n",
			      (double)irq_total / r->dt);
	if (r->opt->wakeups && ntop > 0) {
		pm_out_printf(o, "  wakeups %.0f/s; top:",
			      (double)irq_total / r->dt);
		for (int i = 0; i < ntop; i++)
			pm_out_printf(o, "%s %s (%s) %.0f/s", i ? "," : "",
				      top[i].row->label, top[i].row->desc,
				      (double)top[i].delta / r->dt);
		pm_out_printf(o, "\n");
	}
	if (r->opt->power) {
		if (!r->s->nrapl)
			pm_out_printf(o, "  power: not available (no RAPL "
					 "zones in /sys/class/powercap)\n");
		for (int i = 0; i < r->s->nrapl; i++) {
			const struct pm_rapl_zone *z = &r->s->rapl[i];
			uint64_t de = pm_delta_wrap(r->p->rapl[i], z->energy_uj,
						    z->max_range_uj);

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
	r->header_done = true;
}

static void json_cpu(const struct report *r, const struct cdelta *d,
		     bool summary)
{
	struct pm_out *o = r->o;

	if (!summary) {
		pm_out_elem_begin(o, d->cpu);
		pm_out_u64(o, "cpu", d->cpu);
		pm_out_bool(o, "online", d->online);
	} else {
		pm_out_obj_begin(o, "summary");
	}
	pm_out_double(o, "busy_pct", d->busy_pct, 2);
	if (r->opt->pstates) {
		pm_out_double(o, "avg_khz", d->avg_khz, 0);
		if (!summary)
			pm_out_u64_or_null(o, "cur_khz", d->cur_khz);
	}
	if (r->opt->wakeups)
		pm_out_double(o, "wakeups_per_s", d->wakeups_per_s, 1);
	if (r->opt->cstates) {
		pm_out_arr_begin(o, "cstates", "state");
		for (int i = 0; i < d->nstates; i++) {
			pm_out_elem_begin(o, (uint64_t)i);
			pm_out_u64(o, "index", (uint64_t)i);
			pm_out_str(o, "name", cpu_state_name(r->s, d, i));
			pm_out_double(o, "residency_pct", d->res_pct[i], 2);
			pm_out_double(o, "entries_per_s", d->entries_per_s[i],
				      1);
			if (!summary) {
				const struct pm_scpu *sc = NULL;

				for (int c = 0; c < r->s->ncpu; c++)
					if (r->s->cpu[c].cpu == d->cpu)
						sc = &r->s->cpu[c];
				pm_out_u64_or_null(o, "usage", d->dusage[i]);
				pm_out_u64_or_null(o, "time_us",
						   d->dtime_us[i]);
				pm_out_flag(o, "disabled",
					    sc ? sc->disabled[i] : -1);
			}
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
	}
	pm_out_obj_end(o);
}

/* The top sources; null when the rows of the two readings differ. */
static void json_top(const struct report *r, const struct irq_top *top,
		     int ntop)
{
	struct pm_out *o = r->o;

	if (ntop < 0) {
		pm_out_null(o, "top");
		return;
	}
	pm_out_arr_begin(o, "top", "irq");
	for (int i = 0; i < ntop; i++) {
		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "irq", top[i].row->label);
		pm_out_str(o, "name", top[i].row->desc);
		pm_out_double(o, "per_s", (double)top[i].delta / r->dt, 1);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

static void json_report(struct report *r, const struct cdelta *sum,
			const struct irq_top *top, int ntop,
			uint64_t irq_total)
{
	struct pm_out *o = r->o;

	pm_out_obj_begin(o, NULL);
	pm_out_double(o, "time", r->epoch, 3);
	pm_out_double(o, "interval_s", r->dt, 6);
	pm_out_str(o, "period", r->period);
	if (r->opt->summary)
		json_cpu(r, sum, true);
	pm_out_arr_begin(o, "cpus", "cpu");
	for (int c = 0; c < r->s->ncpu; c++)
		json_cpu(r, &r->d[c], false);
	pm_out_arr_end(o);
	if (r->opt->wakeups) {
		pm_out_obj_begin(o, "wakeups");
		if (r->s->fd_irq >= 0) {
			pm_out_double(o, "total_per_s",
				      (double)irq_total / r->dt, 1);
			json_top(r, top, ntop);
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
			uint64_t de = pm_delta_wrap(r->p->rapl[i], z->energy_uj,
						    z->max_range_uj);

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
	pm_out_obj_end(o);
}

static void csv_num(char *b, size_t n, double v, int prec)
{
	if (isfinite(v))
		snprintf(b, n, "%.*f", prec, v);
	else
		b[0] = '\0';
}

static void csv_report(struct report *r, const struct cdelta *sum)
{
	char t[32], cpu[16], idx[16], res[32], ent[32], busy[32], khz[32],
		wk[32];
	const char *row[10] = { t, cpu, idx, NULL, res, ent,
				busy, khz, wk, r->period };

	if (!r->header_done) {
		static const char *const head[] = {
			"time",		 "cpu",	     "state",	"name",
			"residency_pct", "entries_per_s", "busy_pct",
			"avg_khz",	 "wakeups_per_s", "period",
		};

		pm_out_csv_row(r->o, 10, head);
		r->header_done = true;
	}
	snprintf(t, sizeof(t), "%.3f", r->epoch);
	for (int c = -1; c < r->s->ncpu; c++) {
		const struct cdelta *d = c < 0 ? sum : &r->d[c];

		if (c < 0 && !r->opt->summary)
			continue;
		if (c < 0)
			snprintf(cpu, sizeof(cpu), "all");
		else
			snprintf(cpu, sizeof(cpu), "%u", d->cpu);
		csv_num(busy, sizeof(busy), d->busy_pct, 2);
		csv_num(khz, sizeof(khz), d->avg_khz, 0);
		csv_num(wk, sizeof(wk), d->wakeups_per_s, 1);
		if (!r->opt->cstates || !d->nstates) {
			idx[0] = res[0] = ent[0] = '\0';
			row[3] = "";
			pm_out_csv_row(r->o, 10, row);
			continue;
		}
		for (int i = 0; i < d->nstates; i++) {
			snprintf(idx, sizeof(idx), "%d", i);
			row[3] = cpu_state_name(r->s, d, i);
			csv_num(res, sizeof(res), d->res_pct[i], 2);
			csv_num(ent, sizeof(ent), d->entries_per_s[i], 1);
			pm_out_csv_row(r->o, 10, row);
		}
	}
}

static void prom_report(struct report *r)
{
	struct pm_out *o = r->o;
	char cpu[16];

	pm_out_prom_meta(o, "pm_cpu_busy_percent", "gauge",
			 "Share of the last interval the CPU was not idle "
			 "(/proc/stat).");
	for (int c = 0; c < r->s->ncpu; c++) {
		const char *l[] = { "cpu", cpu, NULL };

		if (!isfinite(r->d[c].busy_pct))
			continue;
		snprintf(cpu, sizeof(cpu), "%u", r->d[c].cpu);
		pm_out_prom_sample(o, "pm_cpu_busy_percent", l,
				   r->d[c].busy_pct);
	}
	if (r->opt->cstates) {
		pm_out_prom_meta(o, "pm_cpuidle_state_residency_percent",
				 "gauge",
				 "Share of the last interval in the idle "
				 "state.");
		for (int c = 0; c < r->s->ncpu; c++)
			for (int i = 0; i < r->d[c].nstates; i++) {
				const char *l[] = {
					"cpu", cpu, "state",
					cpu_state_name(r->s, &r->d[c], i), NULL
				};

				if (!isfinite(r->d[c].res_pct[i]))
					continue;
				snprintf(cpu, sizeof(cpu), "%u", r->d[c].cpu);
				pm_out_prom_sample(
					o, "pm_cpuidle_state_residency_percent",
					l, r->d[c].res_pct[i]);
			}
		pm_out_prom_meta(o, "pm_cpuidle_state_time_seconds_total",
				 "counter",
				 "Time spent in the cpuidle state since boot.");
		for (int c = 0; c < r->s->ncpu; c++) {
			const struct pm_scpu *sc = &r->s->cpu[c];

			for (int i = 0; sc->online && i < sc->nstates; i++) {
				const char *l[] = { "cpu", cpu, "state",
						    sc->names[i], NULL };

				if (sc->time_us[i] == PM_UNKNOWN)
					continue;
				snprintf(cpu, sizeof(cpu), "%u", sc->cpu);
				pm_out_prom_sample(
					o, "pm_cpuidle_state_time_seconds_total",
					l, (double)sc->time_us[i] / 1e6);
			}
		}
		pm_out_prom_meta(o, "pm_cpuidle_state_usage_total", "counter",
				 "Entries into the cpuidle state since boot.");
		for (int c = 0; c < r->s->ncpu; c++) {
			const struct pm_scpu *sc = &r->s->cpu[c];

			for (int i = 0; sc->online && i < sc->nstates; i++) {
				const char *l[] = { "cpu", cpu, "state",
						    sc->names[i], NULL };

				if (sc->usage[i] == PM_UNKNOWN)
					continue;
				snprintf(cpu, sizeof(cpu), "%u", sc->cpu);
				pm_out_prom_sample_u64(
					o, "pm_cpuidle_state_usage_total", l,
					sc->usage[i]);
			}
		}
	}
	if (r->opt->pstates) {
		pm_out_prom_meta(o, "pm_cpufreq_average_hz", "gauge",
				 "Average frequency over the last interval "
				 "(cpufreq stats).");
		for (int c = 0; c < r->s->ncpu; c++) {
			const char *l[] = { "cpu", cpu, NULL };

			if (!isfinite(r->d[c].avg_khz))
				continue;
			snprintf(cpu, sizeof(cpu), "%u", r->d[c].cpu);
			pm_out_prom_sample(o, "pm_cpufreq_average_hz", l,
					   r->d[c].avg_khz * 1000.0);
		}
	}
	if (r->opt->wakeups) {
		pm_out_prom_meta(o, "pm_cpu_wakeups_per_second", "gauge",
				 "Interrupts per second on the CPU over the "
				 "last interval.");
		for (int c = 0; c < r->s->ncpu; c++) {
			const char *l[] = { "cpu", cpu, NULL };

			if (!isfinite(r->d[c].wakeups_per_s))
				continue;
			snprintf(cpu, sizeof(cpu), "%u", r->d[c].cpu);
			pm_out_prom_sample(o, "pm_cpu_wakeups_per_second", l,
					   r->d[c].wakeups_per_s);
		}
	}
	if (r->opt->power) {
		pm_out_prom_meta(o, "pm_rapl_power_watts", "gauge",
				 "Power of the RAPL zone over the last "
				 "interval.");
		for (int i = 0; i < r->s->nrapl; i++) {
			const struct pm_rapl_zone *z = &r->s->rapl[i];
			uint64_t de = pm_delta_wrap(r->p->rapl[i], z->energy_uj,
						    z->max_range_uj);
			const char *l[] = { "zone", rapl_id(z), "name", z->name,
					    NULL };

			if (de == PM_UNKNOWN)
				continue;
			pm_out_prom_sample(o, "pm_rapl_power_watts", l,
					   (double)de / 1e6 / r->dt);
		}
	}
}

/* One report of the deltas between p and the sampler's last reading. */
static void report(struct pm_tool *t, struct report *r, struct pm_out *o)
{
	struct cdelta sum;
	struct irq_top top[TOP_IRQS];
	uint64_t irq_total = 0;
	int ntop = 0;

	for (int c = 0; c < r->s->ncpu; c++)
		cpu_delta(r->s, r->p, c, r->dt, &r->d[c]);
	summarize(r, &sum);
	if (r->opt->wakeups && r->s->fd_irq >= 0) {
		irq_total = irq_sum(r->s, r->p, r->d);
		ntop = irq_rows_comparable(r->s, r->p, r->d) ?
			       top_irqs(r->s, r->p, top) :
			       -1;
	}
	r->o = o;
	switch (o->fmt) {
	case PM_FMT_HUMAN:
		human_report(r, &sum, top, ntop, irq_total);
		break;
	case PM_FMT_JSON:
	case PM_FMT_KV:
		json_report(r, &sum, top, ntop, irq_total);
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
	struct prev first, prev;
	struct report r;
	struct pm_out out;	/* stdout, opened at the first report */
	bool out_open;
};

static void run_open(struct pm_tool *t, struct pm_ctx *ctx,
		     const struct pm_cpuset *sel, const struct cs_opts *opt,
		     struct run *run)
{
	int e = pm_sampler_open(ctx, &run->s, sel, flags_of(opt));

	if (e < 0)
		pm_die(t, PM_EXIT_FAIL, "cannot start sampling: %s",
		       strerror(-e));
	if (prev_alloc(&run->first, &run->s) < 0 ||
	    prev_alloc(&run->prev, &run->s) < 0)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
	run->r.d = calloc((size_t)run->s.ncpu + 1, sizeof(*run->r.d));
	if (!run->r.d)
		pm_die(t, PM_EXIT_FAIL, "out of memory");
	run->r.opt = opt;
	run->r.s = &run->s;
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
	prev_free(&run->first);
	prev_free(&run->prev);
	free(run->r.d);
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

static void stamp(struct prev *p)
{
	clock_gettime(CLOCK_MONOTONIC, &p->mono);
	clock_gettime(CLOCK_REALTIME, &p->real);
}

static void emit(struct pm_tool *t, struct run *run, const struct prev *from,
		 const struct timespec *now_mono,
		 const struct timespec *now_real, const char *period)
{
	struct pm_out o;

	run->r.p = from;
	run->r.dt = ts_diff(&from->mono, now_mono);
	run->r.epoch =
		(double)now_real->tv_sec + (double)now_real->tv_nsec / 1e9;
	run->r.period = period;
	/* With --output every report replaces the file. */
	if (t->output) {
		pm_tool_out(t, &o);
		o.compact = run->r.jsonl;
		run->r.header_done = false;
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

int cs_run_interval(struct pm_tool *t, struct pm_ctx *ctx,
		    const struct pm_cpuset *sel, const struct cs_opts *opt)
{
	struct run run;
	struct timespec next, now_mono, now_real;
	uint64_t n = 0;
	int64_t step = (int64_t)opt->interval_us * 1000;

	memset(&run, 0, sizeof(run));
	run_open(t, ctx, sel, opt, &run);
	run.r.jsonl = true;
	catch_signals();
	pm_sampler_read(&run.s);
	say_fallback(t, &run.s);
	stamp(&run.first);
	prev_save(&run.first, &run.s);
	run.prev.mono = run.first.mono;
	run.prev.real = run.first.real;
	prev_save(&run.prev, &run.s);
	next = run.first.mono;
	while (!stop_signal && (!opt->count || n < opt->count)) {
		/* Absolute deadlines: the k-th sample is due at start + k*i. */
		int64_t ns = next.tv_nsec + step % NSEC_PER_SEC;

		next.tv_sec += (time_t)(step / NSEC_PER_SEC + ns / NSEC_PER_SEC);
		next.tv_nsec = ns % NSEC_PER_SEC;
		while (!stop_signal &&
		       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
				       NULL) == EINTR)
			;
		pm_sampler_read(&run.s);
		clock_gettime(CLOCK_MONOTONIC, &now_mono);
		clock_gettime(CLOCK_REALTIME, &now_real);
		if (ts_diff(&run.prev.mono, &now_mono) <= 0)
			continue;
		emit(t, &run, &run.prev, &now_mono, &now_real, "sample");
		n++;
		prev_save(&run.prev, &run.s);
		run.prev.mono = now_mono;
		run.prev.real = now_real;
		if (t->verbose > 1)
			pm_warn(t, "sample %llu: %llu reads for %llu values",
				(unsigned long long)n,
				(unsigned long long)run.s.syscalls,
				(unsigned long long)run.s.values);
	}
	/* Interrupted: the whole run since the first reading, then exit 0. */
	if (stop_signal && n > 0 && t->fmt != PM_FMT_PROM)
		emit(t, &run, &run.first, &run.prev.mono, &run.prev.real,
		     "run");
	run_close(t, &run);
	return PM_EXIT_OK;
}

int cs_run_command(struct pm_tool *t, struct pm_ctx *ctx,
		   const struct pm_cpuset *sel, const struct cs_opts *opt)
{
	struct run run;
	struct timespec now_mono, now_real;
	struct pm_child child;
	int st, child_err, r;

	memset(&run, 0, sizeof(run));
	run_open(t, ctx, sel, opt, &run);
	pm_sampler_read(&run.s);
	say_fallback(t, &run.s);
	stamp(&run.first);
	prev_save(&run.first, &run.s);
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
	pm_sampler_read(&run.s);
	clock_gettime(CLOCK_MONOTONIC, &now_mono);
	clock_gettime(CLOCK_REALTIME, &now_real);
	emit(t, &run, &run.first, &now_mono, &now_real, "command");
	run_close(t, &run);
	return st;
}
