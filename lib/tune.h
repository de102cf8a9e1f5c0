/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: device tunables, the settings powertop lists as "Tunables"
 * (lib/tune.c): each file, its value, the value that saves power, and
 * whether it has it.
 */
#ifndef PM_TUNE_H
#define PM_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

enum pm_tune_kind {
	PM_TUNE_RUNTIME_PM,	/* a PCI device's power/control */
	PM_TUNE_USB_AUTOSUSPEND,	/* a USB device's power/control */
	PM_TUNE_SATA_LINK,	/* a SCSI host's link_power_management_policy */
	PM_TUNE_PCIE_ASPM,	/* pcie_aspm's policy (bracketed choice) */
	PM_TUNE_AUDIO_POWER_SAVE,	/* snd_hda_intel's power_save */
	PM_TUNE_AUDIO_CONTROLLER,	/* its power_save_controller */
	PM_TUNE_NMI_WATCHDOG,	/* kernel.nmi_watchdog */
	PM_TUNE_DIRTY_WRITEBACK,	/* vm.dirty_writeback_centisecs */
	PM_TUNE_LAPTOP_MODE,	/* vm.laptop_mode */
	PM_TUNE_WIFI_PS,	/* a wireless interface's power save, through
				 * nl80211 (lib/nl80211.c) */
	PM_TUNE_NKINDS,
};

/* "runtime_pm", "usb_autosuspend", ... (the JSON and kv word). */
const char *pm_tune_kind_name(enum pm_tune_kind k);

/* Whether a value saves power. */
enum pm_tune_state {
	PM_TUNE_UNKNOWN = -1,	/* the file cannot be read */
	PM_TUNE_BAD = 0,
	PM_TUNE_GOOD = 1,
};

/*
 * One tunable.  Strings the kernel or the ids do not give are "".
 * Class codes are the kernel's text: "0x0c0330" (PCI), "03" (USB).
 */
struct pm_tunable {
	enum pm_tune_kind kind;
	char path[PM_PATH_MAX];	/* the file, "/sys/bus/pci/devices/...";
				 * Wi-Fi: "nl80211:wlan0/power_save" */
	char device[PM_NAME_MAX];	/* "0000:00:14.0", "1-2", "host0",
					 * "wlan0" */
	char vendor_id[8], device_id[8];	/* "8086", "a0ed" */
	char class_code[16];	/* PCI class or USB class of the device,
				 * or of its first interface when the
				 * device's is 00 or ef */
	char class_name[64];	/* "USB controller", "Human Interface
				 * Device" */
	char name[224];		/* "Intel Corporation Tiger Lake-LP USB 3.2
				 * Gen 2x1 xHCI Host Controller" */
	char driver[PM_NAME_MAX];
	char if_classes[48];	/* USB: its interfaces' classes, "03 e0" */
	char value[64];		/* as read; the choice in brackets */
	const char *good_value;	/* the value that saves power */
	int64_t autosuspend_delay_ms;	/* USB; PM_UNKNOWN_S64 */
	enum pm_tune_state state;
};

/*
 * Whether value saves power for a tunable of kind k: runtime PM and USB
 * autosuspend "auto"; SATA med_power_with_dipm, min_power_with_partial
 * or min_power; ASPM
 * powersave or powersupersave; power_save above 0; power_save_controller
 * Y; nmi_watchdog 0; dirty_writeback_centisecs at least 1500 (0 stops
 * periodic writeback: bad); laptop_mode above 0; Wi-Fi power save
 * "on".  "" is unknown.
 */
enum pm_tune_state pm_tune_judge(enum pm_tune_kind k, const char *value);
/* The value pmctl tune proposes for a kind ("auto", "1500", ...). */
const char *pm_tune_good_value(enum pm_tune_kind k);

/*
 * The kernel's bracketed choice: "[default] performance powersave" gives
 * "default".  Text without brackets is copied whole.  -EINVAL for an
 * unclosed bracket or a choice that does not fit.
 */
int pm_bracket_choice(const char *text, char *out, size_t size);

/*
 * Names from a pci.ids or usb.ids text (the same format): the vendor and
 * device lines, and the "C" class section with its subclasses.  Each
 * returns true and fills out when found.  ids may be NULL.
 */
bool pm_ids_vendor(const char *ids, const char *vendor, char *out,
		   size_t size);
bool pm_ids_device(const char *ids, const char *vendor, const char *device,
		   char *out, size_t size);
/* class: "0c" or "0c03" (PCI), "03" (USB); the most precise name. */
bool pm_ids_class(const char *ids, const char *cls, char *out, size_t size);

/*
 * A value a point gives for a tunable, as the word the kernel takes, into
 * out: runtime PM "auto" or "on"; USB autosuspend on/off (pm_parse_bool)
 * as "auto"/"on"; a SATA policy of Linux 6.1 (or keep_firmware_settings);
 * an ASPM policy; power_save 0 to 3600 s; power_save_controller a
 * boolean as Y/N; nmi_watchdog a boolean as 1/0;
 * dirty_writeback_centisecs 0 to 2147483647; laptop_mode 0 to 3600 s;
 * Wi-Fi power save a boolean as "on"/"off".  -EINVAL otherwise.
 */
