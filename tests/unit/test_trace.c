// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the trace parser (lib/trace.c) on text in the kernel's
 * format (kernel/trace/trace_output.c, include/trace/events/power.h): a
 * whole S3 cycle, a failing callback, a buffer cut mid-line, a ring
 * buffer that dropped events, the context's variants (record-tgid, no
 * irq-info, 4-character flags), and lines that are not the kernel's.
 * And the ACPI FPDT reader on a system root of plain files.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define HDR                                                            \
	"# tracer: nop\n"                                              \
	"#\n"                                                          \
	"# entries-in-buffer/entries-written: 44/44   #P:2\n"          \
	"#\n"                                                          \
	"#                                _-----=> irqs-off/BH-disabled\n" \
	"#                               / _----=> need-resched\n"     \
	"#                              | / _---=> hardirq/softirq\n"  \
	"#                              || / _--=> preempt-depth\n"    \
	"#                              ||| / _-=> migrate-disable\n"  \
	"#                              |||| /     delay\n"            \
	"#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION\n"  \
	"#              | |         |   |||||     |         |\n"

/* The context of pm-suspend on CPU 1, and of a kworker on CPU 0. */
#define PS "      pm-suspend-1201    [001] .....   "
#define KW "    kworker/u4:3-87      [000] .....   "
#define SR "suspend_resume: "
#define CS "device_pm_callback_start: "
#define CE "device_pm_callback_end: "

static const char s3[] = HDR
	PS "812.503210: " SR "suspend_enter[3] begin\n"
	PS "812.503251: " SR "sync_filesystems[0] begin\n"
	PS "812.511902: " SR "sync_filesystems[0] end\n"
	PS "812.512010: " SR "freeze_processes[0] begin\n"
	PS "812.524377: " SR "freeze_processes[0] end\n"
	PS "812.524380: " SR "suspend_enter[3] end\n"
	PS "812.524400: " SR "dpm_prepare[2] begin\n"
	PS "812.525000: " SR "dpm_prepare[2] end\n"
	PS "812.525010: " SR "dpm_suspend[2] begin\n"
	KW "812.525100: " CS "e1000e 0000:00:19.0, parent: pci0000:00, "
	   "driver [suspend]\n"
	PS "812.525120: " CS "snd_hda_intel 0000:00:1b.0, parent: "
	   "pci0000:00, driver [suspend]\n"
	PS "812.525300: " CE "snd_hda_intel 0000:00:1b.0, err=0\n"
	PS "812.525310: " CS "platform Fixed MDIO bus.0, parent: platform, "
	   "bus [suspend]\n"
	PS "812.525320: " CE "platform Fixed MDIO bus.0, err=0\n"
	KW "812.555100: " CE "e1000e 0000:00:19.0, err=0\n"
	PS "812.555200: " SR "dpm_suspend[2] end\n"
	PS "812.555210: " SR "dpm_suspend_late[2] begin\n"
	PS "812.555300: " CS "i915 0000:00:02.0, parent: pci0000:00, "
	   "late driver [suspend]\n"
	PS "812.557300: " CE "i915 0000:00:02.0, err=0\n"
	PS "812.557400: " SR "dpm_suspend_late[2] end\n"
	PS "812.557410: " SR "dpm_suspend_noirq[2] begin\n"
	PS "812.557500: " CS "pcieport 0000:00:1c.0, parent: pci0000:00, "
	   "noirq power domain [suspend]\n"
	PS "812.558500: " CE "pcieport 0000:00:1c.0, err=0\n"
	PS "812.558600: " SR "dpm_suspend_noirq[2] end\n"
	PS "812.558700: " SR "CPU_OFF[1] begin\n"
	PS "812.560700: " SR "CPU_OFF[1] end\n"
	PS "812.560800: " SR "syscore_suspend[0] begin\n"
	PS "812.560900: " SR "syscore_suspend[0] end\n"
	PS "812.561000: " SR "machine_suspend[3] begin\n"
	PS "812.861000: " SR "machine_suspend[3] end\n"
	PS "812.861100: " SR "syscore_resume[0] begin\n"
	PS "812.861200: " SR "syscore_resume[0] end\n"
	PS "812.861300: " SR "dpm_resume_noirq[16] begin\n"
	PS "812.861400: " CS "pcieport 0000:00:1c.0, parent: pci0000:00, "
	   "noirq power domain [resume]\n"
	PS "812.862400: " CE "pcieport 0000:00:1c.0, err=0\n"
	PS "812.862500: " SR "dpm_resume_noirq[16] end\n"
	PS "812.862600: " SR "dpm_resume[16] begin\n"
	KW "812.862700: " CS "e1000e 0000:00:19.0, parent: pci0000:00, "
	   "driver [resume]\n"
	PS "812.862710: " CS "i915 0000:00:02.0, parent: pci0000:00, "
	   "driver [resume]\n"
	PS "812.902710: " CE "i915 0000:00:02.0, err=0\n"
	KW "812.942700: " CE "e1000e 0000:00:19.0, err=0\n"
	PS "812.942800: " SR "dpm_resume[16] end\n"
	PS "812.942900: " SR "dpm_complete[16] begin\n"
	PS "812.943000: " CS "e1000e 0000:00:19.0, parent: pci0000:00, "
	   "[resume]\n"
	PS "812.943010: " CE "e1000e 0000:00:19.0, err=0\n"
	PS "812.943100: " SR "dpm_complete[16] end\n"
	PS "812.943200: " SR "resume_console[3] begin\n"
	PS "812.943300: " SR "resume_console[3] end\n"
	PS "812.943400: " SR "thaw_processes[0] begin\n"
	PS "812.953400: " SR "thaw_processes[0] end\n";

