// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deltas between two readings of a sampler: every counter through
 * the decisions of counter.c, interrupts per row and per CPU (each count
 * wraps on its own), and the shares and rates an interval report shows.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delta.h"
#include "core.h"
#include "cpufreq.h"
#include "proc.h"
#include "counter.h"
#include "sample.h"

int pm_reading_alloc(struct pm_reading *r, const struct pm_sampler *s)
{
	size_t n = (size_t)(s->ncpu ? s->ncpu : 1);
	size_t np = (size_t)(s->npol ? s->npol : 1);

	memset(r, 0, sizeof(*r));
	r->uptime_s = NAN;
	r->cpu = calloc(n, sizeof(*r->cpu));
	r->ntis = calloc(np, sizeof(*r->ntis));
	r->tis = calloc(np * PM_MAX_FREQS, sizeof(*r->tis));
	if (!r->cpu || !r->ntis || !r->tis) {
		pm_reading_free(r);
		return -ENOMEM;
	}
	return 0;
}

void pm_reading_free(struct pm_reading *r)
{
	free(r->cpu);
	free(r->ntis);
	free(r->tis);
	pm_irq_table_free(&r->irq);
	memset(r, 0, sizeof(*r));
}

int pm_reading_take(struct pm_reading *r, const struct pm_sampler *s)
{
	r->ncpu = s->ncpu;
	for (int c = 0; c < s->ncpu; c++) {
		const struct pm_scpu *sc = &s->cpu[c];
		struct pm_rcpu *rc = &r->cpu[c];

		rc->online = sc->online;
		rc->nstates = sc->online ? sc->nstates : 0;
		for (int i = 0; i < PM_MAX_IDLE_STATES; i++) {
			bool have = sc->online && i < sc->nstates;

			rc->usage[i] = have ? sc->usage[i] : PM_UNKNOWN;
			rc->time_us[i] = have ? sc->time_us[i] : PM_UNKNOWN;
		}
		rc->ticks = sc->ticks;
		rc->s390_count = sc->online ? sc->s390_count : PM_UNKNOWN;
		rc->s390_time_us = sc->online ? sc->s390_time_us : PM_UNKNOWN;
	}
	r->npol = s->npol;
	for (int i = 0; i < s->npol; i++) {
		r->ntis[i] = s->pol[i].n_tis;
		memcpy(&r->tis[(size_t)i * PM_MAX_FREQS], s->pol[i].tis,
		       sizeof(struct pm_tis) * (size_t)s->pol[i].n_tis);
	}
	for (int i = 0; i < s->nrapl && i < PM_MAX_RAPL; i++)
		r->rapl[i] = s->rapl[i].energy_uj;
	r->uptime_s = s->uptime_s;
	r->unknown_values = s->unknown_values;
	r->have_irq = s->have_irq;
	if (s->have_irq)
		return pm_irq_table_copy(&r->irq, &s->irq);
	return 0;
}

int pm_delta_alloc(struct pm_delta *d, const struct pm_sampler *s)
{
	memset(d, 0, sizeof(*d));
	d->cpu = calloc((size_t)(s->ncpu ? s->ncpu : 1), sizeof(*d->cpu));
	d->energy_uj = calloc(PM_MAX_RAPL, sizeof(*d->energy_uj));
	/* A table keeps the columns of selected CPUs only. */
	d->colsum = calloc((size_t)(s->ncpu ? s->ncpu : 1),
			   sizeof(*d->colsum));
	d->pol_khz = calloc((size_t)(s->npol ? s->npol : 1),
			    sizeof(*d->pol_khz));
	if (!d->cpu || !d->energy_uj || !d->colsum || !d->pol_khz) {
		pm_delta_free(d);
		return -ENOMEM;
	}
	return 0;
}

void pm_delta_free(struct pm_delta *d)
{
	free(d->cpu);
	free(d->row);
	free(d->energy_uj);
	free(d->colsum);
	free(d->pol_khz);
	memset(d, 0, sizeof(*d));
}

/* Average frequency of a policy from its time_in_state deltas. */
static double avg_khz(const struct pm_dctx *dc, const struct pm_sampler *s,
		      const struct pm_reading *a, const struct pm_reading *b,
		      int pol)
{
	const struct pm_tis *ta = &a->tis[(size_t)pol * PM_MAX_FREQS];
	const struct pm_tis *tb = &b->tis[(size_t)pol * PM_MAX_FREQS];
	double sum = 0, ticks = 0;
	uint64_t total = 0;
	bool known = true;

	if (!b->ntis[pol] || b->ntis[pol] != a->ntis[pol])
		return NAN;
	char what[48];
	struct pm_ctr_id id = { -1, -1, what };

	snprintf(what, sizeof(what), "policy%u time_in_state", s->pol[pol].id);
	for (int i = 0; i < b->ntis[pol]; i++) {
		uint64_t d;

		if (ta[i].khz != tb[i].khz)
			return NAN;
		d = pm_ctr_delta(dc, PM_CTR_TICKS, ta[i].ticks, tb[i].ticks,
				 &id);
		/* Every entry is decided, so that each anomaly is counted. */
		if (d == PM_UNKNOWN) {
			known = false;
			continue;
		}
		total += d;
		sum += (double)d * (double)tb[i].khz;
		ticks += (double)d;
	}
	if (!known)
		return NAN;
	/* A policy counts its time once, whatever its CPUs do. */
	if (total > pm_ctr_ceiling(PM_CTR_TICKS, dc->dt)) {
		pm_anom(dc->an, PM_ANOM_TOO_FAST,
			"policy%u time_in_state: %llu ticks in %.3f s: unknown",
			s->pol[pol].id, (unsigned long long)total, dc->dt);
		return NAN;
	}
	return ticks > 0 ? sum / ticks : NAN;
}