int pm_tune_value_parse(enum pm_tune_kind k, const char *s, char *out,
			size_t size);
/* The file of a tunable that is not a device's, NULL for the others. */
const char *pm_tune_file(enum pm_tune_kind k);
/*
 * A [sysctl] key: kernel.nmi_watchdog, vm.dirty_writeback_centisecs or
 * vm.laptop_mode ('/' may stand for '.'): its kind, or -1.
 */
int pm_sysctl_kind(const char *key);

/*
 * USB classes to leave alone, from words: input (03, HID), audio (01),
 * comm (02 and 0a: modems, phones, WWAN), printer (07), storage (08),
 * hub (09), video (0e), bluetooth (e0: wireless controllers), or two hex
 * digits; "none" for none.  Separated by commas or blanks.  Into codes,
 * "03 01 ..."; -EINVAL naming nothing, *bad the first word that is none
 * of these.
 */
int pm_usb_exclude_parse(const char *s, char *codes, size_t size,
			 const char **bad, size_t *badlen);
/* The device's class or one of its interfaces' is in codes. */
bool pm_usb_excluded(const struct pm_tunable *t, const char *codes);

/*
 * Network interface names to leave alone ([wifi] exclude), separated by
 * commas or blanks, or "none" alone.  A name is what the kernel takes
 * (dev_valid_name: 1 to 15 bytes, not "." or "..", no '/', ':' or
 * blank), and printable.  Into names, "wlan0 wlx00c0ca", "" for none;
 * -EINVAL naming nothing, *bad the first word that is not a name.
 */
int pm_ifname_list_parse(const char *s, char *names, size_t size,
			 const char **bad, size_t *badlen);

/*
 * [runtime_pm]'s defaults of what a line for many devices leaves alone:
 * audio and input devices (the "but the keyboard and audio"),
 * and the drivers TLP 1.4 and later leave alone by default
 * (RUNTIME_PM_DRIVER_DENYLIST in TLP's tlp.conf: runtime PM breaks or
 * wedges them).
 */
#define PM_RPM_EXCLUDE_CLASS "audio input"
#define PM_RPM_EXCLUDE_DRIVER "mei_me nouveau radeon xhci_hcd"

/*
 * PCI classes from words: audio (0401, 0403), input (09), display (03),
 * network (02), storage (01), bridge (06), usb (0c03), or 2, 4 or 6 hex
 * digits, "0x" optional; "none" for none when none_ok.  Separated by
 * commas or blanks.  Into lower-case codes, "0401 0403 09"; -EINVAL
 * naming nothing, *bad the first word that is none of these.
 */
int pm_pci_class_parse(const char *s, bool none_ok, char *codes,
		       size_t size, const char **bad, size_t *badlen);
/* The kernel's class text ("0x040380") begins with one of codes. */
bool pm_pci_class_in(const char *cls, const char *codes);
/*
 * Driver names (letters, digits, '_', '-', at most PM_NAME_MAX - 1) or
 * "none" when none_ok, separated by commas or blanks, into "a b c";
 * -EINVAL as pm_pci_class_parse.
 */
int pm_driver_list_parse(const char *s, bool none_ok, char *out,
			 size_t size, const char **bad, size_t *badlen);

struct pm_tunables {
	struct pm_tunable *v;
	int n, cap;
};

/*
 * Every tunable the system root offers, in the order of enum
 * pm_tune_kind, devices by name; the wireless interfaces whose power
 * save nl80211 gives (pm_wifi_list) last.  Names come from pci.ids and usb.ids
 * under the root (/usr/share/misc, or /var/lib/usbutils for usb.ids)
 * when they are there, else from the device's own strings (USB) or the
 * class alone.  A USB device with an interface that does not support
 * autosuspend is left out, as powertop does.  Returns the count or
 * -ENOMEM.
 */
int pm_tunables_read(struct pm_ctx *ctx, struct pm_tunables *list);
void pm_tunables_free(struct pm_tunables *list);
/* The SATA hosts, the one-file tunables and Wi-Fi alone, as
 * pm_tunables_read. */
int pm_tune_globals_read(struct pm_ctx *ctx, struct pm_tunables *list);
/* The PCI and USB devices alone (no names read), as pm_tunables_read. */
int pm_device_tunables_read(struct pm_ctx *ctx, struct pm_tunables *list);
/*
 * The /sys/devices folder of a device's tunable (runtime PM, USB
 * autosuspend) into out: 0, or -EINVAL for another kind, or
 * pm_device_resolve's -errno.
 */
int pm_tunable_device(struct pm_ctx *ctx, const struct pm_tunable *t,
		      char *out, size_t size);
/* The USB devices alone (no names read), as pm_tunables_read has them. */
int pm_usb_tunables_read(struct pm_ctx *ctx, struct pm_tunables *list);

#endif /* PM_TUNE_H */
