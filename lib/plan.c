// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The planners of the small subsystems, shared by pmctl and opp-set:
 * what is asked is checked against what the machine offers before
 * anything is written (exit 2 or 3, named with the option or the point's
 * line that asked), then planned in a safe order.
 *   - A battery's charge settings (start and stop thresholds, charge
 *     behaviour): start stays below stop on the way too; and the record
 *     lines of what was asked, for opp-set --reapply.
 *   - The platform profile.
 * The cpufreq and devfreq planners are in fset.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"
#include "core.h"
#include "txn.h"
#include "parse.h"
#include "sleep.h"
#include "supply.h"
#include "profile.h"
#include "tool.h"
#include "writer.h"

#define PROFILE_FILE "/sys/firmware/acpi/platform_profile"

static const char *const files[PM_CHARGE_N] = {
	PM_SUPPLY_START,
	PM_SUPPLY_STOP,
	PM_SUPPLY_BEHAVIOUR,
};

/* "--charge-start" for an option, "charge_start" for a point's key. */
static const char *const opts[PM_CHARGE_N] = {
	"--charge-start",
	"--charge-stop",
	"--charge-behaviour",
};

static const char *const keys[PM_CHARGE_N] = {
	"charge_start",
	"charge_stop",
	"charge_behaviour",
};

static const char *name_of(const struct pm_charge *c, int k)
{
	return c->keys ? keys[k] : opts[k];
}

static const char *at(const char *where)
{
	return where ? where : "";
}

static bool asked(const struct pm_charge *c, int k)
{
	return k == PM_CHARGE_START ? c->has_start :
	       k == PM_CHARGE_STOP  ? c->has_stop :
				      c->behaviour != NULL;
}

/* A threshold now: PM_UNKNOWN when the file is not there or does not
 * hold a number; exit 1 when it is there and cannot be read. */
static uint64_t now_pct(struct pm_writer *w, const struct pm_charge *c,
			const char *path)
{
	uint64_t v;
	int e;

	if (pm_attr_read_u64(w->ctx, path, &v) == 0)
		return v;
	e = w->ctx->err.err;
	pm_err_clear(w->ctx);
	if (e == ENOENT || e == EINVAL || e == ERANGE)
		return PM_UNKNOWN;
	pm_die(w->t, pm_exit_for(e), "%scannot read %s: %s (%s)", at(c->where),
	       path, strerror(e), pm_errno_name(e));
}

/* Each file asked for is there (exit 3 naming the driver's lack). */
static void check_files(struct pm_writer *w, const struct pm_charge *c,
			char path[PM_CHARGE_N][PM_PATH_MAX])
{
	char dir[PM_PATH_MAX];

	if (!pm_supply_path(c->name, "", dir, sizeof(dir)))
		pm_die(w->t, PM_EXIT_USAGE, "%sinvalid supply name '%s'",
		       at(c->where), c->name);
	if (!pm_exists(w->ctx, dir))
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno power supply '%s' here (pmctl supply lists them)",
		       at(c->where), c->name);
	for (int k = 0; k < PM_CHARGE_N; k++) {
		pm_supply_path(c->name, files[k], path[k], PM_PATH_MAX);
		if (asked(c, k) && !pm_exists(w->ctx, path[k]))
			pm_die(w->t, PM_EXIT_UNSUPPORTED,
			       "%s%s: %s has no %s (its driver offers no %s)",
			       at(c->where_key[k]), name_of(c, k), c->name,
			       files[k],
			       k < PM_CHARGE_BEHAVIOUR ?
				       "charge thresholds" :
				       "charge behaviour control");
	}
	pm_err_clear(w->ctx);
}

/* The pair the battery ends with keeps start below stop (exit 2). */
static void check_pair(struct pm_writer *w, const struct pm_charge *c,
		       uint64_t cs, uint64_t ce)
{
	uint64_t es = c->has_start ? c->start : cs;
	uint64_t ee = c->has_stop ? c->stop : ce;

	if (!c->has_start && !c->has_stop)
		return;
	if (c->has_start && c->has_stop && es >= ee)
		pm_die(w->t, PM_EXIT_USAGE, "%s%s %u%% is not below %s %u%%",
		       at(c->where), name_of(c, PM_CHARGE_START), c->start,
		       name_of(c, PM_CHARGE_STOP), c->stop);
	if (es != PM_UNKNOWN && ee != PM_UNKNOWN && es >= ee)
		pm_die(w->t, PM_EXIT_USAGE,
		       "%s%s would end with start %llu%% not below stop "
		       "%llu%%",
		       at(c->where), c->name, (unsigned long long)es,
		       (unsigned long long)ee);
}

