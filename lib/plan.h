/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the planners of the small subsystems, the platform profile and a
 * battery's charge settings, shared by pmctl and opp-set (lib/plan.c;
 * tool layer: a bad request exits).
 */
#ifndef PM_PLAN_H
#define PM_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "supply.h"
#include "writer.h"

/* The platform profile NAME checked against what the firmware offers
 * (exit 3, 1 when it cannot be read) and planned; where goes before
 * every error. */
void pm_profile_plan(struct pm_writer *w, const char *name,
		     const char *where);

enum { PM_CHARGE_START, PM_CHARGE_STOP, PM_CHARGE_BEHAVIOUR, PM_CHARGE_N };

/* A battery's charge settings of pmctl supply set or an opp-set point. */
struct pm_charge {
	const char *name;		/* BAT0 */
	bool has_start, has_stop;
	unsigned start, stop;		/* % */
	const char *behaviour;		/* NULL: unchanged */
	bool keys;	/* name them "charge_start", not "--charge-start" */
	const char *where;		/* before errors of the whole, or NULL */
	const char *where_key[PM_CHARGE_N];	/* before a setting's errors */
};

/* Checked against the battery before any write (exit 2 or 3, 1 for a
 * file there that cannot be read), then planned with start below stop
 * on the way too. */
void pm_charge_plan(struct pm_writer *w, const struct pm_charge *c);
/* What c sets as record lines into v[PM_CHARGE_N]: the count. */
int pm_charge_record(const struct pm_charge *c, struct pm_supply_set *v);

/* ------------------------------------------ device and sleep planners */

/*
 * A device's runtime PM and wakeup settings (lib/devplan.c): pmctl
 * device set names devices by path; an opp-set point's [runtime_pm]
 * line a path or a bus (every device of /sys/bus/NAME/devices that has
 * runtime PM).  A file planned twice is written once, the later value.
 */
struct pm_devreq {
	const char *name;	/* the path as given, or the bus's name */
	bool bus;		/* name is a bus (only with where) */
	const char *control;	/* power/control: "auto", "on"; NULL none */
	const char *wakeup;	/* power/wakeup: "enabled", "disabled" */
	/* A point's "FILE:LINE: [runtime_pm] KEY: " before its errors;
	 * NULL: pmctl's, which name the device as given. */
	const char *where;
	char path[PM_PATH_MAX];	/* the device's /sys/devices path */
};

/*
 * The device r names, resolved into r->path, or exit: 3 when it does not
 * exist, 2 when it is not a device inside the system root.
 */
void pm_devreq_resolve(struct pm_tool *t, struct pm_ctx *ctx,
		       struct pm_devreq *r);
/*
 * pmctl's check before the lock: each device resolved (exit 2 for a path
 * that is not a device, 3 for one that does not exist), then each has
 * the files asked for (exit 3; a wakeup file that reads empty too).
 */
void pm_devices_check(struct pm_tool *t, struct pm_ctx *ctx,
		      struct pm_devreq *v, int n);
/*
 * Plan r: a point's line is checked here, in the point's order (exit 3
 * when the device or bus has no runtime PM, 1 when power/control cannot
 * be read); pmctl's, checked already, is read again under the lock.
 */
void pm_device_plan(struct pm_writer *w, struct pm_devreq *r);
/*
 * A raw attribute below /sys (a point's [sysfs] line): exit 3 when it is
 * not there, 2 when it leads outside /sys, 1 when it cannot be read; a
 * choice list ("[s2idle] deep") is compared by its bracketed word.
 */
void pm_attr_plan(struct pm_writer *w, const char *path, const char *value,
		  const char *where);

#endif /* PM_PLAN_H */
