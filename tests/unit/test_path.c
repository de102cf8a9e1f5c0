// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the system root context and attribute I/O on a temporary
 * sysroot, the PM_TEST_GUARD safety net, folder listings, and the error
 * messages of lib/tool.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char root[] = "/tmp/pmtools-test-path.XXXXXX";

/* ---------------------------------------------------------------- helpers */

/* Create root/rel with its folders; text NULL makes a folder. */
static void mk(const char *rel, const char *text, size_t len)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	if (!text) {
		mkdir(path, 0755);
		return;
	}
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		perror(path);
		exit(99);
	}
	close(fd);
}

static void mkfile(const char *rel, const char *text)
{
	mk(rel, text, strlen(text));
}

/* The bytes of root/rel, exactly (NUL-terminated for is_str). */
static char *slurp(const char *rel)
{
	static char buf[4096];
	char path[PM_PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n < 0 ? 0 : n] = '\0';
	return buf;
}

static bool exists(const char *rel)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return access(path, F_OK) == 0;
}

struct hook_log {
	int calls;
	char path[256];
	char value[256];
};

static void hook(void *arg, const char *path, const char *value)
{
	struct hook_log *h = arg;

	h->calls++;
	snprintf(h->path, sizeof(h->path), "%s", path);
	snprintf(h->value, sizeof(h->value), "%s", value);
}

/* Does this kernel confine lookups with openat2(RESOLVE_IN_ROOT)? */
static bool have_openat2(void)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
				.resolve = RESOLVE_IN_ROOT };
	long fd = syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof(how));

	if (fd < 0)
		return false;
	close((int)fd);
	return true;
}

/* ---------------------------------------------------------------- context */

static void test_ctx(void)
{
	struct pm_ctx ctx;
	char missing[PM_PATH_MAX];
	int r;

	unsetenv("PM_SYSROOT");
	unsetenv("PM_TEST_GUARD");

	r = pm_ctx_open(&ctx, root);
	is_int(r, 0, "pm_ctx_open on a folder");
	ok(ctx.rootfd >= 0, "pm_ctx_open: a root fd");
	is_str(ctx.root, root, "pm_ctx_open: root kept");
	ok(!ctx.real_root, "a sysroot is not the real root");
	ok(!ctx.guard, "no guard without PM_TEST_GUARD");
	ok(!ctx.dry_run && !ctx.on_write, "pm_ctx_open: no dry run, no hook");
	pm_ctx_close(&ctx);
	is_int(ctx.rootfd, -1, "pm_ctx_close forgets the fd");
	pm_ctx_close(&ctx);
	ok(true, "pm_ctx_close twice is harmless");

	snprintf(missing, sizeof(missing), "%s/no/such/folder", root);
	r = pm_ctx_open(&ctx, missing);
	is_int(r, -ENOENT, "pm_ctx_open on a missing folder: -ENOENT");
	is_int(ctx.err.err, ENOENT, "pm_ctx_open failure: err.err");
	is_str(ctx.err.file, missing, "pm_ctx_open failure: err.file");
	is_str(ctx.err.op, "open", "pm_ctx_open failure: err.op");
	ok(ctx.err.hint[0] != '\0', "pm_ctx_open failure: a hint (%s)",
	   ctx.err.hint);
	is_int(ctx.rootfd, -1, "pm_ctx_open failure: no fd");
	pm_ctx_close(&ctx);

	mkfile("plainfile", "x");
	snprintf(missing, sizeof(missing), "%s/plainfile", root);
	r = pm_ctx_open(&ctx, missing);
	is_int(r, -ENOTDIR, "pm_ctx_open on a file: -ENOTDIR");
	pm_ctx_close(&ctx);

	/* NULL or "": $PM_SYSROOT, else "/". */
	setenv("PM_SYSROOT", root, 1);
	r = pm_ctx_open(&ctx, NULL);
	is_int(r, 0, "pm_ctx_open(NULL) with PM_SYSROOT");
	is_str(ctx.root, root, "pm_ctx_open(NULL) takes PM_SYSROOT");
	ok(!ctx.real_root, "PM_SYSROOT: not the real root");
	pm_ctx_close(&ctx);
	r = pm_ctx_open(&ctx, "");
	is_str(ctx.root, root, "pm_ctx_open(\"\") takes PM_SYSROOT");
	pm_ctx_close(&ctx);
	setenv("PM_SYSROOT", missing, 1);
	r = pm_ctx_open(&ctx, root);
	is_str(ctx.root, root, "an explicit root wins over PM_SYSROOT");
	pm_ctx_close(&ctx);
	setenv("PM_SYSROOT", "", 1);
	r = pm_ctx_open(&ctx, NULL);
	is_str(ctx.root, "/", "PM_SYSROOT empty: /");
	pm_ctx_close(&ctx);
	unsetenv("PM_SYSROOT");
	r = pm_ctx_open(&ctx, NULL);
	is_int(r, 0, "pm_ctx_open(NULL) without PM_SYSROOT");
	is_str(ctx.root, "/", "no PM_SYSROOT: /");
	ok(ctx.real_root, "/ is the real root");
	pm_ctx_close(&ctx);

	static const char *const reals[] = { "//", "/.", "/tmp/..", "/./" };

	for (size_t i = 0; i < ARRAY_SIZE(reals); i++) {
		pm_ctx_open(&ctx, reals[i]);
		ok(ctx.real_root, "\"%s\" is the real root too", reals[i]);
		pm_ctx_close(&ctx);
	}

	static const struct {
		const char *v;
		bool guard;
	} guards[] = {
		{ "1", true }, { "yes", true }, { "0", false }, { "", false }
	};

	for (size_t i = 0; i < ARRAY_SIZE(guards); i++) {
		setenv("PM_TEST_GUARD", guards[i].v, 1);
		pm_ctx_open(&ctx, root);
		ok(ctx.guard == guards[i].guard,
		   "PM_TEST_GUARD=\"%s\": guard %s", guards[i].v,
		   guards[i].guard ? "on" : "off");
		pm_ctx_close(&ctx);
	}
	unsetenv("PM_TEST_GUARD");

	/* A relative root is kept absolute: children get it (PM_SYSROOT). */
	char cwd[PM_PATH_MAX];

	if (getcwd(cwd, sizeof(cwd)) && chdir(root) == 0) {
		r = pm_ctx_open(&ctx, ".");
		is_int(r, 0, "pm_ctx_open(\".\")");
		is_str(ctx.root, root, "\".\" is kept as an absolute path");
		pm_ctx_close(&ctx);
		if (chdir("/") == 0) {
			pm_ctx_open(&ctx, ".");
			is_str(ctx.root, "/", "\".\" in / is /");
			ok(ctx.real_root, "\".\" in / is the real root");
			pm_ctx_close(&ctx);
			pm_ctx_open(&ctx, root + 1);
			is_str(ctx.root, root, "a relative path from / is absolute");
			pm_ctx_close(&ctx);
		}
		if (chdir(cwd) < 0)
			perror(cwd);
	}

	char longroot[PM_PATH_MAX + 10];

	memset(longroot, 'a', sizeof(longroot) - 1);
	longroot[0] = '/';
	longroot[sizeof(longroot) - 1] = '\0';
	r = pm_ctx_open(&ctx, longroot);
	is_int(r, -ENAMETOOLONG, "pm_ctx_open of a too long root");
	pm_ctx_close(&ctx);
}

/* ---------------------------------------------------------------- reads */

