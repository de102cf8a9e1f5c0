// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl device: the runtime PM and wakeup settings of devices, and
 * setting them (power/control, power/wakeup) all-or-nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "pmctl.h"

#define SCREEN_COLS 80
/* The narrowest DEVICE column before paths get their own line. */
#define MIN_PATH_COLS 20
#define MAX_SUBSYS_COLS 12
#define MAX_DRIVER_COLS 14
#define STATUS_COLS 11 /* "unsupported" */
#define CONTROL_COLS 4 /* "auto" */
#define WAKEUP_COLS 8
#define ELLIPSIS ".../"
#define ELLIPSIS_LEN (sizeof(ELLIPSIS) - 1)

/* What `pmctl device show` selects: any filter that matches. */
struct filter {
	char **prefixes; /* resolved /sys/devices paths */
	int nprefix;
	char **names; /* subsystem or class names */
	int nname;
	char **members; /* class members and their parents */
	int nmember;
};

static void *xrealloc(struct pmctl *p, void *v, size_t n)
{
	void *r = realloc(v, n ? n : 1);

	if (!r)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	return r;
}

/* A subsystem or class name: what the kernel names them with. */
static bool name_ok(const char *s)
{
	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:+-",
			    *s))
			return false;
	return true;
}

static bool has_prefix(const char *path, const char *prefix)
{
	size_t l = strlen(prefix);

	return !strncmp(path, prefix, l) &&
	       (path[l] == '\0' || path[l] == '/' ||
		(l && prefix[l - 1] == '/'));
}

static bool want(void *arg, const char *path, const char *subsystem)
{
	const struct filter *f = arg;

	for (int i = 0; i < f->nprefix; i++)
		if (has_prefix(path, f->prefixes[i]))
			return true;
	for (int i = 0; subsystem && i < f->nname; i++)
		if (!strcmp(subsystem, f->names[i]))
			return true;
	/* Sorted by pm_device_path_cmp: a binary search. */
	for (int lo = 0, hi = f->nmember; lo < hi;) {
		int mid = lo + (hi - lo) / 2;
		int r = pm_device_path_cmp(path, f->members[mid]);

		if (!r)
			return true;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return false;
}

static void filter_free(struct filter *f)
{
	pm_list_free(f->prefixes, f->nprefix);
	free(f->names);
	pm_list_free(f->members, f->nmember);
}

static void filter_add_class(struct pmctl *p, struct filter *f,
			     const char *name)
{
	char **m;
	int n = pm_class_devices(&p->ctx, name, &m);

	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	f->names = xrealloc(p, f->names,
			    (size_t)(f->nname + 1) * sizeof(*f->names));
	f->names[f->nname++] = (char *)name;
	if (!n)
		return;
	f->members = xrealloc(p, f->members,
			      (size_t)(f->nmember + n) * sizeof(*f->members));
	memcpy(f->members + f->nmember, m, (size_t)n * sizeof(*m));
	f->nmember += n;
	free(m);
}

static int cmp_path(const void *a, const void *b)
{
	return pm_device_path_cmp(*(char *const *)a, *(char *const *)b);
}

static void filter_parse(struct pmctl *p, struct filter *f, int argc,
			 char **argv)
{
	struct pm_devreq d = { 0 };

	memset(f, 0, sizeof(*f));
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '/') {
			d.name = a;
			pm_devreq_resolve(&p->t, &p->ctx, &d);
			f->prefixes = xrealloc(p, f->prefixes,
					       (size_t)(f->nprefix + 1) *
						       sizeof(*f->prefixes));
			f->prefixes[f->nprefix] = strdup(d.path);
			if (!f->prefixes[f->nprefix++])
				pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
		} else if (a[0] == '-') {
			pm_usage_error(&p->t,
				       "device show: unknown option '%s'", a);
		} else if (name_ok(a)) {
			filter_add_class(p, f, a);
		} else {
			pm_usage_error(&p->t,
				       "device: '%s' is neither a path "
				       "(starting with /) nor a subsystem name",
				       a);
		}
	}
	if (f->nmember > 1)
		qsort(f->members, (size_t)f->nmember, sizeof(*f->members),
		      cmp_path);
}

