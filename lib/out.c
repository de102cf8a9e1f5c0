// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The output formats: json (and JSON Lines), kv for eval, csv, prom, and
 * the human stream; each escapes kernel strings so they stay inert.
 * --output FILE is written to a temporary file and renamed into place
 * (a device, FIFO or socket is written, never replaced).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "out.h"
#include "core.h"
#include "parse.h"
#include "cpuset.h"

static const char *const fmt_names[] = {
	[PM_FMT_HUMAN] = "human", [PM_FMT_JSON] = "json", [PM_FMT_KV] = "kv",
	[PM_FMT_CSV] = "csv",	  [PM_FMT_PROM] = "prom",
};

int pm_fmt_parse(const char *s, enum pm_fmt *f)
{
	for (size_t i = 0; i < sizeof(fmt_names) / sizeof(fmt_names[0]); i++) {
		if (!strcmp(s, fmt_names[i])) {
			*f = (enum pm_fmt)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *pm_fmt_name(enum pm_fmt f)
{
	return (unsigned)f < sizeof(fmt_names) / sizeof(fmt_names[0]) ?
		       fmt_names[f] :
		       "?";
}

/* ---------------------------------------------------------------- escapes */

/*
 * Length of the valid UTF-8 sequence at s (1-4), or 0 if invalid:
 * overlong forms, surrogates and code points past U+10FFFF are invalid.
 */
static int utf8_len(const unsigned char *s)
{
	unsigned c = s[0];

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return (s[1] & 0xc0) == 0x80 ? 2 : 0;
	if (c >= 0xe0 && c <= 0xef) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80)
			return 0;
		if (c == 0xe0 && s[1] < 0xa0)
			return 0;
		if (c == 0xed && s[1] >= 0xa0)
			return 0;
		return 3;
	}
	if (c >= 0xf0 && c <= 0xf4) {
		if ((s[1] & 0xc0) != 0x80 || (s[2] & 0xc0) != 0x80 ||
		    (s[3] & 0xc0) != 0x80)
			return 0;
		if (c == 0xf0 && s[1] < 0x90)
			return 0;
		if (c == 0xf4 && s[1] >= 0x90)
			return 0;
		return 4;
	}
	return 0;
}

/*
 * A C1 control (U+0080..U+009F, UTF-8 c2 80..c2 9f): some terminals act
 * on them as on ESC [ and the others, so they are escaped like C0.
 */
static bool is_c1(const unsigned char *s)
{
	return s[0] == 0xc2 && s[1] >= 0x80 && s[1] <= 0x9f;
}

/*
 * The text form of the unit at s, as the error messages show it: a
 * newline or tab as \n or \t, another control byte (C0, DEL, both bytes
 * of a C1) or a byte that is not valid UTF-8 as \xHH, anything else as
 * it is.  Returns the bytes of s it covers; out gets what to print.
 */
static size_t text_unit(const unsigned char *s, char out[16])
{
	int n;

	if (*s == '\n' || *s == '\t') {
		snprintf(out, 16, "\\%c", *s == '\n' ? 'n' : 't');
		return 1;
	}
	if (*s < 0x20 || *s == 0x7f) {
		snprintf(out, 16, "\\x%02x", *s);
		return 1;
	}
	if (is_c1(s)) {
		snprintf(out, 16, "\\x%02x\\x%02x", s[0], s[1]);
		return 2;
	}
	n = utf8_len(s);
	if (!n) {
		snprintf(out, 16, "\\x%02x", *s);
		return 1;
	}
	memcpy(out, s, (size_t)n);
	out[n] = '\0';
	return (size_t)n;
}

/* True if s prints as it is (no unit needs escaping). */
static bool text_plain(const char *str)
{
	for (const unsigned char *s = (const unsigned char *)str; *s;) {
		int n = utf8_len(s);

		if (*s < 0x20 || *s == 0x7f || !n || is_c1(s))
			return false;
		s += n;
	}
	return true;
}

void pm_text_escape(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char u[16];

	while (*s) {
		s += text_unit(s, u);
		fputs(u, f);
	}
}

char *pm_text_escape_dup(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	/* Four bytes of text (\xHH) for a byte at most. */
	size_t len = 0, cap = strlen(str) * 4 + 1;
	char *d = malloc(cap), u[16];

	if (!d)
		return NULL;
	while (*s) {
		size_t l;

		s += text_unit(s, u);
		l = strlen(u);
		memcpy(d + len, u, l);
		len += l;
	}
	d[len] = '\0';
	return d;
}

/* HTML's five, on the text form: what the kernel names is shown, never
 * read as markup, and the page stays well-formed XML too. */
void pm_html_escape(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char u[16];

	while (*s) {
		s += text_unit(s, u);
		for (const char *c = u; *c; c++) {
			switch (*c) {
			case '&':
				fputs("&amp;", f);
				break;
			case '<':
				fputs("&lt;", f);
				break;
			case '>':
				fputs("&gt;", f);
				break;
			case '"':
				fputs("&quot;", f);
				break;
			case '\'':
				fputs("&#39;", f);
				break;
			default:
				fputc(*c, f);
			}
		}
	}
}

void pm_json_escape(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	while (*s) {
		int n;

		switch (*s) {
		case '"':
			fputs("\\\"", f);
			s++;
			continue;
		case '\\':
			fputs("\\\\", f);
			s++;
			continue;
		case '\n':
			fputs("\\n", f);
			s++;
			continue;
		case '\t':
			fputs("\\t", f);
			s++;
			continue;
		case '\r':
			fputs("\\r", f);
			s++;
			continue;
		default:
			break;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s);
			s++;
			continue;
		}
		if (is_c1(s)) {
			fprintf(f, "\\u%04x", s[1]);
			s += 2;
			continue;
		}
		n = utf8_len(s);
		if (!n) {
			fputs("\xef\xbf\xbd", f); /* U+FFFD */
			s++;
			continue;
		}
		fwrite(s, 1, (size_t)n, f);
		s += n;
	}
	fputc('"', f);
}

