// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A cpufreq policy change (governor, min, max, speed, EPP) and a devfreq
 * device change (governor, min, max), shared by pmctl and opp-set:
 * checked against what the driver offers before anything is written
 * (exit 2 or 3), then planned in an order where no intermediate state
 * has min above max.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fset.h"
#include "core.h"
#include "txn.h"
#include "parse.h"
#include "cpufreq.h"
#include "devfreq.h"
#include "tool.h"
#include "writer.h"

/* A raw EPP is a byte of the HWP request MSR. */
#define EPP_RAW_MAX 255

/* "--min" for an option, "min" for a point file's key. */
static const char *opt(const struct pm_fset *f, const char *name, char *buf,
		       size_t size)
{
	snprintf(buf, size, "%s%s", f->keys ? "" : "--", name);
	return buf;
}

/* How to ask for a governor: "--governor G" or "governor = G". */
static const char *ask_gov(const struct pm_fset *f, const char *g, char *buf,
			   size_t size)
{
	snprintf(buf, size, f->keys ? "governor = %s" : "--governor %s", g);
	return buf;
}

static const char *where(const struct pm_fset *f)
{
	return f->where ? f->where : "";
}

static void check_range(struct pm_tool *t, const struct pm_fset *f,
			const struct pm_policy *pol, const char *name,
			uint64_t khz)
{
	char pn[300], a[32], b[32], c[32], o[32];

	if (pol->cpuinfo_min_khz == PM_UNKNOWN ||
	    pol->cpuinfo_max_khz == PM_UNKNOWN)
		return;
	if (khz >= pol->cpuinfo_min_khz && khz <= pol->cpuinfo_max_khz)
		return;
	pm_die(t, PM_EXIT_USAGE,
	       "%s%s %s is outside the hardware range of %s: %s - %s",
	       where(f), opt(f, name, o, sizeof(o)),
	       pm_fmt_khz(khz, a, sizeof(a)),
	       pm_policy_name(pol, pn, sizeof(pn)),
	       pm_fmt_khz(pol->cpuinfo_min_khz, b, sizeof(b)),
	       pm_fmt_khz(pol->cpuinfo_max_khz, c, sizeof(c)));
}

static bool epp_is_raw(const char *s)
{
	return s[0] >= '0' && s[0] <= '9';
}

/*
 * The EPP asked for, on a policy named name whose governor will be eff
 * (gov: the one being set, "" unchanged): offered by the driver, allowed
 * under that governor, a raw number only where the driver takes one.
 */
static void check_epp(struct pm_tool *t, const struct pm_fset *f,
		      const struct pm_policy *pol, const char *name,
		      const char *eff, const char *gov)
{
	char o[32], h[64];

	/*
	 * No EPP but a list of them: the file is there and its read failed.
	 * The plan reads it again and fails naming it and the errno (exit
	 * 1), not "not offered".
	 */
	if (!pol->epp[0] && pol->epp_available[0])
		return;
	if (!pol->epp[0])
		pm_die(t, PM_EXIT_UNSUPPORTED,
		       "%scannot set EPP on %s: the %s driver offers no energy "
		       "performance preference here",
		       where(f), name, pol->driver[0] ? pol->driver : "cpufreq");
	if (!strcmp(eff, "performance") && strcmp(f->epp, "performance") &&
	    strcmp(f->epp, "0"))
		pm_die(t, PM_EXIT_USAGE,
		       "%scannot set EPP '%s' on %s: under the performance "
		       "governor the kernel refuses any EPP but performance "
		       "(EBUSY); add %s",
		       where(f), f->epp, name,
		       ask_gov(f, "powersave", h, sizeof(h)));
	if (epp_is_raw(f->epp)) {
		uint64_t v;

		if (pm_parse_u64(f->epp, &v) < 0 || v > EPP_RAW_MAX)
			pm_die(t, PM_EXIT_USAGE,
			       "%s%s: a raw EPP is 0 to %d, not '%s'",
			       where(f), opt(f, "epp", o, sizeof(o)),
			       EPP_RAW_MAX, f->epp);
		if (strncmp(pol->driver, "intel_", 6))
			pm_die(t, PM_EXIT_UNSUPPORTED,
			       "%scannot set EPP %s on %s: the %s driver takes "
			       "names only (available: %s)",
			       where(f), f->epp, name, pol->driver,
			       pol->epp_available);
		return;
	}
	/*
	 * amd-pstate lists only "performance" under the performance
	 * governor: the choices are known once the governor is switched.
	 */
	if (gov[0] && !strcmp(pol->governor, "performance") &&
	    strcmp(gov, "performance"))
		return;
	if (!pm_word_in(pol->epp_available, f->epp))
		pm_die(t, PM_EXIT_UNSUPPORTED,
		       "%scannot set EPP '%s' on %s: not available "
		       "(available: %s)",
		       where(f), f->epp, name,
		       pol->epp_available[0] ? pol->epp_available : "none");
}

