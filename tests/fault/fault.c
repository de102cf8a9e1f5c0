// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A fault shim for the tests (LD_PRELOAD): makes chosen opens, writes and
 * reads fail with a chosen errno, makes writes short, and logs every
 * write, so rollback, error messages and write order are tested against
 * the same code paths a kernel refusal takes.  Configured by environment
 * only; with none of the variables below set it passes everything
 * through.  Not for ASan builds (ASan must come first; the bats helper
 * fault_so skips there) nor static binaries.
 *
 * Writes:
 *
 *   PM_FAULT_WRITE='RULE[;RULE...]'    RULE is GLOB=ERRNO[@N][:write]
 *
 *   - Without ":write" (an open rule, the original form): opening a file
 *     for writing whose path matches GLOB fails with ERRNO.  With @N only
 *     the Nth matching open fails (1 is the first), so a test can let a
 *     write pass and fail its restore.  Each rule counts its own matches;
 *     rules are tried in order and the first that fails an open (or a
 *     write) ends the search, so later rules do not count that one.
 *     The open fails rather than the write so that a plain-file fixture
 *     is not truncated by O_TRUNC: the tree stays as a sysfs file would.
 *   - With ":write" (a write rule): the open succeeds and the Nth write()
 *     or pwrite() to a matching file fails with ERRNO instead, as a sysfs
 *     store that refuses the value.  Such a file is opened without O_TRUNC
 *     and truncated just before its first write that goes through, so a
 *     refused write leaves a plain-file fixture as it was, like sysfs.
 *   - ERRNO is a name (EPERM ENOENT EIO ENXIO EAGAIN ENOMEM EACCES EBUSY
 *     ENODEV EINVAL ENOSPC EROFS ERANGE ENODATA EOPNOTSUPP EINTR EEXIST
 *     ENOTDIR EISDIR ETIMEDOUT EFAULT E2BIG) or a positive number, or:
 *       IGNORE  the open succeeds on /dev/null: the write "succeeds" without
 *               reaching the file, as a kernel that clamps a value does;
 *       SHORT   (always a write rule) write() stores only the first half of
 *               the bytes asked (len / 2, so the file holds a cut value)
 *               and returns that count, as a store that consumed part of
 *               the buffer.
 *       PAUSE   the open or write waits (see PM_FAULT_PAUSE below), then
 *               goes through as if no rule had matched.
 *     EINTR as a write rule fails the one write with EINTR before anything
 *     is stored: a caller that retries then succeeds.  (Without @N every
 *     matching write fails, forever.)
 *
 * Reads:
 *
 *   PM_FAULT_READ='RULE[;RULE...]'     RULE is GLOB=ERRNO[@N][:open]
 *
 *   - Without ":open": the Nth read(), pread()/pread64() or their
 *     _FORTIFY_SOURCE forms (__read_chk, __pread_chk, __pread64_chk) of a
 *     file whose path matches GLOB fails with ERRNO (counted per rule).
 *   - With ":open": the Nth open of a matching path for reading (O_RDONLY,
 *     not O_PATH or a folder's O_DIRECTORY) fails with ERRNO.
 *   - ERRNO may be PAUSE here too: the read or open waits, then goes on.
 *   The path of an fd is the one it was opened by (below), tracked from
 *   open/openat/openat2 to close/close_range; an fd the shim did not see
 *   opened (stdio's internal opens, inherited fds) is named by
 *   readlink("/proc/self/fd/N"), which resolves symlinks.
 *
 * Pauses:
 *
 *   PM_FAULT_PAUSE=FILE
 *
 *   A PAUSE rule that fires creates FILE holding the pid and a newline,
 *   then waits until FILE is gone (polled every 10 ms) and lets the call
 *   through.  A test waits for FILE to appear, knows the process is
 *   stopped right there (holding its lock, say), looks around, and
 *   removes FILE to let it go on: races made deterministic.  Without
 *   PM_FAULT_PAUSE a PAUSE rule does nothing.  A PAUSE that fires ends
 *   the search for rules, as a failure does.
 *
 * The log:
 *
 *   PM_FAULT_LOG=FILE
 *
 *   Appends one line per write() or pwrite() to a file opened for writing,
 *   and per open for writing that a rule failed (real open failures, such
 *   as libpm's EXDEV fallback from a folder fd to the root, are not
 *   logged: no write was attempted):
 *     SEQ <TAB> PATH <TAB> VALUE <TAB> RESULT
 *   SEQ counts from 1 in each process; VALUE is the bytes asked, with \n,
 *   \t, \\ and other control bytes escaped (\n, \t, \\, \xHH), "-" for a
 *   failed open; RESULT is "ok", "ignored" (IGNORE), "short K/M", an errno
 *   name of a failed write ("EIO"), or "open EIO" for a failed open.
 *   Writes to fds the shim did not see opened (stdout, stderr, stdio's
 *   output files) are not logged.  The file is opened, appended and
 *   closed for each line (O_APPEND), so processes may share it.
 *
 * openat2 missing or refused:
 *
 *   PM_FAULT_OPENAT2=ERRNO
 *
 *   Every openat2 fails with ERRNO before anything else is tried: ENOSYS
 *   as on a kernel before 5.6 or under valgrind 3.19, EPERM as under a
 *   seccomp filter that refuses the call, EINVAL as on a kernel that
 *   lacks a resolve flag.  libpm must then resolve paths in user space,
 *   confined as openat2 would.
 *
 * A side effect of a write (what the kernel does beyond storing the
 * value, such as a driver's status switch resetting every policy):
 *
 *   PM_FAULT_AFTER=GLOB  PM_FAULT_AFTER_CMD=COMMAND
 *
 *   After each write() or pwrite() to a file matching GLOB that stores
 *   every byte asked, COMMAND runs with /bin/sh -c and is waited for, with
 *   PM_FAULT_PATH (the file) and PM_FAULT_VALUE (the bytes, without a
 *   trailing newline) in its environment, and without LD_PRELOAD and the
 *   PM_FAULT_* variables of the shim (so its own writes are plain).
 *
 * Paths: for matching and the log, a path is the name given to the open,
 * made absolute with the folder of its dirfd (readlink of /proc/self/fd/N,
 * or the cwd), not resolved further: below a --sysroot, libpm opens
 * "sys/..." relative to the root's fd, giving "/tmp/fx/sys/...".  GLOB is
 * fnmatch(3) without flags: "*" matches "/" too, so "*" then "/sys/"
 * then "*" is every file below any sys folder.
 *
 * Caught: open, open64, openat, openat64, openat2 through syscall(2) (as
 * libpm opens below a --sysroot), read, pread, pread64, __read_chk,
 * __pread_chk, __pread64_chk, write, pwrite, pwrite64, close and
 * close_range.  Not caught: stdio's own reads and writes (fread, fwrite,
 * fgets), which glibc makes without the PLT.
 */
#include <dlfcn.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdarg.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

#define MAX_RULES 32
/* fds above this are not tracked (looked up by readlink instead). */
#define MAX_FDS 4096
#define PATH_LEN 1024

/* Pseudo-errnos, never real ones. */
#define FAULT_IGNORE 100000
#define FAULT_SHORT 100001
#define FAULT_PAUSE 100002
/* How often a paused call looks for its FILE. */
#define PAUSE_POLL_NS (10 * 1000 * 1000)

enum kind { K_OPEN_WRITE, K_WRITE, K_OPEN_READ, K_READ };

struct rule {
	char glob[512];
	int err;
	enum kind kind;
	long nth; /* 0: every match */
	long seen;
};

static struct rule rules[MAX_RULES];
static int nrules = -1;
static bool have_write_rules, have_read_rules;
static char logpath[PATH_LEN];
static char pausepath[PATH_LEN];
static long logseq;
static const char *after_glob, *after_cmd;

struct fdinfo {
	bool used, writing, defer_trunc, ignored;
	dev_t dev;
	ino_t ino;
	char path[PATH_LEN];
};

static struct fdinfo fds[MAX_FDS];

static const struct {
	const char *name;
	int err;
} names[] = {
	{ "EPERM", EPERM },	  { "ENOENT", ENOENT },	  { "EIO", EIO },
	{ "ENXIO", ENXIO },	  { "EAGAIN", EAGAIN },	  { "ENOMEM", ENOMEM },
	{ "EACCES", EACCES },	  { "EBUSY", EBUSY },	  { "ENODEV", ENODEV },
	{ "EINVAL", EINVAL },	  { "ENOSPC", ENOSPC },	  { "EROFS", EROFS },
	{ "ERANGE", ERANGE },	  { "ENODATA", ENODATA }, { "EINTR", EINTR },
	{ "EOPNOTSUPP", EOPNOTSUPP }, { "EEXIST", EEXIST },
	{ "ENOTDIR", ENOTDIR },	  { "EISDIR", EISDIR },	  { "EFAULT", EFAULT },
	{ "ETIMEDOUT", ETIMEDOUT }, { "E2BIG", E2BIG },
	{ "ENOSYS", ENOSYS },
	/* Named in the log only (real failures). */
	{ "EXDEV", EXDEV },	  { "ELOOP", ELOOP },
	{ "ENAMETOOLONG", ENAMETOOLONG }, { "EBADF", EBADF },
};

/* ------------------------------------------------------------ real calls */

static int (*real_openat)(int, const char *, int, ...);
static long (*real_syscall)(long, ...);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_pread)(int, void *, size_t, off_t);
static ssize_t (*real_pread64)(int, void *, size_t, off_t);
static ssize_t (*real_read_chk)(int, void *, size_t, size_t);
static ssize_t (*real_pread_chk)(int, void *, size_t, off_t, size_t);
static ssize_t (*real_pread64_chk)(int, void *, size_t, off_t, size_t);
static ssize_t (*real_write)(int, const void *, size_t);
static ssize_t (*real_pwrite)(int, const void *, size_t, off_t);
static ssize_t (*real_pwrite64)(int, const void *, size_t, off_t);
static int (*real_close)(int);
static int (*real_close_range)(unsigned, unsigned, int);

#define REAL_SYM(var, sym)                                                     \
	do {                                                                   \
		if (!(var))                                                    \
			*(void **)&(var) = dlsym(RTLD_NEXT, sym);              \
	} while (0)
#define REAL(name) REAL_SYM(real_##name, #name)

/* --------------------------------------------------------------- config */

static const char *errno_name(int err)
{
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	return NULL;
}

static int parse_errno(const char *s)
{
	if (!strcmp(s, "IGNORE"))
		return FAULT_IGNORE;
	if (!strcmp(s, "SHORT"))
		return FAULT_SHORT;
	if (!strcmp(s, "PAUSE"))
		return FAULT_PAUSE;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].err;
	return atoi(s);
}

