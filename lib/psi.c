// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pressure stall information (/proc/pressure/cpu, memory, io; Linux 4.20,
 * CONFIG_PSI): the share of time tasks waited for the resource, averaged
 * over 10, 60 and 300 seconds, in the kernel's "some" and "full" lines:
 *   some avg10=1.53 avg60=0.87 avg300=0.31 total=3170981
 *   full avg10=0.00 avg60=0.00 avg300=0.00 total=0
 * "full" for cpu is Linux 5.13 (always zero there).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "psi.h"
#include "core.h"

/* A share the kernel prints as %lu.%02lu: hundredths of a percent. */
static int parse_share(const char *s, const char **end, double *pct)
{
	unsigned long whole = 0, frac = 0;
	int nd = 0, nf = 0;

	while (*s >= '0' && *s <= '9' && nd < 4) {
		whole = whole * 10 + (unsigned long)(*s++ - '0');
		nd++;
	}
	if (!nd || *s != '.')
		return -EINVAL;
	s++;
	while (*s >= '0' && *s <= '9' && nf < 2) {
		frac = frac * 10 + (unsigned long)(*s++ - '0');
		nf++;
	}
	if (nf != 2 || whole > 100 || (whole == 100 && frac))
		return -EINVAL;
	*end = s;
	*pct = (double)whole + (double)frac / 100.0;
	return 0;
}

/* One line after its "some " or "full ": the three averages and total. */
static int parse_line(const char *s, double avg[3], uint64_t *total)
{
	static const char *const keys[] = { "avg10=", "avg60=", "avg300=" };
	char *e;

	for (int i = 0; i < 3; i++) {
		size_t k = strlen(keys[i]);

		if (strncmp(s, keys[i], k) || parse_share(s + k, &s, &avg[i]))
			return -EINVAL;
		if (*s++ != ' ')
			return -EINVAL;
	}
	if (strncmp(s, "total=", 6) || s[6] < '0' || s[6] > '9')
		return -EINVAL;
	errno = 0;
	*total = strtoull(s + 6, &e, 10);
	if (errno || (*e && *e != '\n'))
		return -EINVAL;
	return 0;
}

int pm_psi_parse(const char *text, struct pm_psi *p)
{
	bool some = false;

	memset(p, 0, sizeof(*p));
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');

		if (!strncmp(l, "some ", 5)) {
			if (some || parse_line(l + 5, p->some, &p->some_total_us))
				return -EINVAL;
			some = true;
		} else if (!strncmp(l, "full ", 5)) {
			if (p->has_full ||
			    parse_line(l + 5, p->full, &p->full_total_us))
				return -EINVAL;
			p->has_full = true;
		} else if (*l != '\n') {
			return -EINVAL;
		}
		if (!nl)
			break;
		l = nl + 1;
	}
	return some ? 0 : -EINVAL;
}

int pm_psi_read(struct pm_ctx *ctx, const char *resource, struct pm_psi *p)
{
	char path[64], *text;
	ssize_t n;
	int r;

	memset(p, 0, sizeof(*p));
	if (strcmp(resource, "cpu") && strcmp(resource, "memory") &&
	    strcmp(resource, "io"))
		return -EINVAL;
	snprintf(path, sizeof(path), "/proc/pressure/%s", resource);
	/* Booted with psi=0, the files are there and reads are EOPNOTSUPP. */
	n = pm_file_read(ctx, path, &text);
	if (n < 0)
		return (int)n;
	r = pm_psi_parse(text, p);
	free(text);
	if (r < 0)
		return pm_err_set(ctx, "parse", path, NULL, -r,
				  "not the kernel's some/full avg10 avg60 "
				  "avg300 total lines");
	return 0;
}
