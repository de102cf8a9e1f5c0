// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pm-suspend: suspend or hibernate the machine, with pm-utils' hooks,
 * the wakeup_count handshake, an RTC wake-up, hibernation safety checks
 * and the kernel's reason when it refuses.  Also pm-hibernate,
 * pm-suspend-hybrid, pm-is-supported and pm-resume by argv[0].
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ps.h"
#include "resume.h"

enum {
	OPT_CHECK = PM_OPT_TOOL,
	OPT_IS_SUSPEND,
	OPT_IS_HIBERNATE,
	OPT_IS_HYBRID,
	OPT_WAKE_AFTER,
	OPT_WAKE_AT,
	OPT_RTC,
	OPT_TEST,
	OPT_DIAGNOSE,
	OPT_NO_HOOKS,
	OPT_HOOK_TIMEOUT,
	OPT_HIBERNATE_DELAY,
	OPT_FORCE,
	OPT_CONFIG,
	OPT_TIMINGS,
	OPT_BUDGET,
	OPT_TIMELINE,
	OPT_USERSPACE,
	OPT_HISTORY,
};

#define MODES                                                                \
	"suspend, s2idle, standby, deep, hibernate, hybrid or "              \
	"suspend-then-hibernate"

static const char usage_text[] =
	"Usage: pm-suspend [options] [MODE]\n"
	"       pm-hibernate [options]\n"
	"       pm-suspend-hybrid [options]\n"
	"       pm-is-supported --suspend|--hibernate|--suspend-hybrid\n"
	"\n"
	"Suspend or hibernate the machine: run the sleep hooks, make "
	"the wakeup_count\n"
	"handshake, enter MODE, and on resume run the hooks in "
	"reverse and restore\n"
	"every file changed.  When the kernel refuses, say why.\n"
	"\n"
	"Modes: suspend (default), s2idle (freeze), standby (shallow), "
	"deep,\n"
	"       hibernate, hybrid, suspend-then-hibernate\n"
	"\n"
	"Options:\n"
	"      --check              exit 0 if MODE can be entered, 3 if "
	"not (the\n"
	"                           reason on stderr unless -q); "
	"nothing is changed\n"
	"      --wake-after DURATION  set the RTC alarm to wake after "
	"DURATION\n"
	"      --wake-at TIME       wake at TIME: @EPOCH or ISO 8601 "
	"(local time\n"
	"                           unless it ends in Z or an offset)\n"
	"      --rtc NAME           the RTC for the alarm (default "
	"rtc0)\n"
	"      --test LEVEL         run the kernel's pm_test up to "
	"LEVEL: freezer,\n"
	"                           devices, platform, processors, "
	"core\n"
	"      --diagnose           run each pm_test level in turn "
	"(without hooks)\n"
	"                           and name the first that fails\n"
	"      --timings            trace the kernel's sleep (tracefs): each "
	"phase both\n"
	"                           ways, the slowest device callbacks, the "
	"one that\n"
	"                           failed; every tracing setting put back\n"
	"                           (-J traces too, where tracefs offers it)\n"
	"      --budget DURATION    with --timings: name the devices that "
	"made the\n"
	"                           kernel's resume take longer than "
	"DURATION\n"
	"      --timeline FILE      with --timings: draw the cycle, each "
	"device\n"
	"                           callback a bar, in FILE (one HTML "
	"page)\n"
	"      --history            the past cycles per week: success rate, "
	"resume time,\n"
	"                           wake reasons (-F prom: the pm_suspend_* "
	"metrics)\n"
	"      --no-hooks           do not run the sleep hooks\n"
	"      --hook-timeout DURATION  kill a hook after DURATION "
	"(default 30 s)\n"
	"      --hibernate-delay DURATION  suspend-then-hibernate: "
	"hibernate after\n"
	"                           DURATION asleep (default 2 h)\n"
	"      --userspace          hibernate with pmtools' own image "
	"writer (zstd,\n"
	"                           checksums; resumed by pm-resume) "
	"instead of the\n"
	"                           kernel's\n"
	"      --force              hibernate without the safety "
	"checks; replace\n"
	"                           an RTC alarm that is already set\n"
	"      --config FILE        read FILE instead of "
	"/etc/pm/pm-suspend.conf\n"
	"  -n, --dry-run            print every write and hook, change "
	"nothing\n"
	"      --wait[=SEC]         wait for another pm-suspend instead "
	"of exit 4\n"
	"  -J, --json               print a report of the cycle as "
	"JSON\n"
	"  -F, --format FMT         human (default), json or kv (--history: "
	"also prom)\n"
	"  -o, --output FILE        write the report to FILE "
	"atomically\n"
	"      --sysroot DIR        prefix /sys, /proc, /etc, /run, "
	"/var with DIR\n"
	"  -q, --quiet              fewer messages on stderr\n"
	"  -v, --verbose            the summary on stderr even when it "
	"is not a\n"
	"                           terminal\n"
	"  -h, --help               show this help\n"
	"  -V, --version            show the version\n"
	"\n"
	"Hibernation (hibernate, hybrid) needs a resume device that is "
	"an active\n"
	"swap area with room for the image (Active(anon)).\n"
	"\n"
	"Hooks: /etc/pm/sleep.d over /usr/lib/pm-utils/sleep.d, as in "
	"pm-utils; their\n"
	"functions file: PM_FUNCTIONS=" PM_FUNCTIONS_FILE "\n"
	"\n"
	"Exit status: 0 done (resumed), 1 failed (the sleep was "
	"skipped or the\n"
	"kernel refused), 2 usage error, 3 not supported here, 4 busy "
	"(another\n"
	"pm-suspend, or an RTC alarm already set).\n"
	"See pm-suspend(8) and pm-suspend.conf(5).\n";

