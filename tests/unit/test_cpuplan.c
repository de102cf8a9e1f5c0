// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the CPU planners (lib/cpuplan.c): what each plans, in
 * which order, and what each refuses (the exit status and the message)
 * before anything is written, on a temporary system root.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

#define CPU "sys/devices/system/cpu/"
#define SYS "/sys/devices/system/cpu/"

static char root[] = "/tmp/pmtools-test-cpuplan.XXXXXX";
static struct pm_ctx ctx;
static struct pm_tool tool;
static struct pm_writer w;
static char msg[1024];

static void put(const char *rel, const char *text)
{
	tree_put(root, rel, text);
}

/* A fresh writer: a transaction, no lock, no journal. */
static void fresh(void)
{
	pm_txn_free(&w.txn);
	memset(&w, 0, sizeof(w));
	w.t = &tool;
	w.ctx = &ctx;
	pm_txn_init(&w.txn, &ctx);
}

/* The exit status of a planner that dies, run in a child; its message
 * into msg.  -1 when it returns. */
#define REFUSED(call)                                                        \
	({                                                                   \
		char f_[] = "/tmp/pmtools-test-cpuplan-err.XXXXXX";          \
		int fd_ = mkstemp(f_), st_ = 0;                              \
		ssize_t n_;                                                  \
		pid_t pid_;                                                  \
		fflush(stdout);                                              \
		fflush(stderr);                                              \
		pid_ = fork();                                               \
		if (pid_ == 0) {                                             \
			dup2(fd_, 2);                                        \
			call;                                                \
			_exit(255);                                          \
		}                                                            \
		waitpid(pid_, &st_, 0);                                      \
		n_ = pread(fd_, msg, sizeof(msg) - 1, 0);                    \
		msg[n_ > 0 ? n_ - 1 : 0] = '\0';                             \
		close(fd_);                                                  \
		unlink(f_);                                                  \
		WIFEXITED(st_) && WEXITSTATUS(st_) != 255 ?                  \
			WEXITSTATUS(st_) :                                   \
			-1;                                                  \
	})

static const char *path_of(int i)
{
	return i < w.txn.n ? w.txn.w[i].path : "(none)";
}

static const char *val_of(int i)
{
	return i < w.txn.n ? w.txn.w[i].val : "(none)";
}

static void test_smt(void)
{
	struct pm_cpus c = { .smt_control = "on" };

	put(CPU "smt/control", "on\n");
	fresh();
	pm_smt_plan(&w, &c, "off", NULL);
	is_int(w.txn.n, 1, "smt off: one write");
	is_str(path_of(0), SYS "smt/control", "smt/control");
	is_str(val_of(0), "off", "to off");
	ok(w.txn.w[0].flags & PM_W_RESHAPE, "which reshapes the CPU folders");
	snprintf(c.smt_control, sizeof(c.smt_control), "forceoff");
	fresh();
	pm_smt_plan(&w, &c, "off", NULL);
	is_int(w.txn.n, 0, "smt off when forced off: nothing to write");
	is_int(REFUSED(pm_smt_plan(&w, &c, "on", "f.conf:2: [cpu] smt: ")),
	       3, "smt on when forced off: exit 3");
	is_str(msg,
	       "test: f.conf:2: [cpu] smt: SMT was forced off at boot "
	       "(nosmt=force): only a reboot turns it on",
	       "named after where");
	snprintf(c.smt_control, sizeof(c.smt_control), "notsupported");
	is_int(REFUSED(pm_smt_plan(&w, &c, "on", NULL)), 3,
	       "no SMT: exit 3");
	is_str(msg,
	       "test: this machine has no SMT to switch (smt/control: "
	       "notsupported)",
	       "saying what smt/control reads");
}

