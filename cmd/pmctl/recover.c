// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl recover: put back what a pmctl or opp-set killed mid-apply left
 * changed, from its journal (lib/journal.c), on demand and at boot.
 * Every setter does the same when it takes the writers' lock.
 */
#include <errno.h>
#include <string.h>

#include "pmctl.h"

static void report_json(struct pmctl *p, const struct pm_recovery *r)
{
	struct pm_out *o = &p->o;

	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "journal", PM_JOURNAL);
	pm_out_bool(o, "dry_run", p->t.dry_run);
	pm_out_bool(o, "found", r->found);
	if (r->found) {
		pm_out_u64(o, "pid", (uint64_t)r->pid);
		pm_out_str(o, "tool", r->tool);
		pm_out_str_or_null(o, "boot_id",
				   strcmp(r->boot, "-") ? r->boot : "");
		pm_out_u64(o, "time", (uint64_t)r->time);
	} else {
		pm_out_null(o, "pid");
		pm_out_null(o, "tool");
		pm_out_null(o, "boot_id");
		pm_out_null(o, "time");
	}
	pm_out_bool(o, "earlier_boot", r->earlier_boot);
	pm_out_u64(o, "changed", (uint64_t)r->changed);
	pm_out_u64(o, "restored", (uint64_t)r->restored);
	pm_out_u64(o, "not_restored", (uint64_t)r->failed);
	pm_out_arr_begin(o, "files", "file");
	for (int i = r->n - 1; i >= 0; i--) {
		const struct pm_jfile *x = &r->f[i];

		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "path", x->path);
		pm_out_str_or_null(o, "old", x->old);
		pm_out_str_or_null(o, "was", x->was);
		pm_out_str_or_null(o, "read_back", x->got);
		pm_out_bool(o, "changed", x->changed);
		pm_out_bool(o, "restored", x->restored);
		if (x->err > 0)
			pm_out_u64(o, "errno", (uint64_t)x->err);
		else
			pm_out_null(o, "errno");
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	pm_out_obj_end(o);
}

/* Under -n, the writes the recovery would make, last first. */
static void print_dry(struct pmctl *p, const struct pm_recovery *r)
{
	if (!p->t.dry_run || r->earlier_boot)
		return;
	for (int i = r->n - 1; i >= 0; i--)
		if (r->f[i].changed)
			pm_out_printf(&p->o, "%s = %s\n", r->f[i].path,
				      r->f[i].old);
}

/*
 * The journal of a pm-suspend killed in its sleep, under pm-suspend's
 * lock (not waited for: a sleep in progress owns its journal).  Said on
 * standard error only; the -J report is the writers' journal's.
 */
static int recover_sleep(struct pmctl *p)
{
	struct pm_recovery r;
	char holder[96], buf[PM_PATH_MAX + 600];
	int fd = -1, code;

	if (!pm_exists(&p->ctx, PM_SLEEP_JOURNAL))
		return PM_EXIT_OK;
	if (!p->t.dry_run) {
		fd = pm_lock_take(&p->ctx, PM_SLEEP_LOCK, p->t.name, -1,
				  holder, sizeof(holder));
		if (fd == -EWOULDBLOCK) {
			pm_note(&p->t, "%s: a sleep is in progress (%s%sholds "
				       "%s): not restored",
				PM_SLEEP_JOURNAL, holder, holder[0] ? " " : "",
				PM_SLEEP_LOCK);
			return PM_EXIT_OK;
		}
		if (fd < 0)
			pm_die(&p->t, PM_EXIT_FAIL, "cannot take the lock: %s",
			       pm_err_str(&p->ctx.err, buf, sizeof(buf)));
	}
	if (pm_journal_recover_file(&p->ctx, PM_SLEEP_JOURNAL, &r) < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot read the journal of an "
					    "earlier sleep: %s; nothing was "
					    "changed",
		       pm_err_str(&p->ctx.err, buf, sizeof(buf)));
	if (r.bad)
		pm_die(&p->t, PM_EXIT_FAIL, "%s: %s: it is not restored "
					    "(remove it once the files it "
					    "names are checked)",
		       PM_SLEEP_JOURNAL, r.why);
	code = pm_recovery_say(&p->t, &r, p->t.dry_run);
	pm_lock_release(fd);
	if (p->t.fmt != PM_FMT_JSON && p->t.fmt != PM_FMT_KV)
		print_dry(p, &r);
	pm_recovery_free(&r);
	return code;
}

int cmd_recover(struct pmctl *p, int argc, char **argv)
{
	struct pm_recovery *r;
	struct pm_writer w;
	int code;

	pmctl_opts_only(p, 0, "pmctl recover");
	if (argc > 0)
		pm_usage_error(&p->t, "recover: unexpected argument '%s'",
			       argv[0]);
	pm_tool_only(&p->t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT | PM_SEEN_WAIT |
				    PM_SEEN_DRY_RUN,
		     "pmctl recover");
	/* The lock, then the journal restored and said (lib/writer.c). */
	pmctl_write_begin(p, &w);
	r = &w.rec;
	if (w.lock_denied && pm_exists(&p->ctx, PM_JOURNAL))
		pm_die(&p->t, PM_EXIT_FAIL, "root is needed to restore %s",
		       PM_JOURNAL);
	if (p->t.dry_run)
		code = pm_writer_recover(&w);
	else
		code = r->failed || r->remove_err ? PM_EXIT_FAIL : PM_EXIT_OK;
	if (!r->found && p->t.verbose > 0)
		pm_note(&p->t, "nothing to recover: no %s", PM_JOURNAL);
	pm_lock_release(w.lockfd);
	pm_tool_out(&p->t, &p->o);
	if (p->t.fmt == PM_FMT_JSON || p->t.fmt == PM_FMT_KV) {
		report_json(p, r);
	} else {
		print_dry(p, r);
	}
	if (recover_sleep(p) != PM_EXIT_OK)
		code = PM_EXIT_FAIL;
	pm_tool_out_done(&p->t, &p->o);
	pm_recovery_free(r);
	return code;
}
