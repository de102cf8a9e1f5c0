// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl status: one screen of power management.  Every section says
 * "not available" when the kernel does not offer it.
 */
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pmctl.h"

#define NA "not available"

static bool same_settings(const struct pm_policy *a, const struct pm_policy *b)
{
	return !strcmp(a->driver, b->driver) &&
	       !strcmp(a->governor, b->governor) && a->min_khz == b->min_khz &&
	       a->max_khz == b->max_khz &&
	       a->cpuinfo_min_khz == b->cpuinfo_min_khz &&
	       a->cpuinfo_max_khz == b->cpuinfo_max_khz &&
	       !strcmp(a->epp, b->epp) && a->boost == b->boost;
}

static void human_cpufreq(struct pmctl *p, const struct pm_policy *pol, int n,
			  const struct pm_cpufreq_global *g)
{
	struct pm_out *o = &p->o;
	bool *done = calloc((size_t)n + 1, sizeof(*done));
	char a[32], b[32], c[32], d[32], cpus[512];

	if (!done)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n)
		pm_out_printf(o, "CPU frequency:  " NA "\n");
	else
		pm_out_printf(o, "CPU frequency:  %s, %d polic%s\n",
			      pol[0].driver[0] ? pol[0].driver : "?", n,
			      n == 1 ? "y" : "ies");
	/* Policies with the same settings share a line. */
	for (int i = 0; i < n; i++) {
		struct pm_cpuset set;
		int count = 0;

		if (done[i])
			continue;
		pm_cpuset_zero(&set);
		for (int j = i; j < n; j++) {
			if (done[j] || !same_settings(&pol[i], &pol[j]))
				continue;
			done[j] = true;
			pm_cpuspan_or(&set, &pol[j].related);
			count++;
		}
		pm_cpulist_format(&set, cpus, sizeof(cpus));
		pm_out_printf(o, "  cpus %-10s %-12s %s - %s (hw %s - %s)",
			      cpus, pol[i].governor,
			      pm_fmt_khz(pol[i].min_khz, a, 32),
			      pm_fmt_khz(pol[i].max_khz, b, 32),
			      pm_fmt_khz(pol[i].cpuinfo_min_khz, c, 32),
			      pm_fmt_khz(pol[i].cpuinfo_max_khz, d, 32));
		if (pol[i].epp[0])
			pm_out_printf(o, " EPP %s", pol[i].epp);
		if (pol[i].boost >= 0)
			pm_out_printf(o, " boost %s",
				      pol[i].boost ? "on" : "off");
		if (count > 1)
			pm_out_printf(o, " [%d policies]", count);
		pm_out_printf(o, "\n");
	}
	free(done);
	if (g->boost >= 0)
		pm_out_printf(o, "  boost: %s\n", g->boost ? "on" : "off");
	if (g->intel_pstate) {
		pm_out_printf(o, "  intel_pstate: %s",
			      g->intel_status[0] ? g->intel_status : "?");
		if (g->intel_no_turbo >= 0)
			pm_out_printf(o, ", turbo %s",
				      g->intel_no_turbo ? "off" : "on");
		if (g->intel_min_perf_pct >= 0 && g->intel_max_perf_pct >= 0)
			pm_out_printf(o, ", perf %d-%d%%",
				      g->intel_min_perf_pct,
				      g->intel_max_perf_pct);
		pm_out_printf(o, "\n");
	}
	if (g->amd_pstate)
		pm_out_printf(o, "  amd_pstate: %s%s%s\n",
			      g->amd_status[0] ? g->amd_status : "?",
			      g->amd_prefcore[0] ? ", prefcore " : "",
			      g->amd_prefcore);
}

