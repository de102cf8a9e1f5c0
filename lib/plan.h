/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the planners of the small subsystems, shared by pmctl and opp-set:
 * the platform profile and a battery's charge settings (lib/plan.c), the
 * CPU side (lib/cpuplan.c); tool layer: a bad request exits.
 */
#ifndef PM_PLAN_H
#define PM_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpuset.h"
#include "cpu.h"
#include "cpufreq.h"
#include "cpuidle.h"
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
 * line a path, a bus (every device of /sys/bus/NAME/devices that has
 * runtime PM), a PCI class or a driver, the last three less the excluded
 * classes and drivers.  A file planned twice is written once, the later
 * value.
 */
struct pm_devreq {
	const char *name;	/* the path as given, or the bus's name */
	bool bus;		/* name is a bus (only with where) */
	/* Only with where: a class line (name: the class words, cls their
	 * PCI codes, every PCI device of one) or a driver line (driver:
	 * every device bound to it, on any bus). */
	const char *cls;
	const char *driver;
	/* Left alone by bus, class and driver lines: PCI class codes and
	 * driver names, blank-separated ("" or NULL: none). */
	const char *x_class, *x_driver;
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

/*
 * CPU planners (lib/cpuplan.c).  where: before every error, the point's
 * "FILE:LINE: [section] key: " or NULL for pmctl.
 */

/* SMT "on" or "off" (smt/control): exit 3 when the machine has none or
 * SMT was forced off at boot and "on" is asked. */
void pm_smt_plan(struct pm_writer *w, const struct pm_cpus *cpus,
		 const char *value, const char *where);

/* CPUs to bring online and to take offline. */
struct pm_hotplug {
	struct pm_cpuset up, down;
	const char *where;
};

/* Each CPU of up and down has an online file (exit 3), a CPU of up that
 * the kernel failed to bring up is said so (exit 1), and a CPU stays
 * online (exit 2). */
void pm_hotplug_check(struct pm_writer *w, const struct pm_cpus *cpus,
		      const struct pm_hotplug *h);
/* The online file of each CPU of set, 1 or 0. */
void pm_hotplug_plan(struct pm_writer *w, const struct pm_cpuset *set,
		     bool on);
/* The CPU of a path pm_hotplug_plan planned, for a message. */
bool pm_hotplug_cpu(const char *path, unsigned *cpu);

/* Boost: cpufreq/boost, else intel_pstate/no_turbo (inverted), else
 * each policy's own boost file. */
struct pm_boost {
	bool on;		/* the global switch's value */
	bool policies_only;	/* only the policies' own files (pmctl -c) */
	const int *pol_on;		/* per policy: 1, 0, -1 left alone */
	void *tag;		/* each write's tag, for the caller's messages */
	const char *where;
};

/* Exit 3 when there is no control (or no selected online policy has
 * one); exit 1 for a control there that cannot be read. */
void pm_boost_plan(struct pm_writer *w, const struct pm_boost *b,
		   const struct pm_policy *pol, int n);

/* The cpuidle governor NAME: exit 3 without cpuidle, a writable
 * current_governor (Linux 5.8) or that governor. */
void pm_idle_governor_plan(struct pm_writer *w, const char *name,
			   const char *where);
/* One idle state's disable file of cpu, 1 or 0: false when the state
 * has none (a kernel before 3.x), exit 1 when it cannot be read. */
bool pm_idle_disable_plan(struct pm_writer *w, unsigned cpu,
			  const struct pm_idle_state *st, bool disable,
			  const char *where);

/* Idle states of the online CPUs of a selection (lib/idleplan.c). */
struct pm_idle_set {
	struct pm_cpuset cpus;		/* online CPUs */
	/* States by name (exactly, else in any case) or index, on every
	 * CPU that has one; with enable, "all" is every state. */
	char *const *names;
	int n_names;
	bool enable;			/* the named enabled, else disabled */
	bool rest;			/* the other states written: enabled */
	bool has_latency;		/* with rest: those whose exit */
	uint64_t latency_us;		/* latency is above it disabled */
	const char *where;
};

/* Exit 3 for a CPU without idle states, none online, a name that no CPU
 * has (naming the states there are; the CPUs without it noted and left
 * alone), or no disable file; exit 1 for one that cannot be read. */
void pm_idle_plan(struct pm_writer *w, const struct pm_idle_set *r);

/* intel_pstate's global limits (%) and no_turbo (-1: unchanged). */
struct pm_pstate {
	bool has_min, has_max;
	unsigned min, max;
	int no_turbo;
	const char *where;	/* of the first setting */
	const char *where_min;	/* of min_perf_pct */
};

/* Exit 3 when intel_pstate does not run, 2 for min above max; planned
 * so that neither clamps the other on the way. */
void pm_pstate_plan(struct pm_writer *w, const struct pm_pstate *p);

/* A pstate driver's status switch ("intel_pstate" or "amd_pstate"). */
struct pm_status_switch {
	const char *driver;
	const char *value;
	/* A policy's governor tunables, snapshot for a rollback (NULL:
	 * none), called with arg. */
	void (*snap_tunables)(struct pm_writer *w,
			      const struct pm_policy *pol, void *arg);
	void *arg;
};

/* The driver's status now into cur: exit 3 when it has none, 1 when it
 * cannot be read. */
void pm_pstate_status_read(struct pm_writer *w, const char *driver,
			   const char *where, char *cur, size_t size);
/* The switch from cur, with a snapshot of every policy and of
 * intel_pstate's limits for a rollback (the switch resets them); false
 * when the driver is in that status already. */
bool pm_pstate_status_plan(struct pm_writer *w,
			   const struct pm_status_switch *s, const char *cur);
/* Is x the write of intel_pstate's status (to word its EBUSY)? */
bool pm_pstate_status_write(const struct pm_write *x);

/* A governor's tunables folder is there, per policy or global. */
bool pm_gov_folder(struct pm_ctx *ctx, const struct pm_policy *pol,
		   const char *gov);
/* Where governor tunables are here: 1 per policy, 2 global, 0 not known
 * while no governor with tunables runs. */
int pm_gov_layout(struct pm_ctx *ctx, const struct pm_policy *pol, int n);

#endif /* PM_PLAN_H */