static int span(const struct pm_trace *t, const char *name)
{
	for (int i = 0; i < t->nspan; i++)
		if (!strcmp(t->span[i].name, name))
			return i;
	return -1;
}

static void test_cycle(void)
{
	struct pm_trace t;
	struct pm_trace_split s;
	const struct pm_trace_cb *c;
	int idx[3], n, k;

	is_int(pm_trace_parse(s3, strlen(s3), &t), 0, "S3: parsed");
	is_int(t.unparsed, 0, "S3: every line parsed");
	is_int(t.header, 12, "S3: the header's 12 lines");
	is_int(t.events, 50, "S3: 50 events");
	is_int(t.lines, 62, "S3: 62 lines");
	is_int(t.nspan, 16, "S3: 16 phases");
	is_int(t.ncb, 9, "S3: 9 callbacks");
	is_int(t.unmatched, 0, "S3: every end has its start");
	ok(!t.truncated && !t.lost_marks, "S3: whole, nothing lost");
	k = span(&t, "dpm_suspend");
	ok(k >= 0 && t.span[k].val == 2 &&
		   pm_trace_span_us(&t.span[k]) == 30190 &&
		   t.span[k].dir == PM_TRACE_SUSPEND,
	   "dpm_suspend[2]: 30.190 ms, suspend");
	k = span(&t, "dpm_resume_noirq");
	ok(k >= 0 && pm_trace_span_us(&t.span[k]) == 1200 &&
		   t.span[k].dir == PM_TRACE_RESUME,
	   "dpm_resume_noirq: 1.2 ms, resume");
	k = span(&t, "machine_suspend");
	ok(k >= 0 && t.span[k].dir == PM_TRACE_OTHER &&
		   pm_trace_span_us(&t.span[k]) == 300000,
	   "machine_suspend: 300 ms, neither way");
	c = &t.cb[0];
	is_str(c->driver, "e1000e", "callback 0: driver");
	is_str(c->device, "0000:00:19.0", "callback 0: device");
	is_str(c->parent, "pci0000:00", "callback 0: parent");
	is_str(c->ops, "driver", "callback 0: ops without the kernel's space");
	is_str(c->event, "suspend", "callback 0: event");
	is_int(c->cpu, 0, "callback 0: CPU");
	ok(c->span >= 0 && !strcmp(t.span[c->span].name, "dpm_suspend"),
	   "callback 0: in dpm_suspend");
	is_u64(pm_trace_cb_us(c), 30000, "callback 0: async, 30 ms");
	is_str(t.cb[2].device, "Fixed MDIO bus.0", "a device name with spaces");
	is_str(t.cb[2].driver, "platform", "its bus as the driver");
	is_str(t.cb[4].ops, "noirq power domain", "ops of three words");
	is_str(t.cb[8].ops, "", "dpm_complete's empty ops");
	ok(!strcmp(t.span[t.cb[8].span].name, "dpm_complete"),
	   "in dpm_complete");
	n = pm_trace_slowest(&t, PM_TRACE_SUSPEND, idx, 3);
	ok(n == 3 && idx[0] == 0 && idx[1] == 3 && idx[2] == 4,
	   "slowest going down: e1000e, i915, pcieport");
	n = pm_trace_slowest(&t, PM_TRACE_RESUME, idx, 2);
	ok(n == 2 && idx[0] == 6 && idx[1] == 7,
	   "slowest coming up: e1000e 80 ms, i915 40 ms");
	is_int(pm_trace_slowest(&t, PM_TRACE_RESUME, idx, 0), 0, "n 0");
	is_int(pm_trace_failed(&t), -1, "no callback failed");
	is_int(pm_trace_split(&t, &s), 0, "split");
	ok(s.suspend_us == 57790 && s.asleep_us == 300000 &&
		   s.resume_us == 92400,
	   "suspend 57.790 ms, asleep 300 ms, resume 92.4 ms");
	pm_trace_free(&t);
}

