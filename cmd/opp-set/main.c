// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * opp-set: apply an operating point (a named set of power settings
 * across domains) in unison: every write in a safe order, each read
 * back, and on a failure every write already made undone.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opp.h"

#define CURRENT_DIR OPP_CURRENT_DIR
#define CURRENT_FILE OPP_CURRENT_FILE
#define MAX_SETS 256

enum {
	OPT_LIST = PM_OPT_TOOL,
	OPT_SHOW,
	OPT_DIFF,
	OPT_CURRENT,
	OPT_SAVE,
	OPT_AUTO,
	OPT_REAPPLY,
	OPT_AUTO_TUNE,
	OPT_DEVICE,
};

static void usage(FILE *f)
{
	fputs("Usage: opp-set [options] NAME\n"
	      "       opp-set [options] -f FILE\n"
	      "       opp-set [options] -s SECTION[:ARG].KEY=VALUE...\n"
	      "       opp-set --list | --show NAME | --diff NAME | --current\n"
	      "       opp-set --save FILE | --auto | --reapply[=charge]\n"
	      "       opp-set --reapply --device PATH\n"
	      "       opp-set --auto-tune [--save FILE]\n"
	      "\n"
	      "Apply an operating point: every setting of /etc/pm/opp.d/"
	      "NAME.conf (or of\n"
	      "the installed examples in " PM_DATADIR "/opp.d), all or "
	      "nothing: on a\n"
	      "failure every write already made is undone.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --file FILE      apply the point in FILE\n"
	      "  -s, --set SETTING    apply one setting (repeats), e.g. "
	      "cpufreq.governor=powersave,\n"
	      "                       'cpufreq:4-7.max=1.2GHz', "
	      "devfreq:ff9a0000.gpu.max=400MHz\n"
	      "  -n, --dry-run        print each write as PATH = VALUE, "
	      "change nothing\n"
	      "      --diff NAME      print PATH: OLD -> NEW for each "
	      "write, change nothing\n"
	      "      --show NAME      the resolved settings and the file "
	      "line of each\n"
	      "      --list           list the operating points\n"
	      "      --current        the points the machine is at now "
	      "(the last applied\n"
	      "                       first), or custom\n"
	      "      --save FILE      write the current settings as a point "
	      "file (-f restores)\n"
	      "      --auto           apply the highest-priority point whose "
	      "[match] holds\n"
	      "      --auto-tune      set every tunable pmctl tune shows Bad "
	      "but keyboards,\n"
	      "                       mice, audio and TLP's driver denylist; "
	      "with --save FILE,\n"
	      "                       save the machine first (-f FILE undoes "
	      "it)\n"
	      "      --reapply[=charge]\n"
	      "                       apply again what was applied last "
	      "(the same point, or\n"
	      "                       --auto's pick now), and the charge "
	      "settings a firmware\n"
	      "                       dropped; at boot and after a resume. "
	      "=charge: only those\n"
	      "      --device PATH    with --reapply: only the [runtime_pm] "
	      "and [usb] lines of\n"
	      "                       the current point that match the "
	      "device (one plugged in)\n"
	      "      --wait[=SEC]     wait for the writers' lock instead "
	      "of exit 4\n"
	      "  -F, --format FMT     human, json or kv\n"
	      "  -J, --json           same as --format json\n"
	      "  -o, --output FILE    write the report to FILE atomically\n"
	      "      --sysroot DIR    read and write /sys, /etc, /run under "
	      "DIR\n"
	      "  -q, --quiet          fewer messages on stderr\n"
	      "  -v, --verbose        more messages on stderr (each write)\n"
	      "  -h, --help           show this help\n"
	      "  -V, --version        show the version\n"
	      "\n"
	      "Exit status: 0 done, 1 failed or stopped by a signal (after "
	      "undoing what was\n"
	      "written), 2 usage error or bad point file, 3 not offered by "
	      "this machine,\n"
	      "4 busy.\n"
	      "See opp-set(8) and opp.conf(5).\n",
	      f);
}

