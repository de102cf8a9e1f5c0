// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl's other setters: idle states and the cpuidle governor, CPU
 * hotplug and SMT, the platform profile, devfreq devices and battery
 * charge thresholds.  Each checks everything first, then writes through
 * the shared all-or-nothing path (lib/writer.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

#define WRITE_SEEN                                                           \
	(PM_SEEN_FORMAT | PM_SEEN_OUTPUT | PM_SEEN_WAIT | PM_SEEN_DRY_RUN)
/* The kernel's PM QoS ceiling for a latency (PM_QOS_CPU_LATENCY_DEFAULT). */
#define LATENCY_MAX_US 2000000000ULL

static void read_cpus(struct pmctl *p)
{
	if (pm_cpus_read(&p->ctx, &p->cpus) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no CPUs under /sys/devices/system/cpu");
}

/* A kernel name given by the user: letters, digits, '_', '-', '.'. */
static bool word_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		      *s == '.' || *s == ':'))
			return false;
	return true;
}

/* A latency in µs: a bare number is µs here (the argument says _US). */
uint64_t pmctl_latency_arg(struct pmctl *p, const char *cmd, const char *s)
{
	uint64_t us;
	int r;

	if (*s >= '0' && *s <= '9' && s[strspn(s, "0123456789")] == '\0')
		r = pm_parse_u64(s, &us);
	else
		r = pm_parse_duration_us(s, &us);
	if (r < 0 || us > LATENCY_MAX_US)
		pm_usage_error(&p->t,
			       "%s: invalid latency '%s' (microseconds, or "
			       "with us, ms or s; at most 2000 s)",
			       cmd, s);
	return us;
}

/* ---------------------------------------------------------------- idle */

/* The selected online CPUs; offline ones noted. */
static void idle_cpus(struct pmctl *p, struct pm_cpuset *sel)
{
	struct pm_cpuset off;
	char list[256];

	read_cpus(p);
	if (pm_cpus_select(&p->ctx, &p->cpus, p->t.cpu ? p->t.cpu : "all",
			   sel) < 0)
		pm_usage_error(&p->t, "--cpu '%s': %s", p->t.cpu,
			       p->ctx.err.hint);
	off = *sel;
	pm_cpuset_andnot(&off, &p->cpus.online);
	if (!pm_cpuset_empty(&off)) {
		pm_cpulist_format(&off, list, sizeof(list));
		pm_note(&p->t, "cpus %s are offline: skipped", list);
	}
	pm_cpuset_and(sel, &p->cpus.online);
}

