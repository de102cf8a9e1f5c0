/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the writers' journal of old values, restored after a writer
 * died mid-apply (lib/journal.c).
 */
#ifndef PM_JOURNAL_H
#define PM_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "nl80211.h"
#include "txn.h"

/*
 * The writers' journal (lib/journal.c): before the first write, the old
 * value of every file a write may change, in PM_JOURNAL under the root,
 * the file and its folder synced; removed after the last read-back or
 * the rollback.  A journal that is there when a writer takes the lock
 * was left by one that died mid-apply (SIGKILL, a crash, a power cut of
 * the kernel's own writes): pm_journal_recover puts it back.
 */
#define PM_STATE_DIR "/run/pmtools"
#define PM_JOURNAL PM_STATE_DIR "/journal"
/* pm-suspend's, under its own lock: the files a sleep changes. */
#define PM_SLEEP_JOURNAL PM_STATE_DIR "/sleep-journal"
#define PM_JOURNAL_VERSION 1

struct pm_journal {
	struct pm_ctx *ctx;
	const char *tool;	/* "opp-set", in the journal */
	const char *file;	/* PM_JOURNAL (init), or a name in
				 * PM_STATE_DIR: PM_SLEEP_JOURNAL */
	int dirfd;		/* PM_STATE_DIR, -1 not open yet */
	bool live;		/* written and not removed yet */
	char boot[40];		/* boot_id, "-" unreadable, "" not read */
};

void pm_journal_init(struct pm_journal *j, struct pm_ctx *ctx,
		     const char *tool);
/* Record the old values of t's writes (replacing the journal atomically):
 * 0 or -errno with the record naming the journal. */
int pm_journal_write(struct pm_journal *j, const struct pm_txn *t);
/* Remove it, the folder synced: 0 or -errno (record set). */
int pm_journal_remove(struct pm_journal *j);
void pm_journal_close(struct pm_journal *j);

/* One file of a journal found, and what its restore did. */
struct pm_jfile {
	char kind;		/* 'w' write, 'c' choice, 'o' one word or a
				 * choice, 's' snapshot, 'u', 'n' Wi-Fi
				 * power save */
	char path[PM_W_PATH];	/* 'n': pm_wifi_ps_name of ifname */
	char ifname[PM_IFNAME_MAX];	/* 'n': the interface */
	char old[PM_W_VAL];	/* to restore ("" not known: 'u') */
	char was[PM_W_VAL];	/* read before the restore ("" unread) */
	char got[PM_W_VAL];	/* read back after it */
	bool changed;		/* read otherwise than old: written back */
	bool restored;		/* written back and read back as old */
	int err;		/* errno of a failed restore, -1 reads otherwise */
};

struct pm_recovery {
	const char *file;	/* the journal: PM_JOURNAL, ... */
	bool found;		/* a journal was there */
	bool bad;		/* did not parse, or unsafe: left untouched */
	char why[320];		/* what is wrong with it ("line 3: ...") */
	bool earlier_boot;	/* written before the last boot: not restored */
	long pid;
	char tool[PM_NAME_MAX];
	char boot[40];
	int64_t time;		/* when it was written, seconds since the epoch */
	int n;
	struct pm_jfile *f;	/* in the journal's order */
	int changed;		/* files that read otherwise than their old */
	int restored;		/* of those, put back and read back */
	int failed;		/* could not be put back (err set) */
	int remove_err;		/* errno of its removal, 0 */
};

/*
 * With the writers' lock held: restore the journal a dead writer left,
 * last file first, each read back, then remove it; one written in an
 * earlier boot is removed unrestored (the kernel started afresh), one
 * that does not parse or that others could have written is left as it
 * is (r->bad).  Under ctx->dry_run, only compare.  0 (r says what was
 * found and done), or -errno when the journal cannot be read (the error
 * record names it).
 */
int pm_journal_recover(struct pm_ctx *ctx, struct pm_recovery *r);
/* The same for another journal of PM_STATE_DIR (PM_SLEEP_JOURNAL), with
 * the lock of its writers held. */
int pm_journal_recover_file(struct pm_ctx *ctx, const char *file,
			    struct pm_recovery *r);
void pm_recovery_free(struct pm_recovery *r);

#endif /* PM_JOURNAL_H */
