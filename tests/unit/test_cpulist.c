// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of CPU sets and the kernel's CPU list formats: range lists
 * (online, present, offline), space-separated lists (cpufreq), the
 * compact formatter and its round trip.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* The longest list: every other CPU, "0,2,4,...,8190". */
#define LIST_MAX 32768

/* A set from a list of single CPUs ending with -1. */
static struct pm_cpuset set_of(const int *cpus)
{
	struct pm_cpuset s;

	pm_cpuset_zero(&s);
	for (; *cpus >= 0; cpus++)
		pm_cpuset_set(&s, (unsigned)*cpus);
	return s;
}

static struct pm_cpuset set_range(unsigned a, unsigned b)
{
	struct pm_cpuset s;

	pm_cpuset_zero(&s);
	for (unsigned c = a; c <= b; c++)
		pm_cpuset_set(&s, c);
	return s;
}

/* An independent formatter to check pm_cpulist_format against. */
static void ref_format(const struct pm_cpuset *s, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (unsigned c = 0; c < PM_MAX_CPUS; c++) {
		unsigned e;

		if (!pm_cpuset_isset(s, c))
			continue;
		for (e = c; e + 1 < PM_MAX_CPUS && pm_cpuset_isset(s, e + 1);)
			e++;
		len += (size_t)snprintf(buf + len, size - len, "%s%u",
					len ? "," : "", c);
		if (e > c)
			len += (size_t)snprintf(buf + len, size - len, "-%u",
						e);
		c = e;
	}
}

static const char *fmt(const struct pm_cpuset *s)
{
	static char buf[LIST_MAX];

	pm_cpulist_format(s, buf, sizeof(buf));
	return buf;
}

/* ---------------------------------------------------------------- parse */

struct list_case {
	const char *in;
	int ret;
	const char *want; /* the set, formatted by ref_format */
	unsigned count;
};

