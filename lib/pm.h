/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the one place pmtools touches /sys, /proc and /dev.  Every
 * function returns 0 (or a count) on success and -errno on failure, and
 * fills ctx->err so the tool can say which file, which value and why.
 */
#ifndef PM_H
#define PM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <getopt.h>
#include <stdio.h>
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

/* ---------------------------------------------------------------- errors */

struct pm_err {
	char op[64];		/* "read", "write", "open", "parse" */
	char file[PM_PATH_MAX]; /* path without the sysroot */
	char value[128];	/* the value written or read, if any */
	int err;		/* positive errno, 0 if none */
	char hint[512];		/* e.g. the available choices */
};

/* ---------------------------------------------------------------- context */

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

/* Iterate a folder's entry names matching prefix+number ("policy", "cpu"):
 * fills nums (sorted ascending), returns the count or -errno. */
int pm_list_numbered(struct pm_ctx *ctx, const char *dir, const char *prefix,
		     unsigned *nums, unsigned max);
/* All entry names of a folder (not . and ..), sorted in C-locale order;
 * *names is one malloc'ed array of malloc'ed strings. */
int pm_list_dir(struct pm_ctx *ctx, const char *dir, char ***names);
void pm_list_free(char **names, int n);

/* ---------------------------------------------------------------- writes */

/*
 * A transaction: writes planned first (each file's value read then),
 * applied in order, each read back; on the first failure every write
 * already made is undone in reverse order and read back, so the kernel
 * ends either fully at the new values or where it was.
 */
enum {
	PM_W_FORCE = 1 << 0,	/* write even when the file reads the same */
	PM_W_NOUNDO = 1 << 1,	/* undone by undoing an earlier write */
	PM_W_NOREAD = 1 << 2,	/* no old value to read (nor read back) */
	PM_W_CHOICE = 1 << 3,	/* reads as "a [b] c": the bracketed one */
	/* The file appears with an earlier write of the plan (a governor's
	 * tunables): planned with PM_W_NOREAD, read just before it is
	 * written (then alt, if path is not there), then an ordinary write. */
	PM_W_LATE = 1 << 4,
	/* A snapshot only a rollback writes: planned as old = val (so never
	 * written going forward), put back after the later writes are undone
	 * if the file reads otherwise then (a governor's tunables, which the
	 * kernel resets when the governor stops and starts again). */
	PM_W_RESTORE = 1 << 5,
	/* The write removes and recreates folders (CPU hotplug, a driver's
	 * status): cached folder fds are dropped after it and its undo. */
	PM_W_RESHAPE = 1 << 6,
};

#define PM_W_PATH PM_PATH_MAX	/* a USB device behind hubs and docks */
#define PM_W_VAL 128

struct pm_write {
	char *path;		/* system path, as shown (malloc'd) */
	char old[PM_W_VAL];	/* before ("" unreadable) */
	char val[PM_W_VAL];	/* to write */
	char got[PM_W_VAL];	/* read back after the write ("" none) */
	unsigned flags;
	void *tag;		/* the caller's, for messages */
	bool skip;		/* already at val: not written */
	bool done;		/* written */
	int err;		/* errno of a failed write, 0 */
	bool undone;		/* restored and read back as old */
	int undo_err;		/* errno of a failed restore, -1 mismatch */
	char *alt;		/* PM_W_LATE: the other place (malloc'd) */
};

struct pm_journal;

struct pm_txn {
	struct pm_ctx *ctx;
	struct pm_write *w;
	int n, cap;
	int failed;		/* index of the failed write, -1 */
	int not_restored;	/* writes that could not be undone */
	int next;		/* the first write not applied yet */
	bool rolled_back;
	int stopped;		/* the signal that stopped the apply, 0 */
	/* Written before the first write of each stage and of each
	 * PM_W_LATE file (NULL: none, as in a dry run). */
	struct pm_journal *journal;
	int journal_err;	/* errno of a journal that could not be made */
};

void pm_txn_init(struct pm_txn *t, struct pm_ctx *ctx);
void pm_txn_free(struct pm_txn *t);
/*
 * Plan path = value, reading the file's value now.  Returns the index of
 * the write, or -errno when the file cannot be read (ENOENT: not offered
 * here; the error record names it).  PM_W_NOREAD plans without reading.
 */
int pm_txn_add(struct pm_txn *t, const char *path, const char *value,
	       unsigned flags);
/* Same with the old value already known (from a model just read). */
int pm_txn_add_known(struct pm_txn *t, const char *path, const char *old,
		     const char *value, unsigned flags);
/*
 * Apply the plan (under ctx->dry_run only the write hook sees it), from
 * the first write not applied yet: a plan may be applied in stages, each
 * planned on what the one before made.  0 when every write was made;
 * else -errno of the failed write, after the rollback of every stage:
 * t->failed names it, t->not_restored counts the files left changed
 * (each with undo_err set).  A stop signal caught (pm_stop_catch) before
 * a write is -EINTR after the rollback, with t->stopped set and
 * t->failed -1; a journal that cannot be written (t->journal) is its
 * -errno, with t->journal_err set, before the stage's first write.
 */
int pm_txn_apply(struct pm_txn *t);
/* Undo every write applied so far, in reverse order (an error found
 * while planning a later stage); t->not_restored counts the failures. */
void pm_txn_undo(struct pm_txn *t);
/* Forget the writes planned from index n on (none applied yet). */
void pm_txn_truncate(struct pm_txn *t, int n);
/* Writes that change something (not skipped). */
int pm_txn_changes(const struct pm_txn *t);

/*
 * Signals in the middle of a write: from pm_stop_catch to pm_stop_release,
 * SIGINT, SIGTERM, SIGHUP and SIGQUIT (each one not ignored when it
 * starts) only set a flag, which pm_txn_apply reads before each write:
 * the writes stop and are rolled back, and a signal during the rollback
 * does not stop it.  pm_stop_hold blocks them, so that pm_stop_caught()
 * is final; pm_stop_release puts the old actions back, then lets a
 * signal that came meanwhile take its usual course.
 */
#include <signal.h>

#define PM_STOP_NSIG 4

struct pm_stop {
	bool on, held;
	struct sigaction old[PM_STOP_NSIG];
	sigset_t mask;		/* the mask before pm_stop_hold */
};

void pm_stop_catch(struct pm_stop *s);
/* The last stop signal caught since pm_stop_catch, 0 none. */
int pm_stop_caught(void);
void pm_stop_hold(struct pm_stop *s);
void pm_stop_release(struct pm_stop *s);
/* "SIGTERM" */
const char *pm_signal_name(int sig);

/*
 * The writers' journal (lib/journal.c): before the first write, the old
 * value of every file a write may change, in PM_JOURNAL under the root,
 * the file and its folder synced; removed after the last read-back or
 * the rollback.  A journal that is there when a writer takes the lock
 * was left by one that died mid-apply (SIGKILL, a crash, a power cut of
 * the kernel's own writes): pm_journal_recover puts it back.
 */
#define PM_STATE_DIR "/run/pmtools"
#define PM_JOURNAL PM_STATE_DIR "/journal"
#define PM_JOURNAL_VERSION 1

struct pm_journal {
	struct pm_ctx *ctx;
	const char *tool;	/* "opp-set", in the journal */
	int dirfd;		/* PM_STATE_DIR, -1 not open yet */
	bool live;		/* written and not removed yet */
	char boot[40];		/* boot_id, "-" unreadable, "" not read */
};

void pm_journal_init(struct pm_journal *j, struct pm_ctx *ctx,
		     const char *tool);
/* Record the old values of t's writes (replacing the journal atomically):
 * 0 or -errno with the record naming the journal. */
int pm_journal_write(struct pm_journal *j, const struct pm_txn *t);
/* Remove it, the folder synced: 0 or -errno (record set). */
int pm_journal_remove(struct pm_journal *j);
void pm_journal_close(struct pm_journal *j);

/* One file of a journal found, and what its restore did. */
struct pm_jfile {
	char kind;		/* 'w' write, 'c' choice, 's' snapshot, 'u' */
	char path[PM_W_PATH];
	char old[PM_W_VAL];	/* to restore ("" not known: 'u') */
	char was[PM_W_VAL];	/* read before the restore ("" unread) */
	char got[PM_W_VAL];	/* read back after it */
	bool changed;		/* read otherwise than old: written back */
	bool restored;		/* written back and read back as old */
	int err;		/* errno of a failed restore, -1 reads otherwise */
};

struct pm_recovery {
	bool found;		/* a journal was there */
	bool bad;		/* did not parse, or unsafe: left untouched */
	char why[320];		/* what is wrong with it ("line 3: ...") */
	bool earlier_boot;	/* written before the last boot: not restored */
	long pid;
	char tool[PM_NAME_MAX];
	char boot[40];
	int64_t time;		/* when it was written, seconds since the epoch */
	int n;
	struct pm_jfile *f;	/* in the journal's order */
	int changed;		/* files that read otherwise than their old */
	int restored;		/* of those, put back and read back */
	int failed;		/* could not be put back (err set) */
	int remove_err;		/* errno of its removal, 0 */
};

/*
 * With the writers' lock held: restore the journal a dead writer left,
 * last file first, each read back, then remove it; one written in an
 * earlier boot is removed unrestored (the kernel started afresh), one
 * that does not parse or that others could have written is left as it
 * is (r->bad).  Under ctx->dry_run, only compare.  0 (r says what was
 * found and done), or -errno when the journal cannot be read (the error
 * record names it).
 */
int pm_journal_recover(struct pm_ctx *ctx, struct pm_recovery *r);
void pm_recovery_free(struct pm_recovery *r);

/*
 * The writers' lock (CLI.md: /run/opp-set.lock, shared by pmctl and
 * opp-set; /run/pm-suspend.lock).  wait_s < 0: do not wait, 0: forever.
 * Returns the fd to keep, or -EWOULDBLOCK when held (*holder gets the
 * holder's "pid NAME" when it wrote one), -EACCES without the right to
 * create it, other -errno.  The holder's pid and tool name go in the
 * file.
 */
int pm_lock_take(struct pm_ctx *ctx, const char *path, const char *tool,
		 double wait_s, char *holder, size_t size);
void pm_lock_release(int fd);

/* ---------------------------------------------------------------- commands */

#include <signal.h>

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

/* ---------------------------------------------------------------- parsing */

/* Digits at *s into *v; advances *s.  -EINVAL if none, -ERANGE overflow. */
int pm_parse_digits(const char **s, uint64_t *v);
/* Strict decimal: no sign, no junk, no empty, no overflow. */
int pm_parse_u64(const char *s, uint64_t *v);
int pm_parse_u32(const char *s, uint32_t *v);
/* Optional leading '-'. */
int pm_parse_s64(const char *s, int64_t *v);
/* "on"/"off", "1"/"0", "yes"/"no", "true"/"false", "enabled"/"disabled". */
int pm_parse_bool(const char *s, bool *v);
/* Percentage 0..100. */
int pm_parse_pct(const char *s, unsigned *v);

/*
 * A frequency: bare number = kHz; Hz, kHz, MHz, GHz in any case, decimals
 * allowed ("1.2GHz").  Result in Hz; -EINVAL for junk or a fraction of a
 * Hz, -ERANGE for overflow.
 */
int pm_parse_freq_hz(const char *s, uint64_t *hz);
/* Same, in kHz; a value that is not a whole number of kHz is -EINVAL. */
int pm_parse_freq_khz(const char *s, uint64_t *khz);
/* A duration: bare = seconds; us, ms, s, min, h; decimals; result in us. */
int pm_parse_duration_us(const char *s, uint64_t *us);
/* Format kHz for people: "800 MHz", "1.2 GHz", "2.401 GHz". */
char *pm_fmt_khz(uint64_t khz, char *buf, size_t size);