static void test_read(void)
{
	static const struct {
		const char *text, *want;
	} strips[] = {
		{ "performance\n", "performance" },
		{ "0-3\n", "0-3" },
		{ "powersave performance \n", "powersave performance" },
		{ "a b  \n\n", "a b" },
		{ "x\t\r\n", "x" },
		{ "  lead\n", "  lead" },
		{ "no newline", "no newline" },
		{ "\n", "" },
		{ "   ", "" },
		{ "", "" },
	};
	struct pm_ctx ctx;
	char buf[64];
	ssize_t n;

	pm_ctx_open(&ctx, root);
	for (size_t i = 0; i < ARRAY_SIZE(strips); i++) {
		mkfile("sys/attr", strips[i].text);
		memset(buf, 'x', sizeof(buf));
		n = pm_attr_read(&ctx, "/sys/attr", buf, sizeof(buf));
		is_int(n, (long long)strlen(strips[i].want),
		       "pm_attr_read \"%s\": length", strips[i].text);
		is_str(buf, strips[i].want, "pm_attr_read \"%s\": text",
		       strips[i].text);
	}

	/* A leading "/" or none: both below the root. */
	mkfile("sys/devices/system/cpu/online", "0-7\n");
	n = pm_attr_read(&ctx, "sys/devices/system/cpu/online", buf,
			 sizeof(buf));
	is_str(n >= 0 ? buf : "(error)", "0-7", "pm_attr_read without '/'");
	n = pm_attr_read(&ctx, "//sys/devices/system/cpu/online", buf,
			 sizeof(buf));
	is_str(n >= 0 ? buf : "(error)", "0-7", "pm_attr_read with \"//\"");
	mkfile("etc/hostname", "sysroot-host\n");
	n = pm_attr_read(&ctx, "/etc/hostname", buf, sizeof(buf));
	is_str(n >= 0 ? buf : "(error)", "sysroot-host",
	       "/etc/hostname is the sysroot's, not the host's");
	ok(pm_exists(&ctx, "/etc/hostname"), "pm_exists under the root");
	ok(!pm_exists(&ctx, "/etc/passwd"),
	   "pm_exists: the host's /etc/passwd is not under the root");
	ok(pm_exists(&ctx, "/"), "pm_exists(\"/\") is the root itself");

	/* ".." and absolute symlinks resolve inside the root too (reads). */
	if (!have_openat2()) {
		skip("no openat2", "\"..\" stays below the root");
		skip("no openat2", "an absolute symlink stays below the root");
	} else {
		char link[PM_PATH_MAX];

		n = pm_attr_read(&ctx, "/../../../etc/hostname", buf,
				 sizeof(buf));
		is_str(n >= 0 ? buf : "(error)", "sysroot-host",
		       "\"..\" stays below the root");
		snprintf(link, sizeof(link), "%s/sys/etc-link", root);
		if (symlink("/etc", link) == 0) {
			n = pm_attr_read(&ctx, "/sys/etc-link/hostname", buf,
					 sizeof(buf));
			is_str(n >= 0 ? buf : "(error)", "sysroot-host",
			       "an absolute symlink stays below the root");
			unlink(link);
		} else {
			skip("symlink failed",
			     "an absolute symlink stays below the root");
		}
	}

	/* The size limit: one byte for the NUL. */
	mkfile("sys/long", "0123456789abcdef\n");
	n = pm_attr_read(&ctx, "/sys/long", buf, 8);
	is_int(n, 7, "pm_attr_read into 8 bytes reads 7");
	is_str(buf, "0123456", "pm_attr_read into 8 bytes: the start");
	is_int(pm_attr_read(&ctx, "/sys/long", buf, 0), -EINVAL,
	       "pm_attr_read into 0 bytes: -EINVAL");

	/* Errors name the file. */
	pm_err_clear(&ctx);
	n = pm_attr_read(&ctx, "/sys/missing", buf, sizeof(buf));
	is_int(n, -ENOENT, "pm_attr_read of a missing file: -ENOENT");
	is_str(buf, "", "pm_attr_read failure: the buffer is empty");
	is_int(ctx.err.err, ENOENT, "pm_attr_read failure: err.err");
	is_str(ctx.err.file, "/sys/missing", "pm_attr_read failure: err.file");
	is_str(ctx.err.op, "open", "pm_attr_read failure: err.op");
	mk("sys/folder", NULL, 0);
	n = pm_attr_read(&ctx, "/sys/folder", buf, sizeof(buf));
	is_int(n, -EISDIR, "pm_attr_read of a folder: -EISDIR");
	is_str(ctx.err.op, "read", "pm_attr_read of a folder: err.op read");

	/* Typed reads. */
	static const struct {
		const char *text;
		int ret;
		uint64_t v;
	} u64s[] = {
		{ "42\n", 0, 42 },
		{ "0\n", 0, 0 },
		{ "18446744073709551615\n", 0, UINT64_MAX },
		{ "7", 0, 7 },
		{ "", -ENODATA, 0 },
		{ "\n", -ENODATA, 0 },
		{ "  \n", -ENODATA, 0 },
		{ "junk\n", -EINVAL, 0 },
		{ "12 34\n", -EINVAL, 0 },
		{ " 12\n", -EINVAL, 0 },
		{ "-1\n", -EINVAL, 0 },
		{ "18446744073709551616\n", -ERANGE, 0 },
	};
	uint64_t v;

	for (size_t i = 0; i < ARRAY_SIZE(u64s); i++) {
		mkfile("sys/num", u64s[i].text);
		pm_err_clear(&ctx);
		v = 12345;
		int r = pm_attr_read_u64(&ctx, "/sys/num", &v);

		is_int(r, u64s[i].ret, "pm_attr_read_u64 \"%s\": returns %d",
		       u64s[i].text, u64s[i].ret);
		is_u64(v, u64s[i].ret ? 12345 : u64s[i].v,
		       "pm_attr_read_u64 \"%s\": value", u64s[i].text);
		if (u64s[i].ret) {
			is_str(ctx.err.file, "/sys/num",
			       "pm_attr_read_u64 \"%s\": err.file",
			       u64s[i].text);
			is_int(ctx.err.err, -u64s[i].ret,
			       "pm_attr_read_u64 \"%s\": err.err",
			       u64s[i].text);
		}
	}
	mkfile("sys/num", "junk\n");
	pm_attr_read_u64(&ctx, "/sys/num", &v);
	is_str(ctx.err.op, "parse", "junk: err.op parse");
	is_str(ctx.err.value, "junk", "junk: err.value is the text read");
	pm_err_clear(&ctx);
	is_int(pm_attr_read_u64(&ctx, "/sys/nothing", &v), -ENOENT,
	       "pm_attr_read_u64 of a missing file: -ENOENT");
	is_str(ctx.err.file, "/sys/nothing",
	       "pm_attr_read_u64 of a missing file: err.file");

	/* Relative to a folder fd. */
	int dfd = pm_open_dir(&ctx, "/sys/devices/system/cpu");

	ok(dfd >= 0, "pm_open_dir");
	mkfile("sys/devices/system/cpu/kernel_max", "8191\n");
	mkfile("sys/devices/system/cpu/neg", "-40\n");
	is_u64(pm_attr_getat_u64(&ctx, dfd, "kernel_max"), 8191,
	       "pm_attr_getat_u64");
	is_u64(pm_attr_getat_u64(&ctx, dfd, "missing"), PM_UNKNOWN,
	       "pm_attr_getat_u64 of a missing file: PM_UNKNOWN");
	is_u64(pm_attr_getat_u64(&ctx, dfd, "neg"), PM_UNKNOWN,
	       "pm_attr_getat_u64 of a negative: PM_UNKNOWN");
	int64_t s = 0;

	is_int(pm_attr_readat_s64(&ctx, dfd, "neg", &s), 0,
	       "pm_attr_readat_s64");
	is_int(s, -40, "pm_attr_readat_s64 value");
	ok(pm_existsat(dfd, "online"), "pm_existsat");
	ok(!pm_existsat(dfd, "offline"), "pm_existsat of a missing name");
	n = pm_attr_readat(&ctx, dfd, "/etc/hostname", buf, sizeof(buf));
	is_str(n >= 0 ? buf : "(error)", "sysroot-host",
	       "pm_attr_readat: an absolute name is from the root");
	int afd = pm_openat(&ctx, dfd, "online", O_RDONLY);

	ok(afd >= 0, "pm_openat");
	n = pm_attr_pread(afd, buf, sizeof(buf));
	is_str(n >= 0 ? buf : "(error)", "0-7", "pm_attr_pread");
	n = pm_attr_pread(afd, buf, sizeof(buf));
	is_str(n >= 0 ? buf : "(error)", "0-7", "pm_attr_pread again");
	is_int(pm_attr_pread(afd, buf, 0), -EINVAL, "pm_attr_pread size 0");
	if (afd >= 0)
		close(afd);
	if (dfd >= 0)
		close(dfd);

	/* /proc-style files read until EOF. */
	size_t big = 200 * 1024 + 17;
	char *text = malloc(big), *got = NULL;

	for (size_t i = 0; i < big; i++)
		text[i] = (char)('a' + i % 26);
	mk("proc/big", text, big);
	n = pm_file_read(&ctx, "/proc/big", &got);
	is_int(n, (long long)big, "pm_file_read of %zu bytes: length", big);
	ok(got && !memcmp(got, text, big) && got[big] == '\0',
	   "pm_file_read of %zu bytes: content, NUL-terminated", big);
	free(got);
	free(text);
	mkfile("proc/empty", "");
	n = pm_file_read(&ctx, "/proc/empty", &got);
	ok(n == 0 && got && got[0] == '\0', "pm_file_read of an empty file");
	free(got);
	n = pm_file_read(&ctx, "/proc/missing", &got);
	ok(n == -ENOENT && got == NULL, "pm_file_read of a missing file");
	is_str(ctx.err.file, "/proc/missing", "pm_file_read: err.file");

	char *mem = NULL;
	size_t cap = 0;
	int fd = pm_open(&ctx, "/etc/hostname", O_RDONLY);

	n = pm_fd_read_all(fd, &mem, &cap);
	is_str(n >= 0 ? mem : "(error)", "sysroot-host\n",
	       "pm_fd_read_all keeps the newline");
	ok(cap > (size_t)n, "pm_fd_read_all: the capacity is returned");
	free(mem);
	close(fd);

	static const struct {
		const char *in, *want;
	} raw[] = { { "a \t\r\n", "a" }, { "", "" }, { " x y ", " x y" } };

	for (size_t i = 0; i < ARRAY_SIZE(raw); i++) {
		snprintf(buf, sizeof(buf), "%s", raw[i].in);
		is_int((long long)pm_strip(buf, strlen(buf)),
		       (long long)strlen(raw[i].want), "pm_strip \"%s\"",
		       raw[i].in);
		is_str(buf, raw[i].want, "pm_strip \"%s\" text", raw[i].in);
	}
	pm_ctx_close(&ctx);
}