static void cpu_unknown(struct pm_cpu_delta *cd)
{
	for (int k = 0; k < PM_CT_KINDS; k++)
		cd->ct.pct[k] = NAN;
	cd->idle_src = PM_IDLE_SRC_NONE;
	cd->irqs = PM_UNKNOWN;
	cd->wakeups_per_s = cd->avg_khz = NAN;
	cd->s390_count = cd->s390_time_us = PM_UNKNOWN;
	cd->s390_idle_pct = cd->s390_entries_per_s = NAN;
	cd->nstates = 0;
}

static void cpu_delta(const struct pm_dctx *dc, const struct pm_delta *d,
		      const struct pm_sampler *s, const struct pm_reading *a,
		      const struct pm_reading *b, int c,
		      struct pm_cpu_delta *cd)
{
	const struct pm_rcpu *ra = &a->cpu[c], *rb = &b->cpu[c];
	unsigned cpu = s->cpu[c].cpu;

	cd->cpu = cpu;
	cd->online = rb->online;
	cpu_unknown(cd);
	if (!rb->online)
		return;
	cd->nstates = rb->nstates;
	for (int i = 0; i < rb->nstates; i++) {
		struct pm_ctr_id tid = { (int)cpu, i, "time" };
		struct pm_ctr_id uid = { (int)cpu, i, "usage" };
		uint64_t pu = ra->online && i < ra->nstates ? ra->usage[i] :
							      PM_UNKNOWN;
		uint64_t pt = ra->online && i < ra->nstates ? ra->time_us[i] :
							      PM_UNKNOWN;

		cd->dusage[i] = pm_ctr_delta(dc, PM_CTR_EVENTS, pu,
					     rb->usage[i], &uid);
		cd->dtime_us[i] = pm_ctr_delta(dc, PM_CTR_TIME_US, pt,
					       rb->time_us[i], &tid);
		cd->res_pct[i] = pm_share_interval(dc, cd->dtime_us[i], &tid);
		cd->entries_per_s[i] = pm_rate(cd->dusage[i], dc->dt);
	}
	if (ra->online) {
		pm_cputime_delta(dc, cpu, &ra->ticks, &rb->ticks, &cd->ct);
		if (isfinite(cd->ct.pct[PM_CT_IDLE]))
			cd->idle_src = PM_IDLE_SRC_PROC_STAT;
	}
	if (ra->online) {
		struct pm_ctr_id tid = { (int)cpu, -1, "s390 idle_time_us" };
		struct pm_ctr_id cid = { (int)cpu, -1, "s390 idle_count" };

		cd->s390_time_us = pm_ctr_delta(dc, PM_CTR_TIME_US,
						ra->s390_time_us,
						rb->s390_time_us, &tid);
		cd->s390_count = pm_ctr_delta(dc, PM_CTR_EVENTS,
					      ra->s390_count, rb->s390_count,
					      &cid);
		cd->s390_idle_pct = pm_share_interval(dc, cd->s390_time_us,
						      &tid);
		cd->s390_entries_per_s = pm_rate(cd->s390_count, dc->dt);
	}
	/*
	 * s390's own idle time is the idle figure there: it counts every
	 * wait of the CPU, with I/O pending or not, so busy is the rest.
	 */
	if (isfinite(cd->s390_idle_pct)) {
		cd->ct.pct[PM_CT_IDLE] = cd->s390_idle_pct;
		cd->ct.pct[PM_CT_BUSY] = 100.0 - cd->s390_idle_pct;
		cd->idle_src = PM_IDLE_SRC_S390;
	}
	if (s->cpu[c].policy >= 0)
		cd->avg_khz = d->pol_khz[s->cpu[c].policy];
}

/* Where row r of b was in a: the same place, or searched by label. */
static int row_in(const struct pm_irq_table *a, const struct pm_irq_table *b,
		  int r)
{
	const char *label = b->rows[r].label;

	if (r < a->nrows && !strcmp(a->rows[r].label, label))
		return r;
	for (int i = 0; i < a->nrows; i++)
		if (!strcmp(a->rows[i].label, label))
			return i;
	return -1;
}