/* dpm_suspend fails: the callback that returned -EBUSY, then the
 * kernel resumes what it suspended. */
static const char failing[] =
	PS "90.000100: " SR "dpm_suspend[2] begin\n"
	PS "90.000200: " CS "xhci_hcd 0000:00:14.0, parent: pci0000:00, "
	   "driver [suspend]\n"
	PS "90.004200: " CE "xhci_hcd 0000:00:14.0, err=-16\n"
	PS "90.004300: " SR "dpm_suspend[2] end\n"
	PS "90.004400: " SR "dpm_resume[16] begin\n"
	PS "90.004500: " SR "dpm_resume[16] end\n";

static void test_failing(void)
{
	struct pm_trace t;
	struct pm_trace_split s;
	int f;

	is_int(pm_trace_parse(failing, strlen(failing), &t), 0, "failing");
	f = pm_trace_failed(&t);
	is_int(f, 0, "the failed callback found");
	is_int(t.cb[f].error, -EBUSY, "its error: -16");
	is_str(t.cb[f].driver, "xhci_hcd", "its driver");
	ok(!strcmp(t.span[t.cb[f].span].name, "dpm_suspend"),
	   "its phase: dpm_suspend");
	is_int(pm_trace_split(&t, &s), -ENOENT, "no sleep to split");
	pm_trace_free(&t);
}

static void test_cut(void)
{
	struct pm_trace t;
	/* The buffer read at a line's middle: its last line is cut. */
	size_t cut = (size_t)(strstr(s3, "err=0\n" KW "812.555100") - s3) + 6;
	size_t len = cut + strlen(KW "812.555100: " CE "e10");

	is_int(pm_trace_parse(s3, len, &t), 0, "cut: parsed");
	ok(t.truncated, "cut: truncated");
	is_int(t.unparsed, 1, "cut: the cut line counted, not parsed");
	is_int(t.first_bad, 12 + 15, "cut: its line number");
	ok(t.ncb == 3 && t.cb[0].end_us == PM_UNKNOWN,
	   "cut: e1000e's callback has no end");
	ok(pm_trace_cb_us(&t.cb[0]) == PM_UNKNOWN, "no duration then");
	pm_trace_free(&t);
}

static const char lost[] =
	"CPU:0 [LOST 1234 EVENTS]\n"
	KW "90.000100: " CE "e1000e 0000:00:19.0, err=0\n"
	"CPU:1 [LOST EVENTS]\n"
	PS "90.004300: " SR "dpm_suspend[2] end\n"
	"##### CPU 1 buffer started ####\n";

static void test_lost(void)
{
	struct pm_trace t;

	is_int(pm_trace_parse(lost, strlen(lost), &t), 0, "lost: parsed");
	is_int(t.lost_marks, 2, "lost: two marks");
	is_u64(t.lost, 1234, "lost: 1234 events counted");
	ok(t.lost_unknown, "lost: and a mark without a count");
	is_int(t.unmatched, 2, "lost: two ends without their start");
	is_int(t.unparsed, 0, "lost: nothing unparsed");
	is_int(t.header, 1, "the buffer-started line is a comment");
	pm_trace_free(&t);
}

