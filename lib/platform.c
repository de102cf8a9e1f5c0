// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ACPI platform profile: the legacy /sys/firmware/acpi files (the
 * 6.14+ class keeps them as the combined view).
 */
#include <errno.h>
#include <string.h>

#include "pm.h"

int pm_profile_read(struct pm_ctx *ctx, struct pm_profile *p)
{
	memset(p, 0, sizeof(*p));
	if (pm_attr_read(ctx, "/sys/firmware/acpi/platform_profile",
			 p->current, sizeof(p->current)) < 0) {
		p->current[0] = '\0';
		return -ctx->err.err;
	}
	if (pm_attr_read(ctx, "/sys/firmware/acpi/platform_profile_choices",
			 p->choices, sizeof(p->choices)) < 0)
		p->choices[0] = '\0';
	pm_err_clear(ctx);
	return 0;
}
