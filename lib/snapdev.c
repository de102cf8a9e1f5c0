// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The devices of user-space hibernation: where the image is, and the
 * kernel it must belong to.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/reboot.h>
#include <linux/suspend_ioctls.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "parse.h"
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

int pm_resume_dev_read(struct pm_ctx *ctx, struct pm_resume_dev *d)
{
	char v[64], uev[1024], *name, *colon;
	ssize_t n;

	memset(d, 0, sizeof(*d));
	n = pm_attr_read(ctx, "/sys/power/resume", v, sizeof(v));
	if (n < 0)
		return (int)n;
	colon = strchr(v, ':');
	if (colon)
		*colon++ = '\0';
	if (!colon || pm_parse_u32(v, &d->major) < 0 ||
	    pm_parse_u32(colon, &d->minor) < 0)
		return pm_err_set(ctx, "parse", "/sys/power/resume", v, EINVAL,
				  "not MAJOR:MINOR");
	if (!d->major && !d->minor)
		return pm_err_set(ctx, "read", "/sys/power/resume", v, ENODEV,
				  "no resume device is set");
	if (pm_exists(ctx, "/sys/power/resume_offset") &&
	    pm_attr_read_u64(ctx, "/sys/power/resume_offset", &d->offset) < 0)
		return -ctx->err.err;
	n = pm_attr_readf(ctx, uev, sizeof(uev), "/sys/dev/block/%u:%u/uevent",
			  d->major, d->minor);
	if (n < 0)
		return (int)n;
	name = strstr(uev, "DEVNAME=");
	if (!name || (name != uev && name[-1] != '\n'))
		return pm_err_set(ctx, "parse", "/sys/dev/block/.../uevent",
				  NULL, EINVAL, "no DEVNAME");
	name += 8;
	name[strcspn(name, "\n")] = '\0';
	if (!name[0] || strstr(name, ".."))
		return pm_err_set(ctx, "parse", "/sys/dev/block/.../uevent",
				  name, EINVAL, "not a device name");
	snprintf(d->path, sizeof(d->path), "/dev/%s", name);
	return 0;
}

#define SNAPDEV "/dev/snapshot"

int pm_snapshot_open(struct pm_ctx *ctx, struct pm_snapshot *s, bool restore)
{
	int e = pm_write_allowed(ctx, SNAPDEV);

	s->fd = -1;
	s->frozen = false;
	if (e < 0)
		return e;
	/* The pages of this process must not go to the swap that the
	 * image goes to, nor be read back from it while user space is
	 * frozen.  In a test tree nothing is frozen. */
	if (ctx->real_root && mlockall(MCL_CURRENT | MCL_FUTURE) < 0)
		return pm_err_set(ctx, "mlockall", SNAPDEV, NULL, errno,
				  "the process cannot be locked in memory");
	e = pm_open_dev(ctx, SNAPDEV, restore ? O_WRONLY : O_RDONLY);
	if (e < 0)
		return pm_err_set(ctx, "open", SNAPDEV, NULL, -e,
				  e == -ENOENT ? "the kernel needs "
				  "CONFIG_HIBERNATION_SNAPSHOT_DEV" : NULL);
	s->fd = e;
	return 0;
}

void pm_snapshot_close(struct pm_snapshot *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	s->frozen = false;
}

static int snap_ioctl(struct pm_ctx *ctx, struct pm_snapshot *s,
		      unsigned long req, void *arg, const char *name)
{
	if (s->fd < 0)
		return pm_err_set(ctx, "ioctl", SNAPDEV, name, EBADF, NULL);
	if (ioctl(s->fd, req, arg) < 0)
		return pm_err_set(ctx, "ioctl", SNAPDEV, name, errno, NULL);
	return 0;
}

int pm_snapshot_set_swap(struct pm_ctx *ctx, struct pm_snapshot *s,
			 const struct pm_resume_dev *d)
{
	struct resume_swap_area a = {
		.offset = (__kernel_loff_t)d->offset,
		.dev = (__u32)makedev(d->major, d->minor),
	};

	return snap_ioctl(ctx, s, SNAPSHOT_SET_SWAP_AREA, &a,
			  "SNAPSHOT_SET_SWAP_AREA");
}

int pm_snapshot_platform(struct pm_ctx *ctx, struct pm_snapshot *s, bool on)
{
	return snap_ioctl(ctx, s, SNAPSHOT_PLATFORM_SUPPORT,
			  (void *)(unsigned long)on,
			  "SNAPSHOT_PLATFORM_SUPPORT");
}

