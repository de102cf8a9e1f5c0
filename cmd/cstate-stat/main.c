// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cstate-stat: how deep and how long the CPUs sleep, and how fast they
 * run: its options, what this machine has to report, and the modes.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cstate-stat.h"

/* Above this many CPUs the human report shows the summary row only. */
#define AUTO_SUMMARY_CPUS 16
/* The longest --interval: a year of days, like pm-suspend's alarm. */
#define INTERVAL_MAX_US (366ULL * 86400 * 1000000)

enum {
	OPT_CSTATES = PM_OPT_TOOL,
	OPT_PSTATES,
	OPT_PERCPU,
	OPT_WAKEUPS,
	OPT_POWER,
	OPT_TRANS,
};

static struct cs_opts opt;
static bool trans_table;
/* --cstates, --pstates: the one half to show. */
static bool cstates_only, pstates_only;

static void usage(FILE *f)
{
	fputs("Usage: cstate-stat [options]                    since boot\n"
	      "       cstate-stat [options] -i SEC [-n COUNT]  every SEC "
	      "seconds\n"
	      "       cstate-stat [options] -- COMMAND [ARG...] over COMMAND's "
	      "run\n"
	      "\n"
	      "Report C-state (cpuidle) and P-state (cpufreq) residency, and the\n"
	      "CPU time (busy, steal, idle) and wakeups where the kernel keeps "
	      "them.\n"
	      "\n"
	      "Options:\n"
	      "  -i, --interval SEC   sample every SEC seconds (500ms, 2, 1.5s "
	      "...)\n"
	      "  -n, --count COUNT    stop after COUNT samples (default: until "
	      "interrupted)\n"
	      "  -c, --cpu LIST       CPUs to report: 0-3,8, all or online "
	      "(default)\n"
	      "      --cstates        idle states only\n"
	      "      --pstates        frequency states only\n"
	      "      --wakeups        interrupts per second and the top "
	      "sources\n"
	      "      --power          package/core watts from RAPL energy_uj "
	      "(-i, --)\n"
	      "      --trans-table    the cpufreq transition table (since "
	      "boot)\n"
	      "  -s, --summary        one row for all selected CPUs (the "
	      "human default\n"
	      "                       above 16 CPUs)\n"
	      "      --per-cpu        human rows per CPU even above 16 CPUs\n"
	      "  -F, --format FMT     human, json, kv, csv or prom\n"
	      "  -J, --json           same as --format json\n"
	      "  -o, --output FILE    write the report to FILE atomically\n"
	      "      --sysroot DIR    read /sys and /proc under DIR\n"
	      "  -q, --quiet          fewer messages on stderr\n"
	      "  -v, --verbose        more messages on stderr\n"
	      "  -h, --help           show this help\n"
	      "  -V, --version        show the version\n"
	      "\n"
	      "Exit status: 0 done, 1 failed, 2 usage error, 3 not supported "
	      "here.\n"
	      "See cstate-stat(8).\n",
	      f);
}

/*
 * What this machine gives to report: idle states (cpuidle, or s390's
 * own statistics), cpufreq policies, /proc/stat and /proc/interrupts.
 */
struct avail {
	bool idle, s390, freq, stat, irq;
};

static void find_avail(struct pm_ctx *ctx, const struct pm_cpuset *sel,
		       struct avail *a)
{
	struct pm_cpuidle ci;
	struct pm_cpu_ticks *ticks;
	unsigned one;

	memset(a, 0, sizeof(*a));
	a->idle = pm_cpuidle_read(ctx, &ci) == 0 && strcmp(ci.driver, "none");
	a->freq = pm_policies_list(ctx, &one, 1) > 0;
	a->s390 = pm_s390_idle_present(ctx, sel);
	ticks = calloc(PM_MAX_CPUS, sizeof(*ticks));
	if (ticks)
		a->stat = pm_proc_stat_read(ctx, ticks, PM_MAX_CPUS) > 0;
	free(ticks);
	if (opt.wakeups && pm_proc_interrupts_check(ctx) == 0)
		a->irq = true;
	pm_err_clear(ctx);
}

