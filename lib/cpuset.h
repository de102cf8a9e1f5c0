/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: CPU sets and the kernel's CPU lists (lib/cpuset.c).
 */
#ifndef PM_CPUSET_H
#define PM_CPUSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

struct pm_cpuset {
	uint64_t w[PM_MAX_CPUS / 64];
};

void pm_cpuset_zero(struct pm_cpuset *s);
void pm_cpuset_set(struct pm_cpuset *s, unsigned cpu);
void pm_cpuset_clr(struct pm_cpuset *s, unsigned cpu);
bool pm_cpuset_isset(const struct pm_cpuset *s, unsigned cpu);
unsigned pm_cpuset_count(const struct pm_cpuset *s);
bool pm_cpuset_empty(const struct pm_cpuset *s);
bool pm_cpuset_intersects(const struct pm_cpuset *a,
			  const struct pm_cpuset *b);
void pm_cpuset_and(struct pm_cpuset *d, const struct pm_cpuset *a);
void pm_cpuset_or(struct pm_cpuset *d, const struct pm_cpuset *a);
void pm_cpuset_andnot(struct pm_cpuset *d, const struct pm_cpuset *a);
bool pm_cpuset_equal(const struct pm_cpuset *a, const struct pm_cpuset *b);
/* Next set CPU at or after from, or -1. */
int pm_cpuset_next(const struct pm_cpuset *s, unsigned from);
/* cpu is the name of the variable it declares: no parentheses.
 * NOLINTBEGIN(bugprone-macro-parentheses) */
#define pm_cpuset_foreach(cpu, s)                                            \
	for (int cpu = pm_cpuset_next((s), 0); cpu >= 0;                     \
	     cpu = pm_cpuset_next((s), (unsigned)cpu + 1))
/* NOLINTEND(bugprone-macro-parentheses) */

/*
 * A CPU set kept in the words it spans, for the many small sets a model
 * holds (a policy's CPUs): 16 bytes, and a malloc'd array only when the
 * set spans more than one word of 64 CPUs, against PM_MAX_CPUS / 8 bytes
 * for a pm_cpuset.  Zeroed (or pm_cpuspan_init) it is empty.  A copy by
 * assignment shares the array: only one of them may be freed.
 */
struct pm_cpuspan {
	uint16_t lo;		/* the first word kept */
	uint16_t n;		/* words kept: 0 empty, 1 in one */
	union {
		uint64_t one;	/* n == 1 */
		uint64_t *w;	/* n > 1, malloc'd */
	} u;
};

void pm_cpuspan_init(struct pm_cpuspan *c);
/* c = s (c's old words freed); 0 or -ENOMEM (c then empty). */
int pm_cpuspan_set(struct pm_cpuspan *c, const struct pm_cpuset *s);
/* s = c, and d |= c. */
void pm_cpuspan_get(const struct pm_cpuspan *c, struct pm_cpuset *s);
void pm_cpuspan_or(struct pm_cpuset *d, const struct pm_cpuspan *c);
/* Inline: a report asks it for each CPU of each policy. */
static inline bool pm_cpuspan_isset(const struct pm_cpuspan *c, unsigned cpu)
{
	/* Below lo, the difference wraps past n. */
	unsigned i = cpu / 64 - c->lo;

	if (cpu >= PM_MAX_CPUS || i >= c->n)
		return false;
	return ((c->n > 1 ? c->u.w[i] : c->u.one) >> (cpu % 64)) & 1;
}
bool pm_cpuspan_empty(const struct pm_cpuspan *c);
bool pm_cpuspan_intersects(const struct pm_cpuspan *c,
			   const struct pm_cpuset *s);
bool pm_cpuspan_equal(const struct pm_cpuspan *a,
		      const struct pm_cpuspan *b);
size_t pm_cpuspan_format(const struct pm_cpuspan *c, char *buf,
			 size_t size);
void pm_cpuspan_free(struct pm_cpuspan *c);

/*
 * Kernel range list ("0-3,5,7-8", groups "0-7:2/4"), empty allowed (the
 * offline file).  Reversed ranges, junk, overflow and CPUs >= PM_MAX_CPUS
 * are -EINVAL / -ERANGE.
 */
int pm_cpulist_parse(const char *s, struct pm_cpuset *set);
/* Space-separated list (cpufreq affected_cpus / related_cpus). */
int pm_cpulist_parse_spaced(const char *s, struct pm_cpuset *set);
/* Compact range list; returns the length (truncation: >= size). */
size_t pm_cpulist_format(const struct pm_cpuset *set, char *buf,
			 size_t size);

#endif /* PM_CPUSET_H */
