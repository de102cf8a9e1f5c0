// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl sleep: what /sys/power offers and the suspend statistics.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

static void human_choices(struct pmctl *p, const char *label, const char *v)
{
	if (v[0])
		pm_out_printf(&p->o, "%-11s %s\n", label, v);
}

int cmd_sleep(struct pmctl *p, int argc, char **argv)
{
	struct pm_sleep s;

	pmctl_view_args(p, "sleep", argc, argv);
	if (pm_sleep_read(&p->ctx, &s) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no /sys/power: the kernel has no system sleep support");
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pmctl_sleep_json(&p->o, &s);
		return pmctl_view_end(p);
	}
	pm_out_printf(&p->o, "%-11s %s\n", "states",
		      s.state[0] ? s.state : "none");
	human_choices(p, "mem_sleep", s.mem_sleep);
	human_choices(p, "disk", s.disk);
	human_choices(p, "pm_test", s.pm_test);
	if (s.resume[0]) {
		pm_out_printf(&p->o, "%-11s %s", "resume", s.resume);
		if (s.resume_offset != PM_UNKNOWN && s.resume_offset)
			pm_out_printf(&p->o, " (offset %llu)",
				      (unsigned long long)s.resume_offset);
		pm_out_printf(&p->o, "\n");
	}
	if (s.success != PM_UNKNOWN)
		pm_out_printf(&p->o, "%-11s %llu succeeded, %llu failed\n",
			      "suspends", (unsigned long long)s.success,
			      s.fail == PM_UNKNOWN ?
				      0ULL :
				      (unsigned long long)s.fail);
	if (s.last_failed_dev[0] || s.last_failed_step[0]) {
		pm_out_printf(&p->o, "%-11s", "last fail");
		if (s.last_failed_dev[0])
			pm_out_printf(&p->o, " device %s", s.last_failed_dev);
		if (s.last_failed_errno != PM_UNKNOWN_S64 &&
		    s.last_failed_errno < 0)
			pm_out_printf(&p->o, " %lld (%s)",
				      (long long)s.last_failed_errno,
				      pm_errno_name(
					      (int)-s.last_failed_errno));
		if (s.last_failed_step[0])
			pm_out_printf(&p->o, " at step %s",
				      s.last_failed_step);
		pm_out_printf(&p->o, "\n");
	}
	return pmctl_view_end(p);
}