/* The context's forms: record-tgid, without irq-info, 4 flags (before
 * Linux 5.15), the idle task, a comm holding "-" and ": ". */
static const char *const forms[] = {
	"      pm-suspend-1201    (   1201) [001] .....   812.503210: " SR
	"dpm_prepare[2] begin\n",
	"      pm-suspend-1201    (-------) [001] .....   812.503210: " SR
	"dpm_prepare[2] begin\n",
	"      pm-suspend-1201    [001]   812.503210: " SR
	"dpm_prepare[2] begin\n",
	"      pm-suspend-1201    [001] d..1   812.503210: " SR
	"dpm_prepare[2] begin\n",
	"          <idle>-0       [000] d.h2. 99999.000001: " SR
	"dpm_prepare[2] begin\n",
	"       a-b: c d-1201    [012] .....     0.000000: " SR
	"dpm_prepare[2] begin\n",
};

/* Lines that are not the kernel's: counted, never guessed at. */
static const char *const bad[] = {
	"\n",
	SR "dpm_prepare[2] begin\n",
	PS "812.50321: " SR "dpm_prepare[2] begin\n",
	PS "812.5032100: " SR "dpm_prepare[2] begin\n",
	PS "812503210: " SR "dpm_prepare[2] begin\n",
	"pm-suspend-1201 [1] ..... 812.503210: " SR "dpm_prepare[2] begin\n",
	"      pm-suspend-x    [001] .....   812.503210: " SR
	"dpm_prepare[2] begin\n",
	"      pm-suspend-1201    [001] ......   812.503210: " SR
	"dpm_prepare[2] begin\n",
	PS "812.503210: " SR "dpm_prepare[2] started\n",
	PS "812.503210: " SR "dpm_prepare[2] begin \n",
	PS "812.503210: " SR "dpm_prepare[-2] begin\n",
	PS "812.503210: " SR "dpm_prepare[4294967296] begin\n",
	PS "812.503210: " SR "dpm prepare[2] begin\n",
	PS "812.503210: " SR "[2] begin\n",
	PS "812.503210: " CS "e1000e 0000:00:19.0, parent: pci0000:00, "
	   "driver [sleep]\n",
	PS "812.503210: " CS "e1000e 0000:00:19.0, parent: pci0000:00, "
	   "driver [suspend] \n",
	PS "812.503210: " CS "e1000e 0000:00:19.0, pci0000:00, driver "
	   "[suspend]\n",
	PS "812.503210: " CS "e1000e 0000:00:19.0, parent: pci0000:00, "
	   "late  driver [suspend]\n",
	PS "812.503210: " CS "e1000e 0000:00:19.0, parent: pci0000:00, "
	   "Driver [suspend]\n",
	PS "812.503210: " CS "e1000e, parent: pci0000:00, driver [suspend]\n",
	PS "812.503210: " CS "e1000e 0000:00:19.0, parent: , driver "
	   "[suspend]\n",
	PS "812.503210: " CE "e1000e 0000:00:19.0, err=\n",
	PS "812.503210: " CE "e1000e 0000:00:19.0, err=-0\n",
	PS "812.503210: " CE "e1000e 0000:00:19.0, err=x1\n",
	PS "812.503210: " CE "e1000e 0000:00:19.0, err=2147483648\n",
	PS "812.503210: " CE "e1000e 0000:00:19.0 err=0\n",
	"CPU:0 [LOST -1 EVENTS]\n",
	"CPU: [LOST EVENTS]\n",
	"CPU:0 [LOST 12 EVENTS] \n",
	"CPU:0 [LOST EVENTS\n",
	PS "812.503210: Sched_switch: x\n",
};

