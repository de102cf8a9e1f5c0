// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl dump: the power-management files of /sys and /proc under the
 * root, walked from a fixed list and written as a tar (lib/tar.c) that
 * --sysroot reads back after unpacking.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include "dump.h"
#include "core.h"
#include "parse.h"

/* sysfs nests devices about 15 deep; a loop or a hostile tree stops here. */
#define DUMP_MAX_DEPTH 48
/* Below a listed folder: policyN/stats, intel-rapl:0/intel-rapl:0:0/power. */
#define DUMP_TREE_DEPTH 6
/* Folders in one path (ensure_dir checks each, top down). */
#define DUMP_MAX_PARTS 128

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* How a listed path is walked. */
enum walk {
	W_FILE,			/* one file */
	W_TREE,			/* a folder: every file and subfolder */
	W_CPU,			/* /sys/devices/system/cpu: the PM parts only */
	W_CLASS,		/* class links, and the device folders they name */
	W_BLOCK,		/* class links, and only the dev file of each */
	W_POWER,		/* every device's power/ folder below */
	W_LINKS,		/* CLASS/NAME and BUS/devices/NAME links */
};

/* The whole list; pmctl(8) names it too. */
static const struct {
	const char *path;
	enum walk walk;
} dump_list[] = {
	{ "sys/devices/system/cpu", W_CPU },
	{ "sys/power", W_TREE },
	{ "sys/class/power_supply", W_CLASS },
	{ "sys/class/thermal", W_CLASS },
	{ "sys/class/devfreq", W_CLASS },
	{ "sys/class/regulator", W_CLASS },
	{ "sys/class/powercap", W_CLASS },
	{ "sys/class/rtc", W_CLASS },
	{ "sys/class/platform-profile", W_CLASS },
	{ "sys/class/wakeup", W_CLASS },
	{ "sys/class/block", W_BLOCK },
	/* What a bug report needs first: the machine (serials and UUIDs
	 * are redacted with --redact), the kernel and how it was booted. */
	{ "sys/class/dmi", W_CLASS },
	{ "sys/firmware/acpi/platform_profile", W_FILE },
	{ "sys/firmware/acpi/platform_profile_choices", W_FILE },
	{ "sys/firmware/acpi/pm_profile", W_FILE },
	{ "sys/kernel/debug/clk/clk_summary", W_FILE },
	{ "sys/kernel/debug/pm_genpd/pm_genpd_summary", W_FILE },
	{ "sys/kernel/debug/regulator/regulator_summary", W_FILE },
	{ "sys/devices", W_POWER },
	/* After the devices: links to those in the archive are kept, so
	 * that /sys/class/net/wlan0 and /sys/bus/pci/devices/... resolve. */
	{ "sys/class", W_LINKS },
	{ "sys/bus", W_LINKS },
	{ "proc/stat", W_FILE },
	{ "proc/interrupts", W_FILE },
	{ "proc/cpuinfo", W_FILE },
	{ "proc/meminfo", W_FILE },
	{ "proc/swaps", W_FILE },
	{ "proc/uptime", W_FILE },
	{ "proc/acpi/wakeup", W_FILE },
	{ "proc/sys/kernel/osrelease", W_FILE },
	{ "proc/version", W_FILE },
	{ "proc/cmdline", W_FILE },
};

/* Its read blocks while wakeup events are in progress (kernel-abi §13). */
#define DUMP_BLOCKING "sys/power/wakeup_count"
/* Memory blocks: thousands of power/ folders without runtime PM. */
#define DUMP_NOT_DEVICES "sys/devices/system/memory"

static const char *const cpu_files[] = {
	"online",     "offline",  "possible",  "present",
	"kernel_max", "isolated", "nohz_full",
};
static const char *const cpu_dirs[] = {
	"cpufreq",	"cpuidle",    "smt",
	"intel_pstate", "amd_pstate", "intel_uncore_frequency",
	"power",
};
static const char *const cpun_dirs[] = {
	"cpufreq",   "cpuidle",		 "topology",
	"acpi_cppc", "thermal_throttle", "power",
};