/*
 * Inside single quotes the shell takes every byte as it is: only ' needs
 * the '\'' dance.  Control bytes are shown as text (\n, \x1b), so that
 * the file stays inert on a terminal too.
 */
void pm_kv_quote(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char u[16];

	fputc('\'', f);
	while (*s) {
		if (*s == '\'') {
			fputs("'\\''", f);
			s++;
			continue;
		}
		s += text_unit(s, u);
		fputs(u, f);
	}
	fputc('\'', f);
}

/* RFC 4180 quoting of the text form: a field never spans lines. */
void pm_csv_field(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	bool quote = strpbrk(str, ",\"") != NULL;
	char u[16];

	if (!quote && text_plain(str)) {
		fputs(str, f);
		return;
	}
	if (quote)
		fputc('"', f);
	while (*s) {
		if (*s == '"') {
			fputs("\"\"", f);
			s++;
			continue;
		}
		s += text_unit(s, u);
		fputs(u, f);
	}
	if (quote)
		fputc('"', f);
}

/*
 * A label value: the exposition format's own escapes for \\, " and a
 * newline; any other control byte, and a byte that is not valid UTF-8
 * (label values must be UTF-8), as the text \xHH, its backslash escaped.
 */
void pm_prom_label_escape(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	char u[16];

	while (*s) {
		if (*s == '\\' || *s == '"' || *s == '\n') {
			fputc('\\', f);
			fputc(*s == '\n' ? 'n' : *s, f);
			s++;
			continue;
		}
		s += text_unit(s, u);
		for (const char *p = u; *p; p++) {
			if (*p == '\\')
				fputc('\\', f);
			fputc(*p, f);
		}
	}
}

void pm_kv_key_sanitize(char *s)
{
	for (; *s; s++) {
		if (*s >= 'A' && *s <= 'Z')
			*s = (char)(*s - 'A' + 'a');
		else if (!((*s >= 'a' && *s <= 'z') ||
			   (*s >= '0' && *s <= '9') || *s == '_'))
			*s = '_';
	}
}

/* ---------------------------------------------------------------- stream */

static void prom_forget(struct pm_out *o);

/* As the kernel's MAXSYMLINKS: a longer chain of links is a loop. */
#define OUT_LINKS 40

/*
 * Where a dangling symlink (or a chain of them) leads: the name the
 * file will have, made in the folder it names.
 */
static int follow_dangling(const char *path, char *out, size_t size)
{
	char cur[PM_PATH_MAX], link[PM_PATH_MAX];
	struct stat st;

	if (strlen(path) >= sizeof(cur))
		return -ENAMETOOLONG;
	snprintf(cur, sizeof(cur), "%s", path);
	for (int i = 0; i <= OUT_LINKS; i++) {
		ssize_t n;

		if (lstat(cur, &st) < 0) {
			if (errno != ENOENT)
				return -errno;
			snprintf(out, size, "%s", cur);
			return 0;
		}
		if (!S_ISLNK(st.st_mode))
			return -EAGAIN; /* made meanwhile: look again */
		n = readlink(cur, link, sizeof(link) - 1);
		if (n < 0)
			return -errno;
		link[n] = '\0';
		if (link[0] == '/') {
			snprintf(cur, sizeof(cur), "%s", link);
		} else {
			char *slash = strrchr(cur, '/');
			size_t dl = slash ? (size_t)(slash - cur) + 1 : 0;

			if (dl + (size_t)n >= sizeof(cur))
				return -ENAMETOOLONG;
			memcpy(cur + dl, link, (size_t)n + 1);
		}
	}
	return -ELOOP;
}

/*
 * What --output names decides how it is written.  A regular file (or a
 * name not there yet) is replaced atomically: a temporary file in the
 * same folder, renamed over it.  A symlink is followed and the file it
 * names is replaced in its own folder, the link kept.  A character or
 * block device is written directly, never replaced (renaming over
 * /dev/null would make it a file for every program), and so are a FIFO
 * and a socket, which get the whole document at pm_out_commit (opening
 * a FIFO to probe it would end its reader's input).  A folder is
 * refused: -EISDIR; a chain of links that never ends: -ELOOP.
 */
