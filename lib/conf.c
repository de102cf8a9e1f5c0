// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Configuration files without a shell: "[section]" headers, "key = value"
 * lines, full-line '#' and ';' comments, every line numbered for errors.
 * As root, a file that someone else could have written is not read.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf.h"
#include "core.h"

static int fail(struct pm_conf *c, unsigned line, int err, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));

static int fail(struct pm_conf *c, unsigned line, int err, const char *fmt,
		...)
{
	va_list ap;

	c->errline = line;
	va_start(ap, fmt);
	vsnprintf(c->errmsg, sizeof(c->errmsg), fmt, ap);
	va_end(ap);
	return -err;
}

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*e = '\0';
	return s;
}

/* "value" or 'value' lose their quotes: pm-utils files often have them. */
static char *unquote(char *v)
{
	size_t l = strlen(v);

	if (l >= 2 && (v[0] == '"' || v[0] == '\'') && v[l - 1] == v[0]) {
		v[l - 1] = '\0';
		return v + 1;
	}
	return v;
}

/* No control character but a tab in a line. */
static int conf_chars(struct pm_conf *c, const char *line, unsigned lineno)
{
	for (const char *q = line; *q; q++)
		if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f)
			return fail(c, lineno, EINVAL,
				    "control character 0x%02x",
				    (unsigned char)*q);
	return 0;
}

/* "[name]": *section becomes name, cut in place. */
static int conf_section(struct pm_conf *c, char *line, unsigned lineno,
			char **section)
{
	char *close = strrchr(line, ']');

	if (!close || close[1])
		return fail(c, lineno, EINVAL,
			    "a section header must end with ']'");
	*close = '\0';
	*section = trim(line + 1);
	if (!**section)
		return fail(c, lineno, EINVAL, "empty section name");
	return 0;
}

/* "key = value", added to the lines (*cap of them room). */
static int conf_pair(struct pm_conf *c, char *line, unsigned lineno,
		     char *section, int *cap)
{
	char *eq = strchr(line, '=');

	/* Never the line itself: -f may name a file of secrets. */
	if (!eq)
		return fail(c, lineno, EINVAL,
			    "expected 'key = value' or a [section]");
	*eq = '\0';
	char *key = trim(line), *value = unquote(trim(eq + 1));

	if (!*key)
		return fail(c, lineno, EINVAL, "a key is missing before '='");
	if (c->n == *cap) {
		int ncap = *cap ? *cap * 2 : 32;
		struct pm_conf_line *nl =
			realloc(c->lines, (size_t)ncap * sizeof(*nl));

		if (!nl)
			return fail(c, lineno, ENOMEM, "out of memory");
		c->lines = nl;
		*cap = ncap;
	}
	c->lines[c->n].lineno = lineno;
	c->lines[c->n].section = section;
	c->lines[c->n].key = key;
	c->lines[c->n].value = value;
	c->n++;
	return 0;
}

int pm_conf_parse(const char *name, char *text, size_t len,
		  struct pm_conf *c)
{
	char *section = (char *)"";
	unsigned lineno = 0;
	int cap = 0, r;
	char *p, *end;

	memset(c, 0, sizeof(*c));
	/*
	 * Lines are cut in place and the last one may end at text + len:
	 * make room for its NUL rather than write past the caller's buffer.
	 */
	char *t = realloc(text, len + 1);

