/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: pressure stall information (lib/psi.c).
 */
#ifndef PM_PSI_H
#define PM_PSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* /proc/pressure/RESOURCE: shares of time in percent (0 to 100). */
struct pm_psi {
	double some[3], full[3];	/* avg10, avg60, avg300 */
	uint64_t some_total_us, full_total_us;
	bool has_full;			/* cpu: Linux 5.13 */
};

/* The text of a pressure file; 0 or -EINVAL for anything else. */
int pm_psi_parse(const char *text, struct pm_psi *p);
/* resource: cpu, memory or io.  0 or -errno (-ENOENT without PSI,
 * -EOPNOTSUPP when booted with psi=0). */
int pm_psi_read(struct pm_ctx *ctx, const char *resource, struct pm_psi *p);

#endif /* PM_PSI_H */
