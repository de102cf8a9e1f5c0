// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/device.c on a temporary sysroot: the resolution of
 * device paths confined to the root and to /sys/devices, the walk that
 * reads power/ folders, class members, the order of paths, and the
 * --runtime and --wakeup values.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"

static char root[] = "/tmp/pmtools-test-device.XXXXXX";

/* ---------------------------------------------------------------- helpers */

static void mkdirs(const char *rel)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

/* root/rel holding text (its folders made first). */
static void mkfile(const char *rel, const char *text)
{
	char path[PM_PATH_MAX], dir[PM_PATH_MAX];
	size_t len = strlen(text);
	int fd;

	snprintf(dir, sizeof(dir), "%s", rel);
	if (strrchr(dir, '/')) {
		*strrchr(dir, '/') = '\0';
		mkdirs(dir);
	}
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		perror(path);
		exit(99);
	}
	close(fd);
}

/* A symlink root/rel -> target, as written. */
static void mklink(const char *rel, const char *target)
{
	char path[PM_PATH_MAX], dir[PM_PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", rel);
	if (strrchr(dir, '/')) {
		*strrchr(dir, '/') = '\0';
		mkdirs(dir);
	}
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
	if (symlink(target, path) < 0) {
		perror(path);
		exit(99);
	}
}

static int rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

/* A device folder with runtime PM files; wakeup NULL: not capable. */
static void mkdevice(const char *rel, const char *control, const char *status,
		     const char *wakeup)
{
	char p[PM_PATH_MAX];

	snprintf(p, sizeof(p), "%s/power/control", rel);
	mkfile(p, control);
	snprintf(p, sizeof(p), "%s/power/runtime_status", rel);
	mkfile(p, status);
	snprintf(p, sizeof(p), "%s/power/runtime_active_time", rel);
	mkfile(p, "1000\n");
	snprintf(p, sizeof(p), "%s/power/runtime_suspended_time", rel);
	mkfile(p, "2000\n");
	if (wakeup) {
		snprintf(p, sizeof(p), "%s/power/wakeup", rel);
		mkfile(p, wakeup);
	}
}

static void build_tree(void)
{
	/* A PCI device with a driver, wakeup and its counts. */
	mkdevice("sys/devices/pci0000:00/0000:00:14.0", "auto\n", "active\n",
		 "enabled\n");
	mkfile("sys/devices/pci0000:00/0000:00:14.0/power/wakeup_count", "5\n");
	mkfile("sys/devices/pci0000:00/0000:00:14.0/power/wakeup_active",
	       "0\n");
	mkfile("sys/devices/pci0000:00/0000:00:14.0/power/"
	       "wakeup_total_time_ms",
	       "15\n");
	mkfile("sys/devices/pci0000:00/0000:00:14.0/power/"
	       "autosuspend_delay_ms",
	       "-1\n");
	mkfile("sys/devices/pci0000:00/0000:00:14.0/power/"
	       "pm_qos_resume_latency_us",
	       "n/a\n");
	mkfile("sys/devices/pci0000:00/0000:00:14.0/vendor", "0x8086\n");
	mkdirs("sys/bus/pci/drivers/xhci_hcd");
	mklink("sys/devices/pci0000:00/0000:00:14.0/subsystem",
	       "../../../bus/pci");
	mklink("sys/devices/pci0000:00/0000:00:14.0/driver",
	       "../../../bus/pci/drivers/xhci_hcd");
	mklink("sys/bus/pci/devices/0000:00:14.0",
	       "../../../devices/pci0000:00/0000:00:14.0");
	/* Wakeup disabled: the counts read "\n". */
	mkdevice("sys/devices/pci0000:00/0000:00:1c.0", "on\n", "active\n",
		 "disabled\n");
	mkfile("sys/devices/pci0000:00/0000:00:1c.0/power/wakeup_count", "\n");
	mkfile("sys/devices/pci0000:00/0000:00:1c.0/power/"
	       "autosuspend_delay_ms",
	       "");
	mkfile("sys/devices/pci0000:00/0000:00:1c.0/power/"
	       "pm_qos_resume_latency_us",
	       "0\n");
	mklink("sys/devices/pci0000:00/0000:00:1c.0/subsystem",
	       "../../../bus/pci");
	mkdevice("sys/devices/pci0000:00/0000:00:02.0", "auto\n", "suspended\n",
		 NULL);
	mkfile("sys/devices/pci0000:00/0000:00:02.0/power/"
	       "pm_qos_resume_latency_us",
	       "100\n");
	mklink("sys/devices/pci0000:00/0000:00:02.0/subsystem",
	       "../../../bus/pci");
	/* A net class device below the PCI function, and a virtual one. */
	mkdevice("sys/devices/pci0000:00/0000:00:1c.0/net/eth0", "auto\n",
		 "unsupported\n", NULL);
	mklink("sys/devices/pci0000:00/0000:00:1c.0/net/eth0/subsystem",
	       "../../../../../class/net");
	mklink("sys/devices/pci0000:00/0000:00:1c.0/net/eth0/device",
	       "../../../0000:00:1c.0");
	mklink("sys/class/net/eth0",
	       "../../devices/pci0000:00/0000:00:1c.0/net/eth0");
	mkdevice("sys/devices/virtual/net/lo", "auto\n", "unsupported\n", NULL);
	mklink("sys/devices/virtual/net/lo/subsystem", "../../../../class/net");
	mklink("sys/class/net/lo", "../../devices/virtual/net/lo");
	/* Wakeup only, no runtime PM; and a power/ folder with neither. */
	mkfile("sys/devices/platform/rtc_cmos/power/wakeup", "enabled\n");
	mkdirs("sys/devices/platform/pcspkr/power");
	mkfile("sys/devices/platform/pcspkr/power/pm_qos_latency", "0\n");
	/* CPUs in version order; a link to a device is not walked. */
	mkdevice("sys/devices/system/cpu/cpu2", "auto\n", "unsupported\n",
		 NULL);
	mkdevice("sys/devices/system/cpu/cpu10", "auto\n", "unsupported\n",
		 NULL);
	mklink("sys/devices/system/cpu/cpu2/alias", "../cpu10");
	mklink("sys/devices/system/cpu/cpu2/firmware_node",
	       "../../../pci0000:00");
	/* Escapes and loops for the resolver. */
	mklink("sys/class/evil/abs", "/etc");
	mklink("sys/class/evil/abs_in", "/sys/devices/pci0000:00");
	mklink("sys/class/evil/up", "../../../../../../../../etc");
	mklink("sys/class/evil/power", "../../power");
	mkdirs("sys/power");
	mklink("sys/class/loop/a", "b");
	mklink("sys/class/loop/b", "a");
	mklink("sys/class/loop/self", "self");
	mklink("sys/class/dangling/x", "../../devices/nothing");
	mklink("sys/class/mid/x", "../../devices/virtual/net/../../pci0000:00");
	mkdirs("etc");
}

static void chain(int n)
{
	char name[64], target[64];

	/* c0 -> c1 -> ... -> c(n-1) -> the PCI device */
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "sys/class/chain%d/c%d", n, i);
		if (i + 1 < n)
			snprintf(target, sizeof(target), "c%d", i + 1);
		else
			snprintf(target, sizeof(target),
				 "../../devices/pci0000:00");
		mklink(name, target);
	}
}