static int out_target(const char *path, char *final, size_t size)
{
	struct stat st;

	for (int tries = 0; tries < 3; tries++) {
		int r;

		if (stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				return -EISDIR;
			if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
				return PM_OUT_DEVICE;
			if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
				return PM_OUT_STREAM;
			if (!S_ISREG(st.st_mode))
				return -EINVAL;
			if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
				if (!realpath(path, final))
					return -errno;
			} else {
				snprintf(final, size, "%s", path);
			}
			return PM_OUT_ATOMIC;
		}
		if (errno != ENOENT)
			return -errno;
		if (lstat(path, &st) < 0 || !S_ISLNK(st.st_mode)) {
			snprintf(final, size, "%s", path);
			return PM_OUT_ATOMIC;
		}
		r = follow_dangling(path, final, size);
		if (r != -EAGAIN)
			return r < 0 ? r : PM_OUT_ATOMIC;
	}
	return -EAGAIN;
}

int pm_out_open(struct pm_out *o, enum pm_fmt fmt, const char *path)
{
	const char *nc = getenv("NO_COLOR");
	char final[PM_PATH_MAX];
	int fd, kind;

	memset(o, 0, sizeof(*o));
	o->fmt = fmt;
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		o->color = fmt == PM_FMT_HUMAN && isatty(STDOUT_FILENO) &&
			   !(nc && *nc);
		return 0;
	}
	/* "dir/": a folder, whatever is there. */
	if (path[strlen(path) - 1] == '/')
		return -EISDIR;
	kind = out_target(path, final, sizeof(final));
	if (kind < 0)
		return kind;
	o->kind = kind;
	o->final_path = strdup(kind == PM_OUT_ATOMIC ? final : path);
	if (!o->final_path)
		return -ENOMEM;
	if (kind == PM_OUT_DEVICE) {
		fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
		if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
			int e = errno;

			if (fd >= 0)
				close(fd);
			pm_out_abort(o);
			return -e;
		}
		return 0;
	}
	if (kind == PM_OUT_STREAM) {
		o->f = open_memstream(&o->mem, &o->memlen);
		if (!o->f) {
			pm_out_abort(o);
			return -ENOMEM;
		}
		return 0;
	}
	const char *slash = strrchr(final, '/');
	size_t dirlen = slash ? (size_t)(slash - final) + 1 : 0;
	size_t len = strlen(final) + 16;

	o->tmp_path = malloc(len);
	if (!o->tmp_path) {
		pm_out_abort(o);
		return -ENOMEM;
	}
	/* The same folder, so the rename is atomic. */
	snprintf(o->tmp_path, len, "%.*s.%s.XXXXXX", (int)dirlen, final,
		 final + dirlen);
	fd = mkostemp(o->tmp_path, O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		free(o->tmp_path);
		o->tmp_path = NULL;
		pm_out_abort(o);
		return -e;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;

		close(fd);
		pm_out_abort(o);
		return -e;
	}
	return 0;
}

/* A unix socket: connected as a stream, else as datagrams. */
static int socket_open(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
		return fd;
	if (fd >= 0)
		close(fd);
	if (errno != EPROTOTYPE)
		return -errno;
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
		return fd;
	if (fd >= 0)
		close(fd);
	return -errno;
}