/* ---------------------------------------------------------------- writes */

static void test_write(void)
{
	struct hook_log h = { 0 };
	struct pm_ctx ctx;
	int r;

	unsetenv("PM_TEST_GUARD");
	pm_ctx_open(&ctx, root);
	mkfile("sys/devices/system/cpu/cpufreq/policy0/scaling_governor",
	       "performance\n");
	r = pm_attr_write(&ctx,
			  "/sys/devices/system/cpu/cpufreq/policy0/"
			  "scaling_governor",
			  "schedutil");
	is_int(r, 0, "pm_attr_write");
	is_str(slurp("sys/devices/system/cpu/cpufreq/policy0/"
		     "scaling_governor"),
	       "schedutil\n", "pm_attr_write: the value and one newline");
	r = pm_attr_write(&ctx,
			  "sys/devices/system/cpu/cpufreq/policy0/"
			  "scaling_governor",
			  "ps");
	is_int(r, 0, "pm_attr_write without a leading '/'");
	is_str(slurp("sys/devices/system/cpu/cpufreq/policy0/"
		     "scaling_governor"),
	       "ps\n", "pm_attr_write truncates a longer old value");
	r = pm_attr_write(&ctx,
			  "/sys/devices/system/cpu/cpufreq/policy0/"
			  "scaling_governor",
			  "");
	is_int(r, 0, "pm_attr_write of an empty value");
	is_str(slurp("sys/devices/system/cpu/cpufreq/policy0/"
		     "scaling_governor"),
	       "\n", "pm_attr_write of an empty value: a newline");

	/* The file must exist: writes never create. */
	pm_err_clear(&ctx);
	r = pm_attr_write(&ctx, "/sys/power/nothing", "mem");
	is_int(r, -ENOENT, "pm_attr_write to a missing file: -ENOENT");
	is_str(ctx.err.op, "write", "write failure: err.op");
	is_str(ctx.err.file, "/sys/power/nothing", "write failure: err.file");
	is_str(ctx.err.value, "mem", "write failure: err.value");
	is_int(ctx.err.err, ENOENT, "write failure: err.err");
	ok(!exists("sys/power/nothing"), "write failure: no file created");
	mk("sys/power", NULL, 0);
	r = pm_attr_write(&ctx, "/sys/power", "mem");
	is_int(r, -EISDIR, "pm_attr_write to a folder: -EISDIR");

	/* A verified write: the read-back through the fd written. */
	char back[64] = "x";

	mkfile("sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq",
	       "2600000\n");
	r = pm_attr_write_back(&ctx,
			       "/sys/devices/system/cpu/cpufreq/policy0/"
			       "scaling_max_freq",
			       "800000", back, sizeof(back));
	is_int(r, 0, "pm_attr_write_back");
	is_str(back, "800000", "pm_attr_write_back: the value read back");
	is_str(slurp("sys/devices/system/cpu/cpufreq/policy0/"
		     "scaling_max_freq"),
	       "800000\n", "pm_attr_write_back: the file, truncated");
	snprintf(back, sizeof(back), "x");
	r = pm_attr_write_back(&ctx, "/sys/power/nothing", "mem", back,
			       sizeof(back));
	is_int(r, -ENOENT, "pm_attr_write_back to a missing file: -ENOENT");
	is_str(back, "", "pm_attr_write_back failure: nothing read back");
	is_str(ctx.err.op, "write", "pm_attr_write_back failure: err.op");
	ctx.dry_run = true;
	snprintf(back, sizeof(back), "x");
	r = pm_attr_write_back(&ctx,
			       "/sys/devices/system/cpu/cpufreq/policy0/"
			       "scaling_max_freq",
			       "1000000", back, sizeof(back));
	is_int(r, 0, "pm_attr_write_back, dry run");
	is_str(back, "", "pm_attr_write_back, dry run: nothing read back");
	is_str(slurp("sys/devices/system/cpu/cpufreq/policy0/"
		     "scaling_max_freq"),
	       "800000\n", "pm_attr_write_back, dry run: the file as it was");
	ctx.dry_run = false;

	/* Relative to a folder: the record shows the whole path. */
	mkfile("sys/devices/system/cpu/cpu1/online", "1\n");
	int dfd = pm_open_dir(&ctx, "/sys/devices/system/cpu/cpu1");

	r = pm_attr_writeat(&ctx, dfd, "/sys/devices/system/cpu/cpu1", "online",
			    "0");
	is_int(r, 0, "pm_attr_writeat");
	is_str(slurp("sys/devices/system/cpu/cpu1/online"), "0\n",
	       "pm_attr_writeat: the value");
	r = pm_attr_writeat(&ctx, dfd, "/sys/devices/system/cpu/cpu1",
			    "missing", "0");
	is_int(r, -ENOENT, "pm_attr_writeat to a missing file");
	is_str(ctx.err.file, "/sys/devices/system/cpu/cpu1/missing",
	       "pm_attr_writeat failure: err.file is the whole path");
	/* The write goes through the folder fd, not the path again: the
	 * folder renamed after it was opened still takes it. */
	{
		char from[PM_PATH_MAX], to[PM_PATH_MAX];

		snprintf(from, sizeof(from), "%s/sys/devices/system/cpu/cpu1",
			 root);
		snprintf(to, sizeof(to), "%s/sys/devices/system/cpu/cpu1x",
			 root);
		ok(rename(from, to) == 0, "cpu1 renamed cpu1x");
		r = pm_attr_writeat(&ctx, dfd, "/sys/devices/system/cpu/cpu1",
				    "online", "1");
		is_int(r, 0, "pm_attr_writeat writes through its folder fd");
		is_str(slurp("sys/devices/system/cpu/cpu1x/online"), "1\n",
		       "pm_attr_writeat: the value in the folder of the fd");
		ok(rename(to, from) == 0, "cpu1x renamed back");
	}
	close(dfd);

	/* The hook sees every write; dry run stops at the hook. */
	ctx.on_write = hook;
	ctx.on_write_arg = &h;
	mkfile("sys/power/state", "freeze mem disk\n");
	r = pm_attr_write(&ctx, "/sys/power/state", "mem");
	is_int(r, 0, "a write with a hook");
	is_int(h.calls, 1, "the hook is called");
	is_str(h.path, "/sys/power/state", "the hook gets the path");
	is_str(h.value, "mem", "the hook gets the value");
	is_str(slurp("sys/power/state"), "mem\n", "and the file is written");
	mkfile("sys/power/state", "freeze mem disk\n");
	ctx.dry_run = true;
	r = pm_attr_write(&ctx, "sys/power/state", "disk");
	is_int(r, 0, "dry run: the write succeeds");
	is_int(h.calls, 2, "dry run: the hook records it");
	is_str(h.path, "/sys/power/state", "dry run: the hook's path");
	is_str(h.value, "disk", "dry run: the hook's value");
	is_str(slurp("sys/power/state"), "freeze mem disk\n",
	       "dry run: the file is unchanged");
	r = pm_attr_write(&ctx, "/sys/power/missing", "x");
	is_int(r, 0, "dry run: a missing file is not opened");
	ok(!exists("sys/power/missing"), "dry run: nothing created");
	pm_ctx_close(&ctx);

	/* The guard only guards the real root. */
	setenv("PM_TEST_GUARD", "1", 1);
	pm_ctx_open(&ctx, root);
	ok(ctx.guard && !ctx.real_root, "guard on, on a sysroot");
	is_int(pm_write_allowed(&ctx, "/sys/power/state"), 0,
	       "the guard allows writes below a sysroot");
	r = pm_attr_write(&ctx, "/sys/power/state", "mem");
	is_int(r, 0, "the guard allows a write below a sysroot");
	is_str(slurp("sys/power/state"), "mem\n",
	       "a write below a sysroot with the guard on");
	pm_ctx_close(&ctx);
}

