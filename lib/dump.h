/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the sysfs dump: a snapshot of the power-management files as a
 * tar archive (lib/dump.c, tar.c, gzip.c).
 */
#ifndef PM_DUMP_H
#define PM_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core.h"

/*
 * A POSIX ustar archive (lib/tar.c): 512-byte blocks, uid/gid 0, names
 * split into prefix and name at a '/', and a pax 'x' record (path,
 * linkpath) for what does not fit.  Writes go through a stdio stream;
 * the first error stops every later write and is kept in err.
 */
#define PM_TAR_BLOCK 512
#define PM_TAR_REG '0'
#define PM_TAR_SYMLINK '2'
#define PM_TAR_DIR '5'
#define PM_TAR_PAX 'x'

struct pm_tar {
	FILE *f;
	int64_t mtime;		/* of every member */
	uint64_t written;	/* bytes so far */
	int err;		/* first write error (errno), 0 if none */
};

void pm_tar_init(struct pm_tar *t, FILE *f, int64_t mtime);
/*
 * Encode one header.  -ENAMETOOLONG: name or link did not fit and was
 * cut (a pax record must come first), -EFBIG: size past 8 GiB - 1.
 */
int pm_tar_header(unsigned char hdr[PM_TAR_BLOCK], const char *name,
		  char type, unsigned mode, uint64_t size, int64_t mtime,
		  const char *link);
/* The header checksum, its own field counted as spaces. */
unsigned pm_tar_checksum(const unsigned char hdr[PM_TAR_BLOCK]);
/*
 * Where name splits into prefix (*prefix_len bytes, 0: no prefix) and
 * name; -ENAMETOOLONG when it cannot.
 */
int pm_tar_split(const char *name, size_t *prefix_len);
/* A pax record "LEN key=value\n" into buf (NUL-terminated); its length. */
size_t pm_tar_pax_record(char *buf, size_t size, const char *key,
			 const char *value);
/* Members; 0 or -errno. */
int pm_tar_file(struct pm_tar *t, const char *name, unsigned mode,
		const void *data, size_t size);
int pm_tar_dir(struct pm_tar *t, const char *name, unsigned mode);
int pm_tar_symlink(struct pm_tar *t, const char *name, const char *target);
/* Two zero blocks and a flush; 0 or -errno of the first write error. */
int pm_tar_finish(struct pm_tar *t);

/*
 * pmctl dump (lib/dump.c): the power-management files of /sys and /proc
 * under the root as a tar that --sysroot reads back.  Only a fixed list
 * is walked; write-only files and /sys/power/wakeup_count are never
 * opened; symlinks are kept as relative links when their target is in
 * the archive.
 */
#define PM_DUMP_REDACTED "REDACTED"

struct pm_dump_stats {
	unsigned files, dirs, links;
	unsigned skipped;	/* files not stored, for any reason */
	unsigned unreadable;	/* of which the open or read failed */
	uint64_t bytes;		/* archive size */
};

/* A file not stored: err is its errno, or 0 with why (never opened). */
typedef void (*pm_dump_skip_fn)(void *arg, const char *path, int err,
				const char *why);

struct pm_dump_opts {
	bool redact;		/* identifiers become PM_DUMP_REDACTED */
	int64_t mtime;
	pm_dump_skip_fn on_skip;
	void *arg;
};

/*
 * A stream whose writes go gzip-compressed (RFC 1952, fixed-code deflate)
 * to out; fclose writes the trailer and leaves out open.  NULL with
 * errno on failure.  pm_gzip_name: a name that asks for it (.gz, .tgz).
 */
FILE *pm_gzip_open(FILE *out, int64_t mtime);
bool pm_gzip_name(const char *path);

/* 0, or -errno of a write error (or ENOMEM): the archive is unusable. */
int pm_dump(struct pm_ctx *ctx, FILE *out, const struct pm_dump_opts *o,
	    struct pm_dump_stats *st);
/*
 * The redacted text of the file at path (root-relative): 1 and a
 * malloc'ed *out when something was replaced, 0 when nothing was,
 * -ENOMEM.
 */
int pm_dump_redact(const char *path, const char *data, size_t len,
		   char **out, size_t *outlen);

#endif /* PM_DUMP_H */
