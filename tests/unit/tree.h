/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tree of plain files below a test's root folder, as the unit tests
 * build their small system roots: one definition for every test program.
 */
#ifndef TREE_H
#define TREE_H

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* root/rel holds text, its folders made; any failure ends the test (99). */
static inline void tree_put(const char *root, const char *rel,
			    const char *text)
{
	char path[4096];
	size_t len = strlen(text);
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		perror(path);
		exit(99);
	}
	close(fd);
}

/* The first 4095 bytes of root/rel, or "(missing)"; one buffer. */
static inline const char *tree_get(const char *root, const char *rel)
{
	static char buf[4096];
	char path[4096];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return "(missing)";
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static inline int tree_rm_one(const char *path, const struct stat *st,
			      int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return type == FTW_DP ? rmdir(path) : unlink(path);
}

/* The test's root folder and all below it, without a shell: 0 or -1. */
static inline int tree_rm(const char *root)
{
	return nftw(root, tree_rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

#endif /* TREE_H */
