/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: thermal zones (lib/thermal.c).
 */
#ifndef PM_THERMAL_H
#define PM_THERMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

struct pm_tzone {
	unsigned id;
	char type[PM_NAME_MAX];
	int64_t temp_mc;		/* PM_UNKNOWN_S64 unknown */
	char policy[PM_NAME_MAX];
	char mode[16];
};

int pm_tzones_read(struct pm_ctx *ctx, struct pm_tzone **out);

#endif /* PM_THERMAL_H */