static void test_lines(void)
{
	struct pm_trace t;

	for (size_t i = 0; i < ARRAY_SIZE(forms); i++) {
		is_int(pm_trace_parse(forms[i], strlen(forms[i]), &t), 0,
		       "form %zu", i);
		ok(t.nspan == 1 && !t.unparsed, "parsed: %s", forms[i]);
		pm_trace_free(&t);
	}
	pm_trace_parse(forms[4], strlen(forms[4]), &t);
	is_u64(t.span[0].begin_us, 99999000001ULL, "the idle task's time");
	pm_trace_free(&t);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		pm_trace_parse(bad[i], strlen(bad[i]), &t);
		ok(t.unparsed == 1 && t.first_bad == 1 && !t.nspan && !t.ncb &&
			   !t.lost_marks && !t.unmatched && !t.other,
		   "not parsed: %s", bad[i]);
		pm_trace_free(&t);
	}
	pm_trace_parse(PS "1.000000: sched_switch: prev_comm=a\n",
		       strlen(PS "1.000000: sched_switch: prev_comm=a\n"), &t);
	ok(t.other == 1 && !t.unparsed, "another event: counted as other");
	pm_trace_free(&t);
	is_int(pm_trace_parse("", 0, &t), 0, "empty");
	ok(!t.lines && !t.unparsed, "empty: no line");
	pm_trace_free(&t);
}

#define FPDT "sys/firmware/acpi/fpdt/"

/* drivers/acpi/acpi_fpdt.c's files: "%u\n" and "%llu\n". */
static void test_fpdt(void)
{
	char root[] = "/tmp/pmtools-test-fpdt.XXXXXX", sub[128];
	struct pm_fpdt f;
	struct pm_ctx ctx;

	if (!mkdtemp(root) || pm_ctx_open(&ctx, root) < 0)
		exit(99);
	is_int(pm_fpdt_read(&ctx, &f), -ENOENT, "fpdt: no folder, -ENOENT");
	ok(f.resume_count == PM_UNKNOWN && f.resume_prev_ns == PM_UNKNOWN &&
		   f.suspend_end_ns == PM_UNKNOWN,
	   "fpdt: no folder, every field unknown");
	ok(!ctx.err.op[0], "fpdt: a missing file leaves no error record");
	tree_put(root, FPDT "resume/resume_count", "3\n");
	tree_put(root, FPDT "resume/resume_prev_ns", "212345678\n");
	tree_put(root, FPDT "resume/resume_avg_ns", "230000000\n");
	tree_put(root, FPDT "suspend/suspend_start_ns", "1000000\n");
	tree_put(root, FPDT "suspend/suspend_end_ns", "3500000\n");
	is_int(pm_fpdt_read(&ctx, &f), 0, "fpdt: both records");
	is_int((long long)f.resume_count, 3, "fpdt: resume_count");
	is_int((long long)f.resume_prev_ns, 212345678, "fpdt: resume_prev_ns");
	is_int((long long)f.resume_avg_ns, 230000000, "fpdt: resume_avg_ns");
	is_int((long long)pm_fpdt_suspend_ns(&f), 2500000,
	       "fpdt: the firmware's suspend, end - start");
	/* An end before the start (a timer reset), a value not a number. */
	tree_put(root, FPDT "suspend/suspend_end_ns", "500\n");
	tree_put(root, FPDT "resume/resume_avg_ns", "12x\n");
	is_int(pm_fpdt_read(&ctx, &f), 0, "fpdt: odd values");
	ok(pm_fpdt_suspend_ns(&f) == PM_UNKNOWN,
	   "fpdt: an end before the start is no time");
	ok(f.resume_avg_ns == PM_UNKNOWN, "fpdt: '12x' is unknown");
	ok(!ctx.err.op[0], "fpdt: no error record left");
	/* Only the resume record (a firmware without the suspend one). */
	snprintf(sub, sizeof(sub), "%s/" FPDT "suspend", root);
	tree_rm(sub);
	is_int(pm_fpdt_read(&ctx, &f), 0, "fpdt: the resume record only");
	ok(f.suspend_start_ns == PM_UNKNOWN &&
		   pm_fpdt_suspend_ns(&f) == PM_UNKNOWN,
	   "fpdt: no suspend record, no suspend time");
	pm_ctx_close(&ctx);
	tree_rm(root);
}

/*
 * /proc/self/mountinfo as two machines have it: a Debian 12 host under
 * systemd (tracefs mounted by sys-kernel-tracing.mount) and the e2e
 * guest (tests/e2e/init mounts debugfs only: the kernel mounts tracefs
 * at /sys/kernel/debug/tracing by itself, /sys/kernel/tracing stays an
 * empty folder).
 */
