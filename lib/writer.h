/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: a tool's write: the lock, the journal, the transaction and its
 * report (lib/writer.c; tool layer: it prints and exits).
 */
#ifndef PM_WRITER_H
#define PM_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "txn.h"
#include "stop.h"
#include "journal.h"
#include "out.h"
#include "tool.h"

/* The writers' lock (CLI.md): pmctl and opp-set never interleave. */
#define PM_WRITER_LOCK "/run/opp-set.lock"

/*
 * A write of pmctl or opp-set: pm_writer_begin takes the lock (exit 4
 * when held, unless --dry-run) and restores the journal of a writer that
 * died mid-apply, each pm_writer_plan adds a file (exit 3 when it is not
 * there), and pm_writer_commit applies all of it or nothing, reports,
 * and returns the exit status.  From the first write to the last
 * read-back the old values are in the journal and a stop signal rolls
 * the writes back (exit 1).
 */
struct pm_writer {
	struct pm_tool *t;
	struct pm_ctx *ctx;
	struct pm_out *o;
	struct pm_txn txn;
	int lockfd;
	bool lock_denied;	/* no right to the lock: not root */
	bool perm_ok;		/* EPERM is the kernel's refusal, not root */
	bool diff;		/* dry-run lines "PATH: OLD -> NEW" */
	int code;		/* the exit status of a stage that failed */
	const char *name;	/* "name" of the JSON report, NULL none */
	void *arg;		/* the tool's own */
	/* A /sys/devices path: the device planners plan that device's
	 * files alone, and a line that matches no device is no error
	 * (opp-set --device); NULL: every device a line names. */
	const char *only;
	/* A value read back other than written (NULL: a plain warning). */
	void (*explain)(struct pm_writer *w, const struct pm_write *x);
	/* The message for the failed write (NULL: the file and errno). */
	void (*explain_fail)(struct pm_writer *w, const struct pm_write *x,
			     char *buf, size_t size);
	/* Called under the lock once every write is made and the journal
	 * is gone, before the report (opp-set records the point). */
	void (*on_applied)(struct pm_writer *w);
	struct pm_stop stop;	/* stop signals caught from the first write */
	struct pm_journal journal;
	struct pm_recovery rec;	/* what pm_writer_begin found and restored */
};

void pm_writer_begin(struct pm_writer *w, struct pm_tool *t,
		     struct pm_ctx *ctx, struct pm_out *o);
/* old NULL: read the file now. Returns the write's index. */
int pm_writer_plan(struct pm_writer *w, const char *path, const char *old,
		   const char *value, unsigned flags, void *tag);
/* The same, but a file planned already and not applied yet gets the new
 * value instead (a point that sets a file twice: the later one wins). */
int pm_writer_set(struct pm_writer *w, const char *path, const char *old,
		  const char *value, unsigned flags, void *tag);
/*
 * Apply what is planned so far, before planning more on what it made (a
 * driver's status, CPUs brought online).  Returns 0, or the exit status
 * of a failed write after the rollback (then commit only reports).
 * Until commit, an error that pm_die reports (a later stage that cannot
 * be planned) first undoes these writes and says so; its exit status
 * stays unless something could not be restored (then 1).
 */
int pm_writer_apply(struct pm_writer *w);
/*
 * Apply the rest, end the transaction (the journal removed), report, and
 * release the lock; returns the exit status.  A report that cannot be
 * written is exit 1 after saying whether the machine was changed.
 */
int pm_writer_commit(struct pm_writer *w);
/*
 * What pm_writer_begin does once it holds the lock (pmctl recover calls
 * it for a dry run): restore the journal a dead writer left (w->rec) and
 * say what was done.  Returns 0, or 1 when a file of it stays changed;
 * a journal that cannot be read or does not parse is exit 1.
 */
int pm_writer_recover(struct pm_writer *w);
/* Say what a recovery did (r->file named), under dry a comparison only:
 * 0, or 1 when a file of it stays changed or the journal stays. */
int pm_recovery_say(struct pm_tool *t, const struct pm_recovery *r,
		    bool dry);

#endif /* PM_WRITER_H */