/* The whole document into the FIFO or socket named by --output. */
static int stream_write(struct pm_out *o)
{
	struct stat st;
	size_t off = 0;
	int fd, r = 0;

	if (stat(o->final_path, &st) == 0 && S_ISSOCK(st.st_mode))
		fd = socket_open(o->final_path);
	else
		fd = open(o->final_path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return fd < -1 ? fd : -errno;
	while (off < o->memlen) {
		ssize_t n = write(fd, o->mem + off, o->memlen - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			break;
		}
		off += (size_t)n;
	}
	if (close(fd) < 0 && !r && errno != EINTR)
		r = -errno;
	return r;
}

int pm_out_commit(struct pm_out *o)
{
	int r = 0;

	free(o->join);
	o->join = NULL;
	prom_forget(o);
	if (o->kind == PM_OUT_STDOUT) {
		if (fflush(o->f) != 0 || ferror(o->f))
			r = -(errno ? errno : EIO);
		if (!r && o->err)
			r = -o->err;
		return r;
	}
	if (fflush(o->f) != 0 || ferror(o->f))
		r = -(errno ? errno : EIO);
	/* A document cut short (too deep, out of memory) must not land. */
	if (!r && o->err)
		r = -o->err;
	if (o->kind == PM_OUT_ATOMIC) {
		if (!r && fchmod(fileno(o->f), 0644) < 0)
			r = -errno;
		if (!r && fsync(fileno(o->f)) < 0 && errno != EINVAL)
			r = -errno;
	} else if (o->kind == PM_OUT_DEVICE) {
		/* A block device keeps it; a character device has nothing
		 * to sync (EINVAL). */
		if (!r && fsync(fileno(o->f)) < 0 && errno != EINVAL &&
		    errno != EROFS)
			r = -errno;
	}
	if (fclose(o->f) != 0 && !r)
		r = -errno;
	o->f = NULL;
	if (o->kind == PM_OUT_STREAM && !r)
		r = stream_write(o);
	if (o->kind == PM_OUT_ATOMIC && !r &&
	    rename(o->tmp_path, o->final_path) < 0)
		r = -errno;
	if (r && o->tmp_path)
		unlink(o->tmp_path);
	free(o->tmp_path);
	free(o->final_path);
	free(o->mem);
	o->tmp_path = o->final_path = o->mem = NULL;
	return r;
}

void pm_out_abort(struct pm_out *o)
{
	free(o->join);
	o->join = NULL;
	prom_forget(o);
	if (o->kind != PM_OUT_STDOUT && o->f)
		(void)fclose(o->f);
	if (o->kind != PM_OUT_STDOUT)
		o->f = NULL;
	if (o->tmp_path)
		unlink(o->tmp_path);
	free(o->tmp_path);
	free(o->final_path);
	free(o->mem);
	o->tmp_path = o->final_path = o->mem = NULL;
}

/*
 * The human stream's printf: the format is the program's and is printed
 * as it is; every string argument (a name from sysfs, a value from a
 * file) is printed in its text form.  A small walker of the format finds
 * the arguments: each conversion is printed alone, its argument read with
 * the type its length modifier names.
 */
enum len_mod { LM_NONE, LM_HH, LM_H, LM_L, LM_LL, LM_J, LM_Z, LM_T, LM_LD };

struct conv {
	char flags[48];	/* "%", flags, width and precision, '*' resolved */
	enum len_mod mod;
	char c;		/* the conversion character */
	int prec;	/* -1 when not given */
};

/* The integer arguments, one reader per type that C passes. */
static intmax_t arg_int(va_list *ap)
{
	return va_arg(*ap, int);
}

static intmax_t arg_long(va_list *ap)
{
	return va_arg(*ap, long);
}

static intmax_t arg_llong(va_list *ap)
{
	return va_arg(*ap, long long);
}

static intmax_t arg_max(va_list *ap)
{
	return va_arg(*ap, intmax_t);
}

static intmax_t arg_ssize(va_list *ap)
{
	return va_arg(*ap, ssize_t);
}

static intmax_t arg_diff(va_list *ap)
{
	return va_arg(*ap, ptrdiff_t);
}

static uintmax_t arg_uint(va_list *ap)
{
	return va_arg(*ap, unsigned);
}

static uintmax_t arg_ulong(va_list *ap)
{
	return va_arg(*ap, unsigned long);
}

static uintmax_t arg_ullong(va_list *ap)
{
	return va_arg(*ap, unsigned long long);
}

static uintmax_t arg_umax(va_list *ap)
{
	return va_arg(*ap, uintmax_t);
}

static uintmax_t arg_size(va_list *ap)
{
	return va_arg(*ap, size_t);
}

static long double arg_double(va_list *ap)
{
	return va_arg(*ap, double);
}

static long double arg_ldouble(va_list *ap)
{
	return va_arg(*ap, long double);
}

static intmax_t (*const signed_arg[])(va_list *) = {
	[LM_NONE] = arg_int,	[LM_HH] = arg_int,   [LM_H] = arg_int,
	[LM_L] = arg_long,	[LM_LL] = arg_llong, [LM_J] = arg_max,
	[LM_Z] = arg_ssize,	[LM_T] = arg_diff,   [LM_LD] = arg_llong,
};

static uintmax_t (*const unsigned_arg[])(va_list *) = {
	[LM_NONE] = arg_uint,	[LM_HH] = arg_uint,   [LM_H] = arg_uint,
	[LM_L] = arg_ulong,	[LM_LL] = arg_ullong, [LM_J] = arg_umax,
	[LM_Z] = arg_size,	[LM_T] = arg_size,    [LM_LD] = arg_ullong,
};

/* A string argument: its first prec bytes, in the text form. */
static void put_text(FILE *f, const struct conv *cv, const char *arg)
{
	char spec[64], *raw = NULL, *text;
	const char *dot = strchr(cv->flags, '.');
	int keep = dot ? (int)(dot - cv->flags) : (int)strlen(cv->flags);

	if (!arg)
		arg = "(null)";
	if (cv->prec >= 0) {
		raw = strndup(arg, (size_t)cv->prec);
		if (raw)
			arg = raw;
	}
	/* The width counts the text printed; the precision counted bytes. */
	snprintf(spec, sizeof(spec), "%.*ss", keep, cv->flags);
	text = pm_text_escape_dup(arg);
	fprintf(f, spec, text ? text : "(out of memory)");
	free(text);
	free(raw);
}

static void put_conv(FILE *f, const struct conv *cv, va_list *ap)
{
	char spec[64], one[2] = { 0, 0 };
	bool small = cv->mod == LM_HH || cv->mod == LM_H;

	switch (cv->c) {
	case 'd':
	case 'i':
		snprintf(spec, sizeof(spec), "%s%s%c", cv->flags,
			 small ? (cv->mod == LM_H ? "h" : "hh") : "j", cv->c);
		/* h and hh take the int C promoted them to, j an intmax_t. */
		if (small)
			fprintf(f, spec, (int)signed_arg[cv->mod](ap));
		else
			fprintf(f, spec, signed_arg[cv->mod](ap));
		return;
	case 'u':
	case 'x':
	case 'X':
	case 'o':
		snprintf(spec, sizeof(spec), "%s%s%c", cv->flags,
			 small ? (cv->mod == LM_H ? "h" : "hh") : "j", cv->c);
		if (small)
			fprintf(f, spec, (unsigned)unsigned_arg[cv->mod](ap));
		else
			fprintf(f, spec, unsigned_arg[cv->mod](ap));
		return;
	case 'f':
	case 'F':
	case 'e':
	case 'E':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		snprintf(spec, sizeof(spec), "%sL%c", cv->flags, cv->c);
		fprintf(f, spec,
			(cv->mod == LM_LD ? arg_ldouble : arg_double)(ap));
		return;
	case 'p':
		snprintf(spec, sizeof(spec), "%sp", cv->flags);
		fprintf(f, spec, va_arg(*ap, void *));
		return;
	case 'c':
		one[0] = (char)va_arg(*ap, int);
		put_text(f, cv, one);
		return;
	case 's':
		put_text(f, cv, va_arg(*ap, const char *));
		return;
	case '%':
		fputc('%', f);
		return;
	default:
		/* A conversion this walker does not know: as it is. */
		fprintf(f, "%s%c", cv->flags, cv->c);
		return;
	}
}

/* Append the number of a '*' width or precision to the flags. */
static void flags_num(struct conv *cv, size_t *len, int v)
{
	int n = snprintf(cv->flags + *len, sizeof(cv->flags) - *len, "%d", v);

	if (n > 0 && (size_t)n < sizeof(cv->flags) - *len)
		*len += (size_t)n;
}

/* Parse the conversion at p (its '%'); returns what follows it. */
static const char *parse_conv(const char *p, struct conv *cv, va_list *ap)
{
	static const struct {
		const char *s;
		enum len_mod m;
	} mods[] = {
		{ "hh", LM_HH }, { "h", LM_H }, { "ll", LM_LL }, { "l", LM_L },
		{ "q", LM_LL },	 { "j", LM_J }, { "z", LM_Z },	 { "t", LM_T },
		{ "L", LM_LD },
	};
	/* Room left for the modifier and the conversion character. */
	const size_t max = sizeof(cv->flags) - 8;
	size_t len = 0;

	memset(cv, 0, sizeof(*cv));
	cv->prec = -1;
	cv->flags[len++] = *p++;
	while (*p && strchr("-+ #0'", *p) && len < max)
		cv->flags[len++] = *p++;
	if (*p == '*') {
		flags_num(cv, &len, va_arg(*ap, int));
		p++;
	}
	while (*p >= '0' && *p <= '9' && len < max)
		cv->flags[len++] = *p++;
	if (*p == '.') {
		cv->flags[len++] = *p++;
		if (*p == '*') {
			cv->prec = va_arg(*ap, int);
			flags_num(cv, &len, cv->prec);
			p++;
		} else {
			cv->prec = 0;
			while (*p >= '0' && *p <= '9' && len < max) {
				cv->prec = cv->prec * 10 + (*p - '0');
				cv->flags[len++] = *p++;
			}
		}
	}
	cv->flags[len] = '\0';
	for (size_t i = 0; i < sizeof(mods) / sizeof(mods[0]); i++) {
		size_t n = strlen(mods[i].s);

		if (!strncmp(p, mods[i].s, n)) {
			cv->mod = mods[i].m;
			p += n;
			break;
		}
	}
	cv->c = *p;
	return *p ? p + 1 : p;
}

void pm_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	va_list aq;

	va_copy(aq, ap);
	for (const char *p = fmt; *p;) {
		struct conv cv;

		if (*p != '%') {
			const char *pct = strchr(p, '%');
			size_t n = pct ? (size_t)(pct - p) : strlen(p);

			fwrite(p, 1, n, f);
			p += n;
			continue;
		}
		p = parse_conv(p, &cv, &aq);
		if (!cv.c)
			break;
		put_conv(f, &cv, &aq);
	}
	va_end(aq);
}

