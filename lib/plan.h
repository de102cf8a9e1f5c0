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

#endif /* PM_PLAN_H */
