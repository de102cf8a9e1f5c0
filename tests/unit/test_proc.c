// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the procfs readers on a temporary system root: the files
 * read and parsed at once, and the error record when one is missing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

static char root[] = "/tmp/pmtools-test-proc.XXXXXX";

static void test_readers(void)
{
	struct pm_cpu_ticks ticks[4];
	struct pm_irq_table t;
	struct pm_cpuset sel;
	struct pm_ctx ctx;

	if (pm_ctx_open(&ctx, root) < 0)
		exit(99);
	pm_cpulist_parse("0-1", &sel);
	is_int(pm_proc_stat_read(&ctx, ticks, 4), -ENOENT,
	       "pm_proc_stat_read without the file: -ENOENT");
	is_str(ctx.err.file, "/proc/stat", "the record names /proc/stat");
	is_int(pm_proc_interrupts_check(&ctx), -ENOENT,
	       "pm_proc_interrupts_check without the file: -ENOENT");
	tree_put(root, "proc/stat",
		 "cpu  30 0 10 60 0 0 0 0 0 0\n"
		 "cpu0 10 0 5 25 0 0 0 0 0 0\n"
		 "cpu1 20 0 5 35 0 0 0 0 0 0\n"
		 "intr 0\n");
	tree_put(root, "proc/interrupts",
		 "           CPU0       CPU1\n"
		 "  0:         10         20   IO-APIC   2-edge      timer\n"
		 "LOC:        100        200   Local timer interrupts\n");
	is_int(pm_proc_stat_read(&ctx, ticks, 4), 2,
	       "pm_proc_stat_read: two CPUs");
	is_int((long long)ticks[1].f[PM_ST_USER], 20, "cpu1 user ticks");
	ok(ticks[2].total == PM_UNKNOWN, "a CPU not listed is unknown");
	memset(&t, 0, sizeof(t));
	is_int(pm_irq_table_read(&ctx, &sel, &t), 0, "pm_irq_table_read");
	is_int(t.nrows, 2, "two rows");
	is_int((long long)pm_irq_table_cpu(&t, 1), 220, "CPU 1's count");
	pm_irq_table_free(&t);
	is_int(pm_proc_interrupts_check(&ctx), 0, "pm_proc_interrupts_check");
	pm_ctx_close(&ctx);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	test_readers();
	if (tree_rm(root) != 0)
		return 99;
	return done_testing();
}
