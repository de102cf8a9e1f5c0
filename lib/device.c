// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Devices' runtime PM and wakeup: one walk of /sys/devices that reads each
 * power/ folder once, and the resolution of a device path a user names to
 * the /sys/devices folder it is, never leaving the system root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "device.h"
#include "core.h"
#include "parse.h"

#define DEVICES_DIR "/sys/devices"
#define DEVICES_LEN (sizeof(DEVICES_DIR) - 1)
/* Real device trees are 20-30 folders deep; a fixture could loop. */
#define WALK_MAX_DEPTH 64

/* The files of power/ we read, as bits of what a folder has. */
enum {
	F_CONTROL,
	F_STATUS,
	F_ACTIVE,
	F_SUSPENDED,
	F_AUTOSUSPEND,
	F_WAKEUP,
	F_WCOUNT,
	F_WACTIVE_COUNT,
	F_WABORT,
	F_WEXPIRE,
	F_WACTIVE,
	F_WTOTAL,
	F_WMAX,
	F_WLAST,
	F_QOS_RESUME,
	F_COUNT,
};

static const char *const power_files[F_COUNT] = {
	[F_CONTROL] = "control",
	[F_STATUS] = "runtime_status",
	[F_ACTIVE] = "runtime_active_time",
	[F_SUSPENDED] = "runtime_suspended_time",
	[F_AUTOSUSPEND] = "autosuspend_delay_ms",
	[F_WAKEUP] = "wakeup",
	[F_WCOUNT] = "wakeup_count",
	[F_WACTIVE_COUNT] = "wakeup_active_count",
	[F_WABORT] = "wakeup_abort_count",
	[F_WEXPIRE] = "wakeup_expire_count",
	[F_WACTIVE] = "wakeup_active",
	[F_WTOTAL] = "wakeup_total_time_ms",
	[F_WMAX] = "wakeup_max_time_ms",
	[F_WLAST] = "wakeup_last_time_ms",
	[F_QOS_RESUME] = "pm_qos_resume_latency_us",
};

/* A device is listed for any of these (drivers/base/power/sysfs.c). */
#define LISTED                                               \
	(1u << F_CONTROL | 1u << F_STATUS | 1u << F_ACTIVE | \
	 1u << F_SUSPENDED | 1u << F_AUTOSUSPEND | 1u << F_WAKEUP)

struct walk {
	struct pm_ctx *ctx;
	pm_device_want want;
	void *arg;
	struct pm_devices *list;
	int added;
	int err; /* ENOMEM: stop */
	char path[PM_PATH_MAX];
};

static bool is_dot(const char *n)
{
	return n[0] == '.' && (!n[1] || (n[1] == '.' && !n[2]));
}

static unsigned char type_at(int dfd, const char *name, unsigned char t)
{
	struct stat st;

	if (t != DT_UNKNOWN)
		return t;
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return DT_UNKNOWN;
	return S_ISDIR(st.st_mode) ? DT_DIR :
	       S_ISLNK(st.st_mode) ? DT_LNK :
				     DT_REG;
}

void pm_link_base(int dfd, const char *name, char *buf, size_t size)
{
	char t[PM_PATH_MAX];
	ssize_t n = readlinkat(dfd, name, t, sizeof(t) - 1);
	const char *b;

	buf[0] = '\0';
	if (n <= 0)
		return;
	t[n] = '\0';
	while (n > 1 && t[n - 1] == '/')
		t[--n] = '\0';
	b = strrchr(t, '/');
	b = b ? b + 1 : t;
	if (strlen(b) < size && !is_dot(b))
		memcpy(buf, b, strlen(b) + 1);
}

/* Which of power_files a power/ folder has: one listing. */
static unsigned power_listing(DIR *d)
{
	unsigned has = 0;
	struct dirent *de;

	while ((de = readdir(d)) != NULL)
		for (int i = 0; i < F_COUNT; i++)
			if (!strcmp(de->d_name, power_files[i])) {
				has |= 1u << i;
				break;
			}
	return has;
}

