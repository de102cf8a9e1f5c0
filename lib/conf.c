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

#include "pm.h"

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

int pm_conf_parse(const char *name, char *text, size_t len,
		  struct pm_conf *c)
{
	char *section = (char *)"";
	unsigned lineno = 0;
	int cap = 0;
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
		for (const char *q = line; *q; q++)
			if (((unsigned char)*q < 0x20 && *q != '\t') ||
			    *q == 0x7f)
				return fail(c, lineno, EINVAL,
					    "control character 0x%02x",
					    (unsigned char)*q);
		if (!*line || *line == '#' || *line == ';')
			continue;
		if (*line == '[') {
			char *close = strrchr(line, ']');

			if (!close || close[1])
				return fail(c, lineno, EINVAL,
					    "a section header must end with "
					    "']'");
			*close = '\0';
			section = trim(line + 1);
			if (!*section)
				return fail(c, lineno, EINVAL,
					    "empty section name");
			continue;
		}
		char *eq = strchr(line, '=');

		if (!eq)
			return fail(c, lineno, EINVAL,
				    "expected 'key = value', got '%.60s'",
				    line);
		*eq = '\0';
		char *key = trim(line), *value = unquote(trim(eq + 1));

		if (!*key)
			return fail(c, lineno, EINVAL, "a key is missing "
						       "before '='");
		if (c->n == cap) {
			int ncap = cap ? cap * 2 : 32;
			struct pm_conf_line *nl =
				realloc(c->lines, (size_t)ncap * sizeof(*nl));

			if (!nl)
				return fail(c, lineno, ENOMEM,
					    "out of memory");
			c->lines = nl;
			cap = ncap;
		}
		c->lines[c->n].lineno = lineno;
		c->lines[c->n].section = section;
		c->lines[c->n].key = key;
		c->lines[c->n].value = value;
		c->n++;
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
 * between the check and the read.  Its folder must not let others swap
 * it before the open either: not owned by root, or writable by group or
 * others, is refused, unless the sticky bit keeps others from renaming
 * or removing root's files there (/tmp).
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

/* The folder that holds path, as an O_PATH fd, or -errno. */
static int open_dir_of(struct pm_ctx *ctx, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PM_PATH_MAX];
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (ctx)
		return pm_open(ctx, dir, O_PATH | O_DIRECTORY);
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int refuse(struct pm_conf *c, const char *why, const struct stat *st)
{
	return fail(c, 0, EPERM, "refusing to read it as root: %s (mode %04o, "
				 "uid %u)",
		    why, (unsigned)(st->st_mode & 07777),
		    (unsigned)st->st_uid);
}

static int check_owner(struct pm_ctx *ctx, const char *path, int fd,
		       struct pm_conf *c)
{
	struct stat st;
	int dfd;

	if (geteuid() != 0)
		return 0;
	if (fstat(fd, &st) < 0)
		return fail(c, 0, errno, "%s", strerror(errno));
	if (unsafe_file(&st))
		return refuse(c, "it is not owned by root or is writable by "
				 "group or others",
			      &st);
	dfd = open_dir_of(ctx, path);
	if (dfd < 0)
		return fail(c, 0, -dfd, "its folder: %s", strerror(-dfd));
	if (fstat(dfd, &st) < 0) {
		int e = errno;

		close(dfd);
		return fail(c, 0, e, "its folder: %s", strerror(e));
	}
	close(dfd);
	if (unsafe_dir(&st))
		return refuse(c, "its folder is not owned by root or is "
				 "writable by group or others without the "
				 "sticky bit",
			      &st);
	return 0;
}

ssize_t pm_conf_read(struct pm_ctx *ctx, const char *path, char **buf,
		     struct pm_conf *c)
{
	ssize_t n;
	int fd, r;

	memset(c, 0, sizeof(*c));
	*buf = NULL;
	fd = ctx ? pm_open(ctx, path, O_RDONLY) :
		   open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = ctx ? -fd : errno;

		return fail(c, 0, e, "%s", strerror(e));
	}
	r = check_owner(ctx, path, fd, c);
	if (r < 0) {
		close(fd);
		return r;
	}
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
	return pm_conf_parse(path, buf, (size_t)n, c);
}

void pm_conf_free(struct pm_conf *c)
{
	free(c->lines);
	free(c->text);
	free(c->path);
	memset(c, 0, sizeof(*c));
}
