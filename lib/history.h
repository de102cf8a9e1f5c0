/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: pm-suspend's history (lib/history.c): one JSON line per sleep
 * cycle, appended to a log below the system root that is kept under a
 * size limit, read back strictly, and summed up per ISO week.
 */
#ifndef PM_HISTORY_H
#define PM_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "sleep.h"

#define PM_HIST_DIR "/var/log"
#define PM_HIST_NAME "pm-suspend-history.jsonl"
#define PM_HIST_LOG PM_HIST_DIR "/" PM_HIST_NAME
/* The log before the last rotation: read first, then PM_HIST_LOG. */
#define PM_HIST_OLD PM_HIST_LOG ".1"
/*
 * A log that has reached this size is renamed PM_HIST_OLD (replacing
 * the one before) ahead of the next line: the two stay under 2 MiB and a
 * line, some 4 000 cycles.
 */
#define PM_HIST_MAX (1 << 20)
#define PM_HIST_MAX_TEXT "1 MiB"
/* pm-suspend writes lines under 4 KiB: a longer one is not its. */
#define PM_HIST_LINE_MAX 8192

/*
 * Append one line (len bytes, ending in '\n') to PM_HIST_LOG with one
 * write() on an O_APPEND descriptor, so that a reader never sees half of
 * it; a log cut inside its last line (a crash in the write) gets the
 * '\n' it lacks in the same write, so that only that line is lost.  The
 * log is created 0640, never through a symlink, and rotated first when
 * it has reached PM_HIST_MAX.  0, or -errno with the record set.
 */
int pm_hist_append(struct pm_ctx *ctx, const char *line, size_t len);

/* How a cycle ended. */
enum pm_hist_result {
	PM_HIST_OK,		/* slept and resumed */
	PM_HIST_FAILED,		/* the kernel refused the state write */
	PM_HIST_SKIPPED,	/* the sleep was not entered */
};

/* The fields of a line that the summaries use. */
struct pm_hist_rec {
	int64_t time;			/* seconds since the epoch */
	enum pm_sleep_mode mode;
	enum pm_hist_result result;
	double resume_s;		/* pm-suspend's resume */
	double trace_resume_s;		/* the kernel's, from the trace; NAN */
	int64_t wake_irq;		/* -1: none recorded */
	char wake_irq_name[64];
	char failed_device[128];	/* "" none named */
	char failed_driver[64];
};

/*
 * Parse one line (len bytes, without its '\n') strictly: a JSON object
 * (RFC 8259, UTF-8, no key twice) with "v": 1 and the fields of struct
 * pm_hist_rec, each of its type ("time" an integer, "mode" a mode's
 * name, "result" "ok", "failed" or "skipped", times numbers >= 0 or
 * null where they may be), others keys any JSON.  0, or -EINVAL with
 * what is wrong in why.
 */
int pm_hist_parse(const char *line, size_t len, struct pm_hist_rec *r,
		  char *why, size_t size);

/* The lines of the log, the old one's first. */
struct pm_hist {
	struct pm_hist_rec *rec;
	int n, cap;
	int lines;			/* every line read */
	int unparsed;			/* lines that did not parse */
	char first_bad[PM_PATH_MAX + 32];	/* "FILE:LINE: why", "" */
	int files;			/* log files found (0-2) */
};

/*
 * Add the lines of text (len bytes) read from file to h: each parsed, or
 * counted in unparsed (the first named in first_bad), a last line
 * without its '\n' too.  0 or -ENOMEM.
 */
int pm_hist_add_text(struct pm_hist *h, const char *file, const char *text,
		     size_t len);
/* Read PM_HIST_OLD and PM_HIST_LOG into h: 0 (files says how many were
 * there), or -errno with the record set. */
int pm_hist_read(struct pm_ctx *ctx, struct pm_hist *h);
void pm_hist_free(struct pm_hist *h);

/* The ISO 8601 week of t in local time: 2026-W49 is year 2026, week 49. */
void pm_hist_iso_week(int64_t t, int *year, int *week);

struct pm_hist_wake {
	int64_t irq;			/* -1: none recorded */
	char name[64];			/* the IRQ's name, "" */
	unsigned cycles;
};

/* One ISO week's cycles. */
struct pm_hist_week {
	int year, week;
	unsigned cycles, ok, failed, skipped;
	/* Over the cycles that resumed: the median is the lower middle
	 * one, a time of the log; NAN when there are none. */
	unsigned nresume, ntrace;
	double resume_median_s, resume_worst_s;
	double trace_median_s, trace_worst_s;
	/* The resumed cycles by wake IRQ, the most frequent first. */
	struct pm_hist_wake *wake;
	int nwake;
};

/* The weeks of h, oldest first, in *w: their count, or -ENOMEM. */
int pm_hist_weeks(const struct pm_hist *h, struct pm_hist_week **w);
void pm_hist_weeks_free(struct pm_hist_week *w, int n);

#endif /* PM_HISTORY_H */
