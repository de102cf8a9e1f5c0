// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl freq: the cpufreq policies as the kernel reports them.
 */
#include <stdlib.h>
#include <string.h>

#include "pmctl.h"

int pmctl_policies(struct pmctl *p, struct pm_policy **out)
{
	/* All a report shows: not the setspeed or time_in_state. */
	return pmctl_policies_fields(p, PM_POL_ALL & ~(PM_POL_SPEED |
						       PM_POL_TIS), out);
}

int pmctl_policies_fields(struct pmctl *p, unsigned fields,
			  struct pm_policy **out)
{
	int n = pm_policies_read(&p->ctx, fields, out);

	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	return n;
}

static void freqs_json(struct pm_out *o, const char *key, const uint64_t *f,
		       int n)
{
	if (n < 0) {
		pm_out_null(o, key);
		return;
	}
	pm_out_arr_begin(o, key, NULL);
	for (int i = 0; i < n; i++)
		pm_out_u64(o, NULL, f[i]);
	pm_out_arr_end(o);
}

static void str_or_null(struct pm_out *o, const char *key, const char *v)
{
	if (v[0])
		pm_out_str(o, key, v);
	else
		pm_out_null(o, key);
}

void pmctl_policy_json(struct pm_out *o, const struct pm_policy *p)
{
	pm_out_elem_begin(o, p->id);
	pm_out_u64(o, "policy", p->id);
	pm_out_cpuset(o, "cpus", &p->related);
	pm_out_cpuset(o, "affected_cpus", &p->affected);
	str_or_null(o, "driver", p->driver);
	str_or_null(o, "governor", p->governor);
	pm_out_u64_or_null(o, "min_khz", p->min_khz);
	pm_out_u64_or_null(o, "max_khz", p->max_khz);
	pm_out_u64_or_null(o, "cpuinfo_min_khz", p->cpuinfo_min_khz);
	pm_out_u64_or_null(o, "cpuinfo_max_khz", p->cpuinfo_max_khz);
	pm_out_u64_or_null(o, "cur_khz", p->cur_khz);
	pm_out_u64_or_null(o, "cpuinfo_cur_khz", p->cpuinfo_cur_khz);
	pm_out_u64_or_null(o, "transition_latency_ns",
			   p->transition_latency_ns);
	pm_out_u64_or_null(o, "bios_limit_khz", p->bios_limit_khz);
	pm_out_u64_or_null(o, "base_khz", p->base_khz);
	pm_out_words_or_null(o, "available_governors", p->available_governors);
	freqs_json(o, "available_khz", p->avail_khz, p->n_avail);
	freqs_json(o, "boost_khz", p->boost_khz, p->n_boost ? p->n_boost : -1);
	str_or_null(o, "epp", p->epp);
	if (p->epp_available[0])
		pm_out_words(o, "epp_available", p->epp_available);
	else
		pm_out_null(o, "epp_available");
	pm_out_flag(o, "boost", p->boost);
	pm_out_bool(o, "stats", p->has_stats);
	pm_out_u64_or_null(o, "total_trans", p->total_trans);
	pm_out_obj_end(o);
}

static int print_len(struct pm_out *o, const char *s)
{
	pm_out_printf(o, "%s", s);
	return (int)strlen(s);
}