static void usage(FILE *f)
{
	fputs(usage_text, f);
}

static void on_signal(int sig)
{
	ps_signal = sig;
}

/* N decimal digits at s into *v; false unless there are exactly those. */
static bool digits_n(const char *s, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (s[i] - '0');
	}
	return true;
}

static int month_days(int y, int m)
{
	static const int days[12] = { 31, 28, 31, 30, 31, 30,
				      31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

/*
 * @EPOCH, or YYYY-MM-DD[T ]HH:MM[:SS][Z|+HH[:]MM|-HH[:]MM], every field
 * with its digits and in its range (no 2027-02-31, no 10:00:61, no blank
 * around it): a date the calendar does not have is not a time to wake at.
 */
static int parse_time(const char *s, int64_t *out)
{
	int y, mo, d, h, mi, se = 0, oh, om;
	struct tm tm;
	const char *t;
	uint64_t v;
	long off;

	if (s[0] == '@') {
		if (pm_parse_u64(s + 1, &v) < 0 || v > INT64_MAX / 2)
			return -EINVAL;
		*out = (int64_t)v;
		return 0;
	}
	if (!digits_n(s, 4, &y) || s[4] != '-' || !digits_n(s + 5, 2, &mo) ||
	    s[7] != '-' || !digits_n(s + 8, 2, &d) ||
	    (s[10] != 'T' && s[10] != ' ') || !digits_n(s + 11, 2, &h) ||
	    s[13] != ':' || !digits_n(s + 14, 2, &mi))
		return -EINVAL;
	t = s + 16;
	if (*t == ':') {
		if (!digits_n(t + 1, 2, &se))
			return -EINVAL;
		t += 3;
	}
	if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo) || h > 23 ||
	    mi > 59 || se > 59)
		return -EINVAL;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = se;
	if (!*t) {
		tm.tm_isdst = -1;
		time_t r = mktime(&tm);

		if (r == (time_t)-1)
			return -EINVAL;
		*out = r;
		return 0;
	}
	if (!strcmp(t, "Z")) {
		off = 0;
	} else if ((*t == '+' || *t == '-') && digits_n(t + 1, 2, &oh) &&
		   ((t[3] == ':' && digits_n(t + 4, 2, &om) && !t[6]) ||
		    (digits_n(t + 3, 2, &om) && !t[5])) &&
		   oh <= 23 && om <= 59) {
		off = (oh * 3600L + om * 60L) * (*t == '-' ? -1 : 1);
	} else {
		return -EINVAL;
	}
	*out = (int64_t)timegm(&tm) - off;
	return 0;
}