static void parse(const char *env, bool reads)
{
	char buf[8192], *save = NULL;

	if (!env)
		return;
	snprintf(buf, sizeof(buf), "%s", env);
	for (char *r = strtok_r(buf, ";", &save); r && nrules < MAX_RULES;
	     r = strtok_r(NULL, ";", &save)) {
		char *eq = strrchr(r, '='), *at, *colon;
		struct rule *x = &rules[nrules];
		bool flag = false;

		if (!eq)
			continue;
		*eq = '\0';
		colon = strchr(eq + 1, ':');
		if (colon) {
			*colon = '\0';
			if (!strcmp(colon + 1, reads ? "open" : "write"))
				flag = true;
			else
				continue; /* an unknown flag: not a rule */
		}
		at = strchr(eq + 1, '@');
		x->nth = 0;
		x->seen = 0;
		if (at) {
			*at = '\0';
			x->nth = atol(at + 1);
		}
		snprintf(x->glob, sizeof(x->glob), "%s", r);
		x->err = parse_errno(eq + 1);
		if (x->err <= 0)
			continue;
		if (reads) {
			if (x->err == FAULT_IGNORE || x->err == FAULT_SHORT)
				continue;
			x->kind = flag ? K_OPEN_READ : K_READ;
			have_read_rules = true;
		} else {
			x->kind = flag || x->err == FAULT_SHORT ? K_WRITE :
								  K_OPEN_WRITE;
			if (x->kind == K_WRITE && x->err == FAULT_IGNORE)
				x->kind = K_OPEN_WRITE;
			have_write_rules = true;
		}
		nrules++;
	}
}

