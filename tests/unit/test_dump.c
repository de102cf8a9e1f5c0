// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of pmctl dump's walker (lib/dump.c): what --redact replaces,
 * how relative links resolve, and a dump of a small tree read back: what
 * is in it, what is never read, which links are kept.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"

static char root[] = "/tmp/pmtools-test-dump.XXXXXX";

static void redact_is(const char *path, const char *in, const char *want,
		      const char *what)
{
	char *out = NULL;
	size_t len = 0;
	int r = pm_dump_redact(path, in, strlen(in), &out, &len);

	if (!want) {
		is_int(r, 0, "redact %s: unchanged", what);
	} else {
		char *got = out ? strndup(out, len) : NULL;

		is_int(r, 1, "redact %s: changed", what);
		is_str(got, want, "redact %s", what);
		free(got);
	}
	free(out);
}

static void test_redact(void)
{
	redact_is("sys/class/power_supply/BAT0/serial_number", " 4719\n",
		  "REDACTED\n", "serial_number");
	redact_is("sys/devices/x/serial", "ABC", "REDACTED",
		  "serial without a newline");
	redact_is("sys/devices/x/uuid", "1234-5678\n", "REDACTED\n", "uuid");
	redact_is("sys/devices/x/address", "00:11:22:33:44:55\n", "REDACTED\n",
		  "a MAC address");
	redact_is("sys/devices/x/serial_number", "", NULL, "an empty file");
	redact_is("sys/class/power_supply/BAT0/model_name", "5B10W13930\n",
		  NULL, "model_name is kept");
	redact_is("sys/class/power_supply/BAT0/manufacturer", "SMP\n", NULL,
		  "manufacturer is kept");
	redact_is(
		"sys/x/BAT0/uevent",
		"POWER_SUPPLY_NAME=BAT0\nPOWER_SUPPLY_SERIAL_NUMBER= 4719\n"
		"POWER_SUPPLY_MODEL_NAME=92P1131\n",
		"POWER_SUPPLY_NAME=BAT0\nPOWER_SUPPLY_SERIAL_NUMBER=REDACTED\n"
		"POWER_SUPPLY_MODEL_NAME=92P1131\n",
		"uevent: the serial line only");
	redact_is("sys/x/uevent", "MAJOR=8\nPARTUUID=abcd\nDEVNAME=sda\n",
		  "MAJOR=8\nPARTUUID=REDACTED\nDEVNAME=sda\n",
		  "uevent: a UUID");
	redact_is("sys/x/uevent", "NOTASERIALS=1\nDEVTYPE=disk", NULL,
		  "uevent: SERIALS is not SERIAL");
	redact_is("proc/cpuinfo",
		  "processor\t: 0\nHardware\t: BCM2835\nSerial\t\t: "
		  "00000000abcdef01\nModel\t\t: Raspberry Pi\n",
		  "processor\t: 0\nHardware\t: BCM2835\nSerial\t\t: REDACTED\n"
		  "Model\t\t: Raspberry Pi\n",
		  "cpuinfo: the Serial line");
	redact_is("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu\n", NULL,
		  "cpuinfo without a serial");
	redact_is("proc/stat", "cpu  1 2 3\n", NULL, "other files");
	redact_is("sys/devices/virtual/dmi/id/chassis_asset_tag", "A12\n",
		  "REDACTED\n", "a DMI asset tag");
	redact_is("proc/cmdline",
		  "root=UUID=2b1f3a4c-5d6e-4f70-8192-a3b4c5d6e7f8 ro "
		  "resume=PARTUUID=0a1b2c3d-01 cryptdevice=uuid=AB12:root\n",
		  "root=UUID=REDACTED ro resume=PARTUUID=REDACTED "
		  "cryptdevice=uuid=REDACTED:root\n",
		  "disk UUIDs of the command line");
	redact_is("proc/cmdline", "root=/dev/sda1 quiet UUID=\n", NULL,
		  "a command line without a UUID value");
}

