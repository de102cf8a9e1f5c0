// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * From a point to writes, in an order that keeps every intermediate
 * state valid for the kernel (kernel-abi.md): CPUs online first, then
 * SMT, intel_pstate limits, cpufreq (governor before EPP, the limits so
 * that min never exceeds max), cpuidle, devfreq, the platform profile,
 * runtime PM, raw attributes, and CPUs offline last.  Everything this
 * machine cannot do is refused here, before the first write.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <strings.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "opp.h"

#define MAX_TUNABLES 16

static const struct opp_setting *get(const struct opp_point *pt,
				     const char *sec, const char *arg,
				     const char *key)
{
	for (int i = 0; i < pt->n; i++)
		if (!strcmp(pt->v[i].section, sec) &&
		    !strcmp(pt->v[i].arg, arg) && !strcmp(pt->v[i].key, key))
			return &pt->v[i];
	return NULL;
}

static bool onoff(const char *v)
{
	bool b = false;

	pm_parse_bool(v, &b);
	return b;
}

/* "FILE:LINE: [section] key: ", before a planner's errors. */
static const char *where_key(const struct opp_setting *s, const char *what,
			     char *buf, size_t size)
{
	size_t n;

	opp_where(s, buf, size);
	n = strlen(buf);
	snprintf(buf + n, size - n, "%s: ", what);
	return buf;
}

/* ---------------------------------------------------------------- cpu */

static void plan_cpu_online(struct opp *op, const struct opp_point *pt,
			    struct pm_writer *w, struct opp_stage *cp)
{
	const struct opp_setting *s = get(pt, "cpu", "", "online");
	char where[PM_PATH_MAX + 16], list[256];
	struct pm_hotplug h;
	struct pm_cpuset want, missing;

	pm_cpuset_zero(&cp->up);
	pm_cpuset_zero(&cp->down);
	cp->final = cp->cpus.online;
	if (!s)
		return;
	opp_where(s, where, sizeof(where));
	if (!strcmp(s->value, "all"))
		want = cp->cpus.present;
	else
		pm_cpulist_parse(s->value, &want);
	missing = want;
	pm_cpuset_andnot(&missing, &cp->cpus.present);
	if (!pm_cpuset_empty(&missing)) {
		pm_cpulist_format(&missing, list, sizeof(list));
		pm_die(&op->t, PM_EXIT_UNSUPPORTED,
		       "%s[cpu] online: cpus %s are not present here", where,
		       list);
	}
	if (pm_cpuset_empty(&want))
		pm_die(&op->t, PM_EXIT_USAGE,
		       "%s[cpu] online: at least one CPU must stay online",
		       where);
	/* The CPUs that change: online and not wanted, wanted and not. */
	cp->down = cp->cpus.online;
	pm_cpuset_andnot(&cp->down, &want);
	cp->up = want;
	pm_cpuset_andnot(&cp->up, &cp->cpus.online);
	h.up = cp->up;
	h.down = cp->down;
	h.where = where_key(s, "[cpu] online", where, sizeof(where));
	pm_hotplug_check(w, &cp->cpus, &h);
	cp->final = want;
}

static void plan_smt(const struct opp_point *pt, struct opp_stage *cp,
		     struct pm_writer *w)
{
	const struct opp_setting *s = get(pt, "cpu", "", "smt");
	char where[PM_PATH_MAX + 16];

	if (s)
		pm_smt_plan(w, &cp->cpus, s->value,
			    where_key(s, "[cpu] smt", where, sizeof(where)));
}

/* ---------------------------------------------------------------- pstate */

static void snapshot_tunables(struct pm_writer *w,
			      const struct pm_policy *pol, void *arg);

/* The [cpufreq] key that needs a running driver, if the point has one. */
static const struct opp_setting *freq_key(const struct opp_point *pt)
{
	for (int i = 0; i < pt->n; i++)
		if (!strcmp(pt->v[i].section, "cpufreq"))
			return &pt->v[i];
	return NULL;
}

/* [intel_pstate] or [amd_pstate] status: switched first of all. */
static void plan_status(struct opp *op, const struct opp_point *pt,
			struct pm_writer *w, struct opp_stage *st,
			const char *sec, const char *off)
{
	const struct opp_setting *s = get(pt, sec, "", "status"), *f;
	struct pm_status_switch sw = { .driver = sec,
				       .snap_tunables = snapshot_tunables,
				       .arg = op };
	char where[PM_PATH_MAX + 16], cur[32], what[48], wk[PM_PATH_MAX + 64];

	if (!s)
		return;
	opp_where(s, where, sizeof(where));
	snprintf(what, sizeof(what), "[%s] status", sec);
	pm_pstate_status_read(w, sec, where_key(s, what, wk, sizeof(wk)), cur,
			      sizeof(cur));
	/* Stopping the driver leaves nothing to set the rest with. */
	f = freq_key(pt);
	if (!strcmp(s->value, off) && f) {
		char fw[PM_PATH_MAX + 16];

		pm_die(&op->t, PM_EXIT_USAGE,
		       "%s[cpufreq] %s: no cpufreq driver would be left to "
		       "set it: %s%s = %s stops %s",
		       opp_where(f, fw, sizeof(fw)), f->key, where, what,
		       s->value, sec);
	}
	if (!strcmp(sec, "intel_pstate") && !strcmp(s->value, off))
		for (int i = 0; i < pt->n; i++)
			if (!strcmp(pt->v[i].section, sec) &&
			    strcmp(pt->v[i].key, "status")) {
				char kw[PM_PATH_MAX + 16];

				pm_die(&op->t, PM_EXIT_USAGE,
				       "%s[%s] %s: intel_pstate would not "
				       "run to take it: %s%s = off",
				       opp_where(&pt->v[i], kw, sizeof(kw)),
				       sec, pt->v[i].key, where, what);
			}
	sw.value = s->value;
	if (pm_pstate_status_plan(w, &sw, cur))
		st->reshape = true;
}

