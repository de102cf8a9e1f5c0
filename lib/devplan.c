// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The device planners, shared by pmctl and opp-set: a device's runtime
 * PM and wakeup settings (power/control, power/wakeup), one device named
 * by its path or every device of a bus; and a raw attribute below /sys
 * (an opp-set point's [sysfs] line).  What is asked is checked against
 * what the machine offers before anything is written (exit 2 or 3), then
 * planned; a file planned twice is written once, with the later value.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "core.h"
#include "device.h"
#include "parse.h"
#include "tune.h"
#include "tool.h"
#include "txn.h"
#include "writer.h"

/* A bus's devices: the kernel's names are short. */
#define BUS_NAME_MAX 31

/* pmctl's words for a device: "ARG ..."; a point's: "WHERE...". */
static bool pmctl_words(const struct pm_devreq *r)
{
	return r->where == NULL;
}

/* A file of the device's power/ folder. */
static void power_file(const char *dev, const char *name, char *out,
		       size_t size)
{
	snprintf(out, size, "%s/power/%s", dev, name);
}

void pm_devreq_resolve(struct pm_tool *t, struct pm_ctx *ctx,
		       struct pm_devreq *r)
{
	const struct pm_err *e = &ctx->err;
	const char *n = r->name;
	int err = pm_device_resolve(ctx, n, r->path, sizeof(r->path));

	if (err == 0)
		return;
	if (!pmctl_words(r)) {
		if (err == -ENOENT)
			pm_die(t, PM_EXIT_UNSUPPORTED, "%sno such device",
			       r->where);
		pm_die(t, PM_EXIT_USAGE,
		       "%snot a device inside /sys/devices", r->where);
	}
	if (e->err == ENOENT) {
		/* The hint names the missing part when it is not the path. */
		size_t l = strlen(n);

		if (!strncmp(e->hint, n, l) && e->hint[l] == ' ')
			pm_die(t, PM_EXIT_UNSUPPORTED, "%s: no such device",
			       n);
		pm_die(t, PM_EXIT_UNSUPPORTED, "%s: no such device (%s)", n,
		       e->hint);
	}
	if (e->err == EXDEV && r->path[0])
		pm_usage_error(t, "%s: not a device: %s", n, e->hint);
	pm_usage_error(t, "%s: %s", n, e->hint);
}

/* Exit 3 unless the device has power/control (pmctl's words). */
static void check_control(struct pm_tool *t, struct pm_ctx *ctx,
			  const struct pm_devreq *r)
{
	char file[PM_PATH_MAX + 16];

	power_file(r->path, "control", file, sizeof(file));
	if (pm_exists(ctx, file))
		return;
	pm_die(t, PM_EXIT_UNSUPPORTED,
	       "%s has no runtime PM (no power/control)", r->name);
}

/* Exit 3 unless the device can wake the system: a power/wakeup that
 * reads empty ("\n") is a device that is not wakeup-capable.  old: the
 * value read already, NULL to read it (one that cannot be read is left
 * to the plan's read). */
static void check_wakeup(struct pm_tool *t, struct pm_ctx *ctx,
			 const struct pm_devreq *r, const char *old)
{
	char file[PM_PATH_MAX + 16], buf[PM_W_VAL];

	power_file(r->path, "wakeup", file, sizeof(file));
	if (!old && !pm_exists(ctx, file))
		pm_die(t, PM_EXIT_UNSUPPORTED,
		       "%s cannot wake the system (no power/wakeup)", r->name);
	if (!old && pm_attr_read(ctx, file, buf, sizeof(buf)) >= 0)
		old = buf;
	if (old && !old[0])
		pm_die(t, PM_EXIT_UNSUPPORTED,
		       "%s cannot wake the system (power/wakeup is empty)",
		       r->name);
}

void pm_devices_check(struct pm_tool *t, struct pm_ctx *ctx,
		      struct pm_devreq *v, int n)
{
	/* Bad paths (2) before absent files (3). */
	for (int i = 0; i < n; i++)
		pm_devreq_resolve(t, ctx, &v[i]);
	for (int i = 0; i < n; i++) {
		if (v[i].control)
			check_control(t, ctx, &v[i]);
		if (v[i].wakeup)
			check_wakeup(t, ctx, &v[i], NULL);
	}
	pm_err_clear(ctx);
}

/* A file there that cannot be read: exit 1 naming it and the errno. */
static void unreadable(struct pm_writer *w, const char *where,
		       const char *path, int err)
{
	pm_die(w->t, PM_EXIT_FAIL, "%scannot read %s: %s (%s)", where, path,
	       strerror(err), pm_errno_name(err));
}

/*
 * power/control of the device at dev: planned and true, false when it
 * has none (ENOENT); exit 1 when it cannot be read.
 */
static bool plan_control(struct pm_writer *w, const struct pm_devreq *r,
			 const char *dev)
{
	char file[PM_PATH_MAX + 16], cur[PM_W_VAL];

	power_file(dev, "control", file, sizeof(file));
	if (pm_attr_read(w->ctx, file, cur, sizeof(cur)) < 0) {
		int e = w->ctx->err.err;

		if (e != ENOENT)
			unreadable(w, r->where, file, e);
		pm_err_clear(w->ctx);
		return false;
	}
	pm_writer_set(w, file, cur, r->control, 0, NULL);
	return true;
}

/* What a line for many devices does with one. */
enum pick { PICK_SET, PICK_OTHER, PICK_EXCLUDED };

/* By its PCI class (the "class" file, "0x040380") and its driver. */
static enum pick pick(struct pm_writer *w, const struct pm_devreq *r,
		      const char *dev)
{
	char cls[16], drv[PM_NAME_MAX] = "";
	int dfd = pm_open_dir(w->ctx, dev);

	if (dfd < 0)
		return PICK_OTHER;
	if (pm_attr_readat(w->ctx, dfd, "class", cls, sizeof(cls)) < 0)
		cls[0] = '\0';
	pm_link_base(dfd, "driver", drv, sizeof(drv));
	close(dfd);
	if (r->cls && !pm_pci_class_in(cls, r->cls))
		return PICK_OTHER;
	if ((r->x_class && pm_pci_class_in(cls, r->x_class)) ||
	    (r->x_driver && drv[0] && pm_word_in(r->x_driver, drv)))
		return PICK_EXCLUDED;
	return PICK_SET;
}

struct counts {
	int set, excluded;
};

/* The devices linked from dir, in the order of their names: those
 * without runtime PM are left alone; -ENOENT when dir is not there. */
static int plan_dir(struct pm_writer *w, const struct pm_devreq *r,
		    const char *dir, struct counts *c)
{
	char path[PM_PATH_MAX], dev[PM_PATH_MAX], file[PM_PATH_MAX + 16];
	char **names;
	int n = pm_list_dir(w->ctx, dir, &names);

	if (n == -ENOMEM)
		pm_die(w->t, PM_EXIT_FAIL, "out of memory");
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		if (names[i][0] == '.')
			continue;
		/* By the device's own path, the one a path line names;
		 * a driver's bind, module, ... are not devices. */
		snprintf(path, sizeof(path), "%.160s/%.255s", dir, names[i]);
		if (pm_device_resolve(w->ctx, path, dev, sizeof(dev)) < 0 ||
		    (w->only && strcmp(dev, w->only)))
			continue;
		switch (pick(w, r, dev)) {
		case PICK_SET:
			c->set += plan_control(w, r, dev);
			break;
		case PICK_EXCLUDED:
			power_file(dev, "control", file, sizeof(file));
			c->excluded += pm_exists(w->ctx, file);
			break;
		default:
			break;
		}
	}
	pm_list_free(names, n);
	return 0;
}