/* ---------------------------------------------------------------- resolve */

static void resolves(struct pm_ctx *ctx, const char *path, const char *want)
{
	char out[PM_PATH_MAX];
	int r = pm_device_resolve(ctx, path, out, sizeof(out));

	is_int(r, 0, "resolve %s: 0", path);
	is_str(out, want, "resolve %s: %s", path, want);
}

static void refused(struct pm_ctx *ctx, const char *path, int err,
		    const char *what)
{
	char out[PM_PATH_MAX];
	int r = pm_device_resolve(ctx, path, out, sizeof(out));

	is_int(r, -err, "resolve %s: %s (%s)", path, pm_errno_name(err), what);
	is_str(ctx->err.file, path, "resolve %s: the record names it", path);
	ok(ctx->err.hint[0] != '\0', "resolve %s: says why: %s", path,
	   ctx->err.hint);
}

static void test_resolve(void)
{
	char out[PM_PATH_MAX], longp[PM_PATH_MAX + 64], name[NAME_MAX + 8];
	struct pm_ctx ctx;

	unsetenv("PM_TEST_GUARD");
	is_int(pm_ctx_open(&ctx, root), 0, "a context on the tree");

	resolves(&ctx, "/sys/devices/pci0000:00/0000:00:14.0",
		 "/sys/devices/pci0000:00/0000:00:14.0");
	resolves(&ctx, "/sys/devices", "/sys/devices");
	resolves(&ctx, "//sys/./devices//pci0000:00/./0000:00:14.0/",
		 "/sys/devices/pci0000:00/0000:00:14.0");
	resolves(&ctx, "/sys/class/net/eth0",
		 "/sys/devices/pci0000:00/0000:00:1c.0/net/eth0");
	resolves(&ctx, "/sys/class/net/eth0/device",
		 "/sys/devices/pci0000:00/0000:00:1c.0");
	resolves(&ctx, "/sys/class/net/lo", "/sys/devices/virtual/net/lo");
	resolves(&ctx, "/sys/bus/pci/devices/0000:00:14.0",
		 "/sys/devices/pci0000:00/0000:00:14.0");
	/* A link in the middle, and a link target with ".." inside it. */
	resolves(&ctx, "/sys/class/mid/x/0000:00:14.0",
		 "/sys/devices/pci0000:00/0000:00:14.0");
	resolves(&ctx, "/sys/devices/system/cpu/cpu2/alias",
		 "/sys/devices/system/cpu/cpu10");
	chain(PM_MAX_LINKS);
	resolves(&ctx, "/sys/class/chain40/c0", "/sys/devices/pci0000:00");

	refused(&ctx, "sys/devices/pci0000:00", EINVAL, "not absolute");
	refused(&ctx, "", EINVAL, "empty");
	refused(&ctx, "/sys/devices/../devices/pci0000:00", EINVAL, "'..'");
	refused(&ctx, "/sys/devices/pci0000:00/..", EINVAL, "'..' last");
	refused(&ctx, "/..", EINVAL, "'..' of the root");
	refused(&ctx, "/sys/class/evil/abs", EXDEV,
		"an absolute link out of the root");
	refused(&ctx, "/sys/class/evil/abs/passwd", EXDEV,
		"through an absolute link");
	refused(&ctx, "/sys/class/evil/abs_in", EXDEV,
		"an absolute link names the host's file");
	refused(&ctx, "/sys/class/evil/up", EXDEV,
		"a relative link above the root");
	refused(&ctx, "/sys/class/evil/power", EXDEV,
		"a link to a folder outside /sys/devices");
	pm_device_resolve(&ctx, "/sys/class/evil/power", out, sizeof(out));
	is_str(out, "/sys/power", "outside /sys/devices: out says where");
	refused(&ctx, "/sys/power", EXDEV, "outside /sys/devices");
	refused(&ctx, "/etc", EXDEV, "outside /sys");
	refused(&ctx, "/", EXDEV, "the root itself");
	refused(&ctx, "/sys/devicesX", ENOENT, "a longer name is not below");
	refused(&ctx, "/sys/class/loop/a", ELOOP, "a loop of two links");
	refused(&ctx, "/sys/class/loop/self", ELOOP, "a link to itself");
	chain(PM_MAX_LINKS + 1);
	refused(&ctx, "/sys/class/chain41/c0", ELOOP, "one link too many");
	refused(&ctx, "/sys/devices/nothing", ENOENT, "missing");
	refused(&ctx, "/sys/class/dangling/x", ENOENT, "a dangling link");
	refused(&ctx, "/sys/devices/pci0000:00/0000:00:14.0/vendor", ENOTDIR,
		"a file");
	refused(&ctx, "/sys/devices/pci0000:00/0000:00:14.0/vendor/x", ENOTDIR,
		"below a file");

	memset(name, 'a', NAME_MAX + 1);
	name[NAME_MAX + 1] = '\0';
	snprintf(longp, sizeof(longp), "/sys/devices/%s", name);
	refused(&ctx, longp, ENAMETOOLONG, "a name longer than NAME_MAX");
	longp[0] = '\0';
	while (strlen(longp) < PM_PATH_MAX)
		strcat(longp, "/sys");
	is_int(pm_device_resolve(&ctx, longp, out, sizeof(out)), -ENAMETOOLONG,
	       "a path longer than PATH_MAX: -ENAMETOOLONG");
	is_int(pm_device_resolve(&ctx, "/sys/devices/pci0000:00", out, 8),
	       -ENAMETOOLONG, "a result longer than out: -ENAMETOOLONG");
	pm_ctx_close(&ctx);
}

