// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The devices of user-space hibernation: where the image is, and the
 * kernel it must belong to.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "snapdev.h"

int pm_snap_image_open(struct pm_ctx *ctx, const char *path, bool write)
{
	struct stat st;
	const char *kind;
	int fd, e;

	if (path[0] != '/')
		return pm_err_set(ctx, "open", path, NULL, EINVAL,
				  "an absolute path (/dev/vda2, "
				  "/var/tmp/image)");
	if (write) {
		e = pm_write_allowed(ctx, path);
		if (e < 0)
			return e;
	}
	fd = pm_openat_any(ctx, ctx->rootfd, path,
			   (write ? O_RDWR : O_RDONLY) | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return pm_err_set(ctx, "open", path, NULL, -fd, NULL);
	if (fstat(fd, &st) < 0) {
		e = errno;
		close(fd);
		return pm_err_set(ctx, "open", path, NULL, e, NULL);
	}
	if (S_ISBLK(st.st_mode) || S_ISREG(st.st_mode))
		return fd;
	close(fd);
	kind = pm_odd_kind(st.st_mode);
	return pm_err_set(ctx, "open", path, NULL, ENXIO,
			  "%s, not a block device or a file",
			  kind ? kind : "a folder");
}

int pm_kernel_release(struct pm_ctx *ctx, char *buf, size_t size)
{
	ssize_t n = pm_attr_read(ctx, "/proc/sys/kernel/osrelease", buf, size);

	if (n < 0)
		return (int)n;
	if (n == 0 || (size_t)n >= PM_SNAP_RELEASE_MAX)
		return pm_err_set(ctx, "read", "/proc/sys/kernel/osrelease",
				  buf, EINVAL, "not a kernel release");
	return 0;
}
