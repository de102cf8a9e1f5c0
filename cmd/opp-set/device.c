// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --reapply --device PATH: a device plugged in after the point was
 * applied (the udev rule runs it) gets the current point's [runtime_pm]
 * and [usb] lines that match it, and nothing else is planned: the other
 * devices, the CPUs and the files of the other sections stay as they
 * are.  No point applied since boot (/run is emptied), or one given
 * with -s or --auto-tune, which are not recorded as a point to load
 * again: nothing to do, exit 0.
 */
#include <string.h>

#include "opp.h"

/* The point applied last, loaded into pt; false when there is none. */
static bool load_current(struct opp *op, struct opp_point *pt)
{
	static char last[PM_NAME_MAX], how[PM_PATH_MAX + 8];

	if (pm_attr_read(&op->ctx, OPP_HOW_FILE, how, sizeof(how)) < 0)
		how[0] = '\0';
	if (pm_attr_read(&op->ctx, OPP_CURRENT_FILE, last, sizeof(last)) < 0 ||
	    !pm_opp_name_valid(last))
		last[0] = '\0';
	pm_err_clear(&op->ctx);
	/* --auto's pick is recorded by its name: the same point again,
	 * not a new pick for one device. */
	if ((!strcmp(how, "name") || !strcmp(how, "auto")) && last[0])
		opp_load_name(op, last, pt);
	else if (!strncmp(how, "file /", 6))
		opp_load_file(op, how + 5, pt);
	else
		return false;
	return true;
}

int opp_device_apply(struct opp *op, struct pm_writer *w, const char *dev)
{
	struct pm_devreq r = { .name = dev };
	struct opp_point pt;
	int code, changes;

	memset(&pt, 0, sizeof(pt));
	pm_devreq_resolve(&op->t, &op->ctx, &r);
	if (!load_current(op, &pt)) {
		pm_note(&op->t, "%s: no point applied since boot (or it was "
				"given with -s or --auto-tune): nothing to do",
			dev);
		return pm_writer_commit(w);	/* nothing planned */
	}
	w->name = pt.name;
	w->only = r.path;
	opp_plan_devices(&pt, w);
	changes = pm_txn_changes(&w->txn);
	code = pm_writer_commit(w);
	if (code == PM_EXIT_OK && !op->t.dry_run &&
	    op->t.fmt == PM_FMT_HUMAN)
		pm_note(&op->t, "%s: %d change%s (point %s)", dev, changes,
			changes == 1 ? "" : "s", pt.name);
	opp_point_free(&pt);
	return code;
}
