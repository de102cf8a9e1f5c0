// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "parse": the strict number parsers of lib/parse.c.  The
 * first byte picks the function (its value modulo 8, so the digits '0'
 * to '7' make readable seeds); the rest, NUL-terminated, is the text:
 *
 *   0 pm_parse_u64        4 pm_parse_pct
 *   1 pm_parse_u32        5 pm_parse_freq_hz (+ pm_fmt_hz)
 *   2 pm_parse_s64        6 pm_parse_freq_khz (+ pm_fmt_khz)
 *   3 pm_parse_bool       7 pm_parse_duration_us
 *
 * Every result is checked against a small reference parser written
 * from pm.h's description (128-bit arithmetic, no shortcuts): the same
 * texts are accepted, with the same value.
 */
#include <errno.h>
#include <strings.h>

#include "fuzz.h"

typedef unsigned __int128 u128;

static int isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* Strict decimal: 0, -EINVAL (empty, junk) or -ERANGE (too big). */
static int ref_u64(const char *s, u128 max, uint64_t *v)
{
	u128 x = 0;
	int over = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (!isdig(*s))
			return -EINVAL;
		x = x * 10 + (u128)(*s - '0');
		if (x > max) {
			over = 1;
			x = max + 1; /* stays bounded */
		}
	}
	if (over)
		return -ERANGE;
	*v = (uint64_t)x;
	return 0;
}

static int ref_s64(const char *s, int64_t *v)
{
	uint64_t x;
	int r;

	if (*s == '-') {
		r = ref_u64(s + 1, UINT64_MAX, &x);
		if (r < 0)
			return r;
		if (x > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*v = (int64_t)(0 - x);
		return 0;
	}
	r = ref_u64(s, UINT64_MAX, &x);
	if (r < 0)
		return r;
	if (x > (uint64_t)INT64_MAX)
		return -ERANGE;
	*v = (int64_t)x;
	return 0;
}

static int ref_bool(const char *s, bool *v)
{
	static const char *const t[] = { "1",	 "on",	    "yes",
					 "true", "enabled", "enable" };
	static const char *const f[] = { "0",	  "off",      "no",
					 "false", "disabled", "disable" };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (!strcasecmp(s, t[i])) {
			*v = true;
			return 0;
		}
		if (!strcasecmp(s, f[i])) {
			*v = false;
			return 0;
		}
	}
	return -EINVAL;
}

struct runit {
	const char *name;
	uint64_t scale;
};

static const struct runit freq_u[] = { { "Hz", 1 },
				       { "kHz", 1000 },
				       { "MHz", 1000000 },
				       { "GHz", 1000000000 },
				       { NULL, 0 } };
static const struct runit time_u[] = {
	{ "us", 1 },	     { "ms", 1000 },	     { "s", 1000000 },
	{ "min", 60000000 }, { "h", 3600000000ULL }, { NULL, 0 }
};

/*
 * "N[.F][ ]unit" or "N[.F]" (bare scale) exactly: accepted only when the
 * value in the base unit is a whole number that fits in 64 bits.
 */
static int ref_scaled(const char *s, const struct runit *u, uint64_t bare,
		      uint64_t *out)
{
	const char *fs = NULL, *fe = NULL;
	u128 ip = 0, v;
	uint64_t scale = 0;
	int over = 0;

	if (!isdig(*s))
		return -EINVAL;
	for (; isdig(*s); s++) {
		ip = ip * 10 + (u128)(*s - '0');
		if (ip > UINT64_MAX) {
			over = 1;
			ip = (u128)UINT64_MAX + 1;
		}
	}
	if (*s == '.') {
		s++;
		if (!isdig(*s))
			return -EINVAL;
		fs = s;
		while (isdig(*s))
			s++;
		fe = s;
	}
	if (*s == ' ') {
		s++;
		if (!*s)
			return -EINVAL;
	}
	if (!*s) {
		scale = bare;
	} else {
		for (int i = 0; u[i].name; i++)
			if (!strcasecmp(s, u[i].name))
				scale = u[i].scale;
		if (!scale)
			return -EINVAL;
	}
	if (over)
		return -ERANGE;
	v = ip * scale;
	if (fs) {
		u128 f = 0, d = 1;

		while (fe > fs && fe[-1] == '0')
			fe--;
		/*
		 * 19 significant decimals leave 2^19 or 5^19 in the
		 * denominator; no unit's scale has that many factors of 2
		 * or 5, so such a value is never whole.
		 */
		if (fe - fs >= 19)
			return -EINVAL;
		for (const char *p = fs; p < fe; p++) {
			f = f * 10 + (u128)(*p - '0');
			d *= 10;
		}
		if ((f * scale) % d)
			return -EINVAL;
		v += f * scale / d;
	}
	if (v > UINT64_MAX)
		return -ERANGE;
	*out = (uint64_t)v;
	return 0;
}

