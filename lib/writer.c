// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every write of pmctl and opp-set shares: the writers' lock, the
 * journal of a writer that died mid-apply put back, the plan, the apply
 * with its rollback (after a failed write, or a stop signal), and the
 * report (dry-run or diff lines, warnings for values the kernel changed,
 * the JSON record of every write).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "writer.h"
#include "core.h"
#include "txn.h"
#include "stop.h"
#include "journal.h"
#include "lock.h"
#include "out.h"
#include "tool.h"

#define STDOUT_NAME "standard output"

int pm_recovery_say(struct pm_tool *t, const struct pm_recovery *r,
		    bool dry)
{
	if (!r->found)
		return PM_EXIT_OK;
	if (r->earlier_boot) {
		pm_note(t, "%s: left by %s (pid %ld) in an earlier boot: "
			   "not restored, the kernel started afresh; %s",
			r->file, r->tool, r->pid,
			dry ? "it would be removed" : "removed");
	} else {
		for (int i = r->n - 1; i >= 0; i--) {
			const struct pm_jfile *x = &r->f[i];

			if (x->err > 0 && x->err != ENODATA)
				pm_warn(t, "could not restore %s to '%s': "
					   "%s (%s)",
					x->path, x->old, strerror(x->err),
					pm_errno_name(x->err));
			else if (x->err == ENODATA)
				pm_warn(t, "could not restore %s: its old "
					   "value is not known",
					x->path);
			else if (x->err == -1)
				pm_warn(t, "could not restore %s to '%s': "
					   "it reads '%s'",
					x->path, x->old, x->got);
			else if (x->changed && t->verbose > 0)
				pm_note(t, "%s %s: %s -> %s",
					dry ? "would restore" : "restored",
					x->path, x->was, x->old);
		}
		if (r->failed)
			pm_warn(t, "%s (pid %ld) died mid-apply: restored "
				   "%d file%s, %d could not be restored "
				   "(%s)",
				r->tool, r->pid, r->restored,
				r->restored == 1 ? "" : "s", r->failed,
				r->file);
		else if (dry)
			pm_note(t, "%s (pid %ld) died mid-apply: %d file%s "
				   "would be restored (%s)",
				r->tool, r->pid, r->changed,
				r->changed == 1 ? "" : "s", r->file);
		else if (r->changed)
			pm_note(t, "%s (pid %ld) died mid-apply: restored "
				   "the %d file%s it had changed (%s)",
				r->tool, r->pid, r->changed,
				r->changed == 1 ? "" : "s", r->file);
		else
			pm_note(t, "%s (pid %ld) died mid-apply before it "
				   "changed anything (%s removed)",
				r->tool, r->pid, r->file);
	}
	if (r->remove_err)
		pm_warn(t, "could not remove %s: %s (%s)", r->file,
			strerror(r->remove_err),
			pm_errno_name(r->remove_err));
	return r->failed || r->remove_err ? PM_EXIT_FAIL : PM_EXIT_OK;
}

int pm_writer_recover(struct pm_writer *w)
{
	char msg[PM_PATH_MAX + 600];
	int r, sig, code;

	/* A signal does not cut the restore short either. */
	pm_stop_catch(&w->stop);
	r = pm_journal_recover(w->ctx, &w->rec);
	pm_stop_hold(&w->stop);
	sig = pm_stop_caught();
	if (r < 0) {
		pm_stop_release(&w->stop);
		pm_die(w->t, PM_EXIT_FAIL, "cannot read the journal of an "
					   "earlier write: %s; nothing was "
					   "changed",
		       pm_err_str(&w->ctx->err, msg, sizeof(msg)));
	}
	if (w->rec.bad) {
		pm_stop_release(&w->stop);
		pm_die(w->t, PM_EXIT_FAIL,
		       "%s: %s: it is not restored, and nothing is written "
		       "while it is there (remove it once the files it names "
		       "are checked); nothing was changed",
		       PM_JOURNAL, w->rec.why);
	}
	code = pm_recovery_say(w->t, &w->rec, w->ctx->dry_run);
	pm_stop_release(&w->stop);
	if (sig && w->rec.found)
		pm_die(w->t, PM_EXIT_FAIL, "stopped by %s after the recovery: "
					   "nothing else was changed",
		       pm_signal_name(sig));
	if (sig)
		pm_die(w->t, PM_EXIT_FAIL,
		       "stopped by %s before the first write: nothing was "
		       "changed",
		       pm_signal_name(sig));
	return code;
}

