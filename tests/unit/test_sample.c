// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the sampler (lib/sample.c) on a temporary sysroot of two
 * CPUs with two idle states each, changed between readings as the kernel
 * does across CPU hotplug: a CPU that leaves the online list and comes
 * back, and one whose idle-state folders are not all there yet when it is
 * listed again (acpi_idle re-creates them one by one as a CPU comes
 * online, found by the soak in QEMU: cstate-stat then kept one state of
 * three until the CPU's next return).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

static char root[] = "/tmp/pmtools-test-sample.XXXXXX";

static void mkfile(const char *rel, const char *text)
{
	tree_put(root, rel, text);
}

static void mvdir(const char *from, const char *to)
{
	char a[PM_PATH_MAX], b[PM_PATH_MAX];

	snprintf(a, sizeof(a), "%s/%s", root, from);
	snprintf(b, sizeof(b), "%s/%s", root, to);
	if (rename(a, b) < 0) {
		perror(a);
		exit(99);
	}
}

static void tree(void)
{
	static const char *const names[] = { "POLL", "C1" };
	char rel[128];

	mkfile("sys/devices/system/cpu/online", "0-1\n");
	mkfile("sys/devices/system/cpu/present", "0-1\n");
	mkfile("proc/stat", "cpu  10 0 10 100 0 0 0 0 0 0\n"
			    "cpu0 5 0 5 50 0 0 0 0 0 0\n"
			    "cpu1 5 0 5 50 0 0 0 0 0 0\n");
	for (int c = 0; c < 2; c++) {
		snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%d/online",
			 c);
		mkfile(rel, "1\n");
		for (int i = 0; i < 2; i++) {
			static const char *const f[] = { "usage", "time",
							 "disable", "latency" };
			static const char *const v[] = { "7\n", "700\n", "0\n",
							 "1\n" };

			snprintf(rel, sizeof(rel),
				 "sys/devices/system/cpu/cpu%d/cpuidle/state%d/name",
				 c, i);
			mkfile(rel, names[i]);
			for (int k = 0; k < 4; k++) {
				snprintf(rel, sizeof(rel),
					 "sys/devices/system/cpu/cpu%d/cpuidle/state%d/%s",
					 c, i, f[k]);
				mkfile(rel, v[k]);
			}
		}
	}
}

int main(void)
{
	struct pm_ctx ctx;
	struct pm_sampler s;
	struct pm_cpuset sel;
	struct pm_scpu *c1;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	tree();
	if (pm_ctx_open(&ctx, root) < 0) {
		perror("pm_ctx_open");
		return 99;
	}
	pm_cpuset_zero(&sel);
	pm_cpuset_set(&sel, 0);
	pm_cpuset_set(&sel, 1);
	is_int(pm_sampler_open(&ctx, &s, &sel, PM_SAMPLE_CSTATES | PM_SAMPLE_BUSY),
	       0, "pm_sampler_open");
	c1 = &s.cpu[1];
	is_int(c1->nstates, 2, "cpu1 opened with its 2 states");
	pm_sampler_read(&s);
	ok(c1->online && c1->usage[1] == 7, "cpu1 online, state1 usage 7");

	/* cpu1 leaves the online list. */
	mkfile("sys/devices/system/cpu/online", "0\n");
	pm_sampler_read(&s);
	ok(!c1->online && c1->usage[0] == PM_UNKNOWN,
	   "cpu1 gone: offline, values unknown");

	/* It is listed again while only state0 has been made yet. */
	mvdir("sys/devices/system/cpu/cpu1/cpuidle/state1",
	      "sys/devices/system/cpu/cpu1/cpuidle/state1.away");
	mkfile("sys/devices/system/cpu/online", "0-1\n");
	pm_sampler_read(&s);
	ok(c1->online, "cpu1 back with 1 of its 2 states: online");
	is_int(c1->nstates, 2, "cpu1 back with 1 of 2 states: still 2 states");
	ok(c1->pending, "cpu1 back with 1 of 2 states: opened again later");
	is_str(c1->names[1], "C1", "cpu1 back with 1 of 2 states: C1 named");
	ok(c1->usage[0] == PM_UNKNOWN && c1->usage[1] == PM_UNKNOWN,
	   "cpu1 back with 1 of 2 states: values unknown");

	/* The next reading finds both. */
	mvdir("sys/devices/system/cpu/cpu1/cpuidle/state1.away",
	      "sys/devices/system/cpu/cpu1/cpuidle/state1");
	mkfile("sys/devices/system/cpu/cpu1/cpuidle/state1/usage", "9\n");
	pm_sampler_read(&s);
	ok(c1->online && !c1->pending && c1->nstates == 2,
	   "the next reading opens both states");
	ok(c1->usage[0] == 7 && c1->usage[1] == 9,
	   "the next reading reads both states (usage 7 and 9)");

	/* A CPU that really has fewer states now: taken after 3 tries. */
	mkfile("sys/devices/system/cpu/online", "0\n");
	pm_sampler_read(&s);
	mvdir("sys/devices/system/cpu/cpu1/cpuidle/state1",
	      "sys/devices/system/cpu/cpu1/cpuidle/state1.gone");
	mkfile("sys/devices/system/cpu/online", "0-1\n");
	for (int i = 0; i < 3; i++)
		pm_sampler_read(&s);
	ok(c1->pending && c1->nstates == 2,
	   "fewer states for 3 readings: still waiting for them");
	pm_sampler_read(&s);
	ok(!c1->pending && c1->nstates == 1 && c1->usage[0] == 7,
	   "at the 4th reading the one state is taken as all there is");

	pm_sampler_close(&s);
	pm_ctx_close(&ctx);
	if (tree_rm(root) != 0)
		diag("could not remove %s", root);
	return done_testing();
}
