// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Write transactions: every pmtools write goes through one, so a failure
 * half way leaves the kernel where it was, or names what it could not
 * put back.
 *
 * Interrupted and short writes (pm_attr_write): a write() that EINTR
 * interrupts before storing anything is retried.  A short write is a
 * failure, never continued: a sysfs store is one call of the attribute's
 * store() with the whole buffer, so "the rest" written again would be a
 * second store of a fragment ("00000" of "1200000"), a different value.
 * A store that failed or took part of the value may still have changed
 * the attribute, so the failed file is read back too and, if it no
 * longer reads as its old value, put back like the earlier writes (its
 * record's undone/undo_err say how that went).
 *
 * A stop signal caught (lib/stop.c) stops the apply before the next
 * write, and what was written is rolled back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "txn.h"
#include "core.h"
#include "stop.h"
#include "journal.h"
#include "nl80211.h"
#include "parse.h"

/* The value a PM_W_CHOICE file holds: the bracketed word of its list. */
static void choice_of(unsigned flags, const char *list, char *out,
		      size_t size)
{
	pm_choice_current(list, out, size);
	if ((flags & PM_W_SELECTED) && !out[0] && list[0] &&
	    !strpbrk(list, " \t[]"))
		snprintf(out, size, "%s", list);
}

/*
 * The strings' blocks: 16 KiB, from the heap (below malloc's mmap
 * threshold), about 160 writes each.  A string of more than an eighth of
 * a block (a long path) gets a block of its own behind the current one,
 * which stays the one strings are added to.
 */
#define STRBLK_SIZE 16384

struct pm_strblk {
	struct pm_strblk *prev;
	size_t size;		/* bytes of s */
	char s[];
};

const char *pm_txn_str(struct pm_txn *t, const char *s)
{
	struct pm_txn_strs *st = &t->strs;
	size_t len = strlen(s) + 1;
	struct pm_strblk *b;
	char *p;

	if (len == 1)
		return "";
	if (st->blk && st->blk->size - st->used >= len) {
		p = st->blk->s + st->used;
		st->used += len;
		return memcpy(p, s, len);
	}
	if (st->blk && len > STRBLK_SIZE / 8) {
		b = malloc(sizeof(*b) + len);
		if (!b)
			return NULL;
		b->size = len;
		b->prev = st->blk->prev;
		st->blk->prev = b;
		return memcpy(b->s, s, len);
	}
	b = malloc(STRBLK_SIZE > sizeof(*b) + len ? STRBLK_SIZE :
						     sizeof(*b) + len);
	if (!b)
		return NULL;
	b->size = STRBLK_SIZE > sizeof(*b) + len ? STRBLK_SIZE - sizeof(*b) :
						   len;
	b->prev = st->blk;
	st->blk = b;
	st->used = len;
	return memcpy(b->s, s, len);
}

void pm_txn_init(struct pm_txn *t, struct pm_ctx *ctx)
{
	memset(t, 0, sizeof(*t));
	t->ctx = ctx;
	t->failed = -1;
}

void pm_txn_free(struct pm_txn *t)
{
	struct pm_strblk *b = t->strs.blk;

	while (b) {
		struct pm_strblk *prev = b->prev;

		free(b);
		b = prev;
	}
	t->strs.blk = NULL;
	t->strs.used = 0;
	free(t->w);
	t->w = NULL;
	t->n = t->cap = 0;
}

/* w->got = text (w->val itself when the same); false: no memory. */
static bool keep_got(struct pm_txn *t, struct pm_write *w, const char *text)
{
	const char *s = strcmp(text, w->val) ? pm_txn_str(t, text) : w->val;

	if (!s)
		return false;
	w->got = s;
	return true;
}

int pm_txn_add_known(struct pm_txn *t, const char *path, const char *old,
		     const char *value, unsigned flags)
{
	struct pm_write *w;

	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		void *p = realloc(t->w, (size_t)cap * sizeof(*t->w));

		if (!p)
			return pm_err_set(t->ctx, "plan", path, value, ENOMEM,
					  NULL);
		t->w = p;
		t->cap = cap;
	}
	w = &t->w[t->n];
	memset(w, 0, sizeof(*w));
	if (!old)
		old = "";
	if (strlen(path) >= PM_W_PATH || strlen(value) >= PM_W_VAL ||
	    strlen(old) >= PM_W_VAL)
		return pm_err_set(t->ctx, "plan", path, value, ENAMETOOLONG,
				  "path or value too long");
	/* Each string its own length: a plan of thousands of writes. */
	w->path = pm_txn_str(t, path);
	w->val = pm_txn_str(t, value);
	w->old = strcmp(old, value) ? pm_txn_str(t, old) : w->val;
	w->got = "";
	if (!w->path || !w->val || !w->old)
		return pm_err_set(t->ctx, "plan", path, value, ENOMEM, NULL);
	w->flags = flags;
	w->skip = !(flags & (PM_W_FORCE | PM_W_NOREAD)) &&
		  !strcmp(w->old, w->val);
	return t->n++;
}

