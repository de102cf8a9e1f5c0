// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the strict parsers: integers, booleans, percentages,
 * frequencies and durations with units, pm_fmt_khz and choice lists.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct u64_case {
	const char *in;
	int ret;
	uint64_t want;
};

struct s64_case {
	const char *in;
	int ret;
	int64_t want;
};

/* A value the parser must leave alone on failure. */
#define UNTOUCHED 0xdeadbeefULL

static const struct u64_case u64_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "42", 0, 42 },
	{ "007", 0, 7 },
	{ "0000000000000000000000000001", 0, 1 },
	{ "4294967296", 0, 4294967296ULL },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "018446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "184467440737095516150", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ " ", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "1\n", -EINVAL, 0 },
	{ "\t1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "-0", -EINVAL, 0 },
	{ "1x", -EINVAL, 0 },
	{ "x1", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1.0", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "1,000", -EINVAL, 0 },
	{ "1_000", -EINVAL, 0 },
	{ "\xd9\xa1", -EINVAL, 0 }, /* ARABIC-INDIC DIGIT ONE */
	{ "99999999999999999999x", -EINVAL, 0 },
};

static const struct u64_case u32_cases[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "00042", 0, 42 },
	{ "4294967295", 0, UINT32_MAX },
	{ "4294967296", -ERANGE, 0 },
	{ "18446744073709551615", -ERANGE, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "1x", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
};

static const struct s64_case s64_cases[] = {
	{ "0", 0, 0 },
	{ "-0", 0, 0 },
	{ "1", 0, 1 },
	{ "-1", 0, -1 },
	{ "-0042", 0, -42 },
	{ "9223372036854775807", 0, INT64_MAX },
	{ "9223372036854775808", -ERANGE, 0 },
	{ "-9223372036854775807", 0, -INT64_MAX },
	{ "-9223372036854775808", 0, INT64_MIN },
	{ "-9223372036854775809", -ERANGE, 0 },
	{ "18446744073709551615", -ERANGE, 0 },
	{ "-18446744073709551616", -ERANGE, 0 },
	{ "99999999999999999999", -ERANGE, 0 },
	{ "", -EINVAL, 0 },
	{ "-", -EINVAL, 0 },
	{ "--1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ "- 1", -EINVAL, 0 },
	{ " -1", -EINVAL, 0 },
	{ "-1 ", -EINVAL, 0 },
	{ "1-", -EINVAL, 0 },
	{ "-1x", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
};

static void test_u64(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(u64_cases); i++) {
		const struct u64_case *t = &u64_cases[i];
		uint64_t v = UNTOUCHED;
		int r = pm_parse_u64(t->in, &v);

		is_int(r, t->ret, "pm_parse_u64(\"%s\") returns %d", t->in,
		       t->ret);
		is_u64(v, t->ret ? UNTOUCHED : t->want,
		       "pm_parse_u64(\"%s\") value", t->in);
	}
	is_int(pm_parse_u64(NULL, &(uint64_t){ 0 }), -EINVAL,
	       "pm_parse_u64(NULL) is -EINVAL");
}

static void test_u32(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(u32_cases); i++) {
		const struct u64_case *t = &u32_cases[i];
		uint32_t v = 12345;
		int r = pm_parse_u32(t->in, &v);

		is_int(r, t->ret, "pm_parse_u32(\"%s\") returns %d", t->in,
		       t->ret);
		is_u64(v, t->ret ? 12345 : t->want,
		       "pm_parse_u32(\"%s\") value", t->in);
	}
}

static void test_s64(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(s64_cases); i++) {
		const struct s64_case *t = &s64_cases[i];
		int64_t v = 12345;
		int r = pm_parse_s64(t->in, &v);

		is_int(r, t->ret, "pm_parse_s64(\"%s\") returns %d", t->in,
		       t->ret);
		is_int(v, t->ret ? 12345 : t->want,
		       "pm_parse_s64(\"%s\") value", t->in);
	}
	is_int(pm_parse_s64(NULL, &(int64_t){ 0 }), -EINVAL,
	       "pm_parse_s64(NULL) is -EINVAL");
}

