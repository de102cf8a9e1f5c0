// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl profile: the platform profile and its choices (show), and the
 * choice of one (set, through pm_profile_plan).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

int cmd_profile(struct pmctl *p, int argc, char **argv)
{
	struct pm_profile prof;

	if (argc == 1 && strcmp(argv[0], "show")) {
		pmctl_opts_only(p, 0, "pmctl profile");
		return pmctl_profile_set(p, argv[0]);
	}
	pmctl_view_args(p, "profile", argc, argv);
	if (pm_profile_read(&p->ctx, &prof) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no platform profile "
		       "(/sys/firmware/acpi/platform_profile is missing)");
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN)
		pmctl_profile_json(p);
	else {
		if (prof.current[0])
			pm_out_printf(&p->o, "%s (choices: %s)\n", prof.current,
				      prof.choices[0] ? prof.choices : "none");
		for (int i = 0; i < prof.n_handlers; i++)
			pm_out_printf(&p->o, "  %s (%s): %s (choices: %s)\n",
				      prof.h[i].id,
				      prof.h[i].name[0] ? prof.h[i].name : "?",
				      prof.h[i].profile[0] ? prof.h[i].profile :
							     "?",
				      prof.h[i].choices[0] ? prof.h[i].choices :
							     "none");
	}
	return pmctl_view_end(p);
}

int pmctl_profile_set(struct pmctl *p, const char *name)
{
	struct pm_writer w;

	pm_tool_only(&p->t, WRITE_SEEN, "pmctl profile NAME");
	if (!pmctl_word_ok(name, PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "profile: invalid profile name '%s'",
			       name);
	pmctl_write_begin(p, &w);
	pm_profile_plan(&w, name, "profile: ");
	return pm_writer_commit(&w);
}
