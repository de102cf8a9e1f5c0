/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: what changed between two samples (lib/delta.c).
 */
#ifndef PM_DELTA_H
#define PM_DELTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "cpufreq.h"
#include "proc.h"
#include "counter.h"
#include "sample.h"

/* One CPU's counters at one reading. */
struct pm_rcpu {
	bool online;
	int nstates;
	uint64_t usage[PM_MAX_IDLE_STATES], time_us[PM_MAX_IDLE_STATES];
	struct pm_cpu_ticks ticks;
	uint64_t s390_count, s390_time_us;
};

/* A copy of the sampler's last reading, to take deltas from later. */
struct pm_reading {
	int ncpu;
	struct pm_rcpu *cpu;
	int npol;
	int *ntis;
	struct pm_tis *tis;	/* [pol * PM_MAX_FREQS + i] */
	uint64_t rapl[PM_MAX_RAPL];
	struct pm_irq_table irq;
	bool have_irq;
	double uptime_s;
	uint64_t unknown_values;
};

int pm_reading_alloc(struct pm_reading *r, const struct pm_sampler *s);
/* Copy the sampler's last reading (allocates only when /proc/interrupts
 * grew). */
int pm_reading_take(struct pm_reading *r, const struct pm_sampler *s);
void pm_reading_free(struct pm_reading *r);

/* Where a CPU's idle share comes from. */
enum pm_idle_src {
	PM_IDLE_SRC_NONE,
	PM_IDLE_SRC_PROC_STAT,	/* idle of /proc/stat */
	PM_IDLE_SRC_S390,	/* s390's idle_time_us */
};

struct pm_cpu_delta {
	unsigned cpu;
	bool online;
	struct pm_cputime ct;	/* busy and idle from idle_src */
	enum pm_idle_src idle_src;
	uint64_t irqs;		/* interrupts; PM_UNKNOWN */
	double wakeups_per_s;	/* NAN unknown */
	double avg_khz;		/* NAN unknown */
	int nstates;
	double res_pct[PM_MAX_IDLE_STATES], entries_per_s[PM_MAX_IDLE_STATES];
	uint64_t dusage[PM_MAX_IDLE_STATES], dtime_us[PM_MAX_IDLE_STATES];
	uint64_t s390_count, s390_time_us;	/* increases, PM_UNKNOWN */
	double s390_idle_pct, s390_entries_per_s;
};

/* Every decision between two readings of one sampler. */
struct pm_delta {
	double dt;
	int ncpu;
	struct pm_cpu_delta *cpu;
	bool have_irq;		/* both readings have /proc/interrupts */
	uint64_t irq_total;	/* over CPUs with a column at both */
	int nrows;		/* rows of the later reading */
	int caprows;
	uint64_t *row;		/* their increases; PM_UNKNOWN for new rows */
	uint64_t *energy_uj;	/* per RAPL zone, PM_UNKNOWN */
	uint64_t *colsum;	/* per column: interrupts (scratch) */
	double *pol_khz;	/* per policy: its average frequency */
	struct pm_anoms an;
};

int pm_delta_alloc(struct pm_delta *d, const struct pm_sampler *s);
void pm_delta_free(struct pm_delta *d);
/* From reading a to reading b, dt seconds later. */
int pm_delta_compute(struct pm_delta *d, const struct pm_sampler *s,
		     const struct pm_reading *a, const struct pm_reading *b,
		     double dt);
/* The n rows of b that moved most, most first: their indices. */
int pm_delta_top(const struct pm_delta *d, int *rows, int n);

/* A counter delta; a counter that went backwards was reset: count from 0. */
static inline uint64_t pm_delta(uint64_t prev, uint64_t cur)
{
	if (prev == PM_UNKNOWN || cur == PM_UNKNOWN)
		return PM_UNKNOWN;
	return cur >= prev ? cur - prev : cur;
}

/* An energy counter that wraps at max: cur + (max - prev) after a wrap. */
static inline uint64_t pm_delta_wrap(uint64_t prev, uint64_t cur,
				     uint64_t max)
{
	if (prev == PM_UNKNOWN || cur == PM_UNKNOWN)
		return PM_UNKNOWN;
	if (cur >= prev)
		return cur - prev;
	return max != PM_UNKNOWN && max >= prev ? cur + (max - prev) : cur;
}

#endif /* PM_DELTA_H */
