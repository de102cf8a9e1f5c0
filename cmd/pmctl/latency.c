// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl latency: hold a CPU wake-up latency limit through
 * /dev/cpu_dma_latency while a command runs (or until a signal).  The
 * kernel keeps the request while the file is open and drops it on close,
 * so a crash of this tool cannot leave the limit behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmctl.h"

#define DMA_LATENCY "/dev/cpu_dma_latency"

/* Block until SIGINT or SIGTERM; the limit holds meanwhile. */
static int hold(struct pmctl *p)
{
	sigset_t set;
	int sig = 0;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 || sigwait(&set, &sig))
		pm_die(&p->t, PM_EXIT_FAIL, "cannot wait for a signal: %s",
		       strerror(errno));
	return PM_EXIT_OK;
}

/* The limit asked, held open: the fd of /dev/cpu_dma_latency. */
static int take_limit(struct pmctl *p, int32_t v)
{
	char msg[PM_PATH_MAX + 600];
	int32_t agg;
	int fd;

	if (pm_write_allowed(&p->ctx, DMA_LATENCY) < 0)
		pm_die(&p->t, PM_EXIT_USAGE, "refusing to write: %s",
		       pm_err_str(&p->ctx.err, msg, sizeof(msg)));
	fd = pm_open_dev(&p->ctx, DMA_LATENCY, O_RDWR);
	if (fd == -EACCES || fd == -EPERM)
		pm_die(&p->t, PM_EXIT_FAIL, "root is needed to write "
		       DMA_LATENCY);
	if (fd == -ENOENT || fd == -ENODEV || fd == -ENXIO)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no " DMA_LATENCY " on this machine (the kernel has "
		       "no CPU latency QoS)");
	if (fd < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot open " DMA_LATENCY ": %s "
		       "(%s)",
		       strerror(-fd), pm_errno_name(-fd));
	/* Exactly 4 bytes: any other length is parsed as hex text. */
	if (write(fd, &v, sizeof(v)) != (ssize_t)sizeof(v))
		pm_die(&p->t, PM_EXIT_FAIL,
		       "cannot write %d to " DMA_LATENCY ": %s (%s)", v,
		       strerror(errno), pm_errno_name(errno));
	/* It reads back the aggregate of every holder: ours or lower. */
	if (pread(fd, &agg, sizeof(agg), 0) == (ssize_t)sizeof(agg)) {
		if (agg < v)
			pm_note(&p->t, "another request holds a lower limit: "
				       "%d us",
				agg);
		else if (p->t.verbose > 0)
			pm_note(&p->t, "holding a CPU latency limit of %d us",
				v);
	}
	return fd;
}

/* COMMAND run under the limit: its exit status. */
static int run_under(struct pmctl *p, char **cmd)
{
	struct pm_child child;
	int r, st, exec_err;

	r = pm_child_start(&p->ctx, cmd, &child);
	if (r < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot start '%s': %s", cmd[0],
		       strerror(-r));
	st = pm_child_wait(&child, &exec_err);
	if (exec_err)
		pm_warn(&p->t, "cannot run '%s': %s", cmd[0],
			strerror(exec_err));
	return st;
}

int cmd_latency(struct pmctl *p, int argc, char **argv)
{
	bool hold_it = p->opt[PMCTL_O_HOLD] != NULL;
	char **cmd = argv + 1;
	int ncmd = argc - 1, fd, st;
	int32_t v;

	pmctl_opts_only(p, PMCTL_BIT(PMCTL_O_HOLD), "pmctl latency");
	pm_tool_only(&p->t, PM_SEEN_DRY_RUN, "pmctl latency");
	if (argc < 1)
		pm_usage_error(&p->t, "latency: give a latency in "
				      "microseconds, then -- COMMAND or "
				      "--hold");
	v = (int32_t)pmctl_latency_arg(p, "latency", argv[0]);
	if (ncmd > 0 && p->dashdash != 1)
		pm_usage_error(&p->t, "latency: put -- before the command "
				      "(pmctl latency %s -- %s)",
			       argv[0], cmd[0]);
	if (hold_it && ncmd > 0)
		pm_usage_error(&p->t, "latency: --hold or a command, not both");
	if (!hold_it && ncmd == 0)
		pm_usage_error(&p->t, "latency: give -- COMMAND to run, or "
				      "--hold to keep the limit until "
				      "interrupted");
	if (p->t.dry_run) {
		/* The write that would be made, and nothing run. */
		pm_fprintf(stdout,
			   DMA_LATENCY " = %d (4 bytes, binary) while %s\n", v,
			   hold_it ? "held until SIGINT or SIGTERM" : cmd[0]);
		return PM_EXIT_OK;
	}
	fd = take_limit(p, v);
	st = hold_it ? hold(p) : run_under(p, cmd);
	close(fd);
	return st;
}
