// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cpufreq policies as pmctl reads them once, and one policy as the
 * JSON object of `pmctl freq --json` (freq.c and status.c
 * use them).
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

int pmctl_policy_freqs(struct pm_ctx *ctx, const struct pm_policy *p,
		       bool boost, const uint64_t **v, uint64_t **buf)
{
	int n = boost ? p->n_boost : p->n_avail;
	int all = boost ? p->n_boost_all : p->n_avail_all;

	*buf = NULL;
	*v = boost ? p->boost_khz : p->avail_khz;
	if (ctx && all > n) {
		int k = pm_policy_freqs(ctx, p, boost, buf);

		if (k > n) {
			*v = *buf;
			return k;
		}
		free(*buf);
		*buf = NULL;
	}
	return n;
}

void pmctl_policy_json(struct pm_ctx *ctx, struct pm_out *o,
		       const struct pm_policy *p)
{
	const uint64_t *f;
	uint64_t *buf;
	int n;

	pm_out_elem_begin(o, p->id);
	pm_out_u64(o, "policy", p->id);
	pm_out_cpuspan(o, "cpus", &p->related);
	pm_out_cpuspan(o, "affected_cpus", &p->affected);
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
	n = pmctl_policy_freqs(ctx, p, false, &f, &buf);
	freqs_json(o, "available_khz", f, n);
	free(buf);
	n = pmctl_policy_freqs(ctx, p, true, &f, &buf);
	freqs_json(o, "boost_khz", f, n ? n : -1);
	free(buf);
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
