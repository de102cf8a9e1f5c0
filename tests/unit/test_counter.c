// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the counter decisions (lib/counter.c), the procfs parsers
 * they are fed by (lib/proc.c: /proc/stat's fields, /proc/uptime, the
 * per-cell /proc/interrupts table) and the hypervisor detection
 * (lib/virt.c) on temporary trees.  Each case of issues 18 and 24 is here
 * with its numbers: a cpuidle time stepping back by 1000 us, iowait
 * falling by a tick under a busy CPU, an interrupt count wrapping from
 * 4294967290 to 3, a state time longer than the uptime.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

static char root[] = "/tmp/pmtools-test-counter.XXXXXX";

static void mkfile(const char *rel, const char *text)
{
	tree_put(root, rel, text);
}

static void rmtree(void)
{
	if (tree_rm(root) != 0)
		diag("could not remove %s", root);
}

static bool near(double a, double b)
{
	return fabs(a - b) < 1e-6;
}

static void decisions(void)
{
	struct pm_anoms an;
	struct pm_dctx d = { 1.0, 1e6, &an };
	struct pm_ctr_id id = { 1, 2, "time" };
	uint64_t x;

	pm_anoms_clear(&an);
	x = pm_ctr_delta(&d, PM_CTR_TIME_US, 5000000000ULL,
			 5000000000ULL - 1000, &id);
	is_u64(x, 0, "a cpuidle time 1000 us back is no change");
	is_u64(an.n[PM_ANOM_STEP_BACK], 1, "... counted as a step back");
	ok(near(pm_share_interval(&d, x, &id), 0),
	   "... and a residency of 0 %%, not 70 215 %%");
	ok(an.nnotes == 1 && strstr(an.note[0], "cpu1 state2 time") &&
		   strstr(an.note[0], "went back by 1000"),
	   "... named in the note: %s", an.note[0]);

	pm_anoms_clear(&an);
	d.dt = 0.2;
	x = pm_ctr_delta(&d, PM_CTR_TIME_US, 5000000000ULL, 5000, &id);
	is_u64(x, 5000, "a time back to 5000 after a restart counts from 0");
	is_u64(an.n[PM_ANOM_RESET], 1, "... counted as a reset");
	x = pm_ctr_delta(&d, PM_CTR_TIME_US, 57, 56, &id);
	is_u64(x, 0, "a fall of 1 us near zero is a step back, not a reset");

	pm_anoms_clear(&an);
	d.dt = 1.0;
	id.field = "LOC";
	x = pm_ctr_delta(&d, PM_CTR_IRQ32, 4294967290ULL, 3, &id);
	is_u64(x, 9, "an interrupt count 4294967290 -> 3 wrapped: +9");
	is_u64(an.n[PM_ANOM_WRAP], 1, "... counted as a wrap");
	ok(strstr(an.note[0], "cpu1 irq LOC") != NULL, "... named: %s",
	   an.note[0]);
	x = pm_ctr_delta(&d, PM_CTR_IRQ32, 4000000000ULL, 3, &id);
	is_u64(x, 3, "a count that falls far, not near the top: a reset");
	x = pm_ctr_delta(&d, PM_CTR_IRQ32, 5000000000ULL, 7, &id);
	is_u64(x, 7, "a count beyond 32 bits does not wrap at 2^32");

	pm_anoms_clear(&an);
	x = pm_ctr_delta(&d, PM_CTR_EVENTS, 10, 601570343, &id);
	is_u64(x, PM_UNKNOWN, "601 570 333 entries in 1 s: unknown");
	is_u64(an.n[PM_ANOM_TOO_FAST], 1, "... counted as too fast");
	x = pm_ctr_delta(&d, PM_CTR_EVENTS, 10, 9000010, &id);
	is_u64(x, 9000000, "9 000 000 entries in 1 s are possible");
	x = pm_ctr_delta(&d, PM_CTR_EVENTS, 10, PM_UNKNOWN, &id);
	is_u64(x, PM_UNKNOWN, "a counter at 2^64 - 1 is unknown");
	x = pm_ctr_delta(&d, PM_CTR_EVENTS, PM_UNKNOWN, 10, &id);
	is_u64(x, PM_UNKNOWN, "... and so is one from it");
	is_u64(an.n[PM_ANOM_TOO_FAST], 1, "unknowns are no jump");

	pm_anoms_clear(&an);
	d.uptime_s = 100;
	x = pm_ctr_delta(&d, PM_CTR_TIME_US, 0, 200000000ULL, &id);
	is_u64(x, PM_UNKNOWN, "200 s of idle 100 s after boot: unknown");
	x = pm_ctr_delta(&d, PM_CTR_TIME_US, 0, 3000000, &id);
	is_u64(x, 3000000, "3 s of idle in a 1 s interval may be true");
	ok(near(pm_share_interval(&d, x, &id), 100),
	   "... (counted when the period ended): shown as 100 %%");
	is_u64(an.n[PM_ANOM_OVER_INTERVAL], 1, "... and counted");
	ok(isnan(pm_share_interval(&d, PM_UNKNOWN, &id)),
	   "the share of an unknown time is unknown");

	pm_anoms_clear(&an);
	ok(isnan(pm_share_boot(&an, 1000000ULL * 1000 * 100000, 1000, 1,
			       &id)),
	   "a state time 100 000 times the uptime: unknown, not 10 000 000 %%");
	is_u64(an.n[PM_ANOM_OVER_UPTIME], 1, "... counted");
	ok(near(pm_share_boot(&an, 1000005000, 1000, 1, &id), 100),
	   "5 ms past the uptime (its rounding) is 100 %%");
	ok(near(pm_share_boot(&an, 500000000, 1000, 1, &id), 50),
	   "500 s of 1000 s is 50 %%");
	ok(near(pm_share_boot(&an, 500000000, 1000, 2, &id), 25),
	   "over 2 CPUs: 25 %%");
	ok(isnan(pm_share_boot(&an, 5, NAN, 1, &id)),
	   "without an uptime: unknown");
	is_u64(an.n[PM_ANOM_OVER_UPTIME], 1, "only the impossible is counted");

	is_u64(pm_known_u32(4294967295ULL), PM_UNKNOWN,
	       "a latency of 4294967295 is unknown");
	is_u64(pm_known_u32(1300), 1300, "a latency of 1300 is 1300");

	pm_anoms_clear(&an);
	for (int i = 0; i < PM_ANOM_NOTES + 5; i++)
		pm_anom(&an, PM_ANOM_RESET, "note %d", i);
	ok(an.n[PM_ANOM_RESET] == PM_ANOM_NOTES + 5 &&
		   an.nnotes == PM_ANOM_NOTES,
	   "every anomaly is counted, the first %d described",
	   PM_ANOM_NOTES);
	is_u64(pm_anoms_total(&an), PM_ANOM_NOTES + 5, "pm_anoms_total");
	is_str(pm_anom_name(PM_ANOM_STEP_BACK), "step_back", "kind names");
}