/* Files whose whole content is an identifier (pmctl dump --redact). */
static const char *const redact_names[] = {
	"serial",	"serial_number",     "uuid",
	"product_serial", "board_serial",    "chassis_serial",
	"product_uuid",	"address",	     "board_asset_tag",
	"chassis_asset_tag",
};
/* uevent keys ending so hold the same identifiers. */
static const char *const redact_key_ends[] = { "SERIAL", "SERIAL_NUMBER",
					       "UUID" };

static bool in(const char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return true;
	return false;
}

#define IN(list, s) in(list, ARRAY_SIZE(list), s)

/* ---------------------------------------------------------------- paths */

static int join(char *out, size_t size, const char *dir, const char *name)
{
	int n = snprintf(out, size, "%s%s%s", dir, *dir ? "/" : "", name);

	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* ---------------------------------------------------------------- redact */

static bool key_is_id(const char *key, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(redact_key_ends); i++) {
		size_t m = strlen(redact_key_ends[i]);

		if (n >= m && !strncasecmp(key + n - m, redact_key_ends[i], m))
			return true;
	}
	return false;
}

/*
 * Line by line: where the line is "KEY<sep>VALUE" and KEY names an
 * identifier, VALUE becomes the placeholder.  cpuinfo pads its keys with
 * tabs before ": ".
 */
static int redact_lines(const char *data, size_t len, char sep, bool cpuinfo,
			char **out, size_t *outlen)
{
	size_t lines = 1, o = 0;
	bool changed = false;
	char *b;

	for (size_t i = 0; i < len; i++)
		lines += data[i] == '\n';
	b = malloc(len + lines * sizeof(PM_DUMP_REDACTED) + 1);
	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < len;) {
		const char *line = data + i, *nl = memchr(line, '\n', len - i);
		size_t n = nl ? (size_t)(nl - line) : len - i;
		const char *s = memchr(line, sep, n);
		size_t keep = n;

		if (s) {
			size_t k = (size_t)(s - line);

			while (cpuinfo && k &&
			       (line[k - 1] == '\t' || line[k - 1] == ' '))
				k--;
			if (cpuinfo ?
				    k == 6 && !strncasecmp(line, "Serial", 6) :
				    key_is_id(line, k)) {
				keep = (size_t)(s - line) + 1;
				if (cpuinfo && keep < n && line[keep] == ' ')
					keep++;
			}
		}
		memcpy(b + o, line, keep);
		o += keep;
		if (keep != n) {
			memcpy(b + o, PM_DUMP_REDACTED,
			       sizeof(PM_DUMP_REDACTED) - 1);
			o += sizeof(PM_DUMP_REDACTED) - 1;
			changed = true;
		}
		i += n;
		if (nl) {
			b[o++] = '\n';
			i++;
		}
	}
	if (!changed) {
		free(b);
		return 0;
	}
	*out = b;
	*outlen = o;
	return 1;
}

/*
 * The kernel command line names disks by UUID (root=UUID=..., resume=,
 * PARTUUID=, cryptdevice=UUID=...:name): the hex digits and dashes
 * after each "UUID=" become the placeholder.
 */
static int redact_uuids(const char *data, size_t len, char **out,
			size_t *outlen)
{
	static const char key[] = "UUID=";
	const size_t klen = sizeof(key) - 1;
	size_t o = 0, n = 0;
	bool changed = false;
	char *b;

	for (size_t i = 0; i + klen <= len; i++)
		n += !strncasecmp(data + i, key, klen);
	if (!n)
		return 0;
	b = malloc(len + n * sizeof(PM_DUMP_REDACTED) + 1);
	if (!b)
		return -ENOMEM;
	for (size_t i = 0; i < len;) {
		if (i + klen <= len && !strncasecmp(data + i, key, klen)) {
			memcpy(b + o, data + i, klen);
			o += klen;
			i += klen;
			if (i < len && isxdigit((unsigned char)data[i])) {
				while (i < len &&
				       (isxdigit((unsigned char)data[i]) ||
					data[i] == '-'))
					i++;
				memcpy(b + o, PM_DUMP_REDACTED,
				       sizeof(PM_DUMP_REDACTED) - 1);
				o += sizeof(PM_DUMP_REDACTED) - 1;
				changed = true;
			}
			continue;
		}
		b[o++] = data[i++];
	}
	if (!changed) {
		free(b);
		return 0;
	}
	*out = b;
	*outlen = o;
	return 1;
}

