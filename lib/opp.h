/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: operating performance point tables (lib/opp.c).
 */
#ifndef PM_OPP_H
#define PM_OPP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

struct pm_opp_entry {
	char name[PM_NAME_MAX];
	char path[PM_PATH_MAX];		/* as shown: /etc/pm/opp.d/x.conf */
	bool installed;			/* from the installed examples */
	char description[PM_CONF_LINE_MAX];	/* a line is no longer */
	/* why the file cannot be read, or "" */
	char error[PM_PATH_MAX + 300];
};

/* An operating point name: [A-Za-z0-9_.-]+, not starting with '.'. */
bool pm_opp_name_valid(const char *name);
/*
 * Every point in /etc/pm/opp.d (under the root) and in datadir/opp.d
 * (a real path; NULL for none); /etc wins by name; sorted by name.
 */
int pm_opp_list(struct pm_ctx *ctx, const char *datadir,
		struct pm_opp_entry **out);

#endif /* PM_OPP_H */
