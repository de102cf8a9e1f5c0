/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the system root context, confined paths, attribute reads and
 * writes, and the error record (lib/path.c). *
 * libpm is the one place pmtools touches /sys, /proc and /dev.  Every
 * function returns 0 (or a count) on success and -errno on failure, and
 * fills ctx->err so the tool can say which file, which value and why.
 */
#ifndef PM_CORE_H
#define PM_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PM_VERSION "0.1.0"

/* Exit status shared by every tool (CLI.md). */
enum pm_exit {
	PM_EXIT_OK = 0,
	PM_EXIT_FAIL = 1,
	PM_EXIT_USAGE = 2,
	PM_EXIT_UNSUPPORTED = 3,
	PM_EXIT_BUSY = 4,
};

/*
 * A value the kernel did not give us (missing file, root-only file, empty
 * file).  Counters never reach it: 2^64 us is half a million years.
 */
#define PM_UNKNOWN UINT64_MAX
#define PM_UNKNOWN_S64 INT64_MIN

/*
 * The kernel's own "unknown" in a 32-bit attribute, (unsigned)-1:
 * CPUFREQ_ETERNAL as cpuinfo_transition_latency, a POLL state's power.
 * No real latency is 71 minutes, nor a power 4.3 MW.
 */
static inline uint64_t pm_u32_known(uint64_t v)
{
	return v == UINT32_MAX ? PM_UNKNOWN : v;
}

/* NR_CPUS is at most 8192 in every architecture's Kconfig. */
#define PM_MAX_CPUS 8192
/* sysfs text attributes are at most PAGE_SIZE; 64 KiB covers every arch. */
#define PM_ATTR_MAX 65536
/* cpuidle's CPUIDLE_STATE_MAX. */
#define PM_MAX_IDLE_STATES 10
#define PM_NAME_MAX 64
/* A config file may not exceed 1 MiB, nor a line 4 KiB. */
#define PM_CONF_MAX (1 << 20)
#define PM_CONF_LINE_MAX 4096
#define PM_PATH_MAX 4096
/*
 * A /proc table or debugfs summary read whole: /proc/interrupts of 8192
 * CPUs and a few hundred sources is about 30 MiB.  Past this a file is
 * not what it claims to be (-EFBIG).
 */
#define PM_FILE_MAX (64 << 20)
#define PM_FILE_MAX_TEXT "larger than 64 MiB"

struct pm_err {
	char op[64];		/* "read", "write", "open", "parse" */
	char file[PM_PATH_MAX]; /* path without the sysroot */
	char value[128];	/* the value written or read, if any */
	int err;		/* positive errno, 0 if none */
	char hint[512];		/* e.g. the available choices */
};

typedef void (*pm_write_hook)(void *arg, const char *path, const char *value);

/*
 * A run of consecutive fds to close with one close_range() instead of a
 * close() each: a one-shot report of thousands of attributes saves a
 * third of its syscalls.  pm_batch_begin/end make reads use the
 * context's batch.
 */
#define PM_FDBATCH_RUNS 8	/* inherited fds split runs: keep a few */

struct pm_fdbatch {
	int n;
	int first[PM_FDBATCH_RUNS], last[PM_FDBATCH_RUNS];
};

struct pm_ctx {
	int rootfd;		/* O_PATH|O_DIRECTORY fd of the system root */
	char root[PM_PATH_MAX]; /* as given, for messages and child envs */
	bool real_root;		/* the root is "/" */
	bool guard;		/* PM_TEST_GUARD=1: refuse writes to the real root */
	bool dry_run;		/* writes go to the hook, not the kernel */
	pm_write_hook on_write; /* called for every write (dry or not) */
	void *on_write_arg;
	int nearfd;		/* the folder of the last pm_attr_write, -1 */
	char neardir[PM_PATH_MAX];
	bool batching;		/* reads leave their fds in fdb to close */
	struct pm_fdbatch fdb;
	struct pm_err err;
	/* openat2 is not there: paths are confined by pm_walk_open. */
	bool no_openat2;
	/* A file opened to read or write that is a FIFO, a device or a
	 * socket, refused: path below the root, and what it is. */
	void (*on_odd)(void *arg, const char *path, const char *kind);
	void *on_odd_arg;
};

