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
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hooks.h"
#include "core.h"
#include "parse.h"
#include "state.h"

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

/* The most variables a hook gets (CLI.md), with room to spare. */
#define HOOK_ENV_MAX 24

struct envb {
	char *v[HOOK_ENV_MAX + 1];
	int n;
	bool oom;
};

static void __attribute__((format(printf, 2, 3)))
env_add(struct envb *b, const char *fmt, ...)
{
	va_list ap;
	int r;

	if (b->oom || b->n == HOOK_ENV_MAX) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	r = vasprintf(&b->v[b->n], fmt, ap);
	va_end(ap);
	if (r < 0) {
		b->v[b->n] = NULL;
		b->oom = true;
		return;
	}
	b->n++;
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
 * The clean environment CLI.md and pm-utils give a hook: for pm-utils'
 * hooks, what pm-utils' pm-functions exported that hooks read (not its
 * quirk and internal variables); for systemd's, what systemd-sleep sets.
 */
static char **hook_env(const struct pm_ctx *ctx, const struct pm_hook_env *e)
{
	static const char base[] =
		"/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	char self[PM_PATH_MAX], root[PM_PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct envb b = { .n = 0 };
	const struct pm_hook_api *a = e->api;
	char **env;
	size_t rl;

	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash)
			*slash = '\0';
	}
	/* The root as the prefix of real paths: "" for "/". */
	snprintf(root, sizeof(root), "%s", ctx->real_root ? "" : ctx->root);
	rl = strlen(root);
	while (rl && root[rl - 1] == '/')
		root[--rl] = '\0';
	env_add(&b, "PATH=%s%s%s", n > 0 ? self : "", n > 0 ? ":" : "", base);
	env_add(&b, "PM_MODE=%s", e->mode ? e->mode : "");
	env_add(&b, "PM_CMDLINE=%s", e->cmdline ? e->cmdline : "");
	if (!ctx->real_root)
		env_add(&b, "PM_SYSROOT=%s", ctx->root);
	env_add(&b, "LANG=C");
	if (a) {
		env_add(&b, "PM_FUNCTIONS=%s", a->functions);
		env_add(&b, "NA=%d", PM_HOOK_EXIT_NA);
		env_add(&b, "NX=%d", PM_HOOK_EXIT_NX);
		env_add(&b, "DX=%d", PM_HOOK_EXIT_DX);
		env_add(&b, "PM_UTILS_LIBDIR=%s/usr/lib/pm-utils", root);
		env_add(&b, "PM_UTILS_ETCDIR=%s/etc/pm", root);
		env_add(&b, "STORAGEDIR=%s", a->storagedir ? a->storagedir : "");
		if (a->logfile)
			env_add(&b, "PM_LOGFILE=%s", a->logfile);
		env_add(&b, "SUSPEND_MODULES=%s",
			a->suspend_modules ? a->suspend_modules : "");
		env_add(&b, "TEMPORARY_CPUFREQ_GOVERNOR=%s",
			a->cpufreq_governor && *a->cpufreq_governor ?
				a->cpufreq_governor :
				"performance");
	}
	if (e->sleep_action)
		env_add(&b, "SYSTEMD_SLEEP_ACTION=%s", e->sleep_action);
	env = b.oom ? NULL : calloc((size_t)b.n + 1, sizeof(*env));
	if (!env) {
		for (int i = 0; i < b.n; i++)
			free(b.v[i]);
		return NULL;
	}
	memcpy(env, b.v, (size_t)b.n * sizeof(*env));
	return env;
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

/*
 * What runs is the very file checked: the hook is opened again below
 * the root (confined, as pm_hooks_list saw it), checked again on that
 * fd, and that fd is executed.  execve(root + path) would let the kernel
 * resolve an absolute symlink on the host, where another file (anyone's)
 * may sit.
 */
static int open_checked(const struct pm_ctx *ctx, const struct pm_hook *h,
			char *exe, size_t size)
{
	struct pm_walk w = { .mode = PM_WALK_IN_ROOT };
	struct stat st;
	char proc[64];
	ssize_t n;
	int fd = pm_walk_open(ctx->rootfd, h->path, O_PATH | O_CLOEXEC, 0, &w);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    (geteuid() == 0 && unsafe(&st))) {
		close(fd);
		return -EPERM;
	}
	/* Its path on the host, links resolved: a script's interpreter
	 * needs a path to open (see child()). */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, exe, size - 1);
	exe[n > 0 && (size_t)n < size - 1 ? n : 0] = '\0';
	return fd;
}

/*
 * execveat on the checked fd runs a binary as it is.  A script (#!) run
 * that way gets /dev/fd/N as its name, which its interpreter could not
 * open once the close-on-exec fd is gone: the kernel says ENOENT before
 * anything is replaced.  The script then runs by the path of the file
 * checked, links already resolved, once that path is seen to lead to the
 * same file (its folders were checked: only root could change them).
 * So does every hook where execveat is missing (ENOSYS: before Linux
 * 3.19, or under valgrind 3.19).
 */
