// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pm-hibernate --userspace: the hibernation image written by pmtools
 * instead of the kernel (userland-swsusp.rst): the kernel freezes user
 * space and makes the snapshot; we read it from /dev/snapshot, compress
 * and checksum it in blocks (lib/snapimg.c), write it to the swap pages
 * the kernel hands out on the resume device, the signature last, and
 * power off.  Anything that fails before that is undone: the signature
 * put back, the swap pages and the snapshot freed, user space thawed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ps.h"

struct uh {
	struct ps *p;
	struct ps_result *r;
	struct pm_snapshot snap;
	struct pm_resume_dev dev;
	struct pm_snap_io io;
	int fd;
	bool progress;		/* stderr is a terminal or the console */
	bool sig_written;
	bool platform;		/* SNAPSHOT_PLATFORM_SUPPORT is on */
	double t0;
	/* Drawn before the snapshot, so that the restored process knows
	 * which image it came back from. */
	uint8_t id[PM_SNAP_ID_LEN];
};

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * The device's page of the image's page: page 0, the signature, is the
 * swap header's, at resume_offset in a swap file (0 on a partition);
 * the pages the kernel hands out are the device's own.
 */
static off_t uh_off(const struct uh *u, uint64_t page)
{
	return (off_t)((page ? page : u->dev.offset) * PM_SNAP_PAGE);
}

static int uh_read(void *arg, uint64_t page, void *buf)
{
	struct uh *u = arg;
	ssize_t n = pread(u->fd, buf, PM_SNAP_PAGE, uh_off(u, page));

	if (n < 0)
		return -errno;
	return n == PM_SNAP_PAGE ? 0 : -ENODATA;
}

static int uh_write(void *arg, uint64_t page, const void *buf)
{
	struct uh *u = arg;
	ssize_t n = pwrite(u->fd, buf, PM_SNAP_PAGE, uh_off(u, page));

	if (n < 0)
		return -errno;
	if (page == 0)
		u->sig_written = true;
	return n == PM_SNAP_PAGE ? 0 : -ENOSPC;
}

static int uh_sync(void *arg)
{
	struct uh *u = arg;

	return fsync(u->fd) < 0 ? -errno : 0;
}

static int uh_alloc(void *arg, uint64_t *page)
{
	struct uh *u = arg;

	return pm_snapshot_alloc_page(&u->p->ctx, &u->snap, page) < 0 ?
		       -u->p->ctx.err.err : 0;
}

/* The step that failed, the ioctl or file and the errno, in r->error. */
static int uh_fail(struct uh *u, const char *step)
{
	const struct pm_err *e = &u->p->ctx.err;
	struct ps_result *r = u->r;

	r->err = e->err;
	if (!strcmp(e->op, "ioctl"))
		snprintf(r->error, sizeof(r->error),
			 "user-space hibernation: %s: %s on %s: %s (%s)", step,
			 e->value, e->file, strerror(e->err),
			 pm_errno_name(e->err));
	else
		snprintf(r->error, sizeof(r->error),
			 "user-space hibernation: %s: %s %s: %s (%s)%s%s",
			 step, e->op, e->file, strerror(e->err),
			 pm_errno_name(e->err), e->hint[0] ? "; " : "",
			 e->hint);
	return PM_EXIT_FAIL;
}

static void progress(struct uh *u, uint64_t done, uint64_t total, bool end)
{
	double s = mono_s() - u->t0;

	if (!u->progress || u->p->t.verbose < 0)
		return;
	fprintf(stderr, "\r%s: writing the image: %3llu%% (%llu of %llu MiB), "
		"%.1f MB/s%s", u->p->name,
		(unsigned long long)(total ? 100 * done / total : 100),
		(unsigned long long)(done >> 20),
		(unsigned long long)(total >> 20),
		s > 0 ? (double)done / s / 1e6 : 0.0, end ? "\n" : "");
}