int pm_dump_redact(const char *path, const char *data, size_t len, char **out,
		   size_t *outlen)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	*out = NULL;
	*outlen = 0;
	if (IN(redact_names, base)) {
		bool nl = len && data[len - 1] == '\n';
		size_t n = sizeof(PM_DUMP_REDACTED) - 1 + nl;

		if (!len)
			return 0;
		*out = malloc(n + 1);
		if (!*out)
			return -ENOMEM;
		snprintf(*out, n + 1, "%s%s", PM_DUMP_REDACTED, nl ? "\n" : "");
		*outlen = n;
		return 1;
	}
	if (!strcmp(base, "uevent"))
		return redact_lines(data, len, '=', false, out, outlen);
	if (!strcmp(path, "proc/cmdline"))
		return redact_uuids(data, len, out, outlen);
	if (!strcmp(path, "proc/cpuinfo"))
		return redact_lines(data, len, ':', true, out, outlen);
	return 0;
}

/* ---------------------------------------------------------------- state */

/* A path already in the archive (stored), or met and left out. */
struct slot {
	char *path;
	bool stored;
};

struct link {
	char *path, *target, *resolved;
	/* Kept with its target folder made empty in the archive (a
	 * device's driver and subsystem: only the name is read). */
	bool make_target;
};

struct dumper {
	struct pm_ctx *ctx;
	const struct pm_dump_opts *o;
	struct pm_dump_stats *st;
	struct pm_tar tar;
	struct slot *slot;	/* open addressing, a power of two */
	size_t cap, used;
	struct link *links;	/* written last, when their target is in */
	size_t nlinks, caplinks;
	char *attr;		/* PM_ATTR_MAX: one sysfs read */
	char *big;		/* /proc and debugfs, grown */
	size_t bigcap;
	int err;		/* fatal: a write error or ENOMEM */
};

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

static struct slot *lookup(struct dumper *d, const char *path)
{
	size_t i = (size_t)hash(path) & (d->cap - 1);

	while (d->slot[i].path && strcmp(d->slot[i].path, path))
		i = (i + 1) & (d->cap - 1);
	return &d->slot[i];
}

static bool is_stored(struct dumper *d, const char *path)
{
	struct slot *s = lookup(d, path);

	return s->path && s->stored;
}

/* The slot of path, added if new (*added); NULL when out of memory. */
static struct slot *mark(struct dumper *d, const char *path, bool *added)
{
	struct slot *s;

	if ((d->used + 1) * 2 > d->cap) {
		size_t ncap = d->cap * 2;
		struct slot *old = d->slot, *ns = calloc(ncap, sizeof(*ns));
		size_t ocap = d->cap;

		if (!ns) {
			d->err = ENOMEM;
			return NULL;
		}
		d->slot = ns;
		d->cap = ncap;
		for (size_t i = 0; i < ocap; i++)
			if (old[i].path)
				*lookup(d, old[i].path) = old[i];
		free(old);
	}
	s = lookup(d, path);
	*added = !s->path;
	if (!s->path) {
		s->path = strdup(path);
		if (!s->path) {
			d->err = ENOMEM;
			return NULL;
		}
		d->used++;
	}
	return s;
}

