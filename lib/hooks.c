// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sleep hooks in the pm-utils contract: folders merged by file name (the
 * first folder given wins), C-locale order, exit 254/253/252 for "not
 * applicable", "not executable" and "disabled".  Each hook runs in its
 * own process group with a clean environment, stdin from /dev/null, its
 * output appended to the log, no other fd open, and a timeout after
 * which the group is killed.  As root, a hook or folder that someone
 * other than root could change is refused: running it would run their
 * code as root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pm.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool blacklisted(const char *list, const char *name)
{
	return list && pm_word_in(list, name);
}

/* Not owned by root, or writable by group or others (as root only). */
static bool unsafe(const struct stat *st)
{
	return st->st_uid != 0 || (st->st_mode & (S_IWGRP | S_IWOTH));
}

static void check_hook(struct pm_ctx *ctx, const char *dir, bool dir_unsafe,
		       bool as_root, struct pm_hook *h)
{
	struct stat st;
	int fd = pm_open(ctx, h->path, O_PATH);

	if (fd < 0) {
		h->state = PM_HOOK_REFUSED;
		snprintf(h->why, sizeof(h->why), "%s",
			 fd == -EXDEV ? "it leads outside the system root" :
					strerror(-fd));
		return;
	}
	if (fstat(fd, &st) < 0) {
		snprintf(h->why, sizeof(h->why), "%s", strerror(errno));
		h->state = PM_HOOK_REFUSED;
		close(fd);
		return;
	}
	close(fd);
	if (!S_ISREG(st.st_mode)) {
		h->state = PM_HOOK_SKIP;
		return;
	}
	if (as_root && dir_unsafe) {
		h->state = PM_HOOK_REFUSED;
		snprintf(h->why, sizeof(h->why),
			 "its folder %s is not owned by root or is writable "
			 "by group or others",
			 dir);
	} else if (as_root && unsafe(&st)) {
		h->state = PM_HOOK_REFUSED;
		snprintf(h->why, sizeof(h->why),
			 "it is not owned by root or is writable by group or "
			 "others (mode %04o, uid %u)",
			 (unsigned)(st.st_mode & 07777), (unsigned)st.st_uid);
	} else if (!(st.st_mode & (S_IXUSR | S_IXGRP | S_IXOTH))) {
		h->state = PM_HOOK_NOEXEC;
	}
}

static int add(struct pm_hooks *hs, const char *dir, const char *name)
{
	struct pm_hook *h;

	for (int i = 0; i < hs->n; i++)
		if (!strcmp(hs->h[i].name, name))
			return 0; /* an earlier folder wins */
	if (hs->n == hs->cap) {
		int cap = hs->cap ? hs->cap * 2 : 16;
		void *p = realloc(hs->h, (size_t)cap * sizeof(*hs->h));

		if (!p)
			return -ENOMEM;
		hs->h = p;
		hs->cap = cap;
	}
	h = &hs->h[hs->n];
	memset(h, 0, sizeof(*h));
	if (snprintf(h->name, sizeof(h->name), "%s", name) >=
		    (int)sizeof(h->name) ||
	    snprintf(h->path, sizeof(h->path), "%s/%s", dir, name) >=
		    (int)sizeof(h->path))
		return 0; /* a name longer than any hook: not ours */
	hs->n++;
	return 1;
}

static int cmp_hook(const void *a, const void *b)
{
	return strcmp(((const struct pm_hook *)a)->name,
		      ((const struct pm_hook *)b)->name);
}

int pm_hooks_list(struct pm_ctx *ctx, const char *const *dirs, int ndirs,
		  const char *blacklist, struct pm_hooks *hs)
{
	bool as_root = geteuid() == 0;

	memset(hs, 0, sizeof(*hs));
	for (int d = 0; d < ndirs; d++) {
		char **names;
		struct stat st;
		bool dir_unsafe = false;
		int first = hs->n, n, fd;

		n = pm_list_dir(ctx, dirs[d], &names);
		if (n < 0)
			continue; /* a folder that is not there has no hooks */
		fd = pm_open(ctx, dirs[d], O_PATH | O_DIRECTORY);
		if (fd >= 0) {
			if (fstat(fd, &st) == 0)
				dir_unsafe = unsafe(&st);
			close(fd);
		}
		for (int i = 0; i < n; i++) {
			size_t len = strlen(names[i]);
			int r;

			/* pm-utils skips editor backups (*~) and dot files. */
			if (names[i][0] == '.' || names[i][len - 1] == '~')
				continue;
			r = add(hs, dirs[d], names[i]);
			if (r < 0) {
				pm_list_free(names, n);
				pm_hooks_free(hs);
				return r;
			}
		}
		pm_list_free(names, n);
		for (int i = first; i < hs->n; i++) {
			struct pm_hook *h = &hs->h[i];

			if (blacklisted(blacklist, h->name))
				h->state = PM_HOOK_DISABLED;
			else
				check_hook(ctx, dirs[d], dir_unsafe, as_root,
					   h);
		}
	}
	/* Hooks that are not regular files take no part. */
	int k = 0;

	for (int i = 0; i < hs->n; i++)
		if (hs->h[i].state != PM_HOOK_SKIP)
			hs->h[k++] = hs->h[i];
	hs->n = k;
	if (hs->n)
		qsort(hs->h, (size_t)hs->n, sizeof(*hs->h), cmp_hook);
	return hs->n;
}

