/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: pmtools' own state files under /run (lib/state.c).
 */
#ifndef PM_STATE_H
#define PM_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core.h"

/*
 * The folder path below the root, made on the way (mode for the last
 * part, 0755 before it), never through a link: an O_DIRECTORY fd, or
 * -errno with ctx->err set.  As root, a folder on the way that is not
 * root's or that group or others may write is refused (EPERM).
 */
int pm_state_dir(struct pm_ctx *ctx, const char *path, mode_t mode);
/* Replace the file name of dirfd with text (a temporary file, fsync,
 * rename).  shown names it in ctx->err.  0 or -errno. */
int pm_state_put(struct pm_ctx *ctx, int dirfd, const char *shown,
		 const char *name, const char *text);

#endif /* PM_STATE_H */