static const struct list_case list_cases[] = {
	{ "0", 0, "0", 1 },
	{ "0\n", 0, "0", 1 },
	{ "5", 0, "5", 1 },
	{ "0-3", 0, "0-3", 4 },
	{ "0-3\n", 0, "0-3", 4 },
	{ "0-3,5,7-8", 0, "0-3,5,7-8", 7 },
	{ "0-3,5,7-8\n", 0, "0-3,5,7-8", 7 },
	{ "0-0", 0, "0", 1 },
	{ "3-3", 0, "3", 1 },
	{ "0,1,2,3", 0, "0-3", 4 },
	{ "3,2,1,0", 0, "0-3", 4 },
	{ "0-3,2-5", 0, "0-5", 6 },
	{ "1,1,1", 0, "1", 1 },
	{ "007", 0, "7", 1 },
	{ "0-1,4-5,8-9,12-13", 0, "0-1,4-5,8-9,12-13", 8 },
	{ "0-7:2/4", 0, "0-1,4-5", 4 },
	{ "0-7:1/2", 0, "0,2,4,6", 4 },
	{ "0-7:4/4", 0, "0-7", 8 },
	{ "0-9:1/4", 0, "0,4,8", 3 },
	{ "2-10:3/5", 0, "2-4,7-9", 6 },
	{ "0-15:2/8,100", 0, "0-1,8-9,100", 5 },
	{ "0-8191:1/2", 0, NULL, 4096 },
	{ "\n", 0, "", 0 },
	{ "", 0, "", 0 },
	{ " ", 0, "", 0 },
	{ "\n\n", 0, "", 0 },
	{ "8191", 0, "8191", 1 },
	{ "0-8191", 0, "0-8191", 8192 },
	{ "8190-8191", 0, "8190-8191", 2 },
	{ "3-1", -EINVAL, NULL, 0 },
	{ "1-0", -EINVAL, NULL, 0 },
	{ "1,,2", -EINVAL, NULL, 0 },
	{ ",1", -EINVAL, NULL, 0 },
	{ "1,", -EINVAL, NULL, 0 },
	{ "1,\n", -EINVAL, NULL, 0 },
	{ ",", -EINVAL, NULL, 0 },
	{ "1-", -EINVAL, NULL, 0 },
	{ "-1", -EINVAL, NULL, 0 },
	{ "-", -EINVAL, NULL, 0 },
	{ "1--2", -EINVAL, NULL, 0 },
	{ "1-2-3", -EINVAL, NULL, 0 },
	{ "a", -EINVAL, NULL, 0 },
	{ "0-a", -EINVAL, NULL, 0 },
	{ "1 2", -EINVAL, NULL, 0 },
	{ "1, 2", -EINVAL, NULL, 0 },
	{ " 1", -EINVAL, NULL, 0 },
	{ "\n1", -EINVAL, NULL, 0 },
	{ "1\n2", -EINVAL, NULL, 0 },
	{ "1\t", -EINVAL, NULL, 0 },
	{ "+1", -EINVAL, NULL, 0 },
	{ "0x1", -EINVAL, NULL, 0 },
	{ "1;2", -EINVAL, NULL, 0 },
	{ "all", -EINVAL, NULL, 0 },
	{ "0-7:0/4", -EINVAL, NULL, 0 },
	{ "0-7:5/4", -EINVAL, NULL, 0 },
	{ "0-7:2/0", -EINVAL, NULL, 0 },
	{ "0-7:2", -EINVAL, NULL, 0 },
	{ "0-7:2/", -EINVAL, NULL, 0 },
	{ "0-7:/4", -EINVAL, NULL, 0 },
	{ "0-7:2:4", -EINVAL, NULL, 0 },
	{ "0:1/2", -EINVAL, NULL, 0 },
	{ "8192", -ERANGE, NULL, 0 },
	{ "0-8192", -ERANGE, NULL, 0 },
	{ "8192-8193", -ERANGE, NULL, 0 },
	{ "0,8192", -ERANGE, NULL, 0 },
	{ "4294967296", -ERANGE, NULL, 0 },
	{ "18446744073709551616", -ERANGE, NULL, 0 },
	{ "99999999999999999999999999", -ERANGE, NULL, 0 },
	{ "0-99999999999999999999", -ERANGE, NULL, 0 },
	{ "0-7:99999999999999999999/4", -ERANGE, NULL, 0 },
};

static void test_parse(void)
{
	static char want[LIST_MAX];

	for (size_t i = 0; i < ARRAY_SIZE(list_cases); i++) {
		const struct list_case *t = &list_cases[i];
		struct pm_cpuset s, before;
		int r;

		/* A failed parse must leave the set as it was. */
		before = set_range(100, 103);
		s = before;
		r = pm_cpulist_parse(t->in, &s);
		is_int(r, t->ret, "pm_cpulist_parse(\"%s\") returns %d", t->in,
		       t->ret);
		if (t->ret) {
			ok(pm_cpuset_equal(&s, &before),
			   "pm_cpulist_parse(\"%s\") leaves the set", t->in);
			continue;
		}
		is_int(pm_cpuset_count(&s), t->count,
		       "pm_cpulist_parse(\"%s\") has %u CPUs", t->in, t->count);
		if (t->want) {
			ref_format(&s, want, sizeof(want));
			is_str(want, t->want, "pm_cpulist_parse(\"%s\") set",
			       t->in);
		}
	}
	is_int(pm_cpulist_parse(NULL, &(struct pm_cpuset){ { 0 } }), -EINVAL,
	       "pm_cpulist_parse(NULL) is -EINVAL");

	/* A group list, member by member. */
	struct pm_cpuset s;

	pm_cpulist_parse("0-8191:1/2", &s);
	bool even = true;

	for (unsigned c = 0; c < PM_MAX_CPUS; c++)
		if (pm_cpuset_isset(&s, c) != !(c % 2))
			even = false;
	ok(even, "\"0-8191:1/2\" is every even CPU");
}