/* Nothing to report at all is "not supported here", in every mode. */
static void check_avail(struct pm_tool *t, const struct avail *a,
			bool only_c, bool only_p)
{
	if (only_c && !only_p && !a->idle && !a->s390)
		pm_die(t, PM_EXIT_UNSUPPORTED,
		       "no idle states on this machine "
		       "(/sys/devices/system/cpu/cpuidle is missing or its "
		       "driver is none, and there are no s390 idle "
		       "statistics)%s",
		       opt.hv.present ? ": the hypervisor owns the C-states" :
					"");
	if (only_p && !only_c && !a->freq)
		pm_die(t, PM_EXIT_UNSUPPORTED,
		       "no cpufreq policies on this machine%s",
		       opt.hv.present ? ": the hypervisor owns the P-states" :
					"");
	if (!a->idle && !a->s390 && !a->freq && !a->stat && !a->irq)
		pm_die(t, PM_EXIT_UNSUPPORTED,
		       "nothing to report on this machine: no cpuidle states, "
		       "no cpufreq policies, no s390 idle statistics and no "
		       "readable /proc/stat");
}

/* One option of cstate-stat's own; a bad value exits 2. */
static void own_opt(struct pm_tool *t, int c, char **argv)
{
	uint64_t v;

	switch (c) {
	case 's':
		opt.summary = opt.summary_set = true;
		break;
	case 'i':
		/* The deadlines are nanoseconds in an int64_t. */
		if (pm_parse_duration_us(optarg, &v) < 0 || v == 0 ||
		    v > INTERVAL_MAX_US)
			pm_usage_error(t, "--interval: invalid interval '%s' "
					  "(a number of seconds > 0, or "
					  "500ms, 2s...; at most 366 days)",
				       optarg);
		if (opt.interval_us && opt.interval_us != v)
			pm_usage_error(t, "--interval given twice with "
					  "different values");
		opt.interval_us = v;
		break;
	case 'n':
		if (pm_parse_u64(optarg, &v) < 0 || v == 0)
			pm_usage_error(t, "--count: invalid count '%s' (a "
					  "whole number >= 1)",
				       optarg);
		if (opt.count && opt.count != v)
			pm_usage_error(t, "--count given twice with different "
					  "values");
		opt.count = v;
		break;
	case OPT_WAKEUPS:
		opt.wakeups = true;
		break;
	case OPT_POWER:
		opt.power = true;
		break;
	case OPT_TRANS:
		trans_table = true;
		break;
	case OPT_PERCPU:
		opt.percpu = true;
		break;
	case OPT_CSTATES:
		cstates_only = true;
		break;
	case OPT_PSTATES:
		pstates_only = true;
		break;
	default:
		pm_usage_error(t, "unrecognized option '%s'", argv[optind - 1]);
	}
}

/* The options, then -- and the command to run, if any. */
static void parse_args(struct pm_tool *t, int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "summary", no_argument, NULL, 's' },
		{ "per-cpu", no_argument, NULL, OPT_PERCPU },
		{ "cstates", no_argument, NULL, OPT_CSTATES },
		{ "pstates", no_argument, NULL, OPT_PSTATES },
		{ "interval", required_argument, NULL, 'i' },
		{ "count", required_argument, NULL, 'n' },
		{ "wakeups", no_argument, NULL, OPT_WAKEUPS },
		{ "power", no_argument, NULL, OPT_POWER },
		{ "trans-table", no_argument, NULL, OPT_TRANS },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:" PM_SHARED_SHORTOPTS "si:n:",
				longopts, NULL)) != -1)
		if (!pm_tool_opt(t, c, optarg, argv))
			own_opt(t, c, argv);
	if (optind < argc) {
		if (strcmp(argv[optind - 1], "--"))
			pm_usage_error(t, "unexpected argument '%s' (put -- "
					  "before a command)",
				       argv[optind]);
		opt.cmd = argv + optind;
	} else if (optind > 1 && !strcmp(argv[optind - 1], "--")) {
		pm_usage_error(t, "a command is missing after --");
	}
}

/* The options of the rules below, and -- COMMAND. */
enum {
	X_SUMMARY = 1 << 0,
	X_PERCPU = 1 << 1,
	X_INTERVAL = 1 << 2,
	X_CMD = 1 << 3,
	X_TRANS = 1 << 4,
	X_CSTATES = 1 << 5,
	X_COUNT = 1 << 6,
	X_POWER = 1 << 7,
};

