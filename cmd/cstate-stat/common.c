// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the since-boot report and the interval reports print alike: the
 * hypervisor line, the CPU time split, and the counters' anomalies.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cstate-stat.h"

void cs_human_hypervisor(struct pm_out *o, const struct pm_hypervisor *hv)
{
	if (!hv->present)
		return;
	pm_out_printf(o, "hypervisor: %s (%s): it owns the C- and P-states\n",
		      hv->name[0] ? hv->name : "present", hv->source);
}

void cs_json_hypervisor(struct pm_out *o, const struct pm_hypervisor *hv)
{
	if (!hv->present) {
		pm_out_null(o, "hypervisor");
		return;
	}
	pm_out_obj_begin(o, "hypervisor");
	pm_out_str_or_null(o, "name", hv->name);
	pm_out_str(o, "source", hv->source);
	pm_out_obj_end(o);
}

void cs_prom_hypervisor(struct pm_out *o, const struct pm_hypervisor *hv)
{
	const char *l[] = { "name", hv->name, "source", hv->source, NULL };

	if (!hv->present)
		return;
	pm_out_prom_meta(o, "pm_hypervisor_info", "gauge",
			 "1: a hypervisor owns the C- and P-states.");
	pm_out_prom_sample_u64(o, "pm_hypervisor_info", l, 1);
}

static const char *const ct_keys[PM_CT_KINDS] = {
	[PM_CT_BUSY] = "busy_pct",     [PM_CT_USER] = "user_pct",
	[PM_CT_SYSTEM] = "system_pct", [PM_CT_IOWAIT] = "iowait_pct",
	[PM_CT_IRQ] = "irq_pct",       [PM_CT_STEAL] = "steal_pct",
	[PM_CT_IDLE] = "idle_pct",
};

void cs_json_cputime(struct pm_out *o, const struct pm_cputime *ct)
{
	for (int k = 0; k < PM_CT_KINDS; k++)
		pm_out_double(o, ct_keys[k], ct->pct[k], 2);
}

const char *cs_idle_src_name(enum pm_idle_src s)
{
	return s == PM_IDLE_SRC_S390	   ? "s390_idle" :
	       s == PM_IDLE_SRC_PROC_STAT ? "proc_stat" :
					    NULL;
}

void cs_json_anoms(struct pm_out *o, const struct pm_anoms *an)
{
	pm_out_obj_begin(o, "anomalies");
	for (int k = 0; k < PM_ANOM_KINDS; k++)
		pm_out_u64(o, pm_anom_name(k), an->n[k]);
	pm_out_obj_end(o);
}

void cs_human_anoms(struct pm_out *o, const struct pm_anoms *an)
{
	const char *sep = "";

	if (!pm_anoms_total(an))
		return;
	pm_out_printf(o, "  counters:");
	for (int k = 0; k < PM_ANOM_KINDS; k++) {
		if (!an->n[k])
			continue;
		pm_out_printf(o, "%s %llu %s", sep,
			      (unsigned long long)an->n[k], pm_anom_name(k));
		sep = ",";
	}
	pm_out_printf(o, " (-v names them)\n");
}

void cs_prom_anoms(struct pm_out *o, const struct pm_anoms *an)
{
	pm_out_prom_meta(o, "pm_cstate_stat_anomalies", "gauge",
			 "Counters of this report that wrapped, restarted, "
			 "stepped back or could not be true.");
	for (int k = 0; k < PM_ANOM_KINDS; k++) {
		const char *l[] = { "kind", pm_anom_name(k), NULL };

		pm_out_prom_sample_u64(o, "pm_cstate_stat_anomalies", l, an->n[k]);
	}
}

void cs_warn_anoms(const struct pm_tool *t, const struct pm_anoms *an,
		   const char *when)
{
	uint64_t n = pm_anoms_total(an);

	if (t->verbose < 1 || !n)
		return;
	for (int i = 0; i < an->nnotes; i++)
		pm_warn(t, "%s: %s", when, an->note[i]);
	if (n > (uint64_t)an->nnotes)
		pm_warn(t, "%s: %llu more counter anomalies", when,
			(unsigned long long)(n - (uint64_t)an->nnotes));
}

void cs_states_cut_add(struct pm_ctx *ctx, unsigned cpu, int n,
		       struct pm_cpuset *cut)
{
	/* The kernel keeps ten states (CPUIDLE_STATE_MAX); a tree may not. */
	if (n == PM_MAX_IDLE_STATES &&
	    pm_idle_state_exists(ctx, cpu, PM_MAX_IDLE_STATES))
		pm_cpuset_set(cut, cpu);
}

void cs_states_cut_say(const struct pm_tool *t, const struct pm_cpuset *cut)
{
	char list[256];

	if (pm_cpuset_empty(cut))
		return;
	if (pm_cpulist_format(cut, list, sizeof(list)) >= sizeof(list))
		memcpy(list + sizeof(list) - 4, "...", 4);
	pm_note(t, "%s%s %s more than %d idle states: only states 0-%d are shown",
		pm_cpuset_count(cut) == 1 ? "cpu" : "cpus ", list,
		pm_cpuset_count(cut) == 1 ? "has" : "have", PM_MAX_IDLE_STATES,
		PM_MAX_IDLE_STATES - 1);
}
