/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the kernel's trace of a sleep (lib/trace.c): the text of
 * tracefs' trace file holding the power:suspend_resume,
 * power:device_pm_callback_start and power:device_pm_callback_end
 * events, parsed strictly into the phases and the device callbacks.
 */
#ifndef PM_TRACE_H
#define PM_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "txn.h"

/* Which way a phase or a callback goes. */
enum pm_trace_dir {
	PM_TRACE_OTHER,		/* neither (CPU_ON's val, an unknown name) */
	PM_TRACE_SUSPEND,
	PM_TRACE_RESUME,
};

/* One suspend_resume begin .. end ("dpm_suspend[2] begin"). */
struct pm_trace_span {
	char name[32];		/* the action: dpm_suspend, machine_suspend */
	uint32_t val;		/* the [N]: the PM event or state, a CPU */
	uint64_t begin_us;	/* trace clock, microseconds */
	uint64_t end_us;	/* PM_UNKNOWN: no end in the trace */
	enum pm_trace_dir dir;
};

/* One device callback: device_pm_callback_start .. _end. */
struct pm_trace_cb {
	char device[128];	/* dev_name: may hold spaces */
	char driver[64];	/* the driver, bus or class name; "" none */
	char parent[128];	/* "none" for a device without one */
	char ops[32];		/* "late bus", "noirq driver", "" */
	char event[12];		/* suspend, resume, freeze, thaw, ... */
	int span;		/* the dpm_* phase it ran in, -1 none */
	uint64_t start_us;
	uint64_t end_us;	/* PM_UNKNOWN: no end in the trace */
	int error;		/* the callback's return (-errno), 0 */
	int cpu;
	enum pm_trace_dir dir;	/* from the event */
};

struct pm_trace {
	struct pm_trace_span *span;
	int nspan, capspan;
	struct pm_trace_cb *cb;
	int ncb, capcb;
	int lines;		/* every line, the header's too */
	int header;		/* "#" lines */
	int events;		/* lines of our three events, parsed */
	int other;		/* lines of other events: not ours */
	int unparsed;		/* lines that do not parse (truncated too) */
	int first_bad;		/* line number of the first, 0 */
	int unmatched;		/* ends without a start, in the trace */
	int lost_marks;		/* "CPU:N [LOST ...]" lines */
	uint64_t lost;		/* the events they count */
	bool lost_unknown;	/* a mark without a count */
	bool truncated;		/* the text ends inside a line */
};

/*
 * Parse the text of a trace file (len bytes, no NUL needed).  Every line
 * is either parsed, a header or another event's (counted), or counted in
 * unparsed, never guessed at.  0, or -ENOMEM (t freed).
 */
int pm_trace_parse(const char *text, size_t len, struct pm_trace *t);
void pm_trace_free(struct pm_trace *t);

/* A span's or a callback's duration in microseconds, PM_UNKNOWN. */
uint64_t pm_trace_span_us(const struct pm_trace_span *s);
uint64_t pm_trace_cb_us(const struct pm_trace_cb *c);
/* The direction of a phase name ("dpm_resume": resume), of a verb. */
enum pm_trace_dir pm_trace_phase_dir(const char *name);
enum pm_trace_dir pm_trace_event_dir(const char *event);

/*
 * The slowest ended callbacks going dir: their indexes into idx (at most
 * n), slowest first, ties in trace order.  Returns how many.
 */
int pm_trace_slowest(const struct pm_trace *t, enum pm_trace_dir dir,
		     int *idx, int n);
/* The first callback that returned an error, -1 none. */
int pm_trace_failed(const struct pm_trace *t);

/*
 * The sleep in three: suspend (from the trace's first event to the
 * machine's sleep), asleep (machine_suspend, the last one) and resume
 * (from its end to the trace's last event).  -ENOENT when the trace has
 * no machine_suspend with both ends (the sleep failed, or the trace lost
 * it).
 */
struct pm_trace_split {
	uint64_t suspend_us, asleep_us, resume_us;
};
int pm_trace_split(const struct pm_trace *t, struct pm_trace_split *s);

/* ------------------------------------------------------------ tracefs */

/*
 * The tracefs folder below the system root: /sys/kernel/tracing, else
 * /sys/kernel/debug/tracing, where its trace file is (an empty folder is
 * tracefs not mounted).  0 with *dir set, or -ENOENT.
 */
int pm_tracefs_find(struct pm_ctx *ctx, const char **dir);
/* Whether /proc/self/mountinfo's text has a mount on dir (its fifth
 * field, \ooo escapes decoded). */
bool pm_mountinfo_has(const char *text, size_t len, const char *dir);
/* 1 when /sys/kernel/tracing below the root is an empty folder that is
 * no mount point (not in mountinfo, on its parent's device): tracefs
 * may be mounted there; 0 when not, or -errno. */
int pm_tracefs_unmounted(struct pm_ctx *ctx, const char *mountinfo,
			 size_t len);
/*
 * On the real root only (never under --sysroot; the guard refuses it
 * under PM_TEST_GUARD=1): mount tracefs on /sys/kernel/tracing when
 * pm_tracefs_unmounted says so.  1 mounted (pm_tracefs_umount after),
 * 0 nothing done, -errno with the record.
 */
int pm_tracefs_mount(struct pm_ctx *ctx);
int pm_tracefs_umount(struct pm_ctx *ctx);
/*
 * Plan the tracing of a sleep in t: tracing_on 0, current_tracer nop,
 * the three power events enabled, the buffer cleared, tracing_on 1
 * (buffer_size_kb as it is: a size written reads back rounded to the
 * kernel's pages, and could not be put back as found).  Each file is read now, so that undoing
 * t puts it back as found (the clear aside: what the buffer held is
 * gone).  0, or -errno with the record (-ENOENT: a file missing, as
 * without the power events).
 */
int pm_trace_plan(struct pm_txn *t, const char *dir);
/* The trace file's text (malloc'd) and its length: 0 or -errno. */
int pm_trace_read(struct pm_ctx *ctx, const char *dir, char **text,
		  size_t *len);
/* Without tracefs: /sys/power/pm_print_times = 1 planned in t, the
 * kernel then logs each device's callback time.  0 or -errno. */
int pm_print_times_plan(struct pm_txn *t);
/* suspend_stats/last_hw_sleep (Linux 6.8): microseconds, PM_UNKNOWN. */
uint64_t pm_last_hw_sleep_us(struct pm_ctx *ctx);

/*
 * The S3 records of the ACPI Firmware Performance Data Table, as
 * /sys/firmware/acpi/fpdt/ gives them (Linux 5.12): the firmware's own
 * timer, in nanoseconds, of the last S3 cycle.  PM_UNKNOWN where a file
 * is missing or is not a number.
 */
struct pm_fpdt {
	uint64_t resume_count;		/* S3 resumes since the boot */
	uint64_t resume_prev_ns;	/* the firmware's last resume, to the
					 * OS waking vector */
	uint64_t resume_avg_ns;		/* the average of them all */
	uint64_t suspend_start_ns;	/* the OS's write of SLP_TYP */
	uint64_t suspend_end_ns;	/* the firmware's write of SLP_TYP */
};
/* 0 with what is there, -ENOENT when neither record is (all unknown). */
int pm_fpdt_read(struct pm_ctx *ctx, struct pm_fpdt *f);
/* The firmware's suspend, end - start, PM_UNKNOWN where not given.
 * Its resume is resume_prev_ns itself: the timer starts again at the
 * reset vector, so its value at the hand-off to the OS is the time. */
uint64_t pm_fpdt_suspend_ns(const struct pm_fpdt *f);

#endif /* PM_TRACE_H */
