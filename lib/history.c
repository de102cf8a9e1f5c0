// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pm-suspend's history: the log of one JSON line per sleep cycle below
 * the system root, appended atomically and rotated at a size limit; its
 * lines parsed strictly (a small RFC 8259 reader: a line that is not
 * JSON, or lacks a field or has one of the wrong type, is counted, never
 * guessed at); and the cycles summed up per ISO week.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "history.h"

/* ------------------------------------------------------------ append */

static int rotate(struct pm_ctx *ctx)
{
	int dfd = pm_open_dir(ctx, PM_HIST_DIR), r = 0;

	if (dfd < 0)
		return pm_err_set(ctx, "open", PM_HIST_DIR, NULL, -dfd, NULL);
	if (renameat(dfd, PM_HIST_NAME, dfd, PM_HIST_NAME ".1") < 0)
		r = pm_err_set(ctx, "rename", PM_HIST_LOG, NULL, errno,
			       "to %s", PM_HIST_OLD);
	close(dfd);
	return r;
}

/* The log open to append, rotated first when full; its size in *size. */
static int open_log(struct pm_ctx *ctx, off_t *size)
{
	struct stat st;
	int fd, r;

	for (int i = 0; i < 2; i++) {
		fd = pm_open_create(ctx, PM_HIST_LOG,
				    O_RDWR | O_APPEND | O_NOFOLLOW, 0640);
		if (fd < 0)
			return pm_err_set(ctx, "open", PM_HIST_LOG, NULL, -fd,
					  NULL);
		if (fstat(fd, &st) < 0) {
			r = pm_err_set(ctx, "stat", PM_HIST_LOG, NULL, errno,
				       NULL);
			close(fd);
			return r;
		}
		*size = st.st_size;
		if (st.st_size < PM_HIST_MAX || i)
			return fd;
		close(fd);
		r = rotate(ctx);
		if (r < 0)
			return r;
	}
	return fd;
}

int pm_hist_append(struct pm_ctx *ctx, const char *line, size_t len)
{
	char buf[PM_HIST_LINE_MAX + 1], last = '\n';
	size_t n = 0;
	ssize_t w;
	off_t size = 0;
	int fd, r;

	if (!len || len > PM_HIST_LINE_MAX || line[len - 1] != '\n' ||
	    memchr(line, '\n', len - 1))
		return pm_err_set(ctx, "write", PM_HIST_LOG, NULL, EINVAL,
				  "not one line of at most %d bytes",
				  PM_HIST_LINE_MAX);
	r = pm_write_allowed(ctx, PM_HIST_LOG);
	if (r < 0)
		return r;
	fd = open_log(ctx, &size);
	if (fd < 0)
		return fd;
	/* A line cut by a crash: end it, so that ours stays whole. */
	if (size > 0 && pread(fd, &last, 1, size - 1) == 1 && last != '\n')
		buf[n++] = '\n';
	memcpy(buf + n, line, len);
	n += len;
	do
		w = write(fd, buf, n);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		r = pm_err_set(ctx, "write", PM_HIST_LOG, NULL, errno, NULL);
	else if ((size_t)w != n)
		r = pm_err_set(ctx, "write", PM_HIST_LOG, NULL, EIO,
			       "%zd of %zu bytes written", w, n);
	if (close(fd) < 0 && !r && errno != EINTR)
		r = pm_err_set(ctx, "write", PM_HIST_LOG, NULL, errno, NULL);
	return r;
}

/* ------------------------------------------------------------ JSON */

struct jp {
	const unsigned char *s, *end;
	const char *why;	/* the first error */
	int depth;
};

enum jtype { J_NULL, J_BOOL, J_NUM, J_STR, J_OBJ, J_ARR };

struct jval {
	enum jtype t;
	double num;
	bool integer;		/* no fraction, no exponent, fits int64 */
	int64_t i;
};

#define J_DEPTH 8

static bool fail(struct jp *p, const char *why)
{
	if (!p->why)
		p->why = why;
	return false;
}

static void ws(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' ||
				 *p->s == '\n' || *p->s == '\r'))
		p->s++;
}

static bool lit(struct jp *p, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(p->end - p->s) < n || memcmp(p->s, word, n))
		return fail(p, "not JSON");
	p->s += n;
	return true;
}

