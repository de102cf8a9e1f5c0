// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The system root and every access below it: dirfd-relative opens,
 * whole-value attribute reads and single-write attribute writes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "core.h"
#include "parse.h"

/* Growth step of buffers for /proc files read until EOF. */
#define PM_FILE_CHUNK 16384

void pm_err_clear(struct pm_ctx *ctx)
{
	memset(&ctx->err, 0, sizeof(ctx->err));
}

int pm_err_set(struct pm_ctx *ctx, const char *op, const char *file,
	       const char *value, int err, const char *hint_fmt, ...)
{
	struct pm_err *e = &ctx->err;

	snprintf(e->op, sizeof(e->op), "%s", op ? op : "");
	snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
	snprintf(e->value, sizeof(e->value), "%s", value ? value : "");
	e->err = err;
	e->hint[0] = '\0';
	if (hint_fmt) {
		va_list ap;

		va_start(ap, hint_fmt);
		vsnprintf(e->hint, sizeof(e->hint), hint_fmt, ap);
		va_end(ap);
	}
	return -err;
}

/*
 * The root handed to children (PM_SYSROOT of hooks and commands) must be
 * absolute: a child that changes folder would otherwise resolve another
 * root, and "--sysroot ." run from / would make it the real one.  The
 * folder that was opened says where it is; a root given as an absolute
 * path is kept as written.
 */
static void absolute_root(struct pm_ctx *ctx, const char *root)
{
	char proc[64], abs[PM_PATH_MAX], cwd[PM_PATH_MAX];
	ssize_t n;

	if (root[0] == '/')
		return;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", ctx->rootfd);
	n = readlink(proc, abs, sizeof(abs) - 1);
	if (n > 0 && (size_t)n < sizeof(abs) - 1 && abs[0] == '/') {
		abs[n] = '\0';
		snprintf(ctx->root, sizeof(ctx->root), "%s", abs);
		return;
	}
	/* No /proc: the current folder and the name as given. */
	if (!getcwd(cwd, sizeof(cwd)))
		return;
	size_t c = strlen(cwd), r = strlen(root);

	if (c + 1 + r >= sizeof(ctx->root))
		return;
	memcpy(ctx->root, cwd, c);
	if (c > 1)
		ctx->root[c++] = '/';
	memcpy(ctx->root + c, root, r + 1);
}

int pm_ctx_open(struct pm_ctx *ctx, const char *root)
{
	const char *g;

	memset(ctx, 0, sizeof(*ctx));
	ctx->rootfd = -1;
	ctx->nearfd = -1;
	if (!root || !*root)
		root = getenv("PM_SYSROOT");
	if (!root || !*root)
		root = "/";
	if (strlen(root) >= sizeof(ctx->root))
		return pm_err_set(ctx, "open", root, NULL, ENAMETOOLONG, NULL);
	snprintf(ctx->root, sizeof(ctx->root), "%s", root);

	ctx->rootfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (ctx->rootfd < 0)
		return pm_err_set(ctx, "open", root, NULL, errno,
				  "the system root must be a folder");
	absolute_root(ctx, root);

	/* Compare inodes, not strings: "//", "/." and symlinks are "/" too. */
	struct stat a, b;

	ctx->real_root = fstat(ctx->rootfd, &a) == 0 && stat("/", &b) == 0 &&
			 a.st_dev == b.st_dev && a.st_ino == b.st_ino;
	g = getenv("PM_TEST_GUARD");
	ctx->guard = g && strcmp(g, "0") != 0 && *g;
	return 0;
}

void pm_ctx_forget_near(struct pm_ctx *ctx)
{
	if (ctx->nearfd >= 0)
		close(ctx->nearfd);
	ctx->nearfd = -1;
	ctx->neardir[0] = '\0';
}

void pm_ctx_close(struct pm_ctx *ctx)
{
	if (ctx->rootfd >= 0)
		close(ctx->rootfd);
	ctx->rootfd = -1;
	pm_ctx_forget_near(ctx);
}

static const char *rel(const char *path)
{
	while (*path == '/')
		path++;
	return *path ? path : ".";
}

int pm_open(struct pm_ctx *ctx, const char *path, int flags)
{
	return pm_openat(ctx, ctx->rootfd, path, flags);
}

/* As the kernel's MAXSYMLINKS: more links in one lookup is a loop. */
#define PM_WALK_LINKS 40
/* Folders held open at once while a lookup descends (a sysfs device
 * path is about 20 deep; the path buffer allows 2048 components). */
#define PM_WALK_DEPTH 256

static int walk_check(const struct pm_walk *w, int fd)
{
	return w && w->check_dir ? w->check_dir(w->arg, fd) : 0;
}