static const char host_mi[] =
	"22 28 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs "
	"sysfs rw\n"
	"23 28 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc "
	"proc rw\n"
	"28 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 "
	"rw,errors=remount-ro\n"
	"36 22 0:12 / /sys/kernel/tracing rw,nosuid,nodev,noexec,relatime "
	"shared:16 - tracefs tracefs rw\n"
	"37 22 0:7 / /sys/kernel/debug rw,nosuid,nodev,noexec,relatime "
	"shared:17 - debugfs debugfs rw\n"
	"120 28 8:17 / /media/usb\\040disk rw,nosuid,nodev,relatime "
	"shared:60 - vfat /dev/sdb1 rw\n";
static const char guest_mi[] =
	"1 1 0:2 / / rw - rootfs rootfs rw\n"
	"14 1 0:5 / /dev rw,relatime - devtmpfs devtmpfs rw,mode=755\n"
	"15 1 0:20 / /proc rw,relatime - proc proc rw\n"
	"16 1 0:21 / /sys rw,relatime - sysfs sysfs rw\n"
	"17 16 0:7 / /sys/kernel/debug rw,relatime - debugfs debugfs rw\n"
	"18 17 0:12 / /sys/kernel/debug/tracing rw,relatime - tracefs "
	"tracefs rw\n"
	"19 1 0:22 / /tmp rw,relatime - tmpfs tmpfs rw\n"
	"20 1 0:23 / /run rw,relatime - tmpfs tmpfs rw,mode=755";

#define TRACING "/sys/kernel/tracing"

static void test_mountinfo(void)
{
	static const char odd[] = "36 22 0:12 / /sys/kernel/tracing2 rw - "
				  "tracefs tracefs rw\n"
				  "37 22 0:7 /\n"
				  "38 22 0:7 / /sys/kernel/tracing\\1x rw\n";

	ok(pm_mountinfo_has(host_mi, strlen(host_mi), TRACING),
	   "mountinfo: the host has tracefs on " TRACING);
	ok(pm_mountinfo_has(host_mi, strlen(host_mi), "/media/usb disk"),
	   "mountinfo: \\040 is a blank");
	ok(!pm_mountinfo_has(guest_mi, strlen(guest_mi), TRACING),
	   "mountinfo: the guest has nothing on " TRACING);
	ok(pm_mountinfo_has(guest_mi, strlen(guest_mi), "/run"),
	   "mountinfo: a last line without its newline is read");
	ok(pm_mountinfo_has(guest_mi, strlen(guest_mi) - 45, "/tmp") &&
		   !pm_mountinfo_has(guest_mi, strlen(guest_mi) - 45, "/run"),
	   "mountinfo: only len bytes are read");
	ok(!pm_mountinfo_has(odd, strlen(odd), TRACING),
	   "mountinfo: a longer name, a cut line, a bad escape: no mount");
	ok(!pm_mountinfo_has("", 0, "/"), "mountinfo: empty");
}

static void test_unmounted(void)
{
	char root[] = "/tmp/pmtools-test-mount.XXXXXX", dir[128];
	struct pm_ctx ctx;

	if (!mkdtemp(root) || pm_ctx_open(&ctx, root) < 0)
		exit(99);
	is_int(pm_tracefs_unmounted(&ctx, guest_mi, strlen(guest_mi)), 0,
	       "unmounted: no folder, nothing to mount on");
	tree_put(root, "sys/kernel/debug/x", "");
	snprintf(dir, sizeof(dir), "%s" TRACING, root);
	if (mkdir(dir, 0755) < 0)
		exit(99);
	is_int(pm_tracefs_unmounted(&ctx, guest_mi, strlen(guest_mi)), 1,
	       "unmounted: an empty folder, no mount: mount it");
	is_int(pm_tracefs_unmounted(&ctx, host_mi, strlen(host_mi)), 0,
	       "unmounted: mounted already (mountinfo)");
	tree_put(root, "sys/kernel/tracing/trace", "");
	is_int(pm_tracefs_unmounted(&ctx, guest_mi, strlen(guest_mi)), 0,
	       "unmounted: a folder not empty is not mounted on");
	/* Never under a system root other than "/". */
	is_int(pm_tracefs_mount(&ctx), 0, "mount: not the real root: nothing");
	pm_ctx_close(&ctx);
	tree_rm(root);
}

int main(void)
{
	test_cycle();
	test_failing();
	test_cut();
	test_lost();
	test_lines();
	test_fpdt();
	test_mountinfo();
	test_unmounted();
	return done_testing();
}
