/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the planners of the device tunables (lib/tuneplan.c), for an
 * opp-set point's [usb], [sata], [pcie], [audio], [sysctl] and [wifi]
 * sections;
 * tool layer: a request the machine cannot take exits.  where: before
 * every error, the point's "FILE:LINE: [section] key: ".
 */
#ifndef PM_TUNEPLAN_H
#define PM_TUNEPLAN_H

#include "tune.h"
#include "writer.h"

/*
 * A tunable that is one file (ASPM, audio, sysctls), value as
 * pm_tune_value_parse gives it: exit 3 when the file is not there (the
 * module not loaded) or, for ASPM, the policy is not offered; 1 when it
 * cannot be read.
 */
void pm_tune_file_plan(struct pm_writer *w, enum pm_tune_kind k,
		       const char *value, const char *where);
/* Every SCSI host's link_power_management_policy (exit 3: none has). */
void pm_sata_plan(struct pm_writer *w, const char *policy,
		  const char *where);

/*
 * [wifi] power_save: every wireless interface whose power save nl80211
 * gives (pm_wifi_list) but those named in exclude ("wlan0 wlx0", ""
 * for none: pm_ifname_list_parse), value "on" or "off" (exit 3: none,
 * or every one excluded; 1: nl80211 fails).  Each is a netlink setting
 * of the transaction (PM_WK_WIFI_PS), read back and rolled back as a
 * file is.
 */
void pm_wifi_plan(struct pm_writer *w, const char *value,
		  const char *exclude, const char *where);

/* [usb]: every USB device but those of the excluded classes. */
struct pm_usb_req {
	const char *control;	/* "auto", "on", or NULL */
	const char *delay_ms;	/* power/autosuspend_delay_ms, or NULL */
	const char *exclude;	/* class codes, "03 01" (none: "") */
	const char *where;	/* before errors of the control */
	const char *where_delay;	/* before errors of the delay */
};
/* Exit 3 when no USB device is left to set. */
void pm_usb_plan(struct pm_writer *w, const struct pm_usb_req *r);

#endif /* PM_TUNEPLAN_H */
