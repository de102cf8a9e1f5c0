/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the one place pmtools touches /sys, /proc and /dev.  Every
 * function returns 0 (or a count) on success and -errno on failure, and
 * fills ctx->err so the tool can say which file, which value and why.
 *
 * This header is all of it: the umbrella that the tools in cmd/ and the
 * tests include, as they use most layers.  Nothing is declared here.
 * Inside lib/, each file includes the headers of what it uses, and each
 * header only the layers below its own:
 *
 *   core: below everything; no kernel model, nothing printed to stderr
 *     parse.h core.h cpuset.h out.h
 *   transaction: writes applied, read back, rolled back, journaled, locked
 *     txn.h stop.h journal.h lock.h child.h
 *   kernel models: one header per subsystem, each over the core
 *     cpu.h cpuidle.h cpufreq.h proc.h counter.h virt.h sample.h delta.h
 *     sleep.h hooks.h opp.h supply.h thermal.h state.h psi.h devfreq.h
 *     profile.h domains.h powercap.h dump.h device.h conf.h
 *   tool layer: the only code that prints to stderr or exits
 *     tool.h writer.h fset.h
 */
#ifndef PM_H
#define PM_H

#include "parse.h"
#include "core.h"
#include "cpuset.h"
#include "out.h"
#include "txn.h"
#include "stop.h"
#include "journal.h"
#include "lock.h"
#include "child.h"
#include "cpu.h"
#include "cpuidle.h"
#include "cpufreq.h"
#include "proc.h"
#include "counter.h"
#include "virt.h"
#include "sample.h"
#include "delta.h"
#include "sleep.h"
#include "hooks.h"
#include "opp.h"
#include "supply.h"
#include "thermal.h"
#include "state.h"
#include "psi.h"
#include "devfreq.h"
#include "profile.h"
#include "domains.h"
#include "powercap.h"
#include "dump.h"
#include "device.h"
#include "conf.h"
#include "tool.h"
#include "writer.h"
#include "fset.h"

/* ------------------------------------------------ planners (lib/plan.c) */

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

#endif /* PM_H */