void pm_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pm_vfprintf(f, fmt, ap);
	va_end(ap);
}

void pm_out_printf(struct pm_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pm_vfprintf(o->f, fmt, ap);
	va_end(ap);
}

/* ---------------------------------------------------------------- json/kv */

static bool structured(const struct pm_out *o)
{
	return o->fmt == PM_FMT_JSON || o->fmt == PM_FMT_KV;
}

static struct pm_out_level *top(struct pm_out *o)
{
	return o->depth ? &o->lvl[o->depth - 1] : NULL;
}

static void json_indent(struct pm_out *o)
{
	if (o->compact)
		return;
	fputc('\n', o->f);
	for (int i = 0; i < o->depth; i++)
		fputs("  ", o->f);
}

/* Separator and key before a JSON member or element. */
static void json_member(struct pm_out *o, const char *key)
{
	struct pm_out_level *l = top(o);

	if (!l)
		return;
	if (l->count++)
		fputc(',', o->f);
	json_indent(o);
	if (!l->is_array && key) {
		pm_json_escape(o->f, key);
		fputs(o->compact ? ":" : ": ", o->f);
	}
}

static void kv_append(struct pm_out *o, const char *part)
{
	size_t len = strlen(o->key);
	char tmp[128];

	snprintf(tmp, sizeof(tmp), "%s", part);
	pm_kv_key_sanitize(tmp);
	snprintf(o->key + len, sizeof(o->key) - len, "%s%s", len ? "_" : "",
		 tmp);
}