/* An option given again with another value: which one was meant? */
static void twice(const struct pm_tool *t, const char *opt, bool differ)
{
	if (differ)
		pm_usage_error(t, "%s given twice with different values", opt);
}

static const char *const test_levels[] = { "freezer", "devices", "platform",
					   "processors", "core" };

static bool test_level_known(const char *level)
{
	for (size_t i = 0; i < sizeof(test_levels) / sizeof(test_levels[0]);
	     i++)
		if (!strcmp(level, test_levels[i]))
			return true;
	return false;
}

static double duration_opt(struct pm_tool *t, const char *opt,
			   const char *arg)
{
	uint64_t us;

	if (pm_parse_duration_us(arg, &us) < 0 || us == 0)
		pm_usage_error(t,
			       "%s '%s': not a duration above 0 (30, 500ms, "
			       "2min, 1h)",
			       opt, arg);
	return (double)us / 1e6;
}

static void join_cmdline(struct ps *p, int argc, char **argv)
{
	size_t n = 0;

	for (int i = 1; i < argc && n < sizeof(p->cmdline) - 1; i++) {
		int k = snprintf(p->cmdline + n, sizeof(p->cmdline) - n,
				 "%s%s", i > 1 ? " " : "", argv[i]);

		if (k < 0)
			break;
		n += (size_t)k;
	}
	if (n >= sizeof(p->cmdline))
		p->cmdline[sizeof(p->cmdline) - 1] = '\0';
}

/* A configured HIBERNATE_MODE must be offered as it is (no fallback). */
static void check_hib_mode(struct ps *p)
{
	struct pm_sleep s;

	if (!p->hib_mode[0] || p->mode < PM_MODE_HIBERNATE ||
	    p->mode == PM_MODE_HYBRID)
		return;
	pm_sleep_read(&p->ctx, &s);
	if (!pm_word_in(s.disk, p->hib_mode)) {
		if (p->check && p->t.verbose < 0)
			exit(PM_EXIT_UNSUPPORTED);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "HIBERNATE_MODE=%s is not offered (disk: %s)",
		       p->hib_mode, s.disk[0] ? s.disk : "none");
	}
}

static int check_only(struct ps *p)
{
	char reason[512];
	int r;

	check_hib_mode(p);
	r = pm_sleep_check(&p->ctx, p->mode,
			   p->hib_mode[0] ? p->hib_mode : NULL,
			   p->userspace ? PM_HIB_USER : PM_HIB_KERNEL, reason,
			   sizeof(reason));
	if (r < 0) {
		if (p->t.verbose >= 0)
			pm_warn(&p->t, "%s: %s", pm_sleep_mode_name(p->mode),
				reason);
		return PM_EXIT_UNSUPPORTED;
	}
	if (p->t.verbose > 0)
		pm_warn(&p->t, "%s can be entered",
			pm_sleep_mode_name(p->mode));
	return PM_EXIT_OK;
}

/* logind runs the machine's sleep: say that we go around its inhibitors. */
static void logind_note(struct ps *p)
{
	if (pm_exists(&p->ctx, "/run/systemd/system") &&
	    pm_exists(&p->ctx, "/run/systemd/seats"))
		pm_note(&p->t,
			"systemd-logind manages sleep on this machine: "
			"pm-suspend bypasses its inhibitors (systemctl %s "
			"honours them)",
			p->mode >= PM_MODE_HIBERNATE ?
				(p->mode == PM_MODE_HYBRID ? "hybrid-sleep" :
				 p->mode == PM_MODE_HIBERNATE ?
							   "hibernate" :
							   "suspend-then-hibernate") :
				"suspend");
	pm_err_clear(&p->ctx);
}

