/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: system sleep: /sys/power, suspend statistics, hibernation, the
 * RTC alarm (lib/sleep.c).
 */
#ifndef PM_SLEEP_H
#define PM_SLEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "txn.h"

#define PM_MAX_CHOICES 16

struct pm_sleep {
	char state[128];	/* raw text, "" absent */
	char mem_sleep[128];
	char disk[128];
	char pm_test[128];
	char resume[32];
	uint64_t resume_offset, image_size;
	bool have_power;	/* /sys/power exists */
	/* suspend_stats */
	uint64_t success, fail;
	char last_failed_dev[128];
	int64_t last_failed_errno;
	char last_failed_step[32];
};

int pm_sleep_read(struct pm_ctx *ctx, struct pm_sleep *s);
/* Is word among the choices of a choice list? */
bool pm_choice_offered(const char *list, const char *word);

/* Sleep modes of pm-suspend (CLI.md). */
enum pm_sleep_mode {
	PM_MODE_SUSPEND,
	PM_MODE_S2IDLE,
	PM_MODE_STANDBY,
	PM_MODE_DEEP,
	PM_MODE_HIBERNATE,
	PM_MODE_HYBRID,
	PM_MODE_SUSPEND_THEN_HIBERNATE,
};

/* "suspend", "freeze" (= s2idle), "shallow" (= standby) ...; -EINVAL. */
int pm_sleep_mode_parse(const char *s, enum pm_sleep_mode *m);
const char *pm_sleep_mode_name(enum pm_sleep_mode m);
/*
 * Who writes a hibernation image: the kernel, or pmtools' own writer
 * (--userspace), which stores it compressed.  The safety check takes
 * the image's size as Active(anon) for the kernel's, and as
 * PM_HIB_USER_PCT % of it, the compressed estimate, for pmtools'.
 */
enum pm_hib_writer { PM_HIB_KERNEL, PM_HIB_USER };
#define PM_HIB_USER_PCT 50
/*
 * Can the mode be entered here?  0 if so; -EOPNOTSUPP with the reason
 * (what the kernel offers instead, or why hibernation is unsafe) in
 * reason.  hib_mode: the disk mode hibernation would use ("platform");
 * w: who would write its image.
 */
int pm_sleep_check(struct pm_ctx *ctx, enum pm_sleep_mode m,
		   const char *hib_mode, enum pm_hib_writer w, char *reason,
		   size_t size);
/* The hibernation safety check alone (resume device, swap, space). */
int pm_hibernate_check(struct pm_ctx *ctx, enum pm_hib_writer w,
		       char *reason, size_t size);
/* pm_sleep_check without the hibernation safety check (--force). */
int pm_sleep_offered(struct pm_ctx *ctx, enum pm_sleep_mode m,
		     const char *hib_mode, char *reason, size_t size);
/* The selected word of a choice list, or the value itself if one word. */
void pm_choice_selected(const char *list, char *out, size_t size);

/* The counters of /sys/power/suspend_stats (PM_UNKNOWN when absent). */
#define PM_SUSPEND_STATS 10
extern const char *const pm_suspend_stat_names[PM_SUSPEND_STATS];
struct pm_suspend_stats {
	uint64_t v[PM_SUSPEND_STATS];
	char last_failed_dev[128];
	int64_t last_failed_errno;	/* PM_UNKNOWN_S64 when absent */
	char last_failed_step[32];
};
void pm_suspend_stats_read(struct pm_ctx *ctx, struct pm_suspend_stats *s);

/*
 * Read /sys/power/wakeup_count, which blocks while wakeup events are in
 * flight, for at most timeout_s seconds (-ETIMEDOUT then; -EINTR for
 * any other signal).
 */
int pm_wakeup_count_read(struct pm_ctx *ctx, double timeout_s,
			 uint64_t *count);

/* An RTC (/sys/class/rtc/NAME). */
struct pm_rtc {
	char name[32];
	char path[PM_PATH_MAX];		/* /sys/class/rtc/NAME */
	uint64_t now;			/* since_epoch, PM_UNKNOWN */
	uint64_t alarm;			/* wakealarm, 0 when none */
	char wakeup[16];		/* device/power/wakeup, "" absent */
};
/* -ENOENT when there is no such RTC or it has no wakealarm. */
int pm_rtc_read(struct pm_ctx *ctx, const char *name, struct pm_rtc *r);
/* Does /etc/adjtime say the RTC keeps local time (third line LOCAL)? */
bool pm_rtc_local(struct pm_ctx *ctx);