static int do_list(struct opp *op)
{
	struct pm_opp_entry *v;
	struct pm_out *o = &op->o;
	int n = pm_opp_list(&op->ctx, PM_DATADIR, &v);

	if (n < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	pm_tool_out(&op->t, o);
	if (op->t.fmt == PM_FMT_HUMAN) {
		if (!n)
			pm_note(&op->t, "no operating points in /etc/pm/opp.d "
					"or %s/opp.d",
				PM_DATADIR);
		for (int i = 0; i < n; i++) {
			if (v[i].error[0])
				pm_out_printf(o, "%-20s (unreadable: %s)\n",
					      v[i].name, v[i].error);
			else
				pm_out_printf(o, "%-20s %s\n", v[i].name,
					      v[i].description);
		}
	} else {
		pm_out_obj_begin(o, NULL);
		pm_out_arr_begin(o, "points", "point");
		for (int i = 0; i < n; i++) {
			pm_out_obj_begin(o, NULL);
			pm_out_str(o, "name", v[i].name);
			pm_out_str(o, "file", v[i].path);
			pm_out_bool(o, "installed", v[i].installed);
			pm_out_str_or_null(o, "description",
					   v[i].description);
			pm_out_str_or_null(o, "error", v[i].error);
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
		pm_out_obj_end(o);
	}
	for (int i = 0; i < n; i++)
		if (v[i].error[0])
			pm_warn(&op->t, "%s: %s", v[i].path, v[i].error);
	pm_tool_out_done(&op->t, o);
	free(v);
	return PM_EXIT_OK;
}

static void section_name(const struct opp_setting *s, char *buf,
			 size_t size)
{
	snprintf(buf, size, "%s%s%s", s->section, s->arg[0] ? " " : "",
		 s->arg);
}

/* The resolved point, itself a valid point file. */
static int do_show(struct opp *op, const struct opp_point *pt)
{
	struct pm_out *o = &op->o;
	char sec[256], last[256] = "";

	pm_tool_out(&op->t, o);
	if (op->t.fmt == PM_FMT_HUMAN) {
		pm_out_printf(o, "# %s%s%s\n", pt->name,
			      pt->description[0] ? ": " : "",
			      pt->description);
		for (int i = 0; i < pt->n; i++) {
			const struct opp_setting *s = &pt->v[i];

			if (!strcmp(s->section, "opp") &&
			    !strcmp(s->key, "include"))
				continue;
			section_name(s, sec, sizeof(sec));
			if (strcmp(sec, last))
				pm_out_printf(o, last[0] ? "\n[%s]\n" : "[%s]\n",
					      sec);
			snprintf(last, sizeof(last), "%s", sec);
			/* Comments are whole lines: where it came from
			 * goes above the setting. */
			if (s->line)
				pm_out_printf(o, "# %s:%u\n", s->file,
					      s->line);
			else
				pm_out_printf(o, "# -s\n");
			pm_out_printf(o, "%s = %s\n", s->key, s->value);
		}
	} else {
		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "name", pt->name);
		pm_out_str_or_null(o, "description", pt->description);
		pm_out_arr_begin(o, "settings", "setting");
		for (int i = 0; i < pt->n; i++) {
			const struct opp_setting *s = &pt->v[i];

			if (!strcmp(s->section, "opp") &&
			    !strcmp(s->key, "include"))
				continue;
			pm_out_obj_begin(o, NULL);
			pm_out_str(o, "section", s->section);
			pm_out_str_or_null(o, "arg", s->arg);
			pm_out_str(o, "key", s->key);
			pm_out_str(o, "value", s->value);
			pm_out_str(o, "file", s->line ? s->file : "-s");
			pm_out_u64_or_null(o, "line", s->line ? s->line :
							       PM_UNKNOWN);
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
		pm_out_obj_end(o);
	}
	pm_tool_out_done(&op->t, o);
	return PM_EXIT_OK;
}

/* /run/pmtools/opp.how: how the point last applied was given. */
static void record_how(struct opp *op, const char *how)
{
	size_t len = strlen(how);
	int fd = pm_open_create(&op->ctx, OPP_HOW_FILE,
				O_WRONLY | O_TRUNC | O_CREAT | O_NOFOLLOW,
				0644);

	if (fd < 0 || write(fd, how, len) != (ssize_t)len ||
	    write(fd, "\n", 1) != 1)
		pm_warn(&op->t, "could not record how the point was given in "
				"%s: --reapply will use --auto",
			OPP_HOW_FILE);
	if (fd >= 0)
		close(fd);
}

/* /run/pmtools/opp.current: the point last applied (best effort). */
static void record_current(struct opp *op, const char *name, const char *how)
{
	char line[PM_NAME_MAX + 2];
	int fd, len;

	if (op->ctx.real_root && op->ctx.guard)
		return;
	fd = pm_open(&op->ctx, CURRENT_DIR, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		/* mkdir below the root: /run may be a tmpfs of the host. */
		fd = pm_open(&op->ctx, "/run", O_RDONLY | O_DIRECTORY);
		if (fd < 0)
			return;
		if (mkdirat(fd, "pmtools", 0755) < 0 && errno != EEXIST) {
			close(fd);
			return;
		}
		close(fd);
	} else {
		close(fd);
	}
	fd = pm_open_create(&op->ctx, CURRENT_FILE,
			    O_WRONLY | O_TRUNC | O_CREAT, 0644);
	if (fd < 0) {
		pm_warn(&op->t, "could not record the point in %s: %s",
			CURRENT_FILE, strerror(-fd));
		return;
	}
	len = snprintf(line, sizeof(line), "%s\n", name);
	if (write(fd, line, (size_t)len) != len)
		pm_warn(&op->t, "could not record the point in %s",
			CURRENT_FILE);
	close(fd);
	record_how(op, how);
}

/*
 * --reapply: what was applied last, from /run/pmtools (emptied at boot):
 * the same NAME or -f FILE again; --auto's pick when the last point was
 * --auto's, or when nothing was applied since boot.  After -s, only the
 * recorded charge settings.
 */
static void reapply_source(struct opp *op, bool *autom, const char **name,
			   const char **file)
{
	static char last[PM_NAME_MAX], how[PM_PATH_MAX + 8];

	if (pm_attr_read(&op->ctx, OPP_HOW_FILE, how, sizeof(how)) < 0)
		how[0] = '\0';
	if (pm_attr_read(&op->ctx, CURRENT_FILE, last, sizeof(last)) < 0 ||
	    !pm_opp_name_valid(last))
		last[0] = '\0';
	pm_err_clear(&op->ctx);
	if (!strcmp(how, "name") && last[0]) {
		*name = last;
	} else if (!strncmp(how, "file /", 6)) {
		*file = how + 5;
	} else if (!strcmp(how, "set")) {
		pm_note(&op->t, "the last point was given with -s: only the "
				"recorded charge settings are applied again");
	} else if (!strcmp(how, "auto-tune")) {
		pm_note(&op->t, "the last point was --auto-tune's: only the "
				"recorded charge settings are applied again");
	} else {
		*autom = true;
	}
}

/* Every write made, the journal gone, the lock still held: the point,
 * how it was given, and its charge settings for --reapply. */
static void applied(struct pm_writer *w)
{
	struct opp *op = w->arg;

	/* The charge settings alone are no point: the current one stays. */
	if (!op->charge_only)
		record_current(op, w->name, op->how);
	opp_record_supply(op, op->pt);
}

/* A governor's tunable that its governor did not bring. */
static void explain_fail(struct pm_writer *w, const struct pm_write *x,
			 char *buf, size_t size)
{
	struct opp *op = w->arg;
	char err[PM_PATH_MAX + 600];

	pm_err_str(&op->ctx.err, err, sizeof(err));
	if (x->err == EBUSY && !strcmp(x->val, "off") &&
	    pm_pstate_status_write(x))
		snprintf(buf, size, "%s (intel_pstate cannot be turned off "
				    "while HWP is active)",
			 err);
	else if (x->flags & PM_W_LATE)
		snprintf(buf, size, "%s (a governor's tunable: the governor "
				    "started, but the file did not appear)",
			 err);
	else
		snprintf(buf, size, "%s", err);
}

/* What the command line asks: one mode, or a point to apply. */
struct args {
	const char *sets[MAX_SETS];
	const char *file, *name, *show, *diff, *save, *device;
	bool list, current, autom, reapply, autotune;
	int nsets;
};

/* The options of opp-set's own; false for the shared ones. */
static bool own_opt(struct opp *op, struct args *a, int c, const char *arg)
{
	switch (c) {
	case 'f':
		if (a->file)
			pm_usage_error(&op->t, "-f given twice");
		if (!*arg)
			pm_usage_error(&op->t, "-f '': no file name");
		a->file = arg;
		return true;
	case 's':
		if (a->nsets == MAX_SETS)
			pm_usage_error(&op->t, "more than %d -s settings",
				       MAX_SETS);
		a->sets[a->nsets++] = arg;
		return true;
	case OPT_LIST:
		a->list = true;
		return true;
	case OPT_SHOW:
		a->show = arg;
		return true;
	case OPT_DIFF:
		a->diff = arg;
		return true;
	case OPT_CURRENT:
		a->current = true;
		return true;
	case OPT_SAVE:
		a->save = arg;
		return true;
	case OPT_AUTO:
		a->autom = true;
		return true;
	case OPT_AUTO_TUNE:
		a->autotune = true;
		return true;
	case OPT_DEVICE:
		if (!*arg)
			pm_usage_error(&op->t, "--device '': no device path");
		a->device = arg;
		return true;
	case OPT_REAPPLY:
		a->reapply = true;
		if (arg && !strcmp(arg, "charge"))
			op->charge_only = true;
		else if (arg)
			pm_usage_error(&op->t,
				       "--reapply=%s: only charge is taken (the "
				       "recorded charge settings alone)",
				       arg);
		return true;
	}
	return false;
}

/* The modes, and a point's three sources (NAME, -f, -s). */
enum {
	X_NAME = 1 << 0,
	X_FILE = 1 << 1,
	X_SETS = 1 << 2,
	X_POINT = 1 << 3,	/* any of the three */
	X_LIST = 1 << 4,
	X_SHOW = 1 << 5,
	X_DIFF = 1 << 6,
	X_CURRENT = 1 << 7,
	X_SAVE = 1 << 8,
	X_AUTO = 1 << 9,
	X_REAPPLY = 1 << 10,
	X_AUTO_TUNE = 1 << 11,
	X_MODES = X_POINT | X_LIST | X_SHOW | X_DIFF | X_CURRENT | X_SAVE |
		  X_AUTO | X_REAPPLY | X_AUTO_TUNE,
};

/* One mode per run; a point from one source, -s alone. */
static void check_modes(struct opp *op, const struct args *a)
{
	static const char one_mode[] = "give one of NAME, -f FILE, -s, --list, "
				       "--show, --diff, --current, --save, "
				       "--auto, --reapply and --auto-tune";
	static const struct pm_opt_rule rules[] = {
		{ PM_RULE_ANY_OF, X_MODES, 0,
		  "name a point (opp-set --list shows them), or give -f FILE "
		  "or -s SETTING" },
		{ PM_RULE_ONE_OF, X_MODES, 0, one_mode },
		{ PM_RULE_CONFLICT, X_NAME, X_FILE, one_mode },
		{ PM_RULE_CONFLICT, X_NAME | X_FILE, X_SETS,
		  "-s settings are a point of their own: not with NAME or -f" },
	};
	unsigned given = (a->name ? X_NAME : 0) | (a->file ? X_FILE : 0) |
			 (a->nsets ? X_SETS : 0) |
			 (a->name || a->file || a->nsets ? X_POINT : 0) |
			 (a->list ? X_LIST : 0) | (a->show ? X_SHOW : 0) |
			 (a->diff ? X_DIFF : 0) | (a->current ? X_CURRENT : 0) |
			 (a->save && !a->autotune ? X_SAVE : 0) |
			 (a->autom ? X_AUTO : 0) |
			 (a->reapply ? X_REAPPLY : 0) |
			 (a->autotune ? X_AUTO_TUNE : 0);

	pm_tool_rules(&op->t, given, rules, sizeof(rules) / sizeof(rules[0]),
		      NULL);
}

static void parse_args(struct opp *op, struct args *a, int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "dry-run", no_argument, NULL, 'n' },
		{ "file", required_argument, NULL, 'f' },
		{ "set", required_argument, NULL, 's' },
		{ "list", no_argument, NULL, OPT_LIST },
		{ "show", required_argument, NULL, OPT_SHOW },
		{ "diff", required_argument, NULL, OPT_DIFF },
		{ "current", no_argument, NULL, OPT_CURRENT },
		{ "save", required_argument, NULL, OPT_SAVE },
		{ "auto", no_argument, NULL, OPT_AUTO },
		{ "reapply", optional_argument, NULL, OPT_REAPPLY },
		{ "auto-tune", no_argument, NULL, OPT_AUTO_TUNE },
		{ "device", required_argument, NULL, OPT_DEVICE },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:nf:s:" PM_SHARED_SHORTOPTS,
				longopts, NULL)) != -1)
		if (!own_opt(op, a, c, optarg) &&
		    !pm_tool_opt(&op->t, c, optarg, argv))
			pm_usage_error(&op->t, "unrecognized option '%s'",
				       argv[optind - 1]);
	if (optind < argc)
		a->name = argv[optind++];
	if (optind < argc)
		pm_usage_error(&op->t, "unexpected argument '%s' (one point "
				       "at a time)",
			       argv[optind]);
	check_modes(op, a);
	if (a->device && (!a->reapply || op->charge_only))
		pm_usage_error(&op->t, "--device goes with --reapply (the "
				       "current point's lines of one device)");
	if (a->save && !*a->save)
		pm_usage_error(&op->t, "--save: the file name is empty");
	pm_tool_formats(&op->t, 1u << PM_FMT_HUMAN | 1u << PM_FMT_JSON |
					1u << PM_FMT_KV);
}