void pm_charge_plan(struct pm_writer *w, const struct pm_charge *c)
{
	char path[PM_CHARGE_N][PM_PATH_MAX], cur[256], now[PM_NAME_MAX], v[16];
	uint64_t cs, ce;
	bool stop_first;

	check_files(w, c, path);
	cs = now_pct(w, c, path[PM_CHARGE_START]);
	ce = now_pct(w, c, path[PM_CHARGE_STOP]);
	check_pair(w, c, cs, ce);
	if (c->behaviour) {
		if (pm_attr_read(w->ctx, path[PM_CHARGE_BEHAVIOUR], cur,
				 sizeof(cur)) < 0) {
			int e = w->ctx->err.err;

			pm_die(w->t, pm_exit_for(e),
			       "%scannot read %s: %s (%s)", at(c->where),
			       path[PM_CHARGE_BEHAVIOUR], strerror(e),
			       pm_errno_name(e));
		}
		if (!pm_choice_offered(cur, c->behaviour))
			pm_die(w->t, PM_EXIT_UNSUPPORTED,
			       "%s%s: '%s' is not offered by %s (choices: %s)",
			       at(c->where_key[PM_CHARGE_BEHAVIOUR]),
			       name_of(c, PM_CHARGE_BEHAVIOUR), c->behaviour,
			       c->name, cur[0] ? cur : "none");
	}
	/* On the way too: a start at or above the old stop moves the stop
	 * up first. */
	stop_first = c->has_start && c->has_stop && ce != PM_UNKNOWN &&
		     c->start >= ce;
	for (int pass = 0; pass < 2; pass++) {
		int k = (pass == 0) == stop_first ? PM_CHARGE_STOP :
						    PM_CHARGE_START;

		if (!asked(c, k))
			continue;
		snprintf(v, sizeof(v), "%u",
			 k == PM_CHARGE_STOP ? c->stop : c->start);
		pm_writer_plan(w, path[k], NULL, v, 0, NULL);
	}
	if (!c->behaviour)
		return;
	/* The file reads "[auto] inhibit-charge": the old value is the
	 * bracketed one. */
	pm_choice_current(cur, now, sizeof(now));
	pm_writer_plan(w, path[PM_CHARGE_BEHAVIOUR], now, c->behaviour,
		       PM_W_CHOICE, NULL);
}

int pm_charge_record(const struct pm_charge *c, struct pm_supply_set *v)
{
	int n = 0;

	for (int k = 0; k < PM_CHARGE_N; k++) {
		if (!asked(c, k))
			continue;
		memset(&v[n], 0, sizeof(v[n]));
		snprintf(v[n].name, sizeof(v[n].name), "%.*s",
			 (int)sizeof(v[n].name) - 1, c->name);
		snprintf(v[n].file, sizeof(v[n].file), "%s", files[k]);
		if (k == PM_CHARGE_BEHAVIOUR)
			snprintf(v[n].value, sizeof(v[n].value), "%.*s",
				 (int)sizeof(v[n].value) - 1, c->behaviour);
		else
			snprintf(v[n].value, sizeof(v[n].value), "%u",
				 k == PM_CHARGE_STOP ? c->stop : c->start);
		n++;
	}
	return n;
}

/* ---------------------------------------------------------------- profile */

/*
 * The platform profile NAME, checked against what the firmware offers
 * (exit 3; 'custom' is what the kernel shows when handlers disagree, and
 * cannot be set) and planned.  where: before every error ("FILE:LINE:
 * [platform] profile: " of a point, "profile: " of pmctl).
 */
void pm_profile_plan(struct pm_writer *w, const char *name, const char *where)
{
	struct pm_profile pr;

	pm_profile_read(w->ctx, &pr);
	if (pr.err)
		pm_die(w->t, pm_exit_for(pr.err), "%scannot read %s: %s (%s)",
		       where, PROFILE_FILE, strerror(pr.err),
		       pm_errno_name(pr.err));
	if (!pr.current[0])
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno platform profile on this machine (%s is "
		       "missing)",
		       where, PROFILE_FILE);
	if (!strcmp(name, "custom"))
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%s'custom' is what the kernel shows when handlers "
		       "disagree; it cannot be set",
		       where);
	if (!pm_word_in(pr.choices, name))
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%s'%s' is not offered (choices: %s)", where, name,
		       pr.choices[0] ? pr.choices : "none");
	pm_writer_plan(w, PROFILE_FILE, pr.current, name, 0, NULL);
}