static void human_cpuidle(struct pmctl *p)
{
	struct pm_out *o = &p->o;
	struct pm_cpuidle ci;
	struct pm_idle_group *g;
	struct pm_hypervisor hv;
	int n;
	bool have = pm_cpuidle_read(&p->ctx, &ci) == 0;

	/* A guest without idle states: its hypervisor has the real ones. */
	if ((!have || !strcmp(ci.driver, "none")) &&
	    pm_hypervisor_detect(&p->ctx, &hv)) {
		pm_out_printf(o, "CPU idle:       %s: the hypervisor %s%sowns "
				 "the C- and P-states (%s)\n",
			      have ? "none" : NA, hv.name, hv.name[0] ? " " : "",
			      hv.source);
		return;
	}
	if (!have) {
		pm_out_printf(o, "CPU idle:       " NA "\n");
		return;
	}
	pm_out_printf(o, "CPU idle:       %s, governor %s\n",
		      ci.driver[0] ? ci.driver : "?",
		      ci.governor[0] ? ci.governor : "?");
	n = pm_idle_groups_read(&p->ctx, &p->cpus.online, &g);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	/* A line for each set of CPUs with the same states. */
	for (int k = 0; k < n; k++) {
		char cpus[256];

		pm_cpulist_format(&g[k].cpus, cpus, sizeof(cpus));
		if (n == 1 || pm_cpuset_count(&g[k].cpus) == 1)
			pm_out_printf(o, "  states (cpu%d):",
				      pm_cpuset_next(&g[k].cpus, 0));
		else
			pm_out_printf(o, "  states (cpus %s):", cpus);
		for (int i = 0; i < g[k].n; i++) {
			const struct pm_idle_state *st = &g[k].st[i];

			pm_out_printf(o, " %s", st->name);
			if (st->latency_us != PM_UNKNOWN)
				pm_out_printf(o, "(%lluus)", (unsigned long long)
							     st->latency_us);
			if (st->disabled == 1)
				pm_out_printf(o, "[disabled]");
		}
		pm_out_printf(o, "\n");
	}
	pm_idle_groups_free(g, n);
}

static void human_cpus(struct pmctl *p)
{
	char on[512], off[512];

	pm_cpulist_format(&p->cpus.online, on, sizeof(on));
	pm_cpulist_format(&p->cpus.offline, off, sizeof(off));
	pm_out_printf(&p->o, "CPUs:           %u present, online %s, offline %s",
		      p->cpus.nr_present, on[0] ? on : "none",
		      off[0] ? off : "none");
	if (p->cpus.smt_control[0])
		pm_out_printf(&p->o, ", SMT %s", p->cpus.smt_control);
	pm_out_printf(&p->o, "\n");
}

static void human_sleep(struct pmctl *p, const struct pm_sleep *s)
{
	struct pm_out *o = &p->o;

	if (!s->have_power) {
		pm_out_printf(o, "Sleep:          " NA "\n");
		return;
	}
	pm_out_printf(o, "Sleep:          states %s",
		      s->state[0] ? s->state : "none");
	if (s->mem_sleep[0])
		pm_out_printf(o, "; mem_sleep %s", s->mem_sleep);
	pm_out_printf(o, "\n");
	if (s->disk[0])
		pm_out_printf(o, "  hibernation: %s; resume %s\n", s->disk,
			      s->resume[0] ? s->resume : "?");
}

/* Watts drawn, NAN when unknown (lib/supply.c derives the draw). */
static double supply_power_w(const struct pm_supply *s)
{
	return s->draw_uw == PM_UNKNOWN_S64 ? NAN : (double)s->draw_uw / 1e6;
}

/* A battery's wear and charge control, on a line of its own. */
static void human_charge(struct pm_out *o, const struct pm_supply *s)
{
	double hp = pm_supply_health_pct(s);
	char line[256] = "", beh[64];
	size_t n = 0;

	if (isfinite(hp))
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      ", health %.0f%%", hp);
	if (s->cycle_count != PM_UNKNOWN_S64 && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      ", %lld cycles",
				      (long long)s->cycle_count);
	if ((s->charge_start_pct != PM_UNKNOWN ||
	     s->charge_stop_pct != PM_UNKNOWN) &&
	    n < sizeof(line)) {
		char a[24] = "?", b[24] = "?";

		if (s->charge_start_pct != PM_UNKNOWN)
			snprintf(a, sizeof(a), "%llu",
				 (unsigned long long)s->charge_start_pct);
		if (s->charge_stop_pct != PM_UNKNOWN)
			snprintf(b, sizeof(b), "%llu",
				 (unsigned long long)s->charge_stop_pct);
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      ", charges from %s%% to %s%%", a, b);
	}
	pm_choice_current(s->charge_behaviour, beh, sizeof(beh));
	if (beh[0] && n < sizeof(line))
		n += (size_t)snprintf(line + n, sizeof(line) - n,
				      ", charge behaviour %s", beh);
	if (n && n < sizeof(line))
		pm_out_printf(o, "  %-10s %s\n", "", line + 2);
}