static void cputime(void)
{
	struct pm_cpu_ticks t[4], again[1];
	struct pm_cputime ct;
	struct pm_anoms an;
	struct pm_dctx d = { 10.0, NAN, &an };
	double sum = 0;

	is_int(pm_proc_stat_parse("cpu  1 2 3 4 5 6 7 8 9 10\n"
				  "cpu0 100 10 50 800 30 5 5 0 0 0\n"
				  "cpu1 100 0 50 800\n"
				  "intr 5\n",
				  t, 4),
	       2, "/proc/stat: two CPU lines");
	is_u64(t[0].f[PM_ST_STEAL], 0, "cpu0 steal read");
	is_u64(t[0].f[PM_ST_IOWAIT], 30, "cpu0 iowait read");
	is_u64(t[1].f[PM_ST_IOWAIT], PM_UNKNOWN,
	       "an old kernel's line has no iowait: unknown");
	is_u64(t[2].f[PM_ST_USER], PM_UNKNOWN, "cpu2 has no line: unknown");
	pm_proc_stat_parse("cpu0 1 2 3 4 5 6 7 8\ncpu0 10 20 30 40\n", again,
			   1);
	ok(again[0].f[PM_ST_USER] == 10 &&
		   again[0].f[PM_ST_IOWAIT] == PM_UNKNOWN &&
		   again[0].idle == 40,
	   "a line again: its own fields, none left from the first (fuzz)");
	pm_cputime_boot(&t[0], &ct);
	ok(near(ct.pct[PM_CT_USER], 110.0 / 1000 * 100),
	   "since boot: user + nice over all fields");
	ok(near(ct.pct[PM_CT_IRQ], 1.0), "irq + softirq");
	ok(near(ct.pct[PM_CT_BUSY], 17.0), "busy: neither idle nor iowait");
	for (int k = PM_CT_USER; k < PM_CT_KINDS; k++)
		sum += ct.pct[k];
	ok(near(sum, 100), "the parts add up to 100 %%");
	pm_cputime_boot(&t[1], &ct);
	ok(near(ct.pct[PM_CT_BUSY], 150.0 / 950 * 100) &&
		   isnan(ct.pct[PM_CT_IOWAIT]),
	   "an old kernel's line: busy known, iowait unknown");

	/* Busy: user rises 1000 ticks while iowait falls by one. */
	pm_anoms_clear(&an);
	t[2] = t[0];
	t[3] = t[0];
	t[3].f[PM_ST_USER] += 1000;
	t[3].f[PM_ST_IOWAIT] -= 1;
	pm_cputime_delta(&d, 0, &t[2], &t[3], &ct);
	ok(near(ct.pct[PM_CT_BUSY], 100),
	   "iowait falling one tick under a busy CPU: 100 %% busy, not 0");
	is_u64(an.n[PM_ANOM_STEP_BACK], 1, "... the fall counted");

	/* idle stepping back one tick while user rose 1000 (issue 24). */
	pm_anoms_clear(&an);
	t[3] = t[0];
	t[3].f[PM_ST_USER] += 1000;
	t[3].f[PM_ST_IDLE] -= 1;
	pm_cputime_delta(&d, 0, &t[2], &t[3], &ct);
	ok(near(ct.pct[PM_CT_BUSY], 100) && near(ct.pct[PM_CT_IDLE], 0),
	   "idle stepping back one tick under a busy CPU: 100 %% busy");

	/* A field that cannot be true makes the split unknown. */
	pm_anoms_clear(&an);
	t[3] = t[0];
	t[3].f[PM_ST_STEAL] += 1000000;
	pm_cputime_delta(&d, 0, &t[2], &t[3], &ct);
	ok(isnan(ct.pct[PM_CT_BUSY]) || ct.pct[PM_CT_BUSY] <= 100,
	   "an impossible steal: no share above 100 %%");
	is_u64(an.n[PM_ANOM_TOO_FAST], 1, "... counted as too fast");
	is_str(pm_ct_name(PM_CT_STEAL), "steal", "mode names");
}

