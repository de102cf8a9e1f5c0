// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The output formats: json (and JSON Lines), kv for eval, csv, prom, and
 * the human stream; each escapes kernel strings so they stay inert.
 * --output FILE is written to a temporary file and renamed into place.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm.h"

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

void pm_kv_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

void pm_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void pm_prom_label_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\\\", f);
		else if (*s == '"')
			fputs("\\\"", f);
		else if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
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

int pm_out_open(struct pm_out *o, enum pm_fmt fmt, const char *path)
{
	const char *nc = getenv("NO_COLOR");

	memset(o, 0, sizeof(*o));
	o->fmt = fmt;
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		o->color = fmt == PM_FMT_HUMAN && isatty(STDOUT_FILENO) &&
			   !(nc && *nc);
		return 0;
	}
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t len = strlen(path) + 16;
	struct stat st;
	int fd;

	/*
	 * A folder cannot be renamed over: say so now, before a temporary
	 * file is made in its parent (for "/tmp", in /).
	 */
	if ((slash && !slash[1]) ||
	    (stat(path, &st) == 0 && S_ISDIR(st.st_mode)))
		return -EISDIR;
	o->tmp_path = malloc(len);
	o->final_path = strdup(path);
	if (!o->tmp_path || !o->final_path) {
		pm_out_abort(o);
		return -ENOMEM;
	}
	/* The same folder, so the rename is atomic. */
	snprintf(o->tmp_path, len, "%.*s.%s.XXXXXX", (int)dirlen, path,
		 path + dirlen);
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

int pm_out_commit(struct pm_out *o)
{
	int r = 0;

	free(o->join);
	o->join = NULL;
	if (!o->tmp_path) {
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
	if (!r && fchmod(fileno(o->f), 0644) < 0)
		r = -errno;
	if (!r && fsync(fileno(o->f)) < 0 && errno != EINVAL)
		r = -errno;
	if (fclose(o->f) != 0 && !r)
		r = -errno;
	o->f = NULL;
	if (!r && rename(o->tmp_path, o->final_path) < 0)
		r = -errno;
	if (r)
		unlink(o->tmp_path);
	free(o->tmp_path);
	free(o->final_path);
	o->tmp_path = o->final_path = NULL;
	return r;
}

void pm_out_abort(struct pm_out *o)
{
	free(o->join);
	o->join = NULL;
	if (o->tmp_path) {
		if (o->f)
			(void)fclose(o->f);
		o->f = NULL;
		unlink(o->tmp_path);
	}
	free(o->tmp_path);
	free(o->final_path);
	o->tmp_path = o->final_path = NULL;
}

void pm_out_printf(struct pm_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
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

/* A scalar: text is already JSON (quoted or not); raw is its kv value. */
static void scalar(struct pm_out *o, const char *key, const char *json,
		   const char *raw, bool is_string)
{
	struct pm_out_level *l = top(o);

	if (o->fmt == PM_FMT_JSON) {
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

void pm_out_u64(struct pm_out *o, const char *key, uint64_t v)
{
	char b[24];

	snprintf(b, sizeof(b), "%llu", (unsigned long long)v);
	scalar(o, key, b, b, false);
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

void pm_out_double(struct pm_out *o, const char *key, double v, int prec)
{
	char b[64];

	if (!isfinite(v)) {
		pm_out_null(o, key);
		return;
	}
	snprintf(b, sizeof(b), "%.*f", prec, v);
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

void pm_out_prom_meta(struct pm_out *o, const char *name, const char *type,
		      const char *help)
{
	if (o->fmt != PM_FMT_PROM)
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

/*
 * The shortest of 15, 16 or 17 significant digits that reads back as the
 * same double: a timestamp or a counter keeps every digit.
 */
static const char *prom_double(double v, char *buf, size_t size)
{
	for (int prec = 15; prec < 17; prec++) {
		snprintf(buf, size, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return buf;
	}
	snprintf(buf, size, "%.17g", v);
	return buf;
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
	else if (v == floor(v) && fabs(v) < 9007199254740992.0)
		fprintf(o->f, " %.0f\n", v);
	else
		fprintf(o->f, " %s\n", prom_double(v, b, sizeof(b)));
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