static void plan_intel(const struct opp_point *pt, struct pm_writer *w)
{
	const struct opp_setting *mn = get(pt, "intel_pstate", "",
					   "min_perf_pct");
	const struct opp_setting *mx = get(pt, "intel_pstate", "",
					   "max_perf_pct");
	const struct opp_setting *nt = get(pt, "intel_pstate", "",
					   "no_turbo");
	char where[PM_PATH_MAX + 32], wmin[PM_PATH_MAX + 32];
	struct pm_pstate ps = { .has_min = mn, .has_max = mx,
				.no_turbo = nt ? onoff(nt->value) : -1 };

	if (!mn && !mx && !nt)
		return;
	if (mn)
		pm_parse_pct(mn->value, &ps.min);
	if (mx)
		pm_parse_pct(mx->value, &ps.max);
	ps.where = where_key(mn ? mn : mx ? mx : nt, "[intel_pstate]", where,
			     sizeof(where));
	if (mn) {
		char at[PM_PATH_MAX + 16];

		snprintf(wmin, sizeof(wmin), "%s[intel_pstate] ",
			 opp_where(mn, at, sizeof(at)));
		ps.where_min = wmin;
	}
	pm_pstate_plan(w, &ps);
}

/* ---------------------------------------------------------------- cpufreq */

/* The [cpufreq] settings of one policy: the plain section, then every
 * [cpufreq cpus=LIST] that names one of its CPUs, in file order. */
static const struct opp_setting *pol_get(const struct opp_point *pt,
					 const struct pm_policy *pol,
					 const char *key)
{
	const struct opp_setting *best = NULL;

	for (int i = 0; i < pt->n; i++) {
		const struct opp_setting *s = &pt->v[i];
		struct pm_cpuset set;

		if (strcmp(s->section, "cpufreq") || strcmp(s->key, key))
			continue;
		if (!s->arg[0]) {
			if (!best || !best->arg[0])
				best = s;
			continue;
		}
		if (pm_cpulist_parse(s->arg + 5, &set) == 0 &&
		    pm_cpuspan_intersects(&pol->related, &set))
			best = s;
	}
	return best;
}

/* The first governor of "a|b|c" the policy offers, or exit 3. */
static const char *pick_governor(struct opp *op, const struct opp_setting *s,
				 const struct pm_policy *pol, char *out,
				 size_t size)
{
	char tmp[256], *save = NULL, where[PM_PATH_MAX + 16], name[300];

	snprintf(tmp, sizeof(tmp), "%s", s->value);
	for (char *g = strtok_r(tmp, "| ", &save); g;
	     g = strtok_r(NULL, "| ", &save))
		if (pm_word_find(pol->available_governors, g, out, size))
			return out;
	opp_where(s, where, sizeof(where));
	pm_die(&op->t, PM_EXIT_UNSUPPORTED,
	       "%s[cpufreq] governor: none of '%s' is available on %s "
	       "(available: %s)",
	       where, s->value, pm_policy_name(pol, name, sizeof(name)),
	       pol->available_governors[0] ? pol->available_governors :
					     "none");
}

static void check_field(struct opp *op, struct pm_fset f,
			const struct pm_policy *pol,
			const struct opp_setting *s, int which)
{
	char where[PM_PATH_MAX + 16], gov[PM_NAME_MAX];

	if (!s)
		return;
	f.has_min = which == 0 && f.has_min;
	f.has_max = which == 1 && f.has_max;
	f.has_speed = which == 2 && f.has_speed;
	if (which != 3)
		f.epp = NULL;
	f.where = opp_where(s, where, sizeof(where));
	pm_fset_check(&op->t, &f, pol, gov, sizeof(gov));
}

/* A policy leaves its governor: when that stops the governor on the
 * last policy, the kernel drops its tunables, and a rollback that starts
 * it again gets the defaults.  Their values now, for the rollback. */