/*
 * The safety net: PM_TEST_GUARD=1 and the real "/" refuse every write
 * before the file is opened.  Nothing here may ever reach the real /sys:
 * the write is only tried once the guard is seen to be armed.
 */
/* Writes and read-backs open beside the last write: a link that leaves
 * that folder is resolved again from the root, and stays inside it. */
static void test_near(void)
{
	char link[PM_PATH_MAX], buf[64];
	struct pm_ctx ctx;
	int r;

	unsetenv("PM_TEST_GUARD");
	pm_ctx_open(&ctx, root);
	mkfile("near/a/x/file", "0\n");
	mkfile("near/a/y/file", "0\n");
	mkfile("near/target/file", "0\n");
	mkfile("etc/near-host", "0\n");
	mk("near/b", NULL, 0);
	r = pm_attr_write(&ctx, "/near/a/x/file", "1");
	is_int(r, 0, "near: a first write");
	r = pm_attr_write(&ctx, "/near/a/y/file", "2");
	is_int(r, 0, "near: a second write in the same grandparent");
	is_str(slurp("near/a/y/file"), "2\n", "near: the second file written");
	is_str(slurp("near/a/x/file"), "1\n", "near: the first file kept");
	is_int((int)pm_attr_read_near(&ctx, "/near/a/x/file", buf, sizeof(buf)),
	       1, "near: a read-back beside the write");
	is_str(buf, "1", "near: the read-back value");
	if (!have_openat2()) {
		skip("no openat2", "near: a relative link out of the folder");
		skip("no openat2", "near: an absolute link out of the folder");
		pm_ctx_close(&ctx);
		return;
	}
	/* near/b/l -> ../target: "l/file" beneath near/b leaves it. */
	snprintf(link, sizeof(link), "%s/near/b/l", root);
	if (symlink("../target", link) == 0) {
		r = pm_attr_write(&ctx, "/near/b/l/file", "3");
		is_int(r, 0, "near: a relative link out of the folder");
		is_str(slurp("near/target/file"), "3\n",
		       "near: the link's target written (EXDEV, then the root)");
	} else {
		skip("symlink failed", "near: a relative link out of the folder");
	}
	/* An absolute link is the root's, never the host's. */
	snprintf(link, sizeof(link), "%s/near/b/abs", root);
	if (symlink("/etc", link) == 0) {
		r = pm_attr_write(&ctx, "/near/b/abs/near-host", "4");
		is_int(r, 0, "near: an absolute link out of the folder");
		is_str(slurp("etc/near-host"), "4\n",
		       "near: an absolute link stays below the root");
	} else {
		skip("symlink failed", "near: an absolute link out of the folder");
	}
	pm_ctx_close(&ctx);
	ok(ctx.nearfd == -1, "near: pm_ctx_close closes the cached folder");
}

/* ------------------------------------------------------------- confine */

/* A link at root/rel with target text. */
static void ln(const char *target, const char *rel)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
	if (symlink(target, path) < 0) {
		perror(path);
		exit(99);
	}
}