/* The real root: absolute links are the machine's own; reads only. */
static void test_resolve_real(void)
{
	char out[PM_PATH_MAX];
	struct pm_ctx ctx;
	struct stat st;

	is_int(pm_ctx_open(&ctx, "/"), 0, "a context on the real root");
	if (stat("/sys/devices", &st) < 0) {
		skip("no /sys/devices", "the real /sys/devices resolves");
		pm_ctx_close(&ctx);
		return;
	}
	is_int(pm_device_resolve(&ctx, "/sys/devices", out, sizeof(out)), 0,
	       "the real /sys/devices resolves");
	is_str(out, "/sys/devices", "to itself");
	if (lstat("/sys/class/net/lo", &st) == 0) {
		is_int(pm_device_resolve(&ctx, "/sys/class/net/lo", out,
					 sizeof(out)),
		       0, "the real /sys/class/net/lo resolves");
		is_str(out, "/sys/devices/virtual/net/lo",
		       "to /sys/devices/virtual/net/lo");
	} else {
		skip("no lo", "the real /sys/class/net/lo resolves");
	}
	is_int(pm_device_resolve(&ctx, "/sys/power", out, sizeof(out)), -EXDEV,
	       "the real /sys/power is outside /sys/devices");
	pm_ctx_close(&ctx);
}

