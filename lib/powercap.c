// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * powercap: control types (intel-rapl, intel-rapl-mmio, dtpm ...), their
 * zones and subzones with energy counters and power-limit constraints.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "powercap.h"
#include "core.h"
#include "domains.h"

#define POWERCAP_DIR "/sys/class/powercap"

static int enabled_at(struct pm_ctx *ctx, int fd)
{
	int64_t v;

	if (pm_attr_readat_s64(ctx, fd, "enabled", &v) < 0)
		return -1;
	return v != 0;
}

static void read_constraints(struct pm_ctx *ctx, int fd,
			     struct pm_powercap_zone *z)
{
	for (unsigned k = 0; k < PM_POWERCAP_CONSTRAINTS; k++) {
		struct pm_powercap_constraint *c = &z->c[z->nconstraints];
		char name[48], limit[48], window[48], max[48];

		snprintf(name, sizeof(name), "constraint_%u_name", k);
		snprintf(limit, sizeof(limit), "constraint_%u_power_limit_uw",
			 k);
		snprintf(window, sizeof(window), "constraint_%u_time_window_us",
			 k);
		snprintf(max, sizeof(max), "constraint_%u_max_power_uw", k);
		/* _name is optional; the power limit is always there. */
		if (!pm_existsat(fd, limit) && !pm_existsat(fd, name))
			continue;
		c->id = k;
		if (pm_attr_readat(ctx, fd, name, c->name, sizeof(c->name)) < 0)
			c->name[0] = '\0';
		c->power_limit_uw = pm_attr_getat_u64(ctx, fd, limit);
		/* peak_power has no window; the op may give ENODATA. */
		c->time_window_us = pm_attr_getat_u64(ctx, fd, window);
		c->max_power_uw = pm_attr_getat_u64(ctx, fd, max);
		z->nconstraints++;
	}
}

static void read_zone(struct pm_ctx *ctx, int fd, struct pm_powercap_zone *z)
{
	int r;

	if (pm_attr_readat(ctx, fd, "name", z->name, sizeof(z->name)) < 0)
		z->name[0] = '\0';
	z->enabled = enabled_at(ctx, fd);
	/* Root only (0400) since 5.10 and in stable kernels (PLATYPUS). */
	r = pm_attr_readat_u64(ctx, fd, "energy_uj", &z->energy_uj);
	if (r < 0) {
		z->energy_uj = PM_UNKNOWN;
		z->energy_err = -r;
	}
	z->max_energy_range_uj =
		pm_attr_getat_u64(ctx, fd, "max_energy_range_uj");
	read_constraints(ctx, fd, z);
}

static int type_index(const struct pm_powercap *pc, const char *name)
{
	for (int i = 0; i < pc->ntypes; i++)
		if (!strcmp(pc->types[i].name, name))
			return i;
	return -1;
}

static int zone_index(const struct pm_powercap *pc, const char *name)
{
	for (int i = 0; i < pc->nzones; i++)
		if (!strcmp(pc->zones[i].zone, name))
			return i;
	return -1;
}

/*
 * The zone above and the control type, from the folder the class entry
 * links to (.../intel-rapl/intel-rapl:0/intel-rapl:0:1); from the name
 * (intel-rapl:0:1) when the entry is no link, as in a copied tree.
 */
static void place_zone(struct pm_ctx *ctx, struct pm_powercap *pc,
		       struct pm_powercap_zone *z)
{
	char path[PM_PATH_MAX], canon[PM_PATH_MAX], name[PM_NAME_MAX], *slash;

	snprintf(path, sizeof(path), POWERCAP_DIR "/%s", z->zone);
	if (pm_link_path(ctx, path, canon, sizeof(canon)) == 0) {
		slash = strrchr(canon, '/');
		if (slash)
			*slash = '\0';
		slash = strrchr(canon, '/');
		if (slash && zone_index(pc, slash + 1) >= 0)
			snprintf(z->parent, sizeof(z->parent), "%s", slash + 1);
		while ((slash = strrchr(canon, '/'))) {
			if (type_index(pc, slash + 1) >= 0) {
				snprintf(z->control_type,
					 sizeof(z->control_type), "%s",
					 slash + 1);
				return;
			}
			*slash = '\0';
		}
		return;
	}
	memcpy(name, z->zone, sizeof(name));
	slash = strrchr(name, ':');
	if (slash) {
		*slash = '\0';
		if (zone_index(pc, name) >= 0)
			memcpy(z->parent, name, sizeof(z->parent));
	}
	slash = strchr(name, ':');
	if (slash)
		*slash = '\0';
	if (type_index(pc, name) >= 0)
		memcpy(z->control_type, name, sizeof(z->control_type));
}

/* By control type (in listing order), then zone in version order, so
 * intel-rapl:0:1 follows intel-rapl:0 and intel-rapl:10 intel-rapl:9. */
static int cmp_zone(const void *a, const void *b, void *arg)
{
	const struct pm_powercap_zone *x = a, *y = b;
	int tx = type_index(arg, x->control_type);
	int ty = type_index(arg, y->control_type);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return strverscmp(x->zone, y->zone);
}

void pm_powercap_free(struct pm_powercap *pc)
{
	free(pc->types);
	free(pc->zones);
	memset(pc, 0, sizeof(*pc));
}

int pm_powercap_read(struct pm_ctx *ctx, struct pm_powercap *pc)
{
	struct pm_class c;
	int n = pm_class_open(ctx, &c, "powercap", NULL);

	memset(pc, 0, sizeof(*pc));
	if (n < 0)
		return n;
	pc->types = calloc((size_t)n + 1, sizeof(*pc->types));
	pc->zones = calloc((size_t)n + 1, sizeof(*pc->zones));
	if (!pc->types || !pc->zones) {
		pm_class_close(&c);
		pm_powercap_free(pc);
		return -ENOMEM;
	}
	while (pm_class_next(ctx, &c)) {
		int fd = c.fd;

		if (fd < 0)
			continue;
		/* Zones have a name; control types only "enabled". */
		if (pm_existsat(fd, "name")) {
			struct pm_powercap_zone *z = &pc->zones[pc->nzones++];

			snprintf(z->zone, sizeof(z->zone), "%s", c.name);
			read_zone(ctx, fd, z);
		} else {
			struct pm_powercap_type *t = &pc->types[pc->ntypes++];

			snprintf(t->name, sizeof(t->name), "%s", c.name);
			t->enabled = enabled_at(ctx, fd);
		}
	}
	pm_class_close(&c);
	for (int i = 0; i < pc->nzones; i++)
		place_zone(ctx, pc, &pc->zones[i]);
	qsort_r(pc->zones, (size_t)pc->nzones, sizeof(*pc->zones), cmp_zone,
		pc);
	pm_err_clear(ctx);
	if (!pc->ntypes && !pc->nzones)
		return pm_err_set(ctx, "read", POWERCAP_DIR, NULL, ENOENT,
				  "no control types or zones");
	return 0;
}
