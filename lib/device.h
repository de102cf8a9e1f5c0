/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: devices: runtime PM and wakeup sources (lib/device.c).
 */
#ifndef PM_DEVICE_H
#define PM_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/*
 * Devices' runtime PM and wakeup (power/ of each folder below
 * /sys/devices).  A value the kernel does not give is "" for text,
 * PM_UNKNOWN or PM_UNKNOWN_S64 for numbers, -1 for a flag.
 */
struct pm_device {
	char *path;		/* "/sys/devices/...", malloc'ed with the names */
	const char *driver;	/* basename of the driver link, NULL: none */
	const char *subsystem;	/* basename of the subsystem link, NULL */
	char control[16];	/* "auto", "on" */
	char runtime_status[24];	/* "active", "suspended", ... */
	uint64_t runtime_active_ms, runtime_suspended_ms;
	int64_t autosuspend_delay_ms;	/* unknown also when EIO: not used */
	char wakeup[16];	/* "enabled", "disabled"; "" not capable */
	uint64_t wakeup_count, wakeup_active_count, wakeup_abort_count;
	uint64_t wakeup_expire_count;
	int wakeup_active;	/* 0/1 */
	int64_t wakeup_total_ms, wakeup_max_ms, wakeup_last_ms;
	/*
	 * pm_qos_resume_latency_us as a limit: PM_UNKNOWN_S64 when the file
	 * is missing or says "0" (no constraint), 0 for "n/a" (none allowed).
	 */
	int64_t resume_latency_limit_us;
};

struct pm_devices {
	struct pm_device *v;
	int n, cap;
};

/*
 * Called with a folder's system path and subsystem (NULL: no link)
 * before its power/ folder is read: false skips the device.
 */
typedef bool (*pm_device_want)(void *arg, const char *path,
			       const char *subsystem);

/*
 * Append the devices below base (a folder under /sys/devices, itself
 * included) whose power/ folder has runtime PM or wakeup files, reading
 * each power/ folder once; symlinks are not followed.  want NULL takes
 * every device; base NULL is /sys/devices.  Returns the count added or
 * -errno (-ENOENT: no base).
 */
int pm_devices_read(struct pm_ctx *ctx, const char *base,
		    pm_device_want want, void *arg, struct pm_devices *list);
/* A device's path below /sys/devices ("/pci0000:00/..."), as listed. */
const char *pm_device_rel(const char *path);
/* The last component of the target of link NAME in folder DFD (a
 * device's "driver" or "subsystem"), "" when it is not a link or the
 * name does not fit SIZE. */
void pm_link_base(int dfd, const char *name, char *buf, size_t size);
/* Parents before children, names in version order (cpu2 before cpu10). */
void pm_devices_sort(struct pm_devices *list);
void pm_devices_free(struct pm_devices *list);
/* The order of pm_devices_sort on two system paths. */
int pm_device_path_cmp(const char *a, const char *b);

/*
 * Resolve a device path as a user gives it (/sys/class/net/eth0,
 * /sys/bus/pci/devices/0000:00:14.0, /sys/devices/...) to the folder it
 * names: out gets its canonical system path.  Symlinks are followed
 * inside the system root only.  Errors, each with a record naming path:
 *   -EINVAL  not absolute, or a ".." component
 *   -EXDEV   a link leads out of the system root (an absolute target
 *            under a --sysroot, or too many ".."), or the path resolves
 *            outside /sys/devices (out then has where it leads)
 *   -ENOENT  a component does not exist;  -ENOTDIR  not a folder
 *   -ELOOP   more than PM_MAX_LINKS links;  -ENAMETOOLONG
 */
#define PM_MAX_LINKS 40
int pm_device_resolve(struct pm_ctx *ctx, const char *path, char *out,
		      size_t size);

/*
 * The devices of /sys/class/NAME and their parents (the device link of
 * each member), as /sys/devices paths in *paths (malloc'ed, sorted).
 * Returns the count, 0 when there is no such class, or -ENOMEM.
 */
int pm_class_devices(struct pm_ctx *ctx, const char *name, char ***paths);

/* --runtime: "auto" or "on"; *value gets the word to write.  -EINVAL. */
int pm_device_control_parse(const char *s, const char **value);
/* --wakeup: enabled/disabled or a pm_parse_bool word; -EINVAL. */
int pm_device_wakeup_parse(const char *s, const char **value);

#endif /* PM_DEVICE_H */