static void snapshot_tunables(struct pm_writer *w,
			      const struct pm_policy *pol, void *arg)
{
	struct opp *op = arg;
	char up[PM_PATH_MAX] = "", upv[32] = "";

	/* No folder of the governor's (one without tunables, or a kernel
	 * that keeps none): nothing to look for, file by file. */
	if (!opp_tunable_governor(pol->governor) ||
	    !pm_gov_folder(&op->ctx, pol, pol->governor))
		return;
	for (int k = 0; opp_tunable_at(k); k++) {
		const struct opp_tunable *t = opp_tunable_at(k);
		char path[PM_PATH_MAX], v[32];
		bool dup = false;
		uint64_t u;

		if (strcasecmp(t->gov, pol->governor) ||
		    !pm_gov_tunable(&op->ctx, pol, t->gov, t->name, path,
				    sizeof(path), NULL, 0))
			continue;
		for (int i = 0; i < w->txn.n && !dup; i++)
			dup = !strcmp(w->txn.w[i].path, path);
		if (dup || pm_attr_read(&op->ctx, path, v, sizeof(v)) <= 0)
			continue;
		/* A rollback restores in reverse, into conservative's fresh
		 * 80/20: an up_threshold above 20 goes first (planned last),
		 * else down_threshold does: down stays below up throughout. */
		if (!strcmp(t->gov, "conservative") &&
		    !strcmp(t->name, "up_threshold") &&
		    pm_parse_u64(v, &u) == 0 && u > 20) {
			snprintf(up, sizeof(up), "%s", path);
			snprintf(upv, sizeof(upv), "%s", v);
			continue;
		}
		pm_writer_plan(w, path, v, v, PM_W_RESTORE, NULL);
	}
	if (up[0])
		pm_writer_plan(w, up, upv, upv, PM_W_RESTORE, NULL);
}

static void plan_cpufreq(struct opp *op, const struct opp_point *pt,
			 const struct opp_stage *cp, struct pm_writer *w,
			 struct pm_policy *pol, int n)
{
	static const char *const keys[] = { "governor", "min", "max", "speed",
					    "epp", NULL };
	bool any = false;

	for (int k = 0; keys[k]; k++)
		for (int i = 0; i < pt->n; i++)
			any |= !strcmp(pt->v[i].section, "cpufreq") &&
			       !strcmp(pt->v[i].key, keys[k]);
	if (!any)
		return;
	if (n == 0) {
		for (int i = 0; i < pt->n; i++) {
			char where[PM_PATH_MAX + 16];

			if (strcmp(pt->v[i].section, "cpufreq") ||
			    !strcmp(pt->v[i].key, "boost"))
				continue;
			pm_die(&op->t, PM_EXIT_UNSUPPORTED,
			       "%s[cpufreq]: no cpufreq policies on this "
			       "machine", opp_where(&pt->v[i], where,
						     sizeof(where)));
		}
	}
	for (int i = 0; i < n; i++) {
		const struct opp_setting *g = pol_get(pt, &pol[i], "governor");
		const struct opp_setting *mn = pol_get(pt, &pol[i], "min");
		const struct opp_setting *mx = pol_get(pt, &pol[i], "max");
		const struct opp_setting *sp = pol_get(pt, &pol[i], "speed");
		const struct opp_setting *ep = pol_get(pt, &pol[i], "epp");
		char gov[PM_NAME_MAX], kgov[PM_NAME_MAX], where[PM_PATH_MAX + 16];
		struct pm_fset f = { .keys = true };

		/* A policy without an online CPU at the end is left alone
		 * (the kernel refuses its files with EBUSY). */
		if (!pm_cpuspan_intersects(&pol[i].related, &cp->final) ||
		    pm_cpuspan_empty(&pol[i].affected))
			continue;
		if (g)
			f.governor = pick_governor(op, g, &pol[i], gov,
						   sizeof(gov));
		if ((f.has_min = mn))
			pm_parse_freq_khz(mn->value, &f.min);
		if ((f.has_max = mx))
			pm_parse_freq_khz(mx->value, &f.max);
		if ((f.has_speed = sp))
			pm_parse_freq_khz(sp->value, &f.speed);
		f.epp = ep ? ep->value : NULL;
		if (mn && mx && f.min > f.max) {
			char a[32], b[32];

			pm_die(&op->t, PM_EXIT_USAGE,
			       "%s[cpufreq] min %s is above max %s",
			       opp_where(mn, where, sizeof(where)),
			       pm_fmt_khz(f.min, a, sizeof(a)),
			       pm_fmt_khz(f.max, b, sizeof(b)));
		}
		check_field(op, f, &pol[i], mn, 0);
		check_field(op, f, &pol[i], mx, 1);
		check_field(op, f, &pol[i], sp, 2);
		check_field(op, f, &pol[i], ep, 3);
		f.where = NULL;
		pm_fset_check(&op->t, &f, &pol[i], kgov, sizeof(kgov));
		if (kgov[0] && strcasecmp(kgov, pol[i].governor))
			snapshot_tunables(w, &pol[i], op);
		/* The governor is planned even when it reads the same: its
		 * write is skipped by the plan then, not here. */
		pm_fset_plan(w, &f, &pol[i], kgov);
	}
}

static void plan_boost(struct opp *op, const struct opp_point *pt,
		       struct pm_writer *w, const struct pm_policy *pol, int n)
{
	const struct opp_setting *s = get(pt, "cpufreq", "", "boost");
	char where[PM_PATH_MAX + 32];
	struct pm_boost b = { .on = false };
	int *pol_on;