/* The options that do not go together, or need another. */
static void check_combos(struct pm_tool *t)
{
	static const struct pm_opt_rule rules[] = {
		{ PM_RULE_CONFLICT, X_SUMMARY, X_PERCPU,
		  "--summary conflicts with --per-cpu" },
		{ PM_RULE_CONFLICT, X_CMD, X_INTERVAL,
		  "--interval conflicts with -- COMMAND" },
		{ PM_RULE_CONFLICT, X_TRANS, X_INTERVAL | X_CMD,
		  "--trans-table is for the since-boot report" },
		{ PM_RULE_CONFLICT, X_TRANS, X_CSTATES,
		  "--trans-table conflicts with --cstates" },
		{ PM_RULE_NEEDS, X_COUNT, X_INTERVAL,
		  "--count needs --interval" },
		{ PM_RULE_NEEDS, X_POWER, X_INTERVAL | X_CMD,
		  "--power needs --interval or -- COMMAND" },
	};
	unsigned given = (opt.summary_set ? X_SUMMARY : 0) |
			 (opt.percpu ? X_PERCPU : 0) |
			 (opt.interval_us ? X_INTERVAL : 0) |
			 (opt.cmd ? X_CMD : 0) | (trans_table ? X_TRANS : 0) |
			 (cstates_only ? X_CSTATES : 0) |
			 (opt.count ? X_COUNT : 0) | (opt.power ? X_POWER : 0);

	pm_tool_only(t, PM_SEEN_CPU | PM_SEEN_OUTPUT | PM_SEEN_FORMAT,
		     "cstate-stat");
	pm_tool_rules(t, given, rules, sizeof(rules) / sizeof(rules[0]), NULL);
}

/* The CPUs to report, and the summary row by default above 16. */
static void select_cpus(struct pm_tool *t, struct pm_ctx *ctx,
			struct pm_cpus *cpus, struct pm_cpuset *sel)
{
	char msg[PM_PATH_MAX + 600];

	if (pm_cpus_read(ctx, cpus) < 0)
		pm_die(t, PM_EXIT_UNSUPPORTED, "cannot read the CPUs: %s",
		       pm_err_str(&ctx->err, msg, sizeof(msg)));
	if (pm_cpus_select(ctx, cpus, t->cpu ? t->cpu : "online", sel) < 0)
		pm_usage_error(t, "--cpu '%s': %s", t->cpu, ctx->err.hint);
	if (!opt.summary_set && !opt.percpu && t->fmt == PM_FMT_HUMAN &&
	    pm_cpuset_count(sel) > AUTO_SUMMARY_CPUS)
		opt.summary = true;
}

/*
 * An --output that cannot be written fails now, not after the first
 * interval or the whole command.
 */
static void probe_output(struct pm_tool *t)
{
	struct pm_out probe;
	int r;

	if (!t->output || (!opt.interval_us && !opt.cmd))
		return;
	r = pm_out_open(&probe, t->fmt, t->output);
	if (r < 0)
		pm_die(t, pm_out_exit(r), "cannot write %s: %s (%s)", t->output,
		       strerror(-r), pm_errno_name(-r));
	pm_out_abort(&probe);
}

int main(int argc, char **argv)
{
	struct pm_tool t;
	struct pm_ctx ctx;
	struct pm_cpus cpus;
	struct pm_cpuset sel;
	struct avail av;
	int code;

	pm_tool_init(&t, "cstate-stat", usage);
	parse_args(&t, argc, argv);
	check_combos(&t);
	opt.cstates = cstates_only || !pstates_only;
	opt.pstates = pstates_only || !cstates_only;

	pm_tool_ctx(&t, &ctx);
	select_cpus(&t, &ctx, &cpus, &sel);
	pm_hypervisor_detect(&ctx, &opt.hv);
	find_avail(&ctx, &sel, &av);
	check_avail(&t, &av, cstates_only, pstates_only);
	probe_output(&t);
	if (opt.interval_us)
		return cs_run_interval(&t, &ctx, &sel, &opt);
	if (opt.cmd)
		return cs_run_command(&t, &ctx, &sel, &opt);
	code = cs_run_boot(&t, &ctx, &cpus, &sel, &opt, trans_table);
	pm_ctx_close(&ctx);
	return code;
}