	if (!t) {
		c->text = text;
		return fail(c, 0, ENOMEM, "out of memory");
	}
	text = t;
	text[len] = '\0';
	p = text;
	end = text + len;
	c->text = text;
	c->path = strdup(name);
	if (!c->path)
		return fail(c, 0, ENOMEM, "out of memory");
	if (memchr(text, '\0', len))
		return fail(c, 0, EINVAL, "the file contains a NUL byte");
	while (p < end) {
		char *eol = memchr(p, '\n', (size_t)(end - p));
		char *line;

		lineno++;
		if (!eol)
			eol = end;
		if ((size_t)(eol - p) > PM_CONF_LINE_MAX)
			return fail(c, lineno, EINVAL,
				    "line longer than %d bytes",
				    PM_CONF_LINE_MAX);
		*eol = '\0';
		line = trim(p);
		p = eol + 1;
		r = conf_chars(c, line, lineno);
		if (r)
			return r;
		if (!*line || *line == '#' || *line == ';')
			continue;
		r = *line == '[' ? conf_section(c, line, lineno, &section) :
				   conf_pair(c, line, lineno, section, &cap);
		if (r)
			return r;
	}
	return 0;
}

/*
 * Read until EOF but never past PM_CONF_MAX + 1 bytes, enough to tell a
 * file too big: "/dev/zero" or a runaway pipe must not eat the memory.
 */
static ssize_t read_conf(int fd, char **buf)
{
	size_t len = 0, cap = 0;

	*buf = NULL;
	for (;;) {
		ssize_t n;

		if (cap - len < 2) {
			size_t ncap = cap ? cap * 2 : 16384;
			char *nb;

			if (ncap > (size_t)PM_CONF_MAX + 2)
				ncap = (size_t)PM_CONF_MAX + 2;
			nb = realloc(*buf, ncap);
			if (!nb)
				return -ENOMEM;
			*buf = nb;
			cap = ncap;
		}
		n = read(fd, *buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		len += (size_t)n;
		if (n == 0 || len > PM_CONF_MAX)
			break;
	}
	(*buf)[len] = '\0';
	return (ssize_t)len;
}

/*
 * As root, a configuration file chooses what root writes to /sys: one
 * that anyone but root could change is refused, as hooks are (hooks.c).
 * The fd that is read is the one checked, so the file cannot be swapped
 * between the check and the read.  No folder the lookup went through
 * may let others swap a name in it either, the folder of the file read
 * first (through a symlink that is where the link leads, not where the
 * link is): not owned by root, or writable by group or others, is
 * refused, unless the sticky bit keeps others from renaming or removing
 * root's files there (/tmp).
 */
static bool unsafe_file(const struct stat *st)
{
	return st->st_uid != 0 || (st->st_mode & (S_IWGRP | S_IWOTH));
}

static bool unsafe_dir(const struct stat *st)
{
	return st->st_uid != 0 || ((st->st_mode & (S_IWGRP | S_IWOTH)) &&
				   !(st->st_mode & S_ISVTX));
}

static int refuse(struct pm_conf *c, const char *why, const struct stat *st)
{
	return fail(c, 0, EPERM, "refusing to read it as root: %s (mode %04o, "
				 "uid %u)",
		    why, (unsigned)(st->st_mode & 07777),
		    (unsigned)st->st_uid);
}

/* The first folder on the way that others could change. */
struct way {
	bool bad;
	struct stat st;
	char path[PM_PATH_MAX];
};

static int check_way(void *arg, int dirfd)
{
	struct way *w = arg;
	struct stat st;
	char proc[64];
	ssize_t n;

	if (w->bad)
		return 0;
	if (fstat(dirfd, &st) < 0)
		return -errno;
	if (!unsafe_dir(&st))
		return 0;
	w->bad = true;
	w->st = st;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dirfd);
	n = readlink(proc, w->path, sizeof(w->path) - 1);
	w->path[n > 0 ? n : 0] = '\0';
	return 0;
}

/* What a file that is not a regular one is, for the message. */
static const char *kind_of(mode_t m)
{
	const char *k = pm_odd_kind(m);

	return k ? k : S_ISDIR(m) ? "a folder" : "not a regular file";
}

/*
 * Open a configuration file without blocking (a FIFO would block the
 * open itself, before any check), as root through pm_walk_open so that
 * every folder on its way is checked.  Returns the fd or -errno with the
 * message in c.
 */
