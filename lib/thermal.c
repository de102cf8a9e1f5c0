// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Thermal zones: type, temperature in millidegrees, policy and mode.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "thermal.h"
#include "core.h"

/* thermal_zoneN ids come from an IDA; a few hundred is a big machine. */
#define MAX_ZONES 1024

int pm_tzones_read(struct pm_ctx *ctx, struct pm_tzone **out)
{
	struct pm_class c;
	int n = pm_class_open(ctx, &c, "thermal", "thermal_zone");
	struct pm_tzone *v;

	*out = NULL;
	if (n > MAX_ZONES)
		n = MAX_ZONES;
	if (n <= 0) {
		pm_class_close(&c);
		pm_err_clear(ctx);
		return 0;
	}
	v = calloc((size_t)n, sizeof(*v));
	if (!v) {
		pm_class_close(&c);
		return -ENOMEM;
	}
	for (int i = 0; i < n && pm_class_next(ctx, &c); i++) {
		int fd = c.fd;
		int64_t t;

		v[i].id = c.id;
		v[i].temp_mc = PM_UNKNOWN_S64;
		if (fd < 0)
			continue;
		if (pm_attr_readat(ctx, fd, "type", v[i].type,
				   sizeof(v[i].type)) < 0)
			v[i].type[0] = '\0';
		if (pm_attr_readat_s64(ctx, fd, "temp", &t) == 0)
			v[i].temp_mc = t;
		if (pm_attr_readat(ctx, fd, "policy", v[i].policy,
				   sizeof(v[i].policy)) < 0)
			v[i].policy[0] = '\0';
		if (pm_attr_readat(ctx, fd, "mode", v[i].mode,
				   sizeof(v[i].mode)) < 0)
			v[i].mode[0] = '\0';
	}
	pm_class_close(&c);
	pm_err_clear(ctx);
	*out = v;
	return n;
}
