/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the sampler: C-state, P-state and CPU-time readings of the
 * selected CPUs (lib/sample.c).
 */
#ifndef PM_SAMPLE_H
#define PM_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "cpuset.h"
#include "cpufreq.h"
#include "proc.h"

/*
 * A sampler keeps every attribute it samples open and re-reads it with
 * pread(fd, ..., 0): one syscall per value, no allocation after open.
 * A CPU that goes offline is marked so (values PM_UNKNOWN) and its files
 * are re-opened when it comes back.
 */

struct pm_rapl_zone {
	char name[PM_NAME_MAX];	/* package-0, core, dram ... */
	char path[96];
	int fd;			/* -1: not readable */
	int err;		/* why not (EACCES: root only) */
	uint64_t max_range_uj;
	uint64_t energy_uj;	/* last reading, PM_UNKNOWN if none */
};

struct pm_scpu {
	unsigned cpu;
	bool online;
	int nstates;
	char names[PM_MAX_IDLE_STATES][PM_NAME_MAX];
	uint64_t latency_us[PM_MAX_IDLE_STATES];
	int fd_usage[PM_MAX_IDLE_STATES], fd_time[PM_MAX_IDLE_STATES];
	int fd_disable[PM_MAX_IDLE_STATES];
	int fd_s390_count, fd_s390_time;
	/* the last reading */
	uint64_t usage[PM_MAX_IDLE_STATES], time_us[PM_MAX_IDLE_STATES];
	int disabled[PM_MAX_IDLE_STATES];
	struct pm_cpu_ticks ticks;	/* total PM_UNKNOWN if absent */
	uint64_t irqs;			/* interrupts on this CPU (wakeups);
					   PM_UNKNOWN without a column */
	uint64_t s390_count, s390_time_us;	/* PM_UNKNOWN elsewhere */
	int policy;			/* index into pm_sampler.pol, -1 */
	int nstates_seen;		/* states at the last full opening */
	int tries;			/* openings that found fewer */
	bool pending;			/* states not there yet: values unknown */
};

struct pm_spol {
	unsigned id;
	char path[96];		/* for reads by path past the fd budget */
	struct pm_cpuset cpus;
	int fd_tis, fd_cur;
	int n_tis;
	struct pm_tis tis[PM_MAX_FREQS];
	int tis_bad_line;	/* time_in_state's malformed line, 0 none */
	uint64_t cur_khz;
};

enum {
	PM_SAMPLE_CSTATES = 1 << 0,
	PM_SAMPLE_PSTATES = 1 << 1,
	PM_SAMPLE_WAKEUPS = 1 << 2,
	PM_SAMPLE_POWER = 1 << 3,
	PM_SAMPLE_BUSY = 1 << 4,
};

/* /proc/interrupts has a few hundred rows; a budget keeps memory fixed. */
#define PM_MAX_IRQ_ROWS 2048
#define PM_MAX_RAPL 16

struct pm_sampler {
	struct pm_ctx *ctx;
	unsigned flags;
	int ncpu;
	struct pm_scpu *cpu;
	int npol;
	struct pm_spol *pol;
	int fd_online, fd_stat, fd_irq, fd_uptime;
	char *buf;		/* for /proc/stat and /proc/interrupts */
	size_t bufcap;
	struct pm_cpuset sel;	/* the sampled CPUs */
	struct pm_irq_table irq;	/* the last reading's */
	bool have_irq;		/* it was read */
	struct pm_cpu_ticks *ticks;	/* parse space, PM_MAX_CPUS */
	int *colmap;		/* delta space: CPU -> column, PM_MAX_CPUS */
	bool s390;		/* s390's per-CPU idle statistics are there */
	double uptime_s;	/* at the last reading, NAN unknown */
	uint64_t unknown_values;	/* all-ones values at the last reading */
	int nrapl;
	struct pm_rapl_zone rapl[PM_MAX_RAPL];
	unsigned fd_budget;	/* fds we may keep open */
	unsigned fds_open;
	unsigned fallback;	/* values read by open/read/close */
	uint64_t syscalls;	/* reads made by the last pm_sampler_read */
	uint64_t values;	/* values read by it */
};

int pm_sampler_open(struct pm_ctx *ctx, struct pm_sampler *s,
		    const struct pm_cpuset *sel, unsigned flags);
/* Take one reading into the sampler's "last reading" fields. */
int pm_sampler_read(struct pm_sampler *s);
void pm_sampler_close(struct pm_sampler *s);

#endif /* PM_SAMPLE_H */
