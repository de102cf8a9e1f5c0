// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl freq: the cpufreq policies as the kernel reports them (show), and
 * their governor, limits and EPP (set, through lib/fset.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

static int print_len(struct pm_out *o, const char *s)
{
	pm_out_printf(o, "%s", s);
	return (int)strlen(s);
}

/* A frequency for people; "-" when the kernel did not give it. */
static const char *khz(uint64_t v, char *buf, size_t size)
{
	if (v == PM_UNKNOWN)
		snprintf(buf, size, "-");
	else
		pm_fmt_khz(v, buf, size);
	return buf;
}

/* Everything a policy shows but its number, CPUs and current frequency. */
static bool alike(const struct pm_policy *a, const struct pm_policy *b)
{
	return !strcmp(a->driver, b->driver) &&
	       !strcmp(a->governor, b->governor) &&
	       !strcmp(a->available_governors, b->available_governors) &&
	       a->min_khz == b->min_khz && a->max_khz == b->max_khz &&
	       a->cpuinfo_min_khz == b->cpuinfo_min_khz &&
	       a->cpuinfo_max_khz == b->cpuinfo_max_khz &&
	       a->n_avail == b->n_avail &&
	       a->n_avail_all == b->n_avail_all &&
	       (a->n_avail <= 0 ||
		!memcmp(a->avail_khz, b->avail_khz,
			(size_t)a->n_avail * sizeof(a->avail_khz[0]))) &&
	       !strcmp(a->epp, b->epp) &&
	       !strcmp(a->epp_available, b->epp_available) &&
	       a->boost == b->boost && a->bios_limit_khz == b->bios_limit_khz &&
	       pm_cpuspan_equal(&a->related, &a->affected) ==
		       pm_cpuspan_equal(&b->related, &b->affected);
}

/* At most this many current frequencies are listed for a group. */
#define CUR_LIST_MAX 4

/* The current frequencies of a group: each with its CPUs, or a range. */
static void human_current(struct pm_out *o, const struct pm_policy *pol,
			  const int *member, int m)
{
	uint64_t v[CUR_LIST_MAX] = { 0 }, lo = PM_UNKNOWN, hi = 0;
	struct pm_cpuset at[CUR_LIST_MAX];
	char a[32], b[32], cpus[256];
	int nv = 0;
	bool many = false;

	for (int i = 0; i < m; i++) {
		const struct pm_policy *p = &pol[member[i]];
		int k = 0;

		if (p->cur_khz != PM_UNKNOWN) {
			lo = p->cur_khz < lo ? p->cur_khz : lo;
			hi = p->cur_khz > hi ? p->cur_khz : hi;
		}
		while (k < nv && v[k] != p->cur_khz)
			k++;
		if (k == nv && nv == CUR_LIST_MAX) {
			many = true;
			continue;
		}
		if (k == nv) {
			v[nv] = p->cur_khz;
			pm_cpuset_zero(&at[nv++]);
		}
		pm_cpuspan_or(&at[k], &p->related);
	}
	if (many) {
		pm_out_printf(o, "  current %s - %s\n", khz(lo, a, 32),
			      khz(hi, b, 32));
		return;
	}
	pm_out_printf(o, "  current");
	for (int k = 0; k < nv; k++) {
		pm_cpulist_format(&at[k], cpus, sizeof(cpus));
		pm_out_printf(o, "%s %s", k ? "," : "", khz(v[k], a, 32));
		if (nv > 1)
			pm_out_printf(o, " (cpus %s)", cpus);
	}
	pm_out_printf(o, "\n");
}

/*
 * One policy, or a group of policies alike (member, m of them): their
 * names, CPUs and the files they share; the current frequencies of a
 * group on a line of their own.
 */
static void human_policy(struct pm_ctx *ctx, struct pm_out *o,
			 const struct pm_policy *pol, const int *member, int m)
{
	const struct pm_policy *p = &pol[member[0]];
	const uint64_t *f;
	uint64_t *buf;
	int nf = pmctl_policy_freqs(ctx, p, false, &f, &buf);
	struct pm_cpuset rel, aff;
	char cpus[256], afs[256], a[32], b[32], n1[32], n2[32];

	pm_cpuspan_get(&p->related, &rel);
	pm_cpuspan_get(&p->affected, &aff);
	for (int i = 1; i < m; i++) {
		pm_cpuspan_or(&rel, &pol[member[i]].related);
		pm_cpuspan_or(&aff, &pol[member[i]].affected);
	}
	pm_cpulist_format(&rel, cpus, sizeof(cpus));
	pm_cpulist_format(&aff, afs, sizeof(afs));
	pm_policy_folder(p, n1, sizeof(n1));
	if (m == 1)
		pm_out_printf(o, "%s: cpus %s", n1, cpus);
	else if (m == 2)
		pm_out_printf(o, "%s, %s: cpus %s", n1,
			      pm_policy_folder(&pol[member[1]], n2, sizeof(n2)),
			      cpus);
	else
		pm_out_printf(o, "%s ... %s (%d policies): cpus %s", n1,
			      pm_policy_folder(&pol[member[m - 1]], n2,
					  sizeof(n2)),
			      m, cpus);
	if (!pm_cpuset_equal(&rel, &aff))
		pm_out_printf(o, " (online %s)", afs[0] ? afs : "none");
	pm_out_printf(o, "\n  driver %s, governor %s\n",
		      p->driver[0] ? p->driver : "-",
		      p->governor[0] ? p->governor : "-");
	pm_out_printf(o, "  limits %s - %s", khz(p->min_khz, a, 32),
		      khz(p->max_khz, b, 32));
	pm_out_printf(o, " (hardware %s", khz(p->cpuinfo_min_khz, a, 32));
	pm_out_printf(o, " - %s)", khz(p->cpuinfo_max_khz, b, 32));
	if (m == 1)
		pm_out_printf(o, ", current %s\n", khz(p->cur_khz, a, 32));
	else
		pm_out_printf(o, "\n");
	if (m > 1)
		human_current(o, pol, member, m);
	if (p->available_governors[0])
		pm_out_printf(o, "  governors: %s\n", p->available_governors);
	if (nf > 0) {
		/* Wrapped to stay readable at 80 columns. */
		int col = print_len(o, "  frequencies:");

		for (int i = 0; i < nf; i++) {
			char w[40];
			int l = snprintf(w, sizeof(w), " %s%s",
					 khz(f[i], a, 32),
					 i + 1 < nf ? "," : "");

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
			      khz(p->bios_limit_khz, a, 32));
	free(buf);
}

/* Policies alike share one entry (a server's 128 policies: 6 lines, not
 * 768); JSON keeps every policy. */
static void human_policies(struct pmctl *p, const struct pm_policy *pol,
			   int n)
{
	bool *done = calloc((size_t)n + 1, sizeof(*done));
	int *member = calloc((size_t)n + 1, sizeof(*member));

	if (!done || !member)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		int m = 0;

		if (done[i])
			continue;
		for (int j = i; j < n; j++)
			if (!done[j] && alike(&pol[i], &pol[j])) {
				done[j] = true;
				member[m++] = j;
			}
		human_policy(&p->ctx, &p->o, pol, member, m);
	}
	free(done);
	free(member);
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
	/* Only the policies shown are read. */
	n = pm_policies_read_sel(&p->ctx,
				 PM_POL_ALL & ~(PM_POL_SPEED | PM_POL_TIS),
				 &sel, &pol);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (n == 0 && !pm_policies_list(&p->ctx, (unsigned[1]){ 0 }, 1)) {
		pm_policies_free(pol, n);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no cpufreq policies on this machine "
		       "(/sys/devices/system/cpu/cpufreq is empty or missing)");
	}
	pm_tool_out(&p->t, &p->o);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pm_out_obj_begin(&p->o, NULL);
		pm_out_arr_begin(&p->o, "policies", "policy");
		for (int i = 0; i < n; i++)
			pmctl_policy_json(&p->ctx, &p->o, &pol[i]);
		pm_out_arr_end(&p->o);
		pm_out_obj_end(&p->o);
	} else {
		human_policies(p, pol, n);
	}
	pm_tool_out_done(&p->t, &p->o);
	pm_policies_free(pol, n);
	return PM_EXIT_OK;
}

/* --------------------------------------------------------------- set */

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
		if (!pm_cpuspan_intersects(&pol[i].related, sel))
			continue;
		pm_policy_name(&pol[i], name, sizeof(name));
		if (pm_cpuspan_empty(&pol[i].affected)) {
			pm_note(&p->t, "%s: every CPU is offline, skipped",
				name);
			continue;
		}
		if (p->t.cpu) {
			struct pm_cpuset rest;

			pm_cpuspan_get(&pol[i].related, &rest);
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
	pmctl_select_cpus(p, &sel);
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
	pm_policies_free(pol, n);
	return code;
}
