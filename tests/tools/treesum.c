/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * treesum: a listing of a test's system root, for "the tree is unchanged".
 *
 *   treesum DIR         every regular file with a hash of its content,
 *                       "HASH  ./path", sorted by path (what the tests
 *                       called tree_sum: find | sort | xargs sha1sum, in
 *                       one process instead of four and a fork per batch)
 *   treesum --stat DIR  every path with its type, size, modification time,
 *                       mode and link target: any write changes it, and no
 *                       file is read
 *   treesum [--stat] --same FILE DIR
 *                       compare DIR's listing with FILE (a listing this
 *                       program wrote before): exit 0 when they are the
 *                       same, 1 when not, with the lines that differ
 *                       ("-" in FILE only, "+" in DIR only) on stderr;
 *                       one process where "$(tree_sum DIR)" = "$before"
 *                       took a subshell too
 *
 * The writers' lock files (run/ *.lock, at any depth below run/) hold the
 * last holder's pid, not machine state: they are left out of both.  The
 * hash is 64-bit FNV-1a: it tells a test's tree from itself a moment
 * before, not from an adversary.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct entry {
	char *line;	/* sorted on the path at its start */
	size_t plen;	/* the path's length in line */
};

static struct entry *ents;
static size_t nents, cap;
static bool stat_mode;
static int status;

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p) {
		perror("treesum");
		exit(2);
	}
	return p;
}

static void add(char *line, size_t plen)
{
	if (nents == cap) {
		cap = cap ? cap * 2 : 1024;
		ents = xrealloc(ents, cap * sizeof(*ents));
	}
	ents[nents].line = line;
	ents[nents++].plen = plen;
}

static uint64_t hash_fd(int fd, const char *path)
{
	static unsigned char buf[65536];
	uint64_t h = 0xcbf29ce484222325ULL;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "treesum: %s: %s\n", path,
				strerror(errno));
			status = 1;
			break;
		}
		for (ssize_t i = 0; i < n; i++) {
			h ^= buf[i];
			h *= 0x100000001b3ULL;
		}
		/* A regular file's read is short only at its end: no
		 * second read to find it (most files are a few bytes). */
		if ((size_t)n < sizeof(buf))
			break;
	}
	return h;
}

/* "./run/x.lock" and "./run/a/b.lock", as find's -path './run/ *.lock'. */
static bool lock_file(const char *rel)
{
	size_t n = strlen(rel);

	return !strncmp(rel, "./run/", 6) && n > 11 &&
	       !strcmp(rel + n - 5, ".lock");
}

static void one(int dirfd, const char *name, unsigned char type,
		const char *rel)
{
	struct stat st;
	char *line = NULL, link[4096] = "";
	int fd, r = 0;

	/* The content listing has regular files only: readdir's type says
	 * which they are without a stat (where the file system gives it). */
	if (!stat_mode && type != DT_UNKNOWN) {
		if (type != DT_REG)
			return;
		st.st_mode = S_IFREG;
	} else if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		fprintf(stderr, "treesum: %s: %s\n", rel, strerror(errno));
		status = 1;
		return;
	}
	if (lock_file(rel))
		return;
	if (stat_mode) {
		if (S_ISLNK(st.st_mode)) {
			ssize_t n = readlinkat(dirfd, name, link,
					       sizeof(link) - 1);

			link[n > 0 ? n : 0] = '\0';
		}
		if (S_ISDIR(st.st_mode))
			r = asprintf(&line, "%s d %o", rel,
				     (unsigned)(st.st_mode & 07777));
		else
			r = asprintf(&line, "%s %o %jd %jd.%09ld %o %s", rel,
				     (unsigned)(st.st_mode & S_IFMT),
				     (intmax_t)st.st_size,
				     (intmax_t)st.st_mtim.tv_sec,
				     st.st_mtim.tv_nsec,
				     (unsigned)(st.st_mode & 07777), link);
	} else if (S_ISREG(st.st_mode)) {
		fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
						 O_NONBLOCK);
		if (fd < 0) {
			fprintf(stderr, "treesum: %s: %s\n", rel,
				strerror(errno));
			status = 1;
			return;
		}
		r = asprintf(&line, "%016" PRIx64 "  %s", hash_fd(fd, rel),
			     rel);
		close(fd);
	} else {
		return;
	}
	if (r < 0) {
		perror("treesum");
		exit(2);
	}
	add(line, strlen(rel));
}