static void check_test_level(struct ps *p)
{
	struct pm_sleep s;

	pm_sleep_read(&p->ctx, &s);
	if (!s.pm_test[0])
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "%s: /sys/power/pm_test is not offered (the kernel "
		       "needs CONFIG_PM_DEBUG)",
		       p->test_level ? "--test" : "--diagnose");
	if (p->test_level && !pm_word_in(s.pm_test, p->test_level))
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "--test %s is not offered (pm_test: %s)", p->test_level,
		       s.pm_test);
}

/* What the command line gives beside struct ps: the tool's names and
 * the mode asked, and which config values an option overrides. */
struct args {
	bool is_supported, set_timeout, set_delay;
	const char *mode_arg;
};

/* pm-hibernate, pm-suspend-hybrid and pm-is-supported by argv[0]. */
static void init_names(struct ps *p, struct args *a, const char *argv0)
{
	char *copy = strdup(argv0);
	const char *base = copy ? basename(copy) : argv0;

	p->name = "pm-suspend";
	p->logfd = p->lockfd = p->store.fd = -1;
	p->hook_timeout_s = 30;
	p->hibernate_delay_s = 7200;
	a->is_supported = !strcmp(base, "pm-is-supported");
	if (!strcmp(base, "pm-hibernate")) {
		a->mode_arg = "hibernate";
		p->name = "pm-hibernate";
	} else if (!strcmp(base, "pm-suspend-hybrid")) {
		a->mode_arg = "hybrid";
		p->name = "pm-suspend-hybrid";
	} else if (a->is_supported) {
		p->name = "pm-is-supported";
	}
	p->check = a->is_supported;
	free(copy);
}

static void opt_wake_after(struct ps *p, const char *arg)
{
	double s = duration_opt(&p->t, "--wake-after", arg);
	uint64_t was = p->wake_after_s;

	if (s < 1 || s > 366.0 * 86400)
		pm_usage_error(&p->t, "--wake-after '%s': from 1 s to a year",
			       arg);
	p->wake_after_s = (uint64_t)(s + 0.999999);
	twice(&p->t, "--wake-after", was && was != p->wake_after_s);
}

static void opt_wake_at(struct ps *p, const char *arg)
{
	int64_t was = p->wake_at;

	if (parse_time(arg, &p->wake_at) < 0)
		pm_usage_error(&p->t,
			       "--wake-at '%s': not a time (@EPOCH, or "
			       "2026-12-03T07:30, with Z or +01:00 for UTC or "
			       "an offset)",
			       arg);
	if (p->wake_at <= (int64_t)time(NULL))
		pm_usage_error(&p->t, "--wake-at '%s' is in the past", arg);
	twice(&p->t, "--wake-at", was && was != p->wake_at);
}