static void test_parse_spaced(void)
{
	static const struct list_case cases[] = {
		{ "0 1 2 3", 0, "0-3", 4 },
		{ "0 1 2 3\n", 0, "0-3", 4 },
		{ "0 1 2 3 \n", 0, "0-3", 4 },
		{ "0", 0, "0", 1 },
		{ "4 5", 0, "4-5", 2 },
		{ "3 1", 0, "1,3", 2 },
		{ "0  2", 0, "0,2", 2 },
		{ " 2", 0, "2", 1 },
		{ "0\t1", 0, "0-1", 2 },
		{ "8191", 0, "8191", 1 },
		{ "", 0, "", 0 },
		{ "\n", 0, "", 0 },
		{ "   ", 0, "", 0 },
		{ "0,1", -EINVAL, NULL, 0 },
		{ "0-3", -EINVAL, NULL, 0 },
		{ "0 a", -EINVAL, NULL, 0 },
		{ "1x", -EINVAL, NULL, 0 },
		{ "-1", -EINVAL, NULL, 0 },
		{ "+1", -EINVAL, NULL, 0 },
		{ "8192", -ERANGE, NULL, 0 },
		{ "0 99999999999999999999", -ERANGE, NULL, 0 },
	};
	char want[256];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct list_case *t = &cases[i];
		struct pm_cpuset s, before = set_range(7, 9);
		int r;

		s = before;
		r = pm_cpulist_parse_spaced(t->in, &s);
		is_int(r, t->ret, "pm_cpulist_parse_spaced(\"%s\") returns %d",
		       t->in, t->ret);
		if (t->ret) {
			ok(pm_cpuset_equal(&s, &before),
			   "pm_cpulist_parse_spaced(\"%s\") leaves the set",
			   t->in);
			continue;
		}
		is_int(pm_cpuset_count(&s), t->count,
		       "pm_cpulist_parse_spaced(\"%s\") count", t->in);
		ref_format(&s, want, sizeof(want));
		is_str(want, t->want, "pm_cpulist_parse_spaced(\"%s\") set",
		       t->in);
	}
	is_int(pm_cpulist_parse_spaced(NULL, &(struct pm_cpuset){ { 0 } }),
	       -EINVAL, "pm_cpulist_parse_spaced(NULL) is -EINVAL");
}

/* ---------------------------------------------------------------- format */

