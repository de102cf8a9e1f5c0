/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: cpuidle: the driver, governor and idle states of each CPU
 * (lib/cpuidle.c).
 */
#ifndef PM_CPUIDLE_H
#define PM_CPUIDLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "cpuset.h"

struct pm_cpuidle {
	char driver[PM_NAME_MAX];	/* "" when absent, "none" as the kernel says */
	char governor[PM_NAME_MAX];
	bool governor_writable;
	int governor_err;	/* errno of a current_governor that is there
				 * but unreadable (0: read, or absent) */
	char available_governors[256];
};

struct pm_idle_state {
	unsigned index;
	int disable_err;		/* errno of an unreadable disable that
					 * is there (0: read, or absent) */
	char name[PM_NAME_MAX];
	char desc[PM_NAME_MAX];
	uint64_t latency_us, residency_us, power_mw;
	uint64_t usage, time_us, above, below, rejected;
	uint64_t s2idle_usage, s2idle_time_us;
	int disabled;			/* 0/1, -1 unknown */
	int default_disabled;		/* default_status: 0/1, -1 unknown */
};

int pm_cpuidle_read(struct pm_ctx *ctx, struct pm_cpuidle *ci);

/* Which files of a state to read; the others stay unknown. */
enum {
	PM_IDLE_NAMES = 1 << 0,		/* name, desc, latency, residency */
	PM_IDLE_COUNTERS = 1 << 1,	/* usage, time, above, below, ... */
	PM_IDLE_DISABLE = 1 << 2,	/* disable */
	PM_IDLE_EXTRA = 1 << 3,		/* power, default_status */
	PM_IDLE_ALL = 0xf,
	PM_IDLE_NODESC = 1 << 4,	/* with NAMES: all but desc */
};

/* Fill states[] for one CPU; returns the count (0: no cpuidle dir). */
int pm_idle_states_read(struct pm_ctx *ctx, unsigned cpu,
			struct pm_idle_state *states, int max);
int pm_idle_states_read_fields(struct pm_ctx *ctx, unsigned cpu,
			       struct pm_idle_state *states, int max,
			       unsigned fields);

/*
 * The kernel stops at CPUIDLE_STATE_MAX (10) states a CPU, a tree need
 * not: every state up to this many is read, and *cut says there are
 * more.
 */
#define PM_IDLE_STATES_LIMIT 4096
/* Does cpu have a state numbered n (one past the n read)? */
bool pm_idle_state_exists(struct pm_ctx *ctx, unsigned cpu, unsigned n);
/* Every state of cpu, *out malloc'ed (free it); the count, 0 when the
 * CPU has none, -ENOMEM.  cut may be NULL. */
int pm_idle_states_alloc(struct pm_ctx *ctx, unsigned cpu, unsigned fields,
			 struct pm_idle_state **out, bool *cut);

/*
 * CPUs whose idle state tables are the same (state names, exit
 * latencies and target residencies): a phone's clusters have states of
 * their own.  st is the table of the group's first CPU (with desc);
 * disabled[i] counts the CPUs of the group with state i disabled, out
 * of known[i] whose disable file could be read (0: no CPU has one).
 */
struct pm_idle_group {
	struct pm_cpuset cpus;
	int n;
	bool cut;			/* a CPU has more than the limit */
	struct pm_idle_state *st;
	unsigned *disabled, *known;
};

/* The groups of the CPUs of sel, in the order of their first CPUs;
 * *out malloc'ed, the count (CPUs without states are in none), or
 * -ENOMEM. */
int pm_idle_groups_read(struct pm_ctx *ctx, const struct pm_cpuset *sel,
			struct pm_idle_group **out);
void pm_idle_groups_free(struct pm_idle_group *g, int n);

#endif /* PM_CPUIDLE_H */
