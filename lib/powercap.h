/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: powercap (RAPL) zones and constraints (lib/powercap.c).
 */
#ifndef PM_POWERCAP_H
#define PM_POWERCAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* powercap_sys allows up to 10 constraints per zone. */
#define PM_POWERCAP_CONSTRAINTS 10

struct pm_powercap_constraint {
	unsigned id;
	char name[PM_NAME_MAX];		/* "" when not given */
	uint64_t power_limit_uw, time_window_us, max_power_uw; /* PM_UNKNOWN */
};

struct pm_powercap_zone {
	char zone[PM_NAME_MAX];		/* intel-rapl:0:1 */
	char control_type[PM_NAME_MAX];	/* intel-rapl, or "" */
	char parent[PM_NAME_MAX];	/* the zone above, "" at the top */
	char name[PM_NAME_MAX];		/* package-0, core ... */
	int enabled;			/* -1 unknown */
	uint64_t energy_uj;		/* PM_UNKNOWN: see energy_err */
	int energy_err;			/* EACCES: root only (since 5.10) */
	uint64_t max_energy_range_uj;
	int nconstraints;
	struct pm_powercap_constraint c[PM_POWERCAP_CONSTRAINTS];
};

struct pm_powercap_type {
	char name[PM_NAME_MAX];
	int enabled;			/* -1 unknown */
};

struct pm_powercap {
	struct pm_powercap_type *types;
	int ntypes;
	struct pm_powercap_zone *zones;	/* by control type, then zone */
	int nzones;
};

/* 0, or -ENOENT when /sys/class/powercap has no entry; free it after. */
int pm_powercap_read(struct pm_ctx *ctx, struct pm_powercap *pc);
void pm_powercap_free(struct pm_powercap *pc);

#endif /* PM_POWERCAP_H */