int pm_snapshot_freeze(struct pm_ctx *ctx, struct pm_snapshot *s)
{
	int e = snap_ioctl(ctx, s, SNAPSHOT_FREEZE, NULL, "SNAPSHOT_FREEZE");

	if (!e)
		s->frozen = true;
	return e;
}

int pm_snapshot_unfreeze(struct pm_ctx *ctx, struct pm_snapshot *s)
{
	int e = snap_ioctl(ctx, s, SNAPSHOT_UNFREEZE, NULL,
			   "SNAPSHOT_UNFREEZE");

	if (!e)
		s->frozen = false;
	return e;
}

int pm_snapshot_create(struct pm_ctx *ctx, struct pm_snapshot *s, int *made)
{
	*made = 0;
	return snap_ioctl(ctx, s, SNAPSHOT_CREATE_IMAGE, made,
			  "SNAPSHOT_CREATE_IMAGE");
}

int pm_snapshot_size(struct pm_ctx *ctx, struct pm_snapshot *s,
		     uint64_t *bytes)
{
	__kernel_loff_t v = 0;
	int e = snap_ioctl(ctx, s, SNAPSHOT_GET_IMAGE_SIZE, &v,
			   "SNAPSHOT_GET_IMAGE_SIZE");

	*bytes = e ? 0 : (uint64_t)v;
	return e;
}

/* The device gives and takes at most one page a call, never across. */
static int snap_rw(struct pm_ctx *ctx, struct pm_snapshot *s, void *buf,
		   bool wr)
{
	size_t done = 0;
	ssize_t n;

	while (done < PM_SNAP_PAGE) {
		n = wr ? write(s->fd, (char *)buf + done, PM_SNAP_PAGE - done) :
			 read(s->fd, (char *)buf + done, PM_SNAP_PAGE - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pm_err_set(ctx, wr ? "write" : "read", SNAPDEV,
					  NULL, errno, NULL);
		if (n == 0)
			return pm_err_set(ctx, wr ? "write" : "read", SNAPDEV,
					  NULL, ENODATA, "the image ended early");
		done += (size_t)n;
	}
	return 0;
}

int pm_snapshot_read(struct pm_ctx *ctx, struct pm_snapshot *s, void *buf)
{
	return snap_rw(ctx, s, buf, false);
}

int pm_snapshot_write(struct pm_ctx *ctx, struct pm_snapshot *s,
		      const void *buf)
{
	return snap_rw(ctx, s, (void *)buf, true);
}

int pm_snapshot_alloc_page(struct pm_ctx *ctx, struct pm_snapshot *s,
			   uint64_t *page)
{
	__kernel_loff_t v = 0;
	int e = snap_ioctl(ctx, s, SNAPSHOT_ALLOC_SWAP_PAGE, &v,
			   "SNAPSHOT_ALLOC_SWAP_PAGE");

	/* The kernel gives a byte offset on the resume device. */
	*page = e ? 0 : (uint64_t)v / PM_SNAP_PAGE;
	return e;
}

int pm_snapshot_free_swap(struct pm_ctx *ctx, struct pm_snapshot *s)
{
	return snap_ioctl(ctx, s, SNAPSHOT_FREE_SWAP_PAGES, NULL,
			  "SNAPSHOT_FREE_SWAP_PAGES");
}

int pm_snapshot_free(struct pm_ctx *ctx, struct pm_snapshot *s)
{
	return snap_ioctl(ctx, s, SNAPSHOT_FREE, NULL, "SNAPSHOT_FREE");
}

int pm_snapshot_power_off(struct pm_ctx *ctx, struct pm_snapshot *s)
{
	return snap_ioctl(ctx, s, SNAPSHOT_POWER_OFF, NULL,
			  "SNAPSHOT_POWER_OFF");
}

int pm_snapshot_restore(struct pm_ctx *ctx, struct pm_snapshot *s)
{
	return snap_ioctl(ctx, s, SNAPSHOT_ATOMIC_RESTORE, NULL,
			  "SNAPSHOT_ATOMIC_RESTORE");
}

int pm_power_off(struct pm_ctx *ctx, bool restart)
{
	int e = pm_write_allowed(ctx, "/sys/power/disk");

	if (e < 0)
		return e;
	if (!ctx->real_root)
		return pm_err_set(ctx, "reboot", "/", NULL, EPERM,
				  "not below --sysroot");
	/* No sync: file systems are not touched after the snapshot, whose
	 * memory holds their dirty pages. */
	if (reboot(restart ? RB_AUTOBOOT : RB_POWER_OFF) < 0)
		return pm_err_set(ctx, "reboot", "/", NULL, errno, NULL);
	return 0;
}