/* The options that take a value of their own kind. */
static bool opt_value(struct ps *p, struct args *a, int c, const char *arg)
{
	double was;

	switch (c) {
	case OPT_WAKE_AFTER:
		opt_wake_after(p, arg);
		return true;
	case OPT_WAKE_AT:
		opt_wake_at(p, arg);
		return true;
	case OPT_RTC:
		if (!pm_fset_name_ok(arg, 31))
			pm_usage_error(&p->t,
				       "--rtc '%s': an RTC name such as rtc0",
				       arg);
		twice(&p->t, "--rtc", p->rtc && strcmp(p->rtc, arg));
		p->rtc = arg;
		return true;
	case OPT_TEST:
		/* Bad input before what the machine offers. */
		if (!test_level_known(arg))
			pm_usage_error(&p->t,
				       "--test '%s': choose freezer, devices, "
				       "platform, processors or core",
				       arg);
		twice(&p->t, "--test",
		      p->test_level && strcmp(p->test_level, arg));
		p->test_level = arg;
		return true;
	case OPT_HOOK_TIMEOUT:
		was = p->hook_timeout_s;
		p->hook_timeout_s = duration_opt(&p->t, "--hook-timeout", arg);
		twice(&p->t, "--hook-timeout",
		      a->set_timeout && was != p->hook_timeout_s);
		a->set_timeout = true;
		return true;
	case OPT_HIBERNATE_DELAY:
		was = p->hibernate_delay_s;
		p->hibernate_delay_s =
			duration_opt(&p->t, "--hibernate-delay", arg);
		twice(&p->t, "--hibernate-delay",
		      a->set_delay && was != p->hibernate_delay_s);
		if (p->hibernate_delay_s < 1)
			pm_usage_error(&p->t,
				       "--hibernate-delay '%s': at least 1 s",
				       arg);
		a->set_delay = true;
		return true;
	case OPT_BUDGET:
		was = p->budget_s;
		p->budget_s = duration_opt(&p->t, "--budget", arg);
		twice(&p->t, "--budget", was > 0 && was != p->budget_s);
		return true;
	case OPT_TIMELINE:
		if (!arg[0])
			pm_usage_error(&p->t, "--timeline: empty file name");
		twice(&p->t, "--timeline",
		      p->timeline && strcmp(p->timeline, arg));
		p->timeline = arg;
		p->timings = true;
		return true;
	case OPT_CONFIG:
		if (!arg[0])
			pm_usage_error(&p->t, "--config: empty file name");
		twice(&p->t, "--config", p->config && strcmp(p->config, arg));
		p->config = arg;
		return true;
	}
	return false;
}

/* pm-is-supported's --suspend, --hibernate and --suspend-hybrid. */
static void opt_is(struct ps *p, struct args *a, int c, char **argv)
{
	const char *m = c == OPT_IS_SUSPEND   ? "suspend" :
			c == OPT_IS_HIBERNATE ? "hibernate" :
			c == OPT_IS_HYBRID    ? "hybrid" :
						NULL;

	if (!m || !a->is_supported)
		pm_usage_error(&p->t, "unrecognized option '%s'",
			       argv[optind - 1]);
	if (a->mode_arg && strcmp(a->mode_arg, m))
		pm_usage_error(&p->t, "choose one of --suspend, --hibernate, "
				      "--suspend-hybrid");
	a->mode_arg = m;
}

static void parse_opts(struct ps *p, struct args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "check", no_argument, NULL, OPT_CHECK },
		{ "suspend", no_argument, NULL, OPT_IS_SUSPEND },
		{ "hibernate", no_argument, NULL, OPT_IS_HIBERNATE },
		{ "suspend-hybrid", no_argument, NULL, OPT_IS_HYBRID },
		{ "wake-after", required_argument, NULL, OPT_WAKE_AFTER },
		{ "wake-at", required_argument, NULL, OPT_WAKE_AT },
		{ "rtc", required_argument, NULL, OPT_RTC },
		{ "test", required_argument, NULL, OPT_TEST },
		{ "diagnose", no_argument, NULL, OPT_DIAGNOSE },
		{ "no-hooks", no_argument, NULL, OPT_NO_HOOKS },
		{ "hook-timeout", required_argument, NULL, OPT_HOOK_TIMEOUT },
		{ "hibernate-delay", required_argument, NULL,
		  OPT_HIBERNATE_DELAY },
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "config", required_argument, NULL, OPT_CONFIG },
		{ "timings", no_argument, NULL, OPT_TIMINGS },
		{ "budget", required_argument, NULL, OPT_BUDGET },
		{ "timeline", required_argument, NULL, OPT_TIMELINE },
		{ "userspace", no_argument, NULL, OPT_USERSPACE },
		{ "history", no_argument, NULL, OPT_HISTORY },
		{ "dry-run", no_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	/* Options may follow MODE, as in pm-utils. */
	while ((c = getopt_long(argc, argv, ":n" PM_SHARED_SHORTOPTS,
				longopts, NULL)) != -1) {
		if (pm_tool_opt(&p->t, c, optarg, argv) ||
		    opt_value(p, a, c, optarg))
			continue;
		if (c == OPT_CHECK) {
			p->check = true;
		} else if (c == OPT_DIAGNOSE) {
			p->diagnose = true;
		} else if (c == OPT_NO_HOOKS) {
			p->no_hooks = true;
		} else if (c == OPT_FORCE) {
			p->force = true;
		} else if (c == OPT_TIMINGS) {
			p->timings = true;
		} else if (c == OPT_USERSPACE) {
			p->userspace = true;
		} else if (c == OPT_HISTORY) {
			p->history = true;
		} else {
			opt_is(p, a, c, argv);
		}
	}
}

