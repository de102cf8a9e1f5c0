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

#endif /* PM_SNAPDEV_H */