void pmctl_human_supplies(struct pmctl *p, const struct pm_supply *s, int n)
{
	struct pm_out *o = &p->o;

	if (!n) {
		pm_out_printf(o, "Power supply:   " NA "\n");
		return;
	}
	pm_out_printf(o, "Power supply:\n");
	for (int i = 0; i < n; i++) {
		double w = supply_power_w(&s[i]);

		pm_out_printf(o, "  %-10s %-8s", s[i].name, s[i].type);
		if (s[i].online >= 0 && strcmp(s[i].type, "Battery"))
			pm_out_printf(o, " %s",
				      s[i].online ? "online" : "offline");
		if (s[i].status[0])
			pm_out_printf(o, " %s", s[i].status);
		if (s[i].capacity_pct != PM_UNKNOWN)
			pm_out_printf(o, " %llu%%",
				      (unsigned long long)s[i].capacity_pct);
		if (isfinite(w))
			pm_out_printf(o, " %.1f W", w);
		if (s[i].time_left_s != PM_UNKNOWN_S64) {
			uint64_t m = ((uint64_t)s[i].time_left_s + 30) / 60;

			pm_out_printf(o, ", %llu:%02u %s",
				      (unsigned long long)(m / 60),
				      (unsigned)(m % 60),
				      strcmp(s[i].status, "Charging") ?
					      "left" :
					      "to full");
		}
		pm_out_printf(o, "\n");
		human_charge(o, &s[i]);
	}
}

void pmctl_human_thermal(struct pmctl *p, const struct pm_tzone *z, int n)
{
	struct pm_out *o = &p->o;

	if (!n) {
		pm_out_printf(o, "Thermal:        " NA "\n");
		return;
	}
	pm_out_printf(o, "Thermal:");
	for (int i = 0; i < n; i++) {
		if (z[i].temp_mc == PM_UNKNOWN_S64)
			pm_out_printf(o, "%s%s ?", i ? ", " : "        ",
				      z[i].type);
		else
			pm_out_printf(o, "%s%s %.1f°C", i ? ", " : "        ",
				      z[i].type, (double)z[i].temp_mc / 1000.0);
	}
	pm_out_printf(o, "\n");
}

/* A devfreq frequency (Hz), "?" when unknown. */
static const char *fmt_dev_hz(uint64_t hz, char *buf, size_t size)
{
	if (hz == PM_UNKNOWN)
		return pm_fmt_khz(hz, buf, size);
	return pm_fmt_hz(hz, buf, size);
}

void pmctl_human_devfreq(struct pmctl *p, const struct pm_devfreq *d, int n)
{
	struct pm_out *o = &p->o;
	char a[32], b[32], c[32];

	if (!n) {
		pm_out_printf(o, "Devfreq:        " NA "\n");
		return;
	}
	pm_out_printf(o, "Devfreq:\n");
	for (int i = 0; i < n; i++) {
		uint64_t cur = d[i].cur_hz, mn = d[i].min_hz, mx = d[i].max_hz;

		pm_out_printf(o, "  %-16s %-16s %s (%s - %s)\n", d[i].name,
			      d[i].governor, fmt_dev_hz(cur, a, sizeof(a)),
			      fmt_dev_hz(mn, b, sizeof(b)),
			      fmt_dev_hz(mx, c, sizeof(c)));
	}
}

/* ---------------------------------------------------------------- json */

static void opt_int(struct pm_out *o, const char *key, int v)
{
	if (v < 0)
		pm_out_null(o, key);
	else
		pm_out_u64(o, key, (uint64_t)v);
}

static void opt_str(struct pm_out *o, const char *key, const char *v)
{
	if (v[0])
		pm_out_str(o, key, v);
	else
		pm_out_null(o, key);
}

static void opt_s64(struct pm_out *o, const char *key, int64_t v)
{
	if (v == PM_UNKNOWN_S64)
		pm_out_null(o, key);
	else
		pm_out_s64(o, key, v);
}

static void choices_json(struct pm_out *o, const char *key, const char *list)
{
	char buf[256], cur[64];

	if (!list[0]) {
		pm_out_null(o, key);
		return;
	}
	pm_out_obj_begin(o, key);
	snprintf(buf, sizeof(buf), "%s", list);
	/* The brackets mark the current choice; the list is the names. */
	for (char *q = buf; *q; q++)
		if (*q == '[' || *q == ']')
			*q = ' ';
	pm_out_words(o, "available", buf);
	pm_choice_current(list, cur, sizeof(cur));
	opt_str(o, "current", cur);
	pm_out_obj_end(o);
}