static void test_hotplug(void)
{
	struct pm_cpus c = { .smt_control = "" };
	struct pm_hotplug h = { .where = NULL };
	unsigned cpu = 0;

	put(CPU "cpu1/online", "1\n");
	put(CPU "cpu2/online", "1\n");
	put(CPU "cpu3/online", "0\n");
	pm_cpuset_zero(&c.online);
	pm_cpuset_set(&c.online, 0);
	pm_cpuset_set(&c.online, 1);
	pm_cpuset_zero(&h.up);
	pm_cpuset_zero(&h.down);
	pm_cpuset_set(&h.up, 3);
	pm_cpuset_set(&h.down, 1);
	fresh();
	pm_hotplug_check(&w, &c, &h);
	pm_hotplug_plan(&w, &h.up, true);
	pm_hotplug_plan(&w, &h.down, false);
	is_int(w.txn.n, 2, "hotplug: two writes");
	is_str(path_of(0), SYS "cpu3/online", "cpu3 first");
	is_str(val_of(0), "1", "brought online");
	is_str(path_of(1), SYS "cpu1/online", "then cpu1");
	is_str(val_of(1), "0", "taken offline");
	ok(pm_hotplug_cpu(path_of(1), &cpu) && cpu == 1,
	   "the CPU of a planned path");
	ok(!pm_hotplug_cpu(SYS "cpu1/online2", &cpu), "not another file");
	ok(!pm_hotplug_cpu(SYS "cpu/online", &cpu), "nor a CPU without number");
	pm_cpuset_set(&h.down, 0);
	is_int(REFUSED(pm_hotplug_check(&w, &c, &h)), 3,
	       "cpu0 without an online file: exit 3");
	is_str(msg, "test: cpu0 cannot be hot-plugged (it has no online file)",
	       "named");
	/* Offline for the kernel, 1 in its file: failed to come up. */
	pm_cpuset_zero(&h.down);
	pm_cpuset_zero(&h.up);
	pm_cpuset_set(&h.up, 2);
	h.where = "p.conf:3: [cpu] online: ";
	is_int(REFUSED(pm_hotplug_check(&w, &c, &h)), 1,
	       "a CPU that failed to come up: exit 1");
	ok(!strncmp(msg, "test: p.conf:3: [cpu] online: cpu2 is offline though "
			 SYS "cpu2/online reads 1", 80),
	   "said so: %s", msg);
	pm_cpuset_zero(&h.up);
	pm_cpuset_zero(&c.online);
	pm_cpuset_set(&c.online, 1);
	pm_cpuset_set(&h.down, 1);
	h.where = NULL;
	is_int(REFUSED(pm_hotplug_check(&w, &c, &h)), 2,
	       "the last online CPU: exit 2");
	is_str(msg,
	       "test: cpu offline: that would leave no CPU online (the kernel "
	       "refuses the last one: EBUSY)",
	       "named");
}

static void test_boost(void)
{
	struct pm_policy pol[2];
	int on[2] = { 0, -1 };
	struct pm_boost b = { .on = true, .pol_on = on, .where = "b: " };

	memset(pol, 0, sizeof(pol));
	for (int i = 0; i < 2; i++) {
		struct pm_cpuset one;

		snprintf(pol[i].path, sizeof(pol[i].path),
			 SYS "cpufreq/policy%d", i);
		pol[i].boost = 1;
		pm_cpuset_zero(&one);
		pm_cpuset_set(&one, (unsigned)i);
		pm_cpuspan_set(&pol[i].affected, &one);
	}
	put(CPU "cpufreq/policy0/boost", "1\n");
	put(CPU "cpufreq/policy1/boost", "1\n");
	fresh();
	pm_boost_plan(&w, &b, pol, 2);
	is_int(w.txn.n, 1, "per-policy boost: the policies asked only");
	is_str(path_of(0), SYS "cpufreq/policy0/boost", "policy0");
	is_str(val_of(0), "0", "as its own setting says");
	put(CPU "intel_pstate/no_turbo", "0\n");
	fresh();
	pm_boost_plan(&w, &b, pol, 2);
	is_str(path_of(0), SYS "intel_pstate/no_turbo",
	       "no_turbo before the policies");
	is_str(val_of(0), "0", "inverted: boost on is no_turbo 0");
	put(CPU "cpufreq/boost", "0\n");
	fresh();
	pm_boost_plan(&w, &b, pol, 2);
	is_int(w.txn.n, 1, "one write");
	is_str(path_of(0), SYS "cpufreq/boost", "cpufreq/boost first of all");
	is_str(val_of(0), "1", "on");
	b.policies_only = true;
	fresh();
	pm_boost_plan(&w, &b, pol, 2);
	is_str(path_of(0), SYS "cpufreq/policy0/boost",
	       "policies only: the policy's own file");
	pol[0].boost = pol[1].boost = -1;
	is_int(REFUSED(pm_boost_plan(&w, &b, pol, 2)), 3,
	       "no per-policy boost: exit 3");
	is_str(msg,
	       "test: b: no per-policy boost on this machine (policyN/boost "
	       "appeared in Linux 6.6)",
	       "named");
	pol[0].boost = 1;
	on[0] = -1;
	is_int(REFUSED(pm_boost_plan(&w, &b, pol, 2)), 3,
	       "no selected policy with a boost file: exit 3");
	is_str(msg, "test: b: no selected online policy has a boost file",
	       "named");
}

