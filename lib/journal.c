// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The writers' journal: the old value of every file a setter may change,
 * on disk before its first write, so that a setter killed half way
 * (SIGKILL, a crash) is undone by the next one that takes the lock.
 *
 * PM_JOURNAL under the system root, version 1: text, one record a line,
 * fields split by one space; in a field a space, a backslash and every
 * byte outside '!'..'~' is written \ooo (three octal digits):
 *
 *   pmtools-journal 1
 *   pid 1234              the writer
 *   tool opp-set
 *   boot 5b0e...-...      /proc/sys/kernel/random/boot_id, "-" unreadable
 *   time 1718000000       when it was written (seconds since the epoch)
 *   w PATH OLD            put OLD back if PATH reads otherwise
 *   c PATH OLD            the same, PATH reading "a [b] c" (b is current)
 *   o PATH OLD            the same, or PATH reading "b" alone (the files
 *                         of /sys/power pm-suspend writes: PM_W_SELECTED)
 *   s PATH OLD            a snapshot: the same, if PATH is still there
 *   u PATH                a file whose old value could not be read
 *   n IFNAME OLD          put the Wi-Fi power save of interface IFNAME
 *                         back to OLD (on, off) through nl80211
 *   end N                 N records above; without it the file is cut
 *
 * Records are in the order of the writes; recovery walks them backwards
 * (as a rollback does), writing only the files that read otherwise than
 * their old value, so that it does not matter how far the writer got.
 * The file is made as PM_JOURNAL.new, synced, renamed over PM_JOURNAL,
 * and the folder synced: a journal is there whole or not at all.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "journal.h"
#include "core.h"
#include "txn.h"
#include "nl80211.h"
#include "parse.h"

/* The name of the file in PM_STATE_DIR, and of the one being made. */
static const char *base(const char *file)
{
	return strrchr(file, '/') + 1;
}

static void new_name(const char *file, char *buf, size_t size)
{
	snprintf(buf, size, "%s.new", base(file));
}
#define BOOT_ID "/proc/sys/kernel/random/boot_id"
#define MAGIC "pmtools-journal"
/* A record is at most a path and a value, each escaped 4 bytes a byte:
 * 8192 CPUs with 20 files each stay well below this. */
#define JOURNAL_MAX (64L << 20)
/* The boot id: a UUID, 36 characters. */
#define BOOT_LEN 36

void pm_journal_init(struct pm_journal *j, struct pm_ctx *ctx,
		     const char *tool)
{
	memset(j, 0, sizeof(*j));
	j->ctx = ctx;
	j->tool = tool;
	j->file = PM_JOURNAL;
	j->dirfd = -1;
}

void pm_journal_close(struct pm_journal *j)
{
	if (j->dirfd >= 0)
		close(j->dirfd);
	j->dirfd = -1;
}

static bool boot_ok(const char *s)
{
	size_t n = strlen(s);

	if (n != BOOT_LEN)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') ||
		      (s[i] >= 'a' && s[i] <= 'f') || s[i] == '-'))
			return false;
	return true;
}

/* This boot's id into buf ("-" when it cannot be read). */
static void boot_id(struct pm_ctx *ctx, char *buf, size_t size)
{
	struct pm_err keep = ctx->err;

	if (pm_attr_read(ctx, BOOT_ID, buf, size) < 0 || !boot_ok(buf))
		snprintf(buf, size, "-");
	ctx->err = keep;
}

