/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the writers' lock file (lib/lock.c).
 */
#ifndef PM_LOCK_H
#define PM_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/*
 * The writers' lock (CLI.md: /run/opp-set.lock, shared by pmctl and
 * opp-set; /run/pm-suspend.lock).  wait_s < 0: do not wait, 0: forever.
 * Returns the fd to keep, or -EWOULDBLOCK when held (*holder gets the
 * holder's "pid NAME" when it wrote one), -EACCES without the right to
 * create it, other -errno.  The holder's pid and tool name go in the
 * file.
 */
#define PM_SLEEP_LOCK "/run/pm-suspend.lock"

int pm_lock_take(struct pm_ctx *ctx, const char *path, const char *tool,
		 double wait_s, char *holder, size_t size);
void pm_lock_release(int fd);

#endif /* PM_LOCK_H */
