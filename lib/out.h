/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the output documents: human text, JSON, kv, CSV, Prometheus, to
 * stdout or a file replaced whole (lib/out.c).
 */
#ifndef PM_OUT_H
#define PM_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdarg.h>

#include "cpuset.h"

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
void pm_out_cpuspan(struct pm_out *o, const char *key,
		    const struct pm_cpuspan *c);
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
/* The text form with & < > " ' as HTML entities. */
void pm_html_escape(FILE *f, const char *s);
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

#endif /* PM_OUT_H */
