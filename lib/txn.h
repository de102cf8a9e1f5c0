/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: write transactions: planned writes applied in order, read back,
 * rolled back on failure (lib/txn.c).
 */
#ifndef PM_TXN_H
#define PM_TXN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/*
 * A transaction: writes planned first (each file's value read then),
 * applied in order, each read back; on the first failure every write
 * already made is undone in reverse order and read back, so the kernel
 * ends either fully at the new values or where it was.
 */
enum {
	PM_W_FORCE = 1 << 0,	/* write even when the file reads the same */
	PM_W_NOUNDO = 1 << 1,	/* undone by undoing an earlier write */
	PM_W_NOREAD = 1 << 2,	/* no old value to read (nor read back) */
	PM_W_CHOICE = 1 << 3,	/* reads as "a [b] c": the bracketed one */
	/* The file appears with an earlier write of the plan (a governor's
	 * tunables): planned with PM_W_NOREAD, read just before it is
	 * written (then alt, if path is not there), then an ordinary write. */
	PM_W_LATE = 1 << 4,
	/* A snapshot only a rollback writes: planned as old = val (so never
	 * written going forward), put back after the later writes are undone
	 * if the file reads otherwise then (a governor's tunables, which the
	 * kernel resets when the governor stops and starts again). */
	PM_W_RESTORE = 1 << 5,
	/* The write removes and recreates folders (CPU hotplug, a driver's
	 * status): cached folder fds are dropped after it and its undo. */
	PM_W_RESHAPE = 1 << 6,
	/* With PM_W_CHOICE: a file that reads one word, no brackets, reads
	 * as that word (a kernel that offers one choice, or a plain file
	 * standing for the list: the sleep files of pm-suspend). */
	PM_W_SELECTED = 1 << 7,
};

#define PM_W_PATH PM_PATH_MAX	/* a USB device behind hubs and docks */
#define PM_W_VAL 128		/* a value's longest text, with its NUL */

/* What a write changes. */
enum pm_wkind {
	PM_WK_FILE = 0,		/* the file path */
	/* The power save of the wireless interface target, through
	 * nl80211 (lib/nl80211.c), "on" or "off"; path is its name as
	 * shown (pm_wifi_ps_name: "nl80211:wlan0/power_save"). */
	PM_WK_WIFI_PS,
};

/*
 * One planned write.  Its strings are the transaction's (struct
 * pm_txn_strs), each as long as its text: a plan of thousands of writes
 * holds about 100 bytes a write, not three PM_W_VAL buffers.  They stay
 * until pm_txn_free; a caller may point one at a string of its own that
 * lives as long (a test's literal).
 */
struct pm_write {
	const char *path;	/* system path, as shown */
	const char *old;	/* before ("" unreadable) */
	const char *val;	/* to write */
	const char *got;	/* read back after the write ("" none); val
				 * itself when it read back as val */
	const char *alt;	/* PM_W_LATE: the other place, NULL */
	enum pm_wkind kind;
	const char *target;	/* PM_WK_WIFI_PS: the interface, NULL */
	void *tag;		/* the caller's, for messages */
	unsigned flags;
	int err;		/* errno of a failed write, 0 */
	int undo_err;		/* errno of a failed restore, -1 mismatch */
	bool skip;		/* already at val: not written */
	bool done;		/* written */
	bool undone;		/* restored and read back as old */
};

/* The strings of a transaction's writes: copied one after the other into
 * blocks that never move, freed all at once with the transaction. */
struct pm_txn_strs {
	struct pm_strblk *blk;	/* the newest block, linked to the older */
	size_t used;		/* bytes of it used */
};

struct pm_journal;

struct pm_txn {
	struct pm_ctx *ctx;
	struct pm_write *w;
	int n, cap;
	int failed;		/* index of the failed write, -1 */
	int not_restored;	/* writes that could not be undone */
	int next;		/* the first write not applied yet */
	bool rolled_back;
	int stopped;		/* the signal that stopped the apply, 0 */
	/* Written before the first write of each stage and of each
	 * PM_W_LATE file (NULL: none, as in a dry run). */
	struct pm_journal *journal;
	int journal_err;	/* errno of a journal that could not be made */
	struct pm_txn_strs strs;
};

void pm_txn_init(struct pm_txn *t, struct pm_ctx *ctx);
void pm_txn_free(struct pm_txn *t);
/*
 * Plan path = value, reading the file's value now.  Returns the index of
 * the write, or -errno when the file cannot be read (ENOENT: not offered
 * here; the error record names it).  PM_W_NOREAD plans without reading.
 */
int pm_txn_add(struct pm_txn *t, const char *path, const char *value,
	       unsigned flags);
/*
 * Plan an interface's Wi-Fi power save = value ("on" or "off"), old its
 * value now (NULL: read it now through nl80211): the write's index or
 * -errno (record set).
 */
int pm_txn_add_wifi_ps(struct pm_txn *t, const char *ifname,
		       const char *old, const char *value);
/* Same with the old value already known (from a model just read). */
int pm_txn_add_known(struct pm_txn *t, const char *path, const char *old,
		     const char *value, unsigned flags);
/*
 * Apply the plan (under ctx->dry_run only the write hook sees it), from
 * the first write not applied yet: a plan may be applied in stages, each
 * planned on what the one before made.  0 when every write was made;
 * else -errno of the failed write, after the rollback of every stage:
 * t->failed names it, t->not_restored counts the files left changed
 * (each with undo_err set).  A stop signal caught (pm_stop_catch) before
 * a write is -EINTR after the rollback, with t->stopped set and
 * t->failed -1; a journal that cannot be written (t->journal) is its
 * -errno, with t->journal_err set, before the stage's first write.
 */
int pm_txn_apply(struct pm_txn *t);
/* Undo every write applied so far, in reverse order (an error found
 * while planning a later stage); t->not_restored counts the failures. */
void pm_txn_undo(struct pm_txn *t);
/* Forget the writes planned from index n on (none applied yet); their
 * strings stay with the transaction until pm_txn_free. */
void pm_txn_truncate(struct pm_txn *t, int n);
/* Write i's other place (PM_W_LATE), copied: 0 or -ENOMEM. */
int pm_txn_set_alt(struct pm_txn *t, int i, const char *alt);
/* A copy of s that lives as long as t's writes, NULL (ENOMEM). */
const char *pm_txn_str(struct pm_txn *t, const char *s);
/*
 * A file planned already and not applied yet (a point that sets it twice):
 * its value becomes value, written once, skipped when the file reads so.
 * Returns the write's index, -1 when path is not planned (a rollback's
 * snapshot, PM_W_RESTORE, is not a planned value), or -ENOMEM.
 */
int pm_txn_replace(struct pm_txn *t, const char *path, const char *value);
/* Writes that change something (not skipped). */
int pm_txn_changes(const struct pm_txn *t);

#endif /* PM_TXN_H */
