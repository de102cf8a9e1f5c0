// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the RTC reader on a temporary system root: the fields it
 * reads, and the error record it leaves when the alarm file is missing;
 * and of pm-suspend's writes around a sleep (pm_sleep_txn): written,
 * put back, and undone when a later one fails.
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

static void test_sleep_txn(void)
{
	struct pm_sleep_txn sx;
	struct pm_ctx ctx;
	int e;

	if (pm_ctx_open(&ctx, root) < 0)
		exit(99);
	mkfile("sys/power/mem_sleep", "s2idle [deep]\n");
	mkfile("sys/power/pm_test", "[none] core processors\n");
	mkfile("sys/class/rtc/rtc0/wakealarm", "\n");
	pm_sleep_txn_init(&sx, &ctx);
	is_int(pm_sleep_plan_alarm(&sx, "rtc0", 1764896400, false), 0,
	       "pm_sleep_plan_alarm");
	is_int(pm_sleep_apply(&sx), 0, "the alarm applied");
	is_str(tree_get(root, "sys/class/rtc/rtc0/wakealarm"), "1764896400\n",
	       "the alarm written");
	is_int(pm_sleep_plan_choice(&sx, "pm_test", "core"), 0,
	       "pm_sleep_plan_choice pm_test");
	is_int(pm_sleep_plan_choice(&sx, "mem_sleep", "s2idle"), 0,
	       "pm_sleep_plan_choice mem_sleep");
	is_int(pm_sleep_apply(&sx), 0, "the choices applied");
	is_str(tree_get(root, "sys/power/mem_sleep"), "s2idle\n",
	       "mem_sleep written");
	is_int(pm_sleep_undo(&sx), 0, "pm_sleep_undo: every file put back");
	is_str(tree_get(root, "sys/power/mem_sleep"), "deep\n",
	       "mem_sleep back at the selected deep");
	is_str(tree_get(root, "sys/power/pm_test"), "none\n",
	       "pm_test back at none");
	is_str(tree_get(root, "sys/class/rtc/rtc0/wakealarm"), "1764896400\n",
	       "the alarm is left to pm_rtc_alarm_clear");
	is_int(pm_rtc_alarm_clear(&ctx, "rtc0"), 0, "pm_rtc_alarm_clear");
	is_str(tree_get(root, "sys/class/rtc/rtc0/wakealarm"), "0\n",
	       "the alarm cleared");
	pm_sleep_txn_free(&sx);

	/* A plain file that holds one word reads as that word: selected
	 * already, it is not written (nor restored). */
	pm_sleep_txn_init(&sx, &ctx);
	is_int(pm_sleep_plan_choice(&sx, "mem_sleep", "deep"), 0,
	       "plan the selected word again");
	ok(sx.txn.w[0].skip, "one word selected already: not written");
	pm_sleep_txn_free(&sx);

	/* A write that fails undoes the one before it. */
	mkfile("sys/power/disk", "[platform] shutdown\n");
	pm_sleep_txn_init(&sx, &ctx);
	pm_sleep_plan_choice(&sx, "pm_test", "core");
	pm_sleep_plan_choice(&sx, "disk", "shutdown");
	/* The kernel's refusal, played by a folder in the file's place. */
	{
		char p[512];

		snprintf(p, sizeof(p), "%s/sys/power/disk", root);
		unlink(p);
		mkdir(p, 0755);
	}
	e = pm_sleep_apply(&sx);
	ok(e < 0, "a failed write: -errno (%d)", e);
	is_str(ctx.err.file, "/sys/power/disk", "the record names it");
	is_str(tree_get(root, "sys/power/pm_test"), "none\n",
	       "pm_test put back at once");
	is_int(pm_sleep_undo(&sx), 0, "nothing left to put back");
	pm_sleep_txn_free(&sx);
	pm_ctx_close(&ctx);
}

static void test_alarm_path(void)
{
	char buf[128];

	ok(pm_rtc_alarm_path("rtc1", buf, sizeof(buf)), "pm_rtc_alarm_path");
	is_str(buf, "/sys/class/rtc/rtc1/wakealarm", "the alarm file");
	ok(!pm_rtc_alarm_path("../x", buf, sizeof(buf)),
	   "pm_rtc_alarm_path refuses a name with a slash");
}

int main(void)
{
	char cmd[128];

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	test_rtc();
	test_sleep_txn();
	test_alarm_path();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd) != 0)
		return 99;
	return done_testing();
}