/*
 * The report goes to standard output after the writes: one that cannot
 * take it (closed, read-only, /dev/full) must fail before them.  A
 * zero-length write(2) fails there as a real one would; it is tried only
 * when something will be written (a human report of a real write is
 * empty).
 */
static void check_stdout(struct pm_tool *t)
{
	bool report = t->dry_run || t->fmt == PM_FMT_JSON ||
		      t->fmt == PM_FMT_KV;
	int e = 0;

	if (fcntl(STDOUT_FILENO, F_GETFL) < 0 ||
	    (report && write(STDOUT_FILENO, "", 0) < 0))
		e = errno;
	if (e)
		pm_die(t, PM_EXIT_FAIL, "cannot write the report to "
					STDOUT_NAME ": %s (%s); nothing was "
					"changed",
		       strerror(e), pm_errno_name(e));
}


void pm_writer_begin(struct pm_writer *w, struct pm_tool *t,
		     struct pm_ctx *ctx, struct pm_out *o)
{
	char holder[96], msg[PM_PATH_MAX + 600];

	memset(w, 0, sizeof(*w));
	w->t = t;
	w->ctx = ctx;
	w->o = o;
	w->lockfd = -1;
	pm_journal_init(&w->journal, ctx, t->name);
	/* The report goes to --output after the writes: a file that cannot
	 * be made must fail before them (exit 1, nothing changed). */
	if (t->output) {
		struct pm_out probe;
		int r = pm_out_open(&probe, t->fmt, t->output);

		if (r < 0)
			pm_die(t, pm_out_exit(r), "cannot write %s: %s (%s)",
			       t->output, strerror(-r), pm_errno_name(-r));
		pm_out_abort(&probe);
	} else {
		check_stdout(t);
	}
	pm_txn_init(&w->txn, ctx);
	if (t->dry_run)
		return;
	w->lockfd = pm_lock_take(ctx, PM_WRITER_LOCK, t->name, t->wait_s,
				 holder, sizeof(holder));
	if (w->lockfd >= 0) {
		(void)pm_writer_recover(w);
		return;
	}
	switch (ctx->err.err) {
	case EWOULDBLOCK:
		pm_die(t, PM_EXIT_BUSY,
		       "busy: %s is held%s%s (another pmctl or opp-set is "
		       "writing); use --wait to wait for it",
		       PM_WRITER_LOCK, holder[0] ? " by pid " : "", holder);
	case EACCES:
	case EROFS:
		/* Say it with the file the user asked to change, if any. */
		w->lock_denied = true;
		return;
	case EPERM:
		if (w->ctx->guard && w->ctx->real_root)
			pm_die(w->t, PM_EXIT_USAGE, "refusing to write: %s",
			       pm_err_str(&w->ctx->err, msg, sizeof(msg)));
		w->lock_denied = true;
		return;
	default:
		pm_die(w->t, PM_EXIT_FAIL, "cannot take the lock: %s",
		       pm_err_str(&w->ctx->err, msg, sizeof(msg)));
	}
}

int pm_writer_plan(struct pm_writer *w, const char *path, const char *old,
		   const char *value, unsigned flags, void *tag)
{
	char msg[PM_PATH_MAX + 600];
	int i;

	if (old)
		i = pm_txn_add_known(&w->txn, path, old, value, flags);
	else
		i = pm_txn_add(&w->txn, path, value, flags);
	if (i < 0) {
		int e = w->ctx->err.err;

		pm_die(w->t,
		       e == EACCES ? PM_EXIT_FAIL :
		       e == ENAMETOOLONG ? PM_EXIT_USAGE :
					   pm_exit_for(e),
		       "cannot read %s", pm_err_str(&w->ctx->err, msg,
						    sizeof(msg)));
	}
	w->txn.w[i].tag = tag;
	return i;
}

int pm_writer_set(struct pm_writer *w, const char *path, const char *old,
		  const char *value, unsigned flags, void *tag)
{
	int i = pm_txn_replace(&w->txn, path, value);

	if (i == -ENOMEM)
		pm_die(w->t, PM_EXIT_FAIL, "out of memory");
	return i >= 0 ? i : pm_writer_plan(w, path, old, value, flags, tag);
}