/* ---------------------------------------------------------------- read */

static const struct pm_device *find(const struct pm_devices *l,
				    const char *path)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].path, path))
			return &l->v[i];
	return NULL;
}

static bool only_pci(void *arg, const char *path, const char *subsystem)
{
	int *calls = arg;

	(*calls)++;
	(void)path;
	return subsystem && !strcmp(subsystem, "pci");
}

static void test_read(void)
{
	struct pm_devices l = { 0 };
	const struct pm_device *d;
	struct pm_ctx ctx;
	int n, calls = 0;

	is_int(pm_ctx_open(&ctx, root), 0, "a context on the tree");
	n = pm_devices_read(&ctx, "/sys/devices", NULL, NULL, &l);
	is_int(n, 8, "eight devices have runtime PM or wakeup files");
	is_int(l.n, n, "the list holds them");
	pm_devices_sort(&l);
	is_str(l.v[0].path, "/sys/devices/pci0000:00/0000:00:02.0",
	       "sorted: 02.0 first");
	is_str(l.v[1].path, "/sys/devices/pci0000:00/0000:00:14.0",
	       "then 14.0");
	is_str(l.v[2].path, "/sys/devices/pci0000:00/0000:00:1c.0",
	       "then 1c.0 (hex order)");
	is_str(l.v[3].path, "/sys/devices/pci0000:00/0000:00:1c.0/net/eth0",
	       "a child after its parent");
	is_str(l.v[5].path, "/sys/devices/system/cpu/cpu2", "cpu2 ...");
	is_str(l.v[6].path, "/sys/devices/system/cpu/cpu10",
	       "... before cpu10");
	ok(!find(&l, "/sys/devices/platform/pcspkr"),
	   "a power/ folder without runtime PM or wakeup files: not listed");
	ok(!find(&l, "/sys/devices/system/cpu/cpu2/alias"),
	   "a link to a device is not walked");

	d = find(&l, "/sys/devices/pci0000:00/0000:00:14.0");
	ok(d != NULL, "14.0 is listed");
	if (d) {
		is_str(d->driver, "xhci_hcd", "driver: the link's basename");
		is_str(d->subsystem, "pci", "subsystem: the link's basename");
		is_str(d->control, "auto", "control");
		is_str(d->runtime_status, "active", "runtime_status");
		is_u64(d->runtime_active_ms, 1000, "runtime_active_time");
		is_u64(d->runtime_suspended_ms, 2000, "runtime_suspended_time");
		is_int(d->autosuspend_delay_ms, -1,
		       "a negative autosuspend delay");
		is_str(d->wakeup, "enabled", "wakeup");
		is_u64(d->wakeup_count, 5, "wakeup_count");
		is_int(d->wakeup_active, 0, "wakeup_active");
		is_int(d->wakeup_total_ms, 15, "wakeup_total_time_ms");
		is_u64(d->wakeup_abort_count, PM_UNKNOWN,
		       "a missing count is unknown");
		is_int(d->wakeup_max_ms, PM_UNKNOWN_S64,
		       "a missing time is unknown");
		is_int(d->resume_latency_limit_us, 0,
		       "pm_qos 'n/a': a limit of 0 us");
	}
	d = find(&l, "/sys/devices/pci0000:00/0000:00:1c.0");
	ok(d && !d->driver, "1c.0: no driver link: NULL");
	if (d) {
		is_str(d->wakeup, "disabled", "wakeup disabled");
		is_u64(d->wakeup_count, PM_UNKNOWN,
		       "a count read as \\n: unknown");
		is_int(d->wakeup_active, -1, "wakeup_active missing: -1");
		is_int(d->autosuspend_delay_ms, PM_UNKNOWN_S64,
		       "an empty autosuspend delay (EIO in a dump): unknown");
		is_int(d->resume_latency_limit_us, PM_UNKNOWN_S64,
		       "pm_qos '0': no limit");
	}
	d = find(&l, "/sys/devices/pci0000:00/0000:00:02.0");
	ok(d && !d->wakeup[0], "02.0: not wakeup-capable: \"\"");
	if (d)
		is_int(d->resume_latency_limit_us, 100, "pm_qos 100 us");
	d = find(&l, "/sys/devices/platform/rtc_cmos");
	ok(d && !d->control[0] && !d->runtime_status[0] &&
		   !strcmp(d->wakeup, "enabled") && !d->subsystem,
	   "wakeup only: listed, no control, no status, no subsystem");
	if (d)
		is_u64(d->runtime_active_ms, PM_UNKNOWN,
		       "no runtime files: times unknown");
	d = find(&l, "/sys/devices/pci0000:00/0000:00:1c.0/net/eth0");
	ok(d && !strcmp(d->subsystem, "net"), "eth0: subsystem net");
	pm_devices_free(&l);
	is_int(l.n, 0, "pm_devices_free empties the list");

	n = pm_devices_read(&ctx, "/sys/devices", only_pci, &calls, &l);
	is_int(n, 3, "want(): only the PCI devices");
	ok(calls >= 8, "want() is asked about every power/ folder (%d)", calls);
	pm_devices_free(&l);
	n = pm_devices_read(&ctx, "/sys/devices/pci0000:00/0000:00:1c.0", NULL,
			    NULL, &l);
	is_int(n, 2, "a base: itself and the devices below it");
	pm_devices_free(&l);
	n = pm_devices_read(&ctx, "/sys/devices/nothing", NULL, NULL, &l);
	is_int(n, -ENOENT, "a missing base: -ENOENT");
	is_int(l.n, 0, "a missing base adds nothing");
	pm_ctx_close(&ctx);
}