void pm_hooks_free(struct pm_hooks *hs)
{
	free(hs->h);
	memset(hs, 0, sizeof(*hs));
}

const char *pm_hook_result_name(int status)
{
	switch (status) {
	case 0:
		return "success";
	case PM_HOOK_EXIT_NA:
		return "not applicable";
	case PM_HOOK_EXIT_NX:
		return "not executable";
	case PM_HOOK_EXIT_DX:
		return "disabled";
	default:
		return "failed";
	}
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* The clean environment CLI.md and pm-utils give a hook. */
static char **hook_env(const struct pm_ctx *ctx, const struct pm_hook_env *e)
{
	static const char base[] =
		"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	char self[PM_PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char **env = calloc(8, sizeof(*env));
	int k = 0;

	if (!env)
		return NULL;
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
	}
	if (asprintf(&env[k++], "PATH=%s%s%s", n > 0 ? self : "",
		     n > 0 ? ":" : "", base) < 0)
		env[--k] = NULL;
	if (asprintf(&env[k++], "PM_MODE=%s", e->mode ? e->mode : "") < 0)
		env[--k] = NULL;
	if (asprintf(&env[k++], "PM_CMDLINE=%s",
		     e->cmdline ? e->cmdline : "") < 0)
		env[--k] = NULL;
	if (!ctx->real_root &&
	    asprintf(&env[k++], "PM_SYSROOT=%s", ctx->root) < 0)
		env[--k] = NULL;
	if (asprintf(&env[k++], "LANG=C") < 0)
		env[--k] = NULL;
	return env;
}

static void free_env(char **env)
{
	if (!env)
		return;
	for (char **p = env; *p; p++)
		free(*p);
	free(env);
}

/*
 * Every fd from 3 up closes at the exec: those pm-suspend inherited
 * (acpid's socket, a shell's redirections, a lock its caller holds) are
 * not the hook's.  Close-on-exec rather than closed, so that errfd lives
 * until the exec.  close_range's flag is Linux 5.11; before it, each fd
 * listed in /proc/self/fd.
 */
static void cloexec_from_3(void)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return;
	fd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d))) {
		char *end;
		long n = strtol(de->d_name, &end, 10);

		if (!*end && end != de->d_name && n > 2 && n != fd &&
		    n <= INT_MAX)
			fcntl((int)n, F_SETFD, FD_CLOEXEC);
	}
	closedir(d);
}

static void child(const char *file, char *const argv[], char **env,
		  int logfd, int errfd)
{
	sigset_t none;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);
	int e;

	setpgid(0, 0);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* glibc keeps two real-time signals for itself: EINVAL, harmless. */
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			(void)signal(s, SIG_DFL);
	if (null >= 0)
		dup2(null, 0);
	dup2(logfd >= 0 ? logfd : null, 1);
	dup2(logfd >= 0 ? logfd : null, 2);
	cloexec_from_3();
	execve(file, argv, env);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(126);
}

int pm_hook_exec(const struct pm_ctx *ctx, const struct pm_hook *h,
		 const char *a1, const char *a2, const struct pm_hook_env *e,
		 struct pm_hook_run *r)
{
	char file[2 * PM_PATH_MAX];
	char *argv[] = { file, (char *)a1, (char *)a2, NULL };
	char **env;
	int fds[2], st = 0, pfd, ee = 0;
	double t0 = mono_s(), deadline;
	ssize_t got;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	snprintf(file, sizeof(file), "%s%s",
		 ctx->real_root ? "" : ctx->root, h->path);
	env = hook_env(ctx, e);
	if (!env)
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		free_env(env);
		return -errno;
	}
	(void)fflush(NULL);
	pid = fork();
	if (pid < 0) {
		int err = errno;

		close(fds[0]);
		close(fds[1]);
		free_env(env);
		return -err;
	}
	if (pid == 0)
		child(file, argv, env, e->logfd, fds[1]);
	close(fds[1]);
	free_env(env);
	/* Its own group even before the child gets there: kill reaches it. */
	setpgid(pid, pid);
	deadline = t0 + (e->timeout_s > 0 ? e->timeout_s : 1e9);
	pfd = pidfd_open_(pid);
	for (;;) {
		pid_t w = waitpid(pid, &st, WNOHANG);
		double left = deadline - mono_s();

		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			st = -1;
			break;
		}
		if (left <= 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
				;
			r->timed_out = true;
			break;
		}
		if (pfd >= 0) {
			struct pollfd p = { .fd = pfd, .events = POLLIN };
			double ms = left * 1000 + 1;

			poll(&p, 1, ms > 1000 ? 1000 : (int)ms);
		} else {
			nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
		}
	}
	if (pfd >= 0)
		close(pfd);
	do
		got = read(fds[0], &ee, sizeof(ee));
	while (got < 0 && errno == EINTR);
	close(fds[0]);
	r->seconds = mono_s() - t0;
	if (got == (ssize_t)sizeof(ee)) {
		r->exec_err = ee;
		r->status = ee == ENOENT ? 127 : 126;
	} else if (r->timed_out) {
		r->status = 128 + SIGKILL;
	} else if (st != -1 && WIFEXITED(st)) {
		r->status = WEXITSTATUS(st);
	} else if (st != -1 && WIFSIGNALED(st)) {
		r->status = 128 + WTERMSIG(st);
	} else {
		r->status = 1;
	}
	return 0;
}
