/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the ACPI platform profile (lib/profile.c).
 */
#ifndef PM_PROFILE_H
#define PM_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* Handlers of the 6.14+ class /sys/class/platform-profile. */
#define PM_MAX_PROFILE_HANDLERS 8

struct pm_profile_handler {
	char id[PM_NAME_MAX];		/* platform-profile-0 */
	char name[PM_NAME_MAX];		/* the driver's name */
	char profile[PM_NAME_MAX];
	char choices[256];
};

struct pm_profile {
	char current[PM_NAME_MAX];	/* "" absent or unreadable */
	int err;			/* errno of platform_profile when it
					 * is there but unreadable, else 0 */
	char choices[256];
	int n_handlers;			/* -1: no class (before 6.14) */
	struct pm_profile_handler h[PM_MAX_PROFILE_HANDLERS];
};

int pm_profile_read(struct pm_ctx *ctx, struct pm_profile *p);

#endif /* PM_PROFILE_H */