/* What a confined open of path gives: its text, or "-ERRNO". */
static const char *open_text(struct pm_ctx *ctx, int dirfd, const char *path,
			     int flags)
{
	static char out[128];
	char buf[64];
	int fd = pm_openat_any(ctx, dirfd, path, flags);
	ssize_t n;

	if (fd < 0) {
		snprintf(out, sizeof(out), "-%s", pm_errno_name(-fd));
		return out;
	}
	if (flags & (O_PATH | O_DIRECTORY)) {
		struct stat st;

		fstat(fd, &st);
		snprintf(out, sizeof(out), "%s",
			 S_ISDIR(st.st_mode) ? "(folder)" :
			 S_ISLNK(st.st_mode) ? "(link)" : "(file)");
		close(fd);
		return out;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	pm_strip(buf, strlen(buf));
	snprintf(out, sizeof(out), "%s", buf);
	return out;
}

/*
 * The same table twice: with openat2 (RESOLVE_IN_ROOT, RESOLVE_BENEATH)
 * and with the user-space walk that stands in for it.  Every link kind
 * that could leave the root: absolute, relative, through "..", chained,
 * looping, to a folder, to the host's own paths.  HOST is a file outside
 * the root that no case may ever read.
 */
static void test_confine(void)
{
	char host[160], hostdir[128], t[512];
	static const struct {
		const char *path;
		int flags;
		const char *want;
	} cases[] = {
		{ "c/a/file", O_RDONLY, "IN" },
		{ "/c/a/file", O_RDONLY, "IN" },
		{ "c/a/../a/./file", O_RDONLY, "IN" },
		{ "../../../../c/a/file", O_RDONLY, "IN" },
		{ "c/abs", O_RDONLY, "IN" },
		{ "c/rel", O_RDONLY, "IN" },
		{ "c/up", O_RDONLY, "IN" },
		{ "c/chain1", O_RDONLY, "IN" },
		{ "c/loop1", O_RDONLY, "-ELOOP" },
		{ "c/self", O_RDONLY, "-ELOOP" },
		{ "c/dirabs/file", O_RDONLY, "IN" },
		{ "c/dirrel/file", O_RDONLY, "IN" },
		{ "c/dirabs", O_RDONLY | O_DIRECTORY, "(folder)" },
		{ "c/dirabs/../a/file", O_RDONLY, "IN" },
		{ "c/hostabs", O_RDONLY, "IN-SHADOW" },
		{ "c/hostrel", O_RDONLY, "IN-SHADOW" },
		{ "c/hostdir/secret", O_RDONLY, "IN-SHADOW" },
		/* ".." of where the link leads, not of the link. */
		{ "c/hostdir/../hostdir/secret", O_RDONLY, "-ENOENT" },
		{ "c/dangling", O_RDONLY, "-ENOENT" },
		{ "c/a/file/", O_RDONLY, "-ENOTDIR" },
		{ "c/a/file/x", O_RDONLY, "-ENOTDIR" },
		{ "c/a/nothing", O_RDONLY, "-ENOENT" },
		{ "c/abs", O_RDONLY | O_NOFOLLOW, "-ELOOP" },
		{ "c/abs", O_PATH | O_NOFOLLOW, "(link)" },
		{ "c/abs", O_PATH, "(file)" },
		{ "c/a", O_RDONLY | O_DIRECTORY, "(folder)" },
		{ "c/a/", O_RDONLY | O_DIRECTORY, "(folder)" },
		{ ".", O_RDONLY | O_DIRECTORY, "(folder)" },
		{ "..", O_RDONLY | O_DIRECTORY, "(folder)" },
	};
	/* Below c/a: leaving it is EXDEV, as RESOLVE_BENEATH says. */
	static const struct {
		const char *path;
		const char *want;
	} beneath[] = {
		{ "file", "IN" },
		{ "../a/file", "-EXDEV" },
		{ "../../c/a/file", "-EXDEV" },
		{ "blink", "-EXDEV" },
		{ "brel", "IN" },
		{ "bout", "-EXDEV" },
		{ "/c/a/file", "IN" }, /* an absolute path is the root's */
	};
	struct pm_ctx ctx;
	int dfd;

	snprintf(hostdir, sizeof(hostdir), "%s-host", root);
	snprintf(host, sizeof(host), "%s/secret", hostdir);
	mkdir(hostdir, 0755);
	int hfd = open(host, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (hfd < 0 || write(hfd, "HOST\n", 5) != 5) {
		perror(host);
		exit(99);
	}
	close(hfd);
	mkfile("c/a/file", "IN\n");
	/* The host's paths, shadowed inside the root by other content. */
	snprintf(t, sizeof(t), "%s", hostdir + 1);
	mk(t, NULL, 0);
	snprintf(t, sizeof(t), "%s/secret", hostdir + 1);
	mkfile(t, "IN-SHADOW\n");
	ln("/c/a/file", "c/abs");
	ln("a/file", "c/rel");
	ln("../../../../../../../../../../c/a/file", "c/up");
	ln("chain2", "c/chain1");
	ln("/c/chain3", "c/chain2");
	ln("a/../a/file", "c/chain3");
	ln("loop2", "c/loop1");
	ln("/c/loop1", "c/loop2");
	ln("self", "c/self");
	ln("/c/a", "c/dirabs");
	ln("a", "c/dirrel");
	ln(host, "c/hostabs");
	snprintf(t, sizeof(t), "../../../../../../../../../..%s", host);
	ln(t, "c/hostrel");
	ln(hostdir, "c/hostdir");
	ln("/nonexistent", "c/dangling");
	ln("/c/a/file", "c/a/blink");
	ln("./file", "c/a/brel");
	ln("../../c/a/file", "c/a/bout");

	for (int mode = 0; mode < 2; mode++) {
		const char *how = mode ? "user-space walk" : "openat2";

		if (!mode && !have_openat2()) {
			skip("no openat2", "confinement with openat2");
			continue;
		}
		pm_ctx_open(&ctx, root);
		ctx.no_openat2 = mode;
		for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
			is_str(open_text(&ctx, ctx.rootfd, cases[i].path,
					 cases[i].flags),
			       cases[i].want, "%s: %s (flags %#x)", how,
			       cases[i].path, (unsigned)cases[i].flags);
		dfd = pm_open_dir(&ctx, "/c/a");
		for (size_t i = 0; i < ARRAY_SIZE(beneath); i++)
			is_str(open_text(&ctx, dfd, beneath[i].path, O_RDONLY),
			       beneath[i].want, "%s: beneath c/a: %s", how,
			       beneath[i].path);
		close(dfd);
		/* A write through an absolute link lands inside the root. */
		ln(host, "c/wlink");
		is_int(pm_attr_write(&ctx, "/c/wlink", "W"), 0,
		       "%s: a write through a link to a host path", how);
		snprintf(t, sizeof(t), "%s/secret", hostdir + 1);
		is_str(slurp(t), "W\n", "%s: written inside the root", how);
		mkfile(t, "IN-SHADOW\n");
		/* Made through a dangling link: inside the root. */
		snprintf(t, sizeof(t), "%s/made%d", hostdir, mode);
		ln(t, "c/mk");
		int fd = pm_open_create(&ctx, "/c/mk", O_WRONLY, 0644);

		ok(fd >= 0, "%s: O_CREAT through a dangling link", how);
		if (fd >= 0)
			close(fd);
		ok(access(t, F_OK) != 0, "%s: nothing made on the host (%s)",
		   how, t);
		snprintf(t, sizeof(t), "%s/made%d", hostdir + 1, mode);
		ok(exists(t), "%s: made inside the root", how);
		/* O_NOFOLLOW|O_CREAT on a link: ELOOP, nothing made. */
		fd = pm_open_create(&ctx, "/c/abs", O_WRONLY | O_NOFOLLOW,
				    0644);
		is_int(fd, -ELOOP, "%s: O_CREAT|O_NOFOLLOW on a link", how);
		if (fd >= 0)
			close(fd);
		/* The walk resolves the same as openat2, flag by flag. */
		pm_ctx_close(&ctx);
	}
	is_str(slurp("c/a/file"), "IN\n", "the file inside is untouched");
	hfd = open(host, O_RDONLY | O_CLOEXEC);
	char hb[16] = "";

	if (hfd >= 0) {
		ssize_t n = read(hfd, hb, sizeof(hb) - 1);

		hb[n > 0 ? n : 0] = '\0';
		close(hfd);
	}
	is_str(hb, "HOST\n", "the host's file is untouched");
	unlink(host);
	for (int mode = 0; mode < 2; mode++) {
		snprintf(t, sizeof(t), "%s/made%d", hostdir, mode);
		unlink(t);
	}
	rmdir(hostdir);
}

/*
 * While anything on the machine renames, openat2 may give up a ".." with
 * EAGAIN: a confined open must still find the file (a CI run once saw
 * /sys/class/rtc/rtc0/wakealarm, a link through "..", as missing).
 */
static void test_rename_race(void)
{
	struct pm_ctx ctx;
	char a[600], b[600];
	int misses = 0, n = 20000, st;
	pid_t kid;

	if (!have_openat2()) {
		skip("no openat2", "EAGAIN of openat2 under renames");
		return;
	}
	mkfile("r/dev/x/wakealarm", "0\n");
	mkfile("r/class/.keep", "");
	ln("../dev/x", "r/class/x");
	mkfile("r/spin", "");
	snprintf(a, sizeof(a), "%s/r/spin", root);
	snprintf(b, sizeof(b), "%s/r/spun", root);
	kid = fork();
	if (kid == 0) {
		for (;;) {
			rename(a, b);
			rename(b, a);
		}
	}
	pm_ctx_open(&ctx, root);
	for (int i = 0; i < n; i++)
		misses += !pm_exists(&ctx, "/r/class/x/wakealarm");
	pm_ctx_close(&ctx);
	kill(kid, SIGKILL);
	waitpid(kid, &st, 0);
	is_int(misses, 0, "a link through \"..\" found %d times of %d while "
			  "another process renames",
	       n - misses, n);
}

/*
 * A walk with every folder checked, as configuration is read as root,
 * and one that starts on the host (PM_WALK_HOST): links resolved as the
 * kernel would, the folder of the file read handed back.
 */
static int count_dirs(void *arg, int dirfd)
{
	(void)dirfd;
	(*(int *)arg)++;
	return 0;
}

static int refuse_dirs(void *arg, int dirfd)
{
	(void)arg;
	(void)dirfd;
	return -EPERM;
}

static void test_walk(void)
{
	char path[PM_PATH_MAX], proc[64], got[PM_PATH_MAX], want[PM_PATH_MAX];
	int n = 0, fd;
	struct pm_walk w = { .mode = PM_WALK_HOST, .check_dir = count_dirs,
			     .arg = &n, .want_parent = true };
	ssize_t l;

	mkfile("w/real/file", "W\n");
	ln("real/file", "w/link");
	mk("w/l", NULL, 0);
	ln("../link", "w/l/file");
	snprintf(path, sizeof(path), "%s/w/l/file", root);
	fd = pm_walk_open(AT_FDCWD, path, O_RDONLY, 0, &w);
	ok(fd >= 0, "walk on the host: %s", path);
	if (fd >= 0)
		close(fd);
	ok(w.parent >= 0, "walk: the folder of the file read");
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", w.parent);
	l = readlink(proc, got, sizeof(got) - 1);
	got[l > 0 ? l : 0] = '\0';
	snprintf(want, sizeof(want), "%s/w/real", root);
	is_str(got, want, "walk: the folder is where the links lead");
	if (w.parent >= 0)
		close(w.parent);
	ok(n > 4, "walk: every folder on the way checked (%d)", n);
	w.check_dir = refuse_dirs;
	w.want_parent = false;
	fd = pm_walk_open(AT_FDCWD, path, O_RDONLY, 0, &w);
	is_int(fd, -EPERM, "walk: a folder refused stops it");
}

/* ---------------------------------------------------------------- odd */

struct odd_log {
	int calls;
	char path[256];
	char kind[64];
};

static void on_odd(void *arg, const char *path, const char *kind)
{
	struct odd_log *o = arg;

	o->calls++;
	snprintf(o->path, sizeof(o->path), "%s", path);
	snprintf(o->kind, sizeof(o->kind), "%s", kind);
}

/*
 * A FIFO, a device or a file too big where the kernel has an attribute
 * or a table: never waited on, never read without end, named.
 */
static void test_odd(void)
{
	static const struct {
		const char *name;
		mode_t mode;
		dev_t dev;
		const char *kind;
	} odd[] = {
		{ "fifo", S_IFIFO | 0644, 0, "a FIFO" },
		{ "zero", S_IFCHR | 0644, 0x105, "a character device" },
		{ "null", S_IFCHR | 0644, 0x103, "a character device" },
	};
	struct odd_log o = { 0 };
	struct pm_ctx ctx;
	char path[PM_PATH_MAX], buf[64], *big;
	uint64_t v;
	ssize_t n;
	int fd;

	pm_ctx_open(&ctx, root);
	ctx.on_odd = on_odd;
	ctx.on_odd_arg = &o;
	for (size_t i = 0; i < ARRAY_SIZE(odd); i++) {
		snprintf(path, sizeof(path), "%s/odd/%s", root, odd[i].name);
		mk("odd", NULL, 0);
		if (mknod(path, odd[i].mode,
			  makedev(odd[i].dev >> 8, odd[i].dev & 0xff)) < 0) {
			skip("mknod failed (not root?)", "odd: %s",
			     odd[i].name);
			continue;
		}
		snprintf(path, sizeof(path), "/odd/%s", odd[i].name);
		memset(&o, 0, sizeof(o));
		n = pm_attr_read(&ctx, path, buf, sizeof(buf));
		is_int((int)n, -ENXIO, "odd: pm_attr_read of %s", odd[i].kind);
		is_int(o.calls, 1, "odd: %s named once", odd[i].name);
		is_str(o.path, path, "odd: the path below the root");
		is_str(o.kind, odd[i].kind, "odd: what it is");
		is_int(pm_attr_read_u64(&ctx, path, &v), -ENXIO,
		       "odd: pm_attr_read_u64 of %s", odd[i].kind);
		is_int((int)pm_file_read(&ctx, path, &big), -ENXIO,
		       "odd: pm_file_read of %s", odd[i].kind);
		ok(big == NULL, "odd: no buffer");
		fd = pm_open_create(&ctx, path, O_RDWR, 0644);
		is_int(fd, -ENXIO, "odd: pm_open_create of %s", odd[i].kind);
		if (fd >= 0)
			close(fd);
	}
	/* A FIFO with no reader, to write: ENXIO at the open, named. */
	memset(&o, 0, sizeof(o));
	if (exists("odd/fifo")) {
		is_int(pm_attr_write(&ctx, "/odd/fifo", "1"), -ENXIO,
		       "odd: a write to a FIFO nobody reads");
		is_str(o.path, "/odd/fifo", "odd: the FIFO named");
	}
	/* A table larger than any machine's: refused, named. */
	snprintf(path, sizeof(path), "%s/odd/big", root);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0 && ftruncate(fd, (off_t)PM_FILE_MAX + 4096) == 0) {
		memset(&o, 0, sizeof(o));
		n = pm_file_read(&ctx, "/odd/big", &big);
		is_int((int)n, -EFBIG, "odd: a 64 MiB table is -EFBIG");
		is_str(o.kind, PM_FILE_MAX_TEXT, "odd: said so");
		free(big);
	}
	if (fd >= 0)
		close(fd);
	/* A plain attribute costs no check: it is read as it is. */
	mkfile("odd/plain", "42\n");
	memset(&o, 0, sizeof(o));
	is_int(pm_attr_read_u64(&ctx, "/odd/plain", &v), 0, "odd: plain file");
	is_int(o.calls, 0, "odd: nothing said of a plain file");
	pm_ctx_close(&ctx);
}

static void test_guard(void)
{
	struct hook_log h = { 0 };
	struct pm_ctx ctx;
	int r;

	setenv("PM_TEST_GUARD", "1", 1);
	r = pm_ctx_open(&ctx, "/");
	is_int(r, 0, "pm_ctx_open(\"/\")");
	ok(ctx.real_root, "the guard test runs on the real root");
	ok(ctx.guard, "PM_TEST_GUARD=1 arms the guard");
	ctx.dry_run = false;
	ctx.on_write = hook;
	ctx.on_write_arg = &h;

	/* The check alone: it opens nothing. */
	pm_err_clear(&ctx);
	r = pm_write_allowed(&ctx, "/sys/power/state");
	is_int(r, -EPERM, "pm_write_allowed on / with the guard: -EPERM");
	if (r != -EPERM || !ctx.guard || !ctx.real_root || ctx.dry_run) {
		/* Never try a real write with the guard down. */
		ok(false, "the guard is not armed: the write test is not run");
		pm_ctx_close(&ctx);
		return;
	}
	is_str(ctx.err.op, "write", "guard: err.op");
	is_str(ctx.err.file, "/sys/power/state", "guard: err.file");
	is_int(ctx.err.err, EPERM, "guard: err.err");
	ok(strstr(ctx.err.hint, "PM_TEST_GUARD") != NULL,
	   "guard: the hint names PM_TEST_GUARD (%s)", ctx.err.hint);

	pm_err_clear(&ctx);
	r = pm_attr_write(&ctx, "/sys/power/state", "mem");
	is_int(r, -EPERM, "pm_attr_write(/sys/power/state) on / is refused");
	is_int(h.calls, 0, "guard: refused before the hook");
	is_str(ctx.err.file, "/sys/power/state", "guard refusal: err.file");
	is_int(ctx.err.err, EPERM, "guard refusal: err.err");
	r = pm_attr_writeat(&ctx, ctx.rootfd, "/sys/power", "state", "mem");
	is_int(r, -EPERM, "pm_attr_writeat on / is refused");
	is_int(h.calls, 0, "pm_attr_writeat refusal: no hook");

	/* A dry run writes nothing, so the guard lets it through. */
	ctx.dry_run = true;
	is_int(pm_write_allowed(&ctx, "/sys/power/state"), 0,
	       "guard: a dry run is allowed");
	ctx.dry_run = false;
	pm_ctx_close(&ctx);
	unsetenv("PM_TEST_GUARD");
}

/* ---------------------------------------------------------------- listings */

static void test_list(void)
{
	static const char *const cpu_entries[] = {
		"cpu0",		 "cpu1",    "cpu10",   "cpu2",	   "cpu11",
		"cpu3",		 "cpufreq", "cpuidle", "cpu",	   "cpux",
		"cpu1a",	 "cpu-1",   "online",  "possible", "cpu+4",
		"cpu4294967296", "smt",	    "xcpu5",   "Cpu6",	   "cpu007",
	};
	unsigned nums[32];
	struct pm_ctx ctx;
	char **names;
	char got[512];
	int n;

	for (size_t i = 0; i < ARRAY_SIZE(cpu_entries); i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "sys/devices/system/cpu2/%s",
			 cpu_entries[i]);
		mk(rel, NULL, 0);
	}
	pm_ctx_open(&ctx, root);
	n = pm_list_numbered(&ctx, "/sys/devices/system/cpu2", "cpu", nums,
			     ARRAY_SIZE(nums));
	got[0] = '\0';
	for (int i = 0; i < n; i++) {
		size_t l = strlen(got);

		snprintf(got + l, sizeof(got) - l, "%s%u", i ? " " : "",
			 nums[i]);
	}
	is_int(n, 7, "pm_list_numbered: count");
	is_str(got, "0 1 2 3 7 10 11",
	       "pm_list_numbered: numeric order, cpufreq and cpuidle ignored");

	mk("sys/class/empty", NULL, 0);
	n = pm_list_numbered(&ctx, "/sys/class/empty", "policy", nums, 4);
	is_int(n, 0, "pm_list_numbered of an empty folder");
	n = pm_list_numbered(&ctx, "/sys/class/none", "policy", nums, 4);
	is_int(n, -ENOENT, "pm_list_numbered of a missing folder");
	is_str(ctx.err.file, "/sys/class/none",
	       "pm_list_numbered failure: err.file");

	static const char *const entries[] = {
		"b",  "a", "B", "A",	    "_x",      "a10",
		"a2", "Z", "~", "\xc3\xa9", ".hidden", "0",
	};
	const char *sorted = ".hidden 0 A B Z _x a a10 a2 b ~ \xc3\xa9";

	for (size_t i = 0; i < ARRAY_SIZE(entries); i++) {
		char rel[128];

		snprintf(rel, sizeof(rel), "sys/class/list/%s", entries[i]);
		if (i % 2)
			mk(rel, NULL, 0);
		else
			mkfile(rel, "x");
	}
	n = pm_list_dir(&ctx, "/sys/class/list", &names);
	got[0] = '\0';
	for (int i = 0; i < n; i++) {
		size_t l = strlen(got);

		snprintf(got + l, sizeof(got) - l, "%s%s", i ? " " : "",
			 names[i]);
	}
	is_int(n, (long long)ARRAY_SIZE(entries), "pm_list_dir: count");
	is_str(got, sorted, "pm_list_dir: C-locale order, no . or ..");
	pm_list_free(names, n);

	n = pm_list_dir(&ctx, "/sys/class/empty", &names);
	ok(n == 0, "pm_list_dir of an empty folder");
	pm_list_free(names, n);
	n = pm_list_dir(&ctx, "/sys/class/none", &names);
	ok(n == -ENOENT && names == NULL, "pm_list_dir of a missing folder");
	n = pm_list_dir(&ctx, "/etc/hostname", &names);
	ok(n == -ENOTDIR, "pm_list_dir of a file: -ENOTDIR");
	pm_ctx_close(&ctx);
}