/* MODE, once, and agreeing with the one a name or an option gave. */
static void parse_mode(struct ps *p, struct args *a, int argc, char **argv)
{
	enum pm_sleep_mode x, y;

	if (optind < argc) {
		if (pm_sleep_mode_parse(argv[optind], &y) < 0)
			pm_usage_error(&p->t,
				       "unknown mode '%s' (choose " MODES ")",
				       argv[optind]);
		/* The same mode twice (pm-hibernate hibernate) is fine. */
		if (a->mode_arg && !(pm_sleep_mode_parse(a->mode_arg, &x) == 0 &&
				     x == y))
			pm_usage_error(&p->t,
				       "the mode is given twice ('%s' and "
				       "'%s')",
				       a->mode_arg, argv[optind]);
		a->mode_arg = argv[optind++];
	}
	if (optind < argc)
		pm_usage_error(&p->t, "unexpected argument '%s'", argv[optind]);
	if (a->mode_arg && pm_sleep_mode_parse(a->mode_arg, &p->mode) < 0)
		pm_usage_error(&p->t, "unknown mode '%s' (choose " MODES ")",
			       a->mode_arg);
}

/* The options of the rules below, and the mode asked for. */
enum {
	X_WAKE_AFTER = 1 << 0,
	X_WAKE_AT = 1 << 1,
	X_WAKE = X_WAKE_AFTER | X_WAKE_AT,
	X_TEST = 1 << 2,
	X_DIAGNOSE = 1 << 3,
	X_PM_TEST = X_TEST | X_DIAGNOSE,
	X_CHECK = 1 << 4,
	X_DRY_RUN = 1 << 5,
	X_NO_HOOKS = 1 << 6,
	X_STH = 1 << 7,		/* suspend-then-hibernate */
	X_JSON = 1 << 8,
	X_OUTPUT = 1 << 9,
	X_TIMINGS = 1 << 10,
	X_BUDGET = 1 << 11,
	X_USERSPACE = 1 << 12,
	X_NOT_HIB = 1 << 13,	/* a mode without a hibernate leg */
	X_TIMELINE = 1 << 14,
};

/* The options that do not go together, each pair with its reason. */
static const struct pm_opt_rule combos[] = {
	{ PM_RULE_CONFLICT, X_WAKE_AFTER, X_WAKE_AT,
	  "--wake-after and --wake-at: choose one" },
	{ PM_RULE_CONFLICT, X_STH, X_WAKE,
	  "suspend-then-hibernate sets its own alarm: use --hibernate-delay" },
	{ PM_RULE_CONFLICT, X_TEST, X_DIAGNOSE,
	  "--test and --diagnose: choose one" },
	{ PM_RULE_CONFLICT, X_PM_TEST, X_STH,
	  "--test and --diagnose take one sleep mode, not "
	  "suspend-then-hibernate" },
	{ PM_RULE_CONFLICT, X_PM_TEST, X_WAKE,
	  "a pm_test run does not sleep: --wake-after and --wake-at do not "
	  "apply" },
	{ PM_RULE_NEEDS, X_BUDGET, X_TIMINGS,
	  "--budget reads the kernel's trace: add --timings" },
	{ PM_RULE_CONFLICT, X_USERSPACE, X_NOT_HIB | X_PM_TEST,
	  "--userspace writes a hibernation image: it takes hibernate or "
	  "suspend-then-hibernate, without --test or --diagnose" },
	{ PM_RULE_CONFLICT, X_CHECK,
	  X_DRY_RUN | X_PM_TEST | X_WAKE | X_NO_HOOKS | X_TIMINGS,
	  "--check only answers whether MODE can be entered: it takes no "
	  "other action" },
};