static void test_format(void)
{
	static const struct {
		int cpus[16];
		const char *want;
	} cases[] = {
		{ { -1 }, "" },
		{ { 0, -1 }, "0" },
		{ { 1, -1 }, "1" },
		{ { 63, -1 }, "63" },
		{ { 64, -1 }, "64" },
		{ { 63, 64, -1 }, "63-64" },
		{ { 8191, -1 }, "8191" },
		{ { 0, 8191, -1 }, "0,8191" },
		{ { 8190, 8191, -1 }, "8190-8191" },
		{ { 0, 1, 2, 3, 5, 7, 8, -1 }, "0-3,5,7-8" },
		{ { 0, 2, 4, -1 }, "0,2,4" },
		{ { 0, 1, -1 }, "0-1" },
		{ { 1, 2, 3, 10, 11, 12, 100, -1 }, "1-3,10-12,100" },
	};
	struct pm_cpuset s;
	char buf[64];
	size_t n;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		s = set_of(cases[i].cpus);
		memset(buf, 'x', sizeof(buf));
		n = pm_cpulist_format(&s, buf, sizeof(buf));
		is_str(buf, cases[i].want, "pm_cpulist_format \"%s\"",
		       cases[i].want);
		is_int((long long)n, (long long)strlen(cases[i].want),
		       "pm_cpulist_format \"%s\" length", cases[i].want);
	}

	s = set_range(0, 8191);
	is_str(fmt(&s), "0-8191", "pm_cpulist_format of every CPU");
	s = set_range(0, 63);
	pm_cpuset_set(&s, 65);
	is_str(fmt(&s), "0-63,65", "pm_cpulist_format across a word");
	s = set_range(60, 130);
	is_str(fmt(&s), "60-130", "pm_cpulist_format over two words");

	/* Truncation: the needed length comes back, the text is cut and
	 * terminated. */
	static const int c7[] = { 0, 1, 2, 3, 5, 7, 8, -1 };
	static const struct {
		size_t size;
		const char *want;
	} cut[] = {
		{ 1, "" },	     { 2, "0" },	  { 4, "0-3" },
		{ 5, "0-3," },	     { 6, "0-3,5" },	  { 9, "0-3,5,7-" },
		{ 10, "0-3,5,7-8" }, { 11, "0-3,5,7-8" },
	};

	s = set_of(c7);
	for (size_t i = 0; i < ARRAY_SIZE(cut); i++) {
		memset(buf, 'x', sizeof(buf));
		n = pm_cpulist_format(&s, buf, cut[i].size);
		is_int((long long)n, 9,
		       "pm_cpulist_format size %zu: needed "
		       "length",
		       cut[i].size);
		is_str(buf, cut[i].want, "pm_cpulist_format size %zu: text",
		       cut[i].size);
		ok(buf[cut[i].size] == 'x' || cut[i].size >= 10,
		   "pm_cpulist_format size %zu: nothing past the buffer",
		   cut[i].size);
	}
	memset(buf, 'x', sizeof(buf));
	n = pm_cpulist_format(&s, buf, 0);
	is_int((long long)n, 9, "pm_cpulist_format size 0: needed length");
	ok(buf[0] == 'x', "pm_cpulist_format size 0 writes nothing");
	n = pm_cpulist_format(&s, NULL, 0);
	is_int((long long)n, 9, "pm_cpulist_format(NULL, 0) measures");
	pm_cpuset_zero(&s);
	memset(buf, 'x', sizeof(buf));
	n = pm_cpulist_format(&s, buf, 1);
	ok(n == 0 && buf[0] == '\0', "pm_cpulist_format empty set into 1 byte");
}

/* ------------------------------------------------------------ round trip */

static uint64_t lcg_state = 0x2545f4914f6cdd1dULL;

/* Knuth's MMIX LCG: a fixed sequence on every machine. */
static uint32_t lcg(void)
{
	lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(lcg_state >> 33);
}

static void round_trip(const struct pm_cpuset *s, const char *what)
{
	static char text[LIST_MAX], ref[LIST_MAX], again[LIST_MAX];
	struct pm_cpuset back;
	size_t n = pm_cpulist_format(s, text, sizeof(text));
	int r;

	ref_format(s, ref, sizeof(ref));
	if (!is_str(text, ref, "round trip %s: compact text", what))
		return;
	is_int((long long)n, (long long)strlen(text), "round trip %s: length",
	       what);
	pm_cpuset_zero(&back);
	r = pm_cpulist_parse(text, &back);
	is_int(r, 0, "round trip %s: parses", what);
	ok(pm_cpuset_equal(s, &back), "round trip %s: same set", what);
	is_int(pm_cpuset_count(&back), pm_cpuset_count(s),
	       "round trip %s: same count", what);
	pm_cpulist_format(&back, again, sizeof(again));
	is_str(again, text, "round trip %s: same text again", what);
}