/* Read what the filter selects: the prefixes alone need no full walk. */
static void read_selected(struct pmctl *p, struct filter *f,
			  struct pm_devices *l)
{
	int r = 0;

	if (f->nname || !f->nprefix) {
		r = pm_devices_read(&p->ctx, NULL,
				    f->nname ? want : NULL, f, l);
	} else {
		/* Sorted, a folder comes before those below it. */
		qsort(f->prefixes, (size_t)f->nprefix, sizeof(*f->prefixes),
		      cmp_path);
		for (int i = 0, kept = -1; i < f->nprefix && r >= 0; i++) {
			if (kept >= 0 &&
			    has_prefix(f->prefixes[i], f->prefixes[kept]))
				continue;
			kept = i;
			r = pm_devices_read(&p->ctx, f->prefixes[i], NULL, NULL,
					    l);
		}
	}
	if (r == -ENOENT)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no /sys/devices on this system");
	if (r < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "cannot read the devices: %s",
		       strerror(-r));
	pm_devices_sort(l);
}

static void s64_or_null(struct pm_out *o, const char *key, int64_t v)
{
	if (v == PM_UNKNOWN_S64)
		pm_out_null(o, key);
	else
		pm_out_s64(o, key, v);
}

static void device_json(struct pm_out *o, const struct pm_device *d)
{
	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "path", d->path);
	pm_out_str(o, "driver", d->driver);
	pm_out_str(o, "subsystem", d->subsystem);
	pm_out_str_or_null(o, "control", d->control);
	pm_out_str_or_null(o, "runtime_status", d->runtime_status);
	pm_out_u64_or_null(o, "runtime_active_time_ms", d->runtime_active_ms);
	pm_out_u64_or_null(o, "runtime_suspended_time_ms",
			   d->runtime_suspended_ms);
	s64_or_null(o, "autosuspend_delay_ms", d->autosuspend_delay_ms);
	pm_out_str_or_null(o, "wakeup", d->wakeup);
	pm_out_u64_or_null(o, "wakeup_count", d->wakeup_count);
	pm_out_u64_or_null(o, "wakeup_active_count", d->wakeup_active_count);
	pm_out_u64_or_null(o, "wakeup_abort_count", d->wakeup_abort_count);
	pm_out_u64_or_null(o, "wakeup_expire_count", d->wakeup_expire_count);
	pm_out_flag(o, "wakeup_active", d->wakeup_active);
	s64_or_null(o, "wakeup_total_time_ms", d->wakeup_total_ms);
	s64_or_null(o, "wakeup_max_time_ms", d->wakeup_max_ms);
	s64_or_null(o, "wakeup_last_time_ms", d->wakeup_last_ms);
	s64_or_null(o, "resume_latency_limit_us", d->resume_latency_limit_us);
	pm_out_obj_end(o);
}

static int max_len(const struct pm_devices *l, bool driver, int least, int most)
{
	int w = least;

	for (int i = 0; i < l->n; i++) {
		const char *s = driver ? l->v[i].driver : l->v[i].subsystem;
		int n = s ? (int)strlen(s) : 1;

		if (n > w)
			w = n;
	}
	return w < most ? w : most;
}

/* A name in a column of width w: cut with a '~' when longer. */
static const char *fit(const char *s, int w, char *buf, size_t size)
{
	if (!s)
		return "-";
	if ((int)strlen(s) <= w)
		return s;
	snprintf(buf, size, "%.*s~", w - 1, s);
	return buf;
}

static int count_parts(const char *s)
{
	int n = 1;

	while ((s = strchr(s, '/')) != NULL) {
		s++;
		n++;
	}
	return n;
}

/*
 * The path below /sys/devices in at most width columns: whole, or with
 * "..." for the folders in the middle, keeping the most folders at the
 * end (and the first folder when that shows more of them); NULL when
 * not even ".../NAME" fits.
 */