void pmctl_cpufreq_json(struct pm_ctx *ctx, struct pm_out *o,
			const struct pm_policy *pol, int npol,
			const struct pm_cpufreq_global *g)
{
	pm_out_obj_begin(o, "cpufreq");
	pm_out_arr_begin(o, "policies", "policy");
	for (int i = 0; i < npol; i++)
		pmctl_policy_json(ctx, o, &pol[i]);
	pm_out_arr_end(o);
	pm_out_flag(o, "boost", g->boost);
	/* Kernels before 3.19 have the folder without status. */
	if (g->intel_pstate) {
		pm_out_obj_begin(o, "intel_pstate");
		opt_str(o, "status", g->intel_status);
		pm_out_flag(o, "no_turbo", g->intel_no_turbo);
		opt_int(o, "min_perf_pct", g->intel_min_perf_pct);
		opt_int(o, "max_perf_pct", g->intel_max_perf_pct);
		opt_int(o, "num_pstates", g->intel_num_pstates);
		opt_int(o, "turbo_pct", g->intel_turbo_pct);
		opt_int(o, "hwp_dynamic_boost", g->intel_hwp_dynamic_boost);
		pm_out_obj_end(o);
	} else {
		pm_out_null(o, "intel_pstate");
	}
	if (g->amd_pstate) {
		pm_out_obj_begin(o, "amd_pstate");
		opt_str(o, "status", g->amd_status);
		opt_str(o, "prefcore", g->amd_prefcore);
		pm_out_obj_end(o);
	} else {
		pm_out_null(o, "amd_pstate");
	}
	pm_out_obj_end(o);
}

