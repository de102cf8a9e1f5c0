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
};

/* Samples every interval; returns the exit status. */
int cs_run_interval(struct pm_tool *t, struct pm_ctx *ctx,
		    const struct pm_cpuset *sel, const struct cs_opts *opt);
/* Runs the command and reports over its run; returns its status. */
int cs_run_command(struct pm_tool *t, struct pm_ctx *ctx,
		   const struct pm_cpuset *sel, const struct cs_opts *opt);

#endif /* CSTATE_STAT_H */