static void load(void)
{
	const char *log;

	if (nrules >= 0)
		return;
	nrules = 0;
	parse(getenv("PM_FAULT_WRITE"), false);
	parse(getenv("PM_FAULT_READ"), true);
	log = getenv("PM_FAULT_LOG");
	if (log && *log)
		snprintf(logpath, sizeof(logpath), "%s", log);
	after_glob = getenv("PM_FAULT_AFTER");
	after_cmd = getenv("PM_FAULT_AFTER_CMD");
	if (!after_glob || !*after_glob || !after_cmd || !*after_cmd)
		after_glob = after_cmd = NULL;
	log = getenv("PM_FAULT_PAUSE");
	if (log && *log)
		snprintf(pausepath, sizeof(pausepath), "%s", log);
}

static bool active(void)
{
	load();
	return nrules > 0 || logpath[0] || after_cmd;
}

/* PM_FAULT_AFTER_CMD for a write of buf to path, waited for. */
static void run_after(const char *path, const void *buf, size_t n)
{
	char value[PATH_LEN];
	int st;
	pid_t pid;

	if (!after_cmd || fnmatch(after_glob, path, 0))
		return;
	if (n >= sizeof(value))
		n = sizeof(value) - 1;
	memcpy(value, buf, n);
	while (n && value[n - 1] == '\n')
		n--;
	value[n] = '\0';
	pid = fork();
	if (pid < 0)
		return;
	if (pid == 0) {
		static const char *const drop[] = {
			"LD_PRELOAD", "PM_FAULT_WRITE", "PM_FAULT_READ",
			"PM_FAULT_LOG", "PM_FAULT_AFTER", "PM_FAULT_PAUSE", NULL
		};
		const char *cmd = after_cmd;

		for (int i = 0; drop[i]; i++)
			unsetenv(drop[i]);
		setenv("PM_FAULT_PATH", path, 1);
		setenv("PM_FAULT_VALUE", value, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
}

/* The first rule of KIND that matches PATH and fires now: its errno. */
static int fire(enum kind kind, const char *path)
{
	for (int i = 0; i < nrules; i++) {
		struct rule *x = &rules[i];

		if (x->kind != kind || fnmatch(x->glob, path, 0))
			continue;
		x->seen++;
		if (!x->nth || x->seen == x->nth)
			return x->err;
	}
	return 0;
}

static bool any_match(enum kind kind, const char *path)
{
	for (int i = 0; i < nrules; i++)
		if (rules[i].kind == kind && !fnmatch(rules[i].glob, path, 0))
			return true;
	return false;
}

/* ------------------------------------------------------------------ log */

static void esc(char *out, size_t size, const char *buf, size_t n)
{
	size_t o = 0;

	for (size_t i = 0; i < n && o + 5 < size; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n' || c == '\t' || c == '\\') {
			out[o++] = '\\';
			out[o++] = c == '\n' ? 'n' : c == '\t' ? 't' : '\\';
		} else if (c < 0x20 || c == 0x7f) {
			o += (size_t)snprintf(out + o, size - o, "\\x%02x", c);
		} else {
			out[o++] = (char)c;
		}
	}
	out[o] = '\0';
}

static void log_line(const char *path, const char *value, const char *result)
{
	char line[PATH_LEN + 4096 + 128];
	int fd, len, saved = errno;

	if (!logpath[0])
		return;
	len = snprintf(line, sizeof(line), "%ld\t%s\t%s\t%s\n", ++logseq, path,
		       value, result);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(line))
		len = (int)sizeof(line) - 1;
	REAL(openat);
	fd = real_openat(AT_FDCWD, logpath,
			 O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		REAL(write);
		REAL(close);
		if (real_write(fd, line, (size_t)len) < 0)
			(void)0; /* a test log: nothing to do */
		real_close(fd);
	}
	errno = saved;
}