/* --list, --current, --save and --show: read, print, change nothing. */
static int run_query(struct opp *op, struct args *a)
{
	struct opp_point pt;
	int code;

	memset(&pt, 0, sizeof(pt));
	if (a->list)
		pm_tool_only(&op->t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT,
			     "opp-set --list");
	else if (a->current)
		pm_tool_only(&op->t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT,
			     "opp-set --current");
	else if (a->save)
		pm_tool_only(&op->t, 0, "opp-set --save");
	else
		pm_tool_only(&op->t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT,
			     "opp-set --show");
	pm_tool_ctx(&op->t, &op->ctx);
	if (a->list) {
		code = do_list(op);
	} else if (a->current) {
		code = opp_current(op);
	} else if (a->save) {
		code = opp_save(op, a->save);
	} else {
		opp_load_name(op, a->show, &pt);
		code = do_show(op, &pt);
		opp_point_free(&pt);
	}
	pm_ctx_close(&op->ctx);
	return code;
}

/* The point to apply, and how it was given for the next --reapply. */
static void load_point(struct opp *op, struct args *a, struct opp_point *pt,
		       char *how, size_t size)
{
	static char picked[PM_NAME_MAX];

	if (a->reapply && !op->charge_only)
		reapply_source(op, &a->autom, &a->name, &a->file);
	if (a->autom) {
		opp_auto_pick(op, picked, sizeof(picked));
		a->name = picked;
	}
	if (a->name) {
		opp_load_name(op, a->name, pt);
	} else if (a->file) {
		opp_load_file(op, a->file, pt);
	} else {
		snprintf(pt->name, sizeof(pt->name), "custom");
		for (int i = 0; i < a->nsets; i++)
			opp_add_inline(op, a->sets[i], pt);
	}
	if (a->autotune) {
		opp_auto_tune(op, pt);
		snprintf(how, size, "auto-tune");
		return;
	}
	if (a->autom) {
		snprintf(how, size, "auto");
	} else if (a->name) {
		snprintf(how, size, "name");
	} else if (a->file) {
		char *real = realpath(a->file, NULL);

		snprintf(how, size, "file %s", real ? real : a->file);
		free(real);
	} else {
		snprintf(how, size, "set");
	}
	if (a->reapply)
		opp_reapply_supply(op, pt);
}

