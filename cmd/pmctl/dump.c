// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl dump: the power-management part of /sys and /proc as a tar for a
 * bug report (gzip-compressed for a name ending in .gz), which --sysroot
 * reads after unpacking.
 */
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pmctl.h"

/* -v: one line per file left out, with the reason. */
static void on_skip(void *arg, const char *path, int err, const char *why)
{
	struct pmctl *p = arg;

	if (p->t.verbose < 1)
		return;
	if (err)
		pm_warn(&p->t, "skipped %s: %s (%s)", path, strerror(err),
			pm_errno_name(err));
	else
		pm_warn(&p->t, "skipped %s: %s", path, why ? why : "left out");
}

int cmd_dump(struct pmctl *p, int argc, char **argv)
{
	struct pm_dump_opts o = {
		.redact = p->redact,
		.mtime = (int64_t)time(NULL),
		.on_skip = on_skip,
		.arg = p,
	};
	struct pm_dump_stats st;
	bool to_stdout = !p->t.output || !strcmp(p->t.output, "-");
	int r;

	pmctl_opts_only(p, PMCTL_BIT(PMCTL_O_REDACT), "pmctl dump");
	if (argc > 0)
		pm_usage_error(&p->t, "dump: unexpected argument '%s'",
			       argv[0]);
	pm_tool_only(&p->t, PM_SEEN_OUTPUT, "pmctl dump");
	if (to_stdout && isatty(STDOUT_FILENO))
		pm_usage_error(&p->t, "dump: refusing to write a tar archive "
				      "to a terminal; use --output FILE.tar or "
				      "a pipe");
	pm_tool_out(&p->t, &p->o);
	/* FILE.tar.gz: compressed here, tar -xzf reads it. */
	if (!to_stdout && pm_gzip_name(p->t.output)) {
		FILE *gz = pm_gzip_open(p->o.f, o.mtime);

		if (!gz)
			pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
		r = pm_dump(&p->ctx, gz, &o, &st);
		if (fclose(gz) != 0 && r == 0)
			r = -(errno ? errno : EIO);
	} else {
		r = pm_dump(&p->ctx, p->o.f, &o, &st);
	}
	if (r < 0) {
		int e = -r;

		pm_out_abort(&p->o);
		if (!to_stdout)
			pm_warn(&p->t, "cannot write %s: %s (%s)", p->t.output,
				strerror(e), pm_errno_name(e));
		else if (e != EPIPE)
			pm_warn(&p->t,
				"write error on standard output: %s "
				"(%s)",
				strerror(e), pm_errno_name(e));
		/* Reported once: skip the atexit check of the same stream. */
		(void)fflush(stderr);
		_exit(PM_EXIT_FAIL);
	}
	pm_tool_out_done(&p->t, &p->o);
	pm_note(&p->t, "dumped %u files, skipped %u (%u unreadable)", st.files,
		st.skipped, st.unreadable);
	if (p->t.verbose > 0)
		pm_warn(&p->t, "%u folders, %u links, %llu bytes", st.dirs,
			st.links, (unsigned long long)st.bytes);
	return PM_EXIT_OK;
}