static void log_write(const char *path, const void *buf, size_t n,
		      const char *result)
{
	char v[4096];

	esc(v, sizeof(v), buf, n);
	log_line(path, v, result);
}

static const char *err_text(int err, char *buf, size_t size)
{
	const char *n = errno_name(err);

	if (n)
		snprintf(buf, size, "%s", n);
	else
		snprintf(buf, size, "%d", err);
	return buf;
}

/* --------------------------------------------------------------- pauses */

/* Make PM_FAULT_PAUSE's file, wait until the test removes it. */
static void pause_here(void)
{
	char pid[32];
	struct stat st;
	int fd, len, saved = errno;

	if (!pausepath[0])
		return;
	len = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid());
	REAL(openat);
	REAL(write);
	REAL(close);
	fd = real_openat(AT_FDCWD, pausepath,
			 O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		errno = saved;
		return;
	}
	if (real_write(fd, pid, (size_t)len) < 0)
		(void)0; /* the file is there: that is the signal */
	real_close(fd);
	while (stat(pausepath, &st) == 0)
		nanosleep(&(struct timespec){ 0, PAUSE_POLL_NS }, NULL);
	errno = saved;
}

/* ------------------------------------------------------------ fd table */

/* The path dirfd + name would open, for matching (not resolved). */
static bool open_path(int dirfd, const char *name, char *path, size_t size)
{
	char link[64];
	ssize_t n = 0;

	if (name[0] != '/') {
		if (dirfd == AT_FDCWD)
			snprintf(link, sizeof(link), "/proc/self/cwd");
		else
			snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
		n = readlink(link, path, size / 2);
		if (n <= 0)
			return false;
		if (path[n - 1] != '/')
			path[n++] = '/';
	}
	snprintf(path + n, size - (size_t)n, "%s", name);
	return true;
}

