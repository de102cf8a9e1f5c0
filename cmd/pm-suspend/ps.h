/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef PM_SUSPEND_H
#define PM_SUSPEND_H

#include <signal.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdint.h>

#include "pm.h"

#define PS_LOCK PM_SLEEP_LOCK
#define PS_CONF "/etc/pm/pm-suspend.conf"
#define PS_CONFIG_D "/etc/pm/config.d"
#define PS_LOG "/var/log/pm-suspend.log"
/* wakeup_count blocks while events are in flight: give up after this. */
#define PS_WAKEUP_COUNT_TIMEOUT_S 10.0
/* suspend-then-hibernate: a wake this close to the alarm is the alarm's. */
#define PS_ALARM_SLACK_S 2

/* One sleep: suspend-then-hibernate has two. */
struct ps_leg {
	enum pm_sleep_mode mode;	/* suspend .. hybrid */
	const char *state;		/* the word for /sys/power/state */
	const char *mem_sleep;		/* NULL: as the kernel has it */
	const char *disk;		/* NULL: not hibernation */
	const char *down, *up, *method;	/* pm-utils hook args */
	const char *verb;		/* systemd's system-sleep verb */
	const char *sd_action;		/* SYSTEMD_SLEEP_ACTION */
	uint64_t alarm;			/* RTC value to set, 0 none */
	uint64_t after_s;		/* relative: recomputed when set */
};

struct ps_hookrec {
	char path[PM_PATH_MAX];
	const char *phase;		/* "pre", "post" */
	char args[48];
	int status;			/* -1: not run (refused) */
	const char *result;
	double seconds;
	bool timed_out;
};

/* What one leg did, for the report. */
struct ps_result {
	const struct ps_leg *leg;
	bool entered;			/* the state write returned 0 */
	bool attempted;			/* the state write was made */
	int err;			/* errno of the failure, 0 */
	char error[PM_PATH_MAX + 768];		/* what failed, "" */
	char failure[256];		/* the kernel's suspend_stats reason */
	double prepare_s, kernel_s, asleep_s, resume_s;
	struct pm_suspend_stats before, after;
	struct pm_wsrc *src0, *src1;
	int nsrc0, nsrc1;
	int64_t wake_irq;		/* -1 none */
	char wake_irq_name[64];
	uint64_t alarm;
	bool alarm_woke;		/* suspend-then-hibernate */
	/* --timings */
	const char *tsource;		/* "tracefs", "pm_print_times", NULL */
	char tnote[PM_PATH_MAX + 768];	/* why there is no detail, "" */
	bool traced;			/* trace read and parsed */
	struct pm_trace trace;
	uint64_t hw_sleep_us;		/* last_hw_sleep, PM_UNKNOWN */
	struct pm_fpdt fpdt0, fpdt1;	/* ACPI FPDT before, after */
	bool fpdt;			/* fpdt1 read (the folder is there) */
	/* --userspace hibernation (userhib.c) */
	bool user;
	uint64_t img_bytes, stored_bytes;
	double write_s, read_s;		/* pm-hibernate's, pm-resume's */
	char img_id[33];
};

struct ps {
	struct pm_tool t;
	struct pm_ctx ctx;
	const char *name;
	enum pm_sleep_mode mode;
	bool check, force, no_hooks, diagnose;
	bool timings;			/* --timings */
	bool tracefs_mounted;		/* by us, for this leg */
	const char *timeline;		/* --timeline FILE, NULL */
	bool userspace;			/* --userspace, HIBERNATE_METHOD */
	bool history;			/* --history */
	double budget_s;		/* --budget, 0 none */
	const char *test_level;
	const char *rtc;
	char conf_rtc[32];		/* RTC= of the config, the last wins */
	uint64_t wake_after_s;		/* 0: not asked */
	int64_t wake_at;		/* epoch, 0: not asked */
	double hook_timeout_s;
	double hibernate_delay_s;
	char hib_mode[32];		/* HIBERNATE_MODE, "" default */
	bool systemd_hooks;
	char blacklist[4096];
	char suspend_modules[1024];	/* SUSPEND_MODULES */
	char cpufreq_gov[32];		/* TEMPORARY_CPUFREQ_GOVERNOR */
	struct pm_hook_store store;	/* STORAGEDIR */
	const char *config;		/* --config FILE */
	char cmdline[1024];		/* PM_CMDLINE */
	int logfd, lockfd;
	struct pm_hooks hooks, sdhooks;
	struct ps_hookrec *rec;
	int nrec, caprec;
	struct pm_sleep_txn sx;		/* the files a leg changes */
	struct pm_journal journal;	/* sx's, PM_SLEEP_JOURNAL */
	struct ps_leg legs[2];
	struct ps_result res[2];
	int nres;
	bool replaced_alarm;
	int not_restored;		/* files left changed */
};

extern volatile sig_atomic_t ps_signal;

/* config.c */
void ps_config(struct ps *p, bool explicit_timeout, bool explicit_delay);
/* cycle.c */
int ps_run(struct ps *p);
void ps_log(struct ps *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* timings.c */
int ps_timings_plan(struct ps *p, struct ps_result *r);
void ps_timings_read(struct ps *p, struct ps_result *r);
/* The tracefs mounted for the leg unmounted, once its files are back. */
void ps_timings_unmount(struct ps *p);
void ps_timings_json(struct pm_out *o, const struct ps *p,
		     const struct ps_result *r);
void ps_timings_human(FILE *f, const struct ps *p, const struct ps_result *r);
/* The callback the trace saw fail, in words; false when none did. */
bool ps_failed_words(char *buf, size_t size, const struct ps_result *r);
/* The firmware's times from ACPI FPDT in words; false without FPDT. */
bool ps_firmware_words(char *buf, size_t size, const struct ps_result *r);
/* timeline.c */
void ps_timeline_probe(struct ps *p);
int ps_timeline(struct ps *p, int status);
/* userhib.c */
int ps_user_hibernate(struct ps *p, const struct ps_leg *l,
		      struct ps_result *r);
/* history.c */
void ps_history_log(struct ps *p);
int ps_history(struct ps *p, const char *mode_arg, bool set_timeout,
	       bool set_delay);
/* report.c */
void ps_report(struct ps *p, int status);
void ps_json_times(struct pm_out *o, const struct ps_result *r);
/* main.c: an --output FILE that cannot be made is exit 2, before anything. */
void ps_probe_output(struct ps *p);

#endif