static int irq_delta(struct pm_delta *d, const struct pm_dctx *dc,
		     const struct pm_sampler *s, const struct pm_reading *a,
		     const struct pm_reading *b)
{
	const struct pm_irq_table *ta = &a->irq, *tb = &b->irq;
	uint64_t *cpu_sum = d->colsum;
	int *colmap = s->colmap;

	d->have_irq = a->have_irq && b->have_irq;
	d->nrows = 0;
	d->irq_total = 0;
	if (!d->have_irq)
		return 0;
	if (tb->nrows > d->caprows) {
		uint64_t *nr = realloc(d->row, (size_t)tb->nrows * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		d->row = nr;
		d->caprows = tb->nrows;
	}
	if (tb->ncol > s->ncpu)
		return -EINVAL;
	memset(cpu_sum, 0, (size_t)tb->ncol * sizeof(*cpu_sum));
	/* Column of each CPU of b in a, or -1: only CPUs listed at both. */
	for (int k = 0; k < tb->ncol; k++)
		colmap[tb->col[k]] = -1;
	for (int k = 0; k < ta->ncol; k++)
		colmap[ta->col[k]] = k;
	d->nrows = tb->nrows;
	for (int r = 0; r < tb->nrows; r++) {
		int ra = row_in(ta, tb, r);
		uint64_t sum = 0;

		d->row[r] = PM_UNKNOWN;
		if (ra < 0)
			continue;
		for (int k = 0; k < tb->ncol; k++) {
			int ka = colmap[tb->col[k]];
			struct pm_ctr_id id = { (int)tb->col[k], -1,
						tb->rows[r].label };
			uint64_t x;

			if (ka < 0)
				continue;
			x = pm_ctr_delta(dc, PM_CTR_IRQ32,
					 ta->cells[(size_t)ra * ta->ncol + ka],
					 tb->cells[(size_t)r * tb->ncol + k],
					 &id);
			if (x == PM_UNKNOWN)
				continue;
			sum += x;
			cpu_sum[k] += x;
		}
		d->row[r] = sum;
	}
	for (int c = 0; c < s->ncpu; c++) {
		struct pm_cpu_delta *cd = &d->cpu[c];
		int k;

		for (k = 0; k < tb->ncol && tb->col[k] != cd->cpu; k++)
			;
		if (!cd->online || k == tb->ncol || colmap[cd->cpu] < 0)
			continue;
		/* A CPU takes no more interrupts than it can handle. */
		if (cpu_sum[k] > pm_ctr_ceiling(PM_CTR_IRQ32, dc->dt)) {
			pm_anom(dc->an, PM_ANOM_TOO_FAST,
				"cpu%u: %llu interrupts in %.3f s: unknown",
				cd->cpu, (unsigned long long)cpu_sum[k],
				dc->dt);
			continue;
		}
		cd->irqs = cpu_sum[k];
		cd->wakeups_per_s = pm_rate(cd->irqs, dc->dt);
		d->irq_total += cd->irqs;
	}
	return 0;
}

int pm_delta_compute(struct pm_delta *d, const struct pm_sampler *s,
		     const struct pm_reading *a, const struct pm_reading *b,
		     double dt)
{
	struct pm_dctx dc = { dt, b->uptime_s, &d->an };

	pm_anoms_clear(&d->an);
	d->dt = dt;
	d->ncpu = s->ncpu;
	for (uint64_t i = 0; i < b->unknown_values; i++)
		pm_anom(&d->an, PM_ANOM_UNKNOWN,
			"a counter read as 18446744073709551615 (all bits "
			"set): unknown");
	/* A policy's time is counted once, whatever its CPUs do. */
	for (int i = 0; i < s->npol; i++)
		d->pol_khz[i] = avg_khz(&dc, s, a, b, i);
	for (int c = 0; c < s->ncpu; c++)
		cpu_delta(&dc, d, s, a, b, c, &d->cpu[c]);
	for (int i = 0; i < s->npol; i++)
		if (s->pol[i].tis_bad_line)
			pm_anom(&d->an, PM_ANOM_MALFORMED,
				"%s/stats/time_in_state: line %d is malformed",
				s->pol[i].path, s->pol[i].tis_bad_line);
	for (int i = 0; i < s->nrapl && i < PM_MAX_RAPL; i++)
		d->energy_uj[i] = pm_delta_wrap(a->rapl[i], b->rapl[i],
						s->rapl[i].max_range_uj);
	return irq_delta(d, &dc, s, a, b);
}

int pm_delta_top(const struct pm_delta *d, int *rows, int n)
{
	int k = 0;

	for (int r = 0; r < d->nrows; r++) {
		uint64_t x = d->row[r];
		int j;

		if (x == PM_UNKNOWN || !x)
			continue;
		if (k == n && d->row[rows[n - 1]] >= x)
			continue;
		j = k < n ? k++ : n - 1;
		while (j > 0 && d->row[rows[j - 1]] < x) {
			rows[j] = rows[j - 1];
			j--;
		}
		rows[j] = r;
	}
	return k;
}