static void uptime(void)
{
	double s = -1;

	ok(pm_uptime_parse("12345.67 23456.78", &s) == 0 && near(s, 12345.67),
	   "/proc/uptime 12345.67");
	ok(pm_uptime_parse("12.5\n", &s) == 0 && near(s, 12.5), "12.5");
	ok(pm_uptime_parse("7", &s) == 0 && near(s, 7), "7");
	is_int(pm_uptime_parse("", &s), -EINVAL, "empty: EINVAL");
	is_int(pm_uptime_parse(" 12.5", &s), -EINVAL, "leading space: EINVAL");
	is_int(pm_uptime_parse("12.", &s), -EINVAL, "12.: EINVAL");
	is_int(pm_uptime_parse("12.x", &s), -EINVAL, "12.x: EINVAL");
	is_int(pm_uptime_parse("1e3 4", &s), -EINVAL, "1e3: EINVAL");
	is_int(pm_uptime_parse("99999999999999999999999 1", &s), -EINVAL,
	       "overflow: EINVAL");
}

static void irq_table(void)
{
	static const char text[] =
		"           CPU0       CPU2       CPU3\n"
		"  0:         47          1 4294967290   IO-APIC   2-edge      timer\n"
		" 24:          5          0          0  PCI-MSIX-0000:00:01.0   0-edge      virtio0-config\n"
		"NMI:         60         61         62   Non-maskable interrupts\n"
		"ERR:          0\n"
		"MIS:          0\n";
	struct pm_irq_table t;
	struct pm_cpuset sel;

	memset(&t, 0, sizeof(t));
	pm_cpuset_zero(&sel);
	pm_cpuset_set(&sel, 0);
	pm_cpuset_set(&sel, 3);
	pm_cpuset_set(&sel, 5);
	is_int(pm_irq_table_parse(text, &sel, &t), 0, "interrupts parse");
	is_int(t.ncol, 2, "the selected CPUs with a column: 0 and 3");
	ok(t.col[0] == 0 && t.col[1] == 3, "... in order");
	is_int(t.nrows, 3, "ERR and MIS (one count for the machine) left out");
	is_u64(t.cells[0 * 2 + 1], 4294967290ULL, "cell (timer, CPU3)");
	is_u64(t.rows[0].total, 47 + 4294967290ULL,
	       "a row's total is over the selected CPUs");
	is_str(t.rows[1].desc, "virtio0-config", "a device row's name");
	is_str(t.rows[2].desc, "Non-maskable interrupts", "an arch row's text");
	is_u64(pm_irq_table_cpu(&t, 0), 47 + 5 + 60, "CPU0's total");
	is_u64(pm_irq_table_cpu(&t, 5), PM_UNKNOWN,
	       "CPU5 (offline: no column): unknown");
	is_int(pm_irq_table_parse("   CPU1 CPU0\n 0: 1 2 x\n", &sel, &t),
	       -EINVAL, "columns out of order: EINVAL");
	is_int(pm_irq_table_parse("", &sel, &t), -EINVAL, "empty: EINVAL");
	pm_irq_table_free(&t);
}