static const char *shorten(const char *rel, size_t width, char *buf,
			   size_t size)
{
	size_t len = strlen(rel), first = strcspn(rel, "/");
	const char *tail = NULL, *best = NULL;

	if (len <= width)
		return rel;
	/* Tails of whole folders, longer and longer. */
	for (const char *s = rel + len; s > rel; s--) {
		size_t tl = (size_t)(rel + len - s);

		if (s[-1] != '/')
			continue;
		if (ELLIPSIS_LEN + tl > width)
			break;
		tail = s;
		if (s > rel + first + 1 &&
		    first + 1 + ELLIPSIS_LEN + tl <= width)
			best = s;
	}
	if (best && 1 + count_parts(best) > count_parts(tail)) {
		snprintf(buf, size, "%.*s/" ELLIPSIS "%s", (int)first, rel,
			 best);
		return buf;
	}
	if (!tail)
		return NULL;
	snprintf(buf, size, ELLIPSIS "%s", tail);
	return buf;
}

/* 80 columns, or the terminal's width when wider. */
static int screen_cols(FILE *f)
{
	struct winsize ws;

	if (isatty(fileno(f)) && ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 &&
	    ws.ws_col > SCREEN_COLS)
		return ws.ws_col;
	return SCREEN_COLS;
}

static void human(struct pmctl *p, const struct pm_devices *l)
{
	int ws = max_len(l, false, (int)strlen("SUBSYSTEM"), MAX_SUBSYS_COLS);
	int wd = max_len(l, true, (int)strlen("DRIVER"), MAX_DRIVER_COLS);
	int left = STATUS_COLS + CONTROL_COLS + WAKEUP_COLS + ws + wd + 5;
	int cols = screen_cols(p->o.f);
	size_t width = cols - left > MIN_PATH_COLS ? (size_t)(cols - left) :
						     MIN_PATH_COLS;

	if (!l->n)
		return;
	pm_out_printf(&p->o, "%-*s %-*s %-*s %-*s %-*s %s\n", STATUS_COLS,
		      "STATUS", CONTROL_COLS, "CTRL", WAKEUP_COLS, "WAKEUP", ws,
		      "SUBSYSTEM", wd, "DRIVER", "DEVICE");
	for (int i = 0; i < l->n; i++) {
		const struct pm_device *d = &l->v[i];
		const char *rel = pm_device_rel(d->path);
		char buf[PM_PATH_MAX], sb[MAX_SUBSYS_COLS + 1];
		char db[MAX_DRIVER_COLS + 1], cb[CONTROL_COLS + 1];
		char tb[STATUS_COLS + 1], wb[WAKEUP_COLS + 1];
		const char *shown;

		rel += *rel == '/';
		shown = shorten(*rel ? rel : "/", width, buf, sizeof(buf));
		pm_out_printf(
			&p->o, "%-*s %-*s %-*s %-*s %-*s %s\n", STATUS_COLS,
			fit(d->runtime_status[0] ? d->runtime_status : NULL,
			    STATUS_COLS, tb, sizeof(tb)),
			CONTROL_COLS,
			fit(d->control[0] ? d->control : NULL, CONTROL_COLS, cb,
			    sizeof(cb)),
			WAKEUP_COLS,
			fit(d->wakeup[0] ? d->wakeup : NULL, WAKEUP_COLS, wb,
			    sizeof(wb)),
			ws, fit(d->subsystem, ws, sb, sizeof(sb)), wd,
			fit(d->driver, wd, db, sizeof(db)), shown ? shown : "");
		/* A name too long for the column: the path on its own line. */
		if (!shown)
			pm_out_printf(&p->o, "  %s\n", d->path);
	}
}

