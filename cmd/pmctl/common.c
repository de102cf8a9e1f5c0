// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What pmctl's subcommands share: the steps of a read-only view (only
 * "show" after the subcommand, the output opened and closed), the CPUs
 * read once, and the check of a kernel name given by the user.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

/* Only "show" (or nothing) is accepted after the subcommand. */
void pmctl_view_args(struct pmctl *p, const char *cmd, int argc, char **argv)
{
	char what[32];

	if (argc > 1 || (argc == 1 && strcmp(argv[0], "show")))
		pm_usage_error(&p->t, "%s: unknown argument '%s'", cmd,
			       argc > 1 ? argv[1] : argv[0]);
	snprintf(what, sizeof(what), "pmctl %s", cmd);
	pm_tool_only(&p->t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT, what);
	pmctl_opts_only(p, 0, what);
}

void pmctl_view_begin(struct pmctl *p)
{
	pm_tool_out(&p->t, &p->o);
	if (p->t.fmt != PM_FMT_HUMAN)
		pm_out_obj_begin(&p->o, NULL);
}

int pmctl_view_end(struct pmctl *p)
{
	if (p->t.fmt != PM_FMT_HUMAN)
		pm_out_obj_end(&p->o);
	pm_tool_out_done(&p->t, &p->o);
	return PM_EXIT_OK;
}

void pmctl_read_cpus(struct pmctl *p)
{
	if (pm_cpus_read(&p->ctx, &p->cpus) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no CPUs under /sys/devices/system/cpu");
}

/* A kernel name given by the user: letters, digits, '_', '-', '.'. */
bool pmctl_word_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		      *s == '.' || *s == ':'))
			return false;
	return true;
}

void pmctl_select_cpus(struct pmctl *p, struct pm_cpuset *sel)
{
	pmctl_read_cpus(p);
	/* Writing defaults to every present CPU (CLI.md). */
	if (pm_cpus_select(&p->ctx, &p->cpus, p->t.cpu ? p->t.cpu : "all",
			   sel) < 0)
		pm_usage_error(&p->t, "--cpu '%s': %s", p->t.cpu,
			       p->ctx.err.hint);
}