	for (int i = 0; i < pt->n && !s; i++)
		if (!strcmp(pt->v[i].section, "cpufreq") &&
		    !strcmp(pt->v[i].key, "boost"))
			s = &pt->v[i];
	if (!s)
		return;
	pol_on = calloc((size_t)n + 1, sizeof(*pol_on));
	if (!pol_on)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	/* Without a global switch, each policy as its own lines say. */
	for (int i = 0; i < n; i++) {
		const struct opp_setting *ps = pol_get(pt, &pol[i], "boost");

		pol_on[i] = !ps ? -1 : onoff(ps->value) ? 1 : 0;
	}
	b.on = onoff(s->value);
	b.pol_on = pol_on;
	b.where = where_key(s, "[cpufreq] boost", where, sizeof(where));
	pm_boost_plan(w, &b, pol, n);
	free(pol_on);
}

/* ---------------------------------------------------------------- tunables */

/* "GOV.NAME" in a governor list "a|b|c". */
static bool gov_listed(const char *list, const char *gov)
{
	char tmp[256], *save = NULL;

	snprintf(tmp, sizeof(tmp), "%s", list);
	for (char *g = strtok_r(tmp, "| ", &save); g;
	     g = strtok_r(NULL, "| ", &save))
		if (!strcasecmp(g, gov))
			return true;
	return false;
}

struct tun_plan {
	const struct opp_tunable *t;
	const struct opp_setting *s;
	char path[PM_PATH_MAX], alt[PM_PATH_MAX];
	uint32_t v;
	bool late;
};

/* One policy's tunable: where it is, or exit 2/3; false to leave it. */
static bool tun_locate(struct opp *op, const struct opp_point *pt,
		       const struct pm_policy *pol, const char *fin,
		       int *layout, int n, const struct pm_policy *all,
		       struct tun_plan *tp)
{
	const struct opp_setting *g = pol_get(pt, pol, "governor");
	char where[PM_PATH_MAX + 16], name[300], pp[PM_PATH_MAX],
		gl[PM_PATH_MAX];

	opp_where(tp->s, where, sizeof(where));
	pm_policy_name(pol, name, sizeof(name));
	if (strcasecmp(fin, tp->t->gov)) {
		/* A fallback not taken: its tunables are not for here. */
		if (g && gov_listed(g->value, tp->t->gov))
			return false;
		if (g)
			pm_die(&op->t, PM_EXIT_USAGE,
			       "%s[cpufreq] %s: %s gets governor %s, not %s",
			       where, tp->s->key, name, fin, tp->t->gov);
		pm_die(&op->t, PM_EXIT_UNSUPPORTED,
		       "%s[cpufreq] %s: %s runs governor %s, not %s, and "
		       "the point does not set governor",
		       where, tp->s->key, name, fin[0] ? fin : "(none)",
		       tp->t->gov);
	}
	tp->alt[0] = '\0';
	tp->late = false;
	if (pm_gov_tunable(&op->ctx, pol, tp->t->gov, tp->t->name, gl,
			   sizeof(gl), pp, sizeof(pp))) {
		snprintf(tp->path, sizeof(tp->path), "%s", gl);
	} else if (!strcasecmp(pol->governor, tp->t->gov)) {
		pm_die(&op->t, PM_EXIT_UNSUPPORTED,
		       "%s[cpufreq] %s: %s runs %s, which has no %s here "
		       "(neither %s nor %s)",
		       where, tp->s->key, name, tp->t->gov, tp->t->name, pp,
		       gl);
	} else {
		/* The governor starts in this point: its folder appears
		 * then, and the file is read just before it is written. */
		if (*layout < 0)
			*layout = pm_gov_layout(&op->ctx, all, n);
		tp->late = true;
		snprintf(tp->path, sizeof(tp->path), "%s",
			 *layout == 1 ? pp : gl);
		if (*layout == 0)
			snprintf(tp->alt, sizeof(tp->alt), "%s", pp);
	}
	return true;
}

/* The value tunable NAME has now, in the folder of tp, or the kernel's
 * default dflt for a governor that starts (a fresh set of tunables). */
static uint32_t tun_now(struct opp *op, const struct tun_plan *tp,
			const char *name, uint32_t dflt)
{
	char path[PM_PATH_MAX];
	uint64_t v;

	snprintf(path, sizeof(path), "%.*s/%s",
		 (int)(strrchr(tp->path, '/') - tp->path), tp->path, name);
	if (!tp->late && pm_attr_read_u64(&op->ctx, path, &v) == 0 &&
	    v <= UINT32_MAX)
		return (uint32_t)v;
	return dflt;
}

/* conservative refuses a down_threshold not below up_threshold at every
 * write (EINVAL): the window must hold, and when it moves down (the new
 * up not above the current down), down_threshold is written first. */