static void skip(struct dumper *d, const char *path, int err, const char *why)
{
	char shown[PM_PATH_MAX + 1];

	d->st->skipped++;
	if (err)
		d->st->unreadable++;
	snprintf(shown, sizeof(shown), "/%s", path);
	if (d->o->on_skip)
		d->o->on_skip(d->o->arg, shown, err, why);
}

static void tar_result(struct dumper *d, int r)
{
	if (r < 0 && !d->err)
		d->err = -r;
}

/*
 * Every folder of path, top down, must be a real folder (a symlink on
 * the way is refused, so nothing resolves outside the root); with emit,
 * those not yet in the archive are added with their modes.
 */
static int ensure_dir(struct dumper *d, const char *path, bool emit)
{
	char buf[PM_PATH_MAX];
	size_t ends[DUMP_MAX_PARTS];
	unsigned modes[DUMP_MAX_PARTS];
	int n = 0;
	size_t len = strlen(path);

	if (is_stored(d, path))
		return 0;
	if (len >= sizeof(buf))
		return -ENAMETOOLONG;
	memcpy(buf, path, len + 1);
	for (size_t i = 0; i <= len; i++) {
		struct stat st;

		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (!is_stored(d, buf)) {
			if (n == DUMP_MAX_PARTS)
				return -ENAMETOOLONG;
			if (fstatat(d->ctx->rootfd, buf, &st,
				    AT_SYMLINK_NOFOLLOW) < 0)
				return -errno;
			if (!S_ISDIR(st.st_mode))
				return -ENOTDIR;
			ends[n] = i;
			/* Owner rwx: a 0555 folder (/sys, /proc) would stop
			 * a user's tar -x and rm -r. */
			modes[n++] = (st.st_mode & 07777) | 0700;
		}
		if (i < len)
			buf[i] = '/';
	}
	for (int k = 0; emit && k < n; k++) {
		bool added;
		struct slot *s;

		buf[ends[k]] = '\0';
		s = mark(d, buf, &added);
		if (!s)
			return -ENOMEM;
		if (!s->stored) {
			tar_result(d, pm_tar_dir(&d->tar, buf, modes[k]));
			s->stored = true;
			d->st->dirs++;
		}
		if (ends[k] < len)
			buf[ends[k]] = '/';
	}
	return 0;
}

/* Tables of /proc and debugfs are read until EOF, attributes in one read. */
static bool read_all(const char *path)
{
	return !strncmp(path, "proc/", 5) ||
	       !strncmp(path, "sys/kernel/debug/", 17);
}

/* One regular file of an open folder (already in the archive). */
static void dump_file(struct dumper *d, int dfd, const char *dir,
		      const char *name, const struct stat *st)
{
	char path[PM_PATH_MAX], *red = NULL;
	const char *data;
	size_t len, rlen;
	struct slot *s;
	bool added;
	ssize_t n;
	int fd;

	if (join(path, sizeof(path), dir, name) < 0) {
		skip(d, dir, ENAMETOOLONG, NULL);
		return;
	}
	s = mark(d, path, &added);
	if (!s || !added)
		return;
	if (!strcmp(path, DUMP_BLOCKING)) {
		skip(d, path, 0, "never read: its read blocks");
		return;
	}
	if (!(st->st_mode & 0444)) {
		skip(d, path, 0, "write-only");
		return;
	}
	fd = pm_openat(d->ctx, dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0) {
		skip(d, path, -fd, NULL);
		return;
	}
	if (read_all(path)) {
		n = pm_fd_read_all(fd, &d->big, &d->bigcap);
		data = d->big;
	} else {
		do
			n = read(fd, d->attr, PM_ATTR_MAX);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			n = -errno;
		data = d->attr;
	}
	close(fd);
	if (n < 0) {
		skip(d, path, (int)-n, NULL);
		return;
	}
	len = (size_t)n;
	if (d->o->redact) {
		int r = pm_dump_redact(path, data, len, &red, &rlen);

		if (r < 0) {
			d->err = -r;
			return;
		}
		if (r > 0) {
			data = red;
			len = rlen;
		}
	}
	tar_result(d,
		   pm_tar_file(&d->tar, path, st->st_mode & 07777, data, len));
	free(red);
	s->stored = true;
	d->st->files++;
}