static void resolve_is(const char *dir, const char *target, const char *want,
		       int want_r)
{
	char out[PM_PATH_MAX];
	int r = pm_link_resolve(dir, target, out, sizeof(out));

	is_int(r, want_r, "resolve %s -> %s: %d", dir, target, want_r);
	if (!want_r && want)
		is_str(out, want, "resolve %s -> %s", dir, target);
}

static void test_resolve(void)
{
	resolve_is("sys/class/power_supply",
		   "../../devices/LNXSYSTM:00/power_supply/BAT0",
		   "sys/devices/LNXSYSTM:00/power_supply/BAT0", 0);
	resolve_is("sys/devices/system/cpu/cpu3", "../cpufreq/policy2",
		   "sys/devices/system/cpu/cpufreq/policy2", 0);
	resolve_is("sys/a/b", "./c//d/.", "sys/a/b/c/d", 0);
	resolve_is("sys/class/x", "../../../etc", "etc", 0);
	resolve_is("sys/class/x", "../../../../etc/passwd", NULL, -EXDEV);
	resolve_is("sys/class/x", "/sys/devices/y", NULL, -EXDEV);
	resolve_is("sys/class/x", "", NULL, -EXDEV);
}

/* ---------------------------------------------------------------- a tree */

static void mk(const char *rel, const char *text, mode_t mode)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text) ||
	    fchmod(fd, mode) < 0) {
		perror(path);
		exit(99);
	}
	close(fd);
}

static void ln(const char *target, const char *rel)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(target, path) < 0) {
		perror(path);
		exit(99);
	}
}

/* One member read back from the archive. */
struct member {
	char name[PM_PATH_MAX];
	char link[PM_PATH_MAX];
	char type;
	unsigned mode;
	char data[256];
	size_t size;
};

static struct member members[256];
static int nmembers;

static unsigned long long oct(const char *p, size_t n)
{
	char b[16];

	memcpy(b, p, n);
	b[n] = '\0';
	return strtoull(b, NULL, 8);
}

/* A small ustar/pax reader, enough to check what the writer wrote. */
static bool parse(const char *buf, size_t len)
{
	char pax_path[PM_PATH_MAX] = "", pax_link[PM_PATH_MAX] = "";
	size_t off = 0;

	nmembers = 0;
	while (off + 512 <= len) {
		const char *h = buf + off;
		size_t size = (size_t)oct(h + 124, 12);
		bool zero = true;

		for (int i = 0; i < 512; i++)
			zero = zero && !h[i];
		if (zero)
			return off + 1024 == len;
		if (h[156] == 'x') {
			/* Only the records this writer makes: path, linkpath. */
			const char *p = h + 512, *end = p + size;

			while (p < end) {
				char *sp = memchr(p, ' ', (size_t)(end - p));
				size_t rl = (size_t)strtoul(p, NULL, 10);
				char *dst = !strncmp(sp + 1, "path=", 5) ?
						    pax_path :
						    pax_link;
				const char *v = strchr(sp, '=') + 1;

				snprintf(dst, PM_PATH_MAX, "%.*s",
					 (int)(p + rl - 1 - v), v);
				p += rl;
			}
		} else if (nmembers < 256) {
			struct member *m = &members[nmembers++];

			if (pax_path[0])
				snprintf(m->name, sizeof(m->name), "%s",
					 pax_path);
			else if (h[345])
				snprintf(m->name, sizeof(m->name),
					 "%.155s/%.100s", h + 345, h);
			else
				snprintf(m->name, sizeof(m->name), "%.100s", h);
			snprintf(m->link, sizeof(m->link), "%s",
				 pax_link[0] ? pax_link : "");
			if (!pax_link[0])
				snprintf(m->link, sizeof(m->link), "%.100s",
					 h + 157);
			m->type = h[156];
			m->mode = (unsigned)oct(h + 100, 8);
			m->size = size;
			memcpy(m->data, h + 512,
			       size < sizeof(m->data) - 1 ?
				       size :
				       sizeof(m->data) - 1);
			pax_path[0] = pax_link[0] = '\0';
		}
		off += 512 + (size + 511) / 512 * 512;
	}
	return false;
}

static const struct member *find(const char *name)
{
	for (int i = 0; i < nmembers; i++)
		if (!strcmp(members[i].name, name))
			return &members[i];
	return NULL;
}