/* Every device bound to the driver r names, on any bus. */
static void plan_driver(struct pm_writer *w, const struct pm_devreq *r,
			struct counts *c)
{
	char dir[PM_PATH_MAX], **buses;
	int n = pm_list_dir(w->ctx, "/sys/bus", &buses);

	if (n == -ENOMEM)
		pm_die(w->t, PM_EXIT_FAIL, "out of memory");
	for (int i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "/sys/bus/%.*s/drivers/%.*s",
			 BUS_NAME_MAX, buses[i], PM_NAME_MAX - 1, r->driver);
		plan_dir(w, r, dir, c);
	}
	if (n > 0)
		pm_list_free(buses, n);
}

/* A line for many devices: a bus, a class or a driver; one device at
 * least is set (exit 3). */
static void plan_many(struct pm_writer *w, const struct pm_devreq *r)
{
	const char *what = r->cls ? "class" : r->driver ? "driver" : "bus";
	struct counts c = { 0, 0 };
	char bus[PM_PATH_MAX];

	if (r->driver) {
		plan_driver(w, r, &c);
	} else {
		snprintf(bus, sizeof(bus), "/sys/bus/%.*s/devices",
			 BUS_NAME_MAX, r->cls ? "pci" : r->name);
		if (plan_dir(w, r, bus, &c) < 0)
			pm_die(w->t, PM_EXIT_UNSUPPORTED,
			       "%sno such bus here (no %s)", r->where, bus);
	}
	pm_err_clear(w->ctx);
	if (w->only)
		return;	/* the device is not one of them, or excluded */
	if (!c.set && c.excluded)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%severy device of the %s with runtime PM is "
		       "excluded (exclude_class, exclude_driver)",
		       r->where, what);
	if (!c.set)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno device of the %s has runtime PM", r->where, what);
}