/* The length of the UTF-8 sequence at s (shortest form, no surrogate,
 * at most U+10FFFF), 0 when it is not one. */
static size_t utf8_len(const unsigned char *s, const unsigned char *end)
{
	size_t n = *s < 0xc2 ? 0 : *s < 0xe0 ? 2 : *s < 0xf0 ? 3 :
		   *s < 0xf5 ? 4 : 0;
	unsigned cp;

	if (!n || (size_t)(end - s) < n)
		return 0;
	cp = *s & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

static bool hex4(struct jp *p, unsigned *v)
{
	*v = 0;
	if (p->end - p->s < 4)
		return fail(p, "a \\u escape cut short");
	for (int i = 0; i < 4; i++) {
		int c = p->s[i];
		int d = c >= '0' && c <= '9' ? c - '0' :
			c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;

		if (d < 0)
			return fail(p, "a \\u escape that is not hex");
		*v = *v << 4 | (unsigned)d;
	}
	p->s += 4;
	return true;
}

/* \uXXXX (a surrogate pair whole) as UTF-8 into u; its length, 0. */
static size_t unicode_esc(struct jp *p, char *u)
{
	unsigned cp, lo;

	if (!hex4(p, &cp))
		return 0;
	if (cp >= 0xdc00 && cp <= 0xdfff)
		return fail(p, "a lone low surrogate"), 0;
	if (cp >= 0xd800 && cp <= 0xdbff) {
		if (p->end - p->s < 2 || p->s[0] != '\\' || p->s[1] != 'u')
			return fail(p, "a lone high surrogate"), 0;
		p->s += 2;
		if (!hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return fail(p, "a lone high surrogate"), 0;
		cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (cp == 0)
		return fail(p, "a NUL in a string"), 0;
	if (cp < 0x80)
		return u[0] = (char)cp, 1;
	if (cp < 0x800)
		return u[0] = (char)(0xc0 | cp >> 6),
		       u[1] = (char)(0x80 | (cp & 0x3f)), 2;
	if (cp < 0x10000)
		return u[0] = (char)(0xe0 | cp >> 12),
		       u[1] = (char)(0x80 | (cp >> 6 & 0x3f)),
		       u[2] = (char)(0x80 | (cp & 0x3f)), 3;
	u[0] = (char)(0xf0 | cp >> 18);
	u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	u[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* One escape after the backslash, into u: its length, 0 on an error. */
static size_t escape(struct jp *p, char *u)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;

	if (p->s >= p->end)
		return fail(p, "a string cut short"), 0;
	if (*p->s == 'u') {
		p->s++;
		return unicode_esc(p, u);
	}
	k = memchr(from, *p->s, sizeof(from) - 1);
	if (!k)
		return fail(p, "an unknown escape"), 0;
	p->s++;
	u[0] = to[k - from];
	return 1;
}

/* A string at p (after ws), decoded into out (NUL-terminated) when out
 * is not NULL: one that does not fit is an error. */
static bool string(struct jp *p, char *out, size_t size)
{
	size_t n = 0, k;
	char u[4];

	if (p->s >= p->end || *p->s != '"')
		return fail(p, "not JSON");
	p->s++;
	for (;;) {
		const unsigned char *c = p->s;

		if (c >= p->end)
			return fail(p, "a string cut short");
		if (*c == '"')
			break;
		if (*c < 0x20)
			return fail(p, "a control byte in a string");
		if (*c == '\\') {
			p->s++;
			k = escape(p, u);
			if (!k)
				return false;
		} else if (*c < 0x80) {
			u[0] = (char)*c;
			k = 1;
			p->s++;
		} else {
			k = utf8_len(c, p->end);
			if (!k)
				return fail(p, "a string that is not UTF-8");
			memcpy(u, c, k);
			p->s += k;
		}
		if (out && n + k >= size)
			return fail(p, "a string too long for its field");
		if (out)
			memcpy(out + n, u, k);
		n += k;
	}
	p->s++;
	if (out)
		out[n] = '\0';
	return true;
}

static bool digits(struct jp *p)
{
	const unsigned char *s = p->s;

	while (p->s < p->end && *p->s >= '0' && *p->s <= '9')
		p->s++;
	return p->s > s;
}

/* -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
static bool number(struct jp *p, struct jval *v)
{
	const unsigned char *s = p->s;
	char buf[64], *e;

	v->integer = true;
	if (p->s < p->end && *p->s == '-')
		p->s++;
	if (p->s < p->end && *p->s == '0')
		p->s++;
	else if (!digits(p))
		return fail(p, "not JSON");
	if (p->s < p->end && *p->s == '.') {
		p->s++;
		v->integer = false;
		if (!digits(p))
			return fail(p, "a number without digits after '.'");
	}
	if (p->s < p->end && (*p->s == 'e' || *p->s == 'E')) {
		p->s++;
		v->integer = false;
		if (p->s < p->end && (*p->s == '+' || *p->s == '-'))
			p->s++;
		if (!digits(p))
			return fail(p, "a number without an exponent");
	}
	if ((size_t)(p->s - s) >= sizeof(buf))
		return fail(p, "a number too long");
	memcpy(buf, s, (size_t)(p->s - s));
	buf[p->s - s] = '\0';
	v->t = J_NUM;
	errno = 0;
	v->num = strtod(buf, &e);
	if (!isfinite(v->num))
		return fail(p, "a number out of range");
	if (v->integer) {
		errno = 0;
		v->i = strtoll(buf, &e, 10);
		v->integer = errno != ERANGE;
	}
	return true;
}

static bool value(struct jp *p, struct jval *v, char *out, size_t size);

/* An object or an array, after its opening bracket: checked, skipped. */
static bool container(struct jp *p, bool is_obj)
{
	unsigned char close = is_obj ? '}' : ']';
	struct jval v;

	if (++p->depth > J_DEPTH)
		return fail(p, "nested too deep");
	ws(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		p->depth--;
		return true;
	}
	for (;;) {
		if (is_obj) {
			if (!string(p, NULL, 0))
				return false;
			ws(p);
			if (p->s >= p->end || *p->s++ != ':')
				return fail(p, "not JSON");
		}
		if (!value(p, &v, NULL, 0))
			return false;
		ws(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			ws(p);
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			p->depth--;
			return true;
		}
		return fail(p, "not JSON");
	}
}

/* Any value (with the whitespace around it); a string decoded into out
 * when out is not NULL. */
static bool value(struct jp *p, struct jval *v, char *out, size_t size)
{
	bool r;

	ws(p);
	if (p->s >= p->end)
		return fail(p, "not JSON");
	switch (*p->s) {
	case '"':
		v->t = J_STR;
		r = string(p, out, size);
		break;
	case '{':
	case '[':
		v->t = *p->s == '{' ? J_OBJ : J_ARR;
		p->s++;
		r = container(p, v->t == J_OBJ);
		break;
	case 't':
	case 'f':
		v->t = J_BOOL;
		r = lit(p, *p->s == 't' ? "true" : "false");
		break;
	case 'n':
		v->t = J_NULL;
		r = lit(p, "null");
		break;
	default:
		r = number(p, v);
	}
	ws(p);
	return r;
}

/* ------------------------------------------------------------ the line */

enum fkind {
	F_VERSION,	/* 1 */
	F_TIME,		/* an integer >= 0 */
	F_MODE,		/* a mode's name */
	F_RESULT,	/* ok, failed, skipped */
	F_SECONDS,	/* a number >= 0 */
	F_SECONDS_NULL,	/* a number >= 0 or null */
	F_IRQ,		/* an integer >= 0 or null */
	F_STR_NULL,	/* a string or null */
};

static const struct field {
	const char *key;
	enum fkind kind;
	size_t off, size;
} fields[] = {
	{ "v", F_VERSION, 0, 0 },
	{ "time", F_TIME, offsetof(struct pm_hist_rec, time), 0 },
	{ "mode", F_MODE, offsetof(struct pm_hist_rec, mode), 0 },
	{ "result", F_RESULT, offsetof(struct pm_hist_rec, result), 0 },
	{ "resume_s", F_SECONDS, offsetof(struct pm_hist_rec, resume_s), 0 },
	{ "trace_resume_s", F_SECONDS_NULL,
	  offsetof(struct pm_hist_rec, trace_resume_s), 0 },
	{ "wake_irq", F_IRQ, offsetof(struct pm_hist_rec, wake_irq), 0 },
	{ "wake_irq_name", F_STR_NULL,
	  offsetof(struct pm_hist_rec, wake_irq_name),
	  sizeof(((struct pm_hist_rec *)0)->wake_irq_name) },
	{ "failed_device", F_STR_NULL,
	  offsetof(struct pm_hist_rec, failed_device),
	  sizeof(((struct pm_hist_rec *)0)->failed_device) },
	{ "failed_driver", F_STR_NULL,
	  offsetof(struct pm_hist_rec, failed_driver),
	  sizeof(((struct pm_hist_rec *)0)->failed_driver) },
};

#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

/* A string field's value: a mode's name, a result. */
static bool word_field(struct jp *p, const struct field *f, const char *s,
		       struct pm_hist_rec *r)
{
	static const char *const results[] = { "ok", "failed", "skipped" };
	enum pm_sleep_mode m;

	if (f->kind == F_MODE) {
		if (pm_sleep_mode_parse(s, &m) < 0 ||
		    strcmp(pm_sleep_mode_name(m), s))
			return fail(p, "\"mode\" is not a mode's name");
		r->mode = m;
		return true;
	}
	for (size_t i = 0; i < 3; i++)
		if (!strcmp(s, results[i])) {
			r->result = (enum pm_hist_result)i;
			return true;
		}
	return fail(p, "\"result\" is not ok, failed or skipped");
}

/* The value of a known key, checked against its kind. */
static bool field_value(struct jp *p, const struct field *f,
			struct pm_hist_rec *r)
{
	char word[32] = "", *str = (char *)r + f->off;
	bool is_str = f->kind == F_MODE || f->kind == F_RESULT ||
		      f->kind == F_STR_NULL;
	struct jval v = { 0 };

	if (!value(p, &v, is_str ? (f->kind == F_STR_NULL ? str : word) : NULL,
		   f->kind == F_STR_NULL ? f->size : sizeof(word)))
		return false;
	if (v.t == J_NULL && (f->kind == F_SECONDS_NULL || f->kind == F_IRQ ||
			      f->kind == F_STR_NULL)) {
		if (f->kind == F_SECONDS_NULL)
			*(double *)(void *)str = NAN;
		else if (f->kind == F_IRQ)
			*(int64_t *)(void *)str = -1;
		else
			str[0] = '\0';
		return true;
	}
	if (is_str != (v.t == J_STR) || (!is_str && v.t != J_NUM))
		return fail(p, "a field of the wrong type");
	switch (f->kind) {
	case F_VERSION:
		return v.integer && v.i == 1 ? true :
					       fail(p, "\"v\" is not 1");
	case F_TIME:
	case F_IRQ:
		if (!v.integer || v.i < 0)
			return fail(p, "a field that is not an integer >= 0");
		*(int64_t *)(void *)str = v.i;
		return true;
	case F_SECONDS:
	case F_SECONDS_NULL:
		if (v.num < 0)
			return fail(p, "a negative time");
		*(double *)(void *)str = v.num;
		return true;
	case F_MODE:
	case F_RESULT:
		return word_field(p, f, word, r);
	default:
		return true;
	}
}

/* One member of the line's object: a known key's value into r. */
static bool member(struct jp *p, struct pm_hist_rec *r, unsigned *seen)
{
	char key[256];
	struct jval v;

	ws(p);
	if (!string(p, key, sizeof(key)))
		return false;
	ws(p);
	if (p->s >= p->end || *p->s++ != ':')
		return fail(p, "not JSON");
	for (size_t i = 0; i < NFIELDS; i++) {
		if (strcmp(key, fields[i].key))
			continue;
		if (*seen & 1u << i)
			return fail(p, "a key twice");
		*seen |= 1u << i;
		return field_value(p, &fields[i], r);
	}
	return value(p, &v, NULL, 0);
}

int pm_hist_parse(const char *line, size_t len, struct pm_hist_rec *r,
		  char *why, size_t size)
{
	struct jp p = { (const unsigned char *)line,
			(const unsigned char *)line + len, NULL, 1 };
	unsigned seen = 0;
	bool ok;

	memset(r, 0, sizeof(*r));
	ws(&p);
	ok = p.s < p.end && *p.s++ == '{';
	if (!ok)
		fail(&p, "not a JSON object");
	ws(&p);
	if (ok && p.s < p.end && *p.s == '}')
		p.s++;
	else
		while (ok) {
			ok = member(&p, r, &seen);
			if (ok && p.s < p.end && *p.s == ',') {
				p.s++;
				continue;
			}
			if (ok && (p.s >= p.end || *p.s++ != '}'))
				ok = fail(&p, "not JSON");
			break;
		}
	ws(&p);
	if (ok && p.s != p.end)
		ok = fail(&p, "more after the object");
	for (size_t i = 0; ok && i < NFIELDS; i++)
		if (!(seen & 1u << i)) {
			snprintf(why, size, "no \"%s\"", fields[i].key);
			return -EINVAL;
		}
	if (!ok)
		snprintf(why, size, "%s", p.why);
	return ok ? 0 : -EINVAL;
}

/* ------------------------------------------------------------ the log */

static int add_rec(struct pm_hist *h, const struct pm_hist_rec *r)
{
	if (h->n == h->cap) {
		int cap = h->cap ? h->cap * 2 : 64;
		void *n = realloc(h->rec, (size_t)cap * sizeof(*h->rec));

		if (!n)
			return -ENOMEM;
		h->rec = n;
		h->cap = cap;
	}
	h->rec[h->n++] = *r;
	return 0;
}

static void bad_line(struct pm_hist *h, const char *file, int line,
		     const char *why)
{
	if (!h->unparsed++)
		snprintf(h->first_bad, sizeof(h->first_bad), "%s:%d: %s",
			 file, line, why);
}

int pm_hist_add_text(struct pm_hist *h, const char *file, const char *text,
		     size_t len)
{
	const char *s = text, *end = text + len;
	struct pm_hist_rec r;
	char why[128];

	for (int no = 1; s < end; no++) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

		h->lines++;
		if (!nl)
			bad_line(h, file, no, "cut: no end of line");
		else if (n > PM_HIST_LINE_MAX)
			bad_line(h, file, no, "longer than 8192 bytes");
		else if (pm_hist_parse(s, n, &r, why, sizeof(why)) < 0)
			bad_line(h, file, no, why);
		else if (add_rec(h, &r) < 0)
			return -ENOMEM;
		s += n + 1;
	}
	return 0;
}

int pm_hist_read(struct pm_ctx *ctx, struct pm_hist *h)
{
	static const char *const logs[] = { PM_HIST_OLD, PM_HIST_LOG };
	char *text;
	ssize_t n;

	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < 2; i++) {
		n = pm_file_read(ctx, logs[i], &text);
		if (n == -ENOENT) {
			pm_err_clear(ctx);
			continue;
		}
		if (n < 0) {
			pm_hist_free(h);
			return (int)n;
		}
		h->files++;
		n = pm_hist_add_text(h, logs[i], text, (size_t)n);
		free(text);
		if (n < 0) {
			pm_hist_free(h);
			return pm_err_set(ctx, "read", logs[i], NULL, ENOMEM,
					  NULL);
		}
	}
	return 0;
}

void pm_hist_free(struct pm_hist *h)
{
	free(h->rec);
	h->rec = NULL;
	h->n = h->cap = 0;
}

/* ------------------------------------------------------------ weeks */

static bool leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

void pm_hist_iso_week(int64_t t, int *year, int *week)
{
	time_t tt = (time_t)t;
	struct tm tm;
	int thu;

	if (!localtime_r(&tt, &tm)) {
		*year = 1970;
		*week = 1;
		return;
	}
	*year = tm.tm_year + 1900;
	/* The week is the year's whose Thursday it holds. */
	thu = tm.tm_yday - (tm.tm_wday + 6) % 7 + 3;
	if (thu < 0) {
		(*year)--;
		thu += leap(*year) ? 366 : 365;
	} else if (thu >= (leap(*year) ? 366 : 365)) {
		thu -= leap(*year) ? 366 : 365;
		(*year)++;
	}
	*week = thu / 7 + 1;
}

struct keyed {
	int key;	/* year * 100 + week */
	int i;		/* the record */
};

static int by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	return x->key != y->key ? (x->key > y->key) - (x->key < y->key) :
				  (x->i > y->i) - (x->i < y->i);
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int by_count(const void *a, const void *b)
{
	const struct pm_hist_wake *x = a, *y = b;

	if (x->cycles != y->cycles)
		return x->cycles < y->cycles ? 1 : -1;
	if (x->irq != y->irq)
		return (x->irq > y->irq) - (x->irq < y->irq);
	return strcmp(x->name, y->name);
}

/* The lower median and the largest of v[0..n): times of the log. */
static void median_worst(double *v, unsigned n, double *median,
			 double *worst)
{
	*median = *worst = NAN;
	if (!n)
		return;
	qsort(v, n, sizeof(*v), by_value);
	*median = v[(n - 1) / 2];
	*worst = v[n - 1];
}

static int count_wake(struct pm_hist_week *w, const struct pm_hist_rec *r)
{
	void *n;

	for (int i = 0; i < w->nwake; i++)
		if (w->wake[i].irq == r->wake_irq &&
		    !strcmp(w->wake[i].name, r->wake_irq_name)) {
			w->wake[i].cycles++;
			return 0;
		}
	n = realloc(w->wake, (size_t)(w->nwake + 1) * sizeof(*w->wake));
	if (!n)
		return -ENOMEM;
	w->wake = n;
	w->wake[w->nwake].irq = r->wake_irq;
	snprintf(w->wake[w->nwake].name, sizeof(w->wake[0].name), "%s",
		 r->wake_irq_name);
	w->wake[w->nwake++].cycles = 1;
	return 0;
}

/* One week from the records k[0..n), all of its key; tmp holds n. */
static int one_week(const struct pm_hist *h, const struct keyed *k, int n,
		    double *tmp, struct pm_hist_week *w)
{
	double *tr = tmp + n;

	memset(w, 0, sizeof(*w));
	w->year = k[0].key / 100;
	w->week = k[0].key % 100;
	for (int i = 0; i < n; i++) {
		const struct pm_hist_rec *r = &h->rec[k[i].i];

		w->cycles++;
		if (r->result != PM_HIST_OK) {
			w->failed += r->result == PM_HIST_FAILED;
			w->skipped += r->result == PM_HIST_SKIPPED;
			continue;
		}
		w->ok++;
		tmp[w->nresume++] = r->resume_s;
		if (!isnan(r->trace_resume_s))
			tr[w->ntrace++] = r->trace_resume_s;
		if (count_wake(w, r) < 0)
			return -ENOMEM;
	}
	median_worst(tmp, w->nresume, &w->resume_median_s, &w->resume_worst_s);
	median_worst(tr, w->ntrace, &w->trace_median_s, &w->trace_worst_s);
	if (w->nwake > 1)
		qsort(w->wake, (size_t)w->nwake, sizeof(*w->wake), by_count);
	return 0;
}

int pm_hist_weeks(const struct pm_hist *h, struct pm_hist_week **out)
{
	struct keyed *k = malloc((size_t)(h->n ? h->n : 1) * sizeof(*k));
	double *tmp = malloc((size_t)(h->n ? h->n : 1) * 2 * sizeof(*tmp));
	struct pm_hist_week *w = calloc((size_t)(h->n ? h->n : 1), sizeof(*w));
	int nw = 0, y, wk;

	*out = NULL;
	if (!k || !tmp || !w)
		goto nomem;
	for (int i = 0; i < h->n; i++) {
		pm_hist_iso_week(h->rec[i].time, &y, &wk);
		k[i].key = y * 100 + wk;
		k[i].i = i;
	}
	qsort(k, (size_t)h->n, sizeof(*k), by_key);
	for (int i = 0, j; i < h->n; i = j) {
		for (j = i; j < h->n && k[j].key == k[i].key; j++)
			;
		if (one_week(h, k + i, j - i, tmp, &w[nw++]) < 0)
			goto nomem;
	}
	free(k);
	free(tmp);
	*out = w;
	return nw;
nomem:
	free(k);
	free(tmp);
	pm_hist_weeks_free(w, nw);
	return -ENOMEM;
}

void pm_hist_weeks_free(struct pm_hist_week *w, int n)
{
	for (int i = 0; w && i < n; i++)
		free(w[i].wake);
	free(w);
}