void pm_fset_check(struct pm_tool *t, const struct pm_fset *f,
		   const struct pm_policy *pol, char *gov, size_t govsize)
{
	char name[300], o[32], h[64];
	const char *eff;

	pm_policy_name(pol, name, sizeof(name));
	gov[0] = '\0';
	if (f->governor && !pm_word_find(pol->available_governors,
					 f->governor, gov, govsize))
		pm_die(t, PM_EXIT_UNSUPPORTED,
		       "%scannot set governor '%s' on %s: not available "
		       "(available: %s)",
		       where(f), f->governor, name,
		       pol->available_governors[0] ? pol->available_governors :
						     "none");
	eff = gov[0] ? gov : pol->governor;
	if (f->has_min)
		check_range(t, f, pol, "min", f->min);
	if (f->has_max)
		check_range(t, f, pol, "max", f->max);
	if (f->has_speed) {
		if (strcmp(eff, "userspace"))
			pm_die(t, PM_EXIT_USAGE,
			       "%s%s needs the userspace governor: %s runs %s "
			       "(add %s)",
			       where(f), opt(f, "speed", o, sizeof(o)), name,
			       eff, ask_gov(f, "userspace", h, sizeof(h)));
		check_range(t, f, pol, "speed", f->speed);
	}
	if (f->epp)
		check_epp(t, f, pol, name, eff, gov);
}

/* A value the model could not read ("") is not known: NULL. */
static const char *known(const char *v)
{
	return v[0] ? v : NULL;
}

static void plan_khz(struct pm_writer *w, struct pm_policy *pol,
		     const char *file, uint64_t old, uint64_t khz)
{
	char path[PM_PATH_MAX], o[24], v[24];

	snprintf(path, sizeof(path), "%s/%s", pol->path, file);
	snprintf(o, sizeof(o), "%llu", (unsigned long long)old);
	snprintf(v, sizeof(v), "%llu", (unsigned long long)khz);
	pm_writer_plan(w, path, old == PM_UNKNOWN ? NULL : o, v, 0, pol);
}

void pm_fset_plan(struct pm_writer *w, const struct pm_fset *f,
		  struct pm_policy *pol, const char *gov)
{
	char path[PM_PATH_MAX];

