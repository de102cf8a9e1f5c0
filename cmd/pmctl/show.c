// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl's read-only views: idle states, CPUs, sleep, power supplies,
 * thermal zones, devfreq devices and the platform profile.  Each JSON
 * document is the matching section of `pmctl status --json`.
 */
#include <stdlib.h>
#include <string.h>

#include "pmctl.h"

/* Only "show" (or nothing) is accepted after the subcommand. */
static void only_show(struct pmctl *p, const char *cmd, int argc, char **argv)
{
	char what[32];

	if (argc > 1 || (argc == 1 && strcmp(argv[0], "show")))
		pm_usage_error(&p->t, "%s: unknown argument '%s'", cmd,
			       argc > 1 ? argv[1] : argv[0]);
	snprintf(what, sizeof(what), "pmctl %s", cmd);
	pm_tool_only(&p->t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT, what);
	pmctl_opts_only(p, 0, what);
}

static void begin(struct pmctl *p)
{
	pm_tool_out(&p->t, &p->o);
	if (p->t.fmt != PM_FMT_HUMAN)
		pm_out_obj_begin(&p->o, NULL);
}

static int end(struct pmctl *p)
{
	if (p->t.fmt != PM_FMT_HUMAN)
		pm_out_obj_end(&p->o);
	pm_tool_out_done(&p->t, &p->o);
	return PM_EXIT_OK;
}

void pmctl_view_args(struct pmctl *p, const char *cmd, int argc, char **argv)
{
	only_show(p, cmd, argc, argv);
}

void pmctl_view_begin(struct pmctl *p)
{
	begin(p);
}

int pmctl_view_end(struct pmctl *p)
{
	return end(p);
}

static void read_cpus(struct pmctl *p)
{
	if (pm_cpus_read(&p->ctx, &p->cpus) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no CPUs under /sys/devices/system/cpu");
}

/* One group's table: DISABLED counts the group's CPUs that have the
 * state disabled, of those whose disable file could be read ("-" when
 * the kernel has none: before Linux 3.x, or a dump without them). */
static void human_idle_group(struct pmctl *p, const struct pm_idle_group *g)
{
	pm_out_printf(&p->o, "%3s %-15s %8s %8s %9s  %s\n", "IDX", "STATE",
		      "LAT(us)", "RES(us)", "DISABLED", "DESCRIPTION");
	for (int i = 0; i < g->n; i++) {
		const struct pm_idle_state *st = &g->st[i];
		char lat[24] = "-", res[24] = "-", d[24] = "-";

		if (st->latency_us != PM_UNKNOWN)
			snprintf(lat, sizeof(lat), "%llu",
				 (unsigned long long)st->latency_us);
		if (st->residency_us != PM_UNKNOWN)
			snprintf(res, sizeof(res), "%llu",
				 (unsigned long long)st->residency_us);
		if (g->known[i])
			snprintf(d, sizeof(d), "%u/%u", g->disabled[i],
				 g->known[i]);
		pm_out_printf(&p->o, "%3u %-15s %8s %8s %9s  %s\n",
			      st->index, st->name, lat, res, d, st->desc);
	}
	if (g->cut)
		pm_out_printf(&p->o, "(more than %d states: the first %d "
				     "are shown)\n",
			      PM_IDLE_STATES_LIMIT, PM_IDLE_STATES_LIMIT);
}

int cmd_idle(struct pmctl *p, int argc, char **argv)
{
	struct pm_idle_group *g;
	struct pm_cpuidle ci;
	int n;

	if (argc >= 1 && (!strcmp(argv[0], "disable") ||
			  !strcmp(argv[0], "enable") ||
			  !strcmp(argv[0], "limit") ||
			  !strcmp(argv[0], "governor")))
		return pmctl_idle_set(p, argc, argv);
	only_show(p, "idle", argc, argv);
	read_cpus(p);
	if (pm_cpuidle_read(&p->ctx, &ci) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no cpuidle on this machine "
		       "(/sys/devices/system/cpu/cpuidle is missing)");
	begin(p);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pmctl_cpuidle_json(p);
		return end(p);
	}
	pm_out_printf(&p->o, "cpuidle: driver %s, governor %s",
		      ci.driver[0] ? ci.driver : "?",
		      ci.governor[0] ? ci.governor : "?");
	if (ci.available_governors[0])
		pm_out_printf(&p->o, " (available: %s)", ci.available_governors);
	pm_out_printf(&p->o, "\n");
	/* CPUs with other states (a phone's clusters): a table each. */
	n = pm_idle_groups_read(&p->ctx, &p->cpus.online, &g);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n)
		pm_out_printf(&p->o, "no idle states\n");
	for (int i = 0; i < n; i++) {
		char cpus[256];

		if (n > 1) {
			pm_cpulist_format(&g[i].cpus, cpus, sizeof(cpus));
			/* Strings are printed in their text form: the
			 * blank line between tables is the format's. */
			if (i)
				pm_out_printf(&p->o, "\n");
			pm_out_printf(&p->o, "cpu%s%s:\n",
				      pm_cpuset_count(&g[i].cpus) > 1 ? "s " :
									"",
				      cpus);
		}
		human_idle_group(p, &g[i]);
	}
	pm_idle_groups_free(g, n);
	return end(p);
}

