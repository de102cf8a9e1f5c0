// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl tune: the device tunables (lib/tune.c), each with its value, the
 * value that saves power and Good or Bad, as powertop's "Tunables" tab.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmctl.h"

/* What a tunable that is not a device's is, for people. */
static const char *const what[PM_TUNE_NKINDS] = {
	[PM_TUNE_PCIE_ASPM] = "PCIe ASPM policy",
	[PM_TUNE_AUDIO_POWER_SAVE] = "Audio codec power save (s)",
	[PM_TUNE_AUDIO_CONTROLLER] = "Audio controller power save",
	[PM_TUNE_NMI_WATCHDOG] = "NMI watchdog",
	[PM_TUNE_DIRTY_WRITEBACK] = "VM writeback timeout (cs)",
	[PM_TUNE_LAPTOP_MODE] = "VM laptop mode",
};

static const char *state_word(enum pm_tune_state s)
{
	return s == PM_TUNE_GOOD ? "Good" : s == PM_TUNE_BAD ? "Bad" : "?";
}

/* The device part of a human line: name, class. */
static void human_desc(struct pmctl *p, const struct pm_tunable *t)
{
	const char *name = t->name[0] ? t->name : t->class_name;

	if (what[t->kind]) {
		pm_out_printf(&p->o, "%s", what[t->kind]);
		return;
	}
	if (t->kind == PM_TUNE_WIFI_PS) {
		pm_out_printf(&p->o, "Wireless power saving for interface "
				     "%s%s%s%s",
			      t->device, t->driver[0] ? " (" : "", t->driver,
			      t->driver[0] ? ")" : "");
		return;
	}
	if (t->kind == PM_TUNE_SATA_LINK) {
		pm_out_printf(&p->o, "SATA link power of %s%s%s%s", t->device,
			      t->driver[0] ? " (" : "", t->driver,
			      t->driver[0] ? ")" : "");
		return;
	}
	pm_out_printf(&p->o, "%s %s%s%s", t->kind == PM_TUNE_RUNTIME_PM ?
			     "PCI" : "USB", t->device, *name ? " " : "", name);
	if (t->name[0] && t->class_name[0])
		pm_out_printf(&p->o, " [%s]", t->class_name);
}

static void human(struct pmctl *p, const struct pm_tunables *l)
{
	int good = 0;

	pm_out_printf(&p->o, "%-4s  %-27s  %-19s  %-19s  %s\n", "", "TUNABLE",
		      "VALUE", "GOOD VALUE", "DEVICE");
	for (int i = 0; i < l->n; i++) {
		const struct pm_tunable *t = &l->v[i];

		good += t->state == PM_TUNE_GOOD;
		pm_out_printf(&p->o, "%-4s  %-27s  %-19s  %-19s  ",
			      state_word(t->state), pm_tune_kind_name(t->kind),
			      t->value[0] ? t->value : "?", t->good_value);
		human_desc(p, t);
		pm_out_printf(&p->o, "\n");
	}
	pm_out_printf(&p->o, "%d of %d tunables good\n", good, l->n);
}

static void json_one(struct pm_out *o, const struct pm_tunable *t)
{
	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "tunable", pm_tune_kind_name(t->kind));
	pm_out_str(o, "path", t->path);
	pm_out_str_or_null(o, "device", t->device);
	pm_out_str_or_null(o, "vendor_id", t->vendor_id);
	pm_out_str_or_null(o, "device_id", t->device_id);
	pm_out_str_or_null(o, "name", t->name);
	pm_out_str_or_null(o, "class", t->class_code);
	pm_out_str_or_null(o, "class_name", t->class_name);
	pm_out_str_or_null(o, "driver", t->driver);
	if (t->kind == PM_TUNE_USB_AUTOSUSPEND) {
		pm_out_words(o, "interface_classes", t->if_classes);
		if (t->autosuspend_delay_ms == PM_UNKNOWN_S64)
			pm_out_null(o, "autosuspend_delay_ms");
		else
			pm_out_s64(o, "autosuspend_delay_ms",
				   t->autosuspend_delay_ms);
	}
	pm_out_str_or_null(o, "value", t->value);
	pm_out_str(o, "good_value", t->good_value);
	pm_out_flag(o, "good", t->state == PM_TUNE_UNKNOWN ? -1 :
			       t->state == PM_TUNE_GOOD);
	pm_out_obj_end(o);
}

int cmd_tune(struct pmctl *p, int argc, char **argv)
{
	struct pm_tunables l = { 0 };
	int n, good = 0, bad = 0;

	pmctl_view_args(p, "tune", argc, argv);
	n = pm_tunables_read(&p->ctx, &l);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n) {
		pm_tunables_free(&l);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no tunables (no runtime PM in /sys/bus/pci and "
		       "/sys/bus/usb, no SATA link power, no module or "
		       "sysctl files)");
	}
	pmctl_view_begin(p);
	if (p->t.fmt == PM_FMT_HUMAN) {
		human(p, &l);
	} else {
		for (int i = 0; i < l.n; i++) {
			good += l.v[i].state == PM_TUNE_GOOD;
			bad += l.v[i].state == PM_TUNE_BAD;
		}
		pm_out_u64(&p->o, "good", (uint64_t)good);
		pm_out_u64(&p->o, "bad", (uint64_t)bad);
		pm_out_arr_begin(&p->o, "tunables", "tunable");
		for (int i = 0; i < l.n; i++)
			json_one(&p->o, &l.v[i]);
		pm_out_arr_end(&p->o);
	}
	pm_tunables_free(&l);
	return pmctl_view_end(p);
}