static struct fdinfo *tracked(int fd)
{
	struct stat st;

	if (fd < 0 || fd >= MAX_FDS || !fds[fd].used)
		return NULL;
	/* Closed behind the shim's back (fclose) and reused: forget it. */
	if (fstat(fd, &st) < 0 || st.st_dev != fds[fd].dev ||
	    st.st_ino != fds[fd].ino) {
		fds[fd].used = false;
		return NULL;
	}
	return &fds[fd];
}

static void track(int fd, const char *path, int flags, bool defer,
		  bool ignored)
{
	struct stat st;
	struct fdinfo *f;

	if (fd < 0 || fd >= MAX_FDS || fstat(fd, &st) < 0)
		return;
	f = &fds[fd];
	f->used = true;
	f->writing = (flags & O_ACCMODE) != O_RDONLY && !(flags & O_PATH);
	f->defer_trunc = defer;
	f->ignored = ignored;
	f->dev = st.st_dev;
	f->ino = st.st_ino;
	snprintf(f->path, sizeof(f->path), "%s", path);
}

static void untrack(int fd)
{
	if (fd >= 0 && fd < MAX_FDS)
		fds[fd].used = false;
}

/* --------------------------------------------------------------- opens */

struct plan {
	char path[PATH_LEN];
	bool known;	/* path was made */
	bool defer;	/* strip O_TRUNC, truncate at the first write */
	int err;	/* injected at open, or FAULT_IGNORE */
};

static void plan_open(struct plan *p, int dirfd, const char *name, int flags)
{
	bool writing = (flags & O_ACCMODE) != O_RDONLY && !(flags & O_PATH);

	memset(p, 0, sizeof(*p));
	if (!active() || !name)
		return;
	p->known = open_path(dirfd, name, p->path, sizeof(p->path));
	if (!p->known)
		return;
	if (writing) {
		p->err = fire(K_OPEN_WRITE, p->path);
		if (p->err == FAULT_PAUSE) {
			pause_here();
			p->err = 0;
		}
		p->defer = !p->err && (flags & O_TRUNC) &&
			   any_match(K_WRITE, p->path);
	} else if (!(flags & (O_PATH | O_DIRECTORY))) {
		p->err = fire(K_OPEN_READ, p->path);
		if (p->err == FAULT_PAUSE) {
			pause_here();
			p->err = 0;
		}
	}
}

/* After the real open: track it. */
static int opened(const struct plan *p, int fd, int flags)
{
	if (p->known && fd >= 0)
		track(fd, p->path, flags, p->defer, p->err == FAULT_IGNORE);
	return fd;
}

/* An injected open failure: logged when for writing, errno set, -1. */
static int refuse_open(const struct plan *p, int flags)
{
	char t[64], r[80];

	if ((flags & O_ACCMODE) != O_RDONLY && !(flags & O_PATH)) {
		snprintf(r, sizeof(r), "open %s",
			 err_text(p->err, t, sizeof(t)));
		log_line(p->path, "-", r);
	}
	errno = p->err;
	return -1;
}

/*
 * An IGNORE open: writes reach nothing.  Opened to write only, it is
 * /dev/null; opened to read and write (a verified write reads back
 * through the fd it wrote), it is the file itself opened to read, so
 * that the read-back sees the value the "kernel" kept.
 */
