/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: a command run by a tool, and its exit status (lib/child.c).
 */
#ifndef PM_CHILD_H
#define PM_CHILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <signal.h>

#include "core.h"

/* A command run by a tool (cstate-stat, pmctl latency). */
struct pm_child {
	pid_t pid;
	int errfd;		/* a failed exec's errno arrives here */
	struct sigaction old_int, old_quit;
};

/*
 * Run argv with PM_SYSROOT (when the root is not /) and the tool's folder
 * first on PATH; SIGINT and SIGQUIT are left to the command until
 * pm_child_wait.  0 or -errno (pipe, fork).
 */
int pm_child_start(const struct pm_ctx *ctx, char *const *argv,
		   struct pm_child *c);
/*
 * Its status as time(1) gives it: the exit code, 128+N for signal N, 127
 * when it was not found and 126 when it could not run (*exec_err then
 * holds the errno, else 0).
 */
int pm_child_wait(struct pm_child *c, int *exec_err);

#endif /* PM_CHILD_H */