static void order_window(struct opp *op, struct tun_plan *tp, int up,
			 int down)
{
	const struct tun_plan *any = &tp[up >= 0 ? up : down];
	/* The kernel's defaults: 80 and 20. */
	uint32_t cd = tun_now(op, any, "down_threshold", 20);
	uint32_t nu = up >= 0 ? tp[up].v : tun_now(op, any, "up_threshold", 80);
	uint32_t nd = down >= 0 ? tp[down].v : cd;
	char where[PM_PATH_MAX + 16];
	struct tun_plan x;

	if (nd >= nu && down < 0)
		pm_die(&op->t, PM_EXIT_USAGE,
		       "%s[cpufreq] conservative.up_threshold %u is not above "
		       "down_threshold %u (set conservative.down_threshold "
		       "too)",
		       opp_where(tp[up].s, where, sizeof(where)), nu, nd);
	if (nd >= nu)
		pm_die(&op->t, PM_EXIT_USAGE,
		       "%s[cpufreq] conservative.down_threshold %u is not "
		       "below up_threshold %u%s",
		       opp_where(tp[down].s, where, sizeof(where)), nd, nu,
		       up < 0 ? " (set conservative.up_threshold too)" : "");
	if (up < 0 || down < 0 || nu > cd)
		return;
	x = tp[up];
	tp[up] = tp[down];
	tp[down] = x;
}

