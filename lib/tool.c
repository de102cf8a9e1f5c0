// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What every tool shares: the common options, messages in the
 * "TOOL: what failed: why" form, exit codes, and the check that stdout
 * was really written.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tool.h"
#include "core.h"
#include "parse.h"
#include "out.h"

/* The tool's name for the atexit stdout check. */
static const char *tool_name = "pmtools";
/* A file met that is not what the kernel makes (a FIFO, a device). */
static bool odd_seen;

static void close_stdout(void)
{
	int e = 0;

	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		e = errno ? errno : EIO;
	if (fclose(stdout) != 0 && !e)
		e = errno ? errno : EIO;
	if (e) {
		/* A closed pipe is a failure too, but not worth a message. */
		if (e != EPIPE && e != EIO)
			fprintf(stderr, "%s: write error on standard output: "
					"%s\n",
				tool_name, strerror(e));
		else if (e == EIO)
			fprintf(stderr, "%s: write error on standard output\n",
				tool_name);
		_exit(PM_EXIT_FAIL);
	}
	if (fflush(stderr) != 0 && errno != EPIPE && errno != EBADF)
		_exit(PM_EXIT_FAIL);
}

/*
 * At exit: stdout checked, and a run that refused an odd file failed
 * (1), also where it then found the file's value missing (3: that is
 * not a kernel that lacks it).
 */
static void at_exit(int status, void *arg)
{
	(void)arg;
	close_stdout();
	if (odd_seen && (status == PM_EXIT_OK ||
			 status == PM_EXIT_UNSUPPORTED))
		_exit(PM_EXIT_FAIL);
}

/*
 * fds 0, 1 and 2 closed by whoever started the tool (some acpid and init
 * setups) would be taken by the next files opened: a lock file or a
 * sysfs attribute would become stderr, the target of every message, or a
 * hook's stdin.  Each closed one gets /dev/null first: stdin to read
 * (an empty input), stdout and stderr as O_PATH, on which a write still
 * fails with EBADF as it did on the closed fd, so that a report that
 * cannot be written is still an error.  Without /dev/null (a bare
 * chroot), "/" holds the place.
 */
static void hold_std_fd(int fd, int flags)
{
	int got;

	if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
		return;
	got = open("/dev/null", flags | O_NOCTTY | O_CLOEXEC);
	if (got < 0)
		got = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* The lowest free fd is fd itself: it stays open across exec, as
	 * a standard fd does. */
	if (got == fd)
		(void)fcntl(fd, F_SETFD, 0);
	else if (got >= 0)
		close(got);
}

static void hold_std_fds(void)
{
	hold_std_fd(0, O_RDONLY);
	hold_std_fd(1, O_PATH);
	hold_std_fd(2, O_PATH);
}

/* Named once each; a sampler may meet the same file every interval. */
static void tool_odd(void *arg, const char *path, const char *kind)
{
	static char seen[8][PM_PATH_MAX];
	static unsigned n;
	const struct pm_tool *t = arg;

	odd_seen = true;
	for (unsigned i = 0; i < n && i < 8; i++)
		if (!strcmp(seen[i], path))
			return;
	snprintf(seen[n++ % 8], PM_PATH_MAX, "%s", path);
	pm_warn(t, "%s: %s, not a file the kernel makes: not used", path,
		kind);
}

void pm_tool_init(struct pm_tool *t, const char *name,
		  void (*usage)(FILE *f))
{
	hold_std_fds();
	memset(t, 0, sizeof(*t));
	t->name = name;
	t->usage = usage;
	t->wait_s = -1;
	tool_name = name;
	/* A closed stdout must be an exit status, not a silent death. */
	(void)signal(SIGPIPE, SIG_IGN);
	(void)on_exit(at_exit, NULL);
}

/*
 * One line on stderr, always: a newline or an escape sequence in a user's
 * argument or a kernel string is shown as \n or \xHH, never acted on
 * (the text form of lib/out.c, which human output shares).
 */
static void vmsg(const struct pm_tool *t, const char *fmt, va_list ap)
{
	char *msg = NULL;

	fprintf(stderr, "%s: ", t->name);
	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs("(out of memory)\n", stderr);
		return;
	}
	pm_text_escape(stderr, msg);
	fputc('\n', stderr);
	free(msg);
}

void pm_warn(const struct pm_tool *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(t, fmt, ap);
	va_end(ap);
}

void pm_note(const struct pm_tool *t, const char *fmt, ...)
{
	va_list ap;

	if (t->verbose < 0)
		return;
	va_start(ap, fmt);
	vmsg(t, fmt, ap);
	va_end(ap);
}