static void kv_join(struct pm_out *o, const char *text)
{
	size_t l = strlen(text);

	if (o->join_len + l + 2 > o->join_cap) {
		size_t ncap = (o->join_cap + l + 2) * 2;
		char *nj = realloc(o->join, ncap);

		if (!nj) {
			o->err = ENOMEM;
			return;
		}
		o->join = nj;
		o->join_cap = ncap;
	}
	if (o->join_len)
		o->join[o->join_len++] = ' ';
	memcpy(o->join + o->join_len, text, l + 1);
	o->join_len += l;
}

/* The length of s when JSON takes it as it is (printable ASCII but
 * for '"' and '\\'), else -1: the escape's slow path is not needed. */
static ssize_t json_plain(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++)
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			return -1;
	return p - (const unsigned char *)s;
}

/*
 * A member of an object or an element of an array whose key and value
 * need no escaping (nearly all of them: numbers, kernel names): the
 * separator, the indent, the key and the value built in one buffer and
 * written with one call, where the general path makes one stdio call a
 * piece.  false (nothing written) when it does not apply.
 */
static bool json_fast(struct pm_out *o, const char *key, const char *v,
		      bool is_string)
{
	struct pm_out_level *l = top(o);
	ssize_t kl = 0, vl;
	char buf[384];
	size_t n = 0, ind;

	if (!l)
		return false;
	if (l->is_array)
		key = NULL;
	if (key && (kl = json_plain(key)) < 0)
		return false;
	vl = is_string ? json_plain(v) : (ssize_t)strlen(v);
	ind = o->compact ? 0 : 1 + 2 * (size_t)o->depth;
	if (vl < 0 || ind + (size_t)kl + (size_t)vl + 8 > sizeof(buf))
		return false;
	if (l->count++)
		buf[n++] = ',';
	if (ind) {
		buf[n++] = '\n';
		memset(buf + n, ' ', ind - 1);
		n += ind - 1;
	}
	if (key) {
		buf[n++] = '"';
		memcpy(buf + n, key, (size_t)kl);
		n += (size_t)kl;
		buf[n++] = '"';
		buf[n++] = ':';
		if (!o->compact)
			buf[n++] = ' ';
	}
	if (is_string)
		buf[n++] = '"';
	memcpy(buf + n, v, (size_t)vl);
	n += (size_t)vl;
	if (is_string)
		buf[n++] = '"';
	fwrite_unlocked(buf, 1, n, o->f);
	return true;
}

/* A scalar: text is already JSON (quoted or not); raw is its kv value. */
static void scalar(struct pm_out *o, const char *key, const char *json,
		   const char *raw, bool is_string)
{
	struct pm_out_level *l = top(o);

	if (o->fmt == PM_FMT_JSON) {
		if (json_fast(o, key, json, is_string))
			return;
		json_member(o, key);
		if (is_string)
			pm_json_escape(o->f, json);
		else
			fputs(json, o->f);
		if (!l)
			fputc('\n', o->f);
		return;
	}
	if (o->fmt != PM_FMT_KV)
		return;
	if (l && l->is_array) {
		kv_join(o, raw);
		l->count++;
		return;
	}
	size_t keep = strlen(o->key);

	if (key)
		kv_append(o, key);
	fputs(o->key, o->f);
	fputc('=', o->f);
	pm_kv_quote(o->f, raw);
	fputc('\n', o->f);
	o->key[keep] = '\0';
}

static void push(struct pm_out *o, bool is_array, const char *elem)
{
	struct pm_out_level *l;

	if (o->depth >= PM_OUT_DEPTH) {
		o->err = E2BIG;
		return;
	}
	l = &o->lvl[o->depth++];
	memset(l, 0, sizeof(*l));
	l->is_array = is_array;
	snprintf(l->elem, sizeof(l->elem), "%s", elem ? elem : "");
	l->keylen = strlen(o->key);
}

