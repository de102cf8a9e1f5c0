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

#define THERMAL_DIR "/sys/class/thermal"
/* thermal_zoneN ids come from an IDA; a few hundred is a big machine. */
#define MAX_ZONES 1024

int pm_tzones_read(struct pm_ctx *ctx, struct pm_tzone **out)
{
	unsigned ids[MAX_ZONES];
	int n = pm_list_numbered(ctx, THERMAL_DIR, "thermal_zone", ids,
				 MAX_ZONES);
	struct pm_tzone *v;

	*out = NULL;
	if (n <= 0) {
		pm_err_clear(ctx);
		return 0;
	}
	v = calloc((size_t)n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		char path[96];
		int fd;
		int64_t t;

		v[i].id = ids[i];
		v[i].temp_mc = PM_UNKNOWN_S64;
		snprintf(path, sizeof(path), THERMAL_DIR "/thermal_zone%u",
			 ids[i]);
		fd = pm_open_dir(ctx, path);
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
		close(fd);
	}
	pm_err_clear(ctx);
	*out = v;
	return n;
}
