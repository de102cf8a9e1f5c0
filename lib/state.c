// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The state pmtools keeps below the system root (STORAGEDIR under /run,
 * the charge settings applied under /var/lib): folders made on the way,
 * never through a link, and files replaced whole by a rename.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "state.h"
#include "core.h"

/* As root: a folder that another user could change is not ours. */
static bool unsafe_dir(const struct stat *st)
{
	return geteuid() == 0 &&
	       (st->st_uid != 0 || (st->st_mode & (S_IWGRP | S_IWOTH)));
}

int pm_state_dir(struct pm_ctx *ctx, const char *path, mode_t mode)
{
	char part[PM_PATH_MAX];
	const char *p = path;
	int fd = pm_open(ctx, "/", O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return pm_err_set(ctx, "open", "/", NULL, -fd, NULL);
	while (*p) {
		size_t n;
		struct stat st;
		int next;

		p += strspn(p, "/");
		n = strcspn(p, "/");
		if (!n)
			break;
		if (n >= sizeof(part) || (n <= 2 && !strncmp(p, "..", n))) {
			close(fd);
			return pm_err_set(ctx, "open", path, NULL, EINVAL, NULL);
		}
		memcpy(part, p, n);
		part[n] = '\0';
		p += n;
		if (mkdirat(fd, part, *p ? 0755 : mode) < 0 && errno != EEXIST) {
			int e = errno;

			close(fd);
			return pm_err_set(ctx, "create", path, NULL, e, NULL);
		}
		next = openat(fd, part,
			      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(fd);
		if (next < 0)
			return pm_err_set(ctx, "open", path, NULL, errno,
					  errno == ENOTDIR || errno == ELOOP ?
						  "not a folder" :
						  NULL);
		if (fstat(next, &st) < 0 || unsafe_dir(&st)) {
			close(next);
			return pm_err_set(ctx, "open", path, NULL, EPERM,
					  "not owned by root, or writable by "
					  "group or others");
		}
		fd = next;
	}
	return fd;
}

int pm_state_put(struct pm_ctx *ctx, int dirfd, const char *shown,
		 const char *name, const char *text)
{
	char tmp[PM_NAME_MAX + 16];
	size_t len = strlen(text);
	int fd, err = 0;

	snprintf(tmp, sizeof(tmp), ".%s.%ld", name, (long)getpid());
	unlinkat(dirfd, tmp, 0);
	fd = openat(dirfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0)
		return pm_err_set(ctx, "create", shown, NULL, errno, NULL);
	if (len && write(fd, text, len) != (ssize_t)len)
		err = errno ? errno : EIO;
	if (!err && fsync(fd) < 0)
		err = errno;
	if (close(fd) < 0 && !err)
		err = errno;
	if (!err && renameat(dirfd, tmp, dirfd, name) < 0)
		err = errno;
	if (err) {
		unlinkat(dirfd, tmp, 0);
		return pm_err_set(ctx, "write", shown, NULL, err, NULL);
	}
	return 0;
}
