// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opp-set --auto-tune: powertop's auto-tune done safely.  Every tunable
 * pmctl tune shows Bad becomes a setting of a point, with the value that
 * saves power, and the point is applied as one transaction like any
 * other: read back, and undone in reverse on any failure.  The lines for
 * many devices keep their default exclusions: [runtime_pm] leaves audio
 * and input devices and TLP's driver denylist alone, [usb] keyboards and
 * mice, sound cards and printers.
 */
#include <string.h>

#include "opp.h"

/* [usb]'s default exclusions (plan.c's, TLP's). */
#define USB_EXCLUDE "input,audio,printer"

/* A device the default exclusions leave alone: it does not ask for its
 * line (which would be exit 3 were every Bad device excluded). */
static bool excluded(const struct pm_tunable *t, const char *usb)
{
	char cls[64], drv[64];
	const char *bad;
	size_t n;

	if (t->kind == PM_TUNE_USB_AUTOSUSPEND)
		return pm_usb_excluded(t, usb);
	if (t->kind != PM_TUNE_RUNTIME_PM)
		return false;
	if (pm_pci_class_parse(PM_RPM_EXCLUDE_CLASS, true, cls, sizeof(cls),
			       &bad, &n) < 0 ||
	    pm_driver_list_parse(PM_RPM_EXCLUDE_DRIVER, true, drv,
				 sizeof(drv), &bad, &n) < 0)
		return true;
	return pm_pci_class_in(t->class_code, cls) ||
	       (t->driver[0] && pm_word_in(drv, t->driver));
}

void opp_auto_tune(struct opp *op, struct opp_point *pt)
{
	struct pm_tunables l = { 0 };
	bool want[PM_TUNE_NKINDS] = { false };
	char usb[64], line[160];
	const char *bad;
	size_t n;

	snprintf(pt->name, sizeof(pt->name), "auto-tune");
	if (pm_usb_exclude_parse(USB_EXCLUDE, usb, sizeof(usb), &bad, &n) < 0)
		usb[0] = '\0';
	if (pm_tunables_read(&op->ctx, &l) < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	for (int i = 0; i < l.n; i++)
		want[l.v[i].kind] |= l.v[i].state == PM_TUNE_BAD &&
				     !excluded(&l.v[i], usb);
	pm_tunables_free(&l);
	for (int k = 0; k < PM_TUNE_NKINDS; k++) {
		const char *v = pm_tune_good_value((enum pm_tune_kind)k);

		if (!want[k])
			continue;
		/* [usb] autosuspend takes on/off, the kernel's auto. */
		if (k == PM_TUNE_USB_AUTOSUSPEND)
			v = "on";
		snprintf(line, sizeof(line), "%s.%s=%s", opp_tune_key[k][0],
			 opp_tune_key[k][1], v);
		opp_add_auto(op, pt, line);
	}
}