static int ignore_open(int dirfd, const char *name, int flags)
{
	int fd;

	REAL(openat);
	if ((flags & O_ACCMODE) == O_RDWR) {
		fd = real_openat(dirfd, name,
				 O_RDONLY | O_NONBLOCK | (flags & O_CLOEXEC));
		if (fd >= 0)
			return fd;
	}
	return real_openat(AT_FDCWD, "/dev/null",
			   O_WRONLY | (flags & O_CLOEXEC));
}

int openat(int dirfd, const char *name, int flags, ...)
{
	mode_t mode = 0;
	struct plan p;
	va_list ap;
	int fd;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	REAL(openat);
	plan_open(&p, dirfd, name, flags);
	if (p.err == FAULT_IGNORE) {
		fd = ignore_open(dirfd, name, flags);
		return opened(&p, fd, flags);
	}
	if (p.err)
		return refuse_open(&p, flags);
	fd = real_openat(dirfd, name, p.defer ? flags & ~O_TRUNC : flags, mode);
	return opened(&p, fd, flags);
}

int openat64(int dirfd, const char *name, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return openat(dirfd, name, flags, mode);
}

int open(const char *name, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return openat(AT_FDCWD, name, flags, mode);
}

int open64(const char *name, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	va_start(ap, flags);
	if (flags & (O_CREAT | O_TMPFILE))
		mode = va_arg(ap, mode_t);
	va_end(ap);
	return openat(AT_FDCWD, name, flags, mode);
}

/* PM_FAULT_OPENAT2: the errno every openat2 fails with, or 0. */
static int openat2_errno(void)
{
	static int err = -1;
	const char *e;

	if (err < 0) {
		e = getenv("PM_FAULT_OPENAT2");
		err = e && *e ? parse_errno(e) : 0;
		if (err < 0)
			err = 0;
	}
	return err;
}

