// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pm-suspend: suspend or hibernate the machine.  This build answers
 * whether a mode can be entered (--check, and pm-is-supported).
 */
#include <getopt.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"

enum {
	OPT_CHECK = PM_OPT_TOOL,
	OPT_IS_SUSPEND,
	OPT_IS_HIBERNATE,
	OPT_IS_HYBRID,
};

static void usage(FILE *f)
{
	fputs("Usage: pm-suspend --check [options] [MODE]\n"
	      "       pm-is-supported --suspend|--hibernate|--suspend-hybrid\n"
	      "\n"
	      "Tell whether MODE can be entered on this machine, and if not, "
	      "why.\n"
	      "\n"
	      "Modes: suspend (default), s2idle (freeze), standby (shallow), "
	      "deep,\n"
	      "       hibernate, hybrid, suspend-then-hibernate\n"
	      "\n"
	      "Options:\n"
	      "      --check          exit 0 if MODE can be entered, 3 if not "
	      "(the reason\n"
	      "                       on stderr unless -q)\n"
	      "      --sysroot DIR    read /sys and /proc under DIR\n"
	      "  -q, --quiet          no reason on stderr\n"
	      "  -v, --verbose        more messages on stderr\n"
	      "  -h, --help           show this help\n"
	      "  -V, --version        show the version\n"
	      "\n"
	      "Hibernation (hibernate, hybrid) also needs a resume device that "
	      "is an\n"
	      "active swap area with room for the image (Active(anon)).\n"
	      "\n"
	      "Exit status: 0 supported, 1 failed, 2 usage error, 3 not "
	      "supported here.\n"
	      "See pm-suspend(8).\n",
	      f);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "suspend", no_argument, NULL, OPT_IS_SUSPEND },
		{ "hibernate", no_argument, NULL, OPT_IS_HIBERNATE },
		{ "suspend-hybrid", no_argument, NULL, OPT_IS_HYBRID },
		{ NULL, 0, NULL, 0 },
	};
	char *base = basename(argv[0]);
	bool is_supported = !strcmp(base, "pm-is-supported");
	const char *mode_arg = NULL;
	enum pm_sleep_mode mode = PM_MODE_SUSPEND;
	bool check = is_supported;
	struct pm_tool t;
	struct pm_ctx ctx;
	char reason[512];
	int c, r;

	const char *name = "pm-suspend";
	const char *named_mode = NULL;

	if (!strcmp(base, "pm-hibernate")) {
		named_mode = "hibernate";
		name = base;
	} else if (!strcmp(base, "pm-suspend-hybrid")) {
		named_mode = "hybrid";
		name = base;
	} else if (is_supported) {
		name = base;
	}
	mode_arg = named_mode;
	pm_tool_init(&t, name, usage);
	opterr = 0;
	/* Options may follow MODE, as in pm-utils. */
	while ((c = getopt_long(argc, argv, ":" PM_SHARED_SHORTOPTS, longopts,
				NULL)) != -1) {
		if (pm_tool_opt(&t, c, optarg, argv))
			continue;
		const char *m = c == OPT_IS_SUSPEND   ? "suspend" :
				c == OPT_IS_HIBERNATE ? "hibernate" :
				c == OPT_IS_HYBRID    ? "hybrid" :
							NULL;

		if (c == OPT_CHECK) {
			check = true;
		} else if (m && is_supported) {
			if (mode_arg && strcmp(mode_arg, m))
				pm_usage_error(&t, "choose one of --suspend, "
						   "--hibernate, "
						   "--suspend-hybrid");
			mode_arg = m;
		} else {
			pm_usage_error(&t, "unrecognized option '%s'",
				       argv[optind - 1]);
		}
	}
	if (optind < argc) {
		enum pm_sleep_mode a, b;

		if (pm_sleep_mode_parse(argv[optind], &b) < 0)
			pm_usage_error(&t,
				       "unknown mode '%s' (choose suspend, "
				       "s2idle, standby, deep, hibernate, "
				       "hybrid or suspend-then-hibernate)",
				       argv[optind]);
		/* The same mode twice (pm-hibernate hibernate) is fine. */
		if (mode_arg && !(pm_sleep_mode_parse(mode_arg, &a) == 0 &&
				  pm_sleep_mode_parse(argv[optind], &b) == 0 &&
				  a == b))
			pm_usage_error(&t, "the mode is given twice ('%s' and "
					   "'%s')",
				       mode_arg, argv[optind]);
		mode_arg = argv[optind++];
	}
	if (optind < argc)
		pm_usage_error(&t, "unexpected argument '%s'", argv[optind]);
	if (mode_arg && pm_sleep_mode_parse(mode_arg, &mode) < 0)
		pm_usage_error(&t,
			       "unknown mode '%s' (choose suspend, s2idle, "
			       "standby, deep, hibernate, hybrid or "
			       "suspend-then-hibernate)",
			       mode_arg);
	if (!check)
		pm_usage_error(&t, "this version only checks modes: use "
				   "--check %s",
			       pm_sleep_mode_name(mode));
	pm_tool_only(&t, PM_SEEN_FORMAT, "pm-suspend --check");
	pm_tool_formats(&t, 1u << PM_FMT_HUMAN);
	pm_tool_ctx(&t, &ctx);
	r = pm_sleep_check(&ctx, mode, NULL, reason, sizeof(reason));
	pm_ctx_close(&ctx);
	if (r < 0) {
		if (t.verbose >= 0)
			pm_warn(&t, "%s: %s", pm_sleep_mode_name(mode),
				reason);
		return PM_EXIT_UNSUPPORTED;
	}
	if (t.verbose > 0)
		pm_warn(&t, "%s can be entered", pm_sleep_mode_name(mode));
	return PM_EXIT_OK;
}
