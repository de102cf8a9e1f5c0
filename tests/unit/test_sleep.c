// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the RTC reader on a temporary system root: the fields it
 * reads, and the error record it leaves when the alarm file is missing.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

static char root[] = "/tmp/pmtools-test-sleep.XXXXXX";

static void mkfile(const char *rel, const char *text)
{
	tree_put(root, rel, text);
}

static void test_rtc(void)
{
	struct pm_ctx ctx;
	struct pm_rtc r;
	int e;

	if (pm_ctx_open(&ctx, root) < 0)
		exit(99);
	mkfile("sys/class/rtc/rtc0/wakealarm", "\n");
	mkfile("sys/class/rtc/rtc0/since_epoch", "1764892800\n");
	mkfile("sys/class/rtc/rtc0/device/power/wakeup", "enabled\n");
	e = pm_rtc_read(&ctx, "rtc0", &r);
	is_int(e, 0, "pm_rtc_read");
	is_str(r.name, "rtc0", "pm_rtc_read: the name");
	is_str(r.path, "/sys/class/rtc/rtc0", "pm_rtc_read: the folder");
	is_int((long long)r.alarm, 0, "pm_rtc_read: no alarm set");
	is_int((long long)r.now, 1764892800, "pm_rtc_read: since_epoch");
	is_str(r.wakeup, "enabled", "pm_rtc_read: wakeup");

	mkfile("sys/class/rtc/rtc0/wakealarm", "1764896400\n");
	e = pm_rtc_read(&ctx, "rtc0", &r);
	is_int(e, 0, "pm_rtc_read with an alarm set");
	is_int((long long)r.alarm, 1764896400, "pm_rtc_read: the alarm");

	/* A missing alarm file: the record names it. */
	e = pm_rtc_read(&ctx, "rtc1", &r);
	is_int(e, -ENOENT, "pm_rtc_read of a missing RTC: -ENOENT");
	is_str(ctx.err.op, "open", "missing RTC: err.op");
	is_str(ctx.err.file, "/sys/class/rtc/rtc1/wakealarm",
	       "missing RTC: err.file names the alarm file");
	is_int(ctx.err.err, ENOENT, "missing RTC: err.err");

	e = pm_rtc_read(&ctx, "../rtc0", &r);
	is_int(e, -ENOENT, "pm_rtc_read of a name with a slash: -ENOENT");
	pm_ctx_close(&ctx);
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	test_rtc();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		return 99;
	return done_testing();
}