/* A symlink, kept for the end; *resolved is where it points. */
static int add_link(struct dumper *d, int dfd, const char *dir,
		    const char *name, char *resolved, size_t size,
		    bool make_target)
{
	char path[PM_PATH_MAX], target[PM_PATH_MAX];
	struct slot *s;
	bool added;
	ssize_t n;
	int r;

	if (join(path, sizeof(path), dir, name) < 0)
		return -ENAMETOOLONG;
	n = readlinkat(dfd, name, target, sizeof(target) - 1);
	if (n < 0)
		return -errno;
	target[n] = '\0';
	r = pm_link_resolve(dir, target, resolved, size);
	s = mark(d, path, &added);
	if (!s)
		return -ENOMEM;
	if (r < 0) {
		if (added)
			skip(d, path, 0, "a link out of the root");
		return r;
	}
	if (!added)
		return 0;
	if (d->nlinks == d->caplinks) {
		size_t ncap = d->caplinks ? d->caplinks * 2 : 64;
		struct link *nl = realloc(d->links, ncap * sizeof(*nl));

		if (!nl)
			return -(d->err = ENOMEM);
		d->links = nl;
		d->caplinks = ncap;
	}
	struct link *l = &d->links[d->nlinks];

	l->path = strdup(path);
	l->target = strdup(target);
	l->resolved = strdup(resolved);
	l->make_target = make_target;
	if (!l->path || !l->target || !l->resolved) {
		free(l->path);
		free(l->target);
		free(l->resolved);
		return -(d->err = ENOMEM);
	}
	d->nlinks++;
	return 0;
}

/* ---------------------------------------------------------------- walks */

struct ent {
	char *name;
	unsigned char type;	/* DT_*, resolved when readdir did not say */
};

static int cmp_ent(const void *a, const void *b)
{
	return strcmp(((const struct ent *)a)->name,
		      ((const struct ent *)b)->name);
}

static void ents_free(struct ent *e, int n)
{
	for (int i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}

/*
 * The entries of folder fd (taken over, open in *dp), sorted; -1 and
 * *err on failure.
 */
static int list(struct dumper *d, int fd, DIR **dp, struct ent **out, int *err)
{
	struct ent *v = NULL;
	struct dirent *de;
	int n = 0, cap = 0;
	DIR *dir = fdopendir(fd);

	*out = NULL;
	*dp = NULL;
	if (!dir) {
		*err = errno > 0 ? errno : EIO;
		close(fd);
		return -1;
	}
	while ((de = readdir(dir)) != NULL) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			int ncap = cap ? cap * 2 : 32;
			struct ent *nv = realloc(v, (size_t)ncap * sizeof(*v));

			if (!nv)
				goto oom;
			v = nv;
			cap = ncap;
		}
		v[n].name = strdup(de->d_name);
		if (!v[n].name)
			goto oom;
		v[n].type = de->d_type;
		if (v[n].type == DT_UNKNOWN) {
			struct stat st;

			if (fstatat(dirfd(dir), de->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) == 0)
				v[n].type = S_ISDIR(st.st_mode) ? DT_DIR :
					    S_ISLNK(st.st_mode) ? DT_LNK :
					    S_ISREG(st.st_mode) ? DT_REG :
								  DT_UNKNOWN;
		}
		n++;
	}
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_ent);
	*dp = dir;
	*out = v;
	return n;
oom:
	closedir(dir);
	ents_free(v, n);
	*err = d->err = ENOMEM;
	return -1;
}

/* Which entries of a walked folder go in. */
enum pick {
	P_ALL,			/* every file and folder, no links */
	P_CLASS,		/* the same, and the device and cdevN links */
	P_CPU,			/* /sys/devices/system/cpu itself */
	P_CPUN,			/* a cpuN folder */
	P_BLOCK,		/* only the dev file */
};