/*
 * The first stage (a driver's status, CPUs online), the rest planned on
 * the machine as it is, as the check before any write; then, if the
 * first stage changes something, the rest again after it.
 */
static int apply(struct opp *op, struct opp_point *pt, struct pm_writer *w,
		 int *changes)
{
	struct opp_stage st;
	int first;

	w->name = pt->name;
	opp_plan_first(op, pt, w, &st);
	first = w->txn.n;
	*changes = pm_txn_changes(&w->txn);
	opp_plan_rest(op, pt, w, &st);
	if (!op->t.dry_run && *changes) {
		pm_txn_truncate(&w->txn, first);
		if (pm_writer_apply(w) == PM_EXIT_OK) {
			st.applied = true;
			opp_plan_rest(op, pt, w, &st);
		}
	}
	/* Counted before the commit, which may undo them. */
	*changes = pm_txn_changes(&w->txn);
	return pm_writer_commit(w);
}

/* What was done, in a line, for a person. */
static void say_done(struct opp *op, const struct opp_point *pt, int changes,
		     bool diff)
{
	if (op->t.dry_run && !(diff && !changes && op->t.fmt == PM_FMT_HUMAN))
		return;
	if (op->charge_only && !pt->n)
		pm_note(&op->t, "no charge settings recorded in %s: nothing to "
				"give back",
			PM_SUPPLY_RECORD);
	else if (op->charge_only)
		pm_note(&op->t, "charge settings: %d given back", changes);
	else if (!changes)
		pm_note(&op->t, "already at %s", pt->name);
	else if (op->t.fmt == PM_FMT_HUMAN)
		pm_note(&op->t, "at %s: %d change%s", pt->name, changes,
			changes == 1 ? "" : "s");
}