static void text_at(struct pm_ctx *ctx, int pfd, unsigned has, int f, char *buf,
		    size_t size)
{
	buf[0] = '\0';
	if ((has & 1u << f) &&
	    pm_attr_readat(ctx, pfd, power_files[f], buf, size) < 0)
		buf[0] = '\0';
}

static uint64_t u64_at(struct pm_ctx *ctx, int pfd, unsigned has, int f)
{
	return has & 1u << f ? pm_attr_getat_u64(ctx, pfd, power_files[f]) :
			       PM_UNKNOWN;
}

static int64_t s64_at(struct pm_ctx *ctx, int pfd, unsigned has, int f)
{
	int64_t v;

	if (!(has & 1u << f) ||
	    pm_attr_readat_s64(ctx, pfd, power_files[f], &v) < 0)
		return PM_UNKNOWN_S64;
	return v;
}

static void read_power(struct pm_ctx *ctx, int pfd, unsigned has,
		       struct pm_device *d)
{
	char buf[32];
	int64_t v;

	text_at(ctx, pfd, has, F_CONTROL, d->control, sizeof(d->control));
	text_at(ctx, pfd, has, F_STATUS, d->runtime_status,
		sizeof(d->runtime_status));
	d->runtime_active_ms = u64_at(ctx, pfd, has, F_ACTIVE);
	d->runtime_suspended_ms = u64_at(ctx, pfd, has, F_SUSPENDED);
	/* EIO when the driver does not use autosuspend: unknown. */
	d->autosuspend_delay_ms = s64_at(ctx, pfd, has, F_AUTOSUSPEND);
	text_at(ctx, pfd, has, F_WAKEUP, d->wakeup, sizeof(d->wakeup));
	/* The counts read "\n" while wakeup is disabled: unknown. */
	d->wakeup_count = u64_at(ctx, pfd, has, F_WCOUNT);
	d->wakeup_active_count = u64_at(ctx, pfd, has, F_WACTIVE_COUNT);
	d->wakeup_abort_count = u64_at(ctx, pfd, has, F_WABORT);
	d->wakeup_expire_count = u64_at(ctx, pfd, has, F_WEXPIRE);
	v = s64_at(ctx, pfd, has, F_WACTIVE);
	d->wakeup_active = v == PM_UNKNOWN_S64 ? -1 : v != 0;
	d->wakeup_total_ms = s64_at(ctx, pfd, has, F_WTOTAL);
	d->wakeup_max_ms = s64_at(ctx, pfd, has, F_WMAX);
	d->wakeup_last_ms = s64_at(ctx, pfd, has, F_WLAST);
	d->resume_latency_limit_us = PM_UNKNOWN_S64;
	text_at(ctx, pfd, has, F_QOS_RESUME, buf, sizeof(buf));
	if (!strcmp(buf, "n/a"))
		d->resume_latency_limit_us = 0;
	else if (pm_parse_s64(buf, &v) == 0 && v > 0)
		d->resume_latency_limit_us = v;
}