void pm_device_plan(struct pm_writer *w, struct pm_devreq *r)
{
	char file[PM_PATH_MAX + 16];
	int i;

	if (!pmctl_words(r)) {
		/* A point's line: checked here, in the point's order. */
		if (r->bus || r->cls || r->driver) {
			plan_many(w, r);
			return;
		}
		if (w->only) {
			/* Another device's line, or one not there now. */
			if (pm_device_resolve(w->ctx, r->name, r->path,
					      sizeof(r->path)) == 0 &&
			    !strcmp(r->path, w->only))
				plan_control(w, r, r->path);
			pm_err_clear(w->ctx);
			return;
		}
		pm_devreq_resolve(w->t, w->ctx, r);
		if (r->control && !plan_control(w, r, r->path))
			pm_die(w->t, PM_EXIT_UNSUPPORTED,
			       "%sthe device has no runtime PM (no "
			       "power/control)",
			       r->where);
		return;
	}
	if (r->control) {
		power_file(r->path, "control", file, sizeof(file));
		pm_writer_set(w, file, NULL, r->control, 0, NULL);
	}
	if (r->wakeup) {
		power_file(r->path, "wakeup", file, sizeof(file));
		i = pm_writer_set(w, file, NULL, r->wakeup, 0, NULL);
		/* Read again under the lock. */
		check_wakeup(w->t, w->ctx, r, w->txn.w[i].old);
	}
}

/* ---------------------------------------------------------------- sysfs */

static void attr_plan_one(struct pm_writer *w, const char *path,
			  const char *value, const char *where)
{
	char cur[PM_ATTR_MAX], real[PM_PATH_MAX];
	int fd, r, e;

	/* Resolved inside the root: a link may not leave /sys. */
	fd = pm_open(w->ctx, path, O_RDONLY);
	if (fd < 0)
		pm_die(w->t, fd == -ENOENT ? PM_EXIT_UNSUPPORTED : PM_EXIT_FAIL,
		       "%s%s: cannot read it: %s (%s)", where, path,
		       strerror(-fd), pm_errno_name(-fd));
	/* ... nor to a file outside /sys through a link. */
	r = pm_fd_path(w->ctx, fd, real, sizeof(real));
	close(fd);
	if (r < 0 || strncmp(real, "/sys/", 5))
		pm_die(w->t, PM_EXIT_USAGE, "%s%s: leads outside /sys (to %s)",
		       where, path, r < 0 ? "outside the root" : real);
	if (pm_attr_read(w->ctx, path, cur, sizeof(cur)) < 0) {
		e = w->ctx->err.err;
		pm_die(w->t, PM_EXIT_FAIL, "%s%s: cannot read it: %s (%s)",
		       where, path, strerror(e), pm_errno_name(e));
	}
	/* "[s2idle] deep": the old value is the bracketed one. */
	pm_writer_set(w, path, NULL, value, strchr(cur, '[') ? PM_W_CHOICE : 0,
		      NULL);
}

void pm_attr_plan(struct pm_writer *w, const char *path, const char *value,
		  const char *where)
{
	char **m;
	int n;

	if (!pm_glob_magic(path)) {
		attr_plan_one(w, path, value, where);
		return;
	}
	/* Each match planned, confined and checked as one path is. */
	n = pm_glob(w->ctx, path, &m);
	if (n == -ENOMEM)
		pm_die(w->t, PM_EXIT_FAIL, "out of memory");
	if (n <= 0)
		pm_die(w->t, PM_EXIT_UNSUPPORTED, "%s%s: matches nothing",
		       where, path);
	for (int i = 0; i < n; i++)
		attr_plan_one(w, m[i], value, where);
	pm_list_free(m, n);
}