void pm_die(const struct pm_tool *t, int code, const char *fmt, ...)
{
	static bool dying;
	va_list ap;

	va_start(ap, fmt);
	vmsg(t, fmt, ap);
	va_end(ap);
	if (t->on_die && !dying) {
		dying = true;
		code = t->on_die(t->on_die_arg, code);
	}
	exit(code);
}

void pm_usage_error(const struct pm_tool *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(t, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", t->name);
	exit(PM_EXIT_USAGE);
}

const char *pm_errno_name(int err)
{
	const char *n = strerrorname_np(err);

	return n ? n : "E?";
}

const char *pm_err_str(const struct pm_err *e, char *buf, size_t size)
{
	int n;

	if (e->value[0] && !strcmp(e->op, "write"))
		n = snprintf(buf, size, "cannot write '%s' to %s: %s (%s)",
			     e->value, e->file, strerror(e->err),
			     pm_errno_name(e->err));
	else if (e->value[0] && !strcmp(e->op, "parse"))
		n = snprintf(buf, size, "%s: unexpected value '%s'", e->file,
			     e->value);
	else
		n = snprintf(buf, size, "%s: %s (%s)", e->file,
			     strerror(e->err), pm_errno_name(e->err));
	if (e->hint[0] && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "; %s", e->hint);
	return buf;
}

int pm_exit_for(int err)
{
	switch (err) {
	case EBUSY:
		return PM_EXIT_BUSY;
	case ENOENT:
	case ENODEV:
	case EOPNOTSUPP:
		return PM_EXIT_UNSUPPORTED;
	default:
		return PM_EXIT_FAIL;
	}
}

/*
 * An option that takes one value, given again with another: which one was
 * meant is a guess, so it is a usage error (the same value twice is fine).
 */
static void twice(const struct pm_tool *t, const char *opt, const char *old,
		  const char *arg)
{
	if (old && strcmp(old, arg))
		pm_usage_error(t, "%s given twice with different values ('%s' "
				  "and '%s')",
			       opt, old, arg);
}

/* -J and -F: one format, however many times it is named. */
static void tool_format(struct pm_tool *t, int c, const char *arg)
{
	enum pm_fmt f = PM_FMT_JSON;

	if (c == 'J' && t->fmt_set && t->fmt != PM_FMT_JSON)
		pm_usage_error(t, "--json conflicts with --format %s",
			       pm_fmt_name(t->fmt));
	if (c == 'F' && pm_fmt_parse(arg, &f) < 0)
		pm_usage_error(t, "unknown format '%s' (choose human, json, "
				  "kv, csv or prom)",
			       arg);
	if (c == 'F' && t->fmt_set && t->fmt != f)
		pm_usage_error(t, "--format %s conflicts with --%s", arg,
			       t->fmt == PM_FMT_JSON ? "json" :
						       pm_fmt_name(t->fmt));
	t->fmt = f;
	t->fmt_set = true;
	t->seen |= PM_SEEN_FORMAT;
}

/* The options that take a value: --sysroot, --output, --cpu, --wait. */
static void tool_value(struct pm_tool *t, int c, const char *arg)
{
	uint64_t us;

	switch (c) {
	case PM_OPT_SYSROOT:
		if (!*arg)
			pm_usage_error(t, "--sysroot needs a folder");
		twice(t, "--sysroot", t->sysroot, arg);
		t->sysroot = arg;
		break;
	case 'o':
		if (!*arg)
			pm_usage_error(t, "--output needs a file name");
		twice(t, "--output", t->output, arg);
		t->output = arg;
		t->seen |= PM_SEEN_OUTPUT;
		break;
	case 'c':
		if (!*arg)
			pm_usage_error(t, "--cpu needs a CPU list");
		twice(t, "--cpu", t->cpu, arg);
		t->cpu = arg;
		t->seen |= PM_SEEN_CPU;
		break;
	case PM_OPT_WAIT:
		t->seen |= PM_SEEN_WAIT;
		t->wait_s = 0;
		if (!arg)
			break;
		if (pm_parse_duration_us(arg, &us) < 0 || us == 0)
			pm_usage_error(t, "--wait: invalid duration '%s'", arg);
		t->wait_s = (double)us / 1e6;
		break;
	}
}

/* getopt's own complaints: a missing value, an unknown option. */
static void tool_bad_opt(struct pm_tool *t, int c, char **argv)
	__attribute__((noreturn));

static void tool_bad_opt(struct pm_tool *t, int c, char **argv)
{
	if (c == ':')
		pm_usage_error(t, "option '%s' needs a value",
			       argv[optind - 1]);
	if (optopt && optopt < 0x100)
		pm_usage_error(t, "invalid option -- '%c'", optopt);
	pm_usage_error(t, "unrecognized option '%s'", argv[optind - 1]);
}

bool pm_tool_opt(struct pm_tool *t, int c, const char *arg, char **argv)
{
	switch (c) {
	case 'h':
		t->usage(stdout);
		exit(PM_EXIT_OK);
	case 'V':
		printf("%s (pmtools) %s\n", t->name, PM_VERSION);
		exit(PM_EXIT_OK);
	case 'J':
	case 'F':
		tool_format(t, c, arg);
		return true;
	case PM_OPT_SYSROOT:
	case 'o':
	case 'c':
	case PM_OPT_WAIT:
		tool_value(t, c, arg);
		return true;
	case 'n':
		if (!t->dry_run_opt)
			return false;
		t->dry_run = true;
		t->seen |= PM_SEEN_DRY_RUN;
		return true;
	case 'q':
		t->verbose = -1;
		return true;
	case 'v':
		if (t->verbose < 0)
			t->verbose = 0;
		t->verbose++;
		return true;
	case ':':
	case '?':
		tool_bad_opt(t, c, argv);
	default:
		return false;
	}
}

void pm_tool_formats(struct pm_tool *t, unsigned mask)
{
	if (!(mask & (1u << t->fmt)))
		pm_usage_error(t, "this command has no %s output",
			       pm_fmt_name(t->fmt));
}

void pm_tool_only(struct pm_tool *t, unsigned allowed, const char *what)
{
	static const struct {
		unsigned bit;
		const char *name;
	} names[] = {
		{ PM_SEEN_CPU, "--cpu" },
		{ PM_SEEN_OUTPUT, "--output" },
		{ PM_SEEN_FORMAT, "--format" },
		{ PM_SEEN_WAIT, "--wait" },
		{ PM_SEEN_DRY_RUN, "--dry-run" },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((t->seen & names[i].bit) && !(allowed & names[i].bit))
			pm_usage_error(t, "%s does not apply to %s",
				       names[i].name, what);
}

/* Does given break rule r? */
static bool rule_broken(const struct pm_opt_rule *r, unsigned given)
{
	unsigned a = given & r->a;

	switch (r->kind) {
	case PM_RULE_CONFLICT:
		return a && (given & r->b);
	case PM_RULE_ONE_OF:
		return a & (a - 1);
	case PM_RULE_NEEDS:
		return a && !(given & r->b);
	case PM_RULE_ANY_OF:
		return !a;
	}
	return false;
}

void pm_tool_rules(const struct pm_tool *t, unsigned given,
		   const struct pm_opt_rule *rules, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		if (!rule_broken(&rules[i], given))
			continue;
		if (what)
			pm_usage_error(t, rules[i].msg, what);
		pm_usage_error(t, "%s", rules[i].msg);
	}
}

void pm_tool_ctx(struct pm_tool *t, struct pm_ctx *ctx)
{
	char msg[PM_PATH_MAX + 600];

	if (pm_ctx_open(ctx, t->sysroot) < 0)
		pm_die(t, PM_EXIT_USAGE, "bad system root: %s",
		       pm_err_str(&ctx->err, msg, sizeof(msg)));
	ctx->on_odd = tool_odd;
	ctx->on_odd_arg = t;
}

int pm_out_exit(int r)
{
	/* Not a file, device, FIFO or socket: bad input, nothing done. */
	return r == -EISDIR || r == -ELOOP ? PM_EXIT_USAGE : PM_EXIT_FAIL;
}

void pm_tool_out(struct pm_tool *t, struct pm_out *o)
{
	int r = pm_out_open(o, t->fmt, t->output);

	if (r < 0)
		pm_die(t, pm_out_exit(r), "cannot write %s: %s (%s)",
		       t->output, strerror(-r), pm_errno_name(-r));
}

void pm_tool_out_done(struct pm_tool *t, struct pm_out *o)
{
	int r = pm_out_commit(o);

	if (!r)
		return;
	if (t->output)
		pm_warn(t, "cannot write %s: %s (%s)", t->output, strerror(-r),
			pm_errno_name(-r));
	else if (r != -EPIPE)
		pm_warn(t, "write error on standard output: %s",
			strerror(-r));
	/* Reported once: skip the atexit check of the same stream. */
	(void)fflush(stderr);
	_exit(PM_EXIT_FAIL);
}