static void test_round_trip(void)
{
	static const char *const lists[] = {
		"",	      "0",	     "0-1",	   "0-3,5,7-8",
		"1,3,5,7",    "0-63",	     "0-64",	   "63-64",
		"64-127",     "8191",	     "0,8191",	   "0-8191",
		"1-8190",     "0-7:2/4",     "0-8191:1/2", "1-8191:1/2",
		"0-8191:3/7", "100-200,300", "4095-4096",  "0,2-3,5-7,9-12",
	};
	struct pm_cpuset s;
	char what[64];

	for (size_t i = 0; i < ARRAY_SIZE(lists); i++) {
		if (pm_cpulist_parse(lists[i], &s) < 0) {
			ok(false, "round trip: \"%s\" parses", lists[i]);
			continue;
		}
		snprintf(what, sizeof(what), "\"%.40s\"", lists[i]);
		round_trip(&s, what);
	}

	/* Random sets: sparse, dense and runs, from a fixed seed. */
	for (int i = 0; i < 60; i++) {
		unsigned kind = i % 4, limit = 1 + lcg() % PM_MAX_CPUS;

		pm_cpuset_zero(&s);
		if (kind == 0) {
			/* A few scattered CPUs. */
			for (unsigned k = lcg() % 20; k; k--)
				pm_cpuset_set(&s, lcg() % limit);
		} else if (kind == 1) {
			/* Each CPU with probability 1/2. */
			for (unsigned c = 0; c < limit; c++)
				if (lcg() & 1)
					pm_cpuset_set(&s, c);
		} else if (kind == 2) {
			/* Runs of random lengths. */
			for (unsigned c = lcg() % 8; c < limit;) {
				unsigned len = 1 + lcg() % 40;

				for (unsigned e = c; e < c + len && e < limit;
				     e++)
					pm_cpuset_set(&s, e);
				c += len + 1 + lcg() % 40;
			}
		} else {
			/* Dense with holes, reaching the last CPU. */
			for (unsigned c = 0; c < PM_MAX_CPUS; c++)
				if (lcg() % 16)
					pm_cpuset_set(&s, c);
		}
		snprintf(what, sizeof(what), "random set %d (kind %u, %u CPUs)",
			 i, kind, pm_cpuset_count(&s));
		round_trip(&s, what);
	}
}

/* ---------------------------------------------------------------- set ops */