/* The snapshot from the kernel into the image, block by block. */
static int write_image(struct uh *u)
{
	struct pm_ctx *ctx = &u->p->ctx;
	struct ps_result *r = u->r;
	uint8_t page[PM_SNAP_PAGE];
	struct pm_snapw w;
	uint64_t size, done = 0, step;
	char rel[PM_SNAP_RELEASE_MAX];
	int e;

	if (pm_snapshot_size(ctx, &u->snap, &size) < 0)
		return uh_fail(u, "the image's size");
	if (pm_kernel_release(ctx, rel, sizeof(rel)) < 0)
		return uh_fail(u, "the kernel release");
	/* A swap file's pages are written by its file system through the
	 * file's own cache, synced before the freeze: the device's cache
	 * may still hold what a page was before (mke2fs's zeros), and the
	 * swap header must be read from the disk. */
	posix_fadvise(u->fd, 0, 0, POSIX_FADV_DONTNEED);
	u->t0 = mono_s();
	pm_err_clear(ctx);
	e = pm_snapw_open(&w, &u->io, size, rel, u->id, 1);
	/* Restored in the mode it was made in, as the kernel's own. */
	if (u->platform)
		w.h.flags |= PM_SNAP_F_PLATFORM;
	step = size / 20 ? size / 20 : 1;
	while (!e && done < size) {
		if (pm_snapshot_read(ctx, &u->snap, page) < 0) {
			pm_snapw_free(&w);
			return uh_fail(u, "reading the snapshot");
		}
		e = pm_snapw_add(&w, page, sizeof(page));
		done += sizeof(page);
		if (done % step < sizeof(page))
			progress(u, done, size, false);
	}
	if (!e)
		e = pm_snapw_finish(&w);
	if (!e && fsync(u->fd) < 0)
		e = -errno;
	r->img_bytes = size;
	r->stored_bytes = w.h.data_size;
	r->write_s = mono_s() - u->t0;
	pm_snap_id_hex(w.h.id, r->img_id);
	pm_snapw_free(&w);
	if (e) {
		/* A swap page the kernel refused: name its ioctl. */
		bool ioc = !strcmp(ctx->err.op, "ioctl") && ctx->err.err == -e;

		r->err = -e;
		snprintf(r->error, sizeof(r->error),
			 "user-space hibernation: writing the image to %s: %s "
			 "(%s%s%s)", u->dev.path,
			 w.why[0] ? w.why : strerror(-e),
			 ioc ? ctx->err.value : "",
			 ioc ? " on /dev/snapshot: " : "", pm_errno_name(-e));
		return PM_EXIT_FAIL;
	}
	progress(u, size, size, true);
	return PM_EXIT_OK;
}