/*
 * The files pm-suspend changes around a sleep (/sys/power's pm_test,
 * disk and mem_sleep, the RTC's alarm) in one transaction (txn.h): each
 * read when planned, written, read back.  A write the kernel refuses or
 * does not keep (it reads back otherwise) undoes every write made before
 * it, and pm_sleep_undo puts them all back after the sleep.  The
 * wakeup_count handshake and the state write are not in it: neither can
 * be read back (the state write is the sleep itself).
 */
struct pm_sleep_txn {
	struct pm_txn txn;
	int mismatch;		/* the write read back otherwise, -1 */
};

void pm_sleep_txn_init(struct pm_sleep_txn *s, struct pm_ctx *ctx);
void pm_sleep_txn_free(struct pm_sleep_txn *s);
/* Plan /sys/power/NAME (a choice list) = value: not written when it is
 * selected already.  0, or -errno with the error record. */
int pm_sleep_plan_choice(struct pm_sleep_txn *s, const char *name,
			 const char *value);
/*
 * Plan the RTC's alarm at when (RTC seconds), cleared first when replace
 * (the kernel refuses a second alarm).  Not undone by pm_sleep_undo:
 * pm_rtc_alarm_clear clears it after the sleep.  0 or -errno.
 */
int pm_sleep_plan_alarm(struct pm_sleep_txn *s, const char *rtc,
			uint64_t when, bool replace);
/*
 * Apply what is planned since the last apply (ctx->dry_run: the write
 * hook only).  0, or -errno after every write made is undone: the error
 * record names the failed write; a value read back otherwise is -EIO,
 * with s->mismatch its index and the record saying what it read.
 */
int pm_sleep_apply(struct pm_sleep_txn *s);
/* Put back every write made, in reverse order, each read back; returns
 * how many could not be (each with its undo_err, txn.h). */
int pm_sleep_undo(struct pm_sleep_txn *s);
/* The handshake (kernel-abi.md): the count read before the sleep
 * written back; EINVAL when a wakeup event came in between. */
int pm_wakeup_count_write(struct pm_ctx *ctx, uint64_t count);
/* The sleep itself: state written to /sys/power/state, returning once
 * the machine is back (or the kernel refused: -errno). */
int pm_sleep_enter(struct pm_ctx *ctx, const char *state);
/* Could /sys/power/state be written (the guard, then the right)?  0,
 * -EPERM with the record when the guard refuses, -EACCES. */
int pm_sleep_state_writable(struct pm_ctx *ctx);
/* The IRQ that woke the machine (pm_wakeup_irq): 0 or -errno. */
int pm_wakeup_irq_read(struct pm_ctx *ctx, uint64_t *irq);
/* Does the kernel sync filesystems on entry (sync_on_suspend is 1)? */
bool pm_sleep_syncs(struct pm_ctx *ctx);
/* The RTC's alarm file into buf: false when name is not an RTC name. */
bool pm_rtc_alarm_path(const char *name, char *buf, size_t size);
/*
 * After the sleep: clear the alarm pm_sleep_plan_alarm set, unless the
 * kernel did (an alarm that fired is disabled).  0 or -errno.
 */
int pm_rtc_alarm_clear(struct pm_ctx *ctx, const char *rtc);

/* The wakeup sources of /sys/class/wakeup, for what moved over a sleep. */
struct pm_wsrc {
	char id[32];			/* wakeup3 */
	char name[PM_NAME_MAX];		/* its name file */
	uint64_t event_count, wakeup_count;
};
/* *out malloc'ed; the count, or -errno. */
int pm_wakeup_sources_read(struct pm_ctx *ctx, struct pm_wsrc **out);
/* The action names of IRQ irq in /proc/interrupts into name ("" if none). */
void pm_irq_name(struct pm_ctx *ctx, unsigned irq, char *name, size_t size);

#endif /* PM_SLEEP_H */