static int device_show(struct pmctl *p, int argc, char **argv)
{
	struct pm_devices l = { 0 };
	struct filter f;

	pm_tool_only(&p->t, PM_SEEN_OUTPUT | PM_SEEN_FORMAT,
		     "pmctl device show");
	filter_parse(p, &f, argc, argv);
	read_selected(p, &f, &l);
	if (!l.n && argc)
		pm_note(&p->t,
			"no device with runtime PM or wakeup files "
			"matches '%s'%s",
			argv[0], argc > 1 ? " or the others" : "");
	else if (!l.n)
		pm_note(&p->t, "no device has runtime PM or wakeup files");
	pm_tool_out(&p->t, &p->o);
	if (p->t.fmt == PM_FMT_HUMAN) {
		human(p, &l);
	} else {
		pm_out_obj_begin(&p->o, NULL);
		pm_out_arr_begin(&p->o, "devices", "device");
		for (int i = 0; i < l.n; i++)
			device_json(&p->o, &l.v[i]);
		pm_out_arr_end(&p->o);
		pm_out_obj_end(&p->o);
	}
	pm_tool_out_done(&p->t, &p->o);
	pm_devices_free(&l);
	filter_free(&f);
	return PM_EXIT_OK;
}

#define RUNTIME_CHOICES "auto on"
#define WAKEUP_CHOICES "enabled disabled, or on off, yes no, 1 0"

/* What `device set` is asked: a request per device. */
struct set_args {
	const char *runtime, *wakeup; /* the words to write, NULL: none */
	struct pm_devreq *d;
	int n;
};

/* The devices are the words; the values are pmctl's own options. */
static void parse_set(struct pmctl *p, int argc, char **argv,
		      struct set_args *a)
{
	const char *rt = p->opt[PMCTL_O_RUNTIME], *wk = p->opt[PMCTL_O_WAKEUP];

	memset(a, 0, sizeof(*a));
	pmctl_opts_only(p, PMCTL_BIT(PMCTL_O_RUNTIME) | PMCTL_BIT(PMCTL_O_WAKEUP),
			"pmctl device set");
	if (rt && pm_device_control_parse(rt, &a->runtime))
		pm_usage_error(&p->t,
			       "--runtime '%s': not a choice "
			       "(choices: " RUNTIME_CHOICES ")",
			       rt);
	if (wk && pm_device_wakeup_parse(wk, &a->wakeup))
		pm_usage_error(&p->t,
			       "--wakeup '%s': not a choice "
			       "(choices: " WAKEUP_CHOICES ")",
			       wk);
	for (int i = 0; i < argc; i++) {
		a->d = xrealloc(p, a->d, (size_t)(a->n + 1) * sizeof(*a->d));
		memset(&a->d[a->n], 0, sizeof(a->d[a->n]));
		a->d[a->n].name = argv[i];
		a->d[a->n].control = a->runtime;
		a->d[a->n++].wakeup = a->wakeup;
	}
	if (!a->runtime && !a->wakeup)
		pm_usage_error(&p->t,
			       "device set: nothing to set: give --runtime "
			       "auto|on or --wakeup enabled|disabled");
	if (!a->n)
		pm_usage_error(&p->t, "device set: no device given");
}

static int device_set(struct pmctl *p, int argc, char **argv)
{
	struct set_args a;
	struct pm_writer w;
	int code;

	pm_tool_only(&p->t,
		     PM_SEEN_OUTPUT | PM_SEEN_FORMAT | PM_SEEN_DRY_RUN |
			     PM_SEEN_WAIT,
		     "pmctl device set");
	parse_set(p, argc, argv, &a);
	/* Every refusal before the lock. */
	pm_devices_check(&p->t, &p->ctx, a.d, a.n);
	pmctl_write_begin(p, &w);
	for (int i = 0; i < a.n; i++)
		pm_device_plan(&w, &a.d[i]);
	code = pm_writer_commit(&w);
	free(a.d);
	return code;
}

int cmd_device(struct pmctl *p, int argc, char **argv)
{
	if (argc && !strcmp(argv[0], "set"))
		return device_set(p, argc - 1, argv + 1);
	pmctl_opts_only(p, 0, "pmctl device");
	if (argc && !strcmp(argv[0], "show"))
		return device_show(p, argc - 1, argv + 1);
	return device_show(p, argc, argv);
}
