/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * spawn: a bash loadable builtin that runs one external command without
 * forking the shell, for the tests' run().
 *
 * On this project's test machines (virtual, no nested paging) a fork of
 * the bats shell costs about 5 ms of CPU: the kernel copies and
 * write-protects the shell's page tables, and each page touched after it
 * faults again.  bats' run forks twice per command (the command
 * substitution, then the command).  posix_spawn is a vfork: the child
 * borrows the shell's memory until it execs, so nothing is copied.
 *
 *   enable -f build/spawn.so spawn
 *   spawn -q NAME            is NAME an external command (not a function
 *                            nor a builtin) that can be run?
 *   spawn [-o VAR [-k] [-m]] [-e FILE] [--] COMMAND [ARG...]
 *      -o VAR   stdout into the shell variable VAR, as "$(COMMAND)" would
 *               set it: NUL bytes dropped, trailing newlines removed
 *               (kept with -k)
 *      -m       stderr into VAR too (2>&1)
 *      -e FILE  stderr appended to FILE (2>>FILE)
 *
 * The same file holds builtins named after common programs (cat, grep,
 * jq, ...: the list at its end).  Enabled in the test's shell, each runs
 * the program of its name found on PATH, as spawn does, so that a test's
 * "grep -q x f" costs no fork of the shell either.  Only where the shell
 * itself runs the command: a pipeline or a $(...) forks as before.  run
 * and spawn -q treat them as the programs they stand for.
 *
 * The command gets the shell's exported variables (with the assignments
 * before the function call that runs spawn), its working folder, its
 * other file descriptors and its umask, as bash's own fork and exec would
 * give it.  The status is the command's, or 128 + the signal that killed
 * it.  When the command cannot be started (a function, a builtin, no such
 * program, a script without "#!"), spawn prints nothing, sets SPAWN_ERRNO
 * and returns 254, and the caller runs it the usual way (for bash's own
 * message and for scripts without "#!").
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtins.h"
#include "shell.h"
#include "execute_cmd.h"
#include "bashgetopt.h"
#include "common.h"

/* bash's own PATH search (findcmd.c), exported by the bash binary. */
extern char *find_user_command(const char *name);

/* NAME's program, malloc'd, or NULL when NAME is a function, a builtin or
 * nothing bash could run. */
static int ext_builtin(WORD_LIST *list);

static char *program(const char *name)
{
	struct stat st;
	sh_builtin_func_t *b;

	if (find_function(name))
		return NULL;
	b = find_shell_builtin((char *)name);
	if (b && b != ext_builtin)
		return NULL;
	if (strchr(name, '/')) {
		if (stat(name, &st) || !S_ISREG(st.st_mode) ||
		    access(name, X_OK))
			return NULL;
		return savestring(name);
	}
	return find_user_command(name);
}

struct buf {
	char *p;
	size_t len, cap;
};

/* Everything from FD to its end, NUL bytes dropped, as bash's command
 * substitution keeps it. */
static void slurp(int fd, struct buf *b)
{
	char tmp[8192];
	ssize_t n;

	for (;;) {
		n = read(fd, tmp, sizeof(tmp));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (b->len + (size_t)n + 1 > b->cap) {
			b->cap = (b->len + (size_t)n + 1) * 2;
			b->p = xrealloc(b->p, b->cap);
		}
		for (ssize_t i = 0; i < n; i++)
			if (tmp[i])
				b->p[b->len++] = tmp[i];
	}
}

struct opts {
	const char *var, *errfile;
	int keep, merge;
};

static int start(char *path, char **argv, const struct opts *o, int out,
		 const sigset_t *mask, pid_t *pid)
{
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	int rc;

	posix_spawn_file_actions_init(&fa);
	posix_spawnattr_init(&at);
	if (out >= 0) {
		posix_spawn_file_actions_adddup2(&fa, out, 1);
		if (o->merge)
			posix_spawn_file_actions_adddup2(&fa, out, 2);
	}
	if (o->errfile)
		posix_spawn_file_actions_addopen(&fa, 2, o->errfile,
						 O_WRONLY | O_CREAT | O_APPEND,
						 0666);
	posix_spawnattr_setsigmask(&at, mask);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK);
	maybe_make_export_env();
	rc = posix_spawn(pid, path, &fa, &at, argv, export_env);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	return rc;
}

static int status_of(int st)
{
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return WEXITSTATUS(st);
}