static void hypervisors(void)
{
	struct pm_ctx ctx;
	struct pm_hypervisor h;
	uint64_t n, us;
	struct pm_cpuset sel;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		exit(99);
	}
	mkfile("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme de\n");
	if (pm_ctx_open(&ctx, root) < 0)
		exit(99);
	is_int(pm_hypervisor_detect(&ctx, &h), 0, "bare metal: none");
	mkfile("proc/cpuinfo",
	       "processor\t: 0\nflags\t\t: fpu hypervisor lahf_lm\n");
	is_int(pm_hypervisor_detect(&ctx, &h), 1, "the cpuinfo flag: one");
	ok(!h.name[0] && !strcmp(h.source, "cpuinfo flag hypervisor"),
	   "... unnamed, found by the flag");
	mkfile("sys/class/dmi/id/sys_vendor", "QEMU\n");
	mkfile("sys/class/dmi/id/product_name",
	       "Standard PC (Q35 + ICH9, 2009)\n");
	pm_hypervisor_detect(&ctx, &h);
	ok(!strcmp(h.name, "QEMU") && !strcmp(h.source, "DMI"),
	   "DMI names it: %s (%s)", h.name, h.source);
	mkfile("sys/class/dmi/id/sys_vendor", "Microsoft Corporation\n");
	mkfile("sys/class/dmi/id/product_name", "Surface Pro\n");
	mkfile("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu\n");
	is_int(pm_hypervisor_detect(&ctx, &h), 0,
	       "a Microsoft laptop is no virtual machine");
	mkfile("sys/class/dmi/id/product_name", "Virtual Machine\n");
	pm_hypervisor_detect(&ctx, &h);
	is_str(h.name, "Hyper-V", "Microsoft's Virtual Machine: Hyper-V");
	mkfile("sys/class/dmi/id/sys_vendor", "Amazon EC2\n");
	mkfile("sys/class/dmi/id/product_name", "c5.metal\n");
	is_int(pm_hypervisor_detect(&ctx, &h), 0, "EC2 bare metal: none");
	mkfile("sys/class/dmi/id/product_name", "m5.large\n");
	pm_hypervisor_detect(&ctx, &h);
	is_str(h.name, "Amazon EC2", "an EC2 instance");
	mkfile("sys/hypervisor/type", "xen\n");
	pm_hypervisor_detect(&ctx, &h);
	ok(!strcmp(h.name, "Xen") && !strcmp(h.source, "/sys/hypervisor/type"),
	   "/sys/hypervisor/type first: %s", h.name);
	rmtree();
	pm_ctx_close(&ctx);

	/* s390: /proc/sysinfo, and the CPU's own idle statistics. */
	snprintf(root, sizeof(root), "/tmp/pmtools-test-counter.XXXXXX");
	if (!mkdtemp(root))
		exit(99);
	mkfile("proc/sysinfo", "LPAR Number:          47\n"
			       "VM00 Name:            R1745003\n"
			       "VM00 Control Program: z/VM    6.1.0   \n");
	mkfile("sys/devices/system/cpu/cpu1/idle_count", "22412\n");
	mkfile("sys/devices/system/cpu/cpu1/idle_time_us", "59511274841\n");
	if (pm_ctx_open(&ctx, root) < 0)
		exit(99);
	pm_hypervisor_detect(&ctx, &h);
	is_str(h.name, "z/VM 6.1.0", "a z/VM guest (/proc/sysinfo)");
	mkfile("proc/sysinfo", "LPAR Number:          39\n");
	pm_hypervisor_detect(&ctx, &h);
	is_str(h.name, "PR/SM (LPAR)", "an s390 LPAR");
	ok(pm_s390_idle_read(&ctx, 1, &n, &us) == 0 && n == 22412 &&
		   us == 59511274841ULL,
	   "s390 idle_count and idle_time_us of cpu1");
	ok(pm_s390_idle_read(&ctx, 0, &n, &us) < 0 && n == PM_UNKNOWN &&
		   us == PM_UNKNOWN,
	   "cpu0 without them: an error, values unknown");
	/* An LPAR's standby cpu0 has none: the next CPUs are looked at. */
	mkfile("sys/devices/system/cpu/cpu0/online", "0\n");
	pm_cpuset_zero(&sel);
	pm_cpuset_set(&sel, 0);
	ok(!pm_s390_idle_present(&ctx, &sel), "cpu0 alone: no s390 idle");
	pm_cpuset_set(&sel, 1);
	ok(pm_s390_idle_present(&ctx, &sel),
	   "cpu0 standby, cpu1 with them: s390 idle present");
	rmtree();
	pm_ctx_close(&ctx);
}

int main(void)
{
	decisions();
	cputime();
	uptime();
	irq_table();
	hypervisors();
	return done_testing();
}
