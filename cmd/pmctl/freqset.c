// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl freq set and pmctl boost: cpufreq writes, checked against what
 * the driver offers before anything is written, ordered so that no
 * intermediate state has min above max, all-or-nothing across policies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

#define SET_OPTS                                                             \
	(PMCTL_BIT(PMCTL_O_GOVERNOR) | PMCTL_BIT(PMCTL_O_MIN) |             \
	 PMCTL_BIT(PMCTL_O_MAX) | PMCTL_BIT(PMCTL_O_SPEED) |                \
	 PMCTL_BIT(PMCTL_O_EPP))

static uint64_t freq_opt(struct pmctl *p, int o, const char *name)
{
	uint64_t khz;

	if (pm_parse_freq_khz(p->opt[o], &khz) < 0 || khz == 0)
		pm_usage_error(&p->t,
			       "--%s: invalid frequency '%s' (kHz, or a "
			       "number with Hz, kHz, MHz or GHz)",
			       name, p->opt[o]);
	return khz;
}

static void parse_set(struct pmctl *p, int argc, char **argv,
		      struct pm_fset *f)
{
	memset(f, 0, sizeof(*f));
	if (argc > 0)
		pm_usage_error(&p->t, "freq set: unknown argument '%s'",
			       argv[0]);
	pm_tool_only(&p->t, PM_SEEN_CPU | PM_SEEN_FORMAT | PM_SEEN_OUTPUT |
				    PM_SEEN_WAIT | PM_SEEN_DRY_RUN,
		     "pmctl freq set");
	pmctl_opts_only(p, SET_OPTS, "pmctl freq set");
	f->governor = p->opt[PMCTL_O_GOVERNOR];
	f->epp = p->opt[PMCTL_O_EPP];
	if (f->governor && !pm_fset_name_ok(f->governor, PM_GOV_NAME_MAX))
		pm_usage_error(&p->t,
			       "--governor: invalid governor name '%s'",
			       f->governor);
	if (f->epp && !pm_fset_name_ok(f->epp, PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "--epp: invalid preference '%s'",
			       f->epp);
	if ((f->has_min = p->opt[PMCTL_O_MIN]))
		f->min = freq_opt(p, PMCTL_O_MIN, "min");
	if ((f->has_max = p->opt[PMCTL_O_MAX]))
		f->max = freq_opt(p, PMCTL_O_MAX, "max");
	if ((f->has_speed = p->opt[PMCTL_O_SPEED]))
		f->speed = freq_opt(p, PMCTL_O_SPEED, "speed");
	if (f->has_min && f->has_max && f->min > f->max) {
		char a[32], b[32];

		pm_die(&p->t, PM_EXIT_USAGE, "--min %s is above --max %s",
			       pm_fmt_khz(f->min, a, sizeof(a)),
			       pm_fmt_khz(f->max, b, sizeof(b)));
	}
	if (!f->governor && !f->has_min && !f->has_max && !f->has_speed &&
	    !f->epp)
		pm_usage_error(&p->t, "freq set: nothing to set (give "
				      "--governor, --min, --max, --speed or "
				      "--epp)");
}

static const char *base(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static const char *what_of(const char *file)
{
	if (!strcmp(file, "scaling_governor"))
		return "governor";
	if (!strcmp(file, "scaling_min_freq"))
		return "min";
	if (!strcmp(file, "scaling_max_freq"))
		return "max";
	if (!strcmp(file, "scaling_setspeed"))
		return "speed";
	if (!strcmp(file, "energy_performance_preference"))
		return "EPP";
	return file;
}

/* A frequency the kernel holds at another value (CLI.md: a warning). */
static void explain_freq(struct pm_writer *w, const struct pm_write *x)
{
	struct pmctl *p = w->arg;
	const struct pm_policy *pol = x->tag;
	const char *what = what_of(base(x->path));
	char name[300], a[32], b[32];
	uint64_t want, got;

	if (!pol || pm_parse_u64(x->val, &want) < 0 ||
	    pm_parse_u64(x->got, &got) < 0) {
		pm_warn(&p->t, "%s: wrote '%s', the kernel reads back '%s'",
			x->path, x->val, x->got);
		return;
	}
	pm_warn(&p->t, "%s: %s %s written, the kernel holds %s (%s)",
		pm_policy_name(pol, name, sizeof(name)), what,
		pm_fmt_khz(want, a, sizeof(a)), pm_fmt_khz(got, b, sizeof(b)),
		!strcmp(what, "min") ?
			"limited by the max, other QoS requests or the "
			"frequency table" :
		!strcmp(what, "max") ?
			"limited by thermal, firmware or other QoS requests, "
			"or the frequency table" :
			"limited by the policy's min and max");
}

static void explain_fail(struct pm_writer *w, const struct pm_write *x,
			 char *buf, size_t size)
{
	struct pmctl *p = w->arg;
	const struct pm_policy *pol = x->tag;
	const char *what = what_of(base(x->path));
	char name[300], err[PM_PATH_MAX + 600];

	pm_err_str(&p->ctx.err, err, sizeof(err));
	if (!pol) {
		snprintf(buf, size, "%s", err);
		return;
	}
	snprintf(buf, size, "cannot set %s '%s' on %s: %s%s", what, x->val,
		 pm_policy_name(pol, name, sizeof(name)), err,
		 x->err == EBUSY && !strcmp(what, "EPP") ?
			 " (the kernel refuses this EPP under the "
			 "performance governor)" :
			 "");
}

static void select_cpus(struct pmctl *p, struct pm_cpuset *sel)
{
	if (pm_cpus_read(&p->ctx, &p->cpus) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no CPUs under /sys/devices/system/cpu");
	/* Writing defaults to every present CPU (CLI.md). */
	if (pm_cpus_select(&p->ctx, &p->cpus, p->t.cpu ? p->t.cpu : "all",
			   sel) < 0)
		pm_usage_error(&p->t, "--cpu '%s': %s", p->t.cpu,
			       p->ctx.err.hint);
}

/*
 * The policies a write goes to: those with a selected CPU; a policy whose
 * CPUs are all offline refuses every access (EBUSY) and is skipped.
 */
static int pick_policies(struct pmctl *p, const struct pm_cpuset *sel,
			 struct pm_policy *pol, int n, bool *use)
{
	char name[300], cpus[256];
	int k = 0;

	for (int i = 0; i < n; i++) {
		use[i] = false;
		if (!pm_cpuset_intersects(&pol[i].related, sel))
			continue;
		pm_policy_name(&pol[i], name, sizeof(name));
		if (pm_cpuset_empty(&pol[i].affected)) {
			pm_note(&p->t, "%s: every CPU is offline, skipped",
				name);
			continue;
		}
		if (p->t.cpu) {
			struct pm_cpuset rest = pol[i].related;

			pm_cpuset_andnot(&rest, sel);
			if (!pm_cpuset_empty(&rest)) {
				pm_cpulist_format(&rest, cpus, sizeof(cpus));
				pm_note(&p->t, "%s is shared: the change "
					       "applies to cpus %s too",
					name, cpus);
			}
		}
		use[i] = true;
		k++;
	}
	return k;
}

int pmctl_freq_set(struct pmctl *p, int argc, char **argv)
{
	unsigned fields = PM_POL_DRIVER | PM_POL_GOVERNOR;
	struct pm_policy *pol;
	struct pm_cpuset sel;
	struct pm_writer w;
	struct pm_fset f;
	bool *use;
	char (*gov)[PM_NAME_MAX];
	int n, code;

	parse_set(p, argc, argv, &f);
	select_cpus(p, &sel);
	if (f.has_min || f.has_max || f.has_speed)
		fields |= PM_POL_LIMITS;
	if (f.has_speed)
		fields |= PM_POL_SPEED;
	if (f.epp)
		fields |= PM_POL_EPP;
	pmctl_write_begin(p, &w);
	n = pmctl_policies_fields(p, fields, &pol);
	if (n == 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no cpufreq policies on this machine "
		       "(/sys/devices/system/cpu/cpufreq is empty or missing)");
	use = calloc((size_t)n, sizeof(*use));
	gov = calloc((size_t)n, sizeof(*gov));
	if (!use || !gov)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!pick_policies(p, &sel, pol, n, use)) {
		char cpus[256];

		pm_cpulist_format(&sel, cpus, sizeof(cpus));
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no online cpufreq policy covers cpus %s", cpus);
	}
	for (int i = 0; i < n; i++)
		if (use[i])
			pm_fset_check(&p->t, &f, &pol[i], gov[i], sizeof(gov[i]));
	for (int i = 0; i < n; i++)
		if (use[i])
			pm_fset_plan(&w, &f, &pol[i], gov[i]);
	w.explain = explain_freq;
	w.explain_fail = explain_fail;
	code = pm_writer_commit(&w);
	free(gov);
	free(use);
	free(pol);
	return code;
}

/* ---------------------------------------------------------------- boost */

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
			    pm_cpuset_intersects(&pol[i].related, sel))
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
			if (!pm_cpuset_intersects(&pol[i].related, sel))
				continue;
			pm_out_elem_begin(&p->o, pol[i].id);
			pm_out_u64(&p->o, "policy", pol[i].id);
			pm_out_cpuset(&p->o, "cpus", &pol[i].related);
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

	pm_err_str(&p->ctx.err, err, sizeof(err));
	if (x->err == EPERM && !strcmp(base(x->path), "no_turbo"))
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
		pol_on[i] = !pm_cpuset_intersects(&pol[i].related, sel) ? -1 :
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
		select_cpus(p, &sel);
		pm_cpufreq_global_read(&p->ctx, &g);
		n = pmctl_policies_fields(p, PM_POL_BOOST, &pol);
		code = boost_show(p, &g, pol, n, &sel);
		free(pol);
		return code;
	}
	pm_tool_only(&p->t, PM_SEEN_CPU | PM_SEEN_FORMAT | PM_SEEN_OUTPUT |
				    PM_SEEN_WAIT | PM_SEEN_DRY_RUN,
		     "pmctl boost on|off");
	select_cpus(p, &sel);
	pmctl_write_begin(p, &w);
	n = pmctl_policies_fields(p, PM_POL_BOOST, &pol);
	plan_boost(p, &w, on, &sel, pol, n);
	w.perm_ok = true;
	w.explain_fail = explain_boost_fail;
	code = pm_writer_commit(&w);
	free(pol);
	return code;
}
