// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl idle: the idle states per CPU group and the cpuidle governor
 * (show), and disable|enable|limit and governor (set), through the idle
 * states planner (lib/idleplan.c).  The latency argument of pmctl latency
 * too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

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
	pmctl_view_args(p, "idle", argc, argv);
	pmctl_read_cpus(p);
	if (pm_cpuidle_read(&p->ctx, &ci) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no cpuidle on this machine "
		       "(/sys/devices/system/cpu/cpuidle is missing)");
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pmctl_cpuidle_json(p);
		return pmctl_view_end(p);
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
	return pmctl_view_end(p);
}

/* The kernel's PM QoS ceiling for a latency (PM_QOS_CPU_LATENCY_DEFAULT). */
#define LATENCY_MAX_US 2000000000ULL

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

/* The selected online CPUs; offline ones noted. */
static void idle_cpus(struct pmctl *p, struct pm_cpuset *sel)
{
	struct pm_cpuset off;
	char list[256];

	pmctl_read_cpus(p);
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
	if (!pmctl_word_ok(argv[0], PM_NAME_MAX - 1))
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
		if (!pmctl_word_ok(argv[a], PM_NAME_MAX - 1) ||
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