static void report_json(struct pm_writer *w)
{
	struct pm_txn *t = &w->txn;
	int changed = 0, unchanged = 0;

	/* A snapshot for the rollback (PM_W_RESTORE) is not a setting. */
	for (int i = 0; i < t->n; i++) {
		changed += t->w[i].done && !t->rolled_back;
		unchanged += t->w[i].skip && !(t->w[i].flags & PM_W_RESTORE);
	}
	pm_out_obj_begin(w->o, NULL);
	if (w->name)
		pm_out_str(w->o, "name", w->name);
	pm_out_bool(w->o, "dry_run", w->t->dry_run);
	pm_out_u64(w->o, "changed", (uint64_t)changed);
	pm_out_u64(w->o, "unchanged", (uint64_t)unchanged);
	pm_out_bool(w->o, "rolled_back", t->rolled_back);
	pm_out_str_or_null(w->o, "stopped_by",
			   t->stopped ? pm_signal_name(t->stopped) : "");
	pm_out_arr_begin(w->o, "writes", "write");
	for (int i = 0; i < t->n; i++) {
		const struct pm_write *x = &t->w[i];

		if (x->skip)
			continue;
		pm_out_obj_begin(w->o, NULL);
		pm_out_str(w->o, "path", x->path);
		pm_out_str_or_null(w->o, "old", x->old);
		pm_out_str(w->o, "new", x->val);
		pm_out_str_or_null(w->o, "read_back", x->got);
		if (w->t->dry_run || (!x->done && !x->err))
			pm_out_null(w->o, "ok");
		else
			pm_out_bool(w->o, "ok", x->done);
		if (x->err)
			pm_out_u64(w->o, "errno", (uint64_t)x->err);
		else
			pm_out_null(w->o, "errno");
		pm_out_bool(w->o, "restored", x->undone);
		pm_out_obj_end(w->o);
	}
	pm_out_arr_end(w->o);
	pm_out_obj_end(w->o);
}

/* The default explanation of a value that reads back changed. */
static void explain_plain(struct pm_writer *w, const struct pm_write *x)
{
	pm_warn(w->t, "%s: wrote '%s', the kernel reads back '%s'", x->path,
		x->val, x->got);
}

/* "could not restore ..." for a write whose undo failed. */
static void warn_unrestored(struct pm_writer *w, const struct pm_write *y)
{
	if (y->undo_err > 0)
		pm_warn(w->t, "could not restore %s to '%s': %s (%s)", y->path,
			y->old, strerror(y->undo_err),
			pm_errno_name(y->undo_err));
	else if (y->undo_err == -1)
		pm_warn(w->t, "could not restore %s to '%s': it reads '%s'",
			y->path, y->old, y->got);
	else
		pm_warn(w->t, "could not restore %s: its old value is not "
			       "known (now '%s')",
			y->path, y->val);
}

/* Each of the first n writes that a rollback could not put back. */
static void warn_unrestored_before(struct pm_writer *w, int n)
{
	for (int i = 0; i < n; i++) {
		const struct pm_write *y = &w->txn.w[i];

		/* A snapshot (PM_W_RESTORE) is never done, but a rollback
		 * may fail to put it back. */
		if (y->undone || (!y->done && !y->undo_err))
			continue;
		warn_unrestored(w, y);
	}
}

/*
 * The exit status of a write that failed with nothing else changed: 4
 * for EBUSY (CLI.md: "the kernel said EBUSY on the first write"), 3 for
 * a file that is not there only when the plan never read it (a file the
 * plan read is offered: losing it now is a failure), else 1.
 */
static int first_write_exit(const struct pm_write *x, int err)
{
	if (err == EBUSY)
		return PM_EXIT_BUSY;
	if (x->flags & PM_W_NOREAD)
		return pm_exit_for(err);
	return PM_EXIT_FAIL;
}