/* ---------------------------------------------------------------- messages */

/* The format-string reads and the class iteration. */
/* pm_glob: fnmatch per component, name order, confined like a listing. */
static void test_glob(void)
{
	struct pm_ctx ctx;
	char **m, got[512] = "", lnk[PM_PATH_MAX];
	int n;

	mkfile("sys/class/scsi_host/host1/link_power_management_policy", "a");
	mkfile("sys/class/scsi_host/host0/link_power_management_policy", "b");
	mkfile("sys/class/scsi_host/host10/proc_name", "c");
	mkfile("sys/class/scsi_host/.hidden/link_power_management_policy",
	       "d");
	mkfile("outside/link_power_management_policy", "e");
	snprintf(lnk, sizeof(lnk), "%s/sys/class/scsi_host/hostx", root);
	if (symlink("/outside", lnk) < 0) {
		perror(lnk);
		exit(99);
	}
	pm_ctx_open(&ctx, root);
	ok(pm_glob_magic("/sys/a*") && pm_glob_magic("/sys/a?") &&
	   pm_glob_magic("/sys/[ab]") && !pm_glob_magic("/sys/a"),
	   "pm_glob_magic");
	n = pm_glob(&ctx,
		    "/sys/class/scsi_host/host*/link_power_management_policy",
		    &m);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(got);

		snprintf(got + l, sizeof(got) - l, "%s%s", i ? " " : "",
			 m[i] + 21);
	}
	is_int(n, 3, "pm_glob: the hosts with the file, no dot-folder");
	is_str(got, "host0/link_power_management_policy "
		    "host1/link_power_management_policy "
		    "hostx/link_power_management_policy",
	       "pm_glob: in name order; a link resolved inside the root");
	pm_list_free(m, n);
	n = pm_glob(&ctx, "/sys/class/scsi_host/host?/proc_name", &m);
	is_int(n, 0, "pm_glob: ? is one character");
	pm_list_free(m, n);
	n = pm_glob(&ctx, "/sys/class/scsi_host/.h*/link_power_management_"
			  "policy", &m);
	is_int(n, 1, "pm_glob: a dot-folder by a pattern that says '.'");
	pm_list_free(m, n);
	n = pm_glob(&ctx, "/sys/class/no*/x", &m);
	is_int(n, 0, "pm_glob: a missing folder matches nothing");
	is_int(ctx.err.err, 0, "pm_glob: no error left behind");
	pm_list_free(m, n);
	is_int(pm_glob(&ctx, "sys/*", &m), -EINVAL, "pm_glob: relative");
	n = pm_glob(&ctx, "/sys/class/scsi_host/host[01]/", &m);
	is_int(n, 2, "pm_glob: a bracket and a trailing '/'");
	if (n > 0)
		is_str(m[0], "/sys/class/scsi_host/host0", "pm_glob: folders");
	pm_list_free(m, n);
	pm_ctx_close(&ctx);
}