static void exec_checked(int fd, const char *exe, char *const argv[],
			 char **env)
{
	struct stat a, b;

	syscall(SYS_execveat, fd, "", argv, env, AT_EMPTY_PATH);
	if ((errno != ENOENT && errno != ENOSYS) || !exe[0])
		return;
	if (fstat(fd, &a) < 0 || stat(exe, &b) < 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino) {
		errno = EXDEV;
		return;
	}
	execve(exe, argv, env);
}

static void child(int hookfd, const char *exe, char *const argv[],
		  char **env, int logfd, int errfd)
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
	exec_checked(hookfd, exe, argv, env);
	e = errno;
	if (write(errfd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(126);
}

/*
 * Fork the child that runs the hook: its pid, with fds[0] the read end
 * of the pipe on which a failed exec sends its errno; or -errno.  hookfd
 * and env are released either way.
 */
static pid_t hook_spawn(int hookfd, const char *exe, char **argv, char **env,
			int logfd, int *fds)
{
	pid_t pid;
	int err;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		err = errno;
		close(hookfd);
		free_env(env);
		return -err;
	}
	(void)fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(hookfd);
		close(fds[0]);
		close(fds[1]);
		free_env(env);
		return -err;
	}
	if (pid == 0)
		child(hookfd, exe, argv, env, logfd, fds[1]);
	close(hookfd);
	close(fds[1]);
	free_env(env);
	/* Its own group even before the child gets there: kill reaches it. */
	setpgid(pid, pid);
	return pid;
}

/* Wait for the hook until the deadline, then kill its group: its wait
 * status, or -1 when waitpid failed. */
static int hook_wait(pid_t pid, double deadline, struct pm_hook_run *r)
{
	int st = 0, pfd = pidfd_open_(pid);

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
	return st;
}

/* The hook's status as a shell gives it: 126/127 for an exec that
 * failed (the errno read from fd), 128+N for signal N. */
static void hook_status(int fd, int st, struct pm_hook_run *r)
{
	ssize_t got;
	int ee = 0;

	do
		got = read(fd, &ee, sizeof(ee));
	while (got < 0 && errno == EINTR);
	close(fd);
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
}

int pm_hook_exec(const struct pm_ctx *ctx, const struct pm_hook *h,
		 const char *a1, const char *a2, const struct pm_hook_env *e,
		 struct pm_hook_run *r)
{
	char file[2 * PM_PATH_MAX], exe[PM_PATH_MAX];
	char *argv[] = { file, (char *)a1, (char *)a2, NULL };
	char **env;
	int fds[2], st, hookfd;
	double t0 = mono_s();
	pid_t pid;

	memset(r, 0, sizeof(*r));
	snprintf(file, sizeof(file), "%s%s",
		 ctx->real_root ? "" : ctx->root, h->path);
	hookfd = open_checked(ctx, h, exe, sizeof(exe));
	if (hookfd < 0) {
		/* Changed since it was listed: not run. */
		r->exec_err = -hookfd;
		r->status = hookfd == -ENOENT ? 127 : 126;
		return 0;
	}
	env = hook_env(ctx, e);
	if (!env) {
		close(hookfd);
		return -ENOMEM;
	}
	pid = hook_spawn(hookfd, exe, argv, env, e->logfd, fds);
	if (pid < 0)
		return (int)pid;
	st = hook_wait(pid, t0 + (e->timeout_s > 0 ? e->timeout_s : 1e9), r);
	hook_status(fds[0], st, r);
	r->seconds = mono_s() - t0;
	return 0;
}

/* ---------------------------------------------------------------- store */

/* Hooks keep files, not trees: a deeper folder than this is not theirs. */
#define STORE_DEPTH 8

/*
 * Remove everything in the folder dirfd, depth-first.  Links are removed,
 * never followed.  Passes until one removes nothing: readdir may or may
 * not show what a removal moved.
 */