static void idle_states_json(struct pm_out *o, const struct pm_idle_group *g)
{
	pm_out_arr_begin(o, "states", "state");
	for (int i = 0; i < g->n; i++) {
		const struct pm_idle_state *st = &g->st[i];

		pm_out_elem_begin(o, st->index);
		pm_out_u64(o, "index", st->index);
		pm_out_str_or_null(o, "name", st->name);
		pm_out_u64_or_null(o, "latency_us", st->latency_us);
		pm_out_u64_or_null(o, "residency_us", st->residency_us);
		/* Counted over the group's CPUs; null without a file. */
		if (g->known[i])
			pm_out_u64(o, "disabled_cpus", g->disabled[i]);
		else
			pm_out_null(o, "disabled_cpus");
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

void pmctl_cpuidle_json(struct pmctl *p)
{
	struct pm_out *o = &p->o;
	struct pm_idle_group *g;
	struct pm_cpuidle ci;
	int n;

	if (pm_cpuidle_read(&p->ctx, &ci) < 0) {
		pm_out_null(o, "cpuidle");
		return;
	}
	n = pm_idle_groups_read(&p->ctx, &p->cpus.online, &g);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	pm_out_obj_begin(o, "cpuidle");
	opt_str(o, "driver", ci.driver);
	opt_str(o, "governor", ci.governor);
	pm_out_words_or_null(o, "available_governors",
			     ci.available_governors);
	/* "states": the first online CPU's group, as before there were
	 * groups; "groups": every set of CPUs with the same states. */
	if (n)
		idle_states_json(o, &g[0]);
	else
		idle_states_json(o, &(struct pm_idle_group){ .n = 0 });
	pm_out_arr_begin(o, "groups", "group");
	for (int k = 0; k < n; k++) {
		pm_out_elem_begin(o, (uint64_t)k);
		pm_out_cpuset(o, "cpus", &g[k].cpus);
		idle_states_json(o, &g[k]);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	pm_out_obj_end(o);
	pm_idle_groups_free(g, n);
}

void pmctl_cpus_json(struct pmctl *p)
{
	struct pm_out *o = &p->o;

	pm_out_obj_begin(o, "cpus");
	pm_out_cpuset(o, "present", &p->cpus.present);
	pm_out_cpuset(o, "possible", &p->cpus.possible);
	pm_out_cpuset(o, "online", &p->cpus.online);
	pm_out_cpuset(o, "offline", &p->cpus.offline);
	opt_str(o, "smt_control", p->cpus.smt_control);
	pm_out_flag(o, "smt_active", p->cpus.smt_active);
	pm_out_obj_end(o);
}

void pmctl_sleep_json(struct pm_out *o, const struct pm_sleep *s)
{
	if (s->have_power) {
		pm_out_obj_begin(o, "sleep");
		pm_out_words(o, "states", s->state);
		choices_json(o, "mem_sleep", s->mem_sleep);
		choices_json(o, "disk", s->disk);
		choices_json(o, "pm_test", s->pm_test);
		opt_str(o, "resume", s->resume);
		pm_out_u64_or_null(o, "resume_offset", s->resume_offset);
		pm_out_u64_or_null(o, "image_size", s->image_size);
		pm_out_u64_or_null(o, "suspend_success", s->success);
		pm_out_u64_or_null(o, "suspend_fail", s->fail);
		opt_str(o, "last_failed_dev", s->last_failed_dev);
		opt_s64(o, "last_failed_errno", s->last_failed_errno);
		opt_str(o, "last_failed_step", s->last_failed_step);
		pm_out_obj_end(o);
	} else {
		pm_out_null(o, "sleep");
	}
}

void pmctl_profile_json(struct pmctl *p)
{
	struct pm_out *o = &p->o;
	struct pm_profile prof;

	if (pm_profile_read(&p->ctx, &prof) == 0) {
		pm_out_obj_begin(o, "platform_profile");
		pm_out_str_or_null(o, "current", prof.current);
		pm_out_words_or_null(o, "choices", prof.choices);
		if (prof.n_handlers < 0) {
			pm_out_null(o, "handlers");
		} else {
			pm_out_arr_begin(o, "handlers", "handler");
			for (int i = 0; i < prof.n_handlers; i++) {
				const struct pm_profile_handler *h = &prof.h[i];

				pm_out_obj_begin(o, NULL);
				pm_out_str(o, "handler", h->id);
				pm_out_str_or_null(o, "name", h->name);
				pm_out_str_or_null(o, "profile", h->profile);
				pm_out_words_or_null(o, "choices", h->choices);
				pm_out_obj_end(o);
			}
			pm_out_arr_end(o);
		}
		pm_out_obj_end(o);
	} else {
		pm_out_null(o, "platform_profile");
	}
}

void pmctl_supply_json(struct pm_out *o, const struct pm_supply *sup,
		       int nsup)
{
	pm_out_arr_begin(o, "power_supply", "supply");
	for (int i = 0; i < nsup; i++) {
		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "name", sup[i].name);
		opt_str(o, "type", sup[i].type);
		opt_str(o, "status", sup[i].status);
		pm_out_flag(o, "online", sup[i].online);
		pm_out_u64_or_null(o, "capacity_pct", sup[i].capacity_pct);
		opt_s64(o, "power_uw", sup[i].power_uw);
		opt_s64(o, "energy_now_uwh", sup[i].energy_now_uwh);
		opt_s64(o, "energy_full_uwh", sup[i].energy_full_uwh);
		opt_s64(o, "charge_now_uah", sup[i].charge_now_uah);
		opt_s64(o, "charge_full_uah", sup[i].charge_full_uah);
		opt_s64(o, "current_ua", sup[i].current_ua);
		opt_s64(o, "voltage_uv", sup[i].voltage_uv);
		pm_out_double(o, "power_w", supply_power_w(&sup[i]), 3);
		opt_s64(o, "time_left_s", sup[i].time_left_s);
		pm_out_u64_or_null(o, "charge_start_pct",
				   sup[i].charge_start_pct);
		pm_out_u64_or_null(o, "charge_stop_pct",
				   sup[i].charge_stop_pct);
		choices_json(o, "charge_behaviour", sup[i].charge_behaviour);
		opt_s64(o, "energy_full_design_uwh",
			sup[i].energy_full_design_uwh);
		opt_s64(o, "charge_full_design_uah",
			sup[i].charge_full_design_uah);
		pm_out_double(o, "health_pct",
			      pm_supply_health_pct(&sup[i]), 1);
		opt_s64(o, "cycle_count", sup[i].cycle_count);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

void pmctl_thermal_json(struct pm_out *o, const struct pm_tzone *tz, int ntz)
{
	pm_out_arr_begin(o, "thermal", "zone");
	for (int i = 0; i < ntz; i++) {
		pm_out_elem_begin(o, tz[i].id);
		pm_out_u64(o, "zone", tz[i].id);
		opt_str(o, "type", tz[i].type);
		opt_s64(o, "temp_mc", tz[i].temp_mc);
		opt_str(o, "policy", tz[i].policy);
		opt_str(o, "mode", tz[i].mode);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

void pmctl_devfreq_json(struct pm_out *o, const struct pm_devfreq *df,
			int ndf)
{
	pm_out_arr_begin(o, "devfreq", "devfreq");
	for (int i = 0; i < ndf; i++) {
		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "name", df[i].name);
		opt_str(o, "governor", df[i].governor);
		pm_out_u64_or_null(o, "cur_hz", df[i].cur_hz);
		pm_out_u64_or_null(o, "min_hz", df[i].min_hz);
		pm_out_u64_or_null(o, "max_hz", df[i].max_hz);
		pm_out_words_or_null(o, "available_governors",
				     df[i].available_governors);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

static void json_all(struct pmctl *p, const struct pm_policy *pol, int npol,
		     const struct pm_cpufreq_global *g, const struct pm_sleep *s,
		     const struct pm_supply *sup, int nsup,
		     const struct pm_tzone *tz, int ntz,
		     const struct pm_devfreq *df, int ndf)
{
	struct pm_out *o = &p->o;

	struct pm_hypervisor hv;

	pm_out_obj_begin(o, NULL);
	pmctl_cpufreq_json(&p->ctx, o, pol, npol, g);
	pmctl_cpuidle_json(p);
	if (pm_hypervisor_detect(&p->ctx, &hv)) {
		pm_out_obj_begin(o, "hypervisor");
		pm_out_str_or_null(o, "name", hv.name);
		pm_out_str(o, "source", hv.source);
		pm_out_obj_end(o);
	} else {
		pm_out_null(o, "hypervisor");
	}
	pmctl_cpus_json(p);
	pmctl_sleep_json(o, s);
	pmctl_profile_json(p);
	pmctl_supply_json(o, sup, nsup);
	pmctl_thermal_json(o, tz, ntz);
	pmctl_devfreq_json(o, df, ndf);
	pm_out_obj_end(o);
}

/*
 * The Prometheus exposition (node_exporter's textfile collector): what a
 * fleet graphs, in base units; a value the kernel does not give has no
 * sample.
 */
static void prom_gauge(struct pm_out *o, const char *name, const char *help)
{
	pm_out_prom_meta(o, name, "gauge", help);
}

static void prom_cpufreq(struct pmctl *p, const struct pm_policy *pol, int npol)
{
	static const struct {
		const char *name, *help;
		size_t off;
	} freqs[] = {
		{ "pm_cpufreq_frequency_hertz",
		  "Current frequency of the policy (scaling_cur_freq).",
		  offsetof(struct pm_policy, cur_khz) },
		{ "pm_cpufreq_min_hertz", "Lower limit of the policy.",
		  offsetof(struct pm_policy, min_khz) },
		{ "pm_cpufreq_max_hertz", "Upper limit of the policy.",
		  offsetof(struct pm_policy, max_khz) },
		{ "pm_cpufreq_hardware_min_hertz",
		  "Lowest frequency of the hardware (cpuinfo_min_freq).",
		  offsetof(struct pm_policy, cpuinfo_min_khz) },
		{ "pm_cpufreq_hardware_max_hertz",
		  "Highest frequency of the hardware (cpuinfo_max_freq).",
		  offsetof(struct pm_policy, cpuinfo_max_khz) },
	};
	struct pm_out *o = &p->o;
	char id[32];

	prom_gauge(o, "pm_cpufreq_policy_info",
		   "A cpufreq policy: driver, governor and EPP, value 1.");
	for (int i = 0; i < npol; i++) {
		snprintf(id, sizeof(id), "%u", pol[i].id);
		const char *l[] = { "policy", id,
				    "driver", pol[i].driver,
				    "governor", pol[i].governor,
				    "epp", pol[i].epp, NULL };

		pm_out_prom_sample(o, "pm_cpufreq_policy_info", l, 1);
	}
	for (size_t k = 0; k < sizeof(freqs) / sizeof(freqs[0]); k++) {
		prom_gauge(o, freqs[k].name, freqs[k].help);
		for (int i = 0; i < npol; i++) {
			uint64_t v;

			memcpy(&v, (const char *)&pol[i] + freqs[k].off,
			       sizeof(v));
			if (v == PM_UNKNOWN)
				continue;
			snprintf(id, sizeof(id), "%u", pol[i].id);
			const char *l[] = { "policy", id, NULL };

			pm_out_prom_sample(o, freqs[k].name, l,
					   (double)v * 1000.0);
		}
	}
}

static void prom_cpus_sleep(struct pmctl *p, const struct pm_sleep *s)
{
	struct pm_out *o = &p->o;

	prom_gauge(o, "pm_cpus_online", "CPUs online.");
	pm_out_prom_sample(o, "pm_cpus_online", NULL,
			   pm_cpuset_count(&p->cpus.online));
	prom_gauge(o, "pm_cpus_present", "CPUs present.");
	pm_out_prom_sample(o, "pm_cpus_present", NULL,
			   pm_cpuset_count(&p->cpus.present));
	if (s->success != PM_UNKNOWN) {
		pm_out_prom_meta(o, "pm_suspend_success_total", "counter",
				 "System sleeps that succeeded since boot.");
		pm_out_prom_sample_u64(o, "pm_suspend_success_total", NULL,
				       s->success);
	}
	if (s->fail != PM_UNKNOWN) {
		pm_out_prom_meta(o, "pm_suspend_fail_total", "counter",
				 "System sleeps that failed since boot.");
		pm_out_prom_sample_u64(o, "pm_suspend_fail_total", NULL,
				       s->fail);
	}
}

/* A supply's value in the metric's unit, NAN where the kernel gives none. */
static double sup_online(const struct pm_supply *s)
{
	return s->online >= 0 ? (double)s->online : NAN;
}

static double sup_capacity(const struct pm_supply *s)
{
	return s->capacity_pct != PM_UNKNOWN ? (double)s->capacity_pct / 100 :
					       NAN;
}

static double sup_power(const struct pm_supply *s)
{
	return s->draw_uw != PM_UNKNOWN_S64 ? (double)s->draw_uw / 1e6 : NAN;
}

/* One division of exact integers: 119901.6, not ...5999. */
static double sup_energy(const struct pm_supply *s)
{
	return s->energy_now_uwh != PM_UNKNOWN_S64 ?
		       (double)s->energy_now_uwh * 3600 / 1e6 :
		       NAN;
}

static double sup_time_left(const struct pm_supply *s)
{
	return s->time_left_s != PM_UNKNOWN_S64 ? (double)s->time_left_s : NAN;
}

static double sup_health(const struct pm_supply *s)
{
	return pm_supply_health_pct(s) / 100;
}

static double sup_cycles(const struct pm_supply *s)
{
	return s->cycle_count != PM_UNKNOWN_S64 ? (double)s->cycle_count : NAN;
}

static double sup_start(const struct pm_supply *s)
{
	return s->charge_start_pct != PM_UNKNOWN ?
		       (double)s->charge_start_pct / 100 :
		       NAN;
}

static double sup_stop(const struct pm_supply *s)
{
	return s->charge_stop_pct != PM_UNKNOWN ?
		       (double)s->charge_stop_pct / 100 :
		       NAN;
}

static void prom_supply(struct pmctl *p, const struct pm_supply *sup, int nsup)
{
	static const struct {
		const char *name, *help;
		double (*get)(const struct pm_supply *s);
	} m[] = {
		{ "pm_power_supply_online",
		  "1 when the supply (an AC adapter) is online.", sup_online },
		{ "pm_power_supply_capacity_ratio", "Battery capacity, 0 to 1.",
		  sup_capacity },
		{ "pm_power_supply_power_watts",
		  "Power drawn from or into the battery (power_now, else "
		  "current_now x voltage_now).",
		  sup_power },
		{ "pm_power_supply_energy_joules",
		  "Energy left in the battery (energy_now).", sup_energy },
		{ "pm_power_supply_time_left_seconds",
		  "Time to empty when discharging, to full when charging.",
		  sup_time_left },
		{ "pm_power_supply_health_ratio",
		  "Full charge now against the design's (energy_full / "
		  "energy_full_design).",
		  sup_health },
		{ "pm_power_supply_charge_cycles",
		  "Charge cycles the battery counts (cycle_count).",
		  sup_cycles },
		{ "pm_power_supply_charge_start_threshold_ratio",
		  "Charging starts below this charge, 0 to 1.", sup_start },
		{ "pm_power_supply_charge_stop_threshold_ratio",
		  "Charging stops at this charge, 0 to 1.", sup_stop },
	};
	struct pm_out *o = &p->o;

	prom_gauge(o, "pm_power_supply_info",
		   "A power supply: type, status and model, value 1.");
	for (int i = 0; i < nsup; i++) {
		const char *l[] = { "supply", sup[i].name,
				    "type", sup[i].type,
				    "status", sup[i].status,
				    "model", sup[i].model, NULL };

		pm_out_prom_sample(o, "pm_power_supply_info", l, 1);
	}
	for (size_t k = 0; k < sizeof(m) / sizeof(m[0]); k++) {
		prom_gauge(o, m[k].name, m[k].help);
		for (int i = 0; i < nsup; i++) {
			const char *l[] = { "supply", sup[i].name, NULL };
			double v = m[k].get(&sup[i]);

			if (isfinite(v))
				pm_out_prom_sample(o, m[k].name, l, v);
		}
	}
}

static void prom_all(struct pmctl *p, const struct pm_policy *pol, int npol,
		     const struct pm_sleep *s, const struct pm_supply *sup,
		     int nsup, const struct pm_tzone *tz, int ntz,
		     const struct pm_devfreq *df, int ndf)
{
	struct pm_out *o = &p->o;
	char zone[32];

	prom_cpufreq(p, pol, npol);
	prom_cpus_sleep(p, s);
	prom_supply(p, sup, nsup);
	prom_gauge(o, "pm_thermal_zone_temperature_celsius",
		   "Temperature of the thermal zone.");
	for (int i = 0; i < ntz; i++) {
		snprintf(zone, sizeof(zone), "%u", tz[i].id);
		const char *l[] = { "zone", zone, "type", tz[i].type, NULL };

		if (tz[i].temp_mc != PM_UNKNOWN_S64)
			pm_out_prom_sample(o,
					   "pm_thermal_zone_temperature_celsius",
					   l, (double)tz[i].temp_mc / 1000);
	}
	prom_gauge(o, "pm_devfreq_frequency_hertz",
		   "Current frequency of the devfreq device.");
	for (int i = 0; i < ndf; i++) {
		const char *l[] = { "device", df[i].name,
				    "governor", df[i].governor, NULL };

		if (df[i].cur_hz != PM_UNKNOWN)
			pm_out_prom_sample(o, "pm_devfreq_frequency_hertz", l,
					   (double)df[i].cur_hz);
	}
}

int cmd_status(struct pmctl *p, int argc, char **argv)
{
	struct pm_policy *pol;
	struct pm_cpufreq_global g;
	struct pm_sleep s;
	struct pm_supply *sup;
	struct pm_tzone *tz;
	struct pm_devfreq *df;
	struct pm_profile prof;
	int npol, nsup, ntz, ndf;

	if (argc)
		pm_usage_error(&p->t, "status: unexpected argument '%s'",
			       argv[0]);
	pm_tool_only(&p->t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT, "pmctl status");
	pmctl_opts_only(p, 0, "pmctl status");
	if (pm_cpus_read(&p->ctx, &p->cpus) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no CPUs under %s/sys/devices/system/cpu",
		       p->ctx.real_root ? "" : p->ctx.root);
	npol = pmctl_policies(p, &pol);
	pm_cpufreq_global_read(&p->ctx, &g);
	pm_sleep_read(&p->ctx, &s);
	nsup = pm_supplies_read(&p->ctx, &sup);
	ntz = pm_tzones_read(&p->ctx, &tz);
	ndf = pm_devfreqs_read(&p->ctx, &df);
	if (nsup < 0 || ntz < 0 || ndf < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");

	pm_tool_out(&p->t, &p->o);
	if (p->t.fmt == PM_FMT_PROM) {
		prom_all(p, pol, npol, &s, sup, nsup, tz, ntz, df, ndf);
	} else if (p->t.fmt != PM_FMT_HUMAN) {
		json_all(p, pol, npol, &g, &s, sup, nsup, tz, ntz, df, ndf);
	} else {
		human_cpufreq(p, pol, npol, &g);
		human_cpuidle(p);
		human_cpus(p);
		human_sleep(p, &s);
		if (pm_profile_read(&p->ctx, &prof) == 0)
			pm_out_printf(&p->o,
				      "Profile:        %s (choices: %s)\n",
				      prof.current, prof.choices);
		else
			pm_out_printf(&p->o, "Profile:        " NA "\n");
		pmctl_human_supplies(p, sup, nsup);
		pmctl_human_thermal(p, tz, ntz);
		pmctl_human_devfreq(p, df, ndf);
	}
	pm_tool_out_done(&p->t, &p->o);
	pm_policies_free(pol, npol);
	free(sup);
	free(tz);
	free(df);
	return PM_EXIT_OK;
}