static bool is_numbered(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);
	uint32_t v;

	return !strncmp(name, prefix, n) && pm_parse_u32(name + n, &v) == 0;
}

static bool pick_file(enum pick p, const char *name)
{
	switch (p) {
	case P_CPU:
		return IN(cpu_files, name);
	case P_CPUN:
		return !strcmp(name, "online");
	case P_BLOCK:
		return !strcmp(name, "dev");
	default:
		return true;
	}
}

static enum pick pick_dir(enum pick p, const char *name, bool *want)
{
	*want = true;
	switch (p) {
	case P_CPU:
		if (is_numbered(name, "cpu"))
			return P_CPUN;
		*want = IN(cpu_dirs, name);
		return P_ALL;
	case P_CPUN:
		*want = IN(cpun_dirs, name);
		return P_ALL;
	case P_BLOCK:
		*want = false;
		return P_BLOCK;
	default:
		return p;
	}
}

static bool pick_link(enum pick p, const char *name)
{
	switch (p) {
	case P_CPUN:
		return !strcmp(name, "cpufreq");
	case P_CLASS:
		/* The parent device, and a thermal zone's cooling devices. */
		return !strcmp(name, "device") || is_numbered(name, "cdev");
	default:
		return false;
	}
}

static void walk_tree(struct dumper *d, const char *path, enum pick p,
		      int depth)
{
	char child[PM_PATH_MAX], resolved[PM_PATH_MAX];
	struct ent *e;
	DIR *dir;
	int r, n, fd, err;

	r = ensure_dir(d, path, true);
	if (r < 0) {
		if (r != -ENOENT && r != -ENOTDIR)
			skip(d, path, -r, NULL);
		return;
	}
	fd = pm_open_dir(d->ctx, path);
	if (fd < 0) {
		skip(d, path, -fd, NULL);
		return;
	}
	n = list(d, fd, &dir, &e, &err);
	if (n < 0) {
		skip(d, path, err, NULL);
		return;
	}
	for (int i = 0; i < n && !d->err; i++) {
		struct stat st;
		bool want;

		if (e[i].type == DT_REG) {
			if (!pick_file(p, e[i].name))
				continue;
			if (fstatat(dirfd(dir), e[i].name, &st,
				    AT_SYMLINK_NOFOLLOW) == 0 &&
			    S_ISREG(st.st_mode))
				dump_file(d, dirfd(dir), path, e[i].name, &st);
		} else if (e[i].type == DT_DIR) {
			enum pick sub = pick_dir(p, e[i].name, &want);

			if (want && depth > 0 &&
			    join(child, sizeof(child), path, e[i].name) == 0)
				walk_tree(d, child, sub, depth - 1);
		} else if (e[i].type == DT_LNK && pick_link(p, e[i].name)) {
			add_link(d, dirfd(dir), path, e[i].name, resolved,
				 sizeof(resolved), false);
		}
	}
	ents_free(e, n);
	closedir(dir);
}

/* A class: its links, and the device folder behind each. */
static void walk_class(struct dumper *d, const char *path, enum pick p)
{
	char child[PM_PATH_MAX], resolved[PM_PATH_MAX];
	struct ent *e;
	DIR *dir;
	int n, fd, err;

	if (ensure_dir(d, path, true) < 0)
		return;
	fd = pm_open_dir(d->ctx, path);
	if (fd < 0) {
		skip(d, path, -fd, NULL);
		return;
	}
	n = list(d, fd, &dir, &e, &err);
	if (n < 0) {
		skip(d, path, err, NULL);
		return;
	}
	for (int i = 0; i < n && !d->err; i++) {
		const char *dev = NULL;

		if (e[i].type == DT_LNK) {
			if (add_link(d, dirfd(dir), path, e[i].name, resolved,
				     sizeof(resolved), false) == 0)
				dev = resolved;
		} else if (e[i].type == DT_DIR &&
			   join(child, sizeof(child), path, e[i].name) == 0) {
			dev = child;	/* old kernels: a folder, no link */
		}
		if (dev)
			walk_tree(d, dev, p,
				  p == P_BLOCK ? 0 : DUMP_TREE_DEPTH);
	}
	ents_free(e, n);
	closedir(dir);
}

