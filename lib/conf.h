/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: configuration files: sections, keys and values (lib/conf.c).
 */
#ifndef PM_CONF_H
#define PM_CONF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core.h"

/*
 * A configuration file reader: "[section args]" headers, "key = value"
 * (or KEY=value) lines, '#' and ';' comments, line numbers kept.
 */
struct pm_conf_line {
	unsigned lineno;
	char *section;		/* "" before any header */
	char *key;
	char *value;
};

struct pm_conf {
	char *path;
	char *text;
	struct pm_conf_line *lines;
	int n;
	unsigned errline;	/* the line of the first error, 0: the file */
	char errmsg[PM_PATH_MAX + 256]; /* what is wrong with it */
	dev_t dev;		/* the file read (pm_conf_read, _load) */
	ino_t ino;
};

/*
 * Load a file: under the system root when ctx is given (/etc/pm/...),
 * else as a real path (a file named on the command line is never
 * prefixed).  On error returns -errno and fills errline/errmsg, which
 * names the problem and never repeats the text of a line.  Only a
 * regular file is read (a FIFO or a device is -EINVAL, never waited
 * for).  As root, a file not owned by root or writable by group or
 * others, or reached through a folder that is (unless the folder has the
 * sticky bit), is -EPERM.
 */
int pm_conf_load(struct pm_ctx *ctx, const char *path, struct pm_conf *c);
/*
 * Read a configuration file whole (at most PM_CONF_MAX bytes) with the
 * same checks as pm_conf_load, for files that are not "key = value"
 * (pm-utils' shell configuration).  Returns the length and *buf (free
 * it), or -errno with c->errmsg filled.
 */
ssize_t pm_conf_read(struct pm_ctx *ctx, const char *path, char **buf,
		     struct pm_conf *c);
/* Parse text (taken over: freed with the conf). */
int pm_conf_parse(const char *name, char *text, size_t len,
		  struct pm_conf *c);
void pm_conf_free(struct pm_conf *c);

#endif /* PM_CONF_H */
