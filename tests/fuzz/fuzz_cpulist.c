// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "cpulist": the kernel CPU range-list parsers and the
 * formatter of lib/parse.c.  The input, NUL-terminated, is given to
 * pm_cpulist_parse and pm_cpulist_parse_spaced; every set they accept
 * must format to a list that parses to the same set (and formats the
 * same again).  The input's bytes, read as 16-bit CPU numbers, also
 * make a set of their own for the formatter.  Truncated formatting
 * must return the full length and leave a prefix of the full text.
 */
#include <errno.h>

#include "fuzz.h"

/* The longest list: every other CPU of 8192, up to 5 characters each. */
#define LIST_MAX (PM_MAX_CPUS * 6 + 1)

static char full[LIST_MAX], again[LIST_MAX];

static unsigned count_by_next(const struct pm_cpuset *s)
{
	unsigned n = 0;

	pm_cpuset_foreach(cpu, s) {
		CHECK(cpu < PM_MAX_CPUS);
		CHECK(pm_cpuset_isset(s, (unsigned)cpu));
		n++;
	}
	return n;
}

static void round_trip(const struct pm_cpuset *set)
{
	struct pm_cpuset back, back2;
	size_t len, len2, cuts[5];

	len = pm_cpulist_format(set, full, sizeof(full));
	CHECK(len < sizeof(full));
	CHECK(strlen(full) == len);
	CHECK(pm_cpuset_empty(set) == (len == 0));
	CHECK(pm_cpuset_count(set) == count_by_next(set));
	/* The formatted list is a list. */
	CHECK(pm_cpulist_parse(full, &back) == 0);
	CHECK(pm_cpuset_equal(set, &back));
	len2 = pm_cpulist_format(&back, again, sizeof(again));
	CHECK(len2 == len && !strcmp(full, again));
	/* With a trailing newline, as the kernel prints it. */
	if (len + 1 < sizeof(full)) {
		memcpy(again, full, len);
		again[len] = '\n';
		again[len + 1] = '\0';
		CHECK(pm_cpulist_parse(again, &back2) == 0);
		CHECK(pm_cpuset_equal(set, &back2));
	}
	/* Truncation: the length needed, and a prefix of the text. */
	cuts[0] = 0;
	cuts[1] = 1;
	cuts[2] = len / 2;
	cuts[3] = len;
	cuts[4] = len + 1;
	for (int i = 0; i < 5; i++) {
		size_t sz = cuts[i];
		char *b = malloc(sz ? sz : 1);

		if (!b)
			abort();
		CHECK(pm_cpulist_format(set, b, sz) == len);
		if (sz) {
			size_t keep = len < sz - 1 ? len : sz - 1;

			CHECK(fz_terminated(b, sz));
			CHECK(strlen(b) == keep);
			CHECK(!memcmp(b, full, keep));
		}
		free(b);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_cpuset set, bytes;
	char *s = fz_str(data, size);
	int r;

	r = pm_cpulist_parse(s, &set);
	CHECK(r == 0 || r == -EINVAL || r == -ERANGE);
	if (!r)
		round_trip(&set);

	r = pm_cpulist_parse_spaced(s, &set);
	CHECK(r == 0 || r == -EINVAL || r == -ERANGE);
	if (!r)
		round_trip(&set);

	pm_cpuset_zero(&bytes);
	for (size_t i = 0; i + 1 < size; i += 2)
		pm_cpuset_set(&bytes, ((unsigned)data[i] << 8 | data[i + 1]) %
					      PM_MAX_CPUS);
	round_trip(&bytes);
	free(s);
	return 0;
}