struct skips {
	int n;
	char path[16][PM_PATH_MAX];
	int err[16];
	char why[16][64];
};

static void on_skip(void *arg, const char *path, int err, const char *why)
{
	struct skips *s = arg;

	if (s->n < 16) {
		snprintf(s->path[s->n], PM_PATH_MAX, "%s", path);
		s->err[s->n] = err;
		snprintf(s->why[s->n], 64, "%s", why ? why : "");
		s->n++;
	}
}

static int skipped_why(const struct skips *s, const char *path,
		       const char **why)
{
	for (int i = 0; i < s->n; i++)
		if (!strcmp(s->path[i], path)) {
			*why = s->why[i];
			return i;
		}
	return -1;
}

static void test_tree(void)
{
	const char *pol = "sys/devices/system/cpu/cpufreq/policy0";
	const char *bat =
		"sys/devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0";
	char path[PM_PATH_MAX], *buf = NULL;
	struct pm_dump_stats st;
	struct pm_dump_opts o = { .mtime = 1700000000, .on_skip = on_skip };
	struct skips sk = { 0 };
	const struct member *m;
	const char *why = NULL;
	struct pm_ctx ctx;
	size_t len = 0;
	FILE *f;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(99);
	}
	mk("sys/devices/system/cpu/online", "0\n", 0444);
	mk("sys/devices/system/cpu/vulnerabilities/meltdown", "no\n", 0444);
	mk("sys/devices/system/cpu/cpu0/cache/index0/size", "32K\n", 0444);
	mk("sys/devices/system/cpu/cpu0/topology/core_id", "0\n", 0444);
	snprintf(path, sizeof(path), "%s/scaling_governor", pol);
	mk(path, "ondemand\n", 0644);
	snprintf(path, sizeof(path), "%s/cpuinfo_cur_freq", pol);
	mk(path, "1000000\n", 0400);
	snprintf(path, sizeof(path), "%s/stats/reset", pol);
	mk(path, "never read\n", 0200);
	ln("../cpufreq/policy0", "sys/devices/system/cpu/cpu0/cpufreq");
	mk("sys/power/state", "freeze mem\n", 0644);
	mk("sys/power/wakeup_count", "7\n", 0644);
	snprintf(path, sizeof(path), "%s/serial_number", bat);
	mk(path, " 4719\n", 0444);
	snprintf(path, sizeof(path), "%s/uevent", bat);
	mk(path, "POWER_SUPPLY_NAME=BAT0\nPOWER_SUPPLY_SERIAL_NUMBER= 4719\n",
	   0644);
	snprintf(path, sizeof(path), "%s/power/control", bat);
	mk(path, "auto\n", 0644);
	snprintf(path, sizeof(path), "%s/sys/class", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/sys/class/power_supply", root);
	mkdir(path, 0755);
	ln("../../devices/LNXSYSTM:00/PNP0C0A:00/power_supply/BAT0",
	   "sys/class/power_supply/BAT0");
	ln("/sys/class/power_supply/BAT0", "sys/class/power_supply/HOST");
	ln("../../../../../outside", "sys/class/power_supply/ESCAPE");
	mk("sys/devices/pci0000:00/0000:00:14.0/vendor", "0x8086\n", 0444);
	mk("sys/devices/pci0000:00/0000:00:14.0/power/runtime_status",
	   "suspended\n", 0444);
	mk("sys/devices/system/memory/memory0/power/control", "auto\n", 0644);
	mk("proc/stat", "cpu  1 2 3\n", 0444);

	f = open_memstream(&buf, &len);
	if (pm_ctx_open(&ctx, root) < 0 || !f) {
		perror(root);
		exit(99);
	}
	o.arg = &sk;
	is_int(pm_dump(&ctx, f, &o, &st), 0, "dump of a small tree");
	fclose(f);
	ok(parse(buf, len), "the archive reads back and ends in zeros");
	is_u64(st.bytes, len, "its size is counted");

	ok(find("sys/devices/system/cpu/online") != NULL, "cpu/online");
	ok(find("sys/devices/system/cpu/cpu0/topology/core_id") != NULL,
	   "topology");
	ok(!find("sys/devices/system/cpu/vulnerabilities/meltdown"),
	   "not vulnerabilities/");
	ok(!find("sys/devices/system/cpu/cpu0/cache/index0/size"),
	   "not cache/");
	snprintf(path, sizeof(path), "%s/cpuinfo_cur_freq", pol);
	m = find(path);
	ok(m && m->mode == 0400 && !strcmp(m->data, "1000000\n"),
	   "a root-only file with its mode and data");
	snprintf(path, sizeof(path), "%s/stats/reset", pol);
	ok(!find(path), "a write-only file is not in it");
	snprintf(path, sizeof(path), "/%s/stats/reset", pol);
	ok(skipped_why(&sk, path, &why) >= 0 && !strcmp(why, "write-only"),
	   "and is skipped as write-only");
	ok(!find("sys/power/wakeup_count"), "no /sys/power/wakeup_count");
	ok(skipped_why(&sk, "/sys/power/wakeup_count", &why) >= 0,
	   "wakeup_count is skipped: %s", why ? why : "");
	m = find("sys/power/state");
	ok(m && m->type == '0' && m->size == 11 && m->mode == 0644,
	   "sys/power/state, its size and mode");
	m = find("sys/power/");
	ok(m && m->type == '5', "folders are members");

	m = find("sys/devices/system/cpu/cpu0/cpufreq");
	ok(m && m->type == '2' && !strcmp(m->link, "../cpufreq/policy0"),
	   "cpuN/cpufreq stays a relative link");
	m = find("sys/class/power_supply/BAT0");
	ok(m && m->type == '2' &&
		   !strcmp(m->link, "../../devices/LNXSYSTM:00/PNP0C0A:00/"
				    "power_supply/BAT0"),
	   "a class link stays relative");
	ok(!find("sys/class/power_supply/HOST"), "no absolute link");
	ok(!find("sys/class/power_supply/ESCAPE"), "no link out of the root");
	ok(skipped_why(&sk, "/sys/class/power_supply/ESCAPE", &why) >= 0,
	   "the escaping link is named: %s", why ? why : "");
	snprintf(path, sizeof(path), "%s/serial_number", bat);
	m = find(path);
	ok(m && !strcmp(m->data, " 4719\n"), "serial kept without --redact");
	snprintf(path, sizeof(path), "%s/power/control", bat);
	ok(find(path) != NULL, "the supply's power/ folder");
	ok(find("sys/devices/pci0000:00/0000:00:14.0/power/runtime_status") !=
		   NULL,
	   "a device's power/ folder");
	ok(!find("sys/devices/pci0000:00/0000:00:14.0/vendor"),
	   "not the device's other files");
	ok(find("sys/devices/pci0000:00/0000:00:14.0/") != NULL,
	   "the folders that hold it");
	ok(!find("sys/devices/system/memory/memory0/power/control"),
	   "not memory blocks");
	m = find("proc/stat");
	ok(m && !strcmp(m->data, "cpu  1 2 3\n"), "proc/stat");
	free(buf);

	/* --redact */
	buf = NULL;
	f = open_memstream(&buf, &len);
	o.redact = true;
	o.on_skip = NULL;
	is_int(pm_dump(&ctx, f, &o, &st), 0, "dump with --redact");
	fclose(f);
	ok(parse(buf, len), "reads back");
	snprintf(path, sizeof(path), "%s/serial_number", bat);
	m = find(path);
	ok(m && !strcmp(m->data, "REDACTED\n") && m->size == 9,
	   "serial_number redacted, its size follows");
	snprintf(path, sizeof(path), "%s/uevent", bat);
	m = find(path);
	ok(m && strstr(m->data, "SERIAL_NUMBER=REDACTED\n") &&
		   !strstr(m->data, "4719"),
	   "and in uevent");
	free(buf);
	pm_ctx_close(&ctx);

	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	if (system(path) != 0)
		diag("could not remove %s", root);
}

int main(void)
{
	test_redact();
	test_resolve();
	test_tree();
	return done_testing();
}
