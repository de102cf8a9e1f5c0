// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl thermal: thermal zones, their trip points and cooling devices.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

int cmd_thermal(struct pmctl *p, int argc, char **argv)
{
	struct pm_tzone *v;
	int n;

	pmctl_view_args(p, "thermal", argc, argv);
	n = pm_tzones_read(&p->ctx, &v);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n) {
		free(v);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no thermal zones (/sys/class/thermal has none)");
	}
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pmctl_thermal_json(&p->o, v, n);
	} else {
		for (int i = 0; i < n; i++) {
			pm_out_printf(&p->o, "thermal_zone%-3u %-16s", v[i].id,
				      v[i].type);
			if (v[i].temp_mc == PM_UNKNOWN_S64)
				pm_out_printf(&p->o, " %8s", "?");
			else
				pm_out_printf(&p->o, " %6.1f°C",
					      (double)v[i].temp_mc / 1000.0);
			pm_out_printf(&p->o, "  %s%s%s\n", v[i].policy,
				      v[i].mode[0] ? ", " : "", v[i].mode);
		}
	}
	free(v);
	return pmctl_view_end(p);
}
