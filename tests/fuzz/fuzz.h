/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared helpers of the libFuzzer targets in tests/fuzz: copies of the
 * input in the shape each libpm function expects, and CHECK(), which
 * turns a broken promise of pm.h into a crash libFuzzer keeps.
 */
#ifndef PM_FUZZ_H
#define PM_FUZZ_H

#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A broken invariant: say which, then abort (libFuzzer saves the input). */
#define CHECK(cond)                                         \
	do {                                                \
		if (!(cond))                                \
			fz_fail(__FILE__, __LINE__, #cond); \
	} while (0)

static inline __attribute__((noreturn)) void fz_fail(const char *file, int line,
						     const char *what)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
	fflush(stderr);
	abort();
}

/* The input as a malloc'ed C string (an embedded NUL ends it early). */
static inline char *fz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Exactly size bytes, for functions that take a length (no NUL added). */
static inline char *fz_mem(const uint8_t *data, size_t size)
{
	char *s = malloc(size ? size : 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	return s;
}

/* A string that is NUL-terminated within size bytes. */
static inline int fz_terminated(const char *s, size_t size)
{
	return memchr(s, '\0', size) != NULL;
}

static inline int fz_rm_one(const char *p, const struct stat *st, int type,
			    struct FTW *f)
{
	(void)st;
	(void)type;
	(void)f;
	return remove(p);
}

/* Remove the tree a target made at its start (at exit: atexit). */
static inline void fz_rmtree(const char *root)
{
	if (root[0])
		nftw(root, fz_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* PM_FUZZ_H */