	if (gov[0]) {
		snprintf(path, sizeof(path), "%s/scaling_governor", pol->path);
		/* An unreadable governor ("") is read again by the plan,
		 * which fails naming the file: never a write that could
		 * not be undone. */
		pm_writer_plan(w, path, known(pol->governor), gov, 0, pol);
	}
	/* Raising both: max first; otherwise min first (never min > max). */
	if (f->has_min && f->has_max && pol->max_khz != PM_UNKNOWN &&
	    f->min > pol->max_khz) {
		plan_khz(w, pol, "scaling_max_freq", pol->max_khz, f->max);
		plan_khz(w, pol, "scaling_min_freq", pol->min_khz, f->min);
	} else {
		if (f->has_min)
			plan_khz(w, pol, "scaling_min_freq", pol->min_khz,
				 f->min);
		if (f->has_max)
			plan_khz(w, pol, "scaling_max_freq", pol->max_khz,
				 f->max);
	}
	if (f->has_speed) {
		bool was_user = !strcmp(pol->governor, "userspace");
		char v[24];

		snprintf(path, sizeof(path), "%s/scaling_setspeed", pol->path);
		snprintf(v, sizeof(v), "%llu", (unsigned long long)f->speed);
		/* Under another governor it reads <unsupported>: restoring
		 * the governor undoes it. */
		pm_writer_plan(w, path, known(pol->setspeed), v,
			       PM_W_FORCE | (was_user ? 0 : PM_W_NOUNDO), pol);
	}
	if (f->epp) {
		snprintf(path, sizeof(path),
			 "%s/energy_performance_preference", pol->path);
		/* A governor switch may reset the EPP: write it anyway. */
		pm_writer_plan(w, path, known(pol->epp), f->epp,
			       gov[0] && strcmp(gov, pol->governor) ?
				       PM_W_FORCE : 0,
			       pol);
	}
}

/* ---------------------------------------------------------------- devfreq */

/* The lowest and highest of a devfreq available_frequencies list. */
static bool hz_range(const char *list, uint64_t *lo, uint64_t *hi)
{
	char buf[512], *save = NULL;
	bool any = false;

	snprintf(buf, sizeof(buf), "%s", list);
	for (char *t = strtok_r(buf, " ", &save); t;
	     t = strtok_r(NULL, " ", &save)) {
		uint64_t v;

		if (pm_parse_u64(t, &v) < 0)
			continue;
		if (!any || v < *lo)
			*lo = v;
		if (!any || v > *hi)
			*hi = v;
		any = true;
	}
	return any;
}

void pm_devfreq_plan(struct pm_writer *w, const struct pm_devfreq *d,
		     const char *gov, uint64_t min, uint64_t max,
		     const char *where)
{
	char path[PM_PATH_MAX], a[32], b[32], c[32], v[24], o[24];
	const char *at = where ? where : "";
	uint64_t lo = 0, hi = 0;

	if (gov && !pm_word_in(d->available_governors, gov))
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%scannot set governor '%s' on %s: not available "
		       "(available: %s)",
		       at, gov, d->name,
		       d->available_governors[0] ? d->available_governors :
						   "none");
	if (hz_range(d->available_frequencies, &lo, &hi)) {
		const uint64_t f[2] = { min, max };

		for (int i = 0; i < 2; i++) {
			if (!f[i] || (f[i] >= lo && f[i] <= hi))
				continue;
			pm_die(w->t, PM_EXIT_USAGE,
			       "%s%s%s %s is outside the range of %s: %s - %s",
			       at, where ? "" : "--", i ? "max" : "min",
			       pm_fmt_hz(f[i], a, sizeof(a)), d->name,
			       pm_fmt_hz(lo, b, sizeof(b)),
			       pm_fmt_hz(hi, c, sizeof(c)));
		}
	}
	if (gov) {
		snprintf(path, sizeof(path), "/sys/class/devfreq/%s/governor",
			 d->name);
		pm_writer_plan(w, path, known(d->governor), gov, 0, NULL);
	}
	/* Raising both: max first; otherwise min first (never min > max). */
	for (int pass = 0; pass < 2; pass++) {
		bool max_first = min && max && d->max_hz != PM_UNKNOWN &&
				 min > d->max_hz;
		bool do_max = (pass == 0) == max_first;
		uint64_t want = do_max ? max : min;
		uint64_t old = do_max ? d->max_hz : d->min_hz;

		if (!want)
			continue;
		snprintf(path, sizeof(path), "/sys/class/devfreq/%s/%s",
			 d->name, do_max ? "max_freq" : "min_freq");
		snprintf(v, sizeof(v), "%llu", (unsigned long long)want);
		snprintf(o, sizeof(o), "%llu", (unsigned long long)old);
		pm_writer_plan(w, path, old == PM_UNKNOWN ? NULL : o, v, 0,
			       NULL);
	}
}
