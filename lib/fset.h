/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the cpufreq and devfreq change of pmctl and opp-set, checked
 * and planned (lib/fset.c; tool layer: a bad request exits).
 */
#ifndef PM_FSET_H
#define PM_FSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpufreq.h"
#include "devfreq.h"
#include "tool.h"
#include "writer.h"

/* The kernel reads governor names with "%15s" (CPUFREQ_NAME_LEN - 1). */
#define PM_GOV_NAME_MAX 15

/* A cpufreq policy change of pmctl freq set or an opp-set point. */
struct pm_fset {
	const char *governor;	/* NULL: unchanged */
	bool has_min, has_max, has_speed;
	uint64_t min, max, speed;	/* kHz */
	const char *epp;	/* NULL: unchanged */
	bool keys;		/* name them "min", not "--min", in errors */
	const char *where;	/* "FILE:LINE: " before errors, or NULL */
};

/* Everything checked before the first write: dies with exit 2 or 3.
 * gov gets the kernel's spelling of the governor ("" unchanged). */
void pm_fset_check(struct pm_tool *t, const struct pm_fset *f,
		   const struct pm_policy *pol, char *gov, size_t govsize);
/* The writes in a safe order: governor, the limits, speed, EPP. */
void pm_fset_plan(struct pm_writer *w, const struct pm_fset *f,
		  struct pm_policy *pol, const char *gov);
/* A devfreq device's governor (NULL unchanged), min and max (Hz, 0
 * unchanged): checked against what it offers (exit 3, or 2 for a value
 * outside its frequencies), then planned with min never above max.
 * where: "FILE:LINE: " of a point, which names keys not options. */
void pm_devfreq_plan(struct pm_writer *w, const struct pm_devfreq *d,
		     const char *gov, uint64_t min, uint64_t max,
		     const char *where);

#endif /* PM_FSET_H */
