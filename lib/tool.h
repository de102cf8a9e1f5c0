/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: the tool layer: shared options, messages and exit codes, the
 * only code that prints to stderr or exits (lib/tool.c).
 */
#ifndef PM_TOOL_H
#define PM_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <getopt.h>

#include "core.h"
#include "out.h"

/*
 * The options every tool shares (CLI.md), parsed in one place.  A tool
 * adds its own long options after PM_SHARED_LONGOPTS and passes every
 * getopt result to pm_tool_opt first.
 */
enum {
	PM_OPT_SYSROOT = 0x100,
	PM_OPT_WAIT,
	PM_OPT_TOOL = 0x200,	/* first value free for a tool's own options */
};

#define PM_SHARED_LONGOPTS                                                   \
	{ "help", no_argument, NULL, 'h' },                                  \
	{ "version", no_argument, NULL, 'V' },                               \
	{ "sysroot", required_argument, NULL, PM_OPT_SYSROOT },              \
	{ "json", no_argument, NULL, 'J' },                                  \
	{ "format", required_argument, NULL, 'F' },                          \
	{ "output", required_argument, NULL, 'o' },                          \
	{ "cpu", required_argument, NULL, 'c' },                             \
	{ "wait", optional_argument, NULL, PM_OPT_WAIT },                    \
	{ "quiet", no_argument, NULL, 'q' },                                 \
	{ "verbose", no_argument, NULL, 'v' }

/* Short letters of the shared options; -n is the tool's own. */
#define PM_SHARED_SHORTOPTS "hVJF:o:c:qv"

struct pm_tool {
	const char *name;		/* "pmctl" */
	void (*usage)(FILE *f);		/* --help text */
	const char *sysroot;		/* --sysroot, NULL: $PM_SYSROOT or / */
	enum pm_fmt fmt;
	bool fmt_set;
	const char *output;		/* --output FILE */
	const char *cpu;		/* --cpu LIST */
	bool dry_run;
	bool dry_run_opt;		/* -n is --dry-run (not cstate-stat's) */
	double wait_s;			/* --wait: -1 no, 0 forever, else s */
	int verbose;			/* -1 quiet, 0 normal, 1+ verbose */
	unsigned seen;			/* PM_SEEN_*: shared options given */
	/* Called once by pm_die before it exits with the code it returns
	 * (a writer that must undo what it applied before the error). */
	int (*on_die)(void *arg, int code);
	void *on_die_arg;
};

/* Shared options a command may not use (pm_tool_only). */
enum {
	PM_SEEN_CPU = 1 << 0,
	PM_SEEN_OUTPUT = 1 << 1,
	PM_SEEN_FORMAT = 1 << 2,
	PM_SEEN_WAIT = 1 << 3,
	PM_SEEN_DRY_RUN = 1 << 4,	/* -n, where dry_run_opt is set */
};

/* Name the tool, install the stdout check at exit, ignore SIGPIPE. */
void pm_tool_init(struct pm_tool *t, const char *name,
		  void (*usage)(FILE *f));
/*
 * Handle one getopt_long result if it is a shared option: returns true
 * when handled.  --help and --version exit 0; a bad value exits 2.
 * '?' and ':' (bad option) exit 2 with the "Try" line.
 */
bool pm_tool_opt(struct pm_tool *t, int c, const char *arg, char **argv);
/* Refuse a format the command does not offer (mask of 1 << PM_FMT_*). */
void pm_tool_formats(struct pm_tool *t, unsigned mask);
/* Refuse the shared options (PM_SEEN_*) outside allowed: exit 2. */
void pm_tool_only(struct pm_tool *t, unsigned allowed, const char *what);
/*
 * The options that do not go together, or that need another: one table
 * per tool, checked in one place.  Each bit is one of the tool's options,
 * or a word of its command line (a mode, a command), numbered by the
 * tool; given holds the bits of those on the command line.
 */
enum pm_rule_kind {
	PM_RULE_CONFLICT,	/* any of a with any of b */
	PM_RULE_ONE_OF,		/* two or more of a */
	PM_RULE_NEEDS,		/* any of a without any of b */
	PM_RULE_ANY_OF,		/* none of a */
};

struct pm_opt_rule {
	enum pm_rule_kind kind;
	unsigned a, b;
	/* The usage error; with what (pm_tool_rules), a format whose one
	 * %s is what. */
	const char *msg;
};

/* The first rule that given breaks, in table order, is a usage error
 * (exit 2) with its message. */
void pm_tool_rules(const struct pm_tool *t, unsigned given,
		   const struct pm_opt_rule *rules, size_t n, const char *what);
/* Open the context for --sysroot; exit 2 when the root is unusable. */
void pm_tool_ctx(struct pm_tool *t, struct pm_ctx *ctx);
/* Open the output for --format/--output; exit 1 on failure. */
void pm_tool_out(struct pm_tool *t, struct pm_out *o);
/* The exit status for a pm_out_open failure: 2 for a target that is not
 * a file, a device, a FIFO or a socket, else 1. */
int pm_out_exit(int r);
/* Commit the output; exit 1 on failure. */
void pm_tool_out_done(struct pm_tool *t, struct pm_out *o);

/* "TOOL: message" on stderr. */
void pm_warn(const struct pm_tool *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Same, unless --quiet. */
void pm_note(const struct pm_tool *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* "TOOL: message" and exit code. */
void pm_die(const struct pm_tool *t, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));
/* "TOOL: message" + "Try 'TOOL --help' ...", exit 2. */
void pm_usage_error(const struct pm_tool *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));
/*
 * Describe an error record: "FILE: Invalid argument (EINVAL); hint" into
 * buf.  With a value: "cannot write 'V' to FILE: ...".
 */
const char *pm_err_str(const struct pm_err *e, char *buf, size_t size);
/* The symbolic name of an errno ("EBUSY"). */
const char *pm_errno_name(int err);
/*
 * The exit status an errno deserves before anything was written: EBUSY 4,
 * ENOENT/ENODEV/EOPNOTSUPP 3 (not offered here), else 1.  After a write,
 * a failure is 1 whatever the errno (CLI.md).
 */
int pm_exit_for(int err);

#endif /* PM_TOOL_H */
