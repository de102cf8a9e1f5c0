// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl boost: turbo / boost, by whichever control this machine has
 * (cpufreq/boost, intel_pstate/no_turbo, or per policy), shown and set
 * through pm_boost_plan.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

enum boost_ctl { BOOST_NONE, BOOST_GLOBAL, BOOST_NO_TURBO, BOOST_POLICY };

static const char *const boost_ctl_name[] = {
	[BOOST_NONE] = NULL,
	[BOOST_GLOBAL] = "cpufreq/boost",
	[BOOST_NO_TURBO] = "intel_pstate/no_turbo",
	[BOOST_POLICY] = "policy",
};

static enum boost_ctl boost_control(const struct pm_cpufreq_global *g,
				    const struct pm_policy *pol, int n)
{
	if (g->boost >= 0)
		return BOOST_GLOBAL;
	if (g->intel_no_turbo >= 0)
		return BOOST_NO_TURBO;
	for (int i = 0; i < n; i++)
		if (pol[i].boost >= 0)
			return BOOST_POLICY;
	return BOOST_NONE;
}

static int boost_show(struct pmctl *p, const struct pm_cpufreq_global *g,
		      const struct pm_policy *pol, int n,
		      const struct pm_cpuset *sel)
{
	enum boost_ctl ctl = boost_control(g, pol, n);
	int on = ctl == BOOST_GLOBAL   ? g->boost :
		 ctl == BOOST_NO_TURBO ? !g->intel_no_turbo :
					 -1;
	char name[300];

	if (ctl == BOOST_NONE)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no boost control on this machine (no cpufreq/boost, "
		       "intel_pstate/no_turbo or per-policy boost)");
	pm_tool_out(&p->t, &p->o);
	if (p->t.fmt == PM_FMT_HUMAN) {
		if (on >= 0)
			pm_out_printf(&p->o, "boost: %s (%s)\n",
				      on ? "on" : "off", boost_ctl_name[ctl]);
		for (int i = 0; i < n; i++)
			if (pol[i].boost >= 0 &&
			    pm_cpuspan_intersects(&pol[i].related, sel))
				pm_out_printf(&p->o, "%s: boost %s\n",
					      pm_policy_name(&pol[i], name,
								sizeof(name)),
					      pol[i].boost ? "on" : "off");
	} else {
		pm_out_obj_begin(&p->o, NULL);
		pm_out_flag(&p->o, "boost", on);
		pm_out_str_or_null(&p->o, "control",
				   boost_ctl_name[ctl] ? boost_ctl_name[ctl] :
							 "");
		pm_out_arr_begin(&p->o, "policies", "policy");
		for (int i = 0; i < n; i++) {
			if (!pm_cpuspan_intersects(&pol[i].related, sel))
				continue;
			pm_out_elem_begin(&p->o, pol[i].id);
			pm_out_u64(&p->o, "policy", pol[i].id);
			pm_out_cpuspan(&p->o, "cpus", &pol[i].related);
			pm_out_flag(&p->o, "boost", pol[i].boost);
			pm_out_obj_end(&p->o);
		}
		pm_out_arr_end(&p->o);
		pm_out_obj_end(&p->o);
	}
	pm_tool_out_done(&p->t, &p->o);
	return PM_EXIT_OK;
}

static void explain_boost_fail(struct pm_writer *w, const struct pm_write *x,
			       char *buf, size_t size)
{
	struct pmctl *p = w->arg;
	char err[PM_PATH_MAX + 600];

	const char *file = strrchr(x->path, '/');

	pm_err_str(&p->ctx.err, err, sizeof(err));
	if (x->err == EPERM && file && !strcmp(file + 1, "no_turbo"))
		snprintf(buf, size, "cannot turn boost on: the firmware has "
				    "disabled turbo (%s)",
			 err);
	else
		snprintf(buf, size, "cannot turn boost %s: %s",
			 x->tag ? "on" : "off", err);
}

/* Every selected policy goes on or off: the machine's switch, or with
 * --cpu each policy's own. */
static void plan_boost(struct pmctl *p, struct pm_writer *w, bool on,
		       const struct pm_cpuset *sel, const struct pm_policy *pol,
		       int n)
{
	struct pm_boost b = {
		.on = on,
		.policies_only = p->t.cpu != NULL,
		/* The tag says which way, for the failure message. */
		.tag = on ? (void *)p : NULL,
	};
	int *pol_on = calloc((size_t)n + 1, sizeof(*pol_on));

	if (!pol_on)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++)
		pol_on[i] = !pm_cpuspan_intersects(&pol[i].related, sel) ? -1 :
			    on ? 1 : 0;
	b.pol_on = pol_on;
	pm_boost_plan(w, &b, pol, n);
	free(pol_on);
}

int cmd_boost(struct pmctl *p, int argc, char **argv)
{
	struct pm_cpufreq_global g;
	struct pm_policy *pol;
	struct pm_cpuset sel;
	struct pm_writer w;
	bool on = false;
	int n, code;

	pmctl_opts_only(p, 0, "pmctl boost");
	if (argc > 1)
		pm_usage_error(&p->t, "boost: unknown argument '%s'", argv[1]);
	if (argc == 1 && strcmp(argv[0], "show") &&
	    (pm_parse_bool(argv[0], &on) < 0 ||
	     (strcmp(argv[0], "on") && strcmp(argv[0], "off") &&
	      strcmp(argv[0], "1") && strcmp(argv[0], "0"))))
		pm_usage_error(&p->t, "boost: '%s' is not on or off",
			       argv[0]);
	if (argc == 0 || !strcmp(argv[0], "show")) {
		pm_tool_only(&p->t, PM_SEEN_CPU | PM_SEEN_FORMAT |
					    PM_SEEN_OUTPUT,
			     "pmctl boost");
		pmctl_select_cpus(p, &sel);
		pm_cpufreq_global_read(&p->ctx, &g);
		n = pmctl_policies_fields(p, PM_POL_BOOST, &pol);
		code = boost_show(p, &g, pol, n, &sel);
		pm_policies_free(pol, n);
		return code;
	}
	pm_tool_only(&p->t, PM_SEEN_CPU | PM_SEEN_FORMAT | PM_SEEN_OUTPUT |
				    PM_SEEN_WAIT | PM_SEEN_DRY_RUN,
		     "pmctl boost on|off");
	pmctl_select_cpus(p, &sel);
	pmctl_write_begin(p, &w);
	n = pmctl_policies_fields(p, PM_POL_BOOST, &pol);
	plan_boost(p, &w, on, &sel, pol, n);
	w.perm_ok = true;
	w.explain_fail = explain_boost_fail;
	code = pm_writer_commit(&w);
	pm_policies_free(pol, n);
	return code;
}