/* ---------------------------------------------------------------- CPU sets */

struct pm_cpuset {
	uint64_t w[PM_MAX_CPUS / 64];
};

void pm_cpuset_zero(struct pm_cpuset *s);
void pm_cpuset_set(struct pm_cpuset *s, unsigned cpu);
void pm_cpuset_clr(struct pm_cpuset *s, unsigned cpu);
bool pm_cpuset_isset(const struct pm_cpuset *s, unsigned cpu);
unsigned pm_cpuset_count(const struct pm_cpuset *s);
bool pm_cpuset_empty(const struct pm_cpuset *s);
bool pm_cpuset_intersects(const struct pm_cpuset *a,
			  const struct pm_cpuset *b);
void pm_cpuset_and(struct pm_cpuset *d, const struct pm_cpuset *a);
void pm_cpuset_or(struct pm_cpuset *d, const struct pm_cpuset *a);
void pm_cpuset_andnot(struct pm_cpuset *d, const struct pm_cpuset *a);
bool pm_cpuset_equal(const struct pm_cpuset *a, const struct pm_cpuset *b);
/* Next set CPU at or after from, or -1. */
int pm_cpuset_next(const struct pm_cpuset *s, unsigned from);
/* cpu is the name of the variable it declares: no parentheses.
 * NOLINTBEGIN(bugprone-macro-parentheses) */
#define pm_cpuset_foreach(cpu, s)                                            \
	for (int cpu = pm_cpuset_next((s), 0); cpu >= 0;                     \
	     cpu = pm_cpuset_next((s), (unsigned)cpu + 1))
/* NOLINTEND(bugprone-macro-parentheses) */

/*
 * Kernel range list ("0-3,5,7-8", groups "0-7:2/4"), empty allowed (the
 * offline file).  Reversed ranges, junk, overflow and CPUs >= PM_MAX_CPUS
 * are -EINVAL / -ERANGE.
 */
int pm_cpulist_parse(const char *s, struct pm_cpuset *set);
/* Space-separated list (cpufreq affected_cpus / related_cpus). */
int pm_cpulist_parse_spaced(const char *s, struct pm_cpuset *set);
/* Compact range list; returns the length (truncation: >= size). */
size_t pm_cpulist_format(const struct pm_cpuset *set, char *buf,
			 size_t size);

/*
 * A kernel choice list: "a b [c] d" (sleep states, mem_sleep, disk,
 * pm_test) or "a b c " (governors).  Splits in place into names[];
 * *current is the index of the bracketed one or -1.  Returns the count.
 */
int pm_choices_split(char *s, char **names, int max, int *current);
/* Is word one of the space-separated words in list? */
bool pm_word_in(const char *list, const char *word);

/* ---------------------------------------------------------------- output */

enum pm_fmt {
	PM_FMT_HUMAN,
	PM_FMT_JSON,
	PM_FMT_KV,
	PM_FMT_CSV,
	PM_FMT_PROM,
};

int pm_fmt_parse(const char *s, enum pm_fmt *f);
const char *pm_fmt_name(enum pm_fmt f);

/* Nesting depth of a JSON/kv document. */
#define PM_OUT_DEPTH 16

struct pm_out_level {
	bool is_array;
	unsigned count;		/* members written so far */
	char elem[24];		/* kv label of array elements ("cpu") */
	size_t keylen;		/* length of the kv key prefix at this level */
	size_t scalars;		/* kv: offset of joined scalar values */
};

/* What --output names (pm_out_open). */
enum pm_out_kind {
	PM_OUT_STDOUT,		/* no --output */
	PM_OUT_ATOMIC,		/* a file, replaced by rename */
	PM_OUT_DEVICE,		/* a character or block device: written */
	PM_OUT_STREAM,		/* a FIFO or socket: written at commit */
};

struct pm_out {
	enum pm_fmt fmt;
	FILE *f;
	enum pm_out_kind kind;
	char *tmp_path;		/* atomic --output: the temporary file */
	char *final_path;	/* the file replaced, the device written */
	char *mem;		/* PM_OUT_STREAM: the document so far */
	size_t memlen;
	int depth;
	struct pm_out_level lvl[PM_OUT_DEPTH];
	char key[512];		/* kv: the flattened key so far */
	char *join;		/* kv: space-joined scalar array values */
	size_t join_len, join_cap;
	bool color;
	bool compact;		/* JSON on one line (JSON Lines) */
	int err;		/* first stream error (errno) */
	char **prom_names;	/* prom: the families named so far */
	size_t prom_n, prom_cap;
};

/*
 * Open the output: path NULL means stdout.  With a path to a file (or to
 * nothing yet), writes go to a temporary file in the same folder, renamed
 * over it by pm_out_commit; through a symlink, the file it names is
 * replaced in its own folder.  A character or block device is written
 * directly, a FIFO or socket gets the document at commit; none is ever
 * replaced.  A folder is -EISDIR, a loop of links -ELOOP (pm_out_exit:
 * a usage error).
 */
int pm_out_open(struct pm_out *o, enum pm_fmt fmt, const char *path);
/* Flush; for a file, fsync and rename.  Returns 0 or -errno. */
int pm_out_commit(struct pm_out *o);
/* Give up: remove the temporary file. */
void pm_out_abort(struct pm_out *o);

/* Structured documents (json and kv).  key is NULL inside arrays. */
void pm_out_obj_begin(struct pm_out *o, const char *key);
void pm_out_obj_end(struct pm_out *o);
/* elem: the kv label for elements ("cpu" gives cpu0_, cpu1_...). */
void pm_out_arr_begin(struct pm_out *o, const char *key, const char *elem);
void pm_out_arr_end(struct pm_out *o);
/* An object element of an array labelled with its own number (kv). */
void pm_out_elem_begin(struct pm_out *o, uint64_t label);
void pm_out_str(struct pm_out *o, const char *key, const char *v);
void pm_out_u64(struct pm_out *o, const char *key, uint64_t v);
void pm_out_s64(struct pm_out *o, const char *key, int64_t v);
/* PM_UNKNOWN (or a NAN double) prints null. */
void pm_out_u64_or_null(struct pm_out *o, const char *key, uint64_t v);
void pm_out_double(struct pm_out *o, const char *key, double v, int prec);
void pm_out_bool(struct pm_out *o, const char *key, bool v);
/* A kernel flag read as 0/1, or -1 when not given: false, true or null. */
void pm_out_flag(struct pm_out *o, const char *key, int v);
void pm_out_null(struct pm_out *o, const char *key);
/* A JSON array of CPU numbers. */
void pm_out_cpuset(struct pm_out *o, const char *key,
		   const struct pm_cpuset *s);
/* Space-separated words as an array of strings. */
void pm_out_words(struct pm_out *o, const char *key, const char *words);
/* A string, or null when it is empty (a file the kernel did not give). */
void pm_out_str_or_null(struct pm_out *o, const char *key, const char *v);
/* Words as an array, or null when there are none. */
void pm_out_words_or_null(struct pm_out *o, const char *key,
			  const char *words);

/*
 * Numbers: the shortest text that reads back as exactly v (no NaN or
 * infinity); and v rounded to prec decimals first ("" when not finite).
 */
const char *pm_fmt_double(double v, char *buf, size_t size);
const char *pm_fmt_decimals(double v, int prec, char *buf, size_t size);

/*
 * Escapers, exposed for the tests and the tools.  The text form, for
 * people and every format's strings: control bytes (C0, DEL, C1) and bytes
 * that are not UTF-8 shown as \n, \t or \xHH, never sent to a terminal.
 */
void pm_text_escape(FILE *f, const char *s);
char *pm_text_escape_dup(const char *s);	/* malloc'ed; NULL: ENOMEM */
void pm_json_escape(FILE *f, const char *s);
void pm_kv_quote(FILE *f, const char *s);
void pm_csv_field(FILE *f, const char *s);
void pm_prom_label_escape(FILE *f, const char *s);
/* Lower-case and map anything outside [a-z0-9_] to '_'. */
void pm_kv_key_sanitize(char *s);

/* CSV rows: fields separated by commas, RFC 4180 quoting. */
void pm_out_csv_row(struct pm_out *o, int n, const char *const *fields);

/* Prometheus exposition format. */
void pm_out_prom_meta(struct pm_out *o, const char *name, const char *type,
		      const char *help);
/* labels: NULL-terminated "name", "value" pairs. */
void pm_out_prom_sample(struct pm_out *o, const char *name,
			const char *const *labels, double v);
void pm_out_prom_sample_u64(struct pm_out *o, const char *name,
			    const char *const *labels, uint64_t v);

/*
 * printf to the output stream (human format), and to any stream: every
 * string argument (%s, %c) in its text form, the format as it is.
 */