long syscall(long nr, ...)
{
	long a[6];
	va_list ap;

	va_start(ap, nr);
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	REAL(syscall);
	if (nr == SYS_openat2 && openat2_errno()) {
		errno = openat2_errno();
		return -1;
	}
	if (nr == SYS_openat2 && a[2]) {
		const struct open_how *how = (const void *)a[2];
		struct open_how h = *how;
		int flags = (int)how->flags;
		struct plan p;
		long fd;

		plan_open(&p, (int)a[0], (const char *)a[1], flags);
		if (p.err == FAULT_IGNORE) {
			fd = ignore_open((int)a[0], (const char *)a[1], flags);
			return opened(&p, (int)fd, flags);
		}
		if (p.err)
			return refuse_open(&p, flags);
		if (p.defer)
			h.flags &= ~(uint64_t)O_TRUNC;
		fd = real_syscall(nr, a[0], a[1], (long)&h, a[3], a[4], a[5]);
		return opened(&p, (int)fd, flags);
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int close(int fd)
{
	REAL(close);
	untrack(fd);
	return real_close(fd);
}

int close_range(unsigned first, unsigned last, int flags)
{
	REAL(close_range);
	if (!(flags & CLOSE_RANGE_CLOEXEC))
		for (unsigned fd = first; fd <= last && fd < MAX_FDS; fd++)
			untrack((int)fd);
	if (!real_close_range) {
		errno = ENOSYS;
		return -1;
	}
	return real_close_range(first, last, flags);
}

/* --------------------------------------------------------------- writes */

/*
 * One write to fd (offset < 0: write(), else pwrite()).  Returns 1 with
 * *ret set when the shim answered, 0 to pass it to the real call.
 */
static int fault_write(int fd, const void *buf, size_t n, off_t off,
		       ssize_t *ret)
{
	struct fdinfo *f;
	char t[64], r[80];
	ssize_t got;
	int err;

	if (!active())
		return 0;
	f = tracked(fd);
	if (!f || !f->writing)
		return 0;
	err = have_write_rules ? fire(K_WRITE, f->path) : 0;
	if (err == FAULT_PAUSE) {
		pause_here();
		err = 0;
	}
	if (err && err != FAULT_SHORT) {
		log_write(f->path, buf, n, err_text(err, t, sizeof(t)));
		errno = err;
		*ret = -1;
		return 1;
	}
	if (f->defer_trunc) {
		f->defer_trunc = false;
		if (ftruncate(fd, 0) < 0) {
			int e = errno;

			log_write(f->path, buf, n, err_text(e, t, sizeof(t)));
			errno = e;
			*ret = -1;
			return 1;
		}
	}
	if (err == FAULT_SHORT) {
		size_t k = n / 2;

		got = k ? (off < 0 ? real_write(fd, buf, k) :
				     real_pwrite(fd, buf, k, off)) :
			  0;
		if (got >= 0)
			snprintf(r, sizeof(r), "short %zd/%zu", got, n);
		else
			err_text(errno, r, sizeof(r));
	} else if (f->ignored) {
		got = (ssize_t)n; /* dropped, as a kernel that clamps it */
		snprintf(r, sizeof(r), "ignored");
	} else {
		got = off < 0 ? real_write(fd, buf, n) :
				real_pwrite(fd, buf, n, off);
		if (got < 0)
			err_text(errno, r, sizeof(r));
		else if ((size_t)got < n)
			snprintf(r, sizeof(r), "short %zd/%zu", got, n);
		else
			snprintf(r, sizeof(r), "%s",
				 f->ignored ? "ignored" : "ok");
	}
	{
		int e = errno;

		log_write(f->path, buf, n, r);
		if (got >= 0 && (size_t)got == n && err != FAULT_SHORT &&
		    !f->ignored)
			run_after(f->path, buf, n);
		errno = e;
	}
	*ret = got;
	return 1;
}

ssize_t write(int fd, const void *buf, size_t n)
{
	ssize_t r;

	REAL(write);
	REAL(pwrite);
	if (fault_write(fd, buf, n, -1, &r))
		return r;
	return real_write(fd, buf, n);
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t r;

	REAL(write);
	REAL(pwrite);
	if (off >= 0 && fault_write(fd, buf, n, off, &r))
		return r;
	return real_pwrite(fd, buf, n, off);
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off_t off)
{
	ssize_t r;

	REAL(write);
	REAL(pwrite);
	REAL(pwrite64);
	if (off >= 0 && fault_write(fd, buf, n, off, &r))
		return r;
	return real_pwrite64(fd, buf, n, off);
}

/* ---------------------------------------------------------------- reads */

/* The errno to fail this read of fd with, or 0. */
static int fault_read(int fd)
{
	char link[64], path[PATH_LEN];
	const struct fdinfo *f;
	ssize_t n;
	int err;

	if (!active() || !have_read_rules)
		return 0;
	f = tracked(fd);
	if (f) {
		err = fire(K_READ, f->path);
	} else {
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		n = readlink(link, path, sizeof(path) - 1);
		if (n <= 0)
			return 0;
		path[n] = '\0';
		err = fire(K_READ, path);
	}
	if (err == FAULT_PAUSE) {
		pause_here();
		err = 0;
	}
	return err;
}

#define READ_FAULT(fd)                                                         \
	do {                                                                   \
		int e_ = fault_read(fd);                                       \
		if (e_) {                                                      \
			errno = e_;                                            \
			return -1;                                             \
		}                                                              \
	} while (0)

ssize_t read(int fd, void *buf, size_t n)
{
	REAL(read);
	READ_FAULT(fd);
	return real_read(fd, buf, n);
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	REAL(pread);
	READ_FAULT(fd);
	return real_pread(fd, buf, n, off);
}

ssize_t pread64(int fd, void *buf, size_t n, off_t off)
{
	REAL(pread64);
	READ_FAULT(fd);
	return real_pread64(fd, buf, n, off);
}

/* The checks stay glibc's: the real _chk functions do them. */
ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen);
ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);
ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen);

ssize_t __read_chk(int fd, void *buf, size_t n, size_t buflen)
{
	REAL_SYM(real_read_chk, "__read_chk");
	READ_FAULT(fd);
	return real_read_chk(fd, buf, n, buflen);
}

ssize_t __pread_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	REAL_SYM(real_pread_chk, "__pread_chk");
	READ_FAULT(fd);
	return real_pread_chk(fd, buf, n, off, buflen);
}

ssize_t __pread64_chk(int fd, void *buf, size_t n, off_t off, size_t buflen)
{
	REAL_SYM(real_pread64_chk, "__pread64_chk");
	READ_FAULT(fd);
	return real_pread64_chk(fd, buf, n, off, buflen);
}