int pm_txn_add(struct pm_txn *t, const char *path, const char *value,
	       unsigned flags)
{
	char old[PM_W_VAL];
	ssize_t n = 0;

	old[0] = '\0';
	if (!(flags & PM_W_NOREAD)) {
		char list[PM_ATTR_MAX];

		n = pm_attr_read(t->ctx, path, list, sizeof(list));
		if (n < 0)
			return (int)n;
		if (flags & PM_W_CHOICE)
			choice_of(flags, list, old, sizeof(old));
		else if ((size_t)snprintf(old, sizeof(old), "%s", list) >=
			 sizeof(old))
			return pm_err_set(t->ctx, "plan", path, value,
					  ENAMETOOLONG,
					  "the current value is too long");
	}
	return pm_txn_add_known(t, path, old, value, flags);
}

int pm_txn_add_wifi_ps(struct pm_txn *t, const char *ifname,
		       const char *old, const char *value)
{
	char name[64];
	bool on;
	int i, r;

	if (!old) {
		r = pm_wifi_ps_get(t->ctx, ifname, &on);
		if (r < 0)
			return r;
		old = on ? "on" : "off";
	}
	pm_wifi_ps_name(ifname, name, sizeof(name));
	i = pm_txn_add_known(t, name, old, value, 0);
	if (i < 0)
		return i;
	t->w[i].kind = PM_WK_WIFI_PS;
	t->w[i].target = pm_txn_str(t, ifname);
	if (!t->w[i].target) {
		t->n--;
		return pm_err_set(t->ctx, "plan", name, value, ENOMEM, NULL);
	}
	return i;
}

void pm_txn_truncate(struct pm_txn *t, int n)
{
	/* The writes applied already stay. */
	if (n < t->next)
		n = t->next;
	if (n < t->n)
		t->n = n;
}

int pm_txn_set_alt(struct pm_txn *t, int i, const char *alt)
{
	t->w[i].alt = pm_txn_str(t, alt);
	return t->w[i].alt ? 0 : -ENOMEM;
}

int pm_txn_replace(struct pm_txn *t, const char *path, const char *value)
{
	for (int i = t->next; i < t->n; i++) {
		struct pm_write *x = &t->w[i];
		char v[PM_W_VAL];

		if (strcmp(x->path, path) || (x->flags & PM_W_RESTORE))
			continue;
		snprintf(v, sizeof(v), "%s", value);
		x->val = pm_txn_str(t, v);
		if (!x->val) {
			x->val = "";
			return pm_err_set(t->ctx, "plan", path, value, ENOMEM,
					  NULL);
		}
		x->skip = !(x->flags & (PM_W_FORCE | PM_W_NOREAD)) &&
			  !strcmp(x->old, x->val);
		return i;
	}
	return -1;
}

int pm_txn_changes(const struct pm_txn *t)
{
	int k = 0;

	for (int i = 0; i < t->n; i++)
		k += !t->w[i].skip;
	return k;
}

/* What w's target holds now (the bracketed word of a choice): 0 or
 * -errno. */
static int target_read(struct pm_txn *t, const struct pm_write *w,
		       char *buf, size_t size)
{
	char list[PM_ATTR_MAX];
	bool on;

	if (w->kind == PM_WK_WIFI_PS) {
		if (pm_wifi_ps_get(t->ctx, w->target, &on) < 0)
			return -t->ctx->err.err;
		snprintf(buf, size, "%s", on ? "on" : "off");
		return 0;
	}
	if (!(w->flags & PM_W_CHOICE))
		return pm_attr_read_near(t->ctx, w->path, buf, size) < 0 ?
			       -t->ctx->err.err : 0;
	if (pm_attr_read_near(t->ctx, w->path, list, sizeof(list)) < 0)
		return -t->ctx->err.err;
	choice_of(w->flags, list, buf, size);
	return 0;
}