void pm_out_printf(struct pm_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pm_fprintf(FILE *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pm_vfprintf(FILE *f, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* ---------------------------------------------------------------- CPUs */

struct pm_cpus {
	struct pm_cpuset possible, present, online, offline;
	int kernel_max;		/* -1 unknown */
	char smt_control[24];	/* "" when absent */
	int smt_active;		/* -1 unknown */
	unsigned nr_present;
};

int pm_cpus_read(struct pm_ctx *ctx, struct pm_cpus *c);
/* 1 if the CPU has an online file (can be hot-plugged), else 0. */
int pm_cpu_hotpluggable(struct pm_ctx *ctx, unsigned cpu);
/*
 * Resolve a --cpu argument: "all" (present), "online", or a range list,
 * intersected with nothing: CPUs not present are an error (-ENOENT, the
 * record names them).
 */
int pm_cpus_select(struct pm_ctx *ctx, const struct pm_cpus *c,
		   const char *arg, struct pm_cpuset *out);

/* ---------------------------------------------------------------- cpuidle */

struct pm_cpuidle {
	char driver[PM_NAME_MAX];	/* "" when absent, "none" as the kernel says */
	char governor[PM_NAME_MAX];
	bool governor_writable;
	int governor_err;	/* errno of a current_governor that is there
				 * but unreadable (0: read, or absent) */
	char available_governors[256];
};

struct pm_idle_state {
	unsigned index;
	int disable_err;		/* errno of an unreadable disable that
					 * is there (0: read, or absent) */
	char name[PM_NAME_MAX];
	char desc[PM_NAME_MAX];
	uint64_t latency_us, residency_us, power_mw;
	uint64_t usage, time_us, above, below, rejected;
	uint64_t s2idle_usage, s2idle_time_us;
	int disabled;			/* 0/1, -1 unknown */
	int default_disabled;		/* default_status: 0/1, -1 unknown */
};

int pm_cpuidle_read(struct pm_ctx *ctx, struct pm_cpuidle *ci);

/* Which files of a state to read; the others stay unknown. */
enum {
	PM_IDLE_NAMES = 1 << 0,		/* name, desc, latency, residency */
	PM_IDLE_COUNTERS = 1 << 1,	/* usage, time, above, below, ... */
	PM_IDLE_DISABLE = 1 << 2,	/* disable */
	PM_IDLE_EXTRA = 1 << 3,		/* power, default_status */
	PM_IDLE_ALL = 0xf,
	PM_IDLE_NODESC = 1 << 4,	/* with NAMES: all but desc */
};

/* Fill states[] for one CPU; returns the count (0: no cpuidle dir). */
int pm_idle_states_read(struct pm_ctx *ctx, unsigned cpu,
			struct pm_idle_state *states, int max);
int pm_idle_states_read_fields(struct pm_ctx *ctx, unsigned cpu,
			       struct pm_idle_state *states, int max,
			       unsigned fields);

/*
 * The kernel stops at CPUIDLE_STATE_MAX (10) states a CPU, a tree need
 * not: every state up to this many is read, and *cut says there are
 * more.
 */
#define PM_IDLE_STATES_LIMIT 4096
/* Does cpu have a state numbered n (one past the n read)? */
bool pm_idle_state_exists(struct pm_ctx *ctx, unsigned cpu, unsigned n);
/* Every state of cpu, *out malloc'ed (free it); the count, 0 when the
 * CPU has none, -ENOMEM.  cut may be NULL. */
int pm_idle_states_alloc(struct pm_ctx *ctx, unsigned cpu, unsigned fields,
			 struct pm_idle_state **out, bool *cut);

/*
 * CPUs whose idle state tables are the same (state names, exit
 * latencies and target residencies): a phone's clusters have states of
 * their own.  st is the table of the group's first CPU (with desc);
 * disabled[i] counts the CPUs of the group with state i disabled, out
 * of known[i] whose disable file could be read (0: no CPU has one).
 */
struct pm_idle_group {
	struct pm_cpuset cpus;
	int n;
	bool cut;			/* a CPU has more than the limit */
	struct pm_idle_state *st;
	unsigned *disabled, *known;
};

/* The groups of the CPUs of sel, in the order of their first CPUs;
 * *out malloc'ed, the count (CPUs without states are in none), or
 * -ENOMEM. */
int pm_idle_groups_read(struct pm_ctx *ctx, const struct pm_cpuset *sel,
			struct pm_idle_group **out);
void pm_idle_groups_free(struct pm_idle_group *g, int n);

/* ---------------------------------------------------------------- cpufreq */

#define PM_MAX_FREQS 64

struct pm_tis {
	uint64_t khz;
	uint64_t ticks;		/* USER_HZ (10 ms) */
};

struct pm_policy {
	unsigned id;		/* policyN, or the CPU of a legacy cpuN/cpufreq */
	char path[96];		/* system path of the policy folder */
	/*
	 * The CPUs the folder serves (related_cpus since 4.3; before, its
	 * owner and the CPUs linked to it, which related_cpus may exceed),
	 * and the online ones of them (affected_cpus).
	 */
	struct pm_cpuset related, affected;
	char driver[PM_NAME_MAX], governor[PM_NAME_MAX];
	char available_governors[256];
	uint64_t min_khz, max_khz, cpuinfo_min_khz, cpuinfo_max_khz;
	uint64_t cur_khz, cpuinfo_cur_khz, transition_latency_ns;
	uint64_t bios_limit_khz, base_khz;
	/* The first PM_MAX_FREQS of each list; _all counts the file's
	 * (pm_policy_freqs reads a longer list whole). */
	uint64_t avail_khz[PM_MAX_FREQS];
	int n_avail;		/* -1 when the driver does not export it */
	int n_avail_all;
	uint64_t boost_khz[PM_MAX_FREQS];
	int n_boost, n_boost_all;
	char epp[PM_NAME_MAX];	/* "" when absent */
	char epp_available[256];
	int boost;		/* per-policy boost 0/1, -1 absent */
	char setspeed[32];	/* scaling_setspeed text, "" absent */
	/* stats/ */
	bool has_stats;
	uint64_t total_trans;
	struct pm_tis tis[PM_MAX_FREQS];
	int n_tis;
	int tis_bad_line;	/* time_in_state's malformed line, 0 none */
	bool tis_cut;		/* time_in_state has more lines than tis */
};

struct pm_cpufreq_global {
	int boost;		/* cpufreq/boost: 0/1, -1 absent */
	char intel_status[16];	/* "" absent */
	int intel_no_turbo;	/* -1 absent */
	int intel_min_perf_pct, intel_max_perf_pct;
	int intel_num_pstates, intel_turbo_pct;
	int intel_hwp_dynamic_boost;
	char amd_status[16];	/* "" absent */
	char amd_prefcore[16];
	bool intel_pstate, amd_pstate;	/* the folder is there */
};

/*
 * Policy ids in ascending order: N of each policyN folder (Linux 4.3 and
 * later), else N of each cpuN/cpufreq that is a folder of its own (the
 * policy's owner before 4.3; a CPU whose cpufreq is a link to another's
 * folder shares that policy).  Every folder is a policy: a CPU is read
 * and written through the folder its own cpuN/cpufreq leads to.
 */
int pm_policies_list(struct pm_ctx *ctx, unsigned *ids, unsigned max);
int pm_policy_read(struct pm_ctx *ctx, unsigned id, struct pm_policy *p);
/* Only some of the files (related and affected CPUs always): a writer
 * reads what it needs.  Fields not read are PM_UNKNOWN, "" or -1. */
enum {
	PM_POL_DRIVER = 1 << 0,
	PM_POL_GOVERNOR = 1 << 1,	/* governor, available_governors */
	PM_POL_LIMITS = 1 << 2,		/* scaling_ and cpuinfo_ min/max */
	PM_POL_INFO = 1 << 3,		/* cur, latency, bios, base, freqs */
	PM_POL_EPP = 1 << 4,
	PM_POL_BOOST = 1 << 5,
	PM_POL_SPEED = 1 << 6,
	PM_POL_STATS = 1 << 7,		/* stats/total_trans */
	PM_POL_TIS = 1 << 8,		/* stats/time_in_state */
	PM_POL_ALL = 0x1ff,
};
int pm_policy_read_fields(struct pm_ctx *ctx, unsigned id,
			  struct pm_policy *p, unsigned fields);
/* Every policy (*out: malloc'd, count returned, or -errno); the driver
 * and the available governors are read once, as the kernel has one list. */
int pm_policies_read(struct pm_ctx *ctx, unsigned fields,
		     struct pm_policy **out);
/* Only the policies serving a CPU of sel (NULL: all), found from the
 * CPUs' own cpufreq links when that reads less. */
int pm_policies_read_sel(struct pm_ctx *ctx, unsigned fields,
			 const struct pm_cpuset *sel, struct pm_policy **out);
int pm_cpufreq_global_read(struct pm_ctx *ctx, struct pm_cpufreq_global *g);
/*
 * Where governor GOV keeps tunable NAME for a policy: policyN/GOV/NAME
 * with a driver whose governors are per policy, else cpufreq/GOV/NAME.
 * 1: path is the per-policy file, 2: the global one, 0: neither exists
 * (the governor does not run): path is the global file and other, if
 * not NULL, the per-policy one.
 */
int pm_gov_tunable(struct pm_ctx *ctx, const struct pm_policy *pol,
		   const char *gov, const char *name, char *path, size_t size,
		   char *other, size_t osize);
/* A policy's scaling_available_frequencies (or, boost, its
 * scaling_boost_frequencies) whole: *out malloc'ed, the count or -errno. */
int pm_policy_freqs(struct pm_ctx *ctx, const struct pm_policy *p,
		    bool boost, uint64_t **out);
/* Parse a stats/time_in_state text; returns the count or -EINVAL. */
int pm_tis_parse(const char *text, struct pm_tis *tis, int max);
/* The same; *bad_line: the first malformed line (from 1), else 0. */
int pm_tis_parse_line(const char *text, struct pm_tis *tis, int max,
		      int *bad_line);

/* stats/trans_table: counts[from * n + to] of transitions between freqs. */
struct pm_trans_table {
	int n;
	uint64_t khz[PM_MAX_FREQS];
	uint64_t *counts;	/* n * n, malloc'ed */
};

/* Parse the kernel's table text; -EINVAL for anything else. */
int pm_trans_table_parse(const char *text, struct pm_trans_table *t);
/*
 * Read a policy's table: -ENOENT without stats, -EFBIG when the kernel
 * refuses a table larger than a page (since 4.15).
 */
int pm_trans_table_read(struct pm_ctx *ctx, const struct pm_policy *p,
			struct pm_trans_table *t);
void pm_trans_table_free(struct pm_trans_table *t);

/* ---------------------------------------------------------------- counters */

/*
 * What a counter did between two readings when that is not a plain
 * increase, and what a share or rate would have been out of its range.
 * Each is decided per field (lib/counter.c), counted, and shown (a JSON
 * field, and named with -v): never hidden.
 */
enum pm_anom {
	PM_ANOM_RESET,		/* lower, and small: counted from 0 */
	PM_ANOM_STEP_BACK,	/* lower, not a reset: counted as no change */
	PM_ANOM_WRAP,		/* a 32-bit count went past 2^32 - 1 */
	PM_ANOM_TOO_FAST,	/* more than hardware can count: unknown */
	PM_ANOM_OVER_INTERVAL,	/* more time than the interval: 100 % */
	PM_ANOM_OVER_UPTIME,	/* more time than since boot: unknown */
	PM_ANOM_UNKNOWN,	/* the kernel's "unknown" (all bits set) */
	PM_ANOM_MALFORMED,	/* a line that does not parse */
	PM_ANOM_KINDS
};

/* The first few anomalies are described for -v; all are counted. */
#define PM_ANOM_NOTES 8
#define PM_ANOM_NOTE_MAX 160

struct pm_anoms {
	uint64_t n[PM_ANOM_KINDS];
	int nnotes;
	char note[PM_ANOM_NOTES][PM_ANOM_NOTE_MAX];
};

/* The JSON key of a kind: "reset", "step_back", "wrap", ... */
const char *pm_anom_name(enum pm_anom k);
void pm_anoms_clear(struct pm_anoms *a);
uint64_t pm_anoms_total(const struct pm_anoms *a);
/* Count one, and describe it while there is room. */
void pm_anom(struct pm_anoms *a, enum pm_anom k, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Counter kinds: what their unit is and how fast they can move. */
enum pm_ctr {
	PM_CTR_TIME_US,		/* cpuidle time, s390 idle_time_us */
	PM_CTR_EVENTS,		/* cpuidle usage, s390 idle_count */
	PM_CTR_TICKS,		/* /proc/stat and time_in_state: USER_HZ */
	PM_CTR_IRQ32,		/* one /proc/interrupts count: 32 bits */
};

/*
 * An idle entry and exit take well over 100 ns on every CPU, and so does
 * taking an interrupt: ten million a second is more than any CPU does.
 */
#define PM_EVENTS_PER_S_MAX 10000000.0

/* Two readings, dt seconds apart (the later one uptime_s after boot). */
struct pm_dctx {
	double dt;
	double uptime_s;	/* NAN unknown */
	struct pm_anoms *an;
};

/* Where a counter is, for the notes: "cpu1 state2 time". */
struct pm_ctr_id {
	int cpu;		/* -1: not a CPU's */
	int idx;		/* idle state index, -1 none */
	const char *field;	/* "time", "iowait", an IRQ's label */
};

/* The largest increase of a counter of kind k in dt seconds. */
uint64_t pm_ctr_ceiling(enum pm_ctr k, double dt);
/*
 * The increase from prev to cur, decided: PM_UNKNOWN when either is
 * unknown or the increase is more than the hardware can count; a 32-bit
 * wrap undone; a value lower than before is a reset (counted from 0) when
 * it fell by more than the interval allows to a value it could have
 * reached since, else a step back (no change).
 */
uint64_t pm_ctr_delta(const struct pm_dctx *d, enum pm_ctr k, uint64_t prev,
		      uint64_t cur, const struct pm_ctr_id *id);
/*
 * Time in a state over the interval, in %: above 100 (the kernel counts
 * an idle period when it ends) is 100 and counted.  NAN when unknown.
 */
double pm_share_interval(const struct pm_dctx *d, uint64_t time_us,
			 const struct pm_ctr_id *id);
/*
 * Time in a state since boot over ncpu CPUs, in %: NAN (and counted)
 * when it is more than the time since boot can hold.
 */
double pm_share_boot(struct pm_anoms *a, uint64_t time_us, double uptime_s,
		     unsigned ncpu, const struct pm_ctr_id *id);
/* Events per second; NAN for unknown. */
double pm_rate(uint64_t n, double dt);
/* The kernel prints (u32)-1 for a latency or residency it does not know. */
static inline uint64_t pm_known_u32(uint64_t v)
{
	return v == UINT32_MAX ? PM_UNKNOWN : v;
}

/* ---------------------------------------------------------------- CPU time */

/* /proc/stat's per-CPU fields, in its order. */
enum pm_stat_field {
	PM_ST_USER,
	PM_ST_NICE,
	PM_ST_SYSTEM,
	PM_ST_IDLE,
	PM_ST_IOWAIT,
	PM_ST_IRQ,
	PM_ST_SOFTIRQ,
	PM_ST_STEAL,
	PM_ST_FIELDS,
};

/* /proc/stat cpu fields in USER_HZ ticks. */
struct pm_cpu_ticks {
	uint64_t total;		/* every field but guest (inside user) */
	uint64_t idle;		/* idle + iowait */
	uint64_t f[PM_ST_FIELDS];	/* PM_UNKNOWN: an older kernel's line */
};

/* A CPU's time split as people read it, in % of its ticks. */
enum pm_ct {
	PM_CT_BUSY,		/* neither idle nor iowait */
	PM_CT_USER,		/* user + nice (guests inside) */
	PM_CT_SYSTEM,
	PM_CT_IOWAIT,
	PM_CT_IRQ,		/* irq + softirq */
	PM_CT_STEAL,		/* the hypervisor ran something else */
	PM_CT_IDLE,
	PM_CT_KINDS,
};

struct pm_cputime {
	double pct[PM_CT_KINDS];	/* NAN unknown */
};

/* "busy", "user", "system", "iowait", "irq", "steal", "idle". */
const char *pm_ct_name(enum pm_ct k);
/* Since boot: the fields as shares of their sum. */
void pm_cputime_boot(const struct pm_cpu_ticks *t, struct pm_cputime *ct);
/* Between two readings: each field's increase decided on its own. */
void pm_cputime_delta(const struct pm_dctx *d, unsigned cpu,
		      const struct pm_cpu_ticks *a,
		      const struct pm_cpu_ticks *b, struct pm_cputime *ct);
/* USER_HZ: the unit of /proc/stat and of cpufreq's time_in_state. */
double pm_user_hz(void);

/* /proc/uptime's first figure: 0 or -errno (-EINVAL: malformed). */
int pm_uptime_parse(const char *text, double *s);
int pm_uptime_read(struct pm_ctx *ctx, double *s);

/*
 * s390's own idle statistics of a CPU (cpuN/idle_count and idle_time_us,
 * the only idle accounting there): 0, or -errno (-ENOENT elsewhere).
 */
int pm_s390_idle_read(struct pm_ctx *ctx, unsigned cpu, uint64_t *count,
		      uint64_t *time_us);
/* Whether the selected CPUs have them (a few are looked at). */
bool pm_s390_idle_present(struct pm_ctx *ctx, const struct pm_cpuset *sel);

/* ---------------------------------------------------------------- hypervisor */

/*
 * A hypervisor under the kernel owns the real C- and P-states.  Found by
 * /sys/hypervisor/type, DMI (sys_vendor, product_name), s390's
 * /proc/sysinfo or the x86 cpuinfo flag "hypervisor", in that order of
 * trust for its name.
 */
struct pm_hypervisor {
	bool present;
	char name[PM_NAME_MAX];	/* "KVM", "Xen", "z/VM 6.1.0"; "" unknown */
	char source[48];	/* how it was found */
};

/* 1 when one is found, 0 when none (then *h says nothing). */
int pm_hypervisor_detect(struct pm_ctx *ctx, struct pm_hypervisor *h);

/* ---------------------------------------------------------------- sampling */

/*
 * A sampler keeps every attribute it samples open and re-reads it with
 * pread(fd, ..., 0): one syscall per value, no allocation after open.
 * A CPU that goes offline is marked so (values PM_UNKNOWN) and its files
 * are re-opened when it comes back.
 */

struct pm_irq_row {
	char label[16];		/* "24", "LOC", "NMI" */
	char desc[64];		/* the action names or the arch row's text */
	uint64_t total;		/* over the sampled CPUs */
};

/*
 * /proc/interrupts with each count kept per row and CPU: the kernel's
 * counts are 32-bit and wrap one by one, so deltas are taken per cell.
 */
struct pm_irq_table {
	int ncol;		/* columns kept: the selected CPUs listed */
	unsigned *col;		/* their CPU numbers, ascending */
	int nrows, caprows;
	struct pm_irq_row *rows;
	uint64_t *cells;	/* [row * ncol + k] */
	size_t capcells;
	int cut;		/* rows past PM_IRQ_TABLE_ROWS left out */
};

/* Rows kept of a /proc/interrupts: far more than any machine has. */
#define PM_IRQ_TABLE_ROWS 65536

/*
 * Parse into t (grown as needed; zero it first): rows with a count per
 * listed CPU, columns of the CPUs in sel only.  Rows that have one count
 * for the machine (ERR:, MIS:) are left out.  0, -EINVAL, -ENOMEM.
 */
int pm_irq_table_parse(const char *text, const struct pm_cpuset *sel,
		       struct pm_irq_table *t);
int pm_irq_table_copy(struct pm_irq_table *dst,
		      const struct pm_irq_table *src);
void pm_irq_table_free(struct pm_irq_table *t);
/* A CPU's count over all rows, PM_UNKNOWN without a column. */
uint64_t pm_irq_table_cpu(const struct pm_irq_table *t, unsigned cpu);

struct pm_rapl_zone {
	char name[PM_NAME_MAX];	/* package-0, core, dram ... */
	char path[96];
	int fd;			/* -1: not readable */
	int err;		/* why not (EACCES: root only) */
	uint64_t max_range_uj;
	uint64_t energy_uj;	/* last reading, PM_UNKNOWN if none */
};

struct pm_scpu {
	unsigned cpu;
	bool online;
	int nstates;
	char names[PM_MAX_IDLE_STATES][PM_NAME_MAX];
	uint64_t latency_us[PM_MAX_IDLE_STATES];
	int fd_usage[PM_MAX_IDLE_STATES], fd_time[PM_MAX_IDLE_STATES];
	int fd_disable[PM_MAX_IDLE_STATES];
	int fd_s390_count, fd_s390_time;
	/* the last reading */
	uint64_t usage[PM_MAX_IDLE_STATES], time_us[PM_MAX_IDLE_STATES];
	int disabled[PM_MAX_IDLE_STATES];
	struct pm_cpu_ticks ticks;	/* total PM_UNKNOWN if absent */
	uint64_t irqs;			/* interrupts on this CPU (wakeups);
					   PM_UNKNOWN without a column */
	uint64_t s390_count, s390_time_us;	/* PM_UNKNOWN elsewhere */
	int policy;			/* index into pm_sampler.pol, -1 */
	int nstates_seen;		/* states at the last full opening */
	int tries;			/* openings that found fewer */
	bool pending;			/* states not there yet: values unknown */
};

struct pm_spol {
	unsigned id;
	char path[96];		/* for reads by path past the fd budget */
	struct pm_cpuset cpus;
	int fd_tis, fd_cur;
	int n_tis;
	struct pm_tis tis[PM_MAX_FREQS];
	int tis_bad_line;	/* time_in_state's malformed line, 0 none */
	uint64_t cur_khz;
};

enum {
	PM_SAMPLE_CSTATES = 1 << 0,
	PM_SAMPLE_PSTATES = 1 << 1,
	PM_SAMPLE_WAKEUPS = 1 << 2,
	PM_SAMPLE_POWER = 1 << 3,
	PM_SAMPLE_BUSY = 1 << 4,
};

/* /proc/interrupts has a few hundred rows; a budget keeps memory fixed. */
#define PM_MAX_IRQ_ROWS 2048
#define PM_MAX_RAPL 16

struct pm_sampler {
	struct pm_ctx *ctx;
	unsigned flags;
	int ncpu;
	struct pm_scpu *cpu;
	int npol;
	struct pm_spol *pol;
	int fd_online, fd_stat, fd_irq, fd_uptime;
	char *buf;		/* for /proc/stat and /proc/interrupts */
	size_t bufcap;
	struct pm_cpuset sel;	/* the sampled CPUs */
	struct pm_irq_table irq;	/* the last reading's */
	bool have_irq;		/* it was read */
	struct pm_cpu_ticks *ticks;	/* parse space, PM_MAX_CPUS */
	int *colmap;		/* delta space: CPU -> column, PM_MAX_CPUS */
	bool s390;		/* s390's per-CPU idle statistics are there */
	double uptime_s;	/* at the last reading, NAN unknown */
	uint64_t unknown_values;	/* all-ones values at the last reading */
	int nrapl;
	struct pm_rapl_zone rapl[PM_MAX_RAPL];
	unsigned fd_budget;	/* fds we may keep open */
	unsigned fds_open;
	unsigned fallback;	/* values read by open/read/close */
	uint64_t syscalls;	/* reads made by the last pm_sampler_read */
	uint64_t values;	/* values read by it */
};

int pm_sampler_open(struct pm_ctx *ctx, struct pm_sampler *s,
		    const struct pm_cpuset *sel, unsigned flags);
/* Take one reading into the sampler's "last reading" fields. */
int pm_sampler_read(struct pm_sampler *s);
void pm_sampler_close(struct pm_sampler *s);

/* ---------------------------------------------------------------- deltas */

/* One CPU's counters at one reading. */
struct pm_rcpu {
	bool online;
	int nstates;
	uint64_t usage[PM_MAX_IDLE_STATES], time_us[PM_MAX_IDLE_STATES];
	struct pm_cpu_ticks ticks;
	uint64_t s390_count, s390_time_us;
};

/* A copy of the sampler's last reading, to take deltas from later. */
struct pm_reading {
	int ncpu;
	struct pm_rcpu *cpu;
	int npol;
	int *ntis;
	struct pm_tis *tis;	/* [pol * PM_MAX_FREQS + i] */
	uint64_t rapl[PM_MAX_RAPL];
	struct pm_irq_table irq;
	bool have_irq;
	double uptime_s;
	uint64_t unknown_values;
};

int pm_reading_alloc(struct pm_reading *r, const struct pm_sampler *s);
/* Copy the sampler's last reading (allocates only when /proc/interrupts
 * grew). */
int pm_reading_take(struct pm_reading *r, const struct pm_sampler *s);
void pm_reading_free(struct pm_reading *r);

/* Where a CPU's idle share comes from. */
enum pm_idle_src {
	PM_IDLE_SRC_NONE,
	PM_IDLE_SRC_PROC_STAT,	/* idle of /proc/stat */
	PM_IDLE_SRC_S390,	/* s390's idle_time_us */
};

struct pm_cpu_delta {
	unsigned cpu;
	bool online;
	struct pm_cputime ct;	/* busy and idle from idle_src */
	enum pm_idle_src idle_src;
	uint64_t irqs;		/* interrupts; PM_UNKNOWN */
	double wakeups_per_s;	/* NAN unknown */
	double avg_khz;		/* NAN unknown */
	int nstates;
	double res_pct[PM_MAX_IDLE_STATES], entries_per_s[PM_MAX_IDLE_STATES];
	uint64_t dusage[PM_MAX_IDLE_STATES], dtime_us[PM_MAX_IDLE_STATES];
	uint64_t s390_count, s390_time_us;	/* increases, PM_UNKNOWN */
	double s390_idle_pct, s390_entries_per_s;
};

/* Every decision between two readings of one sampler. */
struct pm_delta {
	double dt;
	int ncpu;
	struct pm_cpu_delta *cpu;
	bool have_irq;		/* both readings have /proc/interrupts */
	uint64_t irq_total;	/* over CPUs with a column at both */
	int nrows;		/* rows of the later reading */
	int caprows;
	uint64_t *row;		/* their increases; PM_UNKNOWN for new rows */
	uint64_t *energy_uj;	/* per RAPL zone, PM_UNKNOWN */
	uint64_t *colsum;	/* per column: interrupts (scratch) */
	double *pol_khz;	/* per policy: its average frequency */
	struct pm_anoms an;
};

int pm_delta_alloc(struct pm_delta *d, const struct pm_sampler *s);
void pm_delta_free(struct pm_delta *d);
/* From reading a to reading b, dt seconds later. */
int pm_delta_compute(struct pm_delta *d, const struct pm_sampler *s,
		     const struct pm_reading *a, const struct pm_reading *b,
		     double dt);
/* The n rows of b that moved most, most first: their indices. */
int pm_delta_top(const struct pm_delta *d, int *rows, int n);

/* A counter delta; a counter that went backwards was reset: count from 0. */
static inline uint64_t pm_delta(uint64_t prev, uint64_t cur)
{
	if (prev == PM_UNKNOWN || cur == PM_UNKNOWN)
		return PM_UNKNOWN;
	return cur >= prev ? cur - prev : cur;
}

/* An energy counter that wraps at max: cur + (max - prev) after a wrap. */
static inline uint64_t pm_delta_wrap(uint64_t prev, uint64_t cur,
				     uint64_t max)
{
	if (prev == PM_UNKNOWN || cur == PM_UNKNOWN)
		return PM_UNKNOWN;
	if (cur >= prev)
		return cur - prev;
	return max != PM_UNKNOWN && max >= prev ? cur + (max - prev) : cur;
}

/* Parse /proc/stat's cpuN lines into ticks[cpu] (PM_UNKNOWN if absent). */
int pm_proc_stat_parse(const char *text, struct pm_cpu_ticks *ticks,
		       unsigned nticks);
/*
 * Parse /proc/interrupts: per-CPU totals into percpu[cpu] for the CPUs in
 * sel that have a column (the kernel lists the online CPUs only; the
 * others are PM_UNKNOWN), and per-row totals over sel into rows.  Returns
 * the row count.
 */
int pm_proc_interrupts_parse(const char *text, const struct pm_cpuset *sel,
			     uint64_t *percpu, unsigned npercpu,
			     struct pm_irq_row *rows, int maxrows);

/* ---------------------------------------------------------------- sleep */

#define PM_MAX_CHOICES 16

struct pm_sleep {
	char state[128];	/* raw text, "" absent */
	char mem_sleep[128];
	char disk[128];
	char pm_test[128];
	char resume[32];
	uint64_t resume_offset, image_size;
	bool have_power;	/* /sys/power exists */
	/* suspend_stats */
	uint64_t success, fail;
	char last_failed_dev[128];
	int64_t last_failed_errno;
	char last_failed_step[32];
};

int pm_sleep_read(struct pm_ctx *ctx, struct pm_sleep *s);
/* Is word among the choices of a choice list? */
bool pm_choice_offered(const char *list, const char *word);
/* The bracketed choice into out ("" if none). */
void pm_choice_current(const char *list, char *out, size_t size);

/* Sleep modes of pm-suspend (CLI.md). */
enum pm_sleep_mode {
	PM_MODE_SUSPEND,
	PM_MODE_S2IDLE,
	PM_MODE_STANDBY,
	PM_MODE_DEEP,
	PM_MODE_HIBERNATE,
	PM_MODE_HYBRID,
	PM_MODE_SUSPEND_THEN_HIBERNATE,
};

/* "suspend", "freeze" (= s2idle), "shallow" (= standby) ...; -EINVAL. */
int pm_sleep_mode_parse(const char *s, enum pm_sleep_mode *m);
const char *pm_sleep_mode_name(enum pm_sleep_mode m);
/*
 * Can the mode be entered here?  0 if so; -EOPNOTSUPP with the reason
 * (what the kernel offers instead, or why hibernation is unsafe) in
 * reason.  hib_mode: the disk mode hibernation would use ("platform").
 */
int pm_sleep_check(struct pm_ctx *ctx, enum pm_sleep_mode m,
		   const char *hib_mode, char *reason, size_t size);
/* The hibernation safety check alone (resume device, swap, space). */
int pm_hibernate_check(struct pm_ctx *ctx, char *reason, size_t size);
/* pm_sleep_check without the hibernation safety check (--force). */
int pm_sleep_offered(struct pm_ctx *ctx, enum pm_sleep_mode m,
		     const char *hib_mode, char *reason, size_t size);
/* The selected word of a choice list, or the value itself if one word. */
void pm_choice_selected(const char *list, char *out, size_t size);

/* The counters of /sys/power/suspend_stats (PM_UNKNOWN when absent). */
#define PM_SUSPEND_STATS 10
extern const char *const pm_suspend_stat_names[PM_SUSPEND_STATS];
struct pm_suspend_stats {
	uint64_t v[PM_SUSPEND_STATS];
	char last_failed_dev[128];
	int64_t last_failed_errno;	/* PM_UNKNOWN_S64 when absent */
	char last_failed_step[32];
};
void pm_suspend_stats_read(struct pm_ctx *ctx, struct pm_suspend_stats *s);

/*
 * Read /sys/power/wakeup_count, which blocks while wakeup events are in
 * flight, for at most timeout_s seconds (-ETIMEDOUT then; -EINTR for
 * any other signal).
 */
int pm_wakeup_count_read(struct pm_ctx *ctx, double timeout_s,
			 uint64_t *count);

/* An RTC (/sys/class/rtc/NAME). */
struct pm_rtc {
	char name[32];
	char path[PM_PATH_MAX];		/* /sys/class/rtc/NAME */
	uint64_t now;			/* since_epoch, PM_UNKNOWN */
	uint64_t alarm;			/* wakealarm, 0 when none */
	char wakeup[16];		/* device/power/wakeup, "" absent */
};
/* -ENOENT when there is no such RTC or it has no wakealarm. */
int pm_rtc_read(struct pm_ctx *ctx, const char *name, struct pm_rtc *r);
/* Does /etc/adjtime say the RTC keeps local time (third line LOCAL)? */
bool pm_rtc_local(struct pm_ctx *ctx);

/* The wakeup sources of /sys/class/wakeup, for what moved over a sleep. */
struct pm_wsrc {
	char id[32];			/* wakeup3 */
	char name[PM_NAME_MAX];		/* its name file */
	uint64_t event_count, wakeup_count;
};
/* *out malloc'ed; the count, or -errno. */
int pm_wakeup_sources_read(struct pm_ctx *ctx, struct pm_wsrc **out);
/* The action names of IRQ irq in /proc/interrupts into name ("" if none). */
void pm_irq_name(struct pm_ctx *ctx, unsigned irq, char *name, size_t size);

/* ---------------------------------------------------------------- hooks */

/* pm-utils' hook exit codes (pm-functions NA, NX, DX). */
#define PM_HOOK_EXIT_NA 254	/* not applicable */
#define PM_HOOK_EXIT_NX 253	/* not executable */
#define PM_HOOK_EXIT_DX 252	/* disabled */

enum pm_hook_state {
	PM_HOOK_RUN,		/* to be run */
	PM_HOOK_DISABLED,	/* in HOOK_BLACKLIST: counts as 252 */
	PM_HOOK_NOEXEC,		/* no execute bit: counts as 253 */
	PM_HOOK_REFUSED,	/* unsafe ownership or mode: not run */
	PM_HOOK_SKIP,		/* not a regular file */
};

struct pm_hook {
	char name[256];			/* the file name, the merge key */
	char path[PM_PATH_MAX];		/* system path */
	enum pm_hook_state state;
	char why[224];			/* PM_HOOK_REFUSED: the reason */
};

struct pm_hooks {
	struct pm_hook *h;
	int n, cap;
};

/*
 * The hooks of dirs (system paths; the first folder wins a name clash)
 * in C-locale name order, without dot files, *~ backups and anything not
 * a regular file.  Names in blacklist (space separated) are disabled.
 * As root, a hook or folder not owned by root or writable by group or
 * others is refused.  Returns the count or -errno.
 */
int pm_hooks_list(struct pm_ctx *ctx, const char *const *dirs, int ndirs,
		  const char *blacklist, struct pm_hooks *hs);
void pm_hooks_free(struct pm_hooks *hs);
/* "success", "not applicable", "not executable", "disabled", "failed". */
const char *pm_hook_result_name(int status);

/* pmtools' functions file for pm-utils' hooks (PM_FUNCTIONS). */
#define PM_FUNCTIONS_FILE PM_DATADIR "/pm-functions"

/*
 * What pm-utils' hooks read besides PM_MODE and PM_CMDLINE: the
 * variables pm-utils' pm-functions exported (CLI.md, pm-suspend(8)).
 */
struct pm_hook_api {
	const char *functions;	/* PM_FUNCTIONS (a real path) */
	const char *storagedir;	/* STORAGEDIR (a real path) */
	const char *logfile;	/* PM_LOGFILE; NULL: the output is dropped */
	const char *suspend_modules;	/* SUSPEND_MODULES */
	const char *cpufreq_governor;	/* TEMPORARY_CPUFREQ_GOVERNOR */
};

struct pm_hook_env {
	const char *mode;	/* PM_MODE */
	const char *cmdline;	/* PM_CMDLINE */
	double timeout_s;	/* then the group is killed; <= 0: none */
	int logfd;		/* stdout and stderr; -1: /dev/null */
	const struct pm_hook_api *api;	/* pm-utils' hooks, else NULL */
	const char *sleep_action;	/* SYSTEMD_SLEEP_ACTION, or NULL */
};

struct pm_hook_run {
	int status;		/* exit code, 128+N for signal N */
	bool timed_out;
	int exec_err;		/* errno of a failed exec, 0 */
	double seconds;
};

/* Run a hook with args a1 a2 (a2 may be NULL).  0 or -errno (fork). */
int pm_hook_exec(const struct pm_ctx *ctx, const struct pm_hook *h,
		 const char *a1, const char *a2, const struct pm_hook_env *e,
		 struct pm_hook_run *r);

/*
 * pm-utils' STORAGEDIR: a folder below the system root where hooks keep
 * state from the pre to the post pass (savestate, modunload, inhibit,
 * disablehook and the parameter list of the functions file).
 */
#define PM_HOOK_STORE "/run/pm-utils/pm-suspend/storage"

struct pm_hook_store {
	int fd;				/* the folder, -1: none */
	char path[PM_PATH_MAX + 64];	/* its real path, for STORAGEDIR */
};

/*
 * Make the folder anew (s->fd is -1, or a store to close first): empty,
 * mode 0700, with the parameter list (the words of cmdline, one a line).
 * As root, a folder on the way that is not root's or that others may
 * write is refused.  0 or -errno, with ctx->err naming the file.
 */
int pm_hook_store_open(struct pm_ctx *ctx, const char *cmdline,
		       struct pm_hook_store *s);
void pm_hook_store_close(struct pm_hook_store *s);
/* NAME of the folder into buf, trailing newlines stripped: its length,
 * or -errno (-ENOENT when there is no such file). */
int pm_hook_store_read(const struct pm_hook_store *s, const char *name,
		       char *buf, size_t size);
/* A hook called disablehook for the hook NAME (or NAME without its two
 * leading digits, as pm-utils has it). */
bool pm_hook_store_disabled(const struct pm_hook_store *s, const char *name);
/* A hook changed the parameter list: its words joined by spaces into
 * cmdline, and true. */
bool pm_hook_store_params(const struct pm_hook_store *s, char *cmdline,
			  size_t size);

/* ---------------------------------------------------------------- opp */

struct pm_opp_entry {
	char name[PM_NAME_MAX];
	char path[PM_PATH_MAX];		/* as shown: /etc/pm/opp.d/x.conf */
	bool installed;			/* from the installed examples */
	char description[PM_CONF_LINE_MAX];	/* a line is no longer */
	/* why the file cannot be read, or "" */
	char error[PM_PATH_MAX + 300];
};

/* An operating point name: [A-Za-z0-9_.-]+, not starting with '.'. */
bool pm_opp_name_valid(const char *name);
/*
 * Every point in /etc/pm/opp.d (under the root) and in datadir/opp.d
 * (a real path; NULL for none); /etc wins by name; sorted by name.
 */
int pm_opp_list(struct pm_ctx *ctx, const char *datadir,
		struct pm_opp_entry **out);

/* ---------------------------------------------------------------- supply */

struct pm_supply {
	char name[PM_NAME_MAX];
	char type[32];
	char status[32];
	int online;			/* -1 unknown */
	uint64_t capacity_pct;
	int64_t power_uw, energy_now_uwh, energy_full_uwh;
	int64_t current_ua, charge_now_uah, charge_full_uah, voltage_uv;
	char model[PM_NAME_MAX];
	/* Derived where the kernel leaves them out (lib/supply.c): */
	int64_t draw_uw;	/* |power_now|, else |current x voltage| */
	int64_t time_left_s;	/* to empty or to full; PM_UNKNOWN_S64 */
	bool capacity_derived;	/* capacity_pct from energy or charge */
	/* Charge control and wear (PM_UNKNOWN / PM_UNKNOWN_S64 / ""). */
	uint64_t charge_start_pct;	/* charge_control_start_threshold */
	uint64_t charge_stop_pct;	/* charge_control_end_threshold */
	char charge_behaviour[96];	/* "[auto] inhibit-charge ..." */
	int64_t energy_full_design_uwh, charge_full_design_uah;
	int64_t cycle_count;
};

/* Returns the count; *out is malloc'ed. */
int pm_supplies_read(struct pm_ctx *ctx, struct pm_supply **out);

/* The files of charge control in /sys/class/power_supply/NAME. */
#define PM_SUPPLY_START "charge_control_start_threshold"
#define PM_SUPPLY_STOP "charge_control_end_threshold"
#define PM_SUPPLY_BEHAVIOUR "charge_behaviour"
/* A name of /sys/class/power_supply: letters, digits, _ - . :, not . or
 * .., shorter than PM_NAME_MAX. */
bool pm_supply_name_ok(const char *name);
/* /sys/class/power_supply/NAME/FILE into buf; false when NAME is not a
 * supply name or the path does not fit. */
bool pm_supply_path(const char *name, const char *file, char *buf,
		    size_t size);
/* The full charge now against the design's, in percent (energy, else
 * charge); NAN when the driver does not give both. */
double pm_supply_health_pct(const struct pm_supply *s);

/*
 * The charge settings last applied (by opp-set's [supply NAME] and
 * pmctl supply set), kept below the root across reboots: what a firmware
 * that drops them at a resume or a boot is given back.
 */
#define PM_SUPPLY_RECORD_DIR "/var/lib/pmtools"
#define PM_SUPPLY_RECORD PM_SUPPLY_RECORD_DIR "/supply.applied"
#define PM_SUPPLY_RECORD_MAX 64	/* entries: 3 files of a few batteries */

struct pm_supply_set {
	char name[PM_NAME_MAX];	/* BAT0 */
	char file[40];		/* PM_SUPPLY_START, _STOP, _BEHAVIOUR */
	char value[40];		/* 80, inhibit-charge */
	unsigned line;		/* in the record, from 1 */
};

/* The record into v (at most max entries): the count, 0 when there is
 * none; lines that are not "NAME FILE VALUE" of those files, with a
 * percentage for a threshold, are left out, and of a file named twice
 * the last line counts. */
int pm_supply_record_read(struct pm_ctx *ctx, struct pm_supply_set *v,
			  int max);
/* Put these n entries in the record (replacing the same NAME and FILE),
 * written whole.  0 or -errno, with ctx->err naming the file. */
int pm_supply_record_update(struct pm_ctx *ctx,
			    const struct pm_supply_set *v, int n);

/* ---------------------------------------------------------------- thermal */

struct pm_tzone {
	unsigned id;
	char type[PM_NAME_MAX];
	int64_t temp_mc;		/* PM_UNKNOWN_S64 unknown */
	char policy[PM_NAME_MAX];
	char mode[16];
};

int pm_tzones_read(struct pm_ctx *ctx, struct pm_tzone **out);

/* ---------------------------------------------------------------- state */

/*
 * The folder path below the root, made on the way (mode for the last
 * part, 0755 before it), never through a link: an O_DIRECTORY fd, or
 * -errno with ctx->err set.  As root, a folder on the way that is not
 * root's or that group or others may write is refused (EPERM).
 */
int pm_state_dir(struct pm_ctx *ctx, const char *path, mode_t mode);
/* Replace the file name of dirfd with text (a temporary file, fsync,
 * rename).  shown names it in ctx->err.  0 or -errno. */
int pm_state_put(struct pm_ctx *ctx, int dirfd, const char *shown,
		 const char *name, const char *text);

/* ---------------------------------------------------------------- psi */

/* /proc/pressure/RESOURCE: shares of time in percent (0 to 100). */
struct pm_psi {
	double some[3], full[3];	/* avg10, avg60, avg300 */
	uint64_t some_total_us, full_total_us;
	bool has_full;			/* cpu: Linux 5.13 */
};

/* The text of a pressure file; 0 or -EINVAL for anything else. */
int pm_psi_parse(const char *text, struct pm_psi *p);
/* resource: cpu, memory or io.  0 or -errno (-ENOENT without PSI,
 * -EOPNOTSUPP when booted with psi=0). */
int pm_psi_read(struct pm_ctx *ctx, const char *resource, struct pm_psi *p);

/* ---------------------------------------------------------------- devfreq */

struct pm_devfreq {
	char name[PM_NAME_MAX];
	char governor[PM_NAME_MAX];
	uint64_t cur_hz, min_hz, max_hz;
	char available_governors[256];
	char available_frequencies[512];
};

int pm_devfreqs_read(struct pm_ctx *ctx, struct pm_devfreq **out);

/* ---------------------------------------------------------------- profile */

/* Handlers of the 6.14+ class /sys/class/platform-profile. */
#define PM_MAX_PROFILE_HANDLERS 8

struct pm_profile_handler {
	char id[PM_NAME_MAX];		/* platform-profile-0 */
	char name[PM_NAME_MAX];		/* the driver's name */
	char profile[PM_NAME_MAX];
	char choices[256];
};

struct pm_profile {
	char current[PM_NAME_MAX];	/* "" absent or unreadable */
	int err;			/* errno of platform_profile when it
					 * is there but unreadable, else 0 */
	char choices[256];
	int n_handlers;			/* -1: no class (before 6.14) */
	struct pm_profile_handler h[PM_MAX_PROFILE_HANDLERS];
};

int pm_profile_read(struct pm_ctx *ctx, struct pm_profile *p);

/* ---------------------------------------------------------------- domains */

/* /sys/class/regulator/regulator.N; an unknown number is PM_UNKNOWN_S64. */
struct pm_regulator {
	unsigned id;
	char name[128];			/* "" when not given */
	char type[16];
	int64_t num_users;
	int64_t microvolts, min_microvolts, max_microvolts;
	int64_t microamps;		/* the current limit */
	char state[16], status[16], opmode[16];
	char suspend_mem[16], suspend_disk[16], suspend_standby[16];
	char device[512];		/* /sys/devices/... or "" */
};

/*
 * Where a sysfs symlink points, as a system path ("/sys/devices/..."):
 * the link's text folded onto its folder, so nothing outside the root
 * is touched.  -errno; EINVAL when path is not a link.
 */
int pm_link_path(struct pm_ctx *ctx, const char *path, char *out,
		 size_t size);

/* Sorted by N; -ENOENT without /sys/class/regulator.  *out is malloc'ed. */
int pm_regulators_read(struct pm_ctx *ctx, struct pm_regulator **out);

/*
 * The debugfs tables are parsed by whitespace and indentation, the
 * columns named by the header, since kernels add columns over time.
 * Strings point into the table's own copy of the text.  A line that
 * fits no known form is skipped and counted in nbad.
 */
struct pm_genpd_dev {
	const char *device;		/* /devices/... path, or (≈6.10+) name */
	const char *runtime_status;	/* NULL when not given */
	int64_t perf;			/* PM_UNKNOWN_S64 without the column */
	const char *managed_by;		/* "SW" / "HW" (≈6.10+), or NULL */
};

struct pm_genpd {
	const char *name;
	const char *status;		/* "on", "off" */
	int64_t idle_state;		/* N of "off-N", else PM_UNKNOWN_S64 */
	int64_t perf;			/* PM_UNKNOWN_S64 without the column */
	int first_child, nchildren;	/* in children[] */
	int first_dev, ndevs;		/* in devs[] */
};

struct pm_genpd_table {
	char *text;
	struct pm_genpd *pd;
	int n;
	const char **children;
	struct pm_genpd_dev *devs;
	int ndevs;
	bool has_perf, has_managed;
	int nbad;
	unsigned first_bad;		/* line number of the first, from 1 */
};

struct pm_clk_consumer {
	const char *device;		/* NULL for "deviceless" */
	const char *con_id;		/* NULL for "no_connection_id" */
};

struct pm_clk {
	const char *name;
	int depth;
	int parent;			/* index in clk[], -1 at a root */
	int64_t enable_count, prepare_count, protect_count;
	uint64_t rate_hz, accuracy_ppb;	/* PM_UNKNOWN without the column */
	int64_t phase_deg;		/* PM_UNKNOWN_S64 for "-----" */
	int64_t duty;			/* duty cycle x 100000, or unknown */
	int hw_enabled;			/* 1 Y, 0 N, -1 "?" or no column */
	int first_consumer, nconsumers;	/* in cons[] */
};

struct pm_clk_table {
	char *text;
	struct pm_clk *clk;		/* depth first, as the kernel lists */
	int n;
	struct pm_clk_consumer *cons;
	int ncons;
	bool has_protect, has_accuracy, has_phase, has_duty, has_hw;
	bool has_consumers;
	int nbad;
	unsigned first_bad;
};

/*
 * Parse pm_genpd_summary / clk_summary text: the number of entries, or
 * -EINVAL when the text has no such header (not that table), -ENOMEM.
 * On error the table is empty; free it either way.
 */
int pm_genpd_parse(const char *text, struct pm_genpd_table *t);
int pm_clk_parse(const char *text, struct pm_clk_table *t);
void pm_genpd_table_free(struct pm_genpd_table *t);
void pm_clk_table_free(struct pm_clk_table *t);
/* Read and parse the debugfs file; -errno with ctx->err on failure. */
int pm_genpd_read(struct pm_ctx *ctx, struct pm_genpd_table *t);
int pm_clk_read(struct pm_ctx *ctx, struct pm_clk_table *t);
/*
 * Why debugfs files cannot be read: 0 when debugfs looks mounted and
 * open to us, -ENOENT when it is not mounted, -EACCES for non-root.
 */
int pm_debugfs_state(struct pm_ctx *ctx);

/* ---------------------------------------------------------------- powercap */

/* powercap_sys allows up to 10 constraints per zone. */
#define PM_POWERCAP_CONSTRAINTS 10

struct pm_powercap_constraint {
	unsigned id;
	char name[PM_NAME_MAX];		/* "" when not given */
	uint64_t power_limit_uw, time_window_us, max_power_uw; /* PM_UNKNOWN */
};

struct pm_powercap_zone {
	char zone[PM_NAME_MAX];		/* intel-rapl:0:1 */
	char control_type[PM_NAME_MAX];	/* intel-rapl, or "" */
	char parent[PM_NAME_MAX];	/* the zone above, "" at the top */
	char name[PM_NAME_MAX];		/* package-0, core ... */
	int enabled;			/* -1 unknown */
	uint64_t energy_uj;		/* PM_UNKNOWN: see energy_err */
	int energy_err;			/* EACCES: root only (since 5.10) */
	uint64_t max_energy_range_uj;
	int nconstraints;
	struct pm_powercap_constraint c[PM_POWERCAP_CONSTRAINTS];
};

struct pm_powercap_type {
	char name[PM_NAME_MAX];
	int enabled;			/* -1 unknown */
};

struct pm_powercap {
	struct pm_powercap_type *types;
	int ntypes;
	struct pm_powercap_zone *zones;	/* by control type, then zone */
	int nzones;
};

/* 0, or -ENOENT when /sys/class/powercap has no entry; free it after. */
int pm_powercap_read(struct pm_ctx *ctx, struct pm_powercap *pc);
void pm_powercap_free(struct pm_powercap *pc);
/* ---------------------------------------------------------------- dump */

/*
 * A POSIX ustar archive (lib/tar.c): 512-byte blocks, uid/gid 0, names
 * split into prefix and name at a '/', and a pax 'x' record (path,
 * linkpath) for what does not fit.  Writes go through a stdio stream;
 * the first error stops every later write and is kept in err.
 */
#define PM_TAR_BLOCK 512
#define PM_TAR_REG '0'
#define PM_TAR_SYMLINK '2'
#define PM_TAR_DIR '5'
#define PM_TAR_PAX 'x'

struct pm_tar {
	FILE *f;
	int64_t mtime;		/* of every member */
	uint64_t written;	/* bytes so far */
	int err;		/* first write error (errno), 0 if none */
};

void pm_tar_init(struct pm_tar *t, FILE *f, int64_t mtime);
/*
 * Encode one header.  -ENAMETOOLONG: name or link did not fit and was
 * cut (a pax record must come first), -EFBIG: size past 8 GiB - 1.
 */
int pm_tar_header(unsigned char hdr[PM_TAR_BLOCK], const char *name,
		  char type, unsigned mode, uint64_t size, int64_t mtime,
		  const char *link);
/* The header checksum, its own field counted as spaces. */
unsigned pm_tar_checksum(const unsigned char hdr[PM_TAR_BLOCK]);
/*
 * Where name splits into prefix (*prefix_len bytes, 0: no prefix) and
 * name; -ENAMETOOLONG when it cannot.
 */
int pm_tar_split(const char *name, size_t *prefix_len);
/* A pax record "LEN key=value\n" into buf (NUL-terminated); its length. */
size_t pm_tar_pax_record(char *buf, size_t size, const char *key,
			 const char *value);
/* Members; 0 or -errno. */
int pm_tar_file(struct pm_tar *t, const char *name, unsigned mode,
		const void *data, size_t size);
int pm_tar_dir(struct pm_tar *t, const char *name, unsigned mode);
int pm_tar_symlink(struct pm_tar *t, const char *name, const char *target);
/* Two zero blocks and a flush; 0 or -errno of the first write error. */
int pm_tar_finish(struct pm_tar *t);

/*
 * pmctl dump (lib/dump.c): the power-management files of /sys and /proc
 * under the root as a tar that --sysroot reads back.  Only a fixed list
 * is walked; write-only files and /sys/power/wakeup_count are never
 * opened; symlinks are kept as relative links when their target is in
 * the archive.
 */
#define PM_DUMP_REDACTED "REDACTED"

struct pm_dump_stats {
	unsigned files, dirs, links;
	unsigned skipped;	/* files not stored, for any reason */
	unsigned unreadable;	/* of which the open or read failed */
	uint64_t bytes;		/* archive size */
};

/* A file not stored: err is its errno, or 0 with why (never opened). */
typedef void (*pm_dump_skip_fn)(void *arg, const char *path, int err,
				const char *why);

struct pm_dump_opts {
	bool redact;		/* identifiers become PM_DUMP_REDACTED */
	int64_t mtime;
	pm_dump_skip_fn on_skip;
	void *arg;
};

/*
 * A stream whose writes go gzip-compressed (RFC 1952, fixed-code deflate)
 * to out; fclose writes the trailer and leaves out open.  NULL with
 * errno on failure.  pm_gzip_name: a name that asks for it (.gz, .tgz).
 */
FILE *pm_gzip_open(FILE *out, int64_t mtime);
bool pm_gzip_name(const char *path);

/* 0, or -errno of a write error (or ENOMEM): the archive is unusable. */
int pm_dump(struct pm_ctx *ctx, FILE *out, const struct pm_dump_opts *o,
	    struct pm_dump_stats *st);
/*
 * The redacted text of the file at path (root-relative): 1 and a
 * malloc'ed *out when something was replaced, 0 when nothing was,
 * -ENOMEM.
 */
int pm_dump_redact(const char *path, const char *data, size_t len,
		   char **out, size_t *outlen);
/*
 * Where a relative symlink in folder dir points, both root-relative
 * without a leading '/'; -EXDEV for an absolute target or one that
 * leaves the root.
 */
int pm_dump_link_resolve(const char *dir, const char *target, char *out,
			 size_t size);
/* ---------------------------------------------------------------- devices */

/*
 * Devices' runtime PM and wakeup (power/ of each folder below
 * /sys/devices).  A value the kernel does not give is "" for text,
 * PM_UNKNOWN or PM_UNKNOWN_S64 for numbers, -1 for a flag.
 */
struct pm_device {
	char *path;		/* "/sys/devices/...", malloc'ed with the names */
	const char *driver;	/* basename of the driver link, NULL: none */
	const char *subsystem;	/* basename of the subsystem link, NULL */
	char control[16];	/* "auto", "on" */
	char runtime_status[24];	/* "active", "suspended", ... */
	uint64_t runtime_active_ms, runtime_suspended_ms;
	int64_t autosuspend_delay_ms;	/* unknown also when EIO: not used */
	char wakeup[16];	/* "enabled", "disabled"; "" not capable */
	uint64_t wakeup_count, wakeup_active_count, wakeup_abort_count;
	uint64_t wakeup_expire_count;
	int wakeup_active;	/* 0/1 */
	int64_t wakeup_total_ms, wakeup_max_ms, wakeup_last_ms;
	/*
	 * pm_qos_resume_latency_us as a limit: PM_UNKNOWN_S64 when the file
	 * is missing or says "0" (no constraint), 0 for "n/a" (none allowed).
	 */
	int64_t resume_latency_limit_us;
};

struct pm_devices {
	struct pm_device *v;
	int n, cap;
};

/*
 * Called with a folder's system path and subsystem (NULL: no link)
 * before its power/ folder is read: false skips the device.
 */
typedef bool (*pm_device_want)(void *arg, const char *path,
			       const char *subsystem);

/*
 * Append the devices below base (a folder under /sys/devices, itself
 * included) whose power/ folder has runtime PM or wakeup files, reading
 * each power/ folder once; symlinks are not followed.  want NULL takes
 * every device.  Returns the count added or -errno (-ENOENT: no base).
 */
int pm_devices_read(struct pm_ctx *ctx, const char *base,
		    pm_device_want want, void *arg, struct pm_devices *list);
/* Parents before children, names in version order (cpu2 before cpu10). */
void pm_devices_sort(struct pm_devices *list);
void pm_devices_free(struct pm_devices *list);
/* The order of pm_devices_sort on two system paths. */
int pm_device_path_cmp(const char *a, const char *b);

/*
 * Resolve a device path as a user gives it (/sys/class/net/eth0,
 * /sys/bus/pci/devices/0000:00:14.0, /sys/devices/...) to the folder it
 * names: out gets its canonical system path.  Symlinks are followed
 * inside the system root only.  Errors, each with a record naming path:
 *   -EINVAL  not absolute, or a ".." component
 *   -EXDEV   a link leads out of the system root (an absolute target
 *            under a --sysroot, or too many ".."), or the path resolves
 *            outside /sys/devices (out then has where it leads)
 *   -ENOENT  a component does not exist;  -ENOTDIR  not a folder
 *   -ELOOP   more than PM_MAX_LINKS links;  -ENAMETOOLONG
 */
#define PM_MAX_LINKS 40
int pm_device_resolve(struct pm_ctx *ctx, const char *path, char *out,
		      size_t size);

/*
 * The devices of /sys/class/NAME and their parents (the device link of
 * each member), as /sys/devices paths in *paths (malloc'ed, sorted).
 * Returns the count, 0 when there is no such class, or -ENOMEM.
 */
int pm_class_devices(struct pm_ctx *ctx, const char *name, char ***paths);

/* --runtime: "auto" or "on"; *value gets the word to write.  -EINVAL. */
int pm_device_control_parse(const char *s, const char **value);
/* --wakeup: enabled/disabled or a pm_parse_bool word; -EINVAL. */
int pm_device_wakeup_parse(const char *s, const char **value);

/* ---------------------------------------------------------------- config */

/*
 * A configuration file reader: "[section args]" headers, "key = value"
 * (or KEY=value) lines, '#' and ';' comments, line numbers kept.
 */
struct pm_conf_line {
	unsigned lineno;
	char *section;		/* "" before any header */
	char *key;
	char *value;
};

struct pm_conf {
	char *path;
	char *text;
	struct pm_conf_line *lines;
	int n;
	unsigned errline;	/* the line of the first error, 0: the file */
	char errmsg[PM_PATH_MAX + 256]; /* what is wrong with it */
	dev_t dev;		/* the file read (pm_conf_read, _load) */
	ino_t ino;
};


/*
 * Load a file: under the system root when ctx is given (/etc/pm/...),
 * else as a real path (a file named on the command line is never
 * prefixed).  On error returns -errno and fills errline/errmsg, which
 * names the problem and never repeats the text of a line.  Only a
 * regular file is read (a FIFO or a device is -EINVAL, never waited
 * for).  As root, a file not owned by root or writable by group or
 * others, or reached through a folder that is (unless the folder has the
 * sticky bit), is -EPERM.
 */
int pm_conf_load(struct pm_ctx *ctx, const char *path, struct pm_conf *c);
/*
 * Read a configuration file whole (at most PM_CONF_MAX bytes) with the
 * same checks as pm_conf_load, for files that are not "key = value"
 * (pm-utils' shell configuration).  Returns the length and *buf (free
 * it), or -errno with c->errmsg filled.
 */
ssize_t pm_conf_read(struct pm_ctx *ctx, const char *path, char **buf,
		     struct pm_conf *c);
/* Parse text (taken over: freed with the conf). */
int pm_conf_parse(const char *name, char *text, size_t len,
		  struct pm_conf *c);
void pm_conf_free(struct pm_conf *c);

/* ---------------------------------------------------------------- tools */

/*
 * The options every tool shares (CLI.md), parsed in one place.  A tool
 * adds its own long options after PM_SHARED_LONGOPTS and passes every
 * getopt result to pm_tool_opt first.
 */
enum {
	PM_OPT_SYSROOT = 0x100,
	PM_OPT_WAIT,
	PM_OPT_TOOL = 0x200,	/* first value free for a tool's own options */
};

#define PM_SHARED_LONGOPTS                                                   \
	{ "help", no_argument, NULL, 'h' },                                  \
	{ "version", no_argument, NULL, 'V' },                               \
	{ "sysroot", required_argument, NULL, PM_OPT_SYSROOT },              \
	{ "json", no_argument, NULL, 'J' },                                  \
	{ "format", required_argument, NULL, 'F' },                          \
	{ "output", required_argument, NULL, 'o' },                          \
	{ "cpu", required_argument, NULL, 'c' },                             \
	{ "wait", optional_argument, NULL, PM_OPT_WAIT },                    \
	{ "quiet", no_argument, NULL, 'q' },                                 \
	{ "verbose", no_argument, NULL, 'v' }

/* Short letters of the shared options; -n is the tool's own. */
#define PM_SHARED_SHORTOPTS "hVJF:o:c:qv"

struct pm_tool {
	const char *name;		/* "pmctl" */
	void (*usage)(FILE *f);		/* --help text */
	const char *sysroot;		/* --sysroot, NULL: $PM_SYSROOT or / */
	enum pm_fmt fmt;
	bool fmt_set;
	const char *output;		/* --output FILE */
	const char *cpu;		/* --cpu LIST */
	bool dry_run;
	double wait_s;			/* --wait: -1 no, 0 forever, else s */
	int verbose;			/* -1 quiet, 0 normal, 1+ verbose */
	unsigned seen;			/* PM_SEEN_*: shared options given */
	/* Called once by pm_die before it exits with the code it returns
	 * (a writer that must undo what it applied before the error). */
	int (*on_die)(void *arg, int code);
	void *on_die_arg;
};

/* Shared options a command may not use (pm_tool_only). */
enum {
	PM_SEEN_CPU = 1 << 0,
	PM_SEEN_OUTPUT = 1 << 1,
	PM_SEEN_FORMAT = 1 << 2,
	PM_SEEN_WAIT = 1 << 3,
	PM_SEEN_DRY_RUN = 1 << 4,	/* set by the tool that parses -n */
};

/* Name the tool, install the stdout check at exit, ignore SIGPIPE. */
void pm_tool_init(struct pm_tool *t, const char *name,
		  void (*usage)(FILE *f));
/*
 * Handle one getopt_long result if it is a shared option: returns true
 * when handled.  --help and --version exit 0; a bad value exits 2.
 * '?' and ':' (bad option) exit 2 with the "Try" line.
 */
bool pm_tool_opt(struct pm_tool *t, int c, const char *arg, char **argv);
/* Refuse a format the command does not offer (mask of 1 << PM_FMT_*). */
void pm_tool_formats(struct pm_tool *t, unsigned mask);
/* Refuse the shared options (PM_SEEN_*) outside allowed: exit 2. */
void pm_tool_only(struct pm_tool *t, unsigned allowed, const char *what);
/* Open the context for --sysroot; exit 2 when the root is unusable. */
void pm_tool_ctx(struct pm_tool *t, struct pm_ctx *ctx);
/* Open the output for --format/--output; exit 1 on failure. */
void pm_tool_out(struct pm_tool *t, struct pm_out *o);
/* The exit status for a pm_out_open failure: 2 for a target that is not
 * a file, a device, a FIFO or a socket, else 1. */
int pm_out_exit(int r);
/* Commit the output; exit 1 on failure. */
void pm_tool_out_done(struct pm_tool *t, struct pm_out *o);

/* "TOOL: message" on stderr. */
void pm_warn(const struct pm_tool *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Same, unless --quiet. */
void pm_note(const struct pm_tool *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "TOOL: message" and exit code. */
void pm_die(const struct pm_tool *t, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
/* "TOOL: message" + "Try 'TOOL --help' ...", exit 2. */
void pm_usage_error(const struct pm_tool *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/*
 * Describe an error record: "FILE: Invalid argument (EINVAL); hint" into
 * buf.  With a value: "cannot write 'V' to FILE: ...".
 */
const char *pm_err_str(const struct pm_err *e, char *buf, size_t size);
/* The symbolic name of an errno ("EBUSY"). */
const char *pm_errno_name(int err);
/*
 * The exit status an errno deserves before anything was written: EBUSY 4,
 * ENOENT/ENODEV/EOPNOTSUPP 3 (not offered here), else 1.  After a write,
 * a failure is 1 whatever the errno (CLI.md).
 */
int pm_exit_for(int err);

/* ---------------------------------------------------------------- writer */

/* The writers' lock (CLI.md): pmctl and opp-set never interleave. */
#define PM_WRITER_LOCK "/run/opp-set.lock"

/*
 * A write of pmctl or opp-set: pm_writer_begin takes the lock (exit 4
 * when held, unless --dry-run) and restores the journal of a writer that
 * died mid-apply, each pm_writer_plan adds a file (exit 3 when it is not
 * there), and pm_writer_commit applies all of it or nothing, reports,
 * and returns the exit status.  From the first write to the last
 * read-back the old values are in the journal and a stop signal rolls
 * the writes back (exit 1).
 */
struct pm_writer {
	struct pm_tool *t;
	struct pm_ctx *ctx;
	struct pm_out *o;
	struct pm_txn txn;
	int lockfd;
	bool lock_denied;	/* no right to the lock: not root */
	bool perm_ok;		/* EPERM is the kernel's refusal, not root */
	bool diff;		/* dry-run lines "PATH: OLD -> NEW" */
	int code;		/* the exit status of a stage that failed */
	const char *name;	/* "name" of the JSON report, NULL none */
	void *arg;		/* the tool's own */
	/* A value read back other than written (NULL: a plain warning). */
	void (*explain)(struct pm_writer *w, const struct pm_write *x);
	/* The message for the failed write (NULL: the file and errno). */
	void (*explain_fail)(struct pm_writer *w, const struct pm_write *x,
			     char *buf, size_t size);
	/* Called under the lock once every write is made and the journal
	 * is gone, before the report (opp-set records the point). */
	void (*on_applied)(struct pm_writer *w);
	struct pm_stop stop;	/* stop signals caught from the first write */
	struct pm_journal journal;
	struct pm_recovery rec;	/* what pm_writer_begin found and restored */
};

void pm_writer_begin(struct pm_writer *w, struct pm_tool *t,
		     struct pm_ctx *ctx, struct pm_out *o);
/* old NULL: read the file now. Returns the write's index. */
int pm_writer_plan(struct pm_writer *w, const char *path, const char *old,
		   const char *value, unsigned flags, void *tag);
/*
 * Apply what is planned so far, before planning more on what it made (a
 * driver's status, CPUs brought online).  Returns 0, or the exit status
 * of a failed write after the rollback (then commit only reports).
 * Until commit, an error that pm_die reports (a later stage that cannot
 * be planned) first undoes these writes and says so; its exit status
 * stays unless something could not be restored (then 1).
 */
int pm_writer_apply(struct pm_writer *w);
/*
 * Apply the rest, end the transaction (the journal removed), report, and
 * release the lock; returns the exit status.  A report that cannot be
 * written is exit 1 after saying whether the machine was changed.
 */
int pm_writer_commit(struct pm_writer *w);
/*
 * What pm_writer_begin does once it holds the lock (pmctl recover calls
 * it for a dry run): restore the journal a dead writer left (w->rec) and
 * say what was done.  Returns 0, or 1 when a file of it stays changed;
 * a journal that cannot be read or does not parse is exit 1.
 */
int pm_writer_recover(struct pm_writer *w);

/* ---------------------------------------------------------------- fset */

/* The kernel reads governor names with "%15s" (CPUFREQ_NAME_LEN - 1). */
#define PM_GOV_NAME_MAX 15

/* A cpufreq policy change of pmctl freq set or an opp-set point. */
struct pm_fset {
	const char *governor;	/* NULL: unchanged */
	bool has_min, has_max, has_speed;
	uint64_t min, max, speed;	/* kHz */
	const char *epp;	/* NULL: unchanged */
	bool keys;		/* name them "min", not "--min", in errors */
	const char *where;	/* "FILE:LINE: " before errors, or NULL */
};

/* "policy0 (cpus 0-3)" for messages. */
const char *pm_policy_name(const struct pm_policy *pol, char *buf,
			   size_t size);
/* Letters, digits, '_' and '-', 1 to max characters. */
bool pm_fset_name_ok(const char *s, size_t max);
/* The word of a "a [b] c" list equal to w ignoring case (the kernel's
 * match), copied to out. */
bool pm_word_find(const char *list, const char *w, char *out, size_t size);
/* Everything checked before the first write: dies with exit 2 or 3.
 * gov gets the kernel's spelling of the governor ("" unchanged). */
void pm_fset_check(struct pm_tool *t, const struct pm_fset *f,
		   const struct pm_policy *pol, char *gov, size_t govsize);
/* The writes in a safe order: governor, the limits, speed, EPP. */
void pm_fset_plan(struct pm_writer *w, const struct pm_fset *f,
		  struct pm_policy *pol, const char *gov);
/* "1.2 GHz" for a whole number of kHz, else "1234 Hz". */
char *pm_fmt_hz(uint64_t hz, char *buf, size_t size);
/* A devfreq device's governor (NULL unchanged), min and max (Hz, 0
 * unchanged): checked against what it offers (exit 3, or 2 for a value
 * outside its frequencies), then planned with min never above max.
 * where: "FILE:LINE: " of a point, which names keys not options. */
void pm_devfreq_plan(struct pm_writer *w, const struct pm_devfreq *d,
		     const char *gov, uint64_t min, uint64_t max,
		     const char *where);

/* ------------------------------------------------ planners (lib/plan.c) */

/* The platform profile NAME checked against what the firmware offers
 * (exit 3, 1 when it cannot be read) and planned; where goes before
 * every error. */
void pm_profile_plan(struct pm_writer *w, const char *name,
		     const char *where);

enum { PM_CHARGE_START, PM_CHARGE_STOP, PM_CHARGE_BEHAVIOUR, PM_CHARGE_N };

/* A battery's charge settings of pmctl supply set or an opp-set point. */
struct pm_charge {
	const char *name;		/* BAT0 */
	bool has_start, has_stop;
	unsigned start, stop;		/* % */
	const char *behaviour;		/* NULL: unchanged */
	bool keys;	/* name them "charge_start", not "--charge-start" */
	const char *where;		/* before errors of the whole, or NULL */
	const char *where_key[PM_CHARGE_N];	/* before a setting's errors */
};

/* Checked against the battery before any write (exit 2 or 3, 1 for a
 * file there that cannot be read), then planned with start below stop
 * on the way too. */
void pm_charge_plan(struct pm_writer *w, const struct pm_charge *c);
/* What c sets as record lines into v[PM_CHARGE_N]: the count. */
int pm_charge_record(const struct pm_charge *c, struct pm_supply_set *v);

#endif /* PM_H */