static void test_class(void)
{
	struct pm_ctx ctx;
	char **v;
	int n;

	is_int(pm_ctx_open(&ctx, root), 0, "a context on the tree");
	n = pm_class_devices(&ctx, "net", &v);
	is_int(n, 3, "net: eth0, its parent and lo");
	if (n == 3) {
		is_str(v[0], "/sys/devices/pci0000:00/0000:00:1c.0",
		       "the parent first (sorted)");
		is_str(v[1], "/sys/devices/pci0000:00/0000:00:1c.0/net/eth0",
		       "eth0");
		is_str(v[2], "/sys/devices/virtual/net/lo", "lo");
	}
	pm_list_free(v, n);
	n = pm_class_devices(&ctx, "nosuchclass", &v);
	is_int(n, 0, "no such class: 0");
	ok(v == NULL, "no such class: no list");
	n = pm_class_devices(&ctx, "evil", &v);
	is_int(n, 0, "a class whose links leave the root or /sys/devices: 0");
	pm_list_free(v, n);
	is_int(pm_class_devices(&ctx, "../devices", &v), -EINVAL,
	       "a name with '/': -EINVAL");
	is_int(pm_class_devices(&ctx, "..", &v), -EINVAL, "'..': -EINVAL");
	pm_ctx_close(&ctx);
}