static int failed(struct pm_writer *w, int err)
{
	struct pm_txn *t = &w->txn;
	struct pm_write *x = &t->w[t->failed];
	char msg[PM_PATH_MAX + 600];
	/* The failed write changed its file and it could not be put back. */
	bool self = x->undo_err != 0;
	int earlier = 0;

	for (int i = 0; i < t->failed; i++)
		earlier += t->w[i].done;
	if (!earlier && !self &&
	    (err == EACCES || (err == EPERM && !w->perm_ok)))
		pm_die(w->t, PM_EXIT_FAIL, "root is needed to write %s",
		       x->path);
	if (w->ctx->guard && w->ctx->real_root && err == EPERM && !earlier &&
	    !self)
		pm_die(w->t, PM_EXIT_USAGE, "refusing to write: %s",
		       pm_err_str(&w->ctx->err, msg, sizeof(msg)));
	if (w->explain_fail)
		w->explain_fail(w, x, msg, sizeof(msg));
	else
		pm_err_str(&w->ctx->err, msg, sizeof(msg));
	pm_warn(w->t, "%s", msg);
	if (self)
		warn_unrestored(w, x);
	if (!earlier) {
		if (self)
			return PM_EXIT_FAIL;
		if (x->undone)
			pm_warn(w->t, "restored %s: nothing was changed",
				x->path);
		return x->undone ? PM_EXIT_FAIL : first_write_exit(x, err);
	}
	if (!t->not_restored && !self) {
		pm_warn(w->t, "restored the %d earlier write%s: nothing "
			       "was changed",
			earlier, earlier == 1 ? "" : "s");
		return PM_EXIT_FAIL;
	}
	warn_unrestored_before(w, t->failed);
	if (t->not_restored)
		pm_warn(w->t, "%d of %d earlier writes could not be restored",
			t->not_restored, earlier);
	else
		pm_warn(w->t, "restored the %d earlier write%s, but not %s",
			earlier, earlier == 1 ? "" : "s", x->path);
	return PM_EXIT_FAIL;
}

/* Writes made (and rolled back) before write n. */
static int done_before(const struct pm_txn *t, int n)
{
	int done = 0;

	for (int i = 0; i < n; i++)
		done += t->w[i].done;
	return done;
}

/* After the rollback of a stop signal or a journal that could not be
 * made: "WHY: restored the N earlier writes: nothing was changed". */
static int rolled_back(struct pm_writer *w, const char *why)
{
	struct pm_txn *t = &w->txn;
	int done = done_before(t, t->n);

	if (!done) {
		pm_warn(w->t, "%s before the first write: nothing was changed",
			why);
		return PM_EXIT_FAIL;
	}
	if (!t->not_restored) {
		pm_warn(w->t, "%s: restored the %d earlier write%s: nothing "
			       "was changed",
			why, done, done == 1 ? "" : "s");
		return PM_EXIT_FAIL;
	}
	warn_unrestored_before(w, t->n);
	pm_warn(w->t, "%s: %d of %d earlier writes could not be restored",
		why, t->not_restored, done);
	return PM_EXIT_FAIL;
}

static int stopped(struct pm_writer *w)
{
	char why[64];

	snprintf(why, sizeof(why), "stopped by %s",
		 pm_signal_name(w->txn.stopped));
	return rolled_back(w, why);
}

static int journal_failed(struct pm_writer *w)
{
	char why[PM_PATH_MAX + 600], err[PM_PATH_MAX + 512];

	snprintf(why, sizeof(why), "cannot write the journal: %s",
		 pm_err_str(&w->ctx->err, err, sizeof(err)));
	return rolled_back(w, why);
}

/*
 * The end of the writes, made or rolled back: the journal goes (with
 * the stop signals held, so that one cannot come between), then the
 * signals act as before.  Returns code, or 1 when the journal stays.
 */
static int end_txn(struct pm_writer *w, int code)
{
	/* The error of the write that failed is said after this. */
	struct pm_err keep = w->ctx->err;
	char msg[PM_PATH_MAX + 600];

	pm_stop_hold(&w->stop);
	if (pm_journal_remove(&w->journal) < 0) {
		pm_warn(w->t, "cannot remove the journal: %s; the next "
			      "pmctl or opp-set would undo these writes: "
			      "remove it",
			pm_err_str(&w->ctx->err, msg, sizeof(msg)));
		code = PM_EXIT_FAIL;
	}
	w->ctx->err = keep;
	if (code == PM_EXIT_OK && w->on_applied)
		w->on_applied(w);
	pm_journal_close(&w->journal);
	pm_stop_release(&w->stop);
	return code;
}

/* pm_die after a stage was applied: undo it, and say how that went. */
static int undo_on_die(void *arg, int code)
{
	struct pm_writer *w = arg;
	struct pm_txn *t = &w->txn;
	int done = done_before(t, t->next);

	pm_txn_undo(t);
	if (!done)
		return end_txn(w, code);
	if (!t->not_restored) {
		pm_warn(w->t, "restored the %d earlier write%s: nothing was "
			       "changed",
			done, done == 1 ? "" : "s");
		return end_txn(w, code);
	}
	warn_unrestored_before(w, t->next);
	pm_warn(w->t, "%d of %d earlier writes could not be restored",
		t->not_restored, done);
	return end_txn(w, PM_EXIT_FAIL);
}