/*
 * Every power/ folder of the devices below (the dir fd is taken over),
 * with the device's driver, subsystem and device links: pmctl device
 * names them and finds a class's parents by them, and a --sysroot replay
 * must show the same.
 */
static void walk_power(struct dumper *d, const char *path, int fd, int depth)
{
	char child[PM_PATH_MAX], resolved[PM_PATH_MAX];
	struct ent *e;
	DIR *dir;
	bool power = false;
	int err, n = list(d, fd, &dir, &e, &err);

	if (n < 0)
		return;
	for (int i = 0; i < n; i++)
		power |= e[i].type == DT_DIR && !strcmp(e[i].name, "power");
	for (int i = 0; i < n && !d->err; i++) {
		/* A class device's parent: kept when the parent is in. */
		if (power && e[i].type == DT_LNK &&
		    (!strcmp(e[i].name, "driver") ||
		     !strcmp(e[i].name, "subsystem") ||
		     !strcmp(e[i].name, "device"))) {
			add_link(d, dirfd(dir), path, e[i].name, resolved,
				 sizeof(resolved), strcmp(e[i].name, "device"));
			continue;
		}
		if (e[i].type != DT_DIR ||
		    join(child, sizeof(child), path, e[i].name) < 0)
			continue;
		if (!strcmp(e[i].name, "power")) {
			walk_tree(d, child, P_ALL, 0);
			continue;
		}
		if (depth <= 0 || !strcmp(child, DUMP_NOT_DEVICES))
			continue;
		int cfd = pm_openat(d->ctx, dirfd(dir), e[i].name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

		if (cfd >= 0)
			walk_power(d, child, cfd, depth - 1);
	}
	ents_free(e, n);
	closedir(dir);
}

/*
 * The links of /sys/class/NAME/ (depth 1) or /sys/bus/NAME/devices/
 * (only "devices" at depth 1): kept at the end when their device is in.
 */
static void walk_links(struct dumper *d, const char *path, int depth,
		       bool bus)
{
	char child[PM_PATH_MAX], sub[PM_PATH_MAX], resolved[PM_PATH_MAX];
	struct ent *e;
	DIR *dir;
	int n, err, fd = pm_open_dir(d->ctx, path);

	if (fd < 0 || ensure_dir(d, path, false) < 0) {
		if (fd >= 0)
			close(fd);
		return;
	}
	n = list(d, fd, &dir, &e, &err);
	if (n < 0)
		return;
	for (int i = 0; i < n && !d->err; i++) {
		if (e[i].type == DT_LNK && depth < 1) {
			add_link(d, dirfd(dir), path, e[i].name, resolved,
				 sizeof(resolved), false);
		} else if (e[i].type == DT_DIR && depth > 0 &&
			   join(child, sizeof(child), path, e[i].name) == 0) {
			if (!bus)
				walk_links(d, child, 0, bus);
			else if (join(sub, sizeof(sub), child, "devices") == 0)
				walk_links(d, sub, 0, bus);
		}
	}
	ents_free(e, n);
	closedir(dir);
}

/* One listed file: nothing if it is not there. */
static void walk_file(struct dumper *d, const char *path)
{
	char dirpath[PM_PATH_MAX];
	const char *base = strrchr(path, '/');
	struct stat st;
	int fd, r;

	snprintf(dirpath, sizeof(dirpath), "%.*s", (int)(base - path), path);
	base++;
	r = ensure_dir(d, dirpath, false);
	if (r == -EACCES || r == -EPERM) {
		skip(d, path, -r, NULL);
		return;
	}
	if (r < 0)
		return;
	fd = pm_open_dir(d->ctx, dirpath);
	if (fd < 0)
		return;
	if (fstatat(fd, base, &st, AT_SYMLINK_NOFOLLOW) < 0) {
		if (errno != ENOENT)
			skip(d, path, errno, NULL);
	} else if (S_ISREG(st.st_mode) && ensure_dir(d, dirpath, true) == 0) {
		dump_file(d, fd, dirpath, base, &st);
	}
	close(fd);
}

/* The links whose targets made it into the archive. */
static void flush_links(struct dumper *d)
{
	char dir[PM_PATH_MAX];

	for (size_t i = 0; i < d->nlinks && !d->err; i++) {
		struct link *l = &d->links[i];
		struct slot *s;
		bool added;

		/* A real folder inside the root, each part checked. */
		if (l->make_target && !is_stored(d, l->resolved) &&
		    ensure_dir(d, l->resolved, true) < 0)
			continue;
		if (!is_stored(d, l->resolved))
			continue;
		/* Its own folder (a class's, a bus's devices/) goes first. */
		snprintf(dir, sizeof(dir), "%s", l->path);
		if (strrchr(dir, '/'))
			*strrchr(dir, '/') = '\0';
		if (ensure_dir(d, dir, true) < 0)
			continue;
		tar_result(d, pm_tar_symlink(&d->tar, l->path, l->target));
		s = mark(d, l->path, &added);
		if (s)
			s->stored = true;
		d->st->links++;
	}
}

static void dumper_free(struct dumper *d)
{
	for (size_t i = 0; d->slot && i < d->cap; i++)
		free(d->slot[i].path);
	free(d->slot);
	for (size_t i = 0; i < d->nlinks; i++) {
		free(d->links[i].path);
		free(d->links[i].target);
		free(d->links[i].resolved);
	}
	free(d->links);
	free(d->attr);
	free(d->big);
}

int pm_dump(struct pm_ctx *ctx, FILE *out, const struct pm_dump_opts *o,
	    struct pm_dump_stats *st)
{
	struct dumper d;
	int r;

	memset(st, 0, sizeof(*st));
	memset(&d, 0, sizeof(d));
	d.ctx = ctx;
	d.o = o;
	d.st = st;
	d.cap = 1024;
	d.slot = calloc(d.cap, sizeof(*d.slot));
	d.attr = malloc(PM_ATTR_MAX);
	if (!d.slot || !d.attr) {
		dumper_free(&d);
		return pm_err_set(ctx, "dump", NULL, NULL, ENOMEM, NULL);
	}
	pm_tar_init(&d.tar, out, o->mtime);
	for (size_t i = 0; i < ARRAY_SIZE(dump_list) && !d.err; i++) {
		const char *path = dump_list[i].path;
		int fd;

		switch (dump_list[i].walk) {
		case W_FILE:
			walk_file(&d, path);
			break;
		case W_TREE:
			walk_tree(&d, path, P_ALL, DUMP_TREE_DEPTH);
			break;
		case W_CPU:
			walk_tree(&d, path, P_CPU, DUMP_TREE_DEPTH);
			break;
		case W_CLASS:
			walk_class(&d, path, P_CLASS);
			break;
		case W_BLOCK:
			walk_class(&d, path, P_BLOCK);
			break;
		case W_LINKS:
			walk_links(&d, path, 1, !strcmp(path, "sys/bus"));
			break;
		case W_POWER:
			if (ensure_dir(&d, path, false) < 0)
				break;
			fd = pm_open_dir(ctx, path);
			if (fd >= 0)
				walk_power(&d, path, fd, DUMP_MAX_DEPTH);
			break;
		}
	}
	flush_links(&d);
	if (!d.err)
		tar_result(&d, pm_tar_finish(&d.tar));
	st->bytes = d.tar.written;
	r = d.err;
	dumper_free(&d);
	if (r)
		return pm_err_set(ctx, "write", NULL, NULL, r, NULL);
	return 0;
}
