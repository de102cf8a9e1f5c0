// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The planners of the device tunables (lib/tune.c has the model): USB
 * autosuspend of every device but the excluded classes, each SCSI host's
 * SATA link power, and the files of PCIe ASPM, HDA power save and the
 * power-management sysctls.  What is asked is checked against what the
 * machine offers before anything is written (exit 3), then planned; a
 * file planned twice is written once, with the later value.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tuneplan.h"
#include "core.h"
#include "device.h"
#include "nl80211.h"
#include "parse.h"
#include "tool.h"
#include "txn.h"
#include "writer.h"

/* The file's value now, or exit (3 missing, 1 unreadable). */
static void read_or_die(struct pm_writer *w, const char *path, char *buf,
			size_t size, const char *where, const char *missing)
{
	ssize_t n = pm_attr_read(w->ctx, path, buf, size);
	int e = w->ctx->err.err;

	if (n == -ENOENT)
		pm_die(w->t, PM_EXIT_UNSUPPORTED, "%s%s (no %s)", where,
		       missing, path);
	if (n < 0)
		pm_die(w->t, PM_EXIT_FAIL, "%s%s: cannot read it: %s (%s)",
		       where, path, strerror(e), pm_errno_name(e));
}

/* value is one of the words of list, brackets aside. */
static bool offered(const char *list, const char *value)
{
	size_t n = strlen(value);

	for (const char *p = list; (p = strstr(p, value)); p += n) {
		bool start = p == list || p[-1] == ' ' || p[-1] == '[';
		bool end = !p[n] || p[n] == ' ' || p[n] == ']';

		if (start && end)
			return true;
	}
	return false;
}

void pm_tune_file_plan(struct pm_writer *w, enum pm_tune_kind k,
		       const char *value, const char *where)
{
	const char *path = pm_tune_file(k);
	char cur[256];

	if (!path)
		pm_die(w->t, PM_EXIT_FAIL, "%sno file for %s", where,
		       pm_tune_kind_name(k));
	read_or_die(w, path, cur, sizeof(cur), where,
		    k == PM_TUNE_PCIE_ASPM ? "no PCIe ASPM here" :
		    k == PM_TUNE_AUDIO_POWER_SAVE ||
				    k == PM_TUNE_AUDIO_CONTROLLER ?
					      "snd_hda_intel is not loaded" :
					      "the kernel has no such sysctl");
	/* The kernel lists its policies; one word alone says nothing of
	 * the others. */
	if (k == PM_TUNE_PCIE_ASPM && strchr(cur, '[') && !offered(cur, value))
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%s'%s' is not offered (%s: %s)", where, value, path,
		       cur);
	/* "[default] performance ...": the old value is the bracketed
	 * one; the plain word the value reads back as on a tree of files
	 * is it too. */
	pm_writer_set(w, path, NULL, value,
		      strchr(cur, '[') ? PM_W_CHOICE | PM_W_SELECTED : 0,
		      NULL);
}

void pm_sata_plan(struct pm_writer *w, const char *policy,
		  const char *where)
{
	char **names, path[PM_PATH_MAX];
	int n = pm_list_dir(w->ctx, "/sys/class/scsi_host", &names), k = 0;

	if (n == -ENOMEM)
		pm_die(w->t, PM_EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path),
			 "/sys/class/scsi_host/%.200s/"
			 "link_power_management_policy",
			 names[i]);
		if (!pm_exists(w->ctx, path))
			continue;
		pm_writer_set(w, path, NULL, policy, 0, NULL);
		k++;
	}
	if (n > 0)
		pm_list_free(names, n);
	pm_err_clear(w->ctx);
	if (!k)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno SATA link power here (no "
		       "/sys/class/scsi_host/*/link_power_management_policy)",
		       where);
}

/* One interface's power save, once (a point that sets it twice: the
 * later value). */
static void wifi_set(struct pm_writer *w, const struct pm_wifi_if *x,
		     const char *value)
{
	char name[64], msg[PM_PATH_MAX + 600];
	int i;

	pm_wifi_ps_name(x->name, name, sizeof(name));
	i = pm_txn_replace(&w->txn, name, value);
	if (i == -1)
		i = pm_txn_add_wifi_ps(&w->txn, x->name,
				       x->ps ? "on" : "off", value);
	if (i < 0)
		pm_die(w->t, pm_exit_for(w->ctx->err.err), "cannot read %s",
		       pm_err_str(&w->ctx->err, msg, sizeof(msg)));
}

void pm_wifi_plan(struct pm_writer *w, const char *value,
		  const char *exclude, const char *where)
{
	struct pm_wifi_if *v;
	char msg[PM_PATH_MAX + 600];
	int n = pm_wifi_list(w->ctx, &v), set = 0;

	if (n < 0)
		pm_die(w->t, PM_EXIT_FAIL, "%scannot list the wireless "
					   "interfaces: %s",
		       where, pm_err_str(&w->ctx->err, msg, sizeof(msg)));
	if (n == 0)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno Wi-Fi power save here (no wireless station "
		       "interface with power save that nl80211 lists)",
		       where);
	for (int i = 0; i < n; i++) {
		if (pm_word_in(exclude, v[i].name))
			continue;
		if (v[i].ps < 0) {
			int e = v[i].ps_err;
			char name[PM_IFNAME_MAX];

			memcpy(name, v[i].name, sizeof(name));
			free(v);
			pm_die(w->t, PM_EXIT_FAIL, "%scannot read the power "
						   "save of %s: %s (%s)",
			       where, name, strerror(e), pm_errno_name(e));
		}
		wifi_set(w, &v[i], value);
		set++;
	}
	free(v);
	if (!set)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%severy wireless interface with power save is "
		       "excluded (exclude = %s)",
		       where, exclude);
}

/* One device's file, by its /sys/devices path (as [runtime_pm] plans). */
static void usb_set(struct pm_writer *w, const char *dev, const char *name,
		    const char *value)
{
	char file[PM_PATH_MAX + 32];

	snprintf(file, sizeof(file), "%s/power/%s", dev, name);
	pm_writer_set(w, file, NULL, value, 0, NULL);
}

void pm_usb_plan(struct pm_writer *w, const struct pm_usb_req *r)
{
	struct pm_tunables l = { 0 };
	char dir[PM_PATH_MAX], dev[PM_PATH_MAX];
	int n = pm_usb_tunables_read(w->ctx, &l), k = 0;

	if (n < 0)
		pm_die(w->t, PM_EXIT_FAIL, "out of memory");
	for (int i = 0; i < l.n; i++) {
		struct pm_tunable *t = &l.v[i];

		if (pm_usb_excluded(t, r->exclude))
			continue;
		/* The device's folder: t->path less "/power/control". */
		snprintf(dir, sizeof(dir), "/sys/bus/usb/devices/%s",
			 t->device);
		if (pm_device_resolve(w->ctx, dir, dev, sizeof(dev)) < 0)
			dev[0] = '\0';
		if (w->only && strcmp(dev, w->only))
			continue;
		if (dev[0] && r->control)
			usb_set(w, dev, "control", r->control);
		if (dev[0] && r->delay_ms &&
		    t->autosuspend_delay_ms != PM_UNKNOWN_S64)
			usb_set(w, dev, "autosuspend_delay_ms", r->delay_ms);
		k++;
	}
	pm_tunables_free(&l);
	pm_err_clear(w->ctx);
	if (!k && !w->only)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno USB device to set (none in /sys/bus/usb/devices "
		       "that can autosuspend, or every one excluded)",
		       r->control ? r->where : r->where_delay);
}
