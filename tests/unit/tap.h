/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A header-only TAP producer for libpm's unit tests: each check prints
 * "ok N - desc" or "not ok N - desc" plus "#" lines with what was got and
 * expected; done_testing() prints the plan and gives the exit status.
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define TAP_DESC_MAX 512

static unsigned tap_run, tap_failed, tap_planned;

/* Optional: announce the number of checks up front. */
static inline void plan(unsigned n)
{
	tap_planned = n;
	printf("1..%u\n", n);
	fflush(stdout);
}

/*
 * A description or a value made printable on one line: control bytes and
 * bytes >= 0x7f as \xNN, and '#' as "\#" (TAP's directive marker) in
 * descriptions.
 */
static inline void tap_printable(char *out, size_t size, const char *s,
				 bool is_desc)
{
	size_t o = 0;

	if (!size)
		return;
	for (; s && *s && o + 5 < size; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c >= 0x7f || c == '\\')
			o += (size_t)snprintf(out + o, size - o,
					      c == '\\' ? "\\\\" : "\\x%02x",
					      c);
		else if (c == '#' && is_desc)
			o += (size_t)snprintf(out + o, size - o, "\\#");
		else
			out[o++] = (char)c;
	}
	out[o] = '\0';
}

static inline bool tap_vresult(bool pass, const char *fmt, va_list ap)
{
	char raw[TAP_DESC_MAX], desc[TAP_DESC_MAX * 2];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	tap_printable(desc, sizeof(desc), raw, true);
	tap_run++;
	if (!pass)
		tap_failed++;
	printf("%sok %u - %s\n", pass ? "" : "not ", tap_run, desc);
	/* A crash in the next check must not eat this line. */
	fflush(stdout);
	return pass;
}

static inline bool ok(bool pass, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline bool ok(bool pass, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vresult(pass, fmt, ap);
	va_end(ap);
	return r;
}

/* A "#" line: shown by tests/run. */
static inline void diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	fflush(stdout);
}

/* A check that cannot run here: counts as passed, marked "# skip". */
static inline void skip(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void skip(const char *why, const char *fmt, ...)
{
	char raw[TAP_DESC_MAX], desc[TAP_DESC_MAX * 2];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	tap_printable(desc, sizeof(desc), raw, true);
	tap_run++;
	printf("ok %u - %s # skip %s\n", tap_run, desc, why);
	fflush(stdout);
}

static inline bool is_int(long long got, long long want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline bool is_int(long long got, long long want, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vresult(got == want, fmt, ap);
	va_end(ap);
	if (!r)
		diag("     got: %lld\n# expected: %lld", got, want);
	return r;
}

static inline bool is_u64(uint64_t got, uint64_t want, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline bool is_u64(uint64_t got, uint64_t want, const char *fmt, ...)
{
	va_list ap;
	bool r;

	va_start(ap, fmt);
	r = tap_vresult(got == want, fmt, ap);
	va_end(ap);
	if (!r)
		diag("     got: %llu\n# expected: %llu",
		     (unsigned long long)got, (unsigned long long)want);
	return r;
}

/* NULL is a value of its own: equal only to NULL. */
static inline bool is_str(const char *got, const char *want, const char *fmt,
			  ...) __attribute__((format(printf, 3, 4)));
static inline bool is_str(const char *got, const char *want, const char *fmt,
			  ...)
{
	char g[TAP_DESC_MAX * 2], w[TAP_DESC_MAX * 2];
	bool pass = got && want ? !strcmp(got, want) : got == want;
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(pass, fmt, ap);
	va_end(ap);
	if (!pass) {
		tap_printable(g, sizeof(g), got, false);
		tap_printable(w, sizeof(w), want, false);
		diag("     got: %s%s%s\n# expected: %s%s%s", got ? "'" : "",
		     got ? g : "NULL", got ? "'" : "", want ? "'" : "",
		     want ? w : "NULL", want ? "'" : "");
	}
	return pass;
}

/* Print the plan if none was given; the exit status for main(). */
static inline int done_testing(void)
{
	if (!tap_planned) {
		printf("1..%u\n", tap_run);
	} else if (tap_planned != tap_run) {
		diag("planned %u tests but ran %u", tap_planned, tap_run);
		fflush(stdout);
		return 1;
	}
	if (tap_failed)
		diag("failed %u of %u tests", tap_failed, tap_run);
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* TAP_H */