/* The folder, made if need be (a tree for tests may lack it). */
static int state_dir(struct pm_ctx *ctx, bool create)
{
	int fd = pm_open(ctx, PM_STATE_DIR, O_RDONLY | O_DIRECTORY);
	int run;

	if (fd != -ENOENT || !create)
		return fd;
	run = pm_open(ctx, "/run", O_RDONLY | O_DIRECTORY);
	if (run < 0)
		return run;
	if (mkdirat(run, "pmtools", 0755) < 0 && errno != EEXIST) {
		fd = -errno;
		close(run);
		return fd;
	}
	fd = pm_openat(ctx, run, "pmtools",
		       O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
	close(run);
	return fd;
}

/* ---------------------------------------------------------------- write */

/* The kind of record write w needs, 0 none. */
static char kind_of(const struct pm_write *w)
{
	if (w->flags & PM_W_RESTORE)
		return 's';
	/* Not read yet: the journal is written again before it is. */
	if (w->flags & PM_W_LATE)
		return 0;
	/* Undone with an earlier write (a governor), or never written. */
	if ((w->flags & PM_W_NOUNDO) || w->skip)
		return 0;
	if (w->kind == PM_WK_WIFI_PS)
		return 'n';
	if ((w->flags & PM_W_NOREAD) || !w->old[0])
		return 'u';
	if (!(w->flags & PM_W_CHOICE))
		return 'w';
	return w->flags & PM_W_SELECTED ? 'o' : 'c';
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The text goes to the file as it is made, a block at a time, instead of
 * whole in memory first (110 kB at 1024 CPUs): one write() for a journal
 * of up to JOUT_SIZE bytes, as before, a few beyond.  write() itself, not
 * stdio, so that the fault shim sees each one.
 */
#define JOUT_SIZE 32768

struct jout {
	int fd;
	int err;		/* the first failed write's -errno, 0 */
	size_t len;		/* bytes in buf */
	char buf[JOUT_SIZE];
};

static void jflush(struct jout *o)
{
	if (!o->err && o->len)
		o->err = write_all(o->fd, o->buf, o->len);
	o->len = 0;
}

static void jput(struct jout *o, const char *s, size_t n)
{
	while (n) {
		size_t k = sizeof(o->buf) - o->len;

		if (k > n)
			k = n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
		if (o->len == sizeof(o->buf))
			jflush(o);
	}
}

static void jputc(struct jout *o, char c)
{
	jput(o, &c, 1);
}

static void put_field(struct jout *o, const char *s)
{
	jputc(o, ' ');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p > '~' || *p == '\\') {
			/* \ooo: three octal digits. */
			char e[4] = { '\\', (char)('0' + (*p >> 6)),
				      (char)('0' + ((*p >> 3) & 7)),
				      (char)('0' + (*p & 7)) };

			jput(o, e, sizeof(e));
		} else {
			jputc(o, (char)*p);
		}
	}
}

/* The journal's text to o->fd; 0 or the first write's -errno. */
static int text(struct pm_journal *j, const struct pm_txn *t,
		struct jout *o)
{
	char line[256];
	int n = 0, k;

	k = snprintf(line, sizeof(line),
		     MAGIC " %d\npid %ld\ntool %s\nboot %s\ntime %lld\n",
		     PM_JOURNAL_VERSION, (long)getpid(), j->tool, j->boot,
		     (long long)time(NULL));
	if (k < 0 || (size_t)k >= sizeof(line))
		return -ENAMETOOLONG;
	jput(o, line, (size_t)k);
	for (int i = 0; i < t->n; i++) {
		const struct pm_write *w = &t->w[i];
		char kind = kind_of(w);

		if (!kind)
			continue;
		jputc(o, kind);
		put_field(o, kind == 'n' ? w->target : w->path);
		if (kind != 'u')
			put_field(o, w->old);
		jputc(o, '\n');
		n++;
	}
	k = snprintf(line, sizeof(line), "end %d\n", n);
	jput(o, line, (size_t)k);
	jflush(o);
	return o->err;
}

static int fail(struct pm_journal *j, int err)
{
	return pm_err_set(j->ctx, "write", j->file, "", err, NULL);
}

int pm_journal_write(struct pm_journal *j, const struct pm_txn *t)
{
	struct jout *o;
	char tmp[64];
	int fd, r;

	new_name(j->file, tmp, sizeof(tmp));
	r = pm_write_allowed(j->ctx, j->file);
	if (r < 0)
		return r;
	if (j->dirfd < 0) {
		j->dirfd = state_dir(j->ctx, true);
		if (j->dirfd < 0) {
			r = -j->dirfd;
			j->dirfd = -1;
			return fail(j, r);
		}
	}
	if (!j->boot[0])
		boot_id(j->ctx, j->boot, sizeof(j->boot));
	o = malloc(sizeof(*o));
	if (!o)
		return fail(j, ENOMEM);
	fd = openat(j->dirfd, tmp,
		    O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		r = errno;
		free(o);
		return fail(j, r);
	}
	o->fd = fd;
	o->err = 0;
	o->len = 0;
	r = text(j, t, o);
	free(o);
	if (!r && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && !r && errno != EINTR)
		r = -errno;
	if (!r && renameat(j->dirfd, tmp, j->dirfd, base(j->file)) < 0)
		r = -errno;
	if (r < 0) {
		unlinkat(j->dirfd, tmp, 0);
		return fail(j, -r);
	}
	/* The rename itself on disk before the first write. */
	if (fsync(j->dirfd) < 0 && errno != EINVAL)
		return fail(j, errno);
	j->live = true;
	return 0;
}