/* root == NULL: $PM_SYSROOT, else "/". */
int pm_ctx_open(struct pm_ctx *ctx, const char *root);
void pm_ctx_close(struct pm_ctx *ctx);
/* Drop the cached folder fd of the last write (its folder may be gone). */
void pm_ctx_forget_near(struct pm_ctx *ctx);
void pm_fdbatch_init(struct pm_fdbatch *b);
/* Keep fd for a later flush (flushes first if fd does not extend the run). */
void pm_fdbatch_add(struct pm_fdbatch *b, int fd);
void pm_fdbatch_flush(struct pm_fdbatch *b);
/* Reads until pm_batch_end leave their fds to one flush; they nest. */
bool pm_batch_begin(struct pm_ctx *ctx);
void pm_batch_end(struct pm_ctx *ctx, bool was);

/* Clear the error record. */
void pm_err_clear(struct pm_ctx *ctx);
/* Set the error record; returns -err for convenience. */
int pm_err_set(struct pm_ctx *ctx, const char *op, const char *file,
	       const char *value, int err, const char *hint_fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Paths are system paths ("/sys/devices/system/cpu/online" or without the
 * leading slash); they are opened relative to the root fd, O_CLOEXEC,
 * confined to it.  A file opened to read or write (not O_PATH or
 * O_DIRECTORY) is opened without blocking (a FIFO cannot stop the open);
 * a socket is -ENXIO, told to on_odd.  Reads check what was opened
 * (pm_fd_check) where the read looks odd.
 */
int pm_open(struct pm_ctx *ctx, const char *path, int flags);
int pm_openat(struct pm_ctx *ctx, int dirfd, const char *path, int flags);
/* Tell ctx->on_odd that path (below the root) is not what it claims. */
void pm_odd_file(struct pm_ctx *ctx, const char *path, const char *kind);
/* What a file that should be the kernel's is ("a FIFO", "a socket"...),
 * NULL for a regular file or a folder. */
const char *pm_odd_kind(mode_t m);
/* The confined open alone, whatever the file is. */
int pm_openat_any(struct pm_ctx *ctx, int dirfd, const char *path,
		  int flags);
/* A character device below the root (/dev/cpu_dma_latency; a plain
 * file in a fixture), or -ENXIO. */
int pm_open_dev(struct pm_ctx *ctx, const char *path, int flags);

/*
 * Path resolution in user space, one component at a time with
 * O_NOFOLLOW|O_PATH, each symlink followed by its text: what openat2's
 * RESOLVE_IN_ROOT or RESOLVE_BENEATH do where the call is missing, and
 * how configuration is opened when every folder on its way must be
 * checked.
 */
enum pm_walk_mode {
	PM_WALK_IN_ROOT,	/* links and ".." never leave dirfd */
	PM_WALK_BENEATH,	/* leaving dirfd is -EXDEV */
	PM_WALK_HOST,		/* as the kernel: absolute links from "/" */
};

struct pm_walk {
	enum pm_walk_mode mode;
	/* Called with each folder a name is looked up in; -errno stops. */
	int (*check_dir)(void *arg, int dirfd);
	void *arg;
	bool want_parent;	/* set parent to the final file's folder */
	int parent;		/* out: an O_PATH fd, or -1 */
};

/* Open path below dirfd (w may be NULL: PM_WALK_IN_ROOT); -errno. */
int pm_walk_open(int dirfd, const char *path, int flags, mode_t mode,
		 struct pm_walk *w);
/* The system path an open fd resolved to (links followed), as seen from
 * the root ("/sys/devices/..."); -errno, -EXDEV when it is not below the
 * root. */
int pm_fd_path(struct pm_ctx *ctx, int fd, char *buf, size_t size);
/* Open or create a file below the root (locks, state under /run, the
 * log): a regular file only, else -ENXIO told to on_odd. */
int pm_open_create(struct pm_ctx *ctx, const char *path, int flags,
		   mode_t mode);
/* An O_DIRECTORY fd for a folder, or -errno. */
int pm_open_dir(struct pm_ctx *ctx, const char *path);
bool pm_exists(struct pm_ctx *ctx, const char *path);
bool pm_existsat(int dirfd, const char *name);
/* False only when the file exists and we may not write it (EACCES). */
bool pm_writable(struct pm_ctx *ctx, const char *path);

/*
 * Read a sysfs attribute whole in one read(), strip the trailing newline
 * and spaces, NUL-terminate.  Returns the length (0 for an empty value) or
 * -errno.  The errno is kept in ctx->err (EACCES for a root-only file).
 */
ssize_t pm_attr_read(struct pm_ctx *ctx, const char *path, char *buf,
		     size_t size);
/* The same, opened beside the last write (a transaction's read-back). */
ssize_t pm_attr_read_near(struct pm_ctx *ctx, const char *path, char *buf,
			  size_t size);
ssize_t pm_attr_readat(struct pm_ctx *ctx, int dirfd, const char *name,
		       char *buf, size_t size);
/*
 * pm_attr_read of the path that fmt formats ("/sys/class/rtc/%s/wakealarm"),
 * and pm_attr_readat of a name below dirfd ("cpu%u/online").  A path past
 * PM_PATH_MAX is -ENAMETOOLONG, read from nowhere.
 */
ssize_t pm_attr_readf(struct pm_ctx *ctx, char *buf, size_t size,
		      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
ssize_t pm_attr_readatf(struct pm_ctx *ctx, int dirfd, char *buf,
			size_t size, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Re-read a kept-open attribute with pread(fd, ..., 0): one syscall. */
ssize_t pm_attr_pread(int fd, char *buf, size_t size);
/*
 * The same, and a read that looks like no attribute's (an error, nothing,
 * a full buffer, a NUL byte) checks what fd is: a FIFO, a device or a
 * socket is -ENXIO, told to ctx->on_odd.  The one fstat is made only
 * then, never for a plain value.
 */
ssize_t pm_attr_pread_ctx(struct pm_ctx *ctx, int fd, char *buf,
			  size_t size);
/* 0 when fd is a regular file or a folder, else -ENXIO told to on_odd. */
int pm_fd_check(struct pm_ctx *ctx, int fd);
/* Strip trailing whitespace in place; returns the new length. */
size_t pm_strip(char *s, size_t len);

/*
 * Typed reads: -ENODATA for an empty value, -EINVAL for one that does not
 * parse (the record names the file and the text).
 */
int pm_attr_read_u64(struct pm_ctx *ctx, const char *path, uint64_t *v);
/* The same of the path that fmt formats. */
int pm_attr_readf_u64(struct pm_ctx *ctx, uint64_t *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int pm_attr_readat_u64(struct pm_ctx *ctx, int dirfd, const char *name,
		       uint64_t *v);
int pm_attr_readat_s64(struct pm_ctx *ctx, int dirfd, const char *name,
		       int64_t *v);
/* Like readat_u64 but returns PM_UNKNOWN for any failure. */
uint64_t pm_attr_getat_u64(struct pm_ctx *ctx, int dirfd, const char *name);

/*
 * Read a /proc file or debugfs table until EOF into a growing buffer
 * (*buf is malloc'ed, NUL-terminated; free it).  Returns length or -errno.
 */
ssize_t pm_file_read(struct pm_ctx *ctx, const char *path, char **buf);
ssize_t pm_fd_read_all(int fd, char **buf, size_t *cap);

/*
 * Write value and a newline (as echo does; every store accepts one) with
 * O_WRONLY|O_TRUNC and one write().
 * Refused with -EPERM and a record when the guard is on and the root is
 * "/".  A short write is -EIO.  Under dry_run only the hook is called.
 */
int pm_attr_write(struct pm_ctx *ctx, const char *path, const char *value);
int pm_attr_writeat(struct pm_ctx *ctx, int dirfd, const char *dirpath,
		    const char *name, const char *value);
/* A verified write: the same, then the file read back into back (as
 * pm_attr_read; "" when it cannot be read) through the fd written. */
int pm_attr_write_back(struct pm_ctx *ctx, const char *path,
		       const char *value, char *back, size_t size);
/* The guard check alone: 0 if writes are allowed. */
int pm_write_allowed(struct pm_ctx *ctx, const char *path);
/*
 * The gate of every write of a setting, a file's or another (Wi-Fi
 * power save): the guard, then the on_write hook with what is shown and
 * the value, then the dry run.  1: go on and write; 0: a dry run,
 * nothing to do; -errno: refused (the record set).
 */
int pm_write_begin(struct pm_ctx *ctx, const char *shown, const char *value);

/* Iterate a folder's entry names matching prefix+number ("policy", "cpu"):
 * fills nums (sorted ascending), returns the count or -errno. */
int pm_list_numbered(struct pm_ctx *ctx, const char *dir, const char *prefix,
		     unsigned *nums, unsigned max);
/* All entry names of a folder (not . and ..), sorted in C-locale order;
 * *names is one malloc'ed array of malloc'ed strings. */
int pm_list_dir(struct pm_ctx *ctx, const char *dir, char ***names);
void pm_list_free(char **names, int n);
/* pattern has a glob character: '*', '?' or '['. */
bool pm_glob_magic(const char *pattern);
/*
 * The files matching an absolute pattern, each component matched by
 * fnmatch(3) against the entries pm_list_dir lists (confined below the
 * system root as it is; a leading '.' only by a '.'), in name order
 * component by component.  *paths is freed by pm_list_free.  Returns
 * the count (0: none), -EINVAL for a relative pattern, or -ENOMEM.
 */
int pm_glob(struct pm_ctx *ctx, const char *pattern, char ***paths);

/*
 * Where a relative symlink in folder dir points, both root-relative
 * without a leading '/'; -EXDEV for an absolute target or one that
 * leaves the root.
 */
int pm_link_resolve(const char *dir, const char *target, char *out,
		    size_t size);

/*
 * The entries of a class folder, /sys/class/NAME (power_supply, thermal,
 * devfreq, wakeup...), one at a time:
 *
 *	struct pm_class c;
 *	int n = pm_class_open(ctx, &c, "devfreq", NULL);
 *
 *	while (pm_class_next(ctx, &c))
 *		if (c.fd >= 0)
 *			... pm_attr_readat(ctx, c.fd, "governor", ...) ...
 *	pm_class_close(&c);
 *
 * pm_class_open lists the folder: the count of entries, or -errno with
 * the record set (as pm_list_dir; pm_class_close is then a no-op).  With
 * prefix NULL every entry comes, in C-locale order; else only the
 * entries named prefix and a number ("thermal_zone"), by number, c.id
 * the number.  pm_class_next moves to the next entry: c.name, c.path
 * (below the root) and c.fd, an O_DIRECTORY fd of it, -1 when it does
 * not open (the caller decides); closed by the next call and by
 * pm_class_close.  False after the last one.
 */
struct pm_class {
	char dir[PM_PATH_MAX];	/* /sys/class/NAME */
	char path[PM_PATH_MAX];	/* the current entry's folder */
	char **names;
	int n, i;
	const char *name;	/* the current entry's name */
	uint32_t id;		/* its number, with a prefix */
	int fd;			/* its folder, -1 */
	size_t plen;		/* the prefix's length, 0 none */
};

int pm_class_open(struct pm_ctx *ctx, struct pm_class *c, const char *name,
		  const char *prefix);
bool pm_class_next(struct pm_ctx *ctx, struct pm_class *c);
void pm_class_close(struct pm_class *c);

#endif /* PM_CORE_H */