static void tun_write(struct opp *op, struct pm_writer *w,
		      const struct tun_plan *tp, const struct pm_policy *pol)
{
	char val[16], where[PM_PATH_MAX + 16], name[300];
	int k;

	snprintf(val, sizeof(val), "%u", tp->v);
	opp_where(tp->s, where, sizeof(where));
	for (int i = 0; i < w->txn.n; i++) {
		struct pm_write *x = &w->txn.w[i];

		if (strcmp(x->path, tp->path) || (x->flags & PM_W_RESTORE))
			continue;
		/* One global file for several policies: one value. */
		if (strcmp(x->val, val))
			pm_die(&op->t, PM_EXIT_UNSUPPORTED,
			       "%s[cpufreq] %s: the %s tunables are %s on "
			       "this machine (%s), so %s cannot have %s "
			       "while another policy has %s",
			       where, tp->s->key, tp->t->gov,
			       tp->late && tp->alt[0] ? "not known to be "
							"per policy" :
							"global",
			       pol->driver[0] ? pol->driver : "no driver",
			       pm_policy_name(pol, name, sizeof(name)), val,
			       x->val);
		if (!tp->alt[0])
			return;
	}
	k = pm_writer_plan(w, tp->path, NULL, val,
			   tp->late ? PM_W_NOREAD | PM_W_LATE : 0, NULL);
	if (k >= 0 && tp->alt[0] && pm_txn_set_alt(&w->txn, k, tp->alt) < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
}

/* [cpufreq] GOV.NAME = N of every policy, after all governor writes (a
 * global folder appears with the first policy that starts GOV).
 * conservative's thresholds keep down below up at every step: moving
 * the window up, up_threshold first; down, down_threshold first. */
static void plan_tunables(struct opp *op, const struct opp_point *pt,
			  const struct opp_stage *cp, struct pm_writer *w,
			  const struct pm_policy *pol, int n)
{
	int layout = -1, nt = 0;
	bool any = false;

	while (opp_tunable_at(nt) && nt < MAX_TUNABLES)
		nt++;
	for (int i = 0; i < pt->n; i++)
		any |= !strcmp(pt->v[i].section, "cpufreq") &&
		       strchr(pt->v[i].key, '.');
	if (!any)
		return;
	if (n == 0) {
		for (int i = 0; i < pt->n; i++) {
			char where[PM_PATH_MAX + 16];

			if (!strcmp(pt->v[i].section, "cpufreq") &&
			    strchr(pt->v[i].key, '.'))
				pm_die(&op->t, PM_EXIT_UNSUPPORTED,
				       "%s[cpufreq]: no cpufreq policies on "
				       "this machine",
				       opp_where(&pt->v[i], where,
						 sizeof(where)));
		}
	}
	for (int i = 0; i < n; i++) {
		const struct opp_setting *g = pol_get(pt, &pol[i], "governor");
		/* Every tunable opp-set knows, at most once each. */
		static struct tun_plan tp[MAX_TUNABLES];
		int up = -1, down = -1, m = 0;
		char fin[PM_NAME_MAX];

		if (!pm_cpuspan_intersects(&pol[i].related, &cp->final) ||
		    pm_cpuspan_empty(&pol[i].affected))
			continue;
		if (g)
			pick_governor(op, g, &pol[i], fin, sizeof(fin));
		else
			snprintf(fin, sizeof(fin), "%s", pol[i].governor);
		for (int k = 0; k < nt; k++) {
			const struct opp_tunable *t = opp_tunable_at(k);
			char key[80];

			snprintf(key, sizeof(key), "%s.%s", t->gov, t->name);
			tp[m].t = t;
			tp[m].s = pol_get(pt, &pol[i], key);
			if (!tp[m].s || !tun_locate(op, pt, &pol[i], fin,
						    &layout, n, pol, &tp[m]))
				continue;
			pm_parse_u32(tp[m].s->value, &tp[m].v);
			if (!strcmp(t->gov, "conservative") &&
			    !strcmp(t->name, "up_threshold"))
				up = m;
			if (!strcmp(t->gov, "conservative") &&
			    !strcmp(t->name, "down_threshold"))
				down = m;
			m++;
		}
		if (up >= 0 || down >= 0)
			order_window(op, tp, up, down);
		for (int k = 0; k < m; k++)
			tun_write(op, w, &tp[k], &pol[i]);
	}
}

/* ---------------------------------------------------------------- cpuidle */

/* Words of a [cpuidle] disable line (its value is at most 255 bytes). */
#define MAX_LISTED 128

static void plan_cpuidle(const struct opp_point *pt,
			 const struct opp_stage *cp, struct pm_writer *w)
{
	const struct opp_setting *g = get(pt, "cpuidle", "", "governor");
	const struct opp_setting *d = get(pt, "cpuidle", "", "disable");
	const struct opp_setting *l = get(pt, "cpuidle", "", "max_latency");
	char where[PM_PATH_MAX + 32], list[256], *save = NULL;
	char *names[MAX_LISTED];
	/* Every state: those listed or above max_latency disabled. */
	struct pm_idle_set r = { .rest = true, .names = names };

	if (g)
		pm_idle_governor_plan(w, g->value,
				      where_key(g, "[cpuidle] governor", where,
						sizeof(where)));
	if (!d && !l)
		return;
	/* The CPUs that have idle states to read: online now and at the
	 * point (those the point brings online, once it has). */
	r.cpus = cp->final;
	pm_cpuset_and(&r.cpus, &cp->cpus.online);
	if (pm_cpuset_empty(&r.cpus))
		return;
	if (l) {
		r.has_latency = true;
		pm_parse_u64(l->value, &r.latency_us);
	}
	snprintf(list, sizeof(list), "%s", d ? d->value : "");
	for (char *s = strtok_r(list, " ,", &save); s && r.n_names < MAX_LISTED;
	     s = strtok_r(NULL, " ,", &save))
		names[r.n_names++] = s;
	r.where = where_key(d ? d : l,
			    d ? "[cpuidle] disable" : "[cpuidle] max_latency",
			    where, sizeof(where));
	pm_idle_plan(w, &r);
}

/* ---------------------------------------------------------------- devfreq */

static void plan_devfreq(struct opp *op, const struct opp_point *pt,
			 struct pm_writer *w)
{
	struct pm_devfreq *df = NULL;
	int n = -1;

	for (int i = 0; i < pt->n; i++) {
		const struct opp_setting *s = &pt->v[i], *g, *mn, *mx;
		char where[PM_PATH_MAX + 16];
		struct pm_devfreq *d = NULL;
		uint64_t min = 0, max = 0;
		bool first = true;

		if (strcmp(s->section, "devfreq"))
			continue;
		for (int j = 0; j < i; j++)
			first &= strcmp(pt->v[j].section, "devfreq") ||
				 strcmp(pt->v[j].arg, s->arg);
		if (!first)
			continue;
		if (n < 0)
			n = pm_devfreqs_read(&op->ctx, &df);
		for (int j = 0; j < n; j++)
			if (!strcmp(df[j].name, s->arg))
				d = &df[j];
		opp_where(s, where, sizeof(where));
		if (!d)
			pm_die(&op->t, PM_EXIT_UNSUPPORTED,
			       "%s[devfreq %s]: no such devfreq device here "
			       "(pmctl devfreq lists them)",
			       where, s->arg);
		g = get(pt, "devfreq", s->arg, "governor");
		mn = get(pt, "devfreq", s->arg, "min");
		mx = get(pt, "devfreq", s->arg, "max");
		if (mn)
			pm_parse_freq_hz(mn->value, &min);
		if (mx)
			pm_parse_freq_hz(mx->value, &max);
		if (min && max && min > max) {
			char a[32], b[32];

			pm_die(&op->t, PM_EXIT_USAGE,
			       "%s[devfreq %s] min %s is above max %s",
			       opp_where(mn, where, sizeof(where)), s->arg,
			       pm_fmt_hz(min, a, sizeof(a)),
			       pm_fmt_hz(max, b, sizeof(b)));
		}
		/* Named by the line of the first setting it checks. */
		opp_where(g ? g : mn ? mn : mx, where, sizeof(where));
		pm_devfreq_plan(w, d, g ? g->value : NULL, min, max, where);
	}
	free(df);
}

/* ---------------------------------------------------------------- others */

static void plan_profile(const struct opp_point *pt, struct pm_writer *w)
{
	const struct opp_setting *s = get(pt, "platform", "", "profile");
	char where[PM_PATH_MAX + 40];

	if (!s)
		return;
	opp_where(s, where, sizeof(where));
	snprintf(where + strlen(where), sizeof(where) - strlen(where),
		 "[platform] profile: ");
	pm_profile_plan(w, s->value, where);
}

/* [runtime_pm] exclude_KEY's list, TLP's defaults without it. */
static void rpm_exclusions(const struct opp_point *pt, char *cls,
			   char *drv, size_t size)
{
	const struct opp_setting *c = get(pt, "runtime_pm", "",
					  "exclude_class");
	const struct opp_setting *d = get(pt, "runtime_pm", "",
					  "exclude_driver");
	const char *bad;
	size_t n;

	/* Checked when the point was read. */
	if (pm_pci_class_parse(c ? c->value : PM_RPM_EXCLUDE_CLASS, true, cls,
			       size, &bad, &n) < 0)
		cls[0] = '\0';
	if (pm_driver_list_parse(d ? d->value : PM_RPM_EXCLUDE_DRIVER, true,
				 drv, size, &bad, &n) < 0)
		drv[0] = '\0';
}

/* [runtime_pm]: a device by its path; every device of a bus, of a PCI
 * class or bound to a driver, but the excluded ones. */
static void plan_runtime(const struct opp_point *pt, struct pm_writer *w)
{
	char xc[256], xd[256], cls[256];
	const char *bad;
	size_t n;

	rpm_exclusions(pt, xc, xd, sizeof(xc));
	for (int i = 0; i < pt->n; i++) {
		const struct opp_setting *s = &pt->v[i];
		char where[2 * PM_PATH_MAX + 64];
		struct pm_devreq r = { 0 };

		if (strcmp(s->section, "runtime_pm") ||
		    !strncmp(s->key, "exclude_", 8))
			continue;
		opp_where(s, where, sizeof(where));
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "[runtime_pm] %s: ", s->key);
		r.name = s->key;
		if (!strncmp(s->key, "class.", 6) &&
		    pm_pci_class_parse(s->key + 6, false, cls, sizeof(cls),
				       &bad, &n) == 0)
			r.cls = cls;
		else if (!strncmp(s->key, "driver.", 7))
			r.driver = s->key + 7;
		else
			r.bus = s->key[0] != '/';
		r.x_class = xc;
		r.x_driver = xd;
		r.control = s->value;
		r.where = where;
		pm_device_plan(w, &r);
	}
}