int pm_journal_remove(struct pm_journal *j)
{
	if (!j->live)
		return 0;
	if (unlinkat(j->dirfd, base(j->file), 0) < 0 && errno != ENOENT)
		return pm_err_set(j->ctx, "remove", j->file, "", errno, NULL);
	j->live = false;
	if (fsync(j->dirfd) < 0 && errno != EINVAL)
		return pm_err_set(j->ctx, "remove", j->file, "", errno, NULL);
	return 0;
}

/* ---------------------------------------------------------------- read */

struct parser {
	char *p, *end;		/* the text not parsed yet */
	unsigned line;
	struct pm_recovery *r;
};

static int bad(struct parser *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(struct parser *ps, const char *fmt, ...)
{
	struct pm_recovery *r = ps->r;
	int n = snprintf(r->why, sizeof(r->why), "line %u: ", ps->line);
	va_list ap;

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < sizeof(r->why))
		vsnprintf(r->why + n, sizeof(r->why) - (size_t)n, fmt, ap);
	va_end(ap);
	r->bad = true;
	return -EINVAL;
}

/* The next line, NUL-terminated in place; NULL at the end. */
static char *next_line(struct parser *ps)
{
	char *s = ps->p, *nl;

	/* At the end too: the line that is missing is named. */
	ps->line++;
	if (s >= ps->end)
		return NULL;
	nl = memchr(s, '\n', (size_t)(ps->end - s));
	if (!nl) {
		/* Only a cut journal ends without a newline. */
		ps->p = ps->end;
		return NULL;
	}
	*nl = '\0';
	ps->p = nl + 1;
	return s;
}

/* Field *s (up to a space or the end) unescaped into out; false when it
 * is empty, too long, or not as pm_journal_write writes it. */
static bool field(char **s, char *out, size_t size)
{
	char *p = *s;
	size_t n = 0;

	if (*p != ' ')
		return false;
	p++;
	for (; *p && *p != ' '; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < '!' || c > '~')
			return false;
		if (c == '\\') {
			unsigned v = 0;

			for (int k = 1; k <= 3; k++) {
				if (p[k] < '0' || p[k] > '7')
					return false;
				v = v * 8 + (unsigned)(p[k] - '0');
			}
			if (v == 0 || v > 0xff)
				return false;
			c = (unsigned char)v;
			p += 3;
		}
		if (n + 1 >= size)
			return false;
		out[n++] = (char)c;
	}
	if (!n)
		return false;
	out[n] = '\0';
	*s = p;
	return true;
}

/* "KEY value" with value a number in [min, max]. */
static bool number_line(char *s, const char *key, long long min,
			long long max, long long *v)
{
	size_t k = strlen(key);
	char *end;

	if (strncmp(s, key, k) || s[k] != ' ' || s[k + 1] < '0' ||
	    s[k + 1] > '9')
		return false;
	errno = 0;
	*v = strtoll(s + k + 1, &end, 10);
	return !errno && !*end && *v >= min && *v <= max;
}

/* A system path a setter writes: below /sys, without ".." or ".". */
static bool path_ok(const char *p)
{
	if (strncmp(p, "/sys/", 5))
		return false;
	for (const char *c = p; (c = strchr(c, '/')); c++) {
		const char *e = c + 1;
		size_t n = strcspn(e, "/");

		if (n == 0 || (n == 1 && e[0] == '.') ||
		    (n == 2 && e[0] == '.' && e[1] == '.'))
			return false;
	}
	return true;
}

