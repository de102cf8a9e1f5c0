// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "proc_stat": pm_proc_stat_parse on any text (the input,
 * NUL-terminated), into a tick array of exactly nticks entries so that
 * a write past it is caught.  Checked: the result is a count or
 * -EINVAL, and no more CPUs are filled than lines were counted.  The parse is repeated with
 * nticks 0 (the count must not change) and must be deterministic.
 * The fields are deterministic too, and idle + iowait is the idle sum;
 * /proc/uptime's parser on the same text gives 0 and a finite,
 * non-negative number, or -EINVAL.
 */
#include <errno.h>
#include <math.h>

#include "fuzz.h"

#define NTICKS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_cpu_ticks *t = malloc(NTICKS * sizeof(*t));
	struct pm_cpu_ticks *u = malloc(NTICKS * sizeof(*u));
	char *s = fz_str(data, size);
	int n, n0, n2, filled = 0;

	if (!t || !u)
		abort();
	n = pm_proc_stat_parse(s, t, NTICKS);
	CHECK(n >= 0 || n == -EINVAL);
	for (int i = 0; i < NTICKS; i++) {
		if (t[i].total == PM_UNKNOWN && t[i].idle == PM_UNKNOWN)
			continue;
		filled++;
		/* A filled entry came from a "cpuN" line. */
		CHECK(strstr(s, "cpu") != NULL);
	}
	if (n >= 0)
		CHECK(filled <= n);
	n0 = pm_proc_stat_parse(s, u, 0);
	CHECK(n0 == n);
	n2 = pm_proc_stat_parse(s, u, NTICKS);
	CHECK(n2 == n);
	for (int i = 0; i < NTICKS; i++) {
		CHECK(t[i].total == u[i].total && t[i].idle == u[i].idle);
		for (int k = 0; k < PM_ST_FIELDS; k++)
			CHECK(t[i].f[k] == u[i].f[k]);
		/* A CPU's line has at least user..idle. */
		if (t[i].total != PM_UNKNOWN &&
		    t[i].f[PM_ST_IDLE] != PM_UNKNOWN) {
			uint64_t w = t[i].idle - t[i].f[PM_ST_IDLE];

			/* iowait, or 0 on a line without it. */
			CHECK(w == t[i].f[PM_ST_IOWAIT] ||
			      (t[i].f[PM_ST_IOWAIT] == PM_UNKNOWN && !w));
		}
	}
	{
		double up = -1;
		int r = pm_uptime_parse(s, &up);

		CHECK(r == 0 || r == -EINVAL);
		if (r == 0)
			CHECK(isfinite(up) && up >= 0);
	}
	free(s);
	free(t);
	free(u);
	return 0;
}