/* Run PATH with ARGV (freed here, not its strings) as the options say. */
static int run_argv(char *path, char **argv, const struct opts *o)
{
	struct buf b = { 0 };
	sigset_t chld, old;
	int fds[2] = { -1, -1 }, rc, st = 0;
	char num[16];
	pid_t pid;

	if (o->var && pipe2(fds, O_CLOEXEC)) {
		free(argv);
		free(path);
		return 254;
	}
	/* bash's SIGCHLD handler reaps any child: hold it off until this
	 * one is reaped here. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, &old);
	rc = start(path, argv, o, fds[1], &old, &pid);
	if (fds[1] >= 0)
		close(fds[1]);
	if (!rc) {
		if (fds[0] >= 0)
			slurp(fds[0], &b);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (fds[0] >= 0)
		close(fds[0]);
	free(argv);	/* its strings are the words' */
	free(path);
	if (rc) {
		snprintf(num, sizeof(num), "%d", rc);
		bind_variable("SPAWN_ERRNO", num, 0);
		free(b.p);
		return 254;
	}
	if (o->var) {
		if (!o->keep)
			while (b.len && b.p[b.len - 1] == '\n')
				b.len--;
		if (!b.p)
			b.p = xmalloc(1);
		b.p[b.len] = '\0';
		bind_variable(o->var, b.p, 0);
		free(b.p);
	}
	return status_of(st);
}

static int run_it(WORD_LIST *list, const struct opts *o)
{
	char *path = program(list->word->word);

	if (!path) {
		/* A function, a builtin or nothing to run: the caller's way. */
		bind_variable("SPAWN_ERRNO", "2", 0);
		return 254;
	}
	return run_argv(path, strvec_from_word_list(list, 0, 0, NULL), o);
}

static int spawn_builtin(WORD_LIST *list)
{
	struct opts o = { 0 };
	int opt, query = 0;
	char *p;

	reset_internal_getopt();
	while ((opt = internal_getopt(list, "qo:kme:")) != -1) {
		switch (opt) {
		case 'q':
			query = 1;
			break;
		case 'o':
			o.var = list_optarg;
			break;
		case 'k':
			o.keep = 1;
			break;
		case 'm':
			o.merge = 1;
			break;
		case 'e':
			o.errfile = list_optarg;
			break;
		CASE_HELPOPT;
		default:
			builtin_usage();
			return EX_USAGE;
		}
	}
	list = loptend;
	if (!list) {
		builtin_usage();
		return EX_USAGE;
	}
	if (query) {
		p = program(list->word->word);
		free(p);
		return p ? EXECUTION_SUCCESS : EXECUTION_FAILURE;
	}
	if ((o.keep || o.merge) && !o.var) {
		builtin_usage();
		return EX_USAGE;
	}
	return run_it(list, &o);
}

static char *spawn_doc[] = {
	"Run an external command without forking the shell.",
	"",
	"-q NAME: is NAME an external command?  -o VAR: its stdout into VAR",
	"(-k keeps trailing newlines, -m adds stderr); -e FILE: stderr",
	"appended to FILE.  Returns the command's status, 254 when it could",
	"not be started (SPAWN_ERRNO says why).",
	NULL
};

struct builtin spawn_struct = {
	"spawn",
	spawn_builtin,
	BUILTIN_ENABLED,
	spawn_doc,
	"spawn [-q] [-o VAR [-k] [-m]] [-e FILE] [--] COMMAND [ARG...]",
	0
};

/* A builtin named after a program: runs the program of that name found on
 * PATH now (PATH may have changed since it was enabled).  Its arguments are
 * the program's, options included. */
static int ext_builtin(WORD_LIST *list)
{
	static const struct opts none = { 0 };
	const char *name = this_command_name;
	char **argv, *path;
	int rc;

	path = name ? find_user_command(name) : NULL;
	if (!path) {
		builtin_error("command not found");
		return EX_NOTFOUND;
	}
	argv = strvec_from_word_list(list, 0, 1, NULL);
	argv[0] = (char *)name;
	unbind_variable("SPAWN_ERRNO");
	rc = run_argv(path, argv, &none);
	if (rc == 254 && find_variable("SPAWN_ERRNO")) {
		/* Not started (a script without "#!"): what bash would say. */
		errno = atoi(get_string_value("SPAWN_ERRNO"));
		builtin_error("%s", strerror(errno));
		unbind_variable("SPAWN_ERRNO");
		return errno == ENOENT ? EX_NOTFOUND : EX_NOEXEC;
	}
	return rc;
}

static char *ext_doc[] = {
	"Run the program of this name found on PATH without forking the shell",
	"(tests/tools/spawn.c).",
	NULL
};

#define EXT(n)                                                               \
	struct builtin n##_struct = { #n, ext_builtin, BUILTIN_ENABLED,       \
				      ext_doc, #n " [ARG...]", 0 };
/* The programs the tests run most from their own shell; none that a test
 * runs in the background to kill by $! (sleep, timeout, flock, ...): $!
 * would be the forked shell's, not the program's. */
EXT(awk) EXT(basename) EXT(cat) EXT(chmod) EXT(chown) EXT(cmp) EXT(comm)
EXT(cp) EXT(cut) EXT(diff) EXT(dirname) EXT(find) EXT(grep) EXT(gzip)
EXT(head) EXT(jq) EXT(ln) EXT(ls) EXT(mkdir) EXT(mkfifo) EXT(mktemp)
EXT(mv) EXT(promtool) EXT(readlink) EXT(rmdir) EXT(sed) EXT(seq)
EXT(sort) EXT(stat) EXT(tail) EXT(tar) EXT(touch) EXT(tr) EXT(uniq)
EXT(wc) EXT(xargs)
