/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fxcopy: a test's private copy of a fixture tree.
 *
 *   fxcopy SRC DEST   copy what is in SRC into DEST (made when missing),
 *                     as "cp -a SRC/. DEST/" does for what the fixtures
 *                     hold: directories, regular files and symbolic
 *                     links, each with its mode; DEST gets SRC's mode
 *
 * Why not cp -a: it asks about extended attributes, ACLs, owners and
 * times of every file, about 16 system calls a file where this takes 8,
 * and the tests make 1 600 copies of trees of up to 1 600 files (a tenth
 * of make check's CPU time went to them).  Times and owners are not kept:
 * a test compares its copy with itself, never with the fixture.  Any
 * other kind of file (a device, a FIFO, a socket) is refused, and so is
 * a hard-linked file: a fixture has none, and a copy would not be one.
 *
 * Exit: 0 copied, 1 an error (named on stderr), 2 bad usage.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char buf[1 << 16];

static int fail(const char *path, const char *what)
{
	fprintf(stderr, "fxcopy: %s: %s: %s\n", path, what, strerror(errno));
	return -1;
}

static int refuse(const char *path, const char *why)
{
	fprintf(stderr, "fxcopy: %s: %s\n", path, why);
	return -1;
}

/* SIZE bytes of IN into OUT by copy_file_range, the kernel copying page to
 * page: one system call where read and write take two, and a third to
 * find the end.  1 when the file system cannot (the caller copies with
 * read and write), -1 on an error. */
static int copy_range(int in, int out, off_t size, const char *path)
{
	static int unsupported;

	while (size > 0 && !unsupported) {
		ssize_t n = copy_file_range(in, NULL, out, NULL, (size_t)size, 0);

		if (n > 0) {
			size -= n;
			continue;
		}
		if (n == 0)	/* shorter than its size said: read the rest */
			return 1;
		if (errno == EINTR)
			continue;
		if (errno != ENOSYS && errno != EXDEV && errno != EINVAL &&
		    errno != EOPNOTSUPP)
			return fail(path, "copy");
		unsupported = 1;
	}
	return size > 0;
}

static int copy_file(int sdir, int ddir, const char *name,
		     const struct stat *st, const char *path)
{
	int in = -1, out, rc = 0;
	ssize_t n;

	/* An empty file has nothing to read. */
	if (st->st_size > 0) {
		in = openat(sdir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (in < 0)
			return fail(path, "open");
	}
	/* umask(0) in main: the mode is the source's, whatever it is. */
	out = openat(ddir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
					 O_CLOEXEC,
		     st->st_mode & 07777);
	if (out < 0) {
		if (in >= 0)
			close(in);
		return fail(path, "create");
	}
	if (in < 0)
		goto out;
	rc = copy_range(in, out, st->st_size, path);
	if (rc <= 0)
		goto out;
	rc = 0;
	/* Where copy_file_range cannot: read and write, from where it
	 * stopped, to the end (the file may have grown). */
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(out, buf + off, (size_t)(n - off));

			if (w < 0) {
				rc = fail(path, "write");
				goto out;
			}
			off += w;
		}
	}
	if (n < 0)
		rc = fail(path, "read");
out:
	if (in >= 0)
		close(in);
	if (close(out) < 0 && rc == 0)
		rc = fail(path, "close");
	return rc;
}

/* Copy the entries of the open directory sdir into ddir. */
static int copy_dir(int sdir, int ddir, char *path, size_t plen)
{
	DIR *d;
	struct dirent *e;
	int rc = 0, dfd;

	dfd = dup(sdir);
	if (dfd < 0 || !(d = fdopendir(dfd))) {
		if (dfd >= 0)
			close(dfd);
		return fail(path, "read the directory");
	}
	while (rc == 0 && (errno = 0, e = readdir(d))) {
		struct stat st;
		size_t n = strlen(e->d_name);

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (plen + 1 + n >= PATH_MAX) {
			errno = ENAMETOOLONG;
			rc = fail(path, e->d_name);
			break;
		}
		path[plen] = '/';
		memcpy(path + plen + 1, e->d_name, n + 1);
		if (fstatat(sdir, e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			rc = fail(path, "stat");
		} else if (S_ISREG(st.st_mode)) {
			rc = st.st_nlink > 1 ?
				     refuse(path, "a hard-linked file (a copy "
						  "would not be one)") :
				     copy_file(sdir, ddir, e->d_name, &st,
					       path);
		} else if (S_ISLNK(st.st_mode)) {
			char target[PATH_MAX];
			ssize_t t = readlinkat(sdir, e->d_name, target,
					       sizeof(target) - 1);

			if (t < 0) {
				rc = fail(path, "readlink");
			} else {
				target[t] = '\0';
				if (symlinkat(target, ddir, e->d_name) < 0)
					rc = fail(path, "symlink");
			}
		} else if (S_ISDIR(st.st_mode)) {
			int s2, d2;

			/* Filled first, given its mode last: a mode
			 * without write permission is copied too. */
			if (mkdirat(ddir, e->d_name, 0700) < 0)
				rc = fail(path, "mkdir");
			else if ((s2 = openat(sdir, e->d_name,
					      O_RDONLY | O_DIRECTORY |
						      O_NOFOLLOW | O_CLOEXEC)) < 0)
				rc = fail(path, "open");
			else {
				d2 = openat(ddir, e->d_name,
					    O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						    O_CLOEXEC);
				if (d2 < 0) {
					rc = fail(path, "open the copy");
				} else {
					rc = copy_dir(s2, d2, path, plen + 1 + n);
					if (rc == 0 &&
					    fchmod(d2, st.st_mode & 07777) < 0)
						rc = fail(path, "chmod");
					close(d2);
				}
				close(s2);
			}
		} else {
			rc = refuse(path, "not a directory, a regular file "
					  "or a symbolic link");
		}
		path[plen] = '\0';
	}
	if (rc == 0 && errno)
		rc = fail(path, "read the directory");
	closedir(d);
	return rc;
}

int main(int argc, char **argv)
{
	static char path[PATH_MAX];
	struct stat st;
	int s, d, rc;

	if (argc != 3 || !argv[1][0] || !argv[2][0]) {
		fprintf(stderr, "usage: fxcopy SRC DEST\n");
		return 2;
	}
	umask(0);
	s = open(argv[1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (s < 0 || fstat(s, &st) < 0) {
		fail(argv[1], "open");
		return 1;
	}
	if (mkdir(argv[2], 0700) < 0 && errno != EEXIST) {
		fail(argv[2], "mkdir");
		return 1;
	}
	d = open(argv[2], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d < 0) {
		fail(argv[2], "open");
		return 1;
	}
	if ((size_t)snprintf(path, sizeof(path), "%s", argv[1]) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		fail(argv[1], "open");
		return 1;
	}
	rc = copy_dir(s, d, path, strlen(path));
	if (rc == 0 && fchmod(d, st.st_mode & 07777) < 0)
		rc = fail(argv[2], "chmod");
	close(s);
	close(d);
	return rc == 0 ? 0 : 1;
}
