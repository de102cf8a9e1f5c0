/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: pm-utils sleep hooks and their configuration (lib/hooks.c).
 */
#ifndef PM_HOOKS_H
#define PM_HOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* pm-utils' hook exit codes (pm-functions NA, NX, DX). */
#define PM_HOOK_EXIT_NA 254	/* not applicable */
#define PM_HOOK_EXIT_NX 253	/* not executable */
#define PM_HOOK_EXIT_DX 252	/* disabled */

enum pm_hook_state {
	PM_HOOK_RUN,		/* to be run */
	PM_HOOK_DISABLED,	/* in HOOK_BLACKLIST: counts as 252 */
	PM_HOOK_NOEXEC,		/* no execute bit: counts as 253 */
	PM_HOOK_REFUSED,	/* unsafe ownership or mode: not run */
	PM_HOOK_SKIP,		/* not a regular file */
};

struct pm_hook {
	char name[256];			/* the file name, the merge key */
	char path[PM_PATH_MAX];		/* system path */
	enum pm_hook_state state;
	char why[224];			/* PM_HOOK_REFUSED: the reason */
};

struct pm_hooks {
	struct pm_hook *h;
	int n, cap;
};

/*
 * The hooks of dirs (system paths; the first folder wins a name clash)
 * in C-locale name order, without dot files, *~ backups and anything not
 * a regular file.  Names in blacklist (space separated) are disabled.
 * As root, a hook or folder not owned by root or writable by group or
 * others is refused.  Returns the count or -errno.
 */
int pm_hooks_list(struct pm_ctx *ctx, const char *const *dirs, int ndirs,
		  const char *blacklist, struct pm_hooks *hs);
void pm_hooks_free(struct pm_hooks *hs);
/* "success", "not applicable", "not executable", "disabled", "failed". */
const char *pm_hook_result_name(int status);

/* pmtools' functions file for pm-utils' hooks (PM_FUNCTIONS). */
#define PM_FUNCTIONS_FILE PM_DATADIR "/pm-functions"

/*
 * What pm-utils' hooks read besides PM_MODE and PM_CMDLINE: the
 * variables pm-utils' pm-functions exported (CLI.md, pm-suspend(8)).
 */
struct pm_hook_api {
	const char *functions;	/* PM_FUNCTIONS (a real path) */
	const char *storagedir;	/* STORAGEDIR (a real path) */
	const char *logfile;	/* PM_LOGFILE; NULL: the output is dropped */
	const char *suspend_modules;	/* SUSPEND_MODULES */
	const char *cpufreq_governor;	/* TEMPORARY_CPUFREQ_GOVERNOR */
};

struct pm_hook_env {
	const char *mode;	/* PM_MODE */
	const char *cmdline;	/* PM_CMDLINE */
	double timeout_s;	/* then the group is killed; <= 0: none */
	int logfd;		/* stdout and stderr; -1: /dev/null */
	const struct pm_hook_api *api;	/* pm-utils' hooks, else NULL */
	const char *sleep_action;	/* SYSTEMD_SLEEP_ACTION, or NULL */
};

struct pm_hook_run {
	int status;		/* exit code, 128+N for signal N */
	bool timed_out;
	int exec_err;		/* errno of a failed exec, 0 */
	double seconds;
};

/* Run a hook with args a1 a2 (a2 may be NULL).  0 or -errno (fork). */
int pm_hook_exec(const struct pm_ctx *ctx, const struct pm_hook *h,
		 const char *a1, const char *a2, const struct pm_hook_env *e,
		 struct pm_hook_run *r);

/*
 * pm-utils' STORAGEDIR: a folder below the system root where hooks keep
 * state from the pre to the post pass (savestate, modunload, inhibit,
 * disablehook and the parameter list of the functions file).
 */
#define PM_HOOK_STORE "/run/pm-utils/pm-suspend/storage"

struct pm_hook_store {
	int fd;				/* the folder, -1: none */
	char path[PM_PATH_MAX + 64];	/* its real path, for STORAGEDIR */
};

/*
 * Make the folder anew (s->fd is -1, or a store to close first): empty,
 * mode 0700, with the parameter list (the words of cmdline, one a line).
 * As root, a folder on the way that is not root's or that others may
 * write is refused.  0 or -errno, with ctx->err naming the file.
 */
int pm_hook_store_open(struct pm_ctx *ctx, const char *cmdline,
		       struct pm_hook_store *s);
void pm_hook_store_close(struct pm_hook_store *s);
/* NAME of the folder into buf, trailing newlines stripped: its length,
 * or -errno (-ENOENT when there is no such file). */
int pm_hook_store_read(const struct pm_hook_store *s, const char *name,
		       char *buf, size_t size);
/* A hook called disablehook for the hook NAME (or NAME without its two
 * leading digits, as pm-utils has it). */
bool pm_hook_store_disabled(const struct pm_hook_store *s, const char *name);
/* A hook changed the parameter list: its words joined by spaces into
 * cmdline, and true. */
bool pm_hook_store_params(const struct pm_hook_store *s, char *cmdline,
			  size_t size);

#endif /* PM_HOOKS_H */