/* "FILE:LINE: [SEC] KEY: " of s into where. */
static const char *where_of(const struct opp_setting *s, char *where,
			    size_t size)
{
	opp_where(s, where, size);
	snprintf(where + strlen(where), size - strlen(where), "[%s] %.63s: ",
		 s->section, s->key);
	return where;
}

/* [usb]: autosuspend and its delay of every device but the excluded. */
static void plan_usb(const struct opp_point *pt, struct pm_writer *w)
{
	const struct opp_setting *a = get(pt, "usb", "", "autosuspend");
	const struct opp_setting *d = get(pt, "usb", "",
					  "autosuspend_delay_ms");
	const struct opp_setting *x = get(pt, "usb", "", "exclude");
	/* codes: the room v_list (point.c) checked the list in. */
	char wa[PM_PATH_MAX + 64], wd[PM_PATH_MAX + 64], codes[256];
	char control[16];
	struct pm_usb_req r = { 0 };
	const char *bad;
	size_t n;

	if (!a && !d)
		return;
	/* By default the classes that break: keyboards and mice, sound
	 * cards, printers (TLP's denylist). */
	if (pm_usb_exclude_parse(x ? x->value : "input,audio,printer", codes,
				 sizeof(codes), &bad, &n) < 0)
		codes[0] = '\0';
	if (a && pm_tune_value_parse(PM_TUNE_USB_AUTOSUSPEND, a->value,
				     control, sizeof(control)) == 0)
		r.control = control;
	r.delay_ms = d ? d->value : NULL;
	r.exclude = codes;
	r.where = a ? where_of(a, wa, sizeof(wa)) : "";
	r.where_delay = d ? where_of(d, wd, sizeof(wd)) : "";
	pm_usb_plan(w, &r);
}

/* [sata], [pcie], [audio], [sysctl]: the kernel's words of each value. */
static void plan_tune(const struct opp_point *pt, struct pm_writer *w)
{
	char where[PM_PATH_MAX + 64], v[64];

	for (int i = 0; i < pt->n; i++) {
		const struct opp_setting *s = &pt->v[i];
		int k = -1;

		if (!strcmp(s->section, "sata"))
			k = PM_TUNE_SATA_LINK;
		else if (!strcmp(s->section, "pcie"))
			k = PM_TUNE_PCIE_ASPM;
		else if (!strcmp(s->section, "audio"))
			k = strcmp(s->key, "power_save") ?
				    PM_TUNE_AUDIO_CONTROLLER :
				    PM_TUNE_AUDIO_POWER_SAVE;
		else if (!strcmp(s->section, "sysctl"))
			k = pm_sysctl_kind(s->key);
		if (k < 0 || pm_tune_value_parse((enum pm_tune_kind)k,
						 s->value, v, sizeof(v)) < 0)
			continue;
		where_of(s, where, sizeof(where));
		if (k == PM_TUNE_SATA_LINK)
			pm_sata_plan(w, v, where);
		else
			pm_tune_file_plan(w, (enum pm_tune_kind)k, v, where);
	}
}

/* [wifi]: every wireless interface's power save, through nl80211, but
 * the excluded ones. */
static void plan_wifi(const struct opp_point *pt, struct pm_writer *w)
{
	const struct opp_setting *s = get(pt, "wifi", "", "power_save");
	const struct opp_setting *x = get(pt, "wifi", "", "exclude");
	char where[PM_PATH_MAX + 64], v[8], names[256];
	const char *bad;
	size_t n;

	if (!s || pm_tune_value_parse(PM_TUNE_WIFI_PS, s->value, v,
				      sizeof(v)) < 0)
		return;
	if (!x || pm_ifname_list_parse(x->value, names, sizeof(names), &bad,
				       &n) < 0)
		names[0] = '\0';
	pm_wifi_plan(w, v, names, where_of(s, where, sizeof(where)));
}

