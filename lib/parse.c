// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Strict parsers: integers, frequencies and durations with units, and the
 * kernel's choice lists.  Nothing here trusts its input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parse.h"
#include "core.h"

/* 10^19 is the largest power of ten in a uint64_t. */
#define POW10_MAX 19

static const uint64_t pow10_tab[POW10_MAX + 1] = {
	1ULL,
	10ULL,
	100ULL,
	1000ULL,
	10000ULL,
	100000ULL,
	1000000ULL,
	10000000ULL,
	100000000ULL,
	1000000000ULL,
	10000000000ULL,
	100000000000ULL,
	1000000000000ULL,
	10000000000000ULL,
	100000000000000ULL,
	1000000000000000ULL,
	10000000000000000ULL,
	100000000000000000ULL,
	1000000000000000000ULL,
	10000000000000000000ULL,
};

static bool isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* Digits at *s into *v; advances *s.  -EINVAL if none, -ERANGE overflow. */
int pm_parse_digits(const char **s, uint64_t *v)
{
	const char *p = *s;
	uint64_t x = 0;
	bool over = false;

	if (!isdig(*p))
		return -EINVAL;
	for (; isdig(*p); p++) {
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(*p - '0'), &x))
			over = true;
	}
	*s = p;
	*v = x;
	return over ? -ERANGE : 0;
}

int pm_parse_u64(const char *s, uint64_t *v)
{
	uint64_t x;
	int r;

	if (!s)
		return -EINVAL;
	r = pm_parse_digits(&s, &x);
	if (r == -EINVAL || *s)
		return -EINVAL;
	if (r < 0)
		return r;
	*v = x;
	return 0;
}

int pm_parse_u32(const char *s, uint32_t *v)
{
	uint64_t x;
	int r = pm_parse_u64(s, &x);

	if (r < 0)
		return r;
	if (x > UINT32_MAX)
		return -ERANGE;
	*v = (uint32_t)x;
	return 0;
}

int pm_parse_s64(const char *s, int64_t *v)
{
	bool neg = false;
	uint64_t x;
	int r;

	if (!s)
		return -EINVAL;
	if (*s == '-') {
		neg = true;
		s++;
	}
	r = pm_parse_u64(s, &x);
	if (r < 0)
		return r;
	if (neg) {
		if (x > (uint64_t)INT64_MAX + 1)
			return -ERANGE;
		*v = x == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)x;
	} else {
		if (x > INT64_MAX)
			return -ERANGE;
		*v = (int64_t)x;
	}
	return 0;
}

int pm_parse_bool(const char *s, bool *v)
{
	static const char *const yes[] = { "1", "on", "yes", "true",
					   "enabled", "enable", NULL };
	static const char *const no[] = { "0", "off", "no", "false",
					  "disabled", "disable", NULL };

	if (!s)
		return -EINVAL;
	for (int i = 0; yes[i]; i++) {
		if (!strcasecmp(s, yes[i])) {
			*v = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*v = false;
			return 0;
		}
	}
	return -EINVAL;
}

