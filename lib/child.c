// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Commands a tool runs (cstate-stat -- CMD, pmctl latency -- CMD): the
 * environment CLI.md gives them, a failed exec told apart from the
 * command's own status, and the status as time(1) reports it.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "child.h"
#include "core.h"

/* PM_SYSROOT when a root is set, and the tool's own folder first on PATH. */
static void child_env(const struct pm_ctx *ctx)
{
	char self[PM_PATH_MAX], *slash, *path;
	const char *old = getenv("PATH");
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (!ctx->real_root)
		setenv("PM_SYSROOT", ctx->root, 1);
	if (n <= 0)
		return;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (!slash)
		return;
	*slash = '\0';
	if (asprintf(&path, "%s%s%s", self, old ? ":" : "", old ? old : "") <
	    0)
		return;
	setenv("PATH", path, 1);
	free(path);
}

int pm_child_start(const struct pm_ctx *ctx, char *const *argv,
		   struct pm_child *c)
{
	struct sigaction ign;
	int fds[2];

	memset(c, 0, sizeof(*c));
	/* The child reports a failed exec through a close-on-exec pipe. */
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	(void)fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (c->pid == 0) {
		int e;

		close(fds[0]);
		(void)signal(SIGPIPE, SIG_DFL);
		child_env(ctx);
		execvp(argv[0], argv);
		e = errno;
		if (write(fds[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(fds[1]);
	c->errfd = fds[0];
	/* Like time(1): the terminal's signals are for the command. */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &c->old_int);
	sigaction(SIGQUIT, &ign, &c->old_quit);
	return 0;
}

int pm_child_wait(struct pm_child *c, int *exec_err)
{
	int st, e = 0;
	ssize_t got;

	do
		got = read(c->errfd, &e, sizeof(e));
	while (got < 0 && errno == EINTR);
	close(c->errfd);
	while (waitpid(c->pid, &st, 0) < 0)
		if (errno != EINTR) {
			st = -1;
			break;
		}
	sigaction(SIGINT, &c->old_int, NULL);
	sigaction(SIGQUIT, &c->old_quit, NULL);
	*exec_err = got == (ssize_t)sizeof(e) ? e : 0;
	if (*exec_err)
		return *exec_err == ENOENT ? 127 : 126;
	if (st != -1 && WIFEXITED(st))
		return WEXITSTATUS(st);
	if (st != -1 && WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return PM_EXIT_FAIL;
}