/* ---------------------------------------------------------------- order */

static void test_order(void)
{
	static const char *const sorted[] = {
		"/sys/devices/a",
		"/sys/devices/a/b",
		"/sys/devices/a/c",
		"/sys/devices/a-b",
		"/sys/devices/cpu2",
		"/sys/devices/cpu10",
		"/sys/devices/device:10",
		"/sys/devices/device:1a",
		"/sys/devices/pci0000:00/0000:00:02.0",
		"/sys/devices/pci0000:00/0000:00:14.0",
		"/sys/devices/pci0000:00/0000:00:1c.0",
		"/sys/devices/pci0000:00/0000:00:1c.0/0000:02:00.0",
		"/sys/devices/sda",
		"/sys/devices/sda2",
		"/sys/devices/sda10",
	};
	size_t n = sizeof(sorted) / sizeof(sorted[0]);
	bool good = true;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int r = pm_device_path_cmp(sorted[i], sorted[j]);
			int want = i < j ? -1 : i > j;

			if ((r > 0) - (r < 0) != want) {
				diag("%s vs %s: %d", sorted[i], sorted[j], r);
				good = false;
			}
		}
	ok(good, "pm_device_path_cmp: a total order, parents first, "
		 "numbers by value");
	ok(pm_device_path_cmp("/x/cpu01", "/x/cpu1") != 0,
	   "01 and 1 are equal numbers but different names");
	ok((pm_device_path_cmp("/x/cpu01", "/x/cpu1") > 0) ==
		   (pm_device_path_cmp("/x/cpu1", "/x/cpu01") < 0),
	   "and the order is antisymmetric");
	is_int(pm_device_path_cmp("/x/FF", "/x/ff") != 0, 1,
	       "hex case still tells names apart");
}

/* ---------------------------------------------------------------- values */

static void test_values(void)
{
	static const char *const good_wakeup[][2] = {
		{ "enabled", "enabled" }, { "disabled", "disabled" },
		{ "on", "enabled" },	  { "off", "disabled" },
		{ "yes", "enabled" },	  { "no", "disabled" },
		{ "1", "enabled" },	  { "0", "disabled" },
		{ "true", "enabled" },	  { "Enabled", "enabled" },
	};
	static const char *const bad_wakeup[] = { "",	 "maybe",    "2",
						  "on ", "enabledx", "-1" };
	static const char *const bad_runtime[] = { "",	      "off",	"AUTO",
						   "On",      "auto\n", "1",
						   "enabled", " on" };
	const char *v;

	v = NULL;
	is_int(pm_device_control_parse("auto", &v), 0, "--runtime auto");
	is_str(v, "auto", "auto is written as auto");
	is_int(pm_device_control_parse("on", &v), 0, "--runtime on");
	is_str(v, "on", "on is written as on");
	for (size_t i = 0; i < sizeof(bad_runtime) / sizeof(*bad_runtime); i++)
		is_int(pm_device_control_parse(bad_runtime[i], &v), -EINVAL,
		       "--runtime '%s': -EINVAL", bad_runtime[i]);
	for (size_t i = 0; i < sizeof(good_wakeup) / sizeof(*good_wakeup);
	     i++) {
		v = NULL;
		is_int(pm_device_wakeup_parse(good_wakeup[i][0], &v), 0,
		       "--wakeup %s", good_wakeup[i][0]);
		is_str(v, good_wakeup[i][1], "--wakeup %s writes %s",
		       good_wakeup[i][0], good_wakeup[i][1]);
	}
	for (size_t i = 0; i < sizeof(bad_wakeup) / sizeof(*bad_wakeup); i++)
		is_int(pm_device_wakeup_parse(bad_wakeup[i], &v), -EINVAL,
		       "--wakeup '%s': -EINVAL", bad_wakeup[i]);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	build_tree();
	test_resolve();
	test_resolve_real();
	test_read();
	test_class();
	test_order();
	test_values();
	rm_rf(root);
	return done_testing();
}
