// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fault shim for the tests (LD_PRELOAD): makes chosen writes fail with
 * a chosen errno, so rollback and error messages are tested against the
 * same code paths a kernel refusal takes.
 *
 *   PM_FAULT_WRITE='GLOB=ERRNO[@N][;GLOB=ERRNO[@N]...]'
 *
 * Opening a file for writing whose path matches GLOB fails with ERRNO (a
 * name such as EBUSY, or a number); with @N only the Nth matching open
 * fails (1 is the first), so a test can let a write pass and fail its
 * restore.  ERRNO "IGNORE" lets the write succeed without reaching the
 * file (it goes to /dev/null), as a kernel that clamps a value does.
 * The open fails rather than the write so that a plain-file
 * fixture is not truncated by O_TRUNC: the tree stays as a sysfs file
 * would.  libpm opens with openat2 through syscall(2) below a --sysroot,
 * with openat at the real root: both are caught.  Not for ASan builds
 * (ASan must come first).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <sys/syscall.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_RULES 16

struct rule {
	char glob[512];
	int err;
	long nth;		/* 0: every match */
	long seen;
};

static struct rule rules[MAX_RULES];
static int nrules = -1;

static const struct {
	const char *name;
	int err;
} names[] = {
	{ "EPERM", EPERM },   { "ENOENT", ENOENT }, { "EIO", EIO },
	{ "ENXIO", ENXIO },   { "EAGAIN", EAGAIN }, { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES }, { "EBUSY", EBUSY },   { "ENODEV", ENODEV },
	{ "EINVAL", EINVAL }, { "ENOSPC", ENOSPC }, { "EROFS", EROFS },
	{ "ERANGE", ERANGE }, { "ENODATA", ENODATA },
	{ "EOPNOTSUPP", EOPNOTSUPP },
};

/* Not an errno: the write goes to /dev/null. */
#define FAULT_IGNORE 100000

static int parse_errno(const char *s)
{
	if (!strcmp(s, "IGNORE"))
		return FAULT_IGNORE;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].err;
	return atoi(s);
}

static void load(void)
{
	const char *env = getenv("PM_FAULT_WRITE");
	char buf[4096], *save = NULL;

	nrules = 0;
	if (!env)
		return;
	snprintf(buf, sizeof(buf), "%s", env);
	for (char *r = strtok_r(buf, ";", &save); r && nrules < MAX_RULES;
	     r = strtok_r(NULL, ";", &save)) {
		char *eq = strrchr(r, '='), *at;
		struct rule *x = &rules[nrules];

		if (!eq)
			continue;
		*eq = '\0';
		at = strchr(eq + 1, '@');
		if (at) {
			*at = '\0';
			x->nth = atol(at + 1);
		}
		snprintf(x->glob, sizeof(x->glob), "%s", r);
		x->err = parse_errno(eq + 1);
		if (x->err > 0)
			nrules++;
	}
}

/* The path dirfd + name would open, for matching (not resolved). */
static int fault_for_open(int dirfd, const char *name, int flags)
{
	char link[64], path[8192];
	ssize_t n = 0;

	if ((flags & O_ACCMODE) == O_RDONLY)
		return 0;
	if (nrules < 0)
		load();
	if (!nrules)
		return 0;
	if (name[0] != '/') {
		if (dirfd == AT_FDCWD)
			snprintf(link, sizeof(link), "/proc/self/cwd");
		else
			snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
		n = readlink(link, path, sizeof(path) / 2);
		if (n <= 0)
			return 0;
		path[n++] = '/';
	}
	snprintf(path + n, sizeof(path) - (size_t)n, "%s", name);
	for (int i = 0; i < nrules; i++) {
		struct rule *x = &rules[i];

		if (fnmatch(x->glob, path, 0))
			continue;
		x->seen++;
		if (!x->nth || x->seen == x->nth)
			return x->err;
	}
	return 0;
}

long syscall(long nr, ...)
{
	static long (*real)(long, ...);
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_openat2) {
		const struct open_how *how = (const void *)a[2];
		int err = fault_for_open((int)a[0], (const char *)a[1],
					 (int)how->flags);

		if (err == FAULT_IGNORE)
			return open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (err) {
			errno = err;
			return -1;
		}
	}
	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int openat(int dirfd, const char *name, int flags, ...)
{
	static int (*real)(int, const char *, int, ...);
	mode_t mode = 0;
	va_list ap;
	int err;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	err = fault_for_open(dirfd, name, flags);
	if (err == FAULT_IGNORE)
		name = "/dev/null";
	else if (err) {
		errno = err;
		return -1;
	}
	if (!real)
		real = (int (*)(int, const char *, int, ...))dlsym(RTLD_NEXT,
								   "openat");
	return real(dirfd, name, flags, mode);
}