/* "n IFNAME OLD": the interface and on or off, nothing after. */
static int wifi_record(struct pm_jfile *x, char **f)
{
	if (!field(f, x->ifname, sizeof(x->ifname)) ||
	    !pm_ifname_ok(x->ifname) || !field(f, x->old, sizeof(x->old)) ||
	    (strcmp(x->old, "on") && strcmp(x->old, "off")) || **f)
		return -EINVAL;
	pm_wifi_ps_name(x->ifname, x->path, sizeof(x->path));
	return 0;
}

static int parse_header(struct parser *ps)
{
	struct pm_recovery *r = ps->r;
	char *s = next_line(ps), *f;
	long long v;

	if (!s || strncmp(s, MAGIC " ", sizeof(MAGIC)))
		return bad(ps, "not a pmtools journal");
	if (!number_line(s, MAGIC, 1, INT_MAX, &v))
		return bad(ps, "no version number");
	if (v != PM_JOURNAL_VERSION)
		return bad(ps, "version %lld, which this pmtools does not "
			       "know (it writes %d)",
			   v, PM_JOURNAL_VERSION);
	s = next_line(ps);
	if (!s || !number_line(s, "pid", 1, INT_MAX, &v))
		return bad(ps, "no 'pid N'");
	r->pid = (long)v;
	s = next_line(ps);
	f = s ? s + 4 : NULL;
	if (!s || strncmp(s, "tool", 4) ||
	    !field(&f, r->tool, sizeof(r->tool)) || *f ||
	    !pm_fset_name_ok(r->tool, PM_NAME_MAX - 1))
		return bad(ps, "no 'tool NAME'");
	s = next_line(ps);
	if (!s || strncmp(s, "boot ", 5) ||
	    (strcmp(s + 5, "-") && !boot_ok(s + 5)))
		return bad(ps, "no 'boot ID'");
	snprintf(r->boot, sizeof(r->boot), "%s", s + 5);
	s = next_line(ps);
	if (!s || !number_line(s, "time", 0, LLONG_MAX, &v))
		return bad(ps, "no 'time SECONDS'");
	r->time = v;
	return 0;
}

static int parse_records(struct parser *ps)
{
	struct pm_recovery *r = ps->r;
	int cap = 0;
	long long v;
	char *s;

	while ((s = next_line(ps))) {
		struct pm_jfile *x;
		char *f = s + 1;

		if (!strncmp(s, "end ", 4)) {
			if (!number_line(s, "end", 0, INT_MAX, &v) ||
			    v != r->n)
				return bad(ps, "'end' does not count the "
					       "records above");
			if (ps->p < ps->end)
				return bad(ps, "text after 'end'");
			return 0;
		}
		if (!strchr("wcosun", s[0]) || !s[0] || s[1] != ' ')
			return bad(ps, "not a record");
		if (r->n == cap) {
			int ncap = cap ? cap * 2 : 32;
			void *p = realloc(r->f, (size_t)ncap * sizeof(*r->f));

			if (!p)
				return -ENOMEM;
			r->f = p;
			cap = ncap;
		}
		x = &r->f[r->n];
		memset(x, 0, sizeof(*x));
		x->kind = s[0];
		if (x->kind == 'n') {
			if (wifi_record(x, &f) < 0)
				return bad(ps, "not an interface's power save "
					       "(on or off)");
			r->n++;
			continue;
		}
		if (!field(&f, x->path, sizeof(x->path)) || !path_ok(x->path))
			return bad(ps, "not a path below /sys");
		if (x->kind != 'u' && !field(&f, x->old, sizeof(x->old)))
			return bad(ps, "no old value");
		if (*f)
			return bad(ps, "more fields than a record has");
		r->n++;
	}
	return bad(ps, "no 'end N': the journal is cut short");
}

/* The file, read whole if it is what a writer makes: a regular file of
 * ours or root's that no one else may write, in such a folder. */