static void open_container(struct pm_out *o, const char *key, bool array,
			   const char *elem, const char *label)
{
	struct pm_out_level *l = top(o);

	if (!structured(o))
		return;
	if (o->fmt == PM_FMT_JSON) {
		json_member(o, key);
		fputc(array ? '[' : '{', o->f);
		push(o, array, elem);
		return;
	}
	/* kv: the key path grows by the member name or the element label. */
	size_t keep = strlen(o->key);

	if (l && l->is_array) {
		char part[64];

		if (label)
			snprintf(part, sizeof(part), "%s%s",
				 l->elem[0] ? l->elem : "", label);
		else
			snprintf(part, sizeof(part), "%s%u",
				 l->elem[0] ? l->elem : "", l->count);
		kv_append(o, part);
		l->count++;
	} else if (key && !(array && elem)) {
		kv_append(o, key);
	}
	push(o, array, elem);
	o->lvl[o->depth - 1].keylen = keep;
	if (array && !elem) {
		o->join_len = 0;
		if (o->join)
			o->join[0] = '\0';
	}
}

static void close_container(struct pm_out *o, bool array)
{
	struct pm_out_level *l = top(o);

	if (!structured(o) || !l)
		return;
	if (o->fmt == PM_FMT_JSON) {
		unsigned n = l->count;

		o->depth--;
		if (n)
			json_indent(o);
		fputc(array ? ']' : '}', o->f);
		if (!o->depth)
			fputc('\n', o->f);
		return;
	}
	if (array && !l->elem[0]) {
		fputs(o->key, o->f);
		fputc('=', o->f);
		pm_kv_quote(o->f, o->join ? o->join : "");
		fputc('\n', o->f);
		o->join_len = 0;
	}
	o->key[l->keylen] = '\0';
	o->depth--;
}

void pm_out_obj_begin(struct pm_out *o, const char *key)
{
	open_container(o, key, false, NULL, NULL);
}

void pm_out_obj_end(struct pm_out *o)
{
	close_container(o, false);
}

void pm_out_arr_begin(struct pm_out *o, const char *key, const char *elem)
{
	open_container(o, key, true, elem, NULL);
}

void pm_out_arr_end(struct pm_out *o)
{
	close_container(o, true);
}

void pm_out_elem_begin(struct pm_out *o, uint64_t label)
{
	char b[24];

	snprintf(b, sizeof(b), "%llu", (unsigned long long)label);
	open_container(o, NULL, false, NULL, b);
}

void pm_out_str(struct pm_out *o, const char *key, const char *v)
{
	if (!v) {
		pm_out_null(o, key);
		return;
	}
	scalar(o, key, v, v, true);
}

/* v in decimal, at the end of b[24]: a report prints thousands. */
static const char *u64_text(uint64_t v, char b[24])
{
	char *p = b + 23;

	*p = '\0';
	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	return p;
}

void pm_out_u64(struct pm_out *o, const char *key, uint64_t v)
{
	char b[24];
	const char *t = u64_text(v, b);

	scalar(o, key, t, t, false);
}

void pm_out_s64(struct pm_out *o, const char *key, int64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%lld", (long long)v);
	scalar(o, key, b, b, false);
}

void pm_out_u64_or_null(struct pm_out *o, const char *key, uint64_t v)
{
	if (v == PM_UNKNOWN)
		pm_out_null(o, key);
	else
		pm_out_u64(o, key, v);
}

/*
 * The shortest text that reads back as exactly v: an integer below 2^53
 * without a fraction or an exponent, anything else with as few
 * significant digits as it needs (%g, so 1e-09 and 1.5e+20 keep their
 * exponent).  Not for NaN or infinities.
 */
const char *pm_fmt_double(double v, char *buf, size_t size)
{
	if (v == 0)
		v = 0; /* not -0 */
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		snprintf(buf, size, "%.0f", v);
		return buf;
	}
	for (int prec = 1; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, size, "%.17g", v);
	return buf;
}

const char *pm_fmt_decimals(double v, int prec, char *buf, size_t size)
{
	size_t n;

	if (!isfinite(v) || !size) {
		snprintf(buf, size, "%s", "");
		return buf;
	}
	/*
	 * Rounded to prec decimals, then without the zeros that do not
	 * change what it reads back as: 12.50 is 12.5, 3.00 is 3.
	 */
	snprintf(buf, size, "%.*f", prec, v);
	if (strchr(buf, '.')) {
		n = strlen(buf);
		while (buf[n - 1] == '0')
			buf[--n] = '\0';
		if (buf[n - 1] == '.')
			buf[--n] = '\0';
	}
	if (!strcmp(buf, "-0"))
		snprintf(buf, size, "0");
	return buf;
}

void pm_out_double(struct pm_out *o, const char *key, double v, int prec)
{
	char b[64];

	if (!isfinite(v)) {
		pm_out_null(o, key);
		return;
	}
	pm_fmt_decimals(v, prec, b, sizeof(b));
	scalar(o, key, b, b, false);
}

void pm_out_bool(struct pm_out *o, const char *key, bool v)
{
	scalar(o, key, v ? "true" : "false", v ? "true" : "false", false);
}

void pm_out_flag(struct pm_out *o, const char *key, int v)
{
	if (v < 0)
		pm_out_null(o, key);
	else
		pm_out_bool(o, key, v != 0);
}