static void test_readf_class(void)
{
	struct pm_ctx ctx;
	struct pm_class c;
	char buf[64], names[256], longname[PM_PATH_MAX + 16];
	uint64_t v = 0;
	int dfd, n;

	if (pm_ctx_open(&ctx, root) < 0)
		exit(99);
	mkfile("sys/devices/system/cpu/cpu3/online", "1\n");
	is_int(pm_attr_readf(&ctx, buf, sizeof(buf),
			     "/sys/devices/system/cpu/cpu%u/online", 3u),
	       1, "pm_attr_readf: the length");
	is_str(buf, "1", "pm_attr_readf: the value");
	ok(pm_attr_readf_u64(&ctx, &v, "/sys/devices/system/cpu/cpu%d/%s", 3,
			     "online") == 0 && v == 1,
	   "pm_attr_readf_u64");
	is_int(pm_attr_readf(&ctx, buf, sizeof(buf),
			     "/sys/devices/system/cpu/cpu%u/online", 4u),
	       -ENOENT, "pm_attr_readf of a missing file");
	is_str(ctx.err.file, "/sys/devices/system/cpu/cpu4/online",
	       "pm_attr_readf failure: the record names the formatted path");
	dfd = pm_open_dir(&ctx, "/sys/devices/system/cpu");
	is_int(pm_attr_readatf(&ctx, dfd, buf, sizeof(buf), "cpu%u/online",
			       3u),
	       1, "pm_attr_readatf below a folder fd");
	close(dfd);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	strcpy(buf, "junk");
	is_int(pm_attr_readf(&ctx, buf, sizeof(buf), "/sys/%s", longname),
	       -ENAMETOOLONG, "pm_attr_readf past PM_PATH_MAX: -ENAMETOOLONG");
	is_str(buf, "", "pm_attr_readf past PM_PATH_MAX: buf emptied");
	is_int(pm_attr_readf_u64(&ctx, &v, "/sys/%s", longname),
	       -ENAMETOOLONG, "pm_attr_readf_u64 past PM_PATH_MAX");

	/* Every entry in C-locale order; one that is not a folder: -1. */
	mkfile("sys/class/power_supply/BAT1/type", "Battery\n");
	mkfile("sys/class/power_supply/AC/type", "Mains\n");
	mkfile("sys/class/power_supply/BAT0/type", "Battery\n");
	mkfile("sys/class/power_supply/stray", "not a folder\n");
	n = pm_class_open(&ctx, &c, "power_supply", NULL);
	is_int(n, 4, "pm_class_open: the count");
	names[0] = '\0';
	while (pm_class_next(&ctx, &c)) {
		char t[32] = "-";

		if (c.fd >= 0 &&
		    pm_attr_readat(&ctx, c.fd, "type", t, sizeof(t)) < 0)
			strcpy(t, "?");
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%s=%s", names[0] ? " " : "", c.name, t);
	}
	is_str(names, "AC=Mains BAT0=Battery BAT1=Battery stray=-",
	       "pm_class_next: every entry, sorted, a file's fd -1");
	is_str(c.path, "/sys/class/power_supply/stray",
	       "pm_class_next: the path of the last entry");
	ok(!pm_class_next(&ctx, &c), "pm_class_next after the end: false");
	pm_class_close(&c);

	/* prefix+number by number: thermal_zone10 after thermal_zone2. */
	mkfile("sys/class/thermal/thermal_zone10/temp", "10\n");
	mkfile("sys/class/thermal/thermal_zone2/temp", "2\n");
	mkfile("sys/class/thermal/cooling_device0/type", "fan\n");
	mkfile("sys/class/thermal/thermal_zonex/temp", "x\n");
	n = pm_class_open(&ctx, &c, "thermal", "thermal_zone");
	is_int(n, 2, "pm_class_open with a prefix: only prefix+number");
	names[0] = '\0';
	while (pm_class_next(&ctx, &c))
		snprintf(names + strlen(names), sizeof(names) - strlen(names),
			 "%s%u", names[0] ? " " : "", (unsigned)c.id);
	is_str(names, "2 10", "pm_class_next with a prefix: by number");
	pm_class_close(&c);

	n = pm_class_open(&ctx, &c, "devfreq", NULL);
	is_int(n, -ENOENT, "pm_class_open of a missing class: -ENOENT");
	is_str(ctx.err.file, "/sys/class/devfreq",
	       "missing class: the record names it");
	ok(!pm_class_next(&ctx, &c), "missing class: no entry");
	pm_class_close(&c);
	pm_ctx_close(&ctx);
}