/* Same verdict; the same value when accepted. */
static void same_u64(int r, uint64_t v, int rr, uint64_t rv, bool exact_err)
{
	CHECK(r == 0 || r == -EINVAL || r == -ERANGE);
	CHECK((r == 0) == (rr == 0));
	if (r == 0)
		CHECK(v == rv);
	else if (exact_err)
		CHECK(r == rr);
}

/* A formatted frequency must read back: exactly, or rounded to the
 * nearest of the three decimals pm_fmt_khz keeps (down at the very top). */
static void fmt_back_khz(uint64_t khz)
{
	char buf[64], tiny[3];
	uint64_t back;

	pm_fmt_khz(khz, buf, sizeof(buf));
	CHECK(fz_terminated(buf, sizeof(buf)));
	pm_fmt_khz(khz, tiny, sizeof(tiny));
	CHECK(fz_terminated(tiny, sizeof(tiny)));
	CHECK(!strncmp(buf, tiny, sizeof(tiny) - 1));
	CHECK(pm_parse_freq_khz(buf, &back) == 0);
	/* Down, not to the nearest, at the top of the range (up would
	 * not parse back): less than a thousandth of a GHz there. */
	CHECK((back > khz ? back - khz : khz - back) <=
	      (khz < 1000000 ? 0 : khz > UINT64_MAX / 1000 - 1000 ? 999 : 500));
}

static void fmt_back_hz(uint64_t hz)
{
	char buf[64];
	uint64_t back;

	pm_fmt_hz(hz, buf, sizeof(buf));
	CHECK(fz_terminated(buf, sizeof(buf)));
	CHECK(pm_parse_freq_hz(buf, &back) == 0);
	CHECK((back > hz ? back - hz : hz - back) <=
	      (hz >= 1000000000 ? 500000 : 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t v = 0, rv = 0;
	int64_t sv = 0, rsv = 0;
	uint32_t v32 = 0;
	unsigned pct = 0;
	bool b = false, rb = false;
	char *s;
	int r, rr;

	if (!size)
		return 0;
	s = fz_str(data + 1, size - 1);
	switch (data[0] % 8) {
	case 0:
		r = pm_parse_u64(s, &v);
		rr = ref_u64(s, UINT64_MAX, &rv);
		same_u64(r, v, rr, rv, true);
		break;
	case 1:
		r = pm_parse_u32(s, &v32);
		rr = ref_u64(s, UINT32_MAX, &rv);
		same_u64(r, v32, rr, rv, true);
		break;
	case 2:
		r = pm_parse_s64(s, &sv);
		rr = ref_s64(s, &rsv);
		CHECK(r == rr);
		if (!r)
			CHECK(sv == rsv);
		break;
	case 3:
		r = pm_parse_bool(s, &b);
		rr = ref_bool(s, &rb);
		CHECK(r == rr);
		if (!r)
			CHECK(b == rb);
		break;
	case 4:
		r = pm_parse_pct(s, &pct);
		rr = ref_u64(s, 100, &rv);
		same_u64(r, pct, rr, rv, true);
		break;
	case 5:
		r = pm_parse_freq_hz(s, &v);
		rr = ref_scaled(s, freq_u, 1000, &rv);
		same_u64(r, v, rr, rv, false);
		if (!r)
			fmt_back_hz(v);
		break;
	case 6: {
		uint64_t hz = 0;

		r = pm_parse_freq_khz(s, &v);
		rr = ref_scaled(s, freq_u, 1000, &hz);
		if (!rr && hz % 1000)
			rr = -EINVAL;
		same_u64(r, v, rr, hz / 1000, false);
		if (!r)
			fmt_back_khz(v);
		break;
	}
	case 7:
		r = pm_parse_duration_us(s, &v);
		rr = ref_scaled(s, time_u, 1000000, &rv);
		same_u64(r, v, rr, rv, false);
		break;
	}
	free(s);
	return 0;
}
