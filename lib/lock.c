// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The writers' locks: flock(2) on a file under /run, so that pmctl and
 * opp-set never interleave their writes, and a crashed holder releases
 * the lock with its last fd.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lock.h"
#include "core.h"

/* How often a --wait=SEC waiter tries again. */
#define LOCK_POLL_NS (10L * 1000 * 1000)

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void read_holder(int fd, char *holder, size_t size)
{
	ssize_t n;

	if (!holder || !size)
		return;
	holder[0] = '\0';
	n = pread(fd, holder, size - 1, 0);
	if (n <= 0)
		return;
	holder[n] = '\0';
	pm_strip(holder, (size_t)n);
	/* Only "PID NAME" as we write it; anything else is not shown. */
	for (char *p = holder; *p; p++)
		if (*p < ' ' || *p > '~') {
			holder[0] = '\0';
			return;
		}
}

static int open_lock(struct pm_ctx *ctx, const char *path, bool *rw)
{
	int fd = pm_open_create(ctx, path, O_RDWR | O_NOFOLLOW, 0644);

	*rw = fd >= 0;
	if (fd == -ENOENT && !ctx->real_root) {
		/* A system root built for tests may lack /run. */
		char dir[PM_PATH_MAX], *slash;

		snprintf(dir, sizeof(dir), "%s", path);
		slash = strrchr(dir, '/');
		if (slash && slash != dir) {
			*slash = '\0';
			if (mkdirat(ctx->rootfd, dir[0] == '/' ? dir + 1 : dir,
				    0755) < 0 && errno != EEXIST)
				return -errno;
			fd = pm_open_create(ctx, path, O_RDWR | O_NOFOLLOW,
					    0644);
			*rw = fd >= 0;
		}
	}
	/* flock works on a read-only fd: a lock made by root still serves. */
	if (fd == -EACCES) {
		fd = pm_open(ctx, path, O_RDONLY | O_NOFOLLOW);
		if (fd == -ENOENT)
			fd = -EACCES;
	}
	return fd;
}

int pm_lock_take(struct pm_ctx *ctx, const char *path, const char *tool,
		 double wait_s, char *holder, size_t size)
{
	double deadline = now_s() + wait_s;
	bool rw;
	int fd, r;

	if (holder && size)
		holder[0] = '\0';
	r = pm_write_allowed(ctx, path);
	if (r < 0)
		return r;
	fd = open_lock(ctx, path, &rw);
	if (fd < 0)
		return pm_err_set(ctx, "open", path, NULL, -fd, NULL);
	for (;;) {
		int op = LOCK_EX | (wait_s == 0 ? 0 : LOCK_NB);

		if (flock(fd, op) == 0)
			break;
		r = errno;
		if (r == EINTR && wait_s == 0)
			continue;
		if (r != EWOULDBLOCK || wait_s < 0 || now_s() >= deadline) {
			if (r == EWOULDBLOCK)
				read_holder(fd, holder, size);
			close(fd);
			return pm_err_set(ctx, "lock", path, NULL, r, NULL);
		}
		nanosleep(&(struct timespec){ 0, LOCK_POLL_NS }, NULL);
	}
	if (rw) {
		char me[PM_NAME_MAX + 24];
		int len = snprintf(me, sizeof(me), "%ld %s\n", (long)getpid(),
				   tool);

		if (ftruncate(fd, 0) == 0 &&
		    pwrite(fd, me, (size_t)len, 0) != len) {
			/* The lock holds without the note. */
		}
	}
	return fd;
}

void pm_lock_release(int fd)
{
	if (fd >= 0)
		close(fd);
}