void pm_out_null(struct pm_out *o, const char *key)
{
	scalar(o, key, "null", "", false);
}

void pm_out_cpuset(struct pm_out *o, const char *key,
		   const struct pm_cpuset *s)
{
	pm_out_arr_begin(o, key, NULL);
	pm_cpuset_foreach(c, s)
		pm_out_u64(o, NULL, (uint64_t)c);
	pm_out_arr_end(o);
}

void pm_out_cpuspan(struct pm_out *o, const char *key,
		    const struct pm_cpuspan *c)
{
	struct pm_cpuset s;

	pm_cpuspan_get(c, &s);
	pm_out_cpuset(o, key, &s);
}

void pm_out_words(struct pm_out *o, const char *key, const char *words)
{
	char buf[4096];
	char *names[256];
	int n;

	snprintf(buf, sizeof(buf), "%s", words ? words : "");
	n = pm_choices_split(buf, names, 256, NULL);
	pm_out_arr_begin(o, key, NULL);
	for (int i = 0; i < n; i++)
		pm_out_str(o, NULL, names[i]);
	pm_out_arr_end(o);
}

/* ---------------------------------------------------------------- csv */

void pm_out_csv_row(struct pm_out *o, int n, const char *const *fields)
{
	if (o->fmt != PM_FMT_CSV)
		return;
	for (int i = 0; i < n; i++) {
		if (i)
			fputc(',', o->f);
		pm_csv_field(o->f, fields[i] ? fields[i] : "");
	}
	/* RFC 4180 ends records with CRLF; plain LF is what tools expect. */
	fputc('\n', o->f);
}

/* ---------------------------------------------------------------- prom */

/*
 * A family's HELP and TYPE come once in an exposition: a stream of
 * samples to stdout (cstate-stat -i) names each family before its first
 * sample only, so that the whole stream stays one valid exposition.
 */
static bool prom_seen(struct pm_out *o, const char *name)
{
	char *copy;

	for (size_t i = 0; i < o->prom_n; i++)
		if (!strcmp(o->prom_names[i], name))
			return true;
	if (o->prom_n == o->prom_cap) {
		size_t ncap = o->prom_cap ? o->prom_cap * 2 : 16;
		char **nn = realloc(o->prom_names, ncap * sizeof(*nn));

		if (!nn) {
			o->err = ENOMEM;
			return false;
		}
		o->prom_names = nn;
		o->prom_cap = ncap;
	}
	copy = strdup(name);
	if (!copy) {
		o->err = ENOMEM;
		return false;
	}
	o->prom_names[o->prom_n++] = copy;
	return false;
}

static void prom_forget(struct pm_out *o)
{
	for (size_t i = 0; i < o->prom_n; i++)
		free(o->prom_names[i]);
	free(o->prom_names);
	o->prom_names = NULL;
	o->prom_n = o->prom_cap = 0;
}

void pm_out_prom_meta(struct pm_out *o, const char *name, const char *type,
		      const char *help)
{
	if (o->fmt != PM_FMT_PROM || prom_seen(o, name))
		return;
	fprintf(o->f, "# HELP %s ", name);
	for (const char *p = help; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", o->f);
		else if (*p == '\n')
			fputs("\\n", o->f);
		else
			fputc(*p, o->f);
	}
	fprintf(o->f, "\n# TYPE %s %s\n", name, type);
}

static void prom_labels(struct pm_out *o, const char *name,
			const char *const *labels)
{
	fputs(name, o->f);
	if (labels && labels[0]) {
		fputc('{', o->f);
		for (int i = 0; labels[i] && labels[i + 1]; i += 2) {
			if (i)
				fputc(',', o->f);
			fprintf(o->f, "%s=\"", labels[i]);
			pm_prom_label_escape(o->f, labels[i + 1]);
			fputc('"', o->f);
		}
		fputc('}', o->f);
	}
}

void pm_out_prom_sample(struct pm_out *o, const char *name,
			const char *const *labels, double v)
{
	char b[32];

	if (o->fmt != PM_FMT_PROM)
		return;
	prom_labels(o, name, labels);
	if (isnan(v))
		fputs(" NaN\n", o->f);
	else if (isinf(v))
		fputs(v > 0 ? " +Inf\n" : " -Inf\n", o->f);
	else
		fprintf(o->f, " %s\n", pm_fmt_double(v, b, sizeof(b)));
}

void pm_out_prom_sample_u64(struct pm_out *o, const char *name,
			    const char *const *labels, uint64_t v)
{
	if (o->fmt != PM_FMT_PROM)
		return;
	prom_labels(o, name, labels);
	fprintf(o->f, " %llu\n", (unsigned long long)v);
}

void pm_out_str_or_null(struct pm_out *o, const char *key, const char *v)
{
	if (v && *v)
		pm_out_str(o, key, v);
	else
		pm_out_null(o, key);
}

void pm_out_words_or_null(struct pm_out *o, const char *key,
			  const char *words)
{
	if (words && words[strspn(words, " \t\n")])
		pm_out_words(o, key, words);
	else
		pm_out_null(o, key);
}
