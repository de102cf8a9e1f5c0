// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The system root and every access below it: dirfd-relative opens,
 * whole-value attribute reads and single-write attribute writes.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pm.h"

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

/*
 * Below a --sysroot, a path (and every symlink in it, absolute ones and
 * ".." included) resolves inside the root, and a path relative to a
 * folder stays beneath that folder: a tree with a link to /sys must not
 * reach the real machine.  openat2 is Linux 5.6+; without it (or under a
 * seccomp filter that answers EPERM) plain openat is used.
 */
static int open_confined(struct pm_ctx *ctx, int dirfd, const char *path,
			 int flags, mode_t mode)
{
	struct open_how how;
	long fd;

	if (ctx->real_root)
		return openat(dirfd, path, flags, mode);
	memset(&how, 0, sizeof(how));
	how.flags = (uint64_t)flags;
	how.mode = flags & O_CREAT ? mode : 0;
	how.resolve = RESOLVE_NO_MAGICLINKS |
		      (dirfd == ctx->rootfd ? RESOLVE_IN_ROOT : RESOLVE_BENEATH);
	fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
	if (fd < 0 && (errno == ENOSYS || errno == EPERM))
		return openat(dirfd, path, flags, mode);
	return (int)fd;
}

int pm_openat(struct pm_ctx *ctx, int dirfd, const char *path, int flags)
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
	int fd;

	do
		fd = open_confined(ctx, ctx->rootfd, rel(path),
				   flags | O_CREAT | O_CLOEXEC, mode);
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : fd;
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
	const char *rel = path[0] == '/' ? path + 1 : path;

	return faccessat(ctx->rootfd, rel, W_OK, AT_EACCESS) == 0 ||
	       errno != EACCES;
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
	n = pm_attr_pread(fd, buf, size);
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
			char *nb = realloc(*buf, ncap);

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
	n = pm_fd_read_all(fd, buf, &cap);
	close(fd);
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

static int write_one(struct pm_ctx *ctx, int dirfd, const char *name,
		     const char *shown, const char *value)
{
	char line[PM_ATTR_MAX];
	size_t len = strlen(value);
	ssize_t n;
	int fd, r;

	r = pm_write_allowed(ctx, shown);
	if (r < 0)
		return r;
	if (ctx->on_write)
		ctx->on_write(ctx->on_write_arg, shown, value);
	if (ctx->dry_run)
		return 0;
	fd = dirfd < 0 ? open_near(ctx, name, O_WRONLY | O_TRUNC)
		       : pm_openat(ctx, dirfd, name, O_WRONLY | O_TRUNC);
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
	if (close(fd) < 0 && !r && errno != EINTR)
		r = errno;
	if (r)
		return pm_err_set(ctx, "write", shown, value, r, NULL);
	if ((size_t)n != len)
		return pm_err_set(ctx, "write", shown, value, EIO,
				  "short write: %zd of %zu bytes", n, len);
	return 0;
}

int pm_attr_write(struct pm_ctx *ctx, const char *path, const char *value)
{
	char shown[PM_PATH_MAX];

	snprintf(shown, sizeof(shown), "/%s", rel(path));
	return write_one(ctx, -1, path, shown, value);
}

int pm_attr_writeat(struct pm_ctx *ctx, int dirfd, const char *dirpath,
		    const char *name, const char *value)
{
	char shown[PM_PATH_MAX];

	/* By the full path from the root, so the write is confined to it. */
	(void)dirfd;
	snprintf(shown, sizeof(shown), "/%s/%s", rel(dirpath), name);
	return write_one(ctx, -1, shown, shown, value);
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