int pm_writer_apply(struct pm_writer *w)
{
	struct pm_txn *t = &w->txn;
	int r, first = -1;

	if (w->code)
		return w->code;
	for (int i = t->next; i < t->n && first < 0; i++)
		if (!t->w[i].skip)
			first = i;
	if (first >= 0 && w->lock_denied)
		pm_die(w->t, PM_EXIT_FAIL, "root is needed to write %s",
		       t->w[first].path);
	if (first >= 0 && !w->t->dry_run) {
		/* From here to the end, all or nothing: a stop signal rolls
		 * back, and a SIGKILL leaves the journal behind. */
		pm_stop_catch(&w->stop);
		t->journal = &w->journal;
	}
	r = first < 0 ? 0 : pm_txn_apply(t);
	if (r < 0) {
		w->t->on_die = NULL;
		/* Rolled back: the journal goes before anything is said
		 * (failed() may end the process). */
		end_txn(w, PM_EXIT_FAIL);
		if (t->stopped)
			w->code = stopped(w);
		else if (t->journal_err)
			w->code = journal_failed(w);
		else
			w->code = failed(w, -r);
		return w->code;
	}
	t->next = t->n;
	if (!w->t->dry_run && first >= 0) {
		w->t->on_die = undo_on_die;
		w->t->on_die_arg = w;
	}
	return 0;
}

/* The report could not be written: say whether the machine changed. */
static void report_failed(struct pm_writer *w, int code, int err)
{
	const char *to = w->t->output ? w->t->output : STDOUT_NAME;
	int made = 0;

	if (code == PM_EXIT_OK && !w->t->dry_run)
		made = done_before(&w->txn, w->txn.n);
	if (made)
		pm_warn(w->t, "cannot write the report to %s: %s (%s); %d "
			      "change%s made and kept",
			to, strerror(err), pm_errno_name(err), made,
			made == 1 ? " was" : "s were");
	else if (code == PM_EXIT_OK)
		pm_warn(w->t, "cannot write the report to %s: %s (%s); "
			      "nothing was changed",
			to, strerror(err), pm_errno_name(err));
	else
		pm_warn(w->t, "cannot write the report to %s: %s (%s)", to,
			strerror(err), pm_errno_name(err));
	/* Said once: not again by the check of stdout at exit. */
	(void)fflush(stderr);
	_exit(PM_EXIT_FAIL);
}

int pm_writer_commit(struct pm_writer *w)
{
	struct pm_txn *t = &w->txn;
	int code, r;

	if (!pm_txn_changes(t) && w->t->verbose > 0)
		pm_note(w->t, "nothing to change");
	code = pm_writer_apply(w);
	w->t->on_die = NULL;
	if (code == PM_EXIT_OK && w->stop.on) {
		/* The last word of a signal: after this, the writes stay. */
		pm_stop_hold(&w->stop);
		if (pm_stop_caught()) {
			t->stopped = pm_stop_caught();
			pm_txn_undo(t);
			code = stopped(w);
		}
		code = end_txn(w, code);
	} else if (code == PM_EXIT_OK && !w->t->dry_run && w->on_applied) {
		w->on_applied(w);
	}
	if (code == PM_EXIT_OK && !w->t->dry_run) {
		for (int i = 0; i < t->n; i++) {
			const struct pm_write *x = &t->w[i];

			if (!x->done)
				continue;
			if (w->t->verbose > 0)
				pm_note(w->t, "%s: %s -> %s", x->path,
					x->old[0] ? x->old : "?", x->val);
			if (!x->got[0] || !strcmp(x->got, x->val))
				continue;
			if (w->explain)
				w->explain(w, x);
			else
				explain_plain(w, x);
		}
	}
	pm_lock_release(w->lockfd);
	w->lockfd = -1;
	r = pm_out_open(w->o, w->t->fmt, w->t->output);
	if (r < 0)
		report_failed(w, code, -r);
	if (w->t->fmt == PM_FMT_JSON || w->t->fmt == PM_FMT_KV) {
		report_json(w);
	} else if (w->t->dry_run) {
		for (int i = 0; i < t->n; i++) {
			const struct pm_write *x = &t->w[i];

			if (x->skip)
				continue;
			if (w->diff)
				pm_out_printf(w->o, "%s: %s -> %s\n", x->path,
					      x->old[0] ? x->old : "?",
					      x->val);
			else
				pm_out_printf(w->o, "%s = %s\n", x->path,
					      x->val);
		}
	}
	r = pm_out_commit(w->o);
	if (r < 0)
		report_failed(w, code, -r);
	pm_txn_free(t);
	pm_recovery_free(&w->rec);
	return code;
}