/* Those of the report, once the format is known to be offered. */
static const struct pm_opt_rule out_combos[] = {
	{ PM_RULE_CONFLICT, X_DRY_RUN, X_JSON,
	  "--dry-run prints the writes and hooks, not a report: drop --json" },
	{ PM_RULE_CONFLICT, X_DRY_RUN, X_TIMELINE,
	  "--dry-run prints the writes and hooks, not a report: drop "
	  "--timeline" },
	{ PM_RULE_NEEDS, X_OUTPUT, X_JSON,
	  "-o/--output writes the JSON report: add --json" },
};

static void check_combos(struct ps *p)
{
	unsigned given =
		(p->wake_after_s ? X_WAKE_AFTER : 0) |
		(p->wake_at ? X_WAKE_AT : 0) | (p->test_level ? X_TEST : 0) |
		(p->diagnose ? X_DIAGNOSE : 0) | (p->check ? X_CHECK : 0) |
		(p->t.dry_run ? X_DRY_RUN : 0) |
		(p->no_hooks ? X_NO_HOOKS : 0) |
		(p->mode == PM_MODE_SUSPEND_THEN_HIBERNATE ? X_STH : 0) |
		(p->t.fmt == PM_FMT_JSON || p->t.fmt == PM_FMT_KV ? X_JSON : 0) |
		(p->t.output ? X_OUTPUT : 0) |
		(p->timings ? X_TIMINGS : 0) | (p->budget_s > 0 ? X_BUDGET : 0) |
		(p->userspace ? X_USERSPACE : 0) |
		(p->timeline ? X_TIMELINE : 0) |
		(p->mode != PM_MODE_HIBERNATE &&
				 p->mode != PM_MODE_SUSPEND_THEN_HIBERNATE ?
			 X_NOT_HIB : 0);

	pm_tool_rules(&p->t, given, combos, sizeof(combos) / sizeof(combos[0]),
		      NULL);
	if (p->check) {
		pm_tool_only(&p->t, PM_SEEN_FORMAT, "pm-suspend --check");
		pm_tool_formats(&p->t, 1u << PM_FMT_HUMAN);
	}
	pm_tool_only(&p->t,
		     PM_SEEN_FORMAT | PM_SEEN_OUTPUT | PM_SEEN_WAIT |
			     PM_SEEN_DRY_RUN,
		     p->name);
	pm_tool_formats(&p->t, 1u << PM_FMT_HUMAN | 1u << PM_FMT_JSON |
				       1u << PM_FMT_KV);
	pm_tool_rules(&p->t, given, out_combos,
		      sizeof(out_combos) / sizeof(out_combos[0]), NULL);
}

/* The report is written after the resume: a --output that cannot be made
 * must stop us before the sleep, not after it. */
void ps_probe_output(struct ps *p)
{
	struct pm_out probe;
	int r;

	if (!p->t.output)
		return;
	r = pm_out_open(&probe, p->t.fmt, p->t.output);
	if (r < 0)
		pm_die(&p->t, pm_out_exit(r), "cannot write %s: %s (%s)",
		       p->t.output, strerror(-r), pm_errno_name(-r));
	pm_out_abort(&probe);
}

/* Before the lock: the mode is offered (exit 3 naming what the kernel
 * offers), and /sys/power/state can be written. */
static void preflight(struct ps *p)
{
	char reason[512];
	int r;

	if (pm_sleep_offered(&p->ctx, p->mode,
			     p->hib_mode[0] ? p->hib_mode : NULL, reason,
			     sizeof(reason)) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED, "%s: %s",
		       pm_sleep_mode_name(p->mode), reason);
	check_hib_mode(p);
	if (p->test_level || p->diagnose)
		check_test_level(p);
	if (p->t.dry_run)
		return;
	r = pm_sleep_state_writable(&p->ctx);
	if (r == -EACCES)
		pm_die(&p->t, PM_EXIT_FAIL,
		       "root is needed to write /sys/power/state");
	if (r < 0)
		pm_die(&p->t, PM_EXIT_USAGE, "%s",
		       p->ctx.err.hint[0] ? p->ctx.err.hint :
					    "PM_TEST_GUARD=1: refusing to "
					    "write the real /sys");
}