static struct pm_device *add_device(struct walk *w, const char *driver,
				    const char *subsystem)
{
	struct pm_devices *l = w->list;
	size_t pl = strlen(w->path) + 1, dl = strlen(driver) + 1;
	size_t sl = strlen(subsystem) + 1;
	struct pm_device *d;
	char *s;

	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 64;
		void *v = realloc(l->v, (size_t)cap * sizeof(*l->v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	/* One allocation for the path and both names. */
	s = malloc(pl + dl + sl);
	if (!s)
		return NULL;
	d = &l->v[l->n++];
	memset(d, 0, sizeof(*d));
	memcpy(s, w->path, pl);
	memcpy(s + pl, driver, dl);
	memcpy(s + pl + dl, subsystem, sl);
	d->path = s;
	d->driver = driver[0] ? s + pl : NULL;
	d->subsystem = subsystem[0] ? s + pl + dl : NULL;
	return d;
}

/* The folder at w->path (open as dfd) has a power/ folder: read it. */
static void read_device(struct walk *w, int dfd, bool subsys, bool driver)
{
	char sub[NAME_MAX + 1] = "", drv[NAME_MAX + 1] = "";
	struct pm_device *d;
	unsigned has;
	bool was;
	DIR *pd;
	int pfd;

	if (subsys)
		pm_link_base(dfd, "subsystem", sub, sizeof(sub));
	if (w->want && !w->want(w->arg, w->path, sub[0] ? sub : NULL))
		return;
	pfd = openat(dfd, "power",
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (pfd < 0)
		return;
	pd = fdopendir(pfd);
	if (!pd) {
		close(pfd);
		return;
	}
	has = power_listing(pd);
	if (!(has & LISTED)) {
		closedir(pd);
		return;
	}
	if (driver)
		pm_link_base(dfd, "driver", drv, sizeof(drv));
	d = add_device(w, drv, sub);
	if (!d) {
		w->err = ENOMEM;
		closedir(pd);
		return;
	}
	/* A dozen small reads: their fds go in one close_range. */
	was = pm_batch_begin(w->ctx);
	read_power(w->ctx, dirfd(pd), has, d);
	pm_batch_end(w->ctx, was);
	closedir(pd);
	w->added++;
}

/* Walk the folder at w->path[0..len), open as fd (taken over). */
static void walk_dir(struct walk *w, int fd, size_t len, int depth)
{
	bool power = false, subsys = false, driver = false;
	struct dirent *de;
	DIR *d = fdopendir(fd);

	if (!d) {
		close(fd);
		return;
	}
	while (!w->err && (de = readdir(d)) != NULL) {
		const char *n = de->d_name;
		unsigned char t;
		size_t nl;
		int cfd;

		if (is_dot(n))
			continue;
		t = type_at(dirfd(d), n, de->d_type);
		if (t == DT_LNK) {
			subsys |= !strcmp(n, "subsystem");
			driver |= !strcmp(n, "driver");
			continue;
		}
		if (t != DT_DIR)
			continue;
		if (!strcmp(n, "power")) {
			power = true;
			continue;
		}
		nl = strlen(n);
		if (depth >= WALK_MAX_DEPTH || len + 1 + nl >= sizeof(w->path))
			continue;
		/* One component, no link followed: it stays below. */
		cfd = openat(dirfd(d), n,
			     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cfd < 0)
			continue;
		w->path[len] = '/';
		memcpy(w->path + len + 1, n, nl + 1);
		walk_dir(w, cfd, len + 1 + nl, depth + 1);
		w->path[len] = '\0';
	}
	if (power && !w->err)
		read_device(w, dirfd(d), subsys, driver);
	closedir(d);
}

int pm_devices_read(struct pm_ctx *ctx, const char *base, pm_device_want want,
		    void *arg, struct pm_devices *list)
{
	struct walk *w = calloc(1, sizeof(*w));
	int fd, r;

	if (!base)
		base = DEVICES_DIR;
	if (!w)
		return pm_err_set(ctx, "read", base, NULL, ENOMEM, NULL);
	if (strlen(base) >= sizeof(w->path)) {
		free(w);
		return pm_err_set(ctx, "open", base, NULL, ENAMETOOLONG, NULL);
	}
	fd = pm_open_dir(ctx, base);
	if (fd < 0) {
		free(w);
		return pm_err_set(ctx, "open", base, NULL, -fd, NULL);
	}
	w->ctx = ctx;
	w->want = want;
	w->arg = arg;
	w->list = list;
	snprintf(w->path, sizeof(w->path), "%s", base);
	walk_dir(w, fd, strlen(w->path), 0);
	r = w->err ? pm_err_set(ctx, "read", base, NULL, w->err, NULL) :
		     w->added;
	free(w);
	return r;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/*
 * Compare one component of each path.  A run that starts with a digit
 * and goes on in hex digits is one number, so cpu2 comes before cpu10
 * and PCI's 0000:00:14.0 before 0000:00:1c.0; other bytes compare as
 * bytes.  Equal numbers written differently (01, 1) then go by bytes.
 */
static int comp_cmp(const char *a, size_t al, const char *b, size_t bl)
{
	size_t i = 0, j = 0;
	int r;

	while (i < al && j < bl) {
		if (a[i] >= '0' && a[i] <= '9' && b[j] >= '0' && b[j] <= '9') {
			size_t x = i, y = j, xl, yl;

			while (x < al && a[x] == '0')
				x++;
			while (y < bl && b[y] == '0')
				y++;
			for (i = x; i < al && is_hex(a[i]); i++)
				;
			for (j = y; j < bl && is_hex(b[j]); j++)
				;
			xl = i - x;
			yl = j - y;
			if (xl != yl)
				return xl < yl ? -1 : 1;
			for (size_t k = 0; k < xl; k++) {
				int c = (a[x + k] | 0x20) - (b[y + k] | 0x20);

				if (c)
					return c;
			}
			continue;
		}
		if (a[i] != b[j])
			return (unsigned char)a[i] - (unsigned char)b[j];
		i++;
		j++;
	}
	if (i < al || j < bl)
		return i < al ? 1 : -1;
	r = memcmp(a, b, al < bl ? al : bl);
	return r ? r : (al > bl) - (al < bl);
}

int pm_device_path_cmp(const char *a, const char *b)
{
	for (;;) {
		size_t al = strcspn(a, "/"), bl = strcspn(b, "/");
		int r = comp_cmp(a, al, b, bl);

		if (r)
			return r;
		a += al;
		b += bl;
		/* A parent (ending here) comes before its children. */
		if (!*a || !*b)
			return (*a != '\0') - (*b != '\0');
		a++;
		b++;
	}
}

static int device_cmp(const void *a, const void *b)
{
	return pm_device_path_cmp(((const struct pm_device *)a)->path,
				  ((const struct pm_device *)b)->path);
}

void pm_devices_sort(struct pm_devices *list)
{
	if (list->n > 1)
		qsort(list->v, (size_t)list->n, sizeof(*list->v), device_cmp);
}

void pm_devices_free(struct pm_devices *list)
{
	for (int i = 0; i < list->n; i++)
		free(list->v[i].path);
	free(list->v);
	memset(list, 0, sizeof(*list));
}

/* ---------------------------------------------------------------- paths */

static bool has_dotdot(const char *p)
{
	for (;;) {
		size_t n;

		while (*p == '/')
			p++;
		if (!*p)
			return false;
		n = strcspn(p, "/");
		if (n == 2 && p[0] == '.' && p[1] == '.')
			return true;
		p += n;
	}
}

/* Is the canonical path cur /sys/devices or below it? */
static bool below_devices(const char *cur)
{
	return !strncmp(cur, DEVICES_DIR, DEVICES_LEN) &&
	       (cur[DEVICES_LEN] == '\0' || cur[DEVICES_LEN] == '/');
}

/* One resolution: the path still to walk and the real folders so far. */
struct resolve {
	const char *path;		/* as the user gave it */
	char rest[PM_PATH_MAX * 2];	/* what is left to walk */
	char *p;			/* the next name, in rest */
	char cur[PM_PATH_MAX];		/* the real folders so far */
	size_t clen;
	char target[PM_PATH_MAX];	/* the last link's text ... */
	char link[PM_PATH_MAX];		/* ... and where it was */
	int links;
};

/* What the user gave: absolute, no "..", not too long. */
static int resolve_check(struct pm_ctx *ctx, const char *path)
{
	if (path[0] != '/')
		return pm_err_set(ctx, "resolve", path, NULL, EINVAL,
				  "a device path must start with /");
	if (has_dotdot(path))
		return pm_err_set(ctx, "resolve", path, NULL, EINVAL,
				  "'..' is not allowed in a device path");
	if (strlen(path) >= PM_PATH_MAX)
		return pm_err_set(ctx, "resolve", path, NULL, ENAMETOOLONG,
				  "the path is too long");
	return 0;
}

/* "..", from a link's target only (the user's are refused): drop the
 * last real folder. */
static int resolve_up(struct pm_ctx *ctx, struct resolve *r)
{
	if (!r->clen && !ctx->real_root)
		return pm_err_set(ctx, "resolve", r->path, NULL, EXDEV,
				  "the link %s -> %s leads out of the system "
				  "root",
				  r->link, r->target);
	while (r->clen && r->cur[r->clen - 1] != '/')
		r->clen--;
	if (r->clen)
		r->clen--;
	r->cur[r->clen] = '\0';
	return 0;
}

/* cur names a link: the path to walk becomes its target, then e (what
 * followed the link's name). */
static int resolve_link(struct pm_ctx *ctx, struct resolve *r, const char *e)
{
	char tmp[PM_PATH_MAX * 2];
	ssize_t tl;

	if (++r->links > PM_MAX_LINKS)
		return pm_err_set(ctx, "resolve", r->path, NULL, ELOOP,
				  "more than %d symbolic links", PM_MAX_LINKS);
	tl = readlinkat(ctx->rootfd, r->cur + 1, r->target,
			sizeof(r->target) - 1);
	if (tl < 0 || (size_t)tl >= sizeof(r->target) - 1)
		return pm_err_set(ctx, "resolve", r->path, NULL,
				  tl < 0 ? errno : ENAMETOOLONG,
				  "cannot read the link %s", r->cur);
	r->target[tl] = '\0';
	snprintf(r->link, sizeof(r->link), "%s", r->cur);
	if (r->target[0] == '/' && !ctx->real_root)
		/* It names the host's file, not the tree's. */
		return pm_err_set(ctx, "resolve", r->path, NULL, EXDEV,
				  "the link %s -> %s leads out of the system "
				  "root",
				  r->cur, r->target);
	if (r->target[0] == '/')
		r->clen = 0;
	r->cur[r->clen] = '\0';
	if ((size_t)tl + strlen(e) + 1 >= sizeof(tmp))
		return pm_err_set(ctx, "resolve", r->path, NULL, ENAMETOOLONG,
				  "the path is too long");
	snprintf(tmp, sizeof(tmp), "%s%s", r->target, e);
	memcpy(r->rest, tmp, strlen(tmp) + 1);
	r->p = r->rest;
	return 0;
}

/* The next name, n bytes at r->p, e after it: a folder is added to cur,
 * a link followed; anything else ends the walk. */
static int resolve_name(struct pm_ctx *ctx, struct resolve *r, size_t n,
			char *e)
{
	struct stat st;

	if (n > NAME_MAX || r->clen + 1 + n >= sizeof(r->cur))
		return pm_err_set(ctx, "resolve", r->path, NULL, ENAMETOOLONG,
				  "the path is too long");
	r->cur[r->clen] = '/';
	memcpy(r->cur + r->clen + 1, r->p, n);
	r->cur[r->clen + 1 + n] = '\0';
	/* cur holds real folders only: this follows no link. */
	if (fstatat(ctx->rootfd, r->cur + 1, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		int err = errno;

		return pm_err_set(ctx, "resolve", r->path, NULL, err,
				  err == ENOENT ? "%s does not exist" : "%s",
				  err == ENOENT ? r->cur : strerror(err));
	}
	if (S_ISLNK(st.st_mode))
		return resolve_link(ctx, r, e);
	r->clen += 1 + n;
	if (!S_ISDIR(st.st_mode) && e[strspn(e, "/")])
		return pm_err_set(ctx, "resolve", r->path, NULL, ENOTDIR,
				  "%s is not a folder", r->cur);
	if (!S_ISDIR(st.st_mode))
		return pm_err_set(ctx, "resolve", r->path, NULL, ENOTDIR,
				  "%s is a file, not a device folder", r->cur);
	r->p = e;
	return 0;
}

int pm_device_resolve(struct pm_ctx *ctx, const char *path, char *out,
		      size_t size)
{
	struct resolve one, *r = &one;
	int err;

	if (size)
		out[0] = '\0';
	err = resolve_check(ctx, path);
	if (err)
		return err;
	r->path = path;
	snprintf(r->rest, sizeof(r->rest), "%s", path);
	r->cur[0] = r->link[0] = r->target[0] = '\0';
	r->clen = 0;
	r->links = 0;
	r->p = r->rest;
	for (;;) {
		size_t n;
		char *e;

		while (*r->p == '/')
			r->p++;
		if (!*r->p)
			break;
		n = strcspn(r->p, "/");
		e = r->p + n;
		if (n == 1 && r->p[0] == '.') {
			r->p = e;
			continue;
		}
		if (n == 2 && r->p[0] == '.' && r->p[1] == '.') {
			err = resolve_up(ctx, r);
			r->p = e;
		} else {
			/* Moves p on itself: a link restarts it. */
			err = resolve_name(ctx, r, n, e);
		}
		if (err)
			return err;
	}
	if (!r->clen)
		snprintf(r->cur, sizeof(r->cur), "/");
	if (strlen(r->cur) >= size)
		return pm_err_set(ctx, "resolve", path, NULL, ENAMETOOLONG,
				  "the path is too long");
	memcpy(out, r->cur, strlen(r->cur) + 1);
	if (!below_devices(r->cur))
		return pm_err_set(ctx, "resolve", path, NULL, EXDEV,
				  "it is %s, outside /sys/devices", r->cur);
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return pm_device_path_cmp(*(char *const *)a, *(char *const *)b);
}

static int add_path(char ***v, int *n, int *cap, const char *p)
{
	if (*n == *cap) {
		int nc = *cap ? *cap * 2 : 16;
		char **nv = realloc(*v, (size_t)nc * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = nc;
	}
	(*v)[*n] = strdup(p);
	if (!(*v)[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

int pm_class_devices(struct pm_ctx *ctx, const char *name, char ***paths)
{
	char dir[PM_PATH_MAX], p[PM_PATH_MAX], res[PM_PATH_MAX];
	char **names, **v = NULL;
	int n, k = 0, cap = 0, r = 0;

	*paths = NULL;
	if (!name[0] || strchr(name, '/') || is_dot(name) ||
	    strlen(name) > NAME_MAX)
		return pm_err_set(ctx, "read", name, NULL, EINVAL,
				  "not a class name");
	snprintf(dir, sizeof(dir), "/sys/class/%s", name);
	n = pm_list_dir(ctx, dir, &names);
	if (n < 0) {
		pm_err_clear(ctx);
		return n == -ENOMEM ? -ENOMEM : 0;
	}
	for (int i = 0; i < n && !r; i++) {
		static const char *const sub[] = { "", "/device" };

		for (size_t j = 0; j < 2 && !r; j++) {
			int l = snprintf(p, sizeof(p), "%s/%s%s", dir, names[i],
					 sub[j]);

			if (l > 0 && (size_t)l < sizeof(p) &&
			    pm_device_resolve(ctx, p, res, sizeof(res)) == 0)
				r = add_path(&v, &k, &cap, res);
		}
	}
	pm_list_free(names, n);
	pm_err_clear(ctx);
	if (r < 0) {
		pm_list_free(v, k);
		return -ENOMEM;
	}
	if (k > 1)
		qsort(v, (size_t)k, sizeof(*v), cmp_str);
	*paths = v;
	return k;
}

/* ---------------------------------------------------------------- values */

int pm_device_control_parse(const char *s, const char **value)
{
	if (!strcmp(s, "auto"))
		*value = "auto";
	else if (!strcmp(s, "on"))
		*value = "on";
	else
		return -EINVAL;
	return 0;
}

int pm_device_wakeup_parse(const char *s, const char **value)
{
	bool b;

	if (pm_parse_bool(s, &b) < 0)
		return -EINVAL;
	*value = b ? "enabled" : "disabled";
	return 0;
}

const char *pm_device_rel(const char *path)
{
	return strncmp(path, DEVICES_DIR, DEVICES_LEN) ? path :
							 path + DEVICES_LEN;
}
