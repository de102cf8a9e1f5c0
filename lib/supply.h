/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: power supplies: batteries, AC, charge thresholds (lib/supply.c).
 */
#ifndef PM_SUPPLY_H
#define PM_SUPPLY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

struct pm_supply {
	char name[PM_NAME_MAX];
	char type[32];
	char status[32];
	int online;			/* -1 unknown */
	uint64_t capacity_pct;
	int64_t power_uw, energy_now_uwh, energy_full_uwh;
	int64_t current_ua, charge_now_uah, charge_full_uah, voltage_uv;
	char model[PM_NAME_MAX];
	/* Derived where the kernel leaves them out (lib/supply.c): */
	int64_t draw_uw;	/* |power_now|, else |current x voltage| */
	int64_t time_left_s;	/* to empty or to full; PM_UNKNOWN_S64 */
	bool capacity_derived;	/* capacity_pct from energy or charge */
	/* Charge control and wear (PM_UNKNOWN / PM_UNKNOWN_S64 / ""). */
	uint64_t charge_start_pct;	/* charge_control_start_threshold */
	uint64_t charge_stop_pct;	/* charge_control_end_threshold */
	char charge_behaviour[96];	/* "[auto] inhibit-charge ..." */
	int64_t energy_full_design_uwh, charge_full_design_uah;
	int64_t cycle_count;
};

/* Returns the count; *out is malloc'ed. */
int pm_supplies_read(struct pm_ctx *ctx, struct pm_supply **out);

/* The files of charge control in /sys/class/power_supply/NAME. */
#define PM_SUPPLY_START "charge_control_start_threshold"
#define PM_SUPPLY_STOP "charge_control_end_threshold"
#define PM_SUPPLY_BEHAVIOUR "charge_behaviour"
/* A name of /sys/class/power_supply: letters, digits, _ - . :, not . or
 * .., shorter than PM_NAME_MAX. */
bool pm_supply_name_ok(const char *name);
/* /sys/class/power_supply/NAME/FILE into buf; false when NAME is not a
 * supply name or the path does not fit. */
bool pm_supply_path(const char *name, const char *file, char *buf,
		    size_t size);
/* The full charge now against the design's, in percent (energy, else
 * charge); NAN when the driver does not give both. */
double pm_supply_health_pct(const struct pm_supply *s);

/*
 * The charge settings last applied (by opp-set's [supply NAME] and
 * pmctl supply set), kept below the root across reboots: what a firmware
 * that drops them at a resume or a boot is given back.
 */
#define PM_SUPPLY_RECORD_DIR "/var/lib/pmtools"
#define PM_SUPPLY_RECORD PM_SUPPLY_RECORD_DIR "/supply.applied"
#define PM_SUPPLY_RECORD_MAX 64	/* entries: 3 files of a few batteries */

struct pm_supply_set {
	char name[PM_NAME_MAX];	/* BAT0 */
	char file[40];		/* PM_SUPPLY_START, _STOP, _BEHAVIOUR */
	char value[40];		/* 80, inhibit-charge */
	unsigned line;		/* in the record, from 1 */
};

/* The record into v (at most max entries): the count, 0 when there is
 * none; lines that are not "NAME FILE VALUE" of those files, with a
 * percentage for a threshold, are left out, and of a file named twice
 * the last line counts. */
int pm_supply_record_read(struct pm_ctx *ctx, struct pm_supply_set *v,
			  int max);
/* Put these n entries in the record (replacing the same NAME and FILE),
 * written whole.  0 or -errno, with ctx->err naming the file. */
int pm_supply_record_update(struct pm_ctx *ctx,
			    const struct pm_supply_set *v, int n);

#endif /* PM_SUPPLY_H */