/* Whatever was done, undone, in reverse; the first error is kept. */
static void undo(struct uh *u)
{
	struct pm_ctx *ctx = &u->p->ctx;
	char why[PM_SNAP_WHY_MAX];
	struct pm_err keep = ctx->err;

	if (u->sig_written &&
	    pm_snap_sig_restore(&u->io, 0, why, sizeof(why)))
		pm_warn(&u->p->t, "%s: the swap signature could not be put "
			"back: %s (mkswap %s)", u->dev.path, why, u->dev.path);
	/* The pages written so far go to the disk now, while their swap
	 * slots are still ours, and leave the device's cache: written back
	 * later they would land on whatever has the slots by then (pages
	 * swapped out, or a new file's data where a swap file was). */
	if (u->fd >= 0) {
		fsync(u->fd);
		posix_fadvise(u->fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	if (u->snap.fd >= 0) {
		pm_snapshot_free_swap(ctx, &u->snap);
		pm_snapshot_free(ctx, &u->snap);
		if (u->snap.frozen)
			pm_snapshot_unfreeze(ctx, &u->snap);
		pm_snapshot_close(&u->snap);
	}
	if (u->fd >= 0)
		close(u->fd);
	u->fd = -1;
	ctx->err = keep;
}

static int uh_open(struct uh *u, const struct ps_leg *l)
{
	struct pm_ctx *ctx = &u->p->ctx;
	struct stat st;

	if (pm_resume_dev_read(ctx, &u->dev) < 0)
		return uh_fail(u, "the resume device");
	u->fd = pm_snap_image_open(ctx, u->dev.path, true);
	if (u->fd < 0)
		return uh_fail(u, "the resume device");
	if (pm_snap_fileio_init(&u->io, &(struct pm_snap_fileio){ 0 },
				u->fd, u->dev.offset) < 0)
		return uh_fail(u, "the resume device");
	u->io.read = uh_read;
	u->io.write = uh_write;
	u->io.alloc = uh_alloc;
	u->io.sync = uh_sync;
	u->io.arg = u;
	u->progress = fstat(2, &st) == 0 && S_ISCHR(st.st_mode);
	if (pm_snapshot_open(ctx, &u->snap, false) < 0)
		return uh_fail(u, "opening the snapshot device");
	if (pm_snapshot_set_swap(ctx, &u->snap, &u->dev) < 0)
		return uh_fail(u, "the swap area");
	if (!strcmp(l->disk, "platform")) {
		if (pm_snapshot_platform(ctx, &u->snap, true) < 0)
			return uh_fail(u, "the platform mode");
		u->platform = true;
	}
	return PM_EXIT_OK;
}

/*
 * Back from the restore, this process's memory is as it was at the
 * snapshot: what the writer measured after it is read back from the
 * image's header, which pm-resume left on the device with its own time.
 */
static void image_stats(struct uh *u)
{
	struct ps_result *r = u->r;
	struct pm_snap_hdr h;
	uint32_t ms;

	/* The block device's cache is the snapshot's, from before the
	 * image was written: drop it to read what is on the disk. */
	posix_fadvise(u->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (pm_snap_last(&u->io, u->id, &h, &ms) < 0) {
		pm_note(&u->p->t, "the image's header is gone from %s: no "
			"figures of the image", u->dev.path);
		return;
	}
	r->img_bytes = h.image_size;
	r->stored_bytes = h.data_size;
	r->write_s = h.write_ms / 1000.0;
	r->read_s = ms / 1000.0;
	pm_snap_id_hex(u->id, r->img_id);
}

/*
 * The hibernation itself, in place of the write of "disk" to
 * /sys/power/state: PM_EXIT_OK once back from a resume (r->entered), or
 * PM_EXIT_FAIL with r->error naming the step and everything undone.
 */
int ps_user_hibernate(struct ps *p, const struct ps_leg *l,
		      struct ps_result *r)
{
	struct uh u = { .p = p, .r = r, .fd = -1, .snap = { .fd = -1 } };
	int made = 0, st;

	r->user = true;
	if (pm_snap_new_id(u.id) < 0) {
		snprintf(r->error, sizeof(r->error),
			 "user-space hibernation: no random id: %s",
			 strerror(errno));
		return PM_EXIT_FAIL;
	}
	st = uh_open(&u, l);
	/* The file systems on the disk before the freeze, as the kernel's
	 * hibernate() does: a swap file's header written by mkswap may
	 * still be in the file's cache, and nothing may write to them once
	 * the snapshot is made. */
	if (!st)
		sync();
	if (!st && pm_snapshot_freeze(&p->ctx, &u.snap) < 0)
		st = uh_fail(&u, "freezing user space");
	if (!st && pm_snapshot_create(&p->ctx, &u.snap, &made) < 0)
		st = uh_fail(&u, "making the snapshot");
	if (!st && !made) {
		/* Back from the restore: closing the device thaws. */
		pm_snapshot_close(&u.snap);
		image_stats(&u);
		close(u.fd);
		r->entered = true;
		return PM_EXIT_OK;
	}
	if (!st)
		st = write_image(&u);
	if (!st) {
		if (!strcmp(l->disk, "platform"))
			pm_snapshot_power_off(&p->ctx, &u.snap);
		else
			pm_power_off(&p->ctx, !strcmp(l->disk, "reboot"));
		st = uh_fail(&u, "powering off");
	}
	undo(&u);
	return st;
}
