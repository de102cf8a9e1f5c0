/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the devices of user-space hibernation (lib/snapdev.c): the
 * image's device or file below the system root, and the kernel release
 * an image must match.
 */
#ifndef PM_SNAPDEV_H
#define PM_SNAPDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "snapimg.h"

/*
 * Open the image at path (absolute, below the root): a block device or
 * a regular file, read-only or, with write, read-write (refused under
 * PM_TEST_GUARD on the real root).  The fd, or -errno with ctx->err
 * filled (-ENXIO: neither a block device nor a file).
 */
int pm_snap_image_open(struct pm_ctx *ctx, const char *path, bool write);
/* The running kernel's release (/proc/sys/kernel/osrelease): 0 or
 * -errno. */
int pm_kernel_release(struct pm_ctx *ctx, char *buf, size_t size);

/*
 * The resume device as the kernel has it (/sys/power/resume,
 * resume_offset), and its node (/dev/NAME from the block device's
 * uevent): 0 or -errno (-ENODEV: none set).
 */
struct pm_resume_dev {
	uint32_t major, minor;
	uint64_t offset;		/* resume_offset, in pages */
	char path[PM_PATH_MAX];		/* "/dev/vda" */
};
int pm_resume_dev_read(struct pm_ctx *ctx, struct pm_resume_dev *d);

/*
 * The kernel's snapshot device, /dev/snapshot (userland-swsusp.rst),
 * opened to read (hibernate) or to write (restore).  The open and every
 * ioctl are refused under PM_TEST_GUARD on the real root; on the real
 * root the process is locked in memory first (mlockall), as the
 * interface demands.  Each returns 0 or -errno with ctx->err naming the
 * ioctl ("ioctl", "/dev/snapshot", "SNAPSHOT_FREEZE", errno).
 */
struct pm_snapshot {
	int fd;
	bool frozen;
};
int pm_snapshot_open(struct pm_ctx *ctx, struct pm_snapshot *s, bool restore);
void pm_snapshot_close(struct pm_snapshot *s);
int pm_snapshot_set_swap(struct pm_ctx *ctx, struct pm_snapshot *s,
			 const struct pm_resume_dev *d);
int pm_snapshot_platform(struct pm_ctx *ctx, struct pm_snapshot *s, bool on);
int pm_snapshot_freeze(struct pm_ctx *ctx, struct pm_snapshot *s);
int pm_snapshot_unfreeze(struct pm_ctx *ctx, struct pm_snapshot *s);
/* *made: 1 the image was made (write it), 0 back from a restore. */
int pm_snapshot_create(struct pm_ctx *ctx, struct pm_snapshot *s,
		       int *made);
int pm_snapshot_size(struct pm_ctx *ctx, struct pm_snapshot *s,
		     uint64_t *bytes);
/* One page of the image to or from buf (PM_SNAP_PAGE bytes). */
int pm_snapshot_read(struct pm_ctx *ctx, struct pm_snapshot *s, void *buf);
int pm_snapshot_write(struct pm_ctx *ctx, struct pm_snapshot *s,
		      const void *buf);
/* A swap page for the image: its page number on the resume device. */
int pm_snapshot_alloc_page(struct pm_ctx *ctx, struct pm_snapshot *s,
			   uint64_t *page);
int pm_snapshot_free_swap(struct pm_ctx *ctx, struct pm_snapshot *s);
int pm_snapshot_free(struct pm_ctx *ctx, struct pm_snapshot *s);
int pm_snapshot_power_off(struct pm_ctx *ctx, struct pm_snapshot *s);
int pm_snapshot_restore(struct pm_ctx *ctx, struct pm_snapshot *s);
/* Power off or reboot now (after the image is written): -errno. */
int pm_power_off(struct pm_ctx *ctx, bool restart);

#endif /* PM_SNAPDEV_H */