static int idle_governor(struct pmctl *p, int argc, char **argv)
{
	struct pm_writer w;

	if (argc != 1)
		pm_usage_error(&p->t, "idle governor: give one governor name");
	if (!word_ok(argv[0], PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "idle governor: invalid name '%s'",
			       argv[0]);
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl idle governor");
	pmctl_write_begin(p, &w);
	pm_idle_governor_plan(&w, argv[0], NULL);
	return pm_writer_commit(&w);
}

/* The arguments of idle disable|enable|limit, checked: exit 2. */
static void idle_args(struct pmctl *p, const char *verb, int argc,
		      char **argv, struct pm_idle_set *r)
{
	if (!strcmp(verb, "limit")) {
		if (argc != 1)
			pm_usage_error(&p->t, "idle limit: give one latency "
					      "in microseconds");
		/* Every state: those above the limit disabled. */
		r->rest = r->has_latency = true;
		r->latency_us = pmctl_latency_arg(p, "idle limit", argv[0]);
		return;
	}
	if (!argc)
		pm_usage_error(&p->t, "idle %s: name the states (a name such "
				      "as C6, or an index)",
			       verb);
	for (int a = 0; a < argc; a++)
		if (!strcmp(verb, "disable") && !strcmp(argv[a], "all"))
			pm_usage_error(&p->t, "idle disable: name the states; "
					      "only enable takes all");
	for (int a = 0; a < argc; a++) {
		uint64_t v;

		/* An index too big for any number is no index. */
		if (!word_ok(argv[a], PM_NAME_MAX - 1) ||
		    pm_parse_u64(argv[a], &v) == -ERANGE)
			pm_usage_error(&p->t, "idle %s: invalid state '%s'",
				       verb, argv[a]);
	}
	r->names = argv;
	r->n_names = argc;
	r->enable = !strcmp(verb, "enable");
}

int pmctl_idle_set(struct pmctl *p, int argc, char **argv)
{
	const char *verb = argv[0];
	struct pm_idle_set r = { .where = NULL };
	struct pm_writer w;

	pmctl_opts_only(p, 0, "pmctl idle");
	argc--;
	argv++;
	if (!strcmp(verb, "governor"))
		return idle_governor(p, argc, argv);
	pm_tool_only(&p->t, PM_SEEN_CPU | WRITE_SEEN, "pmctl idle");
	idle_args(p, verb, argc, argv, &r);
	pmctl_write_begin(p, &w);
	idle_cpus(p, &r.cpus);
	pm_idle_plan(&w, &r);
	return pm_writer_commit(&w);
}

/* ---------------------------------------------------------------- cpu */

static const struct pm_cpus *cur_cpus;

static void explain_hotplug(struct pm_writer *w, const struct pm_write *x,
			    char *buf, size_t size)
{
	struct pmctl *p = w->arg;
	char err[PM_PATH_MAX + 600];
	const char *why = "";
	unsigned cpu = 0;

	pm_err_str(&p->ctx.err, err, sizeof(err));
	pm_hotplug_cpu(x->path, &cpu);
	if (x->err == EBUSY)
		why = " (the last online CPU cannot go, and hotplug is off "
		      "during a suspend)";
	else if (x->err == EPERM && !strcmp(x->val, "1") && cur_cpus &&
		 (!strcmp(cur_cpus->smt_control, "off") ||
		  !strcmp(cur_cpus->smt_control, "forceoff")))
		why = " (an SMT sibling stays offline while smt/control is "
		      "off: pmctl smt on)";
	else if (x->err == EPERM)
		why = " (the kernel does not let this CPU go offline)";
	else if (x->err == EOPNOTSUPP)
		why = " (this machine does not allow CPU hotplug: a "
		      "confidential-computing guest)";
	snprintf(buf, size, "cannot take cpu%u %s: %s%s", cpu,
		 !strcmp(x->val, "1") ? "online" : "offline", err, why);
}

int pmctl_cpu_set(struct pmctl *p, int argc, char **argv)
{
	bool on = !strcmp(argv[0], "online");
	struct pm_cpuset want, left;
	struct pm_hotplug h = { .where = NULL };
	struct pm_writer w;
	char list[256];
	int r;

	pmctl_opts_only(p, 0, "pmctl cpu");
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl cpu online|offline");
	if (argc != 2)
		pm_usage_error(&p->t, "cpu %s: give one CPU list (0-3,8)",
			       argv[0]);
	r = pm_cpulist_parse(argv[1], &want);
	if (r < 0 || pm_cpuset_empty(&want))
		pm_usage_error(&p->t, "cpu %s: invalid CPU list '%s'", argv[0],
			       argv[1]);
	pmctl_write_begin(p, &w);
	read_cpus(p);
	left = want;
	pm_cpuset_andnot(&left, &p->cpus.present);
	if (!pm_cpuset_empty(&left)) {
		pm_cpulist_format(&left, list, sizeof(list));
		pm_die(&p->t, PM_EXIT_USAGE, "cpu %s: no CPU %s on this "
					     "machine",
		       argv[0], list);
	}
	pm_cpuset_zero(&h.up);
	pm_cpuset_zero(&h.down);
	if (on)
		h.up = want;
	else
		h.down = want;
	pm_hotplug_check(&w, &p->cpus, &h);
	pm_hotplug_plan(&w, &want, on);
	cur_cpus = &p->cpus;
	w.perm_ok = true;
	w.explain_fail = explain_hotplug;
	return pm_writer_commit(&w);
}

int cmd_smt(struct pmctl *p, int argc, char **argv)
{
	struct pm_writer w;

	pmctl_opts_only(p, 0, "pmctl smt");
	if (argc > 1 || (argc == 1 && strcmp(argv[0], "on") &&
			 strcmp(argv[0], "off") && strcmp(argv[0], "show")))
		pm_usage_error(&p->t, "smt: '%s' is not on, off or show",
			       argc > 1 ? argv[1] : argv[0]);
	if (argc == 0 || !strcmp(argv[0], "show")) {
		pm_tool_only(&p->t, PM_SEEN_FORMAT | PM_SEEN_OUTPUT,
			     "pmctl smt");
		read_cpus(p);
		if (!p->cpus.smt_control[0])
			pm_die(&p->t, PM_EXIT_UNSUPPORTED,
			       "no SMT control on this machine "
			       "(/sys/devices/system/cpu/smt is missing)");
		pm_tool_out(&p->t, &p->o);
		if (p->t.fmt == PM_FMT_HUMAN) {
			pm_out_printf(&p->o, "smt: control %s, active %s\n",
				      p->cpus.smt_control,
				      p->cpus.smt_active < 0 ? "?" :
				      p->cpus.smt_active     ? "yes" :
							       "no");
		} else {
			pm_out_obj_begin(&p->o, NULL);
			pm_out_str(&p->o, "control", p->cpus.smt_control);
			pm_out_flag(&p->o, "active", p->cpus.smt_active);
			pm_out_obj_end(&p->o);
		}
		pm_tool_out_done(&p->t, &p->o);
		return PM_EXIT_OK;
	}
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl smt on|off");
	pmctl_write_begin(p, &w);
	read_cpus(p);
	pm_smt_plan(&w, &p->cpus, argv[0], NULL);
	w.perm_ok = true;
	return pm_writer_commit(&w);
}

/* ---------------------------------------------------------------- profile */

int pmctl_profile_set(struct pmctl *p, const char *name)
{
	struct pm_writer w;

	pm_tool_only(&p->t, WRITE_SEEN, "pmctl profile NAME");
	if (!word_ok(name, PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "profile: invalid profile name '%s'",
			       name);
	pmctl_write_begin(p, &w);
	pm_profile_plan(&w, name, "profile: ");
	return pm_writer_commit(&w);
}

/* ---------------------------------------------------------------- devfreq */

static uint64_t hz_opt(struct pmctl *p, int o, const char *name)
{
	uint64_t hz;

	if (pm_parse_freq_hz(p->opt[o], &hz) < 0 || hz == 0)
		pm_usage_error(&p->t,
			       "--%s: invalid frequency '%s' (kHz, or a "
			       "number with Hz, kHz, MHz or GHz)",
			       name, p->opt[o]);
	return hz;
}

int pmctl_devfreq_set(struct pmctl *p, int argc, char **argv)
{
	const unsigned opts = PMCTL_BIT(PMCTL_O_GOVERNOR) |
			      PMCTL_BIT(PMCTL_O_MIN) | PMCTL_BIT(PMCTL_O_MAX);
	const char *gov = p->opt[PMCTL_O_GOVERNOR];
	uint64_t min = 0, max = 0;
	struct pm_devfreq *df, *d = NULL;
	char a[32], b[32];
	struct pm_writer w;
	int n, code;

	pmctl_opts_only(p, opts, "pmctl devfreq set");
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl devfreq set");
	if (argc != 1)
		pm_usage_error(&p->t, "devfreq set: name one device");
	if (!word_ok(argv[0], PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "devfreq set: invalid device name '%s'",
			       argv[0]);
	if (!gov && !p->opt[PMCTL_O_MIN] && !p->opt[PMCTL_O_MAX])
		pm_usage_error(&p->t, "devfreq set: nothing to set (give "
				      "--governor, --min or --max)");
	if (gov && !word_ok(gov, PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "--governor: invalid governor name '%s'",
			       gov);
	if (p->opt[PMCTL_O_MIN])
		min = hz_opt(p, PMCTL_O_MIN, "min");
	if (p->opt[PMCTL_O_MAX])
		max = hz_opt(p, PMCTL_O_MAX, "max");
	if (min && max && min > max) {
		pm_fmt_hz(min, a, sizeof(a));
		pm_fmt_hz(max, b, sizeof(b));
		pm_die(&p->t, PM_EXIT_USAGE, "--min %s is above --max %s", a,
		       b);
	}
	pmctl_write_begin(p, &w);
	n = pm_devfreqs_read(&p->ctx, &df);
	for (int i = 0; i < n; i++)
		if (!strcmp(df[i].name, argv[0]))
			d = &df[i];
	if (!d)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no devfreq device '%s' (see pmctl devfreq)", argv[0]);
	pm_devfreq_plan(&w, d, gov, min, max, NULL);
	code = pm_writer_commit(&w);
	free(df);
	return code;
}

/* ---------------------------------------------------------------- supply */

int pmctl_supply_set(struct pmctl *p, int argc, char **argv)
{
	const unsigned opts = PMCTL_BIT(PMCTL_O_CHARGE_START) |
			      PMCTL_BIT(PMCTL_O_CHARGE_STOP) |
			      PMCTL_BIT(PMCTL_O_CHARGE_BEHAVIOUR);
	const char *start = p->opt[PMCTL_O_CHARGE_START];
	const char *stop = p->opt[PMCTL_O_CHARGE_STOP];
	struct pm_charge c = { .behaviour = p->opt[PMCTL_O_CHARGE_BEHAVIOUR] };
	struct pm_supply_set rec[PM_CHARGE_N];
	char err[PM_PATH_MAX + 600];
	struct pm_writer w;
	int code;

	pmctl_opts_only(p, opts, "pmctl supply set");
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl supply set");
	if (argc != 1)
		pm_usage_error(&p->t, "supply set: name one battery (BAT0)");
	if (!word_ok(argv[0], PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "supply set: invalid supply name '%s'",
			       argv[0]);
	c.name = argv[0];
	c.has_start = start != NULL;
	c.has_stop = stop != NULL;
	if (!start && !stop && !c.behaviour)
		pm_usage_error(&p->t, "supply set: nothing to set (give "
				      "--charge-start, --charge-stop or "
				      "--charge-behaviour)");
	if (start && pm_parse_pct(start, &c.start))
		pm_usage_error(&p->t, "--charge-start: invalid percentage "
				      "'%s' (0 to 100)",
			       start);
	if (stop && pm_parse_pct(stop, &c.stop))
		pm_usage_error(&p->t, "--charge-stop: invalid percentage "
				      "'%s' (0 to 100)",
			       stop);
	if (c.behaviour && !word_ok(c.behaviour, PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "--charge-behaviour: invalid value '%s'",
			       c.behaviour);
	pmctl_write_begin(p, &w);
	pm_charge_plan(&w, &c);
	code = pm_writer_commit(&w);
	/* What the user wants now: opp-set --reapply gives it back to a
	 * firmware that drops it. */
	if (code == PM_EXIT_OK && !p->t.dry_run &&
	    pm_supply_record_update(&p->ctx, rec, pm_charge_record(&c, rec)) <
		    0)
		pm_warn(&p->t, "the charge settings were written, but cannot "
			       "be recorded for opp-set --reapply: %s",
			pm_err_str(&p->ctx.err, err, sizeof(err)));
	return code;
}