static int load(struct pm_ctx *ctx, int dirfd, struct pm_recovery *r,
		char **text, size_t *len)
{
	struct stat st, dst;
	int fd = pm_openat(ctx, dirfd, base(r->file),
			   O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	size_t got = 0;
	char *buf;

	if (fd == -ENOENT)
		return 0;
	r->found = true;
	if (fd == -ELOOP) {
		snprintf(r->why, sizeof(r->why), "a symbolic link");
		r->bad = true;
		return 0;
	}
	if (fd < 0)
		return pm_err_set(ctx, "read", r->file, NULL, -fd, NULL);
	if (fstat(fd, &st) < 0 || fstat(dirfd, &dst) < 0) {
		int e = errno;

		close(fd);
		return pm_err_set(ctx, "read", r->file, NULL, e, NULL);
	}
	if (!S_ISREG(st.st_mode) || st.st_size > JOURNAL_MAX ||
	    (st.st_uid != 0 && st.st_uid != geteuid()) ||
	    (st.st_mode & 022) ||
	    (dst.st_uid != 0 && dst.st_uid != geteuid()) ||
	    (dst.st_mode & 022)) {
		snprintf(r->why, sizeof(r->why), "%s",
			 !S_ISREG(st.st_mode) ? "not a regular file" :
			 st.st_size > JOURNAL_MAX ?
						"larger than a journal can be" :
						"it or its folder could be "
						"written by another user");
		r->bad = true;
		close(fd);
		return 0;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			close(fd);
			return pm_err_set(ctx, "read", r->file, NULL, e,
					  NULL);
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	close(fd);
	buf[got] = '\0';
	*text = buf;
	*len = got;
	return 0;
}

/* ---------------------------------------------------------------- restore */

/* What path reads now (the bracketed word of a choice file). */
static int reads(struct pm_ctx *ctx, const struct pm_jfile *x, char *buf,
		 size_t size)
{
	char list[PM_ATTR_MAX];
	ssize_t n;
	bool on;

	if (x->kind == 'n') {
		n = pm_wifi_ps_get(ctx, x->ifname, &on);
		if (n == 0)
			snprintf(buf, size, "%s", on ? "on" : "off");
		return (int)n;
	}
	if (x->kind != 'c' && x->kind != 'o') {
		n = pm_attr_read(ctx, x->path, buf, size);
		return n < 0 ? (int)n : 0;
	}
	n = pm_attr_read(ctx, x->path, list, sizeof(list));
	if (n < 0)
		return (int)n;
	pm_choice_current(list, buf, size);
	/* A plain file standing for the list (a kernel of one choice). */
	if (x->kind == 'o' && !buf[0] && list[0] && !strpbrk(list, " \t[]") &&
	    (size_t)n < size)
		memcpy(buf, list, (size_t)n + 1);
	return 0;
}

/*
 * Restore x.  In a dry run nothing is written, so a file the journal
 * names twice would be seen as the dead writer left it both times:
 * later, the same file's record just restored (in a real run), gives
 * what it would read instead.
 */
static void restore(struct pm_ctx *ctx, struct pm_recovery *r,
		    struct pm_jfile *x, const struct pm_jfile *later)
{
	int e;

	if (x->kind == 'u') {
		x->err = ENODATA;
		r->failed++;
		return;
	}
	if (later && (later->changed || later->was[0])) {
		snprintf(x->was, sizeof(x->was), "%s",
			 later->changed ? later->old : later->was);
		e = 0;
	} else if (later) {
		e = -ENOENT;
	} else {
		e = reads(ctx, x, x->was, sizeof(x->was));
	}
	if (e < 0) {
		x->was[0] = '\0';
		/* A snapshot's file goes with its governor: nothing to do. */
		if (x->kind == 's')
			return;
		x->err = -e;
		r->failed++;
		return;
	}
	if (!strcmp(x->was, x->old))
		return;
	x->changed = true;
	r->changed++;
	if (ctx->dry_run)
		return;
	e = x->kind == 'n' ? pm_wifi_ps_set(ctx, x->ifname,
					    !strcmp(x->old, "on")) :
			     pm_attr_write(ctx, x->path, x->old);
	/* A CPU brought back, a driver switched: folders may be new. */
	pm_ctx_forget_near(ctx);
	if (e < 0) {
		x->err = -e;
		r->failed++;
		return;
	}
	if (reads(ctx, x, x->got, sizeof(x->got)) < 0)
		x->got[0] = '\0';
	if (strcmp(x->got, x->old)) {
		x->err = -1;
		r->failed++;
		return;
	}
	x->restored = true;
	r->restored++;
}

struct by_path {
	const char *path;
	int i;
};

static int by_path_cmp(const void *a, const void *b)
{
	const struct by_path *x = a, *y = b;
	int c = strcmp(x->path, y->path);

	return c ? c : x->i - y->i;
}

/* For each record, 1 + the index of the next one of the same file (0
 * none): NULL when out of memory (then a dry run reads every file as
 * it is). */
static int *next_same(const struct pm_recovery *r)
{
	struct by_path *v = calloc((size_t)r->n + 1, sizeof(*v));
	int *next = calloc((size_t)r->n + 1, sizeof(*next));

	if (!v || !next) {
		free(v);
		free(next);
		return NULL;
	}
	for (int i = 0; i < r->n; i++) {
		v[i].path = r->f[i].path;
		v[i].i = i;
	}
	qsort(v, (size_t)r->n, sizeof(*v), by_path_cmp);
	for (int k = 0; k + 1 < r->n; k++)
		if (!strcmp(v[k].path, v[k + 1].path))
			next[v[k].i] = v[k + 1].i + 1;
	free(v);
	return next;
}

void pm_recovery_free(struct pm_recovery *r)
{
	free(r->f);
	r->f = NULL;
	r->n = 0;
}

int pm_journal_recover(struct pm_ctx *ctx, struct pm_recovery *r)
{
	return pm_journal_recover_file(ctx, PM_JOURNAL, r);
}

int pm_journal_recover_file(struct pm_ctx *ctx, const char *file,
			    struct pm_recovery *r)
{
	struct pm_err keep;
	struct parser ps;
	char *buf = NULL, now[40], tmp[64];
	size_t len = 0;
	int dirfd, e;

	memset(r, 0, sizeof(*r));
	r->file = file;
	new_name(file, tmp, sizeof(tmp));
	dirfd = state_dir(ctx, false);
	if (dirfd == -ENOENT)
		return 0;
	if (dirfd < 0)
		return pm_err_set(ctx, "open", PM_STATE_DIR, NULL, -dirfd,
				  NULL);
	/* A journal being made when its writer died: never renamed, never
	 * used; it goes. */
	if (!ctx->dry_run)
		unlinkat(dirfd, tmp, 0);
	e = load(ctx, dirfd, r, &buf, &len);
	if (e < 0 || !buf) {
		close(dirfd);
		return e;
	}
	memset(&ps, 0, sizeof(ps));
	ps.p = buf;
	ps.end = buf + len;
	ps.r = r;
	e = parse_header(&ps);
	boot_id(ctx, now, sizeof(now));
	/* After a reboot the kernel's values are its own (or what the boot
	 * set): the old values of the last boot are not to be written. */
	if (!e && strcmp(r->boot, "-") && strcmp(now, "-") &&
	    strcmp(r->boot, now)) {
		r->earlier_boot = true;
	} else if (!e) {
		e = parse_records(&ps);
	}
	free(buf);
	if (e == -ENOMEM) {
		close(dirfd);
		pm_recovery_free(r);
		return pm_err_set(ctx, "read", r->file, NULL, ENOMEM, NULL);
	}
	if (r->bad) {
		/* Nothing of it is restored: half a journal is not a state
		 * the machine was ever in. */
		pm_recovery_free(r);
		close(dirfd);
		return 0;
	}
	keep = ctx->err;
	if (!r->earlier_boot) {
		int *next = ctx->dry_run ? next_same(r) : NULL;

		for (int i = r->n - 1; i >= 0; i--)
			restore(ctx, r, &r->f[i],
				next && next[i] ? &r->f[next[i] - 1] : NULL);
		free(next);
	}
	ctx->err = keep;
	if (!ctx->dry_run) {
		if (unlinkat(dirfd, base(file), 0) < 0)
			r->remove_err = errno == ENOENT ? 0 : errno;
		if (!r->remove_err && fsync(dirfd) < 0 && errno != EINVAL)
			r->remove_err = errno;
	}
	close(dirfd);
	return 0;
}