static int open_conf(struct pm_ctx *ctx, const char *path, struct pm_conf *c)
{
	const int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC;
	struct way way = { .bad = false };
	struct pm_walk w = {
		.mode = ctx && !ctx->real_root ? PM_WALK_IN_ROOT :
						 PM_WALK_HOST,
		.check_dir = check_way,
		.arg = &way,
		.want_parent = true,
	};
	struct stat st, pst;
	int fd;

	if (geteuid() != 0) {
		fd = ctx ? pm_openat_any(ctx, ctx->rootfd, path, flags) :
			   open(path, flags | O_CLOEXEC);
		if (!ctx && fd < 0)
			fd = -errno;
		if (fd < 0)
			return fail(c, 0, -fd, "%s", strerror(-fd));
		return fd;
	}
	fd = pm_walk_open(ctx ? ctx->rootfd : AT_FDCWD, path, flags, 0, &w);
	if (fd < 0)
		return fail(c, 0, -fd, "%s", strerror(-fd));
	if (fstat(fd, &st) < 0 || fstat(w.parent, &pst) < 0) {
		int e = errno;

		close(fd);
		close(w.parent);
		return fail(c, 0, e, "%s", strerror(e));
	}
	close(w.parent);
	if (unsafe_file(&st)) {
		close(fd);
		return refuse(c, "it is not owned by root or is writable by "
				 "group or others",
			      &st);
	}
	if (way.bad) {
		close(fd);
		if (way.st.st_dev == pst.st_dev && way.st.st_ino == pst.st_ino)
			return refuse(c, "its folder is not owned by root or "
					 "is writable by group or others "
					 "without the sticky bit",
				      &way.st);
		char why[PM_PATH_MAX + 100];

		snprintf(why, sizeof(why), "the folder %s on its way is not "
					   "owned by root or is writable by "
					   "group or others without the sticky "
					   "bit",
			 way.path[0] ? way.path : "(unknown)");
		return refuse(c, why, &way.st);
	}
	return fd;
}

ssize_t pm_conf_read(struct pm_ctx *ctx, const char *path, char **buf,
		     struct pm_conf *c)
{
	struct stat st;
	ssize_t n;
	int fd;

	memset(c, 0, sizeof(*c));
	*buf = NULL;
	fd = open_conf(ctx, path, c);
	if (fd < 0)
		return fd;
	/* Only a regular file is configuration: a FIFO would block the
	 * read, a device would never end. */
	if (fstat(fd, &st) < 0) {
		int e = errno;

		close(fd);
		return fail(c, 0, e, "%s", strerror(e));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(c, 0, S_ISDIR(st.st_mode) ? EISDIR : EINVAL,
			    "%s, not a regular file: not read",
			    kind_of(st.st_mode));
	}
	c->dev = st.st_dev;
	c->ino = st.st_ino;
	n = read_conf(fd, buf);
	close(fd);
	if (n < 0) {
		free(*buf);
		*buf = NULL;
		return fail(c, 0, (int)-n, "%s", strerror((int)-n));
	}
	if (n > PM_CONF_MAX) {
		free(*buf);
		*buf = NULL;
		return fail(c, 0, EFBIG, "larger than %d bytes", PM_CONF_MAX);
	}
	return n;
}

int pm_conf_load(struct pm_ctx *ctx, const char *path, struct pm_conf *c)
{
	char *buf;
	ssize_t n;

	memset(c, 0, sizeof(*c));
	n = pm_conf_read(ctx, path, &buf, c);
	if (n < 0) {
		c->path = strdup(path);
		return (int)n;
	}
	dev_t dev = c->dev;
	ino_t ino = c->ino;
	int r = pm_conf_parse(path, buf, (size_t)n, c);

	c->dev = dev;
	c->ino = ino;
	return r;
}

void pm_conf_free(struct pm_conf *c)
{
	free(c->lines);
	free(c->text);
	free(c->path);
	memset(c, 0, sizeof(*c));
}
