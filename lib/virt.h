/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the hypervisor a guest runs on (lib/virt.c).
 */
#ifndef PM_VIRT_H
#define PM_VIRT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "cpuset.h"

/*
 * s390's own idle statistics of a CPU (cpuN/idle_count and idle_time_us,
 * the only idle accounting there): 0, or -errno (-ENOENT elsewhere).
 */
int pm_s390_idle_read(struct pm_ctx *ctx, unsigned cpu, uint64_t *count,
		      uint64_t *time_us);
/* Whether the selected CPUs have them (a few are looked at). */
bool pm_s390_idle_present(struct pm_ctx *ctx, const struct pm_cpuset *sel);

/*
 * A hypervisor under the kernel owns the real C- and P-states.  Found by
 * /sys/hypervisor/type, DMI (sys_vendor, product_name), s390's
 * /proc/sysinfo or the x86 cpuinfo flag "hypervisor", in that order of
 * trust for its name.
 */
struct pm_hypervisor {
	bool present;
	char name[PM_NAME_MAX];	/* "KVM", "Xen", "z/VM 6.1.0"; "" unknown */
	char source[48];	/* how it was found */
};

/* 1 when one is found, 0 when none (then *h says nothing). */
int pm_hypervisor_detect(struct pm_ctx *ctx, struct pm_hypervisor *h);

#endif /* PM_VIRT_H */
