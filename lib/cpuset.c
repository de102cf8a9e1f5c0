// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU sets, and the kernel's CPU lists ("0-3,5", "0-7:2/4", "0 1 2")
 * parsed strictly into them and formatted back compactly.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpuset.h"
#include "core.h"
#include "parse.h"

void pm_cpuset_zero(struct pm_cpuset *s)
{
	memset(s, 0, sizeof(*s));
}

void pm_cpuset_set(struct pm_cpuset *s, unsigned cpu)
{
	if (cpu < PM_MAX_CPUS)
		s->w[cpu / 64] |= 1ULL << (cpu % 64);
}

void pm_cpuset_clr(struct pm_cpuset *s, unsigned cpu)
{
	if (cpu < PM_MAX_CPUS)
		s->w[cpu / 64] &= ~(1ULL << (cpu % 64));
}

bool pm_cpuset_isset(const struct pm_cpuset *s, unsigned cpu)
{
	return cpu < PM_MAX_CPUS && (s->w[cpu / 64] >> (cpu % 64)) & 1;
}

unsigned pm_cpuset_count(const struct pm_cpuset *s)
{
	unsigned n = 0;

	for (size_t i = 0; i < PM_MAX_CPUS / 64; i++)
		n += (unsigned)__builtin_popcountll(s->w[i]);
	return n;
}

bool pm_cpuset_empty(const struct pm_cpuset *s)
{
	for (size_t i = 0; i < PM_MAX_CPUS / 64; i++)
		if (s->w[i])
			return false;
	return true;
}

bool pm_cpuset_intersects(const struct pm_cpuset *a,
			  const struct pm_cpuset *b)
{
	for (size_t i = 0; i < PM_MAX_CPUS / 64; i++)
		if (a->w[i] & b->w[i])
			return true;
	return false;
}

void pm_cpuset_and(struct pm_cpuset *d, const struct pm_cpuset *a)
{
	for (size_t i = 0; i < PM_MAX_CPUS / 64; i++)
		d->w[i] &= a->w[i];
}

void pm_cpuset_or(struct pm_cpuset *d, const struct pm_cpuset *a)
{
	for (size_t i = 0; i < PM_MAX_CPUS / 64; i++)
		d->w[i] |= a->w[i];
}

void pm_cpuset_andnot(struct pm_cpuset *d, const struct pm_cpuset *a)
{
	for (size_t i = 0; i < PM_MAX_CPUS / 64; i++)
		d->w[i] &= ~a->w[i];
}

bool pm_cpuset_equal(const struct pm_cpuset *a, const struct pm_cpuset *b)
{
	return memcmp(a->w, b->w, sizeof(a->w)) == 0;
}

int pm_cpuset_next(const struct pm_cpuset *s, unsigned from)
{
	for (unsigned i = from / 64; i < PM_MAX_CPUS / 64; i++) {
		uint64_t w = s->w[i];

		if (i == from / 64)
			w &= ~0ULL << (from % 64);
		if (w)
			return (int)(i * 64 + (unsigned)__builtin_ctzll(w));
	}
	return -1;
}

static const uint64_t *span_words(const struct pm_cpuspan *c)
{
	return c->n > 1 ? c->u.w : &c->u.one;
}

void pm_cpuspan_init(struct pm_cpuspan *c)
{
	memset(c, 0, sizeof(*c));
}

void pm_cpuspan_free(struct pm_cpuspan *c)
{
	if (c->n > 1)
		free(c->u.w);
	pm_cpuspan_init(c);
}

int pm_cpuspan_set(struct pm_cpuspan *c, const struct pm_cpuset *s)
{
	size_t lo = 0, hi = PM_MAX_CPUS / 64;

	pm_cpuspan_free(c);
	while (lo < hi && !s->w[lo])
		lo++;
	while (hi > lo && !s->w[hi - 1])
		hi--;
	if (lo == hi)
		return 0;
	if (hi - lo > 1) {
		c->u.w = malloc((hi - lo) * sizeof(*c->u.w));
		if (!c->u.w)
			return -ENOMEM;
		memcpy(c->u.w, &s->w[lo], (hi - lo) * sizeof(*c->u.w));
	} else {
		c->u.one = s->w[lo];
	}
	c->lo = (uint16_t)lo;
	c->n = (uint16_t)(hi - lo);
	return 0;
}

void pm_cpuspan_or(struct pm_cpuset *d, const struct pm_cpuspan *c)
{
	const uint64_t *w = span_words(c);

	for (size_t i = 0; i < c->n; i++)
		d->w[c->lo + i] |= w[i];
}

