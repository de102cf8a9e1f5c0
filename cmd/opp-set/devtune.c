// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --save of the device tunables: [sata], [pcie], [audio], [sysctl] and
 * [wifi] as the machine has them, and each PCI and USB device's runtime PM
 * (a [runtime_pm] path line) and USB autosuspend delay (a [sysfs] line),
 * so that -f puts back what a point of those sections changed.
 */
#include <string.h>

#include "opp.h"

/* The section and key that set a tunable of kind k (runtime PM and USB
 * autosuspend: the line for a whole bus). */
const char *const opp_tune_key[PM_TUNE_NKINDS][2] = {
	[PM_TUNE_RUNTIME_PM] = { "runtime_pm", "pci" },
	[PM_TUNE_USB_AUTOSUSPEND] = { "usb", "autosuspend" },
	[PM_TUNE_SATA_LINK] = { "sata", "link_power" },
	[PM_TUNE_PCIE_ASPM] = { "pcie", "aspm" },
	[PM_TUNE_AUDIO_POWER_SAVE] = { "audio", "power_save" },
	[PM_TUNE_AUDIO_CONTROLLER] = { "audio", "power_save_controller" },
	[PM_TUNE_NMI_WATCHDOG] = { "sysctl", "kernel.nmi_watchdog" },
	[PM_TUNE_DIRTY_WRITEBACK] = { "sysctl",
				      "vm.dirty_writeback_centisecs" },
	[PM_TUNE_LAPTOP_MODE] = { "sysctl", "vm.laptop_mode" },
	[PM_TUNE_WIFI_PS] = { "wifi", "power_save" },
};

/* [sata] when every host has the same policy, else a [sysfs] line each. */
static void save_sata(struct pm_out *o, const struct pm_tunables *l)
{
	const char *first = NULL;
	char v[64];
	bool same = true;

	for (int i = 0; i < l->n; i++) {
		const struct pm_tunable *t = &l->v[i];

		if (t->kind != PM_TUNE_SATA_LINK)
			continue;
		if (pm_tune_value_parse(t->kind, t->value, v, sizeof(v)) < 0)
			return;	/* unreadable or unknown: nothing to put back */
		if (!first)
			first = t->value;
		same &= !strcmp(first, t->value);
	}
	if (!first)
		return;
	if (same) {
		pm_out_printf(o, "\n[sata]\nlink_power = %s\n", first);
		return;
	}
	pm_out_printf(o, "\n[sysfs]\n");
	for (int i = 0; i < l->n; i++)
		if (l->v[i].kind == PM_TUNE_SATA_LINK)
			pm_out_printf(o, "%s = %s\n", l->v[i].path,
				      l->v[i].value);
}

/*
 * [wifi] when every wireless interface has the same power save.  A
 * point sets them all alike, so interfaces that differ cannot be saved:
 * said, and left out.
 */
static void save_wifi(struct opp *op, struct pm_out *o,
		      const struct pm_tunables *l)
{
	const char *first = NULL;
	bool same = true;

	for (int i = 0; i < l->n; i++) {
		const struct pm_tunable *t = &l->v[i];

		if (t->kind != PM_TUNE_WIFI_PS || !t->value[0])
			continue;
		if (!first)
			first = t->value;
		same &= !strcmp(first, t->value);
	}
	if (first && same)
		pm_out_printf(o, "\n[wifi]\npower_save = %s\n", first);
	else if (first)
		pm_warn(&op->t, "the wireless interfaces' power save differs "
				"(pmctl tune): [wifi] not saved");
}

/* A device's path, as a key of the saved point. */
static const char *device_key(struct opp *op, struct pm_out *o,
			      const char *dev)
{
	const char *why = opp_save_unsafe(dev, false);

	if (!why)
		return dev;
	pm_out_abort(o);
	pm_die(&op->t, PM_EXIT_FAIL, "cannot save the device %s: %s", dev,
	       why);
}

/*
 * power/control of every PCI and USB device pmctl tune lists, by its
 * path (never excluded), then the USB devices' autosuspend delays.
 */
static void save_devices(struct opp *op, struct pm_out *o)
{
	struct pm_tunables l = { 0 };
	char dev[PM_PATH_MAX], v[16];
	bool head = false;

	if (pm_device_tunables_read(&op->ctx, &l) < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	for (int pass = 0; pass < 2; pass++) {
		head = false;
		for (int i = 0; i < l.n; i++) {
			const struct pm_tunable *t = &l.v[i];

			if (pm_tunable_device(&op->ctx, t, dev, sizeof(dev)))
				continue;
			if (pass == 0 &&
			    pm_tune_value_parse(PM_TUNE_RUNTIME_PM, t->value, v,
						sizeof(v)))
				continue;
			if (pass == 1 &&
			    t->autosuspend_delay_ms == PM_UNKNOWN_S64)
				continue;
			if (!head)
				pm_out_printf(o, pass ? "\n[sysfs]\n" :
							"\n[runtime_pm]\n");
			head = true;
			if (pass == 0)
				pm_out_printf(o, "%s = %s\n",
					      device_key(op, o, dev), v);
			else
				pm_out_printf(o, "%s/power/autosuspend_delay_ms"
						 " = %lld\n",
					      device_key(op, o, dev),
					      (long long)t->autosuspend_delay_ms);
		}
	}
	pm_tunables_free(&l);
	pm_err_clear(&op->ctx);
}

void opp_save_devtune(struct opp *op, struct pm_out *o)
{
	struct pm_tunables l = { 0 };
	const char *sec = "";
	char v[64];

	if (pm_tune_globals_read(&op->ctx, &l) < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	save_sata(o, &l);
	for (int i = 0; i < l.n; i++) {
		const struct pm_tunable *t = &l.v[i];

		if (t->kind == PM_TUNE_SATA_LINK || t->kind == PM_TUNE_WIFI_PS ||
		    pm_tune_value_parse(t->kind, t->value, v, sizeof(v)) < 0)
			continue;
		if (strcmp(sec, opp_tune_key[t->kind][0])) {
			sec = opp_tune_key[t->kind][0];
			pm_out_printf(o, "\n[%s]\n", sec);
		}
		pm_out_printf(o, "%s = %s\n", opp_tune_key[t->kind][1], v);
	}
	save_wifi(op, o, &l);
	pm_tunables_free(&l);
	save_devices(op, o);
}
