// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * power_supply: AC adapters and batteries, with either the energy_* and
 * power_now set or the charge_* and current_now set the firmware gives.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pm.h"

#define SUPPLY_DIR "/sys/class/power_supply"

static int64_t get_s64(struct pm_ctx *ctx, int fd, const char *name)
{
	int64_t v;

	return pm_attr_readat_s64(ctx, fd, name, &v) < 0 ? PM_UNKNOWN_S64 : v;
}

int pm_supplies_read(struct pm_ctx *ctx, struct pm_supply **out)
{
	char **names;
	int n = pm_list_dir(ctx, SUPPLY_DIR, &names), k = 0;
	struct pm_supply *v;

	*out = NULL;
	if (n < 0) {
		pm_err_clear(ctx);
		return 0;
	}
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v) {
		pm_list_free(names, n);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		char path[PM_PATH_MAX];
		struct pm_supply *s = &v[k];
		int fd;
		int64_t on;

		snprintf(path, sizeof(path), SUPPLY_DIR "/%s", names[i]);
		fd = pm_open_dir(ctx, path);
		if (fd < 0)
			continue;
		snprintf(s->name, sizeof(s->name), "%s", names[i]);
		if (pm_attr_readat(ctx, fd, "type", s->type, sizeof(s->type)) <
		    0)
			s->type[0] = '\0';
		if (pm_attr_readat(ctx, fd, "status", s->status,
				   sizeof(s->status)) < 0)
			s->status[0] = '\0';
		if (pm_attr_readat(ctx, fd, "model_name", s->model,
				   sizeof(s->model)) < 0)
			s->model[0] = '\0';
		on = get_s64(ctx, fd, "online");
		s->online = on == PM_UNKNOWN_S64 ? -1 : on != 0;
		s->capacity_pct = pm_attr_getat_u64(ctx, fd, "capacity");
		s->power_uw = get_s64(ctx, fd, "power_now");
		s->energy_now_uwh = get_s64(ctx, fd, "energy_now");
		s->energy_full_uwh = get_s64(ctx, fd, "energy_full");
		s->current_ua = get_s64(ctx, fd, "current_now");
		s->charge_now_uah = get_s64(ctx, fd, "charge_now");
		s->charge_full_uah = get_s64(ctx, fd, "charge_full");
		s->voltage_uv = get_s64(ctx, fd, "voltage_now");
		close(fd);
		k++;
	}
	pm_list_free(names, n);
	pm_err_clear(ctx);
	*out = v;
	return k;
}