static void human_policy(struct pm_out *o, const struct pm_policy *p)
{
	char cpus[256], aff[256], a[32], b[32];

	pm_cpulist_format(&p->related, cpus, sizeof(cpus));
	pm_cpulist_format(&p->affected, aff, sizeof(aff));
	pm_out_printf(o, "policy%u: cpus %s", p->id, cpus);
	if (!pm_cpuset_equal(&p->related, &p->affected))
		pm_out_printf(o, " (online %s)", aff[0] ? aff : "none");
	pm_out_printf(o, "\n  driver %s, governor %s\n",
		      p->driver[0] ? p->driver : "-",
		      p->governor[0] ? p->governor : "-");
	pm_out_printf(o, "  limits %s - %s", pm_fmt_khz(p->min_khz, a, 32),
		      pm_fmt_khz(p->max_khz, b, 32));
	pm_out_printf(o, " (hardware %s", pm_fmt_khz(p->cpuinfo_min_khz, a, 32));
	pm_out_printf(o, " - %s)", pm_fmt_khz(p->cpuinfo_max_khz, b, 32));
	pm_out_printf(o, ", current %s\n", pm_fmt_khz(p->cur_khz, a, 32));
	if (p->available_governors[0])
		pm_out_printf(o, "  governors: %s\n", p->available_governors);
	if (p->n_avail > 0) {
		/* Wrapped to stay readable at 80 columns. */
		int col = print_len(o, "  frequencies:");

		for (int i = 0; i < p->n_avail; i++) {
			char w[40];
			int l = snprintf(w, sizeof(w), " %s%s",
					 pm_fmt_khz(p->avail_khz[i], a, 32),
					 i + 1 < p->n_avail ? "," : "");

			if (col + l > 78) {
				pm_out_printf(o, "\n              ");
				col = 14;
			}
			pm_out_printf(o, "%s", w);
			col += l;
		}
		pm_out_printf(o, "\n");
	}
	if (p->epp[0])
		pm_out_printf(o, "  EPP %s (available: %s)\n", p->epp,
			      p->epp_available[0] ? p->epp_available : "-");
	if (p->boost >= 0)
		pm_out_printf(o, "  boost %s\n", p->boost ? "on" : "off");
	if (p->bios_limit_khz != PM_UNKNOWN)
		pm_out_printf(o, "  firmware limit %s\n",
			      pm_fmt_khz(p->bios_limit_khz, a, 32));
}

int cmd_freq(struct pmctl *p, int argc, char **argv)
{
	struct pm_policy *pol;
	struct pm_cpuset sel;
	int n;

	if (argc >= 1 && !strcmp(argv[0], "set"))
		return pmctl_freq_set(p, argc - 1, argv + 1);
	if (argc > 1 || (argc == 1 && strcmp(argv[0], "show")))
		pm_usage_error(&p->t, "freq: unknown argument '%s'",
			       argc > 1 ? argv[1] : argv[0]);
	pm_tool_only(&p->t, PM_SEEN_CPU | PM_SEEN_OUTPUT | PM_SEEN_FORMAT,
		     "pmctl freq");
	pmctl_opts_only(p, 0, "pmctl freq");
	if (pm_cpus_read(&p->ctx, &p->cpus) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED, "cannot read the CPUs");
	/* Reading defaults to the online CPUs (CLI.md). */
	if (pm_cpus_select(&p->ctx, &p->cpus, p->t.cpu ? p->t.cpu : "online",
			   &sel) < 0)
		pm_usage_error(&p->t, "--cpu '%s': %s", p->t.cpu,
			       p->ctx.err.hint);
	n = pmctl_policies(p, &pol);
	if (n == 0) {
		free(pol);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no cpufreq policies on this machine "
		       "(/sys/devices/system/cpu/cpufreq is empty or missing)");
	}
	pm_tool_out(&p->t, &p->o);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pm_out_obj_begin(&p->o, NULL);
		pm_out_arr_begin(&p->o, "policies", "policy");
	}
	for (int i = 0; i < n; i++) {
		if (!pm_cpuset_intersects(&pol[i].related, &sel))
			continue;
		if (p->t.fmt == PM_FMT_HUMAN)
			human_policy(&p->o, &pol[i]);
		else
			pmctl_policy_json(&p->o, &pol[i]);
	}
	if (p->t.fmt != PM_FMT_HUMAN) {
		pm_out_arr_end(&p->o);
		pm_out_obj_end(&p->o);
	}
	pm_tool_out_done(&p->t, &p->o);
	free(pol);
	return PM_EXIT_OK;
}