int main(int argc, char **argv)
{
	static struct opp op;
	static struct args a;
	struct opp_point pt;
	struct pm_writer w;
	char how[PM_PATH_MAX + 8];
	int code, changes;

	pm_tool_init(&op.t, "opp-set", usage);
	op.t.dry_run_opt = true;
	parse_args(&op, &a, argc, argv);
	if (a.list || a.current || (a.save && !a.autotune) || a.show)
		return run_query(&op, &a);
	memset(&pt, 0, sizeof(pt));
	pm_tool_only(&op.t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT | PM_SEEN_WAIT |
				    PM_SEEN_DRY_RUN,
		     "opp-set");
	if (a.diff) {
		op.t.dry_run = true;
		a.name = a.diff;
	}
	pm_tool_ctx(&op.t, &op.ctx);
	op.ctx.dry_run = op.t.dry_run;
	/* The lock first: the point is read and planned under it. */
	pm_writer_begin(&w, &op.t, &op.ctx, &op.o);
	w.arg = &op;
	w.diff = !!a.diff;
	w.explain_fail = explain_fail;
	if (a.device) {
		code = opp_device_apply(&op, &w, a.device);
		pm_ctx_close(&op.ctx);
		return code;
	}
	w.on_applied = applied;
	op.how = how;
	op.pt = &pt;
	load_point(&op, &a, &pt, how, sizeof(how));
	/* What --auto-tune changes, saved before its first write. */
	if (a.save)
		opp_save(&op, a.save);
	code = apply(&op, &pt, &w, &changes);
	if (code == PM_EXIT_OK)
		say_done(&op, &pt, changes, !!a.diff);
	opp_point_free(&pt);
	pm_ctx_close(&op.ctx);
	return code;
}