static void take_lock(struct ps *p)
{
	char holder[128], buf[700];

	if (p->t.dry_run)
		return;
	p->lockfd = pm_lock_take(&p->ctx, PS_LOCK, p->name, p->t.wait_s,
				 holder, sizeof(holder));
	if (p->lockfd == -EWOULDBLOCK)
		pm_die(&p->t, PM_EXIT_BUSY,
		       "another sleep is in progress (%s%sholds %s); --wait "
		       "waits for it",
		       holder, holder[0] ? " " : "", PS_LOCK);
	if (p->lockfd < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot take the lock: %s",
		       pm_err_str(&p->ctx.err, buf, sizeof(buf)));
}

/* Hibernation must be able to come back. */
static void hibernate_safety(struct ps *p)
{
	char reason[512];

	if (p->mode >= PM_MODE_HIBERNATE &&
	    pm_hibernate_check(&p->ctx, p->userspace ? PM_HIB_USER :
						       PM_HIB_KERNEL,
			       reason, sizeof(reason)) < 0) {
		if (!p->force)
			pm_die(&p->t, PM_EXIT_UNSUPPORTED,
			       "%s refused: %s; hibernating now would lose "
			       "the session (--force skips this check)",
			       pm_sleep_mode_name(p->mode), reason);
		pm_warn(&p->t, "hibernating without the safety check "
			       "(--force): %s",
			reason);
	}
	pm_err_clear(&p->ctx);
}

static void cleanup(struct ps *p)
{
	if (p->logfd >= 0)
		close(p->logfd);
	pm_lock_release(p->lockfd);
	pm_hooks_free(&p->hooks);
	pm_hooks_free(&p->sdhooks);
	pm_hook_store_close(&p->store);
	for (int i = 0; i < p->nres; i++) {
		free(p->res[i].src0);
		free(p->res[i].src1);
		pm_trace_free(&p->res[i].trace);
	}
	free(p->rec);
	pm_sleep_txn_free(&p->sx);
	pm_journal_close(&p->journal);
	pm_ctx_close(&p->ctx);
}

int main(int argc, char **argv)
{
	static struct ps p;
	struct args a = { 0 };
	struct sigaction sa;
	const char *slash = strrchr(argv[0], '/');
	int st;

	if (!strcmp(slash ? slash + 1 : argv[0], "pm-resume"))
		return ps_resume_main(argc, argv);
	init_names(&p, &a, argv[0]);
	join_cmdline(&p, argc, argv);
	pm_tool_init(&p.t, p.name, usage);
	p.t.dry_run_opt = true;
	parse_opts(&p, &a, argc, argv);
	parse_mode(&p, &a, argc, argv);
	if (p.history)
		return ps_history(&p, a.mode_arg, a.set_timeout, a.set_delay);
	check_combos(&p);
	pm_tool_ctx(&p.t, &p.ctx);
	ps_probe_output(&p);
	ps_timeline_probe(&p);
	ps_config(&p, a.set_timeout, a.set_delay);
	if (!p.rtc)
		p.rtc = p.conf_rtc[0] ? p.conf_rtc : "rtc0";
	if (p.check) {
		st = check_only(&p);
		pm_ctx_close(&p.ctx);
		return st;
	}
	preflight(&p);
	take_lock(&p);
	hibernate_safety(&p);
	logind_note(&p);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	st = ps_run(&p);
	ps_history_log(&p);
	if (!p.t.dry_run && ps_signal && st == PM_EXIT_OK)
		pm_warn(&p.t, "a signal arrived during the sleep: handled "
			      "after the resume");
	ps_report(&p, st);
	st = ps_timeline(&p, st);
	cleanup(&p);
	return st;
}