static void test_ops(void)
{
	struct pm_cpuset a, b, d, e;
	unsigned n;
	int prev;
	bool order;

	pm_cpuset_zero(&a);
	ok(pm_cpuset_empty(&a), "a zeroed set is empty");
	is_int(pm_cpuset_count(&a), 0, "a zeroed set counts 0");
	is_int(pm_cpuset_next(&a, 0), -1, "next in an empty set is -1");

	pm_cpuset_set(&a, 0);
	pm_cpuset_set(&a, 63);
	pm_cpuset_set(&a, 64);
	pm_cpuset_set(&a, 8191);
	pm_cpuset_set(&a, 8192); /* out of range: ignored */
	pm_cpuset_set(&a, 100000);
	is_int(pm_cpuset_count(&a), 4, "set ignores CPUs >= PM_MAX_CPUS");
	ok(!pm_cpuset_empty(&a), "a set with CPUs is not empty");
	ok(pm_cpuset_isset(&a, 0) && pm_cpuset_isset(&a, 63) &&
		   pm_cpuset_isset(&a, 64) && pm_cpuset_isset(&a, 8191),
	   "isset of the CPUs set");
	ok(!pm_cpuset_isset(&a, 1) && !pm_cpuset_isset(&a, 62) &&
		   !pm_cpuset_isset(&a, 65) && !pm_cpuset_isset(&a, 8190),
	   "isset of neighbours");
	ok(!pm_cpuset_isset(&a, 8192) && !pm_cpuset_isset(&a, UINT32_MAX),
	   "isset past PM_MAX_CPUS is false");

	is_int(pm_cpuset_next(&a, 0), 0, "next from 0");
	is_int(pm_cpuset_next(&a, 1), 63, "next from 1");
	is_int(pm_cpuset_next(&a, 63), 63, "next from 63 (inclusive)");
	is_int(pm_cpuset_next(&a, 64), 64, "next from 64");
	is_int(pm_cpuset_next(&a, 65), 8191, "next from 65");
	is_int(pm_cpuset_next(&a, 8191), 8191, "next from 8191");
	is_int(pm_cpuset_next(&a, 8192), -1, "next from 8192");
	is_int(pm_cpuset_next(&a, UINT32_MAX), -1, "next from UINT32_MAX");

	n = 0;
	prev = -1;
	order = true;
	pm_cpuset_foreach(c, &a) {
		if (c <= prev)
			order = false;
		prev = c;
		n++;
	}
	is_int(n, 4, "foreach visits every CPU");
	ok(order, "foreach goes up");
	is_int(prev, 8191, "foreach ends at the last CPU");
	n = 0;
	pm_cpuset_zero(&b);
	pm_cpuset_foreach(c, &b)
		n++;
	is_int(n, 0, "foreach over an empty set");
	b = set_range(0, 8191);
	n = 0;
	pm_cpuset_foreach(c, &b)
		n += c == (int)n;
	is_int(n, 8192, "foreach over every CPU, in order");

	pm_cpuset_clr(&a, 63);
	pm_cpuset_clr(&a, 62); /* not set: no change */
	pm_cpuset_clr(&a, 9000); /* out of range: ignored */
	is_str(fmt(&a), "0,64,8191", "clr");

	a = set_range(0, 7);
	b = set_range(4, 11);
	d = a;
	pm_cpuset_and(&d, &b);
	is_str(fmt(&d), "4-7", "and");
	d = a;
	pm_cpuset_or(&d, &b);
	is_str(fmt(&d), "0-11", "or");
	d = a;
	pm_cpuset_andnot(&d, &b);
	is_str(fmt(&d), "0-3", "andnot");
	d = b;
	pm_cpuset_andnot(&d, &a);
	is_str(fmt(&d), "8-11", "andnot the other way");
	d = a;
	pm_cpuset_andnot(&d, &a);
	ok(pm_cpuset_empty(&d), "andnot itself is empty");
	ok(pm_cpuset_intersects(&a, &b), "0-7 intersects 4-11");
	e = set_range(8, 8191);
	ok(!pm_cpuset_intersects(&a, &e), "0-7 does not intersect 8-8191");
	pm_cpuset_zero(&d);
	ok(!pm_cpuset_intersects(&d, &d), "empty does not intersect empty");
	ok(pm_cpuset_equal(&a, &a), "equal to itself");
	ok(!pm_cpuset_equal(&a, &b), "0-7 is not 4-11");
	d = set_range(0, 7);
	ok(pm_cpuset_equal(&a, &d), "0-7 equals 0-7");
	pm_cpuset_set(&d, 8191);
	ok(!pm_cpuset_equal(&a, &d), "a difference in the last word counts");
	d = a;
	pm_cpuset_or(&d, &e);
	is_int(pm_cpuset_count(&d), 8192, "0-7 or 8-8191 is every CPU");
	pm_cpuset_and(&d, &e);
	ok(pm_cpuset_equal(&d, &e), "and back to 8-8191");
}

/* A span against the full set it was made from, CPU by CPU. */
static void span_like(const struct pm_cpuspan *c, const struct pm_cpuset *s,
		      const char *what)
{
	char a[LIST_MAX], b[LIST_MAX];
	struct pm_cpuset back, probe;
	unsigned bad = PM_MAX_CPUS;

	pm_cpuspan_get(c, &back);
	ok(pm_cpuset_equal(&back, s), "%s: read back whole", what);
	for (unsigned cpu = 0; cpu < PM_MAX_CPUS && bad == PM_MAX_CPUS; cpu++)
		if (pm_cpuspan_isset(c, cpu) != pm_cpuset_isset(s, cpu))
			bad = cpu;
	is_int(bad, PM_MAX_CPUS, "%s: each CPU in or out as in the set", what);
	ok(!pm_cpuspan_isset(c, PM_MAX_CPUS), "%s: past the last CPU: out",
	   what);
	is_int(pm_cpuspan_empty(c), pm_cpuset_empty(s), "%s: empty as the set",
	       what);
	pm_cpuspan_format(c, a, sizeof(a));
	pm_cpulist_format(s, b, sizeof(b));
	is_str(a, b, "%s: formatted as the set", what);
	bad = PM_MAX_CPUS;
	for (unsigned cpu = 0; cpu < PM_MAX_CPUS && bad == PM_MAX_CPUS;
	     cpu += 61) {
		pm_cpuset_zero(&probe);
		pm_cpuset_set(&probe, cpu);
		if (pm_cpuspan_intersects(c, &probe) !=
		    pm_cpuset_isset(s, cpu))
			bad = cpu;
	}
	is_int(bad, PM_MAX_CPUS, "%s: meets a one-CPU set as the set", what);
	probe = set_range(4000, 4100);
	pm_cpuset_set(&probe, 1);
	pm_cpuspan_or(&probe, c);
	back = set_range(4000, 4100);
	pm_cpuset_set(&back, 1);
	pm_cpuset_or(&back, s);
	ok(pm_cpuset_equal(&probe, &back), "%s: or'ed into a set, in place",
	   what);
}