/* [sysfs]: raw attributes below /sys. */
static void plan_sysfs(const struct opp_point *pt, struct pm_writer *w)
{
	for (int i = 0; i < pt->n; i++) {
		const struct opp_setting *s = &pt->v[i];
		char where[PM_PATH_MAX + 40];

		if (strcmp(s->section, "sysfs"))
			continue;
		opp_where(s, where, sizeof(where));
		snprintf(where + strlen(where), sizeof(where) - strlen(where),
			 "[sysfs] ");
		pm_attr_plan(w, s->key, s->value, where);
	}
}

/* Only the policy files the point's [cpufreq] keys need. */
static unsigned policy_fields(const struct opp_point *pt)
{
	unsigned f = PM_POL_DRIVER | PM_POL_GOVERNOR;

	for (int i = 0; i < pt->n; i++) {
		const char *k = pt->v[i].key;

		if (strcmp(pt->v[i].section, "cpufreq"))
			continue;
		if (!strcmp(k, "min") || !strcmp(k, "max") ||
		    !strcmp(k, "speed"))
			f |= PM_POL_LIMITS;
		if (!strcmp(k, "speed"))
			f |= PM_POL_SPEED;
		if (!strcmp(k, "epp"))
			f |= PM_POL_EPP;
		if (!strcmp(k, "boost"))
			f |= PM_POL_BOOST;
	}
	return f;
}

void opp_plan_first(struct opp *op, const struct opp_point *pt,
		    struct pm_writer *w, struct opp_stage *st)
{
	memset(st, 0, sizeof(*st));
	if (pm_cpus_read(&op->ctx, &st->cpus) < 0)
		pm_die(&op->t, PM_EXIT_UNSUPPORTED, "cannot read the CPUs");
	plan_cpu_online(op, pt, w, st);
	plan_status(op, pt, w, st, "intel_pstate", "off");
	plan_status(op, pt, w, st, "amd_pstate", "disable");
	pm_hotplug_plan(w, &st->up, true);
	plan_smt(pt, st, w);
}

/* Under --dry-run, what the plan shown leaves out, once. */
static void note_later(struct opp *op, const struct opp_stage *st,
		       const char *fmt, const char *arg)
{
	if (op->t.dry_run && !st->applied)
		pm_note(&op->t, fmt, arg);
}

/* A policy's online CPUs once the first stage brought some up. */
static void online_cpus(struct opp *op, struct pm_policy *pol,
			const struct pm_cpuset *online)
{
	struct pm_cpuset aff;

	pm_cpuspan_get(&pol->related, &aff);
	pm_cpuset_and(&aff, online);
	if (pm_cpuspan_set(&pol->affected, &aff) < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
}

void opp_plan_rest(struct opp *op, const struct opp_point *pt,
		   struct pm_writer *w, struct opp_stage *st)
{
	struct pm_policy *pol = NULL;
	char list[256];
	int n;

	if (st->applied) {
		struct pm_cpuset up = st->up;

		/* Read again what the first stage changed; the CPUs it
		 * brought online are online (and read back so). */
		if (pm_cpus_read(&op->ctx, &st->cpus) < 0)
			pm_die(&op->t, PM_EXIT_FAIL, "cannot read the CPUs");
		pm_cpuset_or(&st->cpus.online, &up);
	}
	if (!pm_cpuset_empty(&st->up)) {
		pm_cpulist_format(&st->up, list, sizeof(list));
		note_later(op, st,
			   "cpus %s are offline now: the writes to their "
			   "policies and idle states are planned once the "
			   "point brings them online, and not shown",
			   list);
	}
	if (st->reshape && !st->applied) {
		/* The policies the switch makes are not known before it. */
		note_later(op, st,
			   "%s: the driver's status switch recreates every "
			   "cpufreq policy: the [cpufreq] and [intel_pstate] "
			   "writes are planned after it, and not shown",
			   pt->name);
	} else {
		plan_intel(pt, w);
		n = pm_policies_read(&op->ctx, policy_fields(pt), &pol);
		if (n < 0)
			pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
		for (int i = 0; i < n; i++)
			if (pm_cpuspan_intersects(&pol[i].related, &st->up))
				online_cpus(op, &pol[i], &st->cpus.online);
		plan_cpufreq(op, pt, st, w, pol, n);
		plan_tunables(op, pt, st, w, pol, n);
		plan_boost(op, pt, w, pol, n);
		pm_policies_free(pol, n);
	}
	plan_cpuidle(pt, st, w);
	plan_devfreq(op, pt, w);
	plan_profile(pt, w);
	plan_runtime(pt, w);
	plan_usb(pt, w);
	plan_tune(pt, w);
	plan_wifi(pt, w);
	opp_plan_supply(pt, w);
	plan_sysfs(pt, w);
	pm_hotplug_plan(w, &st->down, false);
}

void opp_plan_devices(const struct opp_point *pt, struct pm_writer *w)
{
	plan_runtime(pt, w);
	plan_usb(pt, w);
}

void opp_plan(struct opp *op, const struct opp_point *pt,
	      struct pm_writer *w)
{
	struct opp_stage st;

	opp_plan_first(op, pt, w, &st);
	opp_plan_rest(op, pt, w, &st);
}