static int empty_dir(int dirfd, int depth)
{
	int fd = fcntl(dirfd, F_DUPFD_CLOEXEC, 0), r = 0;
	bool again = true;
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while (again) {
		again = false;
		rewinddir(d);
		while ((de = readdir(d))) {
			int sub;

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (unlinkat(dirfd, de->d_name, 0) == 0) {
				again = true;
				continue;
			}
			if (errno != EISDIR) {
				r = -errno;
				continue;
			}
			if (depth >= STORE_DEPTH) {
				r = -ELOOP;
				continue;
			}
			sub = openat(dirfd, de->d_name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
			if (sub < 0) {
				r = -errno;
				continue;
			}
			empty_dir(sub, depth + 1);
			close(sub);
			if (unlinkat(dirfd, de->d_name, AT_REMOVEDIR) == 0)
				again = true;
			else
				r = -errno;
		}
		if (r < 0)
			break;
	}
	closedir(d);
	return r;
}

/* Write text to the new file name of dirfd. */
static int put_file(int dirfd, const char *name, const char *text)
{
	size_t len = strlen(text);
	int fd = openat(dirfd, name,
			O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			0600), err = 0;

	if (fd < 0)
		return -errno;
	if (len && write(fd, text, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	if (close(fd) < 0 && !err)
		err = errno;
	return -err;
}

int pm_hook_store_open(struct pm_ctx *ctx, const char *cmdline,
		       struct pm_hook_store *s)
{
	char words[PM_PATH_MAX * 2], *w = words;
	size_t rl;
	int fd, r;

	pm_hook_store_close(s);
	snprintf(s->path, sizeof(s->path), "%s%s",
		 ctx->real_root ? "" : ctx->root, PM_HOOK_STORE);
	rl = ctx->real_root ? 0 : strlen(ctx->root);
	/* "/tree/" + "/run/...": one slash. */
	if (rl && ctx->root[rl - 1] == '/')
		memmove(s->path + rl - 1, s->path + rl, strlen(s->path + rl) + 1);
	r = pm_write_allowed(ctx, PM_HOOK_STORE);
	if (r < 0)
		return r;
	fd = pm_state_dir(ctx, "/run/pm-utils/pm-suspend", 0755);
	if (fd < 0)
		return fd;
	/* What the last sleep left: its state is not this sleep's. */
	r = openat(fd, "storage",
		   O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (r >= 0) {
		int e = empty_dir(r, 0);

		close(r);
		if (e < 0 || unlinkat(fd, "storage", AT_REMOVEDIR) < 0) {
			close(fd);
			return pm_err_set(ctx, "empty", PM_HOOK_STORE, NULL,
					  e < 0 ? -e : errno, NULL);
		}
	} else if (errno != ENOENT) {
		/* A file or a link there: not ours to follow. */
		if (unlinkat(fd, "storage", 0) < 0) {
			close(fd);
			return pm_err_set(ctx, "remove", PM_HOOK_STORE, NULL,
					  errno, NULL);
		}
	}
	close(fd);
	s->fd = pm_state_dir(ctx, PM_HOOK_STORE, 0700);
	if (s->fd < 0)
		return s->fd;
	/* The parameter list: PM_CMDLINE's words, one a line. */
	words[0] = '\0';
	for (const char *c = cmdline ? cmdline : ""; *c;) {
		size_t n = strcspn(c, " \t");

		if (n && (size_t)(w - words) + n + 2 < sizeof(words)) {
			memcpy(w, c, n);
			w += n;
			*w++ = '\n';
			*w = '\0';
		}
		c += n;
		c += strspn(c, " \t");
	}
	r = put_file(s->fd, "parameters", words);
	if (r < 0) {
		pm_hook_store_close(s);
		return pm_err_set(ctx, "write", PM_HOOK_STORE "/parameters",
				  NULL, -r, NULL);
	}
	return 0;
}

void pm_hook_store_close(struct pm_hook_store *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

int pm_hook_store_read(const struct pm_hook_store *s, const char *name,
		       char *buf, size_t size)
{
	struct stat st;
	ssize_t n;
	int fd;

	buf[0] = '\0';
	if (s->fd < 0)
		return -ENOENT;
	/* Non-blocking: a FIFO put there must not hang pm-suspend. */
	fd = openat(s->fd, name,
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	do
		n = read(fd, buf, size - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -errno;
	while (n && buf[n - 1] == '\n')
		n--;
	buf[n] = '\0';
	return (int)n;
}

bool pm_hook_store_disabled(const struct pm_hook_store *s, const char *name)
{
	char f[300];

	if (s->fd < 0)
		return false;
	snprintf(f, sizeof(f), "disable_hook:%s", name);
	if (faccessat(s->fd, f, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		return true;
	if (name[0] < '0' || name[0] > '9' || name[1] < '0' || name[1] > '9')
		return false;
	snprintf(f, sizeof(f), "disable_hook:%s", name + 2);
	return faccessat(s->fd, f, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

bool pm_hook_store_params(const struct pm_hook_store *s, char *cmdline,
			  size_t size)
{
	char buf[PM_PATH_MAX * 2];
	size_t k = 0;

	if (s->fd < 0 ||
	    faccessat(s->fd, "parameters.new", F_OK, AT_SYMLINK_NOFOLLOW) < 0)
		return false;
	unlinkat(s->fd, "parameters.new", 0);
	if (pm_hook_store_read(s, "parameters", buf, sizeof(buf)) < 0)
		buf[0] = '\0';
	for (char *save = NULL, *w = strtok_r(buf, " \t\n", &save); w;
	     w = strtok_r(NULL, " \t\n", &save)) {
		int n = snprintf(cmdline + k, size - k, "%s%s", k ? " " : "",
				 w);

		if (n < 0 || (size_t)n >= size - k)
			break;
		k += (size_t)n;
	}
	cmdline[k] = '\0';
	return true;
}