int cmd_cpu(struct pmctl *p, int argc, char **argv)
{
	char buf[1024];
	struct pm_cpuset fixed;

	if (argc >= 1 && (!strcmp(argv[0], "online") ||
			  !strcmp(argv[0], "offline")))
		return pmctl_cpu_set(p, argc, argv);
	only_show(p, "cpu", argc, argv);
	read_cpus(p);
	begin(p);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pmctl_cpus_json(p);
		return end(p);
	}
	pm_cpulist_format(&p->cpus.present, buf, sizeof(buf));
	pm_out_printf(&p->o, "present   %s\n", buf[0] ? buf : "none");
	pm_cpulist_format(&p->cpus.possible, buf, sizeof(buf));
	pm_out_printf(&p->o, "possible  %s\n", buf[0] ? buf : "none");
	pm_cpulist_format(&p->cpus.online, buf, sizeof(buf));
	pm_out_printf(&p->o, "online    %s\n", buf[0] ? buf : "none");
	pm_cpulist_format(&p->cpus.offline, buf, sizeof(buf));
	pm_out_printf(&p->o, "offline   %s\n", buf[0] ? buf : "none");
	pm_out_printf(&p->o, "SMT       %s%s\n",
		      p->cpus.smt_control[0] ? p->cpus.smt_control :
					       "not available",
		      p->cpus.smt_active == 1 ? " (active)" :
		      p->cpus.smt_active == 0 ? " (inactive)" :
						"");
	/* CPUs without an online file cannot be hot-plugged. */
	pm_cpuset_zero(&fixed);
	pm_cpuset_foreach(c, &p->cpus.present)
		if (!pm_cpu_hotpluggable(&p->ctx, (unsigned)c))
			pm_cpuset_set(&fixed, (unsigned)c);
	pm_cpulist_format(&fixed, buf, sizeof(buf));
	pm_out_printf(&p->o, "fixed     %s (no online file: not "
			     "hot-pluggable)\n",
		      buf[0] ? buf : "none");
	return end(p);
}

static void human_choices(struct pmctl *p, const char *label, const char *v)
{
	if (v[0])
		pm_out_printf(&p->o, "%-11s %s\n", label, v);
}

int cmd_sleep(struct pmctl *p, int argc, char **argv)
{
	struct pm_sleep s;

	only_show(p, "sleep", argc, argv);
	if (pm_sleep_read(&p->ctx, &s) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no /sys/power: the kernel has no system sleep support");
	begin(p);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pmctl_sleep_json(&p->o, &s);
		return end(p);
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
	return end(p);
}

int cmd_supply(struct pmctl *p, int argc, char **argv)
{
	struct pm_supply *v;
	int n;

	if (argc >= 1 && !strcmp(argv[0], "set"))
		return pmctl_supply_set(p, argc - 1, argv + 1);
	only_show(p, "supply", argc, argv);
	n = pm_supplies_read(&p->ctx, &v);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n) {
		free(v);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no power supplies (/sys/class/power_supply is empty "
		       "or missing)");
	}
	begin(p);
	if (p->t.fmt != PM_FMT_HUMAN)
		pmctl_supply_json(&p->o, v, n);
	else
		pmctl_human_supplies(p, v, n);
	free(v);
	return end(p);
}

int cmd_thermal(struct pmctl *p, int argc, char **argv)
{
	struct pm_tzone *v;
	int n;

	only_show(p, "thermal", argc, argv);
	n = pm_tzones_read(&p->ctx, &v);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n) {
		free(v);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no thermal zones (/sys/class/thermal has none)");
	}
	begin(p);
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
	return end(p);
}

int cmd_devfreq(struct pmctl *p, int argc, char **argv)
{
	struct pm_devfreq *v;
	int n;

	if (argc >= 1 && !strcmp(argv[0], "set"))
		return pmctl_devfreq_set(p, argc - 1, argv + 1);
	only_show(p, "devfreq", argc, argv);
	n = pm_devfreqs_read(&p->ctx, &v);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n) {
		free(v);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no devfreq devices (/sys/class/devfreq is empty or "
		       "missing)");
	}
	begin(p);
	if (p->t.fmt != PM_FMT_HUMAN)
		pmctl_devfreq_json(&p->o, v, n);
	else
		pmctl_human_devfreq(p, v, n);
	free(v);
	return end(p);
}

int cmd_profile(struct pmctl *p, int argc, char **argv)
{
	struct pm_profile prof;

	if (argc == 1 && strcmp(argv[0], "show")) {
		pmctl_opts_only(p, 0, "pmctl profile");
		return pmctl_profile_set(p, argv[0]);
	}
	only_show(p, "profile", argc, argv);
	if (pm_profile_read(&p->ctx, &prof) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no platform profile "
		       "(/sys/firmware/acpi/platform_profile is missing)");
	begin(p);
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
	return end(p);
}