/* Open the folder a lookup starts from, as an O_PATH fd of our own. */
static int walk_start(int dirfd)
{
	return openat(dirfd, ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static int walk_start_root(void)
{
	return open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/*
 * The path still to walk: the text of a link, then what was left after
 * the link's name (rest, not in buf); -ENAMETOOLONG if it does not fit.
 */
static int splice_link(char *buf, size_t size, const char *rest,
		       const char *link)
{
	/* Nothing after the link: its text alone ("a/" stays a folder). */
	int n = snprintf(buf, size, "%s%s%s", link, *rest ? "/" : "", rest);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* One lookup: the path still to walk, the folders held open. */
struct walk {
	char buf[2 * PM_PATH_MAX];
	char *p;			/* the rest of the path, in buf */
	int stack[PM_WALK_DEPTH];	/* stack[n - 1]: the current folder */
	int n;
	int links;			/* symlinks followed so far */
	enum pm_walk_mode m;
	const struct pm_walk *w;
	int flags;
	mode_t mode;
	bool nofollow;
};

/*
 * The next name of the path, cut out of buf in place, NULL at its end;
 * *last when nothing follows it ("a/" is not last: walk into it and open
 * "." there).
 */
static char *walk_name(struct walk *s, bool *last)
{
	char *name, *next;

	while (*s->p == '/')
		s->p++;
	if (!*s->p)
		return NULL;
	name = s->p;
	next = strchr(s->p, '/');
	if (next) {
		*next++ = '\0';
		while (*next == '/')
			next++;
	} else {
		next = s->p + strlen(s->p);
	}
	*last = next == name + strlen(name);
	s->p = next;
	return name;
}

/* "..": back out of a folder this lookup entered, else by the mode. */
static int walk_up(struct walk *s, int top)
{
	int c, err;

	if (s->n > 1) {
		close(s->stack[--s->n]);
		return 0;
	}
	if (s->m == PM_WALK_IN_ROOT)
		return 0; /* the root is its own parent */
	if (s->m == PM_WALK_BENEATH)
		return -EXDEV;
	err = walk_check(s->w, top);
	if (err)
		return err;
	c = openat(top, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (c < 0)
		return -errno;
	close(s->stack[0]);
	s->stack[0] = c;
	return 0;
}

/*
 * The last name: open it with the caller's flags, never through a link.
 * 1 with *fd open; 0 when it may be a link to follow (*lerr the errno
 * the open met); else -errno.
 */
static int walk_last(struct walk *s, int top, const char *name, int *fd,
		     int *lerr)
{
	struct stat st;

	*fd = openat(top, name, s->flags | O_NOFOLLOW | O_CLOEXEC, s->mode);
	if (*fd >= 0 && (s->flags & O_PATH) && !s->nofollow &&
	    fstat(*fd, &st) == 0 && S_ISLNK(st.st_mode)) {
		close(*fd);
		*fd = -1;
		errno = ELOOP;
	} else if (*fd >= 0) {
		return 1;
	} else if (s->nofollow || (errno != ELOOP && errno != ENOTDIR)) {
		return -errno;
	}
	/* Perhaps a link (ELOOP, or ENOTDIR for a link to a folder opened
	 * O_DIRECTORY): follow it. */
	*lerr = errno;
	return 0;
}

/*
 * A name with more after it: 1 when it is a folder, now the current one;
 * 0 when it is a link (*c an O_PATH fd of it); else -errno.
 */
static int walk_into(struct walk *s, int top, const char *name, int *c)
{
	struct stat st;
	int err;

	*c = openat(top, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (*c < 0)
		return -errno;
	if (fstat(*c, &st) < 0) {
		err = -errno;
		close(*c);
		return err;
	}
	if (S_ISDIR(st.st_mode)) {
		if (s->n == PM_WALK_DEPTH) {
			close(*c);
			return -ENAMETOOLONG;
		}
		s->stack[s->n++] = *c;
		return 1;
	}
	if (!S_ISLNK(st.st_mode)) {
		close(*c);
		return -ENOTDIR;
	}
	return 0;
}

/*
 * A symlink, by its text: never let the kernel follow one.  c is its
 * O_PATH fd, or -1 to read it by name in top (lerr: the errno of the
 * open, for a name that is not a link after all).  The path to walk
 * becomes the link's text then what was left after its name.
 */
static int walk_link(struct walk *s, int c, int top, const char *name,
		     int lerr)
{
	char link[PM_PATH_MAX], rest[2 * PM_PATH_MAX];
	ssize_t l = c >= 0 ? readlinkat(c, "", link, sizeof(link)) :
			     readlinkat(top, name, link, sizeof(link));
	int err;

	if (c >= 0)
		close(c);
	if (l < 0)
		return c < 0 && errno == EINVAL ? -lerr : -errno;
	if ((size_t)l >= sizeof(link))
		return -ENAMETOOLONG;
	link[l] = '\0';
	if (++s->links > PM_WALK_LINKS)
		return -ELOOP;
	if (link[0] == '/') {
		if (s->m == PM_WALK_BENEATH)
			return -EXDEV;
		while (s->n > 1)
			close(s->stack[--s->n]);
		if (s->m == PM_WALK_HOST) {
			c = walk_start_root();
			if (c < 0)
				return -errno;
			close(s->stack[0]);
			s->stack[0] = c;
		}
	}
	snprintf(rest, sizeof(rest), "%s", s->p);
	err = splice_link(s->buf, sizeof(s->buf), rest, link);
	s->p = s->buf;
	return err;
}

/* The path ends on a folder ("", ".", "a/", ".."): open it. */
static int walk_dir(struct walk *s, int top, int *fd)
{
	int err = walk_check(s->w, top);

	if (err)
		return err;
	*fd = openat(top, ".", (s->flags & ~O_CREAT) | O_CLOEXEC);
	return *fd < 0 ? -errno : 0;
}

/* Walk the path name by name: 0 with *fd open, or -errno. */
static int walk_run(struct walk *s, int *fd)
{
	for (;;) {
		int top = s->stack[s->n - 1], c = -1, lerr = 0, r;
		bool last = false;
		char *name = walk_name(s, &last);

		if (!name)
			return walk_dir(s, top, fd);
		if (!strcmp(name, "."))
			continue;
		if (!strcmp(name, "..")) {
			r = walk_up(s, top);
			if (r)
				return r;
			continue;
		}
		r = walk_check(s->w, top);
		if (r)
			return r;
		r = last ? walk_last(s, top, name, fd, &lerr) :
			   walk_into(s, top, name, &c);
		if (r < 0)
			return r;
		if (r > 0 && last)
			return 0;
		if (r > 0)
			continue;
		r = walk_link(s, c, top, name, lerr);
		if (r)
			return r;
	}
}

int pm_walk_open(int dirfd, const char *path, int flags, mode_t mode,
		 struct pm_walk *w)
{
	struct walk one, *s = &one;
	int fd = -1, err;

	s->m = w ? w->mode : PM_WALK_IN_ROOT;
	s->w = w;
	s->flags = flags;
	s->mode = mode;
	s->nofollow = flags & O_NOFOLLOW;
	s->links = 0;
	s->n = 0;
	if (w)
		w->parent = -1;
	if (strlen(path) >= sizeof(s->buf))
		return -ENAMETOOLONG;
	snprintf(s->buf, sizeof(s->buf), "%s", path);
	s->p = s->buf;
	if (*s->p == '/' && s->m == PM_WALK_BENEATH)
		return -EXDEV;
	s->stack[0] = s->m == PM_WALK_HOST && *s->p == '/' ?
			      walk_start_root() :
			      walk_start(dirfd);
	if (s->stack[0] < 0)
		return -errno;
	s->n = 1;
	err = walk_run(s, &fd);
	if (!err && w && w->want_parent) {
		w->parent = fcntl(s->stack[s->n - 1], F_DUPFD_CLOEXEC, 0);
		if (w->parent < 0)
			err = -errno;
	}
	while (s->n > 0)
		close(s->stack[--s->n]);
	if (err) {
		if (fd >= 0)
			close(fd);
		return err;
	}
	return fd;
}

/* The call openat2 is, without a libc wrapper before glibc 2.39. */
static long sys_openat2(int dirfd, const char *path, int flags, mode_t mode,
			uint64_t resolve)
{
	struct open_how how;

	memset(&how, 0, sizeof(how));
	how.flags = (uint64_t)flags;
	how.mode = flags & O_CREAT ? mode : 0;
	how.resolve = resolve;
	return syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
}

/*
 * Is openat2 with these resolve flags there at all?  Asked only when a
 * real open failed with an answer that may mean "no such call" (ENOSYS),
 * "no such flag" (EINVAL: a kernel between 5.6 and a flag we use) or a
 * sandbox that refuses the call itself (EPERM from a seccomp filter):
 * the same call on the root folder tells those apart from the file's own
 * refusal, which is the answer.
 */
static bool openat2_missing(struct pm_ctx *ctx)
{
	long fd = sys_openat2(ctx->rootfd, ".", O_PATH | O_CLOEXEC,
			      0, RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS);

	if (fd >= 0) {
		close((int)fd);
		return false;
	}
	return errno == ENOSYS || errno == EINVAL || errno == EPERM ||
	       errno == E2BIG;
}

/*
 * Below a --sysroot, a path (and every symlink in it, absolute ones and
 * ".." included) resolves inside the root, and a path relative to a
 * folder stays beneath that folder: a tree with a link to /sys must not
 * reach the real machine.  openat2 does it in the kernel (Linux 5.6+);
 * where the call is missing (older kernels, valgrind, sandboxes that
 * filter it) pm_walk_open does the same in user space, one component at
 * a time.  An error of the file itself (EPERM of an immutable file,
 * EACCES, ENOENT) is the answer: it never sends the open elsewhere.
 */
static int open_confined(struct pm_ctx *ctx, int dirfd, const char *path,
			 int flags, mode_t mode)
{
	struct pm_walk w = { .mode = dirfd == ctx->rootfd ? PM_WALK_IN_ROOT :
							    PM_WALK_BENEATH };
	int fd;

	if (ctx->real_root)
		return openat(dirfd, path, flags, mode);
	if (!ctx->no_openat2) {
		/* A rename anywhere on the machine while the kernel walks a
		 * ".." makes it give up with EAGAIN (it cannot prove the walk
		 * stayed inside): try again, and after a few such the user
		 * space walk, which no rename elsewhere disturbs. */
		int tries = 0;

		do
			fd = (int)sys_openat2(dirfd, path, flags, mode,
					      RESOLVE_NO_MAGICLINKS |
						      (w.mode == PM_WALK_IN_ROOT ?
							       RESOLVE_IN_ROOT :
							       RESOLVE_BENEATH));
		while (fd < 0 && errno == EAGAIN && ++tries < 4);
		if (fd < 0 && errno == EAGAIN)
			goto walk;
		if (fd >= 0 || (errno != ENOSYS && errno != EINVAL &&
				errno != EPERM && errno != E2BIG))
			return fd;
		int e = errno;

		if (!openat2_missing(ctx)) {
			errno = e;
			return -1;
		}
		ctx->no_openat2 = true;
	}
walk:
	fd = pm_walk_open(dirfd, path, flags, mode, &w);
	if (fd < 0) {
		errno = -fd;
		return -1;
	}
	return fd;
}

const char *pm_odd_kind(mode_t m)
{
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return NULL;
}

static void odd_file(struct pm_ctx *ctx, int dirfd, const char *path,
		     const char *kind)
{
	char dir[PM_PATH_MAX] = "", shown[2 * PM_PATH_MAX];

	if (!ctx->on_odd)
		return;
	if (dirfd != ctx->rootfd && pm_fd_path(ctx, dirfd, dir,
					       sizeof(dir)) < 0)
		dir[0] = '\0';
	snprintf(shown, sizeof(shown), "%s/%s",
		 strcmp(dir, "/") ? dir : "", path);
	ctx->on_odd(ctx->on_odd_arg, shown, kind);
}

void pm_odd_file(struct pm_ctx *ctx, const char *path, const char *kind)
{
	if (ctx->on_odd)
		ctx->on_odd(ctx->on_odd_arg, path, kind);
}

int pm_openat_any(struct pm_ctx *ctx, int dirfd, const char *path, int flags)
{
	int fd;

	/* Absolute paths are always below the root, never the host's. */
	if (path[0] == '/')
		dirfd = ctx->rootfd;
	do
		fd = open_confined(ctx, dirfd, rel(path), flags | O_CLOEXEC, 0);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
}

/*
 * A file to read or write must be what the kernel makes: a regular file
 * (every sysfs, procfs and debugfs attribute is one, as is a fixture's
 * plain file).  Opened without blocking, a FIFO cannot stop the open,
 * and every read is bounded; a socket is ENXIO at the open (named here).
 * What was opened is checked with fstat where a read shows something
 * odd (pm_attr_pread_ctx, pm_file_read): not on every open, which would
 * cost a syscall per attribute of every report.
 */
int pm_openat(struct pm_ctx *ctx, int dirfd, const char *path, int flags)
{
	const char *kind;
	struct stat st;
	int fd;

	if (flags & (O_PATH | O_DIRECTORY))
		return pm_openat_any(ctx, dirfd, path, flags);
	if (path[0] == '/')
		dirfd = ctx->rootfd;
	fd = pm_openat_any(ctx, dirfd, path, flags | O_NONBLOCK | O_NOCTTY);
	if (fd == -ENXIO) {
		/* A socket, or a FIFO opened to write with no reader. */
		int p = pm_openat_any(ctx, dirfd, path, O_PATH);

		if (p >= 0 && fstat(p, &st) == 0 &&
		    (kind = pm_odd_kind(st.st_mode)))
			odd_file(ctx, dirfd, rel(path), kind);
		if (p >= 0)
			close(p);
	}
	return fd;
}

int pm_fd_check(struct pm_ctx *ctx, int fd)
{
	char path[PM_PATH_MAX];
	const char *kind;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))
		return 0; /* a folder's read is EISDIR, as it was */
	kind = pm_odd_kind(st.st_mode);
	if (pm_fd_path(ctx, fd, path, sizeof(path)) < 0)
		snprintf(path, sizeof(path), "(fd %d)", fd);
	pm_odd_file(ctx, path, kind ? kind : "not a regular file");
	return -ENXIO;
}

ssize_t pm_attr_pread_ctx(struct pm_ctx *ctx, int fd, char *buf, size_t size)
{
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	do
		n = pread(fd, buf, size - 1, 0);
	while (n < 0 && errno == EINTR);
	/*
	 * What only a file that is not the kernel's attribute gives: an
	 * error (ESPIPE of a FIFO, EAGAIN of a device without data), nothing
	 * (/dev/null), a full buffer or NUL bytes (/dev/zero, a disk).
	 */
	if ((n < 0 && errno != EISDIR) || n == 0 ||
	    (size_t)n == size - 1 || memchr(buf, '\0', (size_t)(n > 0 ? n : 0))) {
		int e = n < 0 ? errno : 0, r = pm_fd_check(ctx, fd);

		if (r < 0) {
			buf[0] = '\0';
			return r;
		}
		errno = e;
	}
	if (n < 0) {
		buf[0] = '\0';
		return -errno;
	}
	return (ssize_t)pm_strip(buf, (size_t)n);
}

int pm_open_dev(struct pm_ctx *ctx, const char *path, int flags)
{
	struct stat st;
	const char *kind;
	int fd = pm_openat_any(ctx, ctx->rootfd, path,
			       flags | O_NOCTTY | O_NONBLOCK);

	if (fd < 0)
		return fd;
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	/* A plain file stands for the device in a fixture tree. */
	if (S_ISCHR(st.st_mode) || S_ISREG(st.st_mode))
		return fd;
	close(fd);
	kind = pm_odd_kind(st.st_mode);
	odd_file(ctx, ctx->rootfd, rel(path),
		 kind ? kind : "not a character device");
	return -ENXIO;
}

static ssize_t fd_link(int fd, char *buf, size_t size)
{
	char proc[64];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, buf, size - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return n;
}

int pm_fd_path(struct pm_ctx *ctx, int fd, char *buf, size_t size)
{
	char root[PM_PATH_MAX] = "", full[PM_PATH_MAX];
	ssize_t rl = 0, fl;

	fl = fd_link(fd, full, sizeof(full));
	if (fl < 0)
		return (int)fl;
	if (!ctx->real_root) {
		rl = fd_link(ctx->rootfd, root, sizeof(root));
		if (rl < 0)
			return (int)rl;
		if (rl == 1)
			rl = 0;	/* the root is "/" */
	}
	if (strncmp(full, root, (size_t)rl) ||
	    (full[rl] != '/' && full[rl] != '\0'))
		return -EXDEV;
	if ((size_t)(fl - rl) >= size)
		return -ENAMETOOLONG;
	snprintf(buf, size, "%s", full[rl] ? full + rl : "/");
	return 0;
}

/*
 * A transaction writes and reads back files that share a grandparent
 * (cpufreq/policyN/scaling_governor, cpuN/cpuidle/stateK/disable): the
 * folder is opened once, confined like any path from the root, and the
 * last two components are opened beneath it.  A symlink that leaves the
 * folder (EXDEV) is resolved again from the root.
 */
static int open_near(struct pm_ctx *ctx, const char *path, int flags)
{
	const char *p = rel(path), *last = strrchr(p, '/'), *cut = NULL;
	size_t len;
	int fd;

	if (last)
		for (const char *q = last - 1; q > p; q--)
			if (*q == '/') {
				cut = q;
				break;
			}
	len = cut ? (size_t)(cut - p) : 0;
	if (!cut || len >= sizeof(ctx->neardir))
		return pm_openat(ctx, ctx->rootfd, p, flags);
	if (ctx->nearfd < 0 || strncmp(ctx->neardir, p, len) ||
	    ctx->neardir[len]) {
		char dir[PM_PATH_MAX];

		memcpy(dir, p, len);
		dir[len] = '\0';
		fd = pm_openat(ctx, ctx->rootfd, dir, O_PATH | O_DIRECTORY);
		if (fd < 0)
			return pm_openat(ctx, ctx->rootfd, p, flags);
		if (ctx->nearfd >= 0)
			close(ctx->nearfd);
		ctx->nearfd = fd;
		memcpy(ctx->neardir, dir, len + 1);
	}
	fd = pm_openat(ctx, ctx->nearfd, cut + 1, flags);
	if (fd == -EXDEV)
		fd = pm_openat(ctx, ctx->rootfd, p, flags);
	return fd;
}

int pm_open_create(struct pm_ctx *ctx, const char *path, int flags,
		   mode_t mode)
{
	int fd, r;

	/* A log, a lock or a state file: a FIFO there must not block. */
	do
		fd = open_confined(ctx, ctx->rootfd, rel(path),
				   flags | O_CREAT | O_CLOEXEC | O_NONBLOCK |
					   O_NOCTTY,
				   mode);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return -errno;
	r = pm_fd_check(ctx, fd);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int pm_open_dir(struct pm_ctx *ctx, const char *path)
{
	return pm_open(ctx, path, O_RDONLY | O_DIRECTORY);
}

bool pm_exists(struct pm_ctx *ctx, const char *path)
{
	int fd = pm_open(ctx, path, O_PATH);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

bool pm_writable(struct pm_ctx *ctx, const char *path)
{
	char proc[64];
	bool w;
	int fd = pm_openat_any(ctx, ctx->rootfd, path, O_PATH);

	if (fd < 0)
		return true; /* the write itself will say why */
	/* The file the confined open found, not the path again. */
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	w = faccessat(AT_FDCWD, proc, W_OK, AT_EACCESS) == 0 ||
	    errno != EACCES;
	close(fd);
	return w;
}

bool pm_existsat(int dirfd, const char *name)
{
	return faccessat(dirfd, name, F_OK, 0) == 0;
}

size_t pm_strip(char *s, size_t len)
{
	while (len > 0 && (s[len - 1] == '\n' || s[len - 1] == ' ' ||
			   s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	s[len] = '\0';
	return len;
}

ssize_t pm_attr_pread(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (size == 0)
		return -EINVAL;
	do
		n = pread(fd, buf, size - 1, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		buf[0] = '\0';
		return -errno;
	}
	return (ssize_t)pm_strip(buf, (size_t)n);
}

static int open_near(struct pm_ctx *ctx, const char *path, int flags);

/* dirfd -1: name is a system path opened near the last write. */
static ssize_t read_one(struct pm_ctx *ctx, int dirfd, const char *name,
			const char *shown, char *buf, size_t size)
{
	int fd = dirfd < 0 ? open_near(ctx, name, O_RDONLY)
			   : pm_openat(ctx, dirfd, name, O_RDONLY);
	ssize_t n;

	if (size)
		buf[0] = '\0';
	if (fd < 0)
		return pm_err_set(ctx, "open", shown, NULL, -fd,
				  fd == -EACCES ? "readable by root only" :
						  NULL);
	n = pm_attr_pread_ctx(ctx, fd, buf, size);
	if (ctx->batching)
		pm_fdbatch_add(&ctx->fdb, fd);
	else
		close(fd);
	if (n < 0)
		return pm_err_set(ctx, "read", shown, NULL, (int)-n, NULL);
	return n;
}

bool pm_batch_begin(struct pm_ctx *ctx)
{
	bool was = ctx->batching;

	ctx->batching = true;
	return was;
}

void pm_batch_end(struct pm_ctx *ctx, bool was)
{
	ctx->batching = was;
	if (!was)
		pm_fdbatch_flush(&ctx->fdb);
}

void pm_fdbatch_init(struct pm_fdbatch *b)
{
	b->n = 0;
}

void pm_fdbatch_add(struct pm_fdbatch *b, int fd)
{
	for (int i = 0; i < b->n; i++) {
		if (fd == b->last[i] + 1) {
			b->last[i] = fd;
			return;
		}
	}
	if (b->n == PM_FDBATCH_RUNS)
		pm_fdbatch_flush(b);
	b->first[b->n] = b->last[b->n] = fd;
	b->n++;
}

void pm_fdbatch_flush(struct pm_fdbatch *b)
{
	/* Each run holds only fds this batch opened, one after the other. */
	for (int i = 0; i < b->n; i++)
		if (close_range((unsigned)b->first[i], (unsigned)b->last[i],
				0) < 0)
			for (int fd = b->first[i]; fd <= b->last[i]; fd++)
				close(fd);
	b->n = 0;
}

ssize_t pm_attr_read(struct pm_ctx *ctx, const char *path, char *buf,
		     size_t size)
{
	return read_one(ctx, ctx->rootfd, path, path, buf, size);
}

ssize_t pm_attr_read_near(struct pm_ctx *ctx, const char *path, char *buf,
			  size_t size)
{
	return read_one(ctx, -1, path, path, buf, size);
}

ssize_t pm_attr_readat(struct pm_ctx *ctx, int dirfd, const char *name,
		       char *buf, size_t size)
{
	return read_one(ctx, dirfd, name, name, buf, size);
}

/* Format a path into path[PM_PATH_MAX]: 0, or -ENAMETOOLONG recorded. */
static int vpath(struct pm_ctx *ctx, char *path, const char *fmt, va_list ap)
{
	int n = vsnprintf(path, PM_PATH_MAX, fmt, ap);

	if (n < 0 || n >= PM_PATH_MAX)
		return pm_err_set(ctx, "open", path, NULL, ENAMETOOLONG, NULL);
	return 0;
}

ssize_t pm_attr_readf(struct pm_ctx *ctx, char *buf, size_t size,
		      const char *fmt, ...)
{
	char path[PM_PATH_MAX];
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vpath(ctx, path, fmt, ap);
	va_end(ap);
	if (r < 0) {
		if (size)
			buf[0] = '\0';
		return r;
	}
	return pm_attr_read(ctx, path, buf, size);
}

ssize_t pm_attr_readatf(struct pm_ctx *ctx, int dirfd, char *buf,
			size_t size, const char *fmt, ...)
{
	char name[PM_PATH_MAX];
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vpath(ctx, name, fmt, ap);
	va_end(ap);
	if (r < 0) {
		if (size)
			buf[0] = '\0';
		return r;
	}
	return pm_attr_readat(ctx, dirfd, name, buf, size);
}

int pm_attr_readf_u64(struct pm_ctx *ctx, uint64_t *v, const char *fmt, ...)
{
	char path[PM_PATH_MAX];
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vpath(ctx, path, fmt, ap);
	va_end(ap);
	if (r < 0)
		return r;
	return pm_attr_read_u64(ctx, path, v);
}

static int typed(struct pm_ctx *ctx, const char *name, ssize_t n)
{
	if (n < 0)
		return (int)n;
	if (n == 0)
		return pm_err_set(ctx, "read", name, "", ENODATA,
				  "the file is empty");
	return 0;
}

int pm_attr_read_u64(struct pm_ctx *ctx, const char *path, uint64_t *v)
{
	char buf[64];
	ssize_t n = pm_attr_read(ctx, path, buf, sizeof(buf));
	int r = typed(ctx, path, n);

	if (r < 0)
		return r;
	r = pm_parse_u64(buf, v);
	if (r < 0)
		return pm_err_set(ctx, "parse", path, buf, -r,
				  "not a number");
	return 0;
}

int pm_attr_readat_u64(struct pm_ctx *ctx, int dirfd, const char *name,
		       uint64_t *v)
{
	char buf[64];
	ssize_t n = pm_attr_readat(ctx, dirfd, name, buf, sizeof(buf));
	int r = typed(ctx, name, n);

	if (r < 0)
		return r;
	r = pm_parse_u64(buf, v);
	if (r < 0)
		return pm_err_set(ctx, "parse", name, buf, -r,
				  "not a number");
	return 0;
}

int pm_attr_readat_s64(struct pm_ctx *ctx, int dirfd, const char *name,
		       int64_t *v)
{
	char buf[64];
	ssize_t n = pm_attr_readat(ctx, dirfd, name, buf, sizeof(buf));
	int r = typed(ctx, name, n);

	if (r < 0)
		return r;
	r = pm_parse_s64(buf, v);
	if (r < 0)
		return pm_err_set(ctx, "parse", name, buf, -r,
				  "not a number");
	return 0;
}

uint64_t pm_attr_getat_u64(struct pm_ctx *ctx, int dirfd, const char *name)
{
	uint64_t v;

	return pm_attr_readat_u64(ctx, dirfd, name, &v) < 0 ? PM_UNKNOWN : v;
}

ssize_t pm_fd_read_all(int fd, char **buf, size_t *cap)
{
	size_t len = 0;

	for (;;) {
		ssize_t n;

		if (*cap - len < 2) {
			size_t ncap = *cap ? *cap * 2 : PM_FILE_CHUNK;
			char *nb;

			/* Bounded: a file that never ends is not a table. */
			if (len > PM_FILE_MAX)
				return -EFBIG;
			if (ncap > (size_t)PM_FILE_MAX + 2)
				ncap = (size_t)PM_FILE_MAX + 2;
			nb = realloc(*buf, ncap);
			if (!nb)
				return -ENOMEM;
			*buf = nb;
			*cap = ncap;
		}
		n = read(fd, *buf + len, *cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	(*buf)[len] = '\0';
	return (ssize_t)len;
}

ssize_t pm_file_read(struct pm_ctx *ctx, const char *path, char **buf)
{
	size_t cap = 0;
	ssize_t n;
	int fd = pm_open(ctx, path, O_RDONLY);

	*buf = NULL;
	if (fd < 0)
		return pm_err_set(ctx, "open", path, NULL, -fd, NULL);
	/* Read until EOF: a device would never end, a FIFO never start. */
	n = pm_fd_check(ctx, fd);
	if (n < 0) {
		close(fd);
		return pm_err_set(ctx, "read", path, NULL, (int)-n, NULL);
	}
	n = pm_fd_read_all(fd, buf, &cap);
	close(fd);
	if (n == -EFBIG)
		pm_odd_file(ctx, path, PM_FILE_MAX_TEXT);
	if (n < 0) {
		free(*buf);
		*buf = NULL;
		return pm_err_set(ctx, "read", path, NULL, (int)-n, NULL);
	}
	return n;
}

int pm_write_allowed(struct pm_ctx *ctx, const char *path)
{
	if (ctx->guard && ctx->real_root && !ctx->dry_run)
		return pm_err_set(ctx, "write", path, NULL, EPERM,
				  "PM_TEST_GUARD is set and the system root "
				  "is the real /: use --sysroot");
	return 0;
}

int pm_write_begin(struct pm_ctx *ctx, const char *shown, const char *value)
{
	int r = pm_write_allowed(ctx, shown);

	if (r < 0)
		return r;
	if (ctx->on_write)
		ctx->on_write(ctx->on_write_arg, shown, value);
	return !ctx->dry_run;
}

/*
 * A write, and with back (a verified write) the read-back through the
 * same fd: one O_RDWR open, write, pread, close, where a write and a
 * separate read-back cost six calls.  pread at offset 0 makes sysfs show
 * the attribute afresh (seq_file restarts at 0), and on a plain file it
 * reads what was just written.  A file that cannot be opened to read
 * and write (EACCES: sysfs refuses a read open of a store-only
 * attribute) is opened to write only and read back by its own open.
 */
static int write_one(struct pm_ctx *ctx, int dirfd, const char *name,
		     const char *shown, const char *value, char *back,
		     size_t bsize)
{
	char line[PM_ATTR_MAX];
	size_t len = strlen(value);
	bool reread = false;
	ssize_t n;
	int fd, r, acc = back ? O_RDWR : O_WRONLY;

	if (back && bsize)
		back[0] = '\0';
	r = pm_write_begin(ctx, shown, value);
	if (r <= 0)
		return r;
	fd = dirfd < 0 ? open_near(ctx, name, acc | O_TRUNC)
		       : pm_openat(ctx, dirfd, name, acc | O_TRUNC);
	if (fd == -EACCES && back) {
		reread = true;
		fd = dirfd < 0 ? open_near(ctx, name, O_WRONLY | O_TRUNC)
			       : pm_openat(ctx, dirfd, name,
					   O_WRONLY | O_TRUNC);
	}
	if (fd < 0)
		return pm_err_set(ctx, "write", shown, value, -fd, NULL);
	/* With the newline echo(1) adds: every store takes it, and a
	 * plain-file fixture then reads as it was generated. */
	if (len + 1 >= sizeof(line)) {
		close(fd);
		return pm_err_set(ctx, "write", shown, value, EINVAL,
				  "value too long");
	}
	/* A line, not a string: write() sends it by its length.
	 * NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
	memcpy(line, value, len);
	line[len++] = '\n';
	do
		n = write(fd, line, len);
	while (n < 0 && errno == EINTR);
	r = n < 0 ? errno : 0;
	if (!r && (size_t)n == len && back && !reread &&
	    pm_attr_pread_ctx(ctx, fd, back, bsize) < 0)
		back[0] = '\0';
	if (close(fd) < 0 && !r && errno != EINTR)
		r = errno;
	if (r)
		return pm_err_set(ctx, "write", shown, value, r, NULL);
	if ((size_t)n != len)
		return pm_err_set(ctx, "write", shown, value, EIO,
				  "short write: %zd of %zu bytes", n, len);
	if (reread && read_one(ctx, dirfd, name, shown, back, bsize) < 0)
		back[0] = '\0';
	return 0;
}

int pm_attr_write(struct pm_ctx *ctx, const char *path, const char *value)
{
	char shown[PM_PATH_MAX];

	snprintf(shown, sizeof(shown), "/%s", rel(path));
	return write_one(ctx, -1, path, shown, value, NULL, 0);
}

int pm_attr_write_back(struct pm_ctx *ctx, const char *path,
		       const char *value, char *back, size_t size)
{
	char shown[PM_PATH_MAX];

	if (!size)
		return pm_err_set(ctx, "write", path, value, EINVAL, NULL);
	snprintf(shown, sizeof(shown), "/%s", rel(path));
	return write_one(ctx, -1, path, shown, value, back, size);
}

int pm_attr_writeat(struct pm_ctx *ctx, int dirfd, const char *dirpath,
		    const char *name, const char *value)
{
	char shown[PM_PATH_MAX];

	/* Through the folder fd (confined below it, like every open of
	 * pm_openat); dirpath only names the file in the error record.
	 * Without a folder fd, by the full path from the root. */
	snprintf(shown, sizeof(shown), "/%s/%s", rel(dirpath), name);
	if (dirfd < 0)
		return write_one(ctx, -1, shown, shown, value, NULL, 0);
	return write_one(ctx, dirfd, name, shown, value, NULL, 0);
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int pm_list_numbered(struct pm_ctx *ctx, const char *dir, const char *prefix,
		     unsigned *nums, unsigned max)
{
	size_t plen = strlen(prefix);
	unsigned n = 0;
	struct dirent *de;
	DIR *d;
	int fd = pm_open_dir(ctx, dir);

	if (fd < 0)
		return pm_err_set(ctx, "open", dir, NULL, -fd, NULL);
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return pm_err_set(ctx, "open", dir, NULL, e, NULL);
	}
	while ((de = readdir(d)) != NULL) {
		uint32_t v;

		if (strncmp(de->d_name, prefix, plen) != 0)
			continue;
		if (pm_parse_u32(de->d_name + plen, &v) < 0)
			continue;
		if (n < max)
			nums[n++] = v;
	}
	closedir(d);
	qsort(nums, n, sizeof(*nums), cmp_unsigned);
	return (int)n;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pm_list_dir(struct pm_ctx *ctx, const char *dir, char ***names)
{
	struct dirent *de;
	char **v = NULL;
	int n = 0, cap = 0;
	DIR *d;
	int fd = pm_open_dir(ctx, dir);

	*names = NULL;
	if (fd < 0)
		return pm_err_set(ctx, "open", dir, NULL, -fd, NULL);
	d = fdopendir(fd);
	if (!d) {
		int e = errno;

		close(fd);
		return pm_err_set(ctx, "open", dir, NULL, e, NULL);
	}
	while ((de = readdir(d)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			int ncap = cap ? cap * 2 : 16;
			char **nv = realloc(v, (size_t)ncap * sizeof(*v));

			if (!nv)
				goto oom;
			v = nv;
			cap = ncap;
		}
		v[n] = strdup(de->d_name);
		if (!v[n])
			goto oom;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_str);
	*names = v;
	return n;
oom:
	closedir(d);
	pm_list_free(v, n);
	return pm_err_set(ctx, "read", dir, NULL, ENOMEM, NULL);
}

void pm_list_free(char **names, int n)
{
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ---------------------------------------------------------------- glob */

bool pm_glob_magic(const char *pattern)
{
	return strpbrk(pattern, "*?[") != NULL;
}

struct globv {
	char **v;
	int n, cap;
};

static int glob_add(struct globv *g, const char *path)
{
	if (g->n == g->cap) {
		int cap = g->cap ? g->cap * 2 : 16;
		char **nv = realloc(g->v, (size_t)cap * sizeof(*nv));

		if (!nv)
			return -ENOMEM;
		g->v = nv;
		g->cap = cap;
	}
	g->v[g->n] = strdup(path);
	if (!g->v[g->n])
		return -ENOMEM;
	g->n++;
	return 0;
}

static int glob_at(struct pm_ctx *ctx, const char *done, const char *rest,
		   struct globv *g);

/* done/name, then the rest of the pattern (NULL: name is the last). */
static int glob_next(struct pm_ctx *ctx, const char *done, const char *name,
		     const char *next, struct globv *g)
{
	char path[PM_PATH_MAX];

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", done, name) >=
	    sizeof(path))
		return 0;
	if (next)
		return glob_at(ctx, path, next, g);
	return pm_exists(ctx, path) ? glob_add(g, path) : 0;
}

/* The matches of rest (a pattern's components, no leading '/') below
 * the folder done, in name order. */
static int glob_at(struct pm_ctx *ctx, const char *done, const char *rest,
		   struct globv *g)
{
	size_t n = strcspn(rest, "/");
	const char *next = rest[n] ? rest + n + 1 : NULL;
	char comp[256], **names;
	int k, rc = 0;

	if (!n)
		return next ? glob_at(ctx, done, next, g) :
			      (*done && pm_exists(ctx, done) ?
				       glob_add(g, done) : 0);
	if (n >= sizeof(comp))
		return 0;
	memcpy(comp, rest, n);
	comp[n] = '\0';
	if (next && !*next)
		next = NULL;
	if (!pm_glob_magic(comp))
		return glob_next(ctx, done, comp, next, g);
	k = pm_list_dir(ctx, *done ? done : "/", &names);
	if (k == -ENOMEM)
		return k;
	/* A leading '.' is matched only by a '.' (FNM_PERIOD). */
	for (int i = 0; i < k && !rc; i++)
		if (!fnmatch(comp, names[i], FNM_PERIOD))
			rc = glob_next(ctx, done, names[i], next, g);
	if (k > 0)
		pm_list_free(names, k);
	return rc;
}

int pm_glob(struct pm_ctx *ctx, const char *pattern, char ***paths)
{
	struct globv g = { NULL, 0, 0 };
	int rc;

	*paths = NULL;
	if (pattern[0] != '/')
		return -EINVAL;
	rc = glob_at(ctx, "", pattern + 1, &g);
	pm_err_clear(ctx);
	if (rc < 0) {
		pm_list_free(g.v, g.n);
		return rc;
	}
	*paths = g.v;
	return g.n;
}

/* Entries prefix+number by number; arg: the prefix's length. */
static int cmp_numbered(const void *a, const void *b, void *arg)
{
	size_t plen = *(const size_t *)arg;
	uint32_t x = 0, y = 0;

	pm_parse_u32(*(char *const *)a + plen, &x);
	pm_parse_u32(*(char *const *)b + plen, &y);
	return x < y ? -1 : x > y;
}

int pm_class_open(struct pm_ctx *ctx, struct pm_class *c, const char *name,
		  const char *prefix)
{
	int n, k = 0;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	snprintf(c->dir, sizeof(c->dir), "/sys/class/%s", name);
	n = pm_list_dir(ctx, c->dir, &c->names);
	if (n < 0)
		return n;
	if (prefix && n) {
		size_t plen = strlen(prefix);

		for (int i = 0; i < n; i++) {
			uint32_t v;

			if (!strncmp(c->names[i], prefix, plen) &&
			    pm_parse_u32(c->names[i] + plen, &v) == 0)
				c->names[k++] = c->names[i];
			else
				free(c->names[i]);
		}
		n = k;
		c->plen = plen;
		qsort_r(c->names, (size_t)n, sizeof(*c->names), cmp_numbered,
			&plen);
	}
	c->n = n;
	return n;
}

bool pm_class_next(struct pm_ctx *ctx, struct pm_class *c)
{
	int l;

	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	if (c->i >= c->n) {
		c->name = NULL;
		return false;
	}
	c->name = c->names[c->i++];
	c->id = 0;
	if (c->plen)
		pm_parse_u32(c->name + c->plen, &c->id);
	l = snprintf(c->path, sizeof(c->path), "%s/%s", c->dir, c->name);
	/* A name too long for a path does not open. */
	if (l > 0 && (size_t)l < sizeof(c->path))
		c->fd = pm_open_dir(ctx, c->path);
	return true;
}

void pm_class_close(struct pm_class *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	pm_list_free(c->names, c->n);
	c->names = NULL;
	c->n = c->i = 0;
}

int pm_link_resolve(const char *dir, const char *target, char *out,
		    size_t size)
{
	size_t len = strlen(dir);
	const char *p = target;

	if (!*target || *target == '/')
		return -EXDEV;
	if (len >= size)
		return -ENAMETOOLONG;
	memcpy(out, dir, len + 1);
	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);

		if (n == 2 && p[0] == '.' && p[1] == '.') {
			char *slash;

			if (!len)
				return -EXDEV;
			out[len] = '\0';
			slash = strrchr(out, '/');
			len = slash ? (size_t)(slash - out) : 0;
		} else if (n && !(n == 1 && p[0] == '.')) {
			if (len + 1 + n >= size)
				return -ENAMETOOLONG;
			if (len)
				out[len++] = '/';
			memcpy(out + len, p, n);
			len += n;
		}
		p += n;
		if (*p == '/')
			p++;
	}
	out[len] = '\0';
	return 0;
}
