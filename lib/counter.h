/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: kernel counters: resets, step-backs and wraps, rates, and the
 * CPU time split (lib/counter.c).
 */
#ifndef PM_COUNTER_H
#define PM_COUNTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "proc.h"

/*
 * What a counter did between two readings when that is not a plain
 * increase, and what a share or rate would have been out of its range.
 * Each is decided per field (lib/counter.c), counted, and shown (a JSON
 * field, and named with -v): never hidden.
 */
enum pm_anom {
	PM_ANOM_RESET,		/* lower, and small: counted from 0 */
	PM_ANOM_STEP_BACK,	/* lower, not a reset: counted as no change */
	PM_ANOM_WRAP,		/* a 32-bit count went past 2^32 - 1 */
	PM_ANOM_TOO_FAST,	/* more than hardware can count: unknown */
	PM_ANOM_OVER_INTERVAL,	/* more time than the interval: 100 % */
	PM_ANOM_OVER_UPTIME,	/* more time than since boot: unknown */
	PM_ANOM_UNKNOWN,	/* the kernel's "unknown" (all bits set) */
	PM_ANOM_MALFORMED,	/* a line that does not parse */
	PM_ANOM_KINDS
};

/* The first few anomalies are described for -v; all are counted. */
#define PM_ANOM_NOTES 8
#define PM_ANOM_NOTE_MAX 160

struct pm_anoms {
	uint64_t n[PM_ANOM_KINDS];
	int nnotes;
	char note[PM_ANOM_NOTES][PM_ANOM_NOTE_MAX];
};

/* The JSON key of a kind: "reset", "step_back", "wrap", ... */
const char *pm_anom_name(enum pm_anom k);
void pm_anoms_clear(struct pm_anoms *a);
uint64_t pm_anoms_total(const struct pm_anoms *a);
/* Count one, and describe it while there is room. */
void pm_anom(struct pm_anoms *a, enum pm_anom k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Counter kinds: what their unit is and how fast they can move. */
enum pm_ctr {
	PM_CTR_TIME_US,		/* cpuidle time, s390 idle_time_us */
	PM_CTR_EVENTS,		/* cpuidle usage, s390 idle_count */
	PM_CTR_TICKS,		/* /proc/stat and time_in_state: USER_HZ */
	PM_CTR_IRQ32,		/* one /proc/interrupts count: 32 bits */
};

/*
 * An idle entry and exit take well over 100 ns on every CPU, and so does
 * taking an interrupt: ten million a second is more than any CPU does.
 */
#define PM_EVENTS_PER_S_MAX 10000000.0

/* Two readings, dt seconds apart (the later one uptime_s after boot). */
struct pm_dctx {
	double dt;
	double uptime_s;	/* NAN unknown */
	struct pm_anoms *an;
};

/* Where a counter is, for the notes: "cpu1 state2 time". */
struct pm_ctr_id {
	int cpu;		/* -1: not a CPU's */
	int idx;		/* idle state index, -1 none */
	const char *field;	/* "time", "iowait", an IRQ's label */
};

/* The largest increase of a counter of kind k in dt seconds. */
uint64_t pm_ctr_ceiling(enum pm_ctr k, double dt);
/*
 * The increase from prev to cur, decided: PM_UNKNOWN when either is
 * unknown or the increase is more than the hardware can count; a 32-bit
 * wrap undone; a value lower than before is a reset (counted from 0) when
 * it fell by more than the interval allows to a value it could have
 * reached since, else a step back (no change).
 */
uint64_t pm_ctr_delta(const struct pm_dctx *d, enum pm_ctr k, uint64_t prev,
		      uint64_t cur, const struct pm_ctr_id *id);
/*
 * Time in a state over the interval, in %: above 100 (the kernel counts
 * an idle period when it ends) is 100 and counted.  NAN when unknown.
 */
double pm_share_interval(const struct pm_dctx *d, uint64_t time_us,
			 const struct pm_ctr_id *id);
/*
 * Time in a state since boot over ncpu CPUs, in %: NAN (and counted)
 * when it is more than the time since boot can hold.
 */
double pm_share_boot(struct pm_anoms *a, uint64_t time_us, double uptime_s,
		     unsigned ncpu, const struct pm_ctr_id *id);
/* Events per second; NAN for unknown. */
double pm_rate(uint64_t n, double dt);
/* The kernel prints (u32)-1 for a latency or residency it does not know. */
static inline uint64_t pm_known_u32(uint64_t v)
{
	return v == UINT32_MAX ? PM_UNKNOWN : v;
}

/* A CPU's time split as people read it, in % of its ticks. */
enum pm_ct {
	PM_CT_BUSY,		/* neither idle nor iowait */
	PM_CT_USER,		/* user + nice (guests inside) */
	PM_CT_SYSTEM,
	PM_CT_IOWAIT,
	PM_CT_IRQ,		/* irq + softirq */
	PM_CT_STEAL,		/* the hypervisor ran something else */
	PM_CT_IDLE,
	PM_CT_KINDS,
};

struct pm_cputime {
	double pct[PM_CT_KINDS];	/* NAN unknown */
};

/* "busy", "user", "system", "iowait", "irq", "steal", "idle". */
const char *pm_ct_name(enum pm_ct k);
/* Since boot: the fields as shares of their sum. */
void pm_cputime_boot(const struct pm_cpu_ticks *t, struct pm_cputime *ct);
/* Between two readings: each field's increase decided on its own. */
void pm_cputime_delta(const struct pm_dctx *d, unsigned cpu,
		      const struct pm_cpu_ticks *a,
		      const struct pm_cpu_ticks *b, struct pm_cputime *ct);
/* USER_HZ: the unit of /proc/stat and of cpufreq's time_in_state. */
double pm_user_hz(void);

#endif /* PM_COUNTER_H */