/* Write value to w's target, unverified: 0 or -errno. */
static int target_write(struct pm_txn *t, const struct pm_write *w,
			const char *value)
{
	if (w->kind == PM_WK_WIFI_PS)
		return pm_wifi_ps_set(t->ctx, w->target,
				      !strcmp(value, "on"));
	return pm_attr_write(t->ctx, w->path, value);
}

static void read_back(struct pm_txn *t, struct pm_write *w, char *buf,
		      size_t size)
{
	if (target_read(t, w, buf, size) < 0)
		buf[0] = '\0';
}

/*
 * Write value to w's file and read it back into got, through the one fd
 * of a verified write (pm_attr_write_back).  A write that reshapes
 * folders (PM_W_RESHAPE) drops the cached folder fd first and reads
 * back by a fresh open.  0 or -errno of the write (got untouched then).
 */
static int write_verified(struct pm_txn *t, struct pm_write *w,
			  const char *value, char *got, size_t size)
{
	char list[PM_ATTR_MAX];
	int r;

	if (w->kind != PM_WK_FILE) {
		r = target_write(t, w, value);
		if (r == 0)
			read_back(t, w, got, size);
		return r;
	}
	if (w->flags & PM_W_RESHAPE) {
		r = pm_attr_write(t->ctx, w->path, value);
		pm_ctx_forget_near(t->ctx);
		if (r == 0)
			read_back(t, w, got, size);
		return r;
	}
	if (!(w->flags & PM_W_CHOICE))
		return pm_attr_write_back(t->ctx, w->path, value, got, size);
	r = pm_attr_write_back(t->ctx, w->path, value, list, sizeof(list));
	if (r == 0)
		choice_of(w->flags, list, got, size);
	return r;
}

/* A PM_W_RESTORE snapshot, once the writes after it are undone: a file
 * that is gone (its governor not running) is nothing to put back. */
static void restore_snapshot(struct pm_txn *t, struct pm_write *w)
{
	char now[PM_W_VAL];

	if (t->ctx->dry_run ||
	    pm_attr_read(t->ctx, w->path, now, sizeof(now)) < 0 ||
	    !strcmp(now, w->old))
		return;
	if (pm_attr_write(t->ctx, w->path, w->old) < 0) {
		w->undo_err = t->ctx->err.err;
		t->not_restored++;
		return;
	}
	read_back(t, w, now, sizeof(now));
	if (strcmp(now, w->old)) {
		w->undo_err = keep_got(t, w, now) ? -1 : ENOMEM;
		t->not_restored++;
		return;
	}
	w->undone = true;
}

static void roll_back(struct pm_txn *t, int upto)
{
	struct pm_err keep = t->ctx->err;
	char now[PM_W_VAL];
	int r;

	t->rolled_back = true;
	for (int i = upto - 1; i >= 0; i--) {
		struct pm_write *w = &t->w[i];

		if (w->flags & PM_W_RESTORE) {
			restore_snapshot(t, w);
			continue;
		}
		if (!w->done)
			continue;
		if (w->flags & PM_W_NOUNDO) {
			/* Undone with an earlier write (the governor). */
			w->undone = true;
			continue;
		}
		if ((w->flags & PM_W_NOREAD) || !w->old[0]) {
			w->undo_err = ENODATA;
			t->not_restored++;
			continue;
		}
		r = write_verified(t, w, w->old, now, sizeof(now));
		if (r < 0) {
			w->undo_err = t->ctx->err.err;
			t->not_restored++;
			continue;
		}
		if (strcmp(now, w->old)) {
			w->undo_err = keep_got(t, w, now) ? -1 : ENOMEM;
			t->not_restored++;
			continue;
		}
		w->undone = true;
	}
	t->ctx->err = keep;
}

void pm_txn_undo(struct pm_txn *t)
{
	if (!t->rolled_back && t->next > 0)
		roll_back(t, t->next);
}

/*
 * The write w failed: if it changed the file all the same (a short
 * write, a store that failed half way), restore it.
 */
