/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: CPUs: present, online, hot-pluggable (lib/cpu.c).
 */
#ifndef PM_CPU_H
#define PM_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "cpuset.h"

struct pm_cpus {
	struct pm_cpuset possible, present, online, offline;
	int kernel_max;		/* -1 unknown */
	char smt_control[24];	/* "" when absent */
	int smt_active;		/* -1 unknown */
	unsigned nr_present;
};

int pm_cpus_read(struct pm_ctx *ctx, struct pm_cpus *c);
/* 1 if the CPU has an online file (can be hot-plugged), else 0. */
int pm_cpu_hotpluggable(struct pm_ctx *ctx, unsigned cpu);
/*
 * Resolve a --cpu argument: "all" (present), "online", or a range list,
 * intersected with nothing: CPUs not present are an error (-ENOENT, the
 * record names them).
 */
int pm_cpus_select(struct pm_ctx *ctx, const struct pm_cpus *c,
		   const char *arg, struct pm_cpuset *out);

#endif /* PM_CPU_H */