static void test_span(void)
{
	static const int c0[] = { 0, -1 }, c63[] = { 63, -1 },
			 c6364[] = { 63, 64, -1 }, c23[] = { 2, 3, -1 },
			 clast[] = { 8191, -1 }, cends[] = { 0, 8191, -1 },
			 c130[] = { 130, 131, 190, -1 }, none[] = { -1 };
	struct {
		struct pm_cpuset s;
		const char *what;
		int lo, n;
	} t[] = {
		{ set_of(none), "empty", 0, 0 },
		{ set_of(c0), "cpu 0", 0, 1 },
		{ set_of(c63), "cpu 63", 0, 1 },
		{ set_of(c6364), "cpus 63-64", 0, 2 },
		{ set_of(c23), "cpus 2-3", 0, 1 },
		{ set_of(c130), "cpus 130,131,190", 2, 1 },
		{ set_of(clast), "cpu 8191", 127, 1 },
		{ set_of(cends), "cpus 0,8191", 0, 128 },
		{ set_range(64, 255), "cpus 64-255", 1, 3 },
		{ set_range(0, 8191), "every CPU", 0, 128 },
	};
	struct pm_cpuspan c, d;

	ok(sizeof(c) <= 16, "a span is at most 16 bytes (%zu)", sizeof(c));
	pm_cpuspan_init(&c);
	pm_cpuspan_init(&d);
	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		is_int(pm_cpuspan_set(&c, &t[i].s), 0, "%s: kept", t[i].what);
		is_int(c.lo, t[i].lo, "%s: from word %d", t[i].what, t[i].lo);
		is_int(c.n, t[i].n, "%s: %d words", t[i].what, t[i].n);
		span_like(&c, &t[i].s, t[i].what);
		for (size_t j = 0; j < ARRAY_SIZE(t); j++) {
			pm_cpuspan_set(&d, &t[j].s);
			if (pm_cpuspan_equal(&c, &d) !=
			    pm_cpuset_equal(&t[i].s, &t[j].s))
				ok(false, "%s against %s: equal as the sets",
				   t[i].what, t[j].what);
		}
	}
	/* Set again over a set of many words: the old words freed (the
	 * sanitizer's leak check), and a copy of another's words. */
	pm_cpuspan_set(&c, &t[9].s);
	pm_cpuspan_set(&d, &t[7].s);
	ok(!pm_cpuspan_equal(&c, &d), "every CPU is not cpus 0,8191");
	pm_cpuspan_set(&c, &t[1].s);
	span_like(&c, &t[1].s, "many words, then cpu 0");
	pm_cpuspan_free(&c);
	pm_cpuspan_free(&d);
	ok(pm_cpuspan_empty(&c) && !pm_cpuspan_isset(&c, 0),
	   "freed: empty");
}

int main(void)
{
	test_parse();
	test_parse_spaced();
	test_format();
	test_round_trip();
	test_ops();
	test_span();
	return done_testing();
}
