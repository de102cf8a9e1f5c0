// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opp-set: operating points.  This build lists the points defined in
 * /etc/pm/opp.d and the installed examples.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"

enum {
	OPT_LIST = PM_OPT_TOOL,
};

static void usage(FILE *f)
{
	fputs("Usage: opp-set --list [options]\n"
	      "\n"
	      "List the operating points: /etc/pm/opp.d/NAME.conf, then the "
	      "installed\n"
	      "examples in " PM_DATADIR "/opp.d (a name in /etc wins).\n"
	      "\n"
	      "Options:\n"
	      "      --list           list the operating points\n"
	      "  -F, --format FMT     human, json or kv\n"
	      "  -J, --json           same as --format json\n"
	      "  -o, --output FILE    write the list to FILE atomically\n"
	      "      --sysroot DIR    read /etc under DIR\n"
	      "  -q, --quiet          fewer messages on stderr\n"
	      "  -v, --verbose        more messages on stderr\n"
	      "  -h, --help           show this help\n"
	      "  -V, --version        show the version\n"
	      "\n"
	      "Exit status: 0 done, 1 failed, 2 usage error.\n"
	      "See opp-set(8).\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "list", no_argument, NULL, OPT_LIST },
		{ NULL, 0, NULL, 0 },
	};
	struct pm_opp_entry *v;
	struct pm_tool t;
	struct pm_ctx ctx;
	struct pm_out o;
	bool list = false;
	int c, n;

	pm_tool_init(&t, "opp-set", usage);
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" PM_SHARED_SHORTOPTS, longopts,
				NULL)) != -1) {
		if (pm_tool_opt(&t, c, optarg, argv))
			continue;
		if (c == OPT_LIST)
			list = true;
		else
			pm_usage_error(&t, "unrecognized option '%s'",
				       argv[optind - 1]);
	}
	if (optind < argc)
		pm_usage_error(&t, "this version only lists points: unexpected "
				   "argument '%s'",
			       argv[optind]);
	if (!list)
		pm_usage_error(&t, "nothing to do: use --list");
	pm_tool_only(&t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT, "opp-set --list");
	pm_tool_formats(&t, 1u << PM_FMT_HUMAN | 1u << PM_FMT_JSON |
				    1u << PM_FMT_KV);
	pm_tool_ctx(&t, &ctx);
	n = pm_opp_list(&ctx, PM_DATADIR, &v);
	if (n < 0)
		pm_die(&t, PM_EXIT_FAIL, "out of memory");
	pm_tool_out(&t, &o);
	if (t.fmt == PM_FMT_HUMAN) {
		if (!n)
			pm_note(&t, "no operating points in /etc/pm/opp.d or "
				    "%s/opp.d",
				PM_DATADIR);
		for (int i = 0; i < n; i++) {
			if (v[i].error[0])
				pm_out_printf(&o, "%-20s (unreadable: %s)\n",
					      v[i].name, v[i].error);
			else
				pm_out_printf(&o, "%-20s %s\n", v[i].name,
					      v[i].description);
		}
	} else {
		pm_out_obj_begin(&o, NULL);
		pm_out_arr_begin(&o, "points", "point");
		for (int i = 0; i < n; i++) {
			pm_out_obj_begin(&o, NULL);
			pm_out_str(&o, "name", v[i].name);
			pm_out_str(&o, "file", v[i].path);
			pm_out_bool(&o, "installed", v[i].installed);
			pm_out_str_or_null(&o, "description",
					   v[i].description);
			if (v[i].error[0])
				pm_out_str(&o, "error", v[i].error);
			else
				pm_out_null(&o, "error");
			pm_out_obj_end(&o);
		}
		pm_out_arr_end(&o);
		pm_out_obj_end(&o);
	}
	for (int i = 0; i < n; i++)
		if (v[i].error[0])
			pm_warn(&t, "%s: %s", v[i].path, v[i].error);
	pm_tool_out_done(&t, &o);
	free(v);
	pm_ctx_close(&ctx);
	return PM_EXIT_OK;
}
