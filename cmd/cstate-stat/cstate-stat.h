/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cstate-stat's modes: the since-boot report, intervals and a command. */
#ifndef CSTATE_STAT_H
#define CSTATE_STAT_H

#include "pm.h"

struct cs_opts {
	bool cstates, pstates;	/* which halves to show */
	bool summary;		/* one row for all selected CPUs */
	bool percpu;		/* rows per CPU even when many */
	bool summary_set;	/* -s given */
	bool wakeups, power;
	uint64_t interval_us;	/* 0: since boot or over a command */
	uint64_t count;		/* 0: until interrupted */
	char **cmd;		/* -- COMMAND ARGS, or NULL */
	struct pm_hypervisor hv;	/* the one under the kernel, if any */
};

/* The report since boot; returns the exit status. */
int cs_run_boot(struct pm_tool *t, struct pm_ctx *ctx,
		const struct pm_cpus *cpus, const struct pm_cpuset *sel,
		const struct cs_opts *opt, bool trans_table);
/* Adds cpu to *cut when it has more idle states than the n read. */
void cs_states_cut_add(struct pm_ctx *ctx, unsigned cpu, int n,
		       struct pm_cpuset *cut);
/* One note naming the CPUs in cut, if any. */
void cs_states_cut_say(const struct pm_tool *t, const struct pm_cpuset *cut);
/* Samples every interval; returns the exit status. */
int cs_run_interval(struct pm_tool *t, struct pm_ctx *ctx,
		    const struct pm_cpuset *sel, const struct cs_opts *opt);
/* Runs the command and reports over its run; returns its status. */
int cs_run_command(struct pm_tool *t, struct pm_ctx *ctx,
		   const struct pm_cpuset *sel, const struct cs_opts *opt);

/* common.c: what every report prints alike. */
void cs_human_hypervisor(struct pm_out *o, const struct pm_hypervisor *hv);
void cs_json_hypervisor(struct pm_out *o, const struct pm_hypervisor *hv);
void cs_prom_hypervisor(struct pm_out *o, const struct pm_hypervisor *hv);
/* busy_pct, user_pct, ... idle_pct. */
void cs_json_cputime(struct pm_out *o, const struct pm_cputime *ct);
/* "s390_idle", "proc_stat", or NULL. */
const char *cs_idle_src_name(enum pm_idle_src s);
void cs_json_anoms(struct pm_out *o, const struct pm_anoms *an);
void cs_human_anoms(struct pm_out *o, const struct pm_anoms *an);
void cs_prom_anoms(struct pm_out *o, const struct pm_anoms *an);
/* With -v: each anomaly described on stderr. */
void cs_warn_anoms(const struct pm_tool *t, const struct pm_anoms *an,
		   const char *when);

#endif /* CSTATE_STAT_H */