static void test_bool(void)
{
	static const char *const yes[] = { "1",	   "on",      "yes",
					   "true", "enabled", "ON",
					   "Yes",  "TRUE",    "Enabled" };
	static const char *const no[] = { "0",	   "off",      "no",
					  "false", "disabled", "OFF",
					  "No",	   "FALSE",    "Disabled" };
	static const char *const bad[] = { "",	   " ",	    "2",   "-1",
					   "01",   "y",	    "n",   "onn",
					   "o",	   "truee", " on", "on ",
					   "on\n", "yes!",  "nope" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		bool v = false;

		is_int(pm_parse_bool(yes[i], &v), 0,
		       "pm_parse_bool(\"%s\") accepted", yes[i]);
		ok(v == true, "pm_parse_bool(\"%s\") is true", yes[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(no); i++) {
		bool v = true;

		is_int(pm_parse_bool(no[i], &v), 0,
		       "pm_parse_bool(\"%s\") accepted", no[i]);
		ok(v == false, "pm_parse_bool(\"%s\") is false", no[i]);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		bool v = true;

		is_int(pm_parse_bool(bad[i], &v), -EINVAL,
		       "pm_parse_bool(\"%s\") rejected", bad[i]);
		ok(v == true, "pm_parse_bool(\"%s\") leaves the value alone",
		   bad[i]);
	}
	is_int(pm_parse_bool(NULL, &(bool){ false }), -EINVAL,
	       "pm_parse_bool(NULL) rejected");
}

static void test_pct(void)
{
	static const struct u64_case cases[] = {
		{ "0", 0, 0 },
		{ "1", 0, 1 },
		{ "50", 0, 50 },
		{ "099", 0, 99 },
		{ "100", 0, 100 },
		{ "0100", 0, 100 },
		{ "101", -ERANGE, 0 },
		{ "1000", -ERANGE, 0 },
		{ "18446744073709551616", -ERANGE, 0 },
		{ "", -EINVAL, 0 },
		{ "-1", -EINVAL, 0 },
		{ "50%", -EINVAL, 0 },
		{ "5.5", -EINVAL, 0 },
		{ " 5", -EINVAL, 0 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		unsigned v = 777;
		int r = pm_parse_pct(cases[i].in, &v);

		is_int(r, cases[i].ret, "pm_parse_pct(\"%s\") returns %d",
		       cases[i].in, cases[i].ret);
		is_u64(v, cases[i].ret ? 777 : cases[i].want,
		       "pm_parse_pct(\"%s\") value", cases[i].in);
	}
}

/* Frequencies: the expected result in Hz and in kHz, each with its code. */
struct freq_case {
	const char *in;
	int hz_ret;
	uint64_t hz;
	int khz_ret;
	uint64_t khz;
};

#define FREQ_OK(s, h) { s, 0, h, 0, (h) / 1000 }
#define FREQ_HZ_ONLY(s, h) { s, 0, h, -EINVAL, 0 }
#define FREQ_BAD(s, e) { s, e, 0, e, 0 }

static const struct freq_case freq_cases[] = {
	FREQ_OK("1200000", 1200000000ULL),
	FREQ_OK("0", 0),
	FREQ_OK("1", 1000),
	FREQ_OK("800000", 800000000ULL),
	FREQ_OK("1.2GHz", 1200000000ULL),
	FREQ_OK("1.2 GHz", 1200000000ULL),
	FREQ_OK("1.20GHz", 1200000000ULL),
	FREQ_OK("1.200000000000000000000000GHz", 1200000000ULL),
	FREQ_OK("2.4GHZ", 2400000000ULL),
	FREQ_OK("2.4ghz", 2400000000ULL),
	FREQ_OK("2.401GHz", 2401000000ULL),
	FREQ_OK("3GHz", 3000000000ULL),
	FREQ_OK("800MHz", 800000000ULL),
	FREQ_OK("800mhz", 800000000ULL),
	FREQ_OK("800 MHz", 800000000ULL),
	FREQ_OK("1.5MHz", 1500000ULL),
	FREQ_OK("0.001MHz", 1000ULL),
	FREQ_OK("1000kHz", 1000000ULL),
	FREQ_OK("1000KHZ", 1000000ULL),
	FREQ_OK("1000khz", 1000000ULL),
	FREQ_OK("1.0kHz", 1000ULL),
	FREQ_OK("2000Hz", 2000ULL),
	FREQ_OK("18446744073GHz", 18446744073000000000ULL),
	FREQ_OK("18446744073709551000Hz", 18446744073709551000ULL),
	FREQ_HZ_ONLY("18446744073709551615Hz", UINT64_MAX),
	FREQ_HZ_ONLY("1500Hz", 1500),
	FREQ_HZ_ONLY("1hz", 1),
	FREQ_HZ_ONLY("0.5kHz", 500),
	FREQ_HZ_ONLY("0.001kHz", 1),
	FREQ_HZ_ONLY("1.234kHz", 1234),
	FREQ_BAD("1.2345kHz", -EINVAL),
	FREQ_HZ_ONLY("0.000001MHz", 1),
	FREQ_HZ_ONLY("1.000000001GHz", 1000000001ULL),
	FREQ_BAD("", -EINVAL),
	FREQ_BAD(" ", -EINVAL),
	FREQ_BAD("GHz", -EINVAL),
	FREQ_BAD(" GHz", -EINVAL),
	FREQ_BAD("1.", -EINVAL),
	FREQ_BAD("1.GHz", -EINVAL),
	FREQ_BAD(".5GHz", -EINVAL),
	FREQ_BAD("1.2.3GHz", -EINVAL),
	FREQ_BAD("1e9", -EINVAL),
	FREQ_BAD("1E9Hz", -EINVAL),
	FREQ_BAD("-1GHz", -EINVAL),
	FREQ_BAD("+1GHz", -EINVAL),
	FREQ_BAD("1 GHz ", -EINVAL),
	FREQ_BAD("1  GHz", -EINVAL),
	FREQ_BAD("1\tGHz", -EINVAL),
	FREQ_BAD(" 1GHz", -EINVAL),
	FREQ_BAD("1 ", -EINVAL),
	FREQ_BAD("1\n", -EINVAL),
	FREQ_BAD("1THz", -EINVAL),
	FREQ_BAD("1G", -EINVAL),
	FREQ_BAD("1M", -EINVAL),
	FREQ_BAD("1GHzz", -EINVAL),
	FREQ_BAD("1 G Hz", -EINVAL),
	FREQ_BAD("0x10", -EINVAL),
	FREQ_BAD("1,2GHz", -EINVAL),
	FREQ_BAD("0.0000000001Hz", -EINVAL),
	FREQ_BAD("0.5Hz", -EINVAL),
	FREQ_BAD("1.0000000000000000001GHz", -EINVAL),
	FREQ_BAD("18446744073709551615GHz", -ERANGE),
	FREQ_BAD("18446744074GHz", -ERANGE),
	FREQ_BAD("18446744073709551616", -ERANGE),
	FREQ_BAD("18446744073709551616Hz", -ERANGE),
	FREQ_BAD("99999999999999999999MHz", -ERANGE),
	FREQ_BAD("18446744073709552kHz", -ERANGE),
	FREQ_BAD("18446744073.709551616GHz", -ERANGE),
};

static void test_freq(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(freq_cases); i++) {
		const struct freq_case *t = &freq_cases[i];
		uint64_t hz = UNTOUCHED, khz = UNTOUCHED;
		int r;

		r = pm_parse_freq_hz(t->in, &hz);
		is_int(r, t->hz_ret, "pm_parse_freq_hz(\"%s\") returns %d",
		       t->in, t->hz_ret);
		if (!t->hz_ret)
			is_u64(hz, t->hz, "pm_parse_freq_hz(\"%s\") = %llu Hz",
			       t->in, (unsigned long long)t->hz);
		else
			is_u64(hz, UNTOUCHED,
			       "pm_parse_freq_hz(\"%s\") leaves the value",
			       t->in);

		r = pm_parse_freq_khz(t->in, &khz);
		is_int(r, t->khz_ret, "pm_parse_freq_khz(\"%s\") returns %d",
		       t->in, t->khz_ret);
		if (!t->khz_ret)
			is_u64(khz, t->khz,
			       "pm_parse_freq_khz(\"%s\") = %llu kHz", t->in,
			       (unsigned long long)t->khz);
		else
			is_u64(khz, UNTOUCHED,
			       "pm_parse_freq_khz(\"%s\") leaves the value",
			       t->in);
	}
	is_int(pm_parse_freq_hz(NULL, &(uint64_t){ 0 }), -EINVAL,
	       "pm_parse_freq_hz(NULL) is -EINVAL");
	is_int(pm_parse_freq_khz(NULL, &(uint64_t){ 0 }), -EINVAL,
	       "pm_parse_freq_khz(NULL) is -EINVAL");
}

static const struct u64_case dur_cases[] = {
	{ "0", 0, 0 },
	{ "2", 0, 2000000ULL },
	{ "02", 0, 2000000ULL },
	{ "1.5", 0, 1500000ULL },
	{ "1.5s", 0, 1500000ULL },
	{ "1.5 s", 0, 1500000ULL },
	{ "1.5S", 0, 1500000ULL },
	{ "250ms", 0, 250000ULL },
	{ "250MS", 0, 250000ULL },
	{ "250 ms", 0, 250000ULL },
	{ "0.5ms", 0, 500ULL },
	{ "0.001ms", 0, 1ULL },
	{ "10us", 0, 10ULL },
	{ "10US", 0, 10ULL },
	{ "1.0us", 0, 1ULL },
	{ "1.000000s", 0, 1000000ULL },
	{ "0.000001s", 0, 1ULL },
	{ "2min", 0, 120000000ULL },
	{ "2 min", 0, 120000000ULL },
	{ "0.5min", 0, 30000000ULL },
	{ "1h", 0, 3600000000ULL },
	{ "1H", 0, 3600000000ULL },
	{ "1.5h", 0, 5400000000ULL },
	{ "0.0000000025h", 0, 9ULL },
	{ "1.0000000025h", 0, 3600000009ULL },
	/* fraction * scale overflows 64 bits, the value does not */
	{ "0.9999999975h", 0, 3599999991ULL },
	{ "1.9999999975h", 0, 7199999991ULL },
	{ "5124095576h", 0, 5124095576ULL * 3600000000ULL },
	{ "18446744073709551615us", 0, UINT64_MAX },
	{ "18446744073709551615", -ERANGE, 0 },
	{ "18446744073709.551615s", 0, UINT64_MAX },
	{ "18446744073709551.615ms", 0, UINT64_MAX },
	{ "18446744073709551.616ms", -ERANGE, 0 },
	{ "5124095577h", -ERANGE, 0 },
	{ "99999999999999999999s", -ERANGE, 0 },
	{ "18446744073709551616us", -ERANGE, 0 },
	{ "1.5us", -EINVAL, 0 },
	{ "0.5us", -EINVAL, 0 },
	{ "0.0000001s", -EINVAL, 0 },
	{ "0.0001ms", -EINVAL, 0 },
	{ "0.00000000001h", -EINVAL, 0 },
	{ "5m", -EINVAL, 0 },
	{ "5M", -EINVAL, 0 },
	{ "5sec", -EINVAL, 0 },
	{ "5mins", -EINVAL, 0 },
	{ "5d", -EINVAL, 0 },
	{ "5ns", -EINVAL, 0 },
	{ "", -EINVAL, 0 },
	{ "ms", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ "-1s", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1s", -EINVAL, 0 },
	{ ".5s", -EINVAL, 0 },
	{ "1.s", -EINVAL, 0 },
	{ "1.2.3s", -EINVAL, 0 },
	{ "1e3ms", -EINVAL, 0 },
	{ "1s ", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ " 1s", -EINVAL, 0 },
	{ "1  s", -EINVAL, 0 },
	{ "1s1", -EINVAL, 0 },
};

static void test_duration(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(dur_cases); i++) {
		const struct u64_case *t = &dur_cases[i];
		uint64_t v = UNTOUCHED;
		int r = pm_parse_duration_us(t->in, &v);

		is_int(r, t->ret, "pm_parse_duration_us(\"%s\") returns %d",
		       t->in, t->ret);
		is_u64(v, t->ret ? UNTOUCHED : t->want,
		       "pm_parse_duration_us(\"%s\") value", t->in);
	}
	is_int(pm_parse_duration_us(NULL, &(uint64_t){ 0 }), -EINVAL,
	       "pm_parse_duration_us(NULL) is -EINVAL");
}

static void test_fmt_khz(void)
{
	static const struct {
		uint64_t khz;
		const char *want;
	} cases[] = {
		{ 0, "0 kHz" },
		{ 1, "1 kHz" },
		{ 999, "999 kHz" },
		{ 1000, "1 MHz" },
		{ 1500, "1.5 MHz" },
		{ 1001, "1.001 MHz" },
		{ 1010, "1.01 MHz" },
		{ 1100, "1.1 MHz" },
		{ 800000, "800 MHz" },
		{ 999999, "999.999 MHz" },
		{ 1000000, "1 GHz" },
		{ 1200000, "1.2 GHz" },
		{ 2401000, "2.401 GHz" },
		/* Three decimals, rounded to the nearest, half up. */
		{ 2400500, "2.401 GHz" },
		{ 2400499, "2.4 GHz" },
		{ 2409999, "2.41 GHz" },
		{ 1017600, "1.018 GHz" },
		{ 2999600, "3 GHz" },
		{ 2000001, "2 GHz" },
		{ 3500000, "3.5 GHz" },
		/* Down only where up would not parse back in 64 bits. */
		{ 18446744073709551614ULL, "18446744073709.551 GHz" },
		{ 18446744073709000600ULL, "18446744073709.001 GHz" },
		{ PM_UNKNOWN, "?" },
	};
	char buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(buf, 'x', sizeof(buf));
		is_str(pm_fmt_khz(cases[i].khz, buf, sizeof(buf)),
		       cases[i].want, "pm_fmt_khz(%llu)",
		       (unsigned long long)cases[i].khz);
	}
	char small[4];

	memset(small, 'x', sizeof(small));
	pm_fmt_khz(1200000, small, sizeof(small));
	is_str(small, "1.2", "pm_fmt_khz truncates into a small buffer");
	ok(pm_fmt_khz(800000, buf, sizeof(buf)) == buf,
	   "pm_fmt_khz returns its buffer");
}

static void test_choices(void)
{
	static const struct {
		const char *in;
		int n;
		int current;
		const char *names[6];
	} cases[] = {
		{ "freeze mem disk", 3, -1, { "freeze", "mem", "disk" } },
		{ "s2idle [deep]", 2, 1, { "s2idle", "deep" } },
		{ "s2idle [deep]\n", 2, 1, { "s2idle", "deep" } },
		{ "[s2idle] deep", 2, 0, { "s2idle", "deep" } },
		{ "platform [shutdown] reboot suspend test_resume",
		  5,
		  1,
		  { "platform", "shutdown", "reboot", "suspend",
		    "test_resume" } },
		{ "[none] core processors platform devices freezer",
		  6,
		  0,
		  { "none", "core", "processors", "platform", "devices",
		    "freezer" } },
		{ "performance powersave ",
		  2,
		  -1,
		  { "performance", "powersave" } },
		{ "performance powersave \n",
		  2,
		  -1,
		  { "performance", "powersave" } },
		{ "  a\t b  \n", 2, -1, { "a", "b" } },
		{ "one", 1, -1, { "one" } },
		{ "[one]", 1, 0, { "one" } },
		{ "", 0, -1, { NULL } },
		{ " ", 0, -1, { NULL } },
		{ "\n", 0, -1, { NULL } },
		{ "[open", 1, -1, { "[open" } },
		{ "close]", 1, -1, { "close]" } },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char buf[128], *names[8];
		int cur = 99, n;

		snprintf(buf, sizeof(buf), "%s", cases[i].in);
		n = pm_choices_split(buf, names, 8, &cur);
		is_int(n, cases[i].n, "pm_choices_split(\"%s\") count",
		       cases[i].in);
		is_int(cur, cases[i].current,
		       "pm_choices_split(\"%s\") current", cases[i].in);
		for (int j = 0; j < n && j < cases[i].n; j++)
			is_str(names[j], cases[i].names[j],
			       "pm_choices_split(\"%s\") name %d", cases[i].in,
			       j);
	}

	/* More words than room: the count and the current index stay in
	 * names[]. */
	char buf[64], *names[2];
	int cur = 99, n;

	snprintf(buf, sizeof(buf), "a b [c] d");
	n = pm_choices_split(buf, names, 2, &cur);
	is_int(n, 2, "pm_choices_split stops at max");
	is_str(names[0], "a", "pm_choices_split max: first name");
	is_str(names[1], "b", "pm_choices_split max: second name");
	ok(cur < n, "pm_choices_split: current (%d) is an index of names[]",
	   cur);
	is_int(cur, -1,
	       "pm_choices_split: a bracketed word past max is "
	       "not current");

	snprintf(buf, sizeof(buf), "[a] b c");
	n = pm_choices_split(buf, names, 2, &cur);
	is_int(cur, 0, "pm_choices_split max: current within max kept");

	snprintf(buf, sizeof(buf), "x [y]");
	n = pm_choices_split(buf, names, 2, NULL);
	is_int(n, 2, "pm_choices_split with current NULL");
	is_str(names[1], "y",
	       "pm_choices_split with NULL current strips "
	       "the brackets");
}

static void test_word_in(void)
{
	static const struct {
		const char *list, *word;
		bool want;
	} cases[] = {
		{ "s2idle [deep]", "deep", true },
		{ "s2idle [deep]", "s2idle", true },
		{ "s2idle [deep]", "s2", false },
		{ "s2idle [deep]", "idle", false },
		{ "s2idle [deep]", "dee", false },
		{ "s2idle [deep]", "eep", false },
		{ "freeze mem disk", "mem", true },
		{ "freeze mem disk", "disk", true },
		{ "freeze mem disk", "freeze", true },
		{ "freeze mem disk", "me", false },
		{ "freeze mem disk", "m", false },
		{ "mem_sleep", "mem", false },
		{ "mem_sleep", "sleep", false },
		{ "mem_sleep disk", "mem", false },
		{ "memmem mem", "mem", true },
		{ "memmem", "mem", false },
		{ "performance powersave ", "powersave", true },
		{ "performance powersave\n", "powersave", true },
		{ "performance\tpowersave", "performance", true },
		{ "performance powersave", "power", false },
		{ "performance powersave", "save", false },
		{ "[shutdown] reboot", "shutdown", true },
		{ "", "mem", false },
		{ "mem", "", false },
		{ "", "", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		ok(pm_word_in(cases[i].list, cases[i].word) == cases[i].want,
		   "pm_word_in(\"%s\", \"%s\") is %s", cases[i].list,
		   cases[i].word, cases[i].want ? "true" : "false");
}

int main(void)
{
	test_u64();
	test_u32();
	test_s64();
	test_bool();
	test_pct();
	test_freq();
	test_duration();
	test_fmt_khz();
	test_choices();
	test_word_in();
	return done_testing();
}