int pm_parse_pct(const char *s, unsigned *v)
{
	uint64_t x;
	int r = pm_parse_u64(s, &x);

	if (r < 0)
		return r;
	if (x > 100)
		return -ERANGE;
	*v = (unsigned)x;
	return 0;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

struct unit {
	const char *name;
	uint64_t scale;
};

/*
 * "N[.F][ ]unit": the value times the unit's scale, exact.  A fraction
 * that does not come out whole in the base unit is -EINVAL.
 */
static int parse_scaled(const char *s, const struct unit *units,
			uint64_t bare_scale, uint64_t *out)
{
	uint64_t ip, fp = 0, scale, v, fv;
	unsigned fdig = 0;
	int r;

	if (!s)
		return -EINVAL;
	r = pm_parse_digits(&s, &ip);
	if (r == -EINVAL)
		return r;
	if (r < 0)
		return -ERANGE;
	if (*s == '.') {
		s++;
		if (!isdig(*s))
			return -EINVAL;
		/* Trailing zeros of the fraction do not count. */
		const char *e = s;

		while (isdig(*e))
			e++;
		const char *last = e;

		while (last > s && last[-1] == '0')
			last--;
		for (const char *p = s; p < last; p++) {
			if (++fdig > POW10_MAX - 1)
				return -EINVAL;
			fp = fp * 10 + (uint64_t)(*p - '0');
		}
		s = e;
	}
	if (*s == ' ') {
		s++;
		/* A space only comes before a unit: "1 " is junk. */
		if (!*s)
			return -EINVAL;
	}
	if (!*s) {
		scale = bare_scale;
	} else {
		scale = 0;
		for (int i = 0; units[i].name; i++) {
			if (!strcasecmp(s, units[i].name)) {
				scale = units[i].scale;
				break;
			}
		}
		if (!scale)
			return -EINVAL;
	}
	if (__builtin_mul_overflow(ip, scale, &v))
		return -ERANGE;
	if (fdig) {
		uint64_t d = pow10_tab[fdig], g = gcd(fp, d);

		/*
		 * fp / d in lowest terms: the product with the scale is whole
		 * only if d divides the scale, and fp * scale alone may
		 * overflow where the result does not ("0.9999999975h").
		 */
		fp /= g;
		d /= g;
		if (scale % d)
			return -EINVAL;
		if (__builtin_mul_overflow(fp, scale / d, &fv))
			return -ERANGE;
		if (__builtin_add_overflow(v, fv, &v))
			return -ERANGE;
	}
	*out = v;
	return 0;
}

static const struct unit freq_units[] = {
	{ "Hz", 1ULL },
	{ "kHz", 1000ULL },
	{ "MHz", 1000000ULL },
	{ "GHz", 1000000000ULL },
	{ NULL, 0 },
};

int pm_parse_freq_hz(const char *s, uint64_t *hz)
{
	return parse_scaled(s, freq_units, 1000ULL, hz);
}

int pm_parse_freq_khz(const char *s, uint64_t *khz)
{
	uint64_t hz;
	int r = pm_parse_freq_hz(s, &hz);

	if (r < 0)
		return r;
	if (hz % 1000)
		return -EINVAL;
	*khz = hz / 1000;
	return 0;
}

static const struct unit time_units[] = {
	{ "us", 1ULL },
	{ "ms", 1000ULL },
	{ "s", 1000000ULL },
	{ "min", 60000000ULL },
	{ "h", 3600000000ULL },
	{ NULL, 0 },
};

int pm_parse_duration_us(const char *s, uint64_t *us)
{
	return parse_scaled(s, time_units, 1000000ULL, us);
}

/*
 * "1.2 GHz": up to three decimals, rounded to the nearest (1 017 600 kHz
 * is 1.018 GHz, as cpupower shows it), trailing zeros dropped.
 */
static char *fmt_scaled(uint64_t v, uint64_t unit, const char *name,
			char *buf, size_t size)
{
	uint64_t ip = v / unit, frac = v % unit, milli = unit / 1000;
	uint64_t up = (frac + milli / 2) / milli, upv;

	/*
	 * Thousandths of the unit, half up (2.9996 GHz carries to 3 GHz);
	 * down only where up would not parse back: v is in kHz, and the
	 * parser counts in Hz, so a value within UINT64_MAX / 1000 kHz
	 * must not round past it (one already past it cannot parse back
	 * either way, and rounds to the nearest).
	 */
	if (!__builtin_mul_overflow(up, milli, &upv) &&
	    !__builtin_add_overflow(upv, ip * unit, &upv) &&
	    (upv <= UINT64_MAX / 1000 || v > UINT64_MAX / 1000))
		frac = up;
	else
		frac /= milli;
	if (frac == 1000) {
		ip++;
		frac = 0;
	}
	if (!frac) {
		snprintf(buf, size, "%llu %s", (unsigned long long)ip, name);
	} else {
		char f[8];
		int n = snprintf(f, sizeof(f), "%03llu",
				 (unsigned long long)frac);

		while (n > 1 && f[n - 1] == '0')
			f[--n] = '\0';
		snprintf(buf, size, "%llu.%s %s", (unsigned long long)ip, f,
			 name);
	}
	return buf;
}

char *pm_fmt_khz(uint64_t khz, char *buf, size_t size)
{
	if (khz == PM_UNKNOWN)
		snprintf(buf, size, "?");
	else if (khz >= 1000000)
		fmt_scaled(khz, 1000000, "GHz", buf, size);
	else if (khz >= 1000)
		fmt_scaled(khz, 1000, "MHz", buf, size);
	else
		snprintf(buf, size, "%llu kHz", (unsigned long long)khz);
	return buf;
}

char *pm_fmt_hz(uint64_t hz, char *buf, size_t size)
{
	/* Past 2^64 - 1 kHz's rounding: the Hz, which always parse back. */
	if (hz % 1000 || hz > UINT64_MAX - 500000)
		snprintf(buf, size, "%llu Hz", (unsigned long long)hz);
	else
		pm_fmt_khz(hz / 1000, buf, size);
	return buf;
}

/* ---------------------------------------------------------------- choices */

int pm_choices_split(char *s, char **names, int max, int *current)
{
	int n = 0;

	if (current)
		*current = -1;
	while (*s) {
		char *w;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		w = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n')
			s++;
		if (*s)
			*s++ = '\0';
		if (w[0] == '[') {
			size_t l = strlen(w);

			if (l >= 2 && w[l - 1] == ']') {
				w[l - 1] = '\0';
				w++;
				/* Only an index of names[] is worth giving. */
				if (current && n < max)
					*current = n;
			}
		}
		if (n < max)
			names[n++] = w;
	}
	return n;
}

bool pm_word_in(const char *list, const char *word)
{
	size_t wl = strlen(word);
	const char *p = list;

	if (!wl)
		return false;
	while ((p = strstr(p, word)) != NULL) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '[' ||
			     p[-1] == '\t' || p[-1] == '\n';
		char e = p[wl];
		bool stop = !e || e == ' ' || e == ']' || e == '\n' ||
			    e == '\t';

		if (start && stop)
			return true;
		p++; /* a whole word may overlap the rejected match */
	}
	return false;
}

void pm_choice_current(const char *list, char *out, size_t size)
{
	const char *a = strchr(list, '['), *b;

	if (!a || !(b = strchr(a, ']'))) {
		if (size)
			out[0] = '\0';
		return;
	}
	snprintf(out, size, "%.*s", (int)(b - a - 1), a + 1);
}

bool pm_fset_name_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-'))
			return false;
	return true;
}

bool pm_word_find(const char *list, const char *w, char *out, size_t size)
{
	const char *s = list;
	size_t len = strlen(w);

	while (*s) {
		size_t n;

		while (*s == ' ' || *s == '[')
			s++;
		n = strcspn(s, " ]");
		if (n && n == len && !strncasecmp(s, w, n)) {
			snprintf(out, size, "%.*s", (int)n, s);
			return true;
		}
		s += n;
		while (*s == ']')
			s++;
	}
	return false;
}