static void test_idle(void)
{
	char *names[] = { "c6", "1" }, *bad[] = { "C7" }, *all[] = { "all" };
	struct pm_idle_set r = { .rest = true, .names = names, .n_names = 2,
				 .where = "d: " };

	put(CPU "cpuidle/current_governor", "menu\n");
	put(CPU "cpuidle/available_governors", "menu teo\n");
	fresh();
	pm_idle_governor_plan(&w, "teo", NULL);
	is_str(path_of(0), SYS "cpuidle/current_governor", "the governor");
	is_str(val_of(0), "teo", "teo");
	is_int(REFUSED(pm_idle_governor_plan(&w, "ladder", "g: ")), 3,
	       "a governor not offered: exit 3");
	is_str(msg,
	       "test: g: cannot set the cpuidle governor 'ladder': not "
	       "available (available: menu teo)",
	       "named with the choices");
	for (int c = 0; c < 2; c++) {
		static const char *const st[] = { "POLL", "C1", "C6" };
		static const char *const lat[] = { "0", "2", "80" };
		char rel[128];

		for (int s = 0; s < 3; s++) {
			snprintf(rel, sizeof(rel), CPU "cpu%d/cpuidle/state%d/name",
				 c, s);
			put(rel, st[s]);
			snprintf(rel, sizeof(rel),
				 CPU "cpu%d/cpuidle/state%d/latency", c, s);
			put(rel, lat[s]);
			snprintf(rel, sizeof(rel),
				 CPU "cpu%d/cpuidle/state%d/disable", c, s);
			put(rel, "0\n");
		}
	}
	pm_cpuset_zero(&r.cpus);
	pm_cpuset_set(&r.cpus, 0);
	pm_cpuset_set(&r.cpus, 1);
	fresh();
	pm_idle_plan(&w, &r);
	is_int(w.txn.n, 6, "every state of both CPUs");
	is_str(path_of(2), SYS "cpu0/cpuidle/state2/disable", "in order");
	is_str(val_of(1), "1", "index 1 named: disabled");
	is_str(val_of(2), "1", "C6 by its name in any case: disabled");
	is_str(val_of(3), "0", "POLL not named: enabled");
	ok(w.txn.w[3].skip, "and already so: skipped");
	r.n_names = 0;
	r.has_latency = true;
	r.latency_us = 2;
	fresh();
	pm_idle_plan(&w, &r);
	is_str(val_of(1), "0", "a latency limit of 2: C1 stays");
	is_str(val_of(2), "1", "C6 above it goes");
	r.rest = r.has_latency = false;
	r.names = names;
	r.n_names = 1;
	fresh();
	pm_idle_plan(&w, &r);
	is_int(w.txn.n, 2, "without rest: the named state of each CPU only");
	is_str(path_of(1), SYS "cpu1/cpuidle/state2/disable", "C6 of cpu1");
	r.enable = true;
	r.names = all;
	fresh();
	pm_idle_plan(&w, &r);
	is_int(w.txn.n, 6, "enable all: every state");
	is_str(val_of(5), "0", "enabled");
	r.names = bad;
	is_int(REFUSED(pm_idle_plan(&w, &r)), 3, "a name no CPU has: exit 3");
	is_str(msg,
	       "test: d: no idle state 'C7' on cpu0 (states: 0:POLL 1:C1 "
	       "2:C6)",
	       "named with the states there are");
	pm_cpuset_set(&r.cpus, 2);
	r.names = names;
	is_int(REFUSED(pm_idle_plan(&w, &r)), 3,
	       "a CPU without idle states: exit 3");
	is_str(msg, "test: d: cpu2 has no idle states (no cpu2/cpuidle)",
	       "named");
}

static void test_pstate(void)
{
	struct pm_pstate p = { .has_min = true, .has_max = true, .min = 60,
			       .max = 90, .no_turbo = 1 };

	put(CPU "intel_pstate/status", "active\n");
	put(CPU "intel_pstate/min_perf_pct", "20\n");
	put(CPU "intel_pstate/max_perf_pct", "50\n");
	put(CPU "intel_pstate/no_turbo", "0\n");
	fresh();
	pm_pstate_plan(&w, &p);
	is_int(w.txn.n, 3, "limits and no_turbo");
	is_str(path_of(0), SYS "intel_pstate/max_perf_pct",
	       "raising above the current max: max first");
	is_str(path_of(1), SYS "intel_pstate/min_perf_pct", "then min");
	is_str(val_of(1), "60", "the number");
	is_str(path_of(2), SYS "intel_pstate/no_turbo", "no_turbo last");
	p.min = 30;
	fresh();
	pm_pstate_plan(&w, &p);
	is_str(path_of(0), SYS "intel_pstate/min_perf_pct",
	       "below the current max: min first");
	p.min = 95;
	p.where_min = "m: ";
	is_int(REFUSED(pm_pstate_plan(&w, &p)), 2, "min above max: exit 2");
	is_str(msg, "test: m: min_perf_pct 95 is above max_perf_pct 90",
	       "named");
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	if (pm_ctx_open(&ctx, root) < 0)
		return 99;
	tool.name = "test";
	pm_txn_init(&w.txn, &ctx);
	test_smt();
	test_hotplug();
	test_boost();
	test_idle();
	test_pstate();
	pm_txn_free(&w.txn);
	pm_ctx_close(&ctx);
	if (tree_rm(root) != 0)
		diag("could not remove %s", root);
	return done_testing();
}