static void restore_failed(struct pm_txn *t, struct pm_write *w)
{
	struct pm_err keep = t->ctx->err;
	char now[PM_W_VAL];

	/* NOUNDO: the earlier write it depends on (the governor) undoes it. */
	if (t->ctx->dry_run || (w->flags & (PM_W_NOREAD | PM_W_NOUNDO)) ||
	    !w->old[0])
		return;
	/* Unreadable: nothing known, nothing done. */
	if (target_read(t, w, now, sizeof(now)) < 0 || !strcmp(now, w->old))
		goto out;
	if (target_write(t, w, w->old) < 0) {
		w->undo_err = t->ctx->err.err;
		goto out;
	}
	read_back(t, w, now, sizeof(now));
	if (strcmp(now, w->old)) {
		w->undo_err = keep_got(t, w, now) ? -1 : ENOMEM;
		goto out;
	}
	w->undone = true;
out:
	t->ctx->err = keep;
}

/*
 * A PM_W_LATE write, when its turn comes: the file (or alt) is read now
 * that the earlier writes made it, and from here on it is an ordinary
 * write with an old value to restore.  -errno when it is not there.
 */
static int late_read(struct pm_txn *t, struct pm_write *w)
{
	char now[PM_W_VAL];

	if (!pm_exists(t->ctx, w->path) && w->alt &&
	    pm_exists(t->ctx, w->alt))
		w->path = w->alt;
	if (pm_attr_read(t->ctx, w->path, now, sizeof(now)) < 0)
		return -t->ctx->err.err;
	w->old = pm_txn_str(t, now);
	if (!w->old) {
		w->old = "";
		return pm_err_set(t->ctx, "plan", w->path, w->val, ENOMEM,
				  NULL);
	}
	w->flags &= ~(unsigned)(PM_W_NOREAD | PM_W_LATE);
	w->skip = !(w->flags & PM_W_FORCE) && !strcmp(w->old, w->val);
	return 0;
}

/* Does the stage from t->next write anything (a PM_W_LATE file may)? */
static bool stage_writes(const struct pm_txn *t)
{
	for (int i = t->next; i < t->n; i++)
		if (!t->w[i].skip || (t->w[i].flags & PM_W_LATE))
			return true;
	return false;
}

/* The journal before write i (and the rollback of every stage if it
 * cannot be written: without it a SIGKILL could not be undone). */
static int journal(struct pm_txn *t, int i)
{
	int r;

	if (!t->journal || t->ctx->dry_run)
		return 0;
	r = pm_journal_write(t->journal, t);
	if (r < 0) {
		t->journal_err = -r;
		roll_back(t, i);
	}
	return r;
}

int pm_txn_apply(struct pm_txn *t)
{
	if (stage_writes(t) && journal(t, t->next) < 0)
		return -t->journal_err;
	for (int i = t->next; i < t->n; i++) {
		struct pm_write *w = &t->w[i];
		char got[PM_W_VAL];
		int r;

		if (pm_stop_caught() && !t->ctx->dry_run) {
			t->stopped = pm_stop_caught();
			roll_back(t, i);
			return -EINTR;
		}
		if ((w->flags & PM_W_LATE) && !t->ctx->dry_run) {
			if (late_read(t, w) < 0) {
				w->err = t->ctx->err.err;
				t->failed = i;
				roll_back(t, i);
				return -w->err;
			}
			/* Its old value, now known, goes in first. */
			if (!w->skip && journal(t, i) < 0)
				return -t->journal_err;
		}
		if (w->skip)
			continue;
		if (t->ctx->dry_run || (w->flags & PM_W_NOREAD)) {
			r = target_write(t, w, w->val);
			if (w->flags & PM_W_RESHAPE)
				pm_ctx_forget_near(t->ctx);
		} else {
			r = write_verified(t, w, w->val, got, sizeof(got));
			/* Kept only when it differs from the value. */
			if (r == 0 && !keep_got(t, w, got))
				r = pm_err_set(t->ctx, "read", w->path, NULL,
					       ENOMEM, NULL);
		}
		if (r < 0) {
			w->err = t->ctx->err.err;
			t->failed = i;
			restore_failed(t, w);
			roll_back(t, i);
			return -w->err;
		}
		w->done = true;
	}
	t->next = t->n;
	return 0;
}