void pm_cpuspan_get(const struct pm_cpuspan *c, struct pm_cpuset *s)
{
	pm_cpuset_zero(s);
	pm_cpuspan_or(s, c);
}

bool pm_cpuspan_empty(const struct pm_cpuspan *c)
{
	return c->n == 0;
}

bool pm_cpuspan_intersects(const struct pm_cpuspan *c,
			   const struct pm_cpuset *s)
{
	const uint64_t *w = span_words(c);

	for (size_t i = 0; i < c->n; i++)
		if (w[i] & s->w[c->lo + i])
			return true;
	return false;
}

bool pm_cpuspan_equal(const struct pm_cpuspan *a,
		      const struct pm_cpuspan *b)
{
	/* Both trimmed to their first and last non-zero words. */
	return a->lo == b->lo && a->n == b->n &&
	       !memcmp(span_words(a), span_words(b),
		       a->n * sizeof(uint64_t));
}

size_t pm_cpuspan_format(const struct pm_cpuspan *c, char *buf,
			 size_t size)
{
	struct pm_cpuset s;

	pm_cpuspan_get(c, &s);
	return pm_cpulist_format(&s, buf, size);
}

static int cpu_num(const char **s, unsigned *v)
{
	uint64_t x;
	int r = pm_parse_digits(s, &x);

	if (r < 0)
		return r;
	if (x >= PM_MAX_CPUS)
		return -ERANGE;
	*v = (unsigned)x;
	return 0;
}

int pm_cpulist_parse(const char *s, struct pm_cpuset *set)
{
	struct pm_cpuset tmp;
	const char *end;

	if (!s)
		return -EINVAL;
	pm_cpuset_zero(&tmp);
	/* The kernel ends the list with "\n"; an offline file is just that. */
	end = s + strlen(s);
	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	if (end == s) {
		*set = tmp;
		return 0;
	}
	for (;;) {
		unsigned a, b, used = 1, group = 1;
		int r = cpu_num(&s, &a);

		if (r < 0)
			return r;
		b = a;
		if (*s == '-') {
			s++;
			r = cpu_num(&s, &b);
			if (r < 0)
				return r;
			if (b < a)
				return -EINVAL;
			if (*s == ':') {
				s++;
				r = cpu_num(&s, &used);
				if (r < 0)
					return r;
				if (*s++ != '/')
					return -EINVAL;
				r = cpu_num(&s, &group);
				if (r < 0)
					return r;
				if (!used || !group || used > group)
					return -EINVAL;
			}
		}
		for (unsigned c = a; c <= b; c++)
			if ((c - a) % group < used)
				pm_cpuset_set(&tmp, c);
		if (s == end)
			break;
		if (*s != ',')
			return -EINVAL;
		s++;
	}
	*set = tmp;
	return 0;
}

int pm_cpulist_parse_spaced(const char *s, struct pm_cpuset *set)
{
	struct pm_cpuset tmp;

	if (!s)
		return -EINVAL;
	pm_cpuset_zero(&tmp);
	for (;;) {
		unsigned c;
		int r;

		while (*s == ' ' || *s == '\n' || *s == '\t')
			s++;
		if (!*s)
			break;
		r = cpu_num(&s, &c);
		if (r < 0)
			return r;
		if (*s && *s != ' ' && *s != '\n' && *s != '\t')
			return -EINVAL;
		pm_cpuset_set(&tmp, c);
	}
	*set = tmp;
	return 0;
}

size_t pm_cpulist_format(const struct pm_cpuset *set, char *buf,
			 size_t size)
{
	size_t len = 0;
	int c = pm_cpuset_next(set, 0);

	if (size)
		buf[0] = '\0';
	while (c >= 0) {
		int e = c;
		int n;

		while (e + 1 < PM_MAX_CPUS && pm_cpuset_isset(set, (unsigned)e + 1))
			e++;
		if (e == c)
			n = snprintf(len < size ? buf + len : NULL,
				     len < size ? size - len : 0, "%s%d",
				     len ? "," : "", c);
		else
			n = snprintf(len < size ? buf + len : NULL,
				     len < size ? size - len : 0, "%s%d-%d",
				     len ? "," : "", c, e);
		len += (size_t)n;
		c = e + 1 < PM_MAX_CPUS ? pm_cpuset_next(set, (unsigned)e + 1) :
					  -1;
	}
	return len;
}
