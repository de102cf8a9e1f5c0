/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: devfreq devices (lib/devfreq.c).
 */
#ifndef PM_DEVFREQ_H
#define PM_DEVFREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

struct pm_devfreq {
	char name[PM_NAME_MAX];
	char governor[PM_NAME_MAX];
	uint64_t cur_hz, min_hz, max_hz;
	char available_governors[256];
	char available_frequencies[512];
};

int pm_devfreqs_read(struct pm_ctx *ctx, struct pm_devfreq **out);

#endif /* PM_DEVFREQ_H */