static void walk(int dirfd, const char *rel)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *e;
	char *sub;

	if (!d) {
		close(dirfd);
		return;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (asprintf(&sub, "%s/%s", rel, e->d_name) < 0) {
			perror("treesum");
			exit(2);
		}
		one(dirfd, e->d_name, e->d_type, sub);
		if (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN) {
			int fd = openat(dirfd, e->d_name,
					O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
						O_CLOEXEC);

			if (fd >= 0)
				walk(fd, sub);
			else if (errno != ENOTDIR && errno != ELOOP) {
				fprintf(stderr, "treesum: %s: %s\n", sub,
					strerror(errno));
				status = 1;
			}
		}
		free(sub);
	}
	closedir(d);
}

/* By path, byte by byte, as sort does in the C locale. */
static int by_path(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	size_t n = x->plen < y->plen ? x->plen : y->plen;
	int c = memcmp(x->line + (stat_mode ? 0 : 18),
		       y->line + (stat_mode ? 0 : 18), n);

	if (c)
		return c;
	return x->plen < y->plen ? -1 : x->plen > y->plen;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * DIR's listing (ents) against the one in FILE: 0 same, 1 not.  The
 * lines that differ are found by sorting both as plain text and merging:
 * a changed file is its old line ("-") and its new one ("+").
 */
static int same(const char *file)
{
	FILE *f = fopen(file, "re");
	char *want = NULL, **a = NULL, **b;
	size_t size = 0, na = 0, i = 0, j = 0, shown = 0;
	int differ = 0;

	if (!f) {
		fprintf(stderr, "treesum: %s: %s\n", file, strerror(errno));
		exit(2);
	}
	if (getdelim(&want, &size, '\0', f) < 0 && !want)
		want = strdup("");
	fclose(f);
	if (!want) {
		perror("treesum");
		exit(2);
	}
	for (char *s = want, *nl; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (!nl)
			nl = s + strlen(s) - 1;
		else
			*nl = '\0';
		a = xrealloc(a, (na + 1) * sizeof(*a));
		a[na++] = s;
	}
	b = xrealloc(NULL, (nents + 1) * sizeof(*b));
	for (size_t k = 0; k < nents; k++)
		b[k] = ents[k].line;
	qsort(a, na, sizeof(*a), by_text);
	qsort(b, nents, sizeof(*b), by_text);
	while (i < na || j < nents) {
		int c = i == na ? 1 : j == nents ? -1 : strcmp(a[i], b[j]);

		if (c && shown++ < 20)
			fprintf(stderr, "%c %s\n", c < 0 ? '-' : '+',
				c < 0 ? a[i] : b[j]);
		differ |= c != 0;
		i += c <= 0;
		j += c >= 0;
	}
	free(a);
	free(b);
	free(want);
	return differ;
}

int main(int argc, char **argv)
{
	const char *list = NULL;
	int fd, a = 1;

	if (a < argc && !strcmp(argv[a], "--stat")) {
		stat_mode = true;
		a++;
	}
	if (a + 1 < argc && !strcmp(argv[a], "--same")) {
		list = argv[a + 1];
		a += 2;
	}
	if (a != argc - 1) {
		fprintf(stderr,
			"usage: treesum [--stat] [--same FILE] DIR\n");
		return 2;
	}
	fd = open(argv[argc - 1], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "treesum: %s: %s\n", argv[argc - 1],
			strerror(errno));
		return 2;
	}
	if (stat_mode)
		one(fd, ".", DT_DIR, ".");
	walk(fd, ".");
	qsort(ents, nents, sizeof(*ents), by_path);
	if (list) {
		int r = same(list);

		for (size_t i = 0; i < nents; i++)
			free(ents[i].line);
		free(ents);
		return r ? 1 : status;
	}
	for (size_t i = 0; i < nents; i++) {
		puts(ents[i].line);
		free(ents[i].line);
	}
	free(ents);
	return fflush(stdout) ? 2 : status;
}
