/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: cpufreq: policies, frequencies, time_in_state and trans_table
 * (lib/cpufreq.c).
 */
#ifndef PM_CPUFREQ_H
#define PM_CPUFREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "cpuset.h"

#define PM_MAX_FREQS 64

struct pm_tis {
	uint64_t khz;
	uint64_t ticks;		/* USER_HZ (10 ms) */
};

/*
 * A policy as read.  The CPU sets are spans (a policy's few CPUs, not
 * PM_MAX_CPUS bits each), and the frequency and time_in_state tables
 * are malloc'd to their length, only when the fields read ask for them
 * (NULL else): a writer holds a policy in about 1 KiB, not 5.  Freed
 * with pm_policy_free (pm_policies_free for an array); a copy by
 * assignment shares them.
 */
struct pm_policy {
	unsigned id;		/* policyN, or the CPU of a legacy cpuN/cpufreq */
	char path[96];		/* system path of the policy folder */
	/*
	 * The CPUs the folder serves (related_cpus since 4.3; before, its
	 * owner and the CPUs linked to it, which related_cpus may exceed),
	 * and the online ones of them (affected_cpus).
	 */
	struct pm_cpuspan related, affected;
	char driver[PM_NAME_MAX], governor[PM_NAME_MAX];
	char available_governors[256];
	uint64_t min_khz, max_khz, cpuinfo_min_khz, cpuinfo_max_khz;
	uint64_t cur_khz, cpuinfo_cur_khz, transition_latency_ns;
	uint64_t bios_limit_khz, base_khz;
	/* The first PM_MAX_FREQS of each list (PM_POL_INFO); _all counts
	 * the file's (pm_policy_freqs reads a longer list whole). */
	uint64_t *avail_khz;	/* n_avail of them */
	int n_avail;		/* -1 when the driver does not export it */
	int n_avail_all;
	uint64_t *boost_khz;	/* n_boost of them */
	int n_boost, n_boost_all;
	char epp[PM_NAME_MAX];	/* "" when absent */
	char epp_available[256];
	int boost;		/* per-policy boost 0/1, -1 absent */
	char setspeed[32];	/* scaling_setspeed text, "" absent */
	/* stats/ */
	bool has_stats;
	uint64_t total_trans;
	struct pm_tis *tis;	/* n_tis of them, at most PM_MAX_FREQS */
	int n_tis;
	int tis_bad_line;	/* time_in_state's malformed line, 0 none */
	bool tis_cut;		/* time_in_state has more lines than tis */
};

struct pm_cpufreq_global {
	int boost;		/* cpufreq/boost: 0/1, -1 absent */
	char intel_status[16];	/* "" absent */
	int intel_no_turbo;	/* -1 absent */
	int intel_min_perf_pct, intel_max_perf_pct;
	int intel_num_pstates, intel_turbo_pct;
	int intel_hwp_dynamic_boost;
	char amd_status[16];	/* "" absent */
	char amd_prefcore[16];
	bool intel_pstate, amd_pstate;	/* the folder is there */
};

/*
 * Policy ids in ascending order: N of each policyN folder (Linux 4.3 and
 * later), else N of each cpuN/cpufreq that is a folder of its own (the
 * policy's owner before 4.3; a CPU whose cpufreq is a link to another's
 * folder shares that policy).  Every folder is a policy: a CPU is read
 * and written through the folder its own cpuN/cpufreq leads to.
 */
int pm_policies_list(struct pm_ctx *ctx, unsigned *ids, unsigned max);
int pm_policy_read(struct pm_ctx *ctx, unsigned id, struct pm_policy *p);
/* What a policy read holds (the policy is then empty), and an array of
 * n of them with the array itself. */
void pm_policy_free(struct pm_policy *p);
void pm_policies_free(struct pm_policy *v, int n);
/* Only some of the files (related and affected CPUs always): a writer
 * reads what it needs.  Fields not read are PM_UNKNOWN, "" or -1. */
enum {
	PM_POL_DRIVER = 1 << 0,
	PM_POL_GOVERNOR = 1 << 1,	/* governor, available_governors */
	PM_POL_LIMITS = 1 << 2,		/* scaling_ and cpuinfo_ min/max */
	PM_POL_INFO = 1 << 3,		/* cur, latency, bios, base, freqs */
	PM_POL_EPP = 1 << 4,
	PM_POL_BOOST = 1 << 5,
	PM_POL_SPEED = 1 << 6,
	PM_POL_STATS = 1 << 7,		/* stats/total_trans */
	PM_POL_TIS = 1 << 8,		/* stats/time_in_state */
	PM_POL_ALL = 0x1ff,
};
int pm_policy_read_fields(struct pm_ctx *ctx, unsigned id,
			  struct pm_policy *p, unsigned fields);
/* Every policy (*out: malloc'd, count returned, or -errno); the driver
 * and the available governors are read once, as the kernel has one list. */
int pm_policies_read(struct pm_ctx *ctx, unsigned fields,
		     struct pm_policy **out);
/* Only the policies serving a CPU of sel (NULL: all), found from the
 * CPUs' own cpufreq links when that reads less. */
int pm_policies_read_sel(struct pm_ctx *ctx, unsigned fields,
			 const struct pm_cpuset *sel, struct pm_policy **out);
int pm_cpufreq_global_read(struct pm_ctx *ctx, struct pm_cpufreq_global *g);
/*
 * Where governor GOV keeps tunable NAME for a policy: policyN/GOV/NAME
 * with a driver whose governors are per policy, else cpufreq/GOV/NAME.
 * 1: path is the per-policy file, 2: the global one, 0: neither exists
 * (the governor does not run): path is the global file and other, if
 * not NULL, the per-policy one.
 */
int pm_gov_tunable(struct pm_ctx *ctx, const struct pm_policy *pol,
		   const char *gov, const char *name, char *path, size_t size,
		   char *other, size_t osize);
/* A policy's scaling_available_frequencies (or, boost, its
 * scaling_boost_frequencies) whole: *out malloc'ed, the count or -errno. */
int pm_policy_freqs(struct pm_ctx *ctx, const struct pm_policy *p,
		    bool boost, uint64_t **out);
/* Parse a stats/time_in_state text; returns the count or -EINVAL. */
int pm_tis_parse(const char *text, struct pm_tis *tis, int max);
/* The same; *bad_line: the first malformed line (from 1), else 0. */
int pm_tis_parse_line(const char *text, struct pm_tis *tis, int max,
		      int *bad_line);

/* stats/trans_table: counts[from * n + to] of transitions between freqs. */
struct pm_trans_table {
	int n;
	uint64_t khz[PM_MAX_FREQS];
	uint64_t *counts;	/* n * n, malloc'ed */
};

/* Parse the kernel's table text; -EINVAL for anything else. */
int pm_trans_table_parse(const char *text, struct pm_trans_table *t);
/*
 * Read a policy's table: -ENOENT without stats, -EFBIG when the kernel
 * refuses a table larger than a page (since 4.15).
 */
int pm_trans_table_read(struct pm_ctx *ctx, const struct pm_policy *p,
			struct pm_trans_table *t);
void pm_trans_table_free(struct pm_trans_table *t);

/* "policy0 (cpus 0-3)" for messages. */
const char *pm_policy_name(const struct pm_policy *pol, char *buf,
			   size_t size);
/* Its folder's name: "policy4", or "cpu2/cpufreq" before Linux 4.3. */
const char *pm_policy_folder(const struct pm_policy *pol, char *buf,
			     size_t size);

#endif /* PM_CPUFREQ_H */
