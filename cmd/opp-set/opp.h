/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef OPP_H
#define OPP_H

#include "pm.h"

/* One resolved setting of a point: "[SECTION ARG]" KEY = VALUE. */
struct opp_setting {
	char section[64];
	char arg[160];		/* "cpus=0-3", a devfreq name, or "" */
	char key[PM_PATH_MAX];	/* a path in [sysfs] and [runtime_pm] */
	char value[256];
	const char *file;	/* where it was set (owned by the point) */
	unsigned line;		/* 0: from -s */
};

/* A point with its includes resolved: later settings replaced earlier
 * ones with the same section, argument and key. */
struct opp_point {
	char name[PM_NAME_MAX];	/* NAME, the file's name for -f, "custom" */
	char description[256];
	struct opp_setting *v;
	int n, cap;
	char **files;		/* every file read, for opp_setting.file */
	int nfiles, capfiles;
};

struct opp {
	struct pm_tool t;
	struct pm_ctx ctx;
	struct pm_out o;
	/* What the apply records once it is made (opp.how, supply.applied). */
	const char *how;
	const struct opp_point *pt;
	/* --reapply=charge: the recorded charge settings, no point. */
	bool charge_only;
};

/* Load NAME (looked up in /etc/pm/opp.d, then the installed examples),
 * or a FILE (-f), with its includes.  Any error: exit 2 with FILE:LINE
 * (a missing NAME: exit 2 too, naming where it was looked for). */
void opp_load_name(struct opp *op, const char *name, struct opp_point *pt);
void opp_load_file(struct opp *op, const char *file, struct opp_point *pt);
/*
 * Why a value read from the machine cannot go into a saved point as it
 * is (it would not read back as itself: a newline would start lines of
 * its own, new sections included), or NULL.  arg: the value is a
 * section's argument ([devfreq NAME]).
 */
const char *opp_save_unsafe(const char *v, bool arg);
/* One -s SECTION[:ARG].KEY=VALUE, checked like a file line. */
void opp_add_inline(struct opp *op, const char *arg, struct opp_point *pt);
void opp_point_free(struct opp_point *pt);
/* One setting of --auto-tune, SECTION.KEY=VALUE as -s takes it; its
 * errors name "--auto-tune (SETTING)". */
void opp_add_auto(struct opp *op, struct opp_point *pt, const char *set);
/* --auto-tune's point: the power-saving value of every tunable pmctl
 * tune shows Bad, but the devices the default exclusions leave alone. */
void opp_auto_tune(struct opp *op, struct opp_point *pt);
/* Add a setting to a loaded point as if FILE:LINE said it (checked like
 * a file line; the caller makes sure the point does not set it). */
void opp_add_setting(struct opp *op, struct opp_point *pt, const char *file,
		     unsigned line, const char *arg, const char *key,
		     const char *value);

/*
 * A plan in two stages.  The first reshapes the machine: a driver's
 * status (which recreates every cpufreq policy) and CPUs brought online
 * or SMT switched (whose policies and idle states cannot be read while
 * they are offline).  The second, everything else, is planned on the
 * machine as the first left it.  Before the first write the second is
 * planned once on the machine as it is, as a check (and for --dry-run):
 * only what depends on the first stage is left out of it (a note on
 * stderr says so under --dry-run).
 */
struct opp_stage {
	struct pm_cpus cpus;
	struct pm_cpuset up, down;	/* to bring online, to take offline */
	struct pm_cpuset final;		/* online when the point is reached */
	bool reshape;			/* a driver's status is switched */
	bool applied;			/* the first stage is written */
};

/* Plan the first stage into w (exit 2 or 3 on what this machine cannot
 * do, before anything is written). */
void opp_plan_first(struct opp *op, const struct opp_point *pt,
		    struct pm_writer *w, struct opp_stage *st);
/* Plan the second stage (after the first, or as the check before it). */
void opp_plan_rest(struct opp *op, const struct opp_point *pt,
		   struct pm_writer *w, struct opp_stage *st);
/* Both, on the machine as it is (dry runs: --current). */
void opp_plan(struct opp *op, const struct opp_point *pt,
	      struct pm_writer *w);

/* [runtime_pm] and [usb] alone: with w->only, one device's lines. */
void opp_plan_devices(const struct opp_point *pt, struct pm_writer *w);
/* --reapply --device PATH, the lock held: the current point's lines of
 * that device (exit 0 when no point is current); the exit status. */
int opp_device_apply(struct opp *op, struct pm_writer *w, const char *dev);

/* [supply NAME]: planned with the second stage. */
void opp_plan_supply(const struct opp_point *pt, struct pm_writer *w);
/* After a point is applied: its [supply] values into the record. */
void opp_record_supply(struct opp *op, const struct opp_point *pt);
/* --reapply: name each recorded charge setting that reads otherwise now
 * (a firmware dropped it), and add those the point does not set to it.
 * Returns how many were dropped. */
int opp_reapply_supply(struct opp *op, struct opp_point *pt);

/* The point applied last (CLI.md), and how: "auto", "name", "set" or
 * "file PATH" (what --reapply applies again). */
#define OPP_CURRENT_DIR "/run/pmtools"
#define OPP_CURRENT_FILE OPP_CURRENT_DIR "/opp.current"
#define OPP_HOW_FILE OPP_CURRENT_DIR "/opp.how"

/* --save FILE, --current; --auto picks the name of the point to apply
 * (exit 3 when no [match] holds). */
int opp_save(struct opp *op, const char *file);
/* --save's [sata], [pcie], [audio] and [sysctl], as the machine has them
 * (a value a section cannot take is left out). */
void opp_save_devtune(struct opp *op, struct pm_out *o);
/* The section and key that set a tunable of each kind (devtune.c). */
extern const char *const opp_tune_key[PM_TUNE_NKINDS][2];
int opp_current(struct opp *op);
void opp_auto_pick(struct opp *op, char *out, size_t size);

/* A governor tunable of [cpufreq]: GOV.NAME = N, N from lo to hi. */
struct opp_tunable {
	const char *gov, *name;
	uint32_t lo, hi;
};

/* The tunable of a "GOV.NAME" key, NULL when none; the i-th one. */
const struct opp_tunable *opp_tunable_find(const char *key);
const struct opp_tunable *opp_tunable_at(int i);
/* GOV has tunables opp-set knows. */
bool opp_tunable_governor(const char *gov);
/* NULL when KEY = VALUE is a known tunable in range, else the problem. */
const char *opp_tunable_check(const char *key, const char *value, char *buf,
			      size_t size);

/* "FILE:LINE: " (or "-s: ") for messages. */
const char *opp_where(const struct opp_setting *s, char *buf, size_t size);

#endif