static void test_messages(void)
{
	static const struct {
		const char *op, *file, *value, *hint;
		int err;
		const char *want;
	} cases[] = {
		{ "write", "/sys/devices/system/cpu/cpu0/online", "0", "",
		  EBUSY,
		  "cannot write '0' to /sys/devices/system/cpu/cpu0/online: "
		  "Device or resource busy (EBUSY)" },
		{ "write", "/sys/power/state", "mem",
		  "the kernel offers: freeze disk", EINVAL,
		  "cannot write 'mem' to /sys/power/state: Invalid argument "
		  "(EINVAL); the kernel offers: freeze disk" },
		{ "write", "/sys/power/state", "", "", EPERM,
		  "/sys/power/state: Operation not permitted (EPERM)" },
		{ "open", "/sys/class/power_supply", "", "", ENOENT,
		  "/sys/class/power_supply: No such file or directory "
		  "(ENOENT)" },
		{ "open", "/sys/kernel/debug/x", "", "readable by root only",
		  EACCES,
		  "/sys/kernel/debug/x: Permission denied (EACCES); "
		  "readable by root only" },
		{ "parse", "/sys/x/online", "junk", "not a number", EINVAL,
		  "/sys/x/online: unexpected value 'junk'; not a number" },
		{ "read", "/sys/x", "", "the file is empty", ENODATA,
		  "/sys/x: No data available (ENODATA); the file is empty" },
	};
	struct pm_ctx ctx;
	char buf[1024];

	memset(&ctx, 0, sizeof(ctx));
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int r = pm_err_set(&ctx, cases[i].op, cases[i].file,
				   cases[i].value, cases[i].err,
				   cases[i].hint[0] ? "%s" : NULL,
				   cases[i].hint);

		is_int(r, -cases[i].err, "pm_err_set returns -err");
		is_str(pm_err_str(&ctx.err, buf, sizeof(buf)), cases[i].want,
		       "pm_err_str %s %s", cases[i].op,
		       pm_errno_name(cases[i].err));
	}

	/* A write error names value, file, reason and errno name. */
	pm_err_set(&ctx, "write", "/sys/power/state", "mem", EBUSY, NULL);
	pm_err_str(&ctx.err, buf, sizeof(buf));
	ok(strstr(buf, "'mem'") && strstr(buf, "/sys/power/state") &&
		   strstr(buf, strerror(EBUSY)) && strstr(buf, "(EBUSY)"),
	   "a write error names value, file, strerror and EBUSY");

	/* A small buffer: cut, terminated. */
	char small[16];

	memset(small, 'x', sizeof(small));
	pm_err_str(&ctx.err, small, sizeof(small));
	is_str(small, "cannot write 'm", "pm_err_str into 16 bytes");

	/* Long fields are cut to the record's size. */
	char longv[300];

	memset(longv, 'v', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	pm_err_set(&ctx, "write", "/f", longv, EINVAL, NULL);
	is_int((long long)strlen(ctx.err.value),
	       (long long)sizeof(ctx.err.value) - 1,
	       "pm_err_set cuts a long value");
	pm_err_clear(&ctx);
	ok(!ctx.err.err && !ctx.err.file[0] && !ctx.err.value[0] &&
		   !ctx.err.op[0] && !ctx.err.hint[0],
	   "pm_err_clear");

	static const struct {
		int err;
		const char *name;
	} names[] = {
		{ EBUSY, "EBUSY" },
		{ ENOENT, "ENOENT" },
		{ EPERM, "EPERM" },
		{ EINVAL, "EINVAL" },
		{ EACCES, "EACCES" },
		{ ENODEV, "ENODEV" },
		{ EOPNOTSUPP, "EOPNOTSUPP" },
		{ ENODATA, "ENODATA" },
		{ 99999, "E?" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		is_str(pm_errno_name(names[i].err), names[i].name,
		       "pm_errno_name(%d)", names[i].err);

	/* Exit codes (CLI.md): busy 4, not supported 3, else 1. */
	static const struct {
		int err, code;
	} codes[] = {
		{ EBUSY, PM_EXIT_BUSY },
		{ ENOENT, PM_EXIT_UNSUPPORTED },
		{ ENODEV, PM_EXIT_UNSUPPORTED },
		{ EOPNOTSUPP, PM_EXIT_UNSUPPORTED },
		{ EINVAL, PM_EXIT_FAIL },
		{ EPERM, PM_EXIT_FAIL },
		{ EACCES, PM_EXIT_FAIL },
		{ EIO, PM_EXIT_FAIL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(codes); i++)
		is_int(pm_exit_for(codes[i].err), codes[i].code,
		       "pm_exit_for(%s)", pm_errno_name(codes[i].err));
}

static int rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	test_ctx();
	test_read();
	test_write();
	test_near();
	test_confine();
	test_rename_race();
	test_walk();
	test_odd();
	test_guard();
	test_list();
	test_glob();
	test_readf_class();
	test_messages();
	rm_rf(root);
	return done_testing();
}
