// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "attr": any bytes as a sysfs, debugfs or /proc file, read
 * through the public readers on a tiny system root.
 *
 * LLVMFuzzerInitialize builds the tree (a one-CPU machine with a cpufreq
 * policy, two idle states, /sys/power, a battery, a thermal zone, RAPL,
 * devfreq, a regulator, a runtime-PM device, debugfs tables, /proc files
 * and an opp.d point) in a mkdtemp folder and opens a context on it.
 * Each input picks one file with its first byte (modulo the number of
 * files), replaces the file's content with the rest, calls every reader
 * of that file's group, then puts the default content back.  The parsers
 * reached this way include the static ones (the policy's frequency
 * lists, /proc/swaps and /proc/meminfo of the hibernation check, the
 * sampler's reads by fd).
 *
 * Checked: attribute reads are NUL-terminated within the buffer, never
 * longer than the file, with the trailing blanks stripped; typed reads
 * agree with pm_parse_*; array counts stay within their arrays; and no
 * reader leaks a file descriptor.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

enum grp {
	G_VALUE,
	G_CPUS,
	G_POLICY,
	G_IDLE,
	G_DEBUGFS,
	G_SLEEP,
	G_SWAP,
	G_RTC,
	G_PROC,
	G_SUPPLY,
	G_THERMAL,
	G_DEVFREQ,
	G_PROFILE,
	G_POWERCAP,
	G_REGULATOR,
	G_DEVICE,
	G_WAKEUP,
	G_OPP,
};

struct file {
	const char *path;
	const char *text;
	enum grp grp;
};

#define CPU "sys/devices/system/cpu/"
#define POL CPU "cpufreq/policy0/"
#define ST0 CPU "cpu0/cpuidle/state0/"
#define ST1 CPU "cpu0/cpuidle/state1/"
#define PWR "sys/power/"
#define BAT "sys/class/power_supply/BAT0/"
#define TZ "sys/class/thermal/thermal_zone0/"
#define DF "sys/class/devfreq/gpu/"
#define PP "sys/class/platform-profile/platform-profile-0/"
#define RAPL "sys/class/powercap/intel-rapl:0/"
#define REG "sys/class/regulator/regulator.0/"
#define DEV "sys/devices/pci0000:00/0000:00:14.0/power/"
#define WS "sys/class/wakeup/wakeup0/"
#define RTC "sys/class/rtc/rtc0/"

static const struct file files[] = {
	{ "sys/fuzz/value", "42\n", G_VALUE },
	{ CPU "online", "0\n", G_CPUS },
	{ CPU "possible", "0-1\n", G_CPUS },
	{ CPU "present", "0\n", G_CPUS },
	{ CPU "offline", "\n", G_CPUS },
	{ CPU "kernel_max", "8191\n", G_CPUS },
	{ CPU "smt/control", "notsupported\n", G_CPUS },
	{ CPU "smt/active", "0\n", G_CPUS },
	{ CPU "cpu0/online", "1\n", G_CPUS },
	{ POL "related_cpus", "0\n", G_POLICY },
	{ POL "affected_cpus", "0\n", G_POLICY },
	{ POL "scaling_driver", "acpi-cpufreq\n", G_POLICY },
	{ POL "scaling_governor", "userspace\n", G_POLICY },
	{ POL "scaling_available_governors",
	  "conservative ondemand userspace powersave performance \n",
	  G_POLICY },
	{ POL "scaling_min_freq", "1000000\n", G_POLICY },
	{ POL "scaling_max_freq", "1833000\n", G_POLICY },
	{ POL "cpuinfo_min_freq", "1000000\n", G_POLICY },
	{ POL "cpuinfo_max_freq", "1833000\n", G_POLICY },
	{ POL "scaling_cur_freq", "1333000\n", G_POLICY },
	{ POL "cpuinfo_cur_freq", "1333000\n", G_POLICY },
	{ POL "cpuinfo_transition_latency", "10000\n", G_POLICY },
	{ POL "bios_limit", "1833000\n", G_POLICY },
	{ POL "base_frequency", "1600000\n", G_POLICY },
	{ POL "scaling_available_frequencies", "1833000 1333000 1000000 \n",
	  G_POLICY },
	{ POL "scaling_boost_frequencies", "2000000 \n", G_POLICY },
	{ POL "energy_performance_preference", "balance_performance\n",
	  G_POLICY },
	{ POL "energy_performance_available_preferences",
	  "default performance balance_performance balance_power power \n",
	  G_POLICY },
	{ POL "boost", "1\n", G_POLICY },
	{ POL "scaling_setspeed", "1333000\n", G_POLICY },
	{ POL "stats/total_trans", "24691\n", G_POLICY },
	{ POL "stats/time_in_state",
	  "1833000 106995\n1333000 386832\n1000000 740740\n", G_POLICY },
	{ POL "stats/trans_table",
	  "   From  :    To\n"
	  "         :   1833000   1333000   1000000 \n"
	  "  1833000:         0      1255      2402 \n"
	  "  1333000:      1254         0      8689 \n"
	  "  1000000:      2402      8689         0 \n",
	  G_POLICY },
	{ CPU "cpufreq/boost", "1\n", G_POLICY },
	{ CPU "intel_pstate/status", "active\n", G_POLICY },
	{ CPU "intel_pstate/no_turbo", "0\n", G_POLICY },
	{ CPU "intel_pstate/min_perf_pct", "10\n", G_POLICY },
	{ CPU "intel_pstate/max_perf_pct", "100\n", G_POLICY },
	{ CPU "intel_pstate/num_pstates", "32\n", G_POLICY },
	{ CPU "intel_pstate/turbo_pct", "30\n", G_POLICY },
	{ CPU "intel_pstate/hwp_dynamic_boost", "0\n", G_POLICY },
	{ CPU "amd_pstate/status", "active\n", G_POLICY },
	{ CPU "amd_pstate/prefcore", "enabled\n", G_POLICY },
	{ ST0 "name", "POLL\n", G_IDLE },
	{ ST0 "desc", "CPUIDLE CORE POLL IDLE\n", G_IDLE },
	{ ST0 "latency", "0\n", G_IDLE },
	{ ST0 "residency", "0\n", G_IDLE },
	{ ST0 "usage", "1234\n", G_IDLE },
	{ ST0 "time", "5678\n", G_IDLE },
	{ ST0 "disable", "0\n", G_IDLE },
	{ ST0 "power", "4294967295\n", G_IDLE },
	{ ST0 "default_status", "enabled\n", G_IDLE },
	{ ST1 "name", "C1\n", G_IDLE },
	{ ST1 "desc", "ACPI FFH MWAIT 0x0\n", G_IDLE },
	{ ST1 "latency", "1\n", G_IDLE },
	{ ST1 "residency", "2\n", G_IDLE },
	{ ST1 "usage", "54024743\n", G_IDLE },
	{ ST1 "time", "1404643335\n", G_IDLE },
	{ ST1 "above", "1620742\n", G_IDLE },
	{ ST1 "below", "1080494\n", G_IDLE },
	{ ST1 "rejected", "0\n", G_IDLE },
	{ ST1 "s2idle/usage", "3\n", G_IDLE },
	{ ST1 "s2idle/time", "300000\n", G_IDLE },
	{ ST1 "disable", "0\n", G_IDLE },
	{ ST1 "power", "0\n", G_IDLE },
	{ ST1 "default_status", "enabled\n", G_IDLE },
	{ CPU "cpuidle/current_driver", "acpi_idle\n", G_IDLE },
	{ CPU "cpuidle/current_governor", "menu\n", G_IDLE },
	{ CPU "cpuidle/current_governor_ro", "menu\n", G_IDLE },
	{ CPU "cpuidle/available_governors", "ladder menu \n", G_IDLE },
	{ "sys/kernel/debug/clk/clk_summary",
	  "                                 enable  prepare  protect       "
	  "                         duty  hardware\n"
	  "   clock                          count    count    count      "
	  "  rate   accuracy phase  cycle    enable\n"
	  "-------------------------------------------------------------"
	  "------------------------------------------\n"
	  " xin24m                              1        1        0     "
	  "24000000          0     0  50000         Y\n"
	  "    pll_apll                         1        1        0 "
	  "1416000000          0     0  50000         Y\n",
	  G_DEBUGFS },
	{ "sys/kernel/debug/pm_genpd/pm_genpd_summary",
	  "domain                          status          children       "
	  "                    performance\n"
	  "    /device                                             runtime "
	  "status\n"
	  "-------------------------------------------------------------"
	  "---------------------------------\n"
	  "pd_vio                          on                             "
	  "                    0\n"
	  "                                                pd_isp0\n"
	  "pd_isp0                         off-0                          "
	  "                    0\n"
	  "    /devices/platform/ff910000.isp0                     "
	  "suspended                  0\n",
	  G_DEBUGFS },
	{ PWR "state", "freeze mem disk\n", G_SLEEP },
	{ PWR "mem_sleep", "s2idle [deep]\n", G_SLEEP },
	{ PWR "disk", "[platform] shutdown reboot suspend test_resume \n",
	  G_SLEEP },
	{ PWR "pm_test", "[none] core processors platform devices freezer\n",
	  G_SLEEP },
	{ PWR "image_size", "835321856\n", G_SLEEP },
	{ PWR "suspend_stats/success", "14\n", G_SLEEP },
	{ PWR "suspend_stats/fail", "1\n", G_SLEEP },
	{ PWR "suspend_stats/failed_suspend", "1\n", G_SLEEP },
	{ PWR "suspend_stats/last_failed_dev", "0000:00:1d.7\n", G_SLEEP },
	{ PWR "suspend_stats/last_failed_errno", "-16\n", G_SLEEP },
	{ PWR "suspend_stats/last_failed_step", "suspend\n", G_SLEEP },
	{ PWR "resume", "8:5\n", G_SWAP },
	{ PWR "resume_offset", "0\n", G_SWAP },
	{ "proc/swaps",
	  "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n"
	  "/dev/sda5                               partition\t2097148\t\t0"
	  "\t\t-2\n"
	  "/swapfile                               file\t\t1024\t\t0\t\t-3\n",
	  G_SWAP },
	{ "proc/meminfo",
	  "MemTotal:        2039360 kB\n"
	  "Active(anon):     100000 kB\n",
	  G_SWAP },
	{ "sys/class/block/sda5/dev", "8:5\n", G_SWAP },
	{ "swapfile", "", G_SWAP },
	{ RTC "wakealarm", "", G_RTC },
	{ RTC "since_epoch", "1700000000\n", G_RTC },
	{ RTC "device/power/wakeup", "enabled\n", G_RTC },
	{ "etc/adjtime", "0.0 0 0.0\n0\nUTC\n", G_RTC },
	{ "proc/stat",
	  "cpu  100 0 50 1000 10 0 5 0 0 0\n"
	  "cpu0 100 0 50 1000 10 0 5 0 0 0\n"
	  "intr 12345 0 9 0\nctxt 999\nbtime 1700000000\n",
	  G_PROC },
	{ "proc/interrupts",
	  "           CPU0       \n"
	  "  0:         20   IO-APIC    2-edge      timer\n"
	  "  9:          4   IO-APIC    9-fasteoi   acpi\n"
	  "NMI:          0   Non-maskable interrupts\n"
	  "LOC:     123456   Local timer interrupts\n"
	  "ERR:          0\n",
	  G_PROC },
	{ BAT "type", "Battery\n", G_SUPPLY },
	{ BAT "status", "Discharging\n", G_SUPPLY },
	{ BAT "model_name", "42T4861\n", G_SUPPLY },
	{ BAT "online", "1\n", G_SUPPLY },
	{ BAT "capacity", "87\n", G_SUPPLY },
	{ BAT "power_now", "9000000\n", G_SUPPLY },
	{ BAT "energy_now", "40000000\n", G_SUPPLY },
	{ BAT "energy_full", "50000000\n", G_SUPPLY },
	{ BAT "voltage_now", "12000000\n", G_SUPPLY },
	{ TZ "type", "acpitz\n", G_THERMAL },
	{ TZ "temp", "45000\n", G_THERMAL },
	{ TZ "policy", "step_wise\n", G_THERMAL },
	{ TZ "mode", "enabled\n", G_THERMAL },
	{ DF "governor", "simple_ondemand\n", G_DEVFREQ },
	{ DF "cur_freq", "200000000\n", G_DEVFREQ },
	{ DF "min_freq", "200000000\n", G_DEVFREQ },
	{ DF "max_freq", "800000000\n", G_DEVFREQ },
	{ DF "available_governors", "userspace simple_ondemand\n", G_DEVFREQ },
	{ DF "available_frequencies", "200000000 400000000 800000000\n",
	  G_DEVFREQ },
	{ "sys/firmware/acpi/platform_profile", "balanced\n", G_PROFILE },
	{ "sys/firmware/acpi/platform_profile_choices",
	  "low-power balanced performance\n", G_PROFILE },
	{ PP "name", "thinkpad-acpi\n", G_PROFILE },
	{ PP "profile", "balanced\n", G_PROFILE },
	{ PP "choices", "low-power [balanced] performance\n", G_PROFILE },
	{ "sys/class/powercap/intel-rapl/enabled", "1\n", G_POWERCAP },
	{ RAPL "name", "package-0\n", G_POWERCAP },
	{ RAPL "enabled", "1\n", G_POWERCAP },
	{ RAPL "energy_uj", "123456789\n", G_POWERCAP },
	{ RAPL "max_energy_range_uj", "262143328850\n", G_POWERCAP },
	{ RAPL "constraint_0_name", "long_term\n", G_POWERCAP },
	{ RAPL "constraint_0_power_limit_uw", "15000000\n", G_POWERCAP },
	{ RAPL "constraint_0_time_window_us", "27983872\n", G_POWERCAP },
	{ RAPL "constraint_0_max_power_uw", "25000000\n", G_POWERCAP },
	{ REG "name", "vdd_cpu\n", G_REGULATOR },
	{ REG "type", "voltage\n", G_REGULATOR },
	{ REG "num_users", "1\n", G_REGULATOR },
	{ REG "microvolts", "900000\n", G_REGULATOR },
	{ REG "min_microvolts", "800000\n", G_REGULATOR },
	{ REG "max_microvolts", "1350000\n", G_REGULATOR },
	{ REG "state", "enabled\n", G_REGULATOR },
	{ REG "suspend_mem_state", "disabled\n", G_REGULATOR },
	{ DEV "control", "auto\n", G_DEVICE },
	{ DEV "runtime_status", "suspended\n", G_DEVICE },
	{ DEV "runtime_active_time", "1000\n", G_DEVICE },
	{ DEV "runtime_suspended_time", "90000\n", G_DEVICE },
	{ DEV "autosuspend_delay_ms", "2000\n", G_DEVICE },
	{ DEV "wakeup", "enabled\n", G_DEVICE },
	{ DEV "wakeup_count", "3\n", G_DEVICE },
	{ DEV "wakeup_active", "0\n", G_DEVICE },
	{ DEV "wakeup_total_time_ms", "15\n", G_DEVICE },
	{ DEV "pm_qos_resume_latency_us", "0\n", G_DEVICE },
	{ WS "name", "0000:00:14.0\n", G_WAKEUP },
	{ WS "event_count", "7\n", G_WAKEUP },
	{ WS "wakeup_count", "3\n", G_WAKEUP },
	{ "etc/pm/opp.d/fuzz.conf",
	  "# Fuzz: a point\n[opp]\ndescription = \"a point for the fuzzer\"\n"
	  "[cpufreq]\ngovernor = powersave\nmax = 1.2GHz\n",
	  G_OPP },
};

#define NFILES (sizeof(files) / sizeof(files[0]))
/* The first byte of an input picks the file. */
_Static_assert(NFILES <= 256, "more files than values of a byte");

static char root[PM_PATH_MAX], real_root[PM_PATH_MAX];
static struct pm_ctx ctx;
static int lowest_fd;

static void put(int dirfd, const char *path, const void *data, size_t len)
{
	int fd = openat(dirfd, path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
			0644);

	if (fd < 0) {
		perror(path);
		abort();
	}
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, (const char *)data + off, len - off);

		if (n <= 0) {
			perror(path);
			abort();
		}
		off += (size_t)n;
	}
	close(fd);
}

/* mkdir -p of the folders above path, relative to dirfd. */
static void parents(int dirfd, const char *path)
{
	char p[PM_PATH_MAX];

	snprintf(p, sizeof(p), "%s", path);
	for (char *s = strchr(p, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdirat(dirfd, p, 0755) < 0 && errno != EEXIST) {
			perror(p);
			abort();
		}
		*s = '/';
	}
}

static void cleanup(void)
{
	pm_ctx_close(&ctx);
	fz_rmtree(root);
}

/* Where the tree goes: $TMPDIR, else /dev/shm (each input rewrites a
 * file: on ext4 that is ten times slower), else /tmp. */
static const char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");

	if (t && *t)
		return t;
	if (access("/dev/shm", W_OK | X_OK) == 0)
		return "/dev/shm";
	return "/tmp";
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int dfd;

	(void)argc;
	(void)argv;
	/* For tests/fuzz/mkcorpus: which first byte picks which file. */
	if (getenv("PM_FUZZ_ATTR_LIST")) {
		for (size_t i = 0; i < NFILES; i++)
			printf("%zu\t%s\n", i, files[i].path);
		exit(0);
	}
	snprintf(root, sizeof(root), "%s/pmfuzz-attr.XXXXXX", tmp_dir());
	if (!mkdtemp(root)) {
		perror(root);
		abort();
	}
	dfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		abort();
	for (size_t i = 0; i < NFILES; i++) {
		parents(dfd, files[i].path);
		put(dfd, files[i].path, files[i].text, strlen(files[i].text));
	}
	/* The class entries a real tree has as links are plain folders
	 * here, except the ones whose readers follow links. */
	parents(dfd, "sys/class/regulator/x");
	if (symlinkat("../../devices/platform/reg/regulator.0", dfd,
		      "sys/class/regulator/regulator.9") < 0)
		abort();
	parents(dfd, "sys/devices/pci0000:00/0000:00:14.0/x");
	if (symlinkat("../../../bus/pci/drivers/xhci_hcd", dfd,
		      "sys/devices/pci0000:00/0000:00:14.0/driver") < 0 ||
	    symlinkat("../../../bus/pci", dfd,
		      "sys/devices/pci0000:00/0000:00:14.0/subsystem") < 0)
		abort();
	parents(dfd, CPU "cpu0/cpufreq");
	if (symlinkat("../cpufreq/policy0", dfd, CPU "cpu0/cpufreq") < 0)
		abort();
	close(dfd);
	if (!realpath(root, real_root))
		abort();
	if (pm_ctx_open(&ctx, root) < 0) {
		fprintf(stderr, "pm_ctx_open %s failed\n", root);
		abort();
	}
	atexit(cleanup);
	/* The context keeps the folder of the last write open (nearfd):
	 * open it now, so that it is not counted as a leak. */
	{
		char b[8];

		(void)pm_attr_read_near(&ctx, files[0].path, b, sizeof(b));
	}
	lowest_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	close(lowest_fd);
	return 0;
}

/* ---------------------------------------------------------------- checks */

/*
 * The lowest free fd moved from lowest_fd to probe.  An fd of a file
 * below the root is a reader's leak; anything else is the sanitizers'
 * (the symbolizer's pipes) or libFuzzer's, and moves the baseline.
 */
static void fd_leaks(const char *path, int probe)
{
	for (int fd = lowest_fd; fd < probe; fd++) {
		char l[64], t[PM_PATH_MAX];
		ssize_t n;

		snprintf(l, sizeof(l), "/proc/self/fd/%d", fd);
		n = readlink(l, t, sizeof(t) - 1);
		if (n <= 0)
			continue;
		t[n] = '\0';
		if (!strncmp(t, real_root, strlen(real_root))) {
			fprintf(stderr, "fd %d leaked after reading %s: %s\n",
				fd, path, t);
			CHECK(!"a reader leaked a file descriptor");
		}
	}
	lowest_fd = probe;
}

static void attr_ok(ssize_t n, const char *buf, size_t size, size_t flen)
{
	CHECK(n >= -4095);
	if (n < 0) {
		CHECK(ctx.err.err == (int)-n);
		return;
	}
	CHECK((size_t)n < size && (size_t)n <= flen);
	CHECK(buf[n] == '\0');
	if (n) {
		char c = buf[n - 1];

		CHECK(c != ' ' && c != '\t' && c != '\n' && c != '\r');
	}
}

static void str_ok(const char *s, size_t size)
{
	CHECK(fz_terminated(s, size));
}

#define STR_OK(field) str_ok((field), sizeof(field))

static void g_value(const char *path, const uint8_t *data, size_t len)
{
	static const size_t sizes[] = { 1, 2, 3, 16, 64, 4096, PM_ATTR_MAX };
	char *buf = malloc(PM_ATTR_MAX), *all = NULL;
	uint64_t v, pv;
	int64_t sv;
	ssize_t n;
	int r, fd;

	if (!buf)
		abort();
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		char *b = malloc(sizes[i]);

		if (!b)
			abort();
		n = pm_attr_read(&ctx, path, b, sizes[i]);
		attr_ok(n, b, sizes[i], len);
		free(b);
	}
	/* No room at all: the end of a block, so that any write is caught. */
	n = pm_attr_read(&ctx, path, buf + PM_ATTR_MAX, 0);
	CHECK(n < 0);
	n = pm_attr_read(&ctx, path, buf, PM_ATTR_MAX);
	attr_ok(n, buf, PM_ATTR_MAX, len);
	n = pm_attr_read(&ctx, path, buf, 64);
	r = pm_attr_read_u64(&ctx, path, &v);
	if (n == 0)
		CHECK(r == -ENODATA);
	if (r == 0) {
		CHECK(n > 0 && pm_parse_u64(buf, &pv) == 0 && pv == v);
		CHECK(pm_attr_getat_u64(&ctx, ctx.rootfd, path) == v);
	} else if (n > 0) {
		CHECK(r == -EINVAL || r == -ERANGE);
		CHECK(pm_parse_u64(buf, &pv) < 0);
	}
	r = pm_attr_readat_s64(&ctx, ctx.rootfd, path, &sv);
	if (r == 0)
		CHECK(pm_parse_s64(buf, (int64_t *)&pv) == 0 &&
		      (int64_t)pv == sv);
	n = pm_attr_read_near(&ctx, path, buf, PM_ATTR_MAX);
	attr_ok(n, buf, PM_ATTR_MAX, len);
	fd = pm_open(&ctx, path, O_RDONLY);
	CHECK(fd >= 0);
	n = pm_attr_pread(fd, buf, PM_ATTR_MAX);
	attr_ok(n, buf, PM_ATTR_MAX, len);
	close(fd);
	/* The whole file, as read until EOF. */
	n = pm_file_read(&ctx, path, &all);
	CHECK(n == (ssize_t)len && all && all[len] == '\0');
	CHECK(!len || !memcmp(all, data, len));
	free(all);

	/* A transaction's plan and read-back. */
	struct pm_txn t;

	pm_txn_init(&t, &ctx);
	r = pm_txn_add(&t, path, "fuzz", PM_W_CHOICE);
	CHECK(r == 0 || r < 0);
	r = pm_txn_add(&t, path, "fuzz", PM_W_FORCE);
	if (r >= 0) {
		CHECK(t.w[r].old && strlen(t.w[r].old) < PM_W_VAL);
		CHECK(pm_txn_apply(&t) == 0);
		CHECK(!strcmp(t.w[r].got, "fuzz"));
	}
	pm_txn_free(&t);
	free(buf);
}

static void g_cpus(void)
{
	struct pm_cpus c;
	struct pm_cpuset s;

	if (pm_cpus_read(&ctx, &c) < 0)
		return;
	STR_OK(c.smt_control);
	CHECK(c.nr_present == pm_cpuset_count(&c.present));
	CHECK(c.smt_active >= -1 && c.smt_active <= 1);
	(void)pm_cpus_select(&ctx, &c, "all", &s);
	(void)pm_cpus_select(&ctx, &c, "online", &s);
	(void)pm_cpus_select(&ctx, &c, "0-1", &s);
	(void)pm_cpu_hotpluggable(&ctx, 0);
}

static void policy_ok(const struct pm_policy *p)
{
	STR_OK(p->path);
	STR_OK(p->driver);
	STR_OK(p->governor);
	STR_OK(p->available_governors);
	STR_OK(p->epp);
	STR_OK(p->epp_available);
	STR_OK(p->setspeed);
	CHECK(p->n_avail >= -1 && p->n_avail <= PM_MAX_FREQS);
	CHECK(p->n_boost >= 0 && p->n_boost <= PM_MAX_FREQS);
	CHECK(p->n_tis >= 0 && p->n_tis <= PM_MAX_FREQS);
	CHECK(p->boost >= -1 && p->boost <= 1);
}

static void g_policy(void)
{
	struct pm_policy *p = malloc(sizeof(*p)), *v = NULL;
	struct pm_cpufreq_global g;
	struct pm_trans_table tt;
	unsigned ids[8];
	int n;

	if (!p)
		abort();
	n = pm_policies_list(&ctx, ids, 8);
	CHECK(n <= 8);
	if (pm_policy_read(&ctx, 0, p) == 0) {
		policy_ok(p);
		if (pm_trans_table_read(&ctx, p, &tt) == 0)
			CHECK(tt.n >= 1 && tt.n <= PM_MAX_FREQS && tt.counts);
		pm_trans_table_free(&tt);
		pm_policy_free(p);
	}
	n = pm_policies_read(&ctx, PM_POL_ALL, &v);
	for (int i = 0; i < n; i++)
		policy_ok(&v[i]);
	pm_policies_free(v, n);
	/* Without PM_POL_INFO: the online list stands in for affected_cpus. */
	n = pm_policies_read(&ctx, PM_POL_LIMITS | PM_POL_GOVERNOR, &v);
	for (int i = 0; i < n; i++)
		policy_ok(&v[i]);
	pm_policies_free(v, n);
	pm_cpufreq_global_read(&ctx, &g);
	STR_OK(g.intel_status);
	STR_OK(g.amd_status);
	STR_OK(g.amd_prefcore);
	free(p);
}

static void g_idle(void)
{
	struct pm_idle_state st[PM_MAX_IDLE_STATES];
	struct pm_cpuidle ci;
	int n;

	n = pm_idle_states_read(&ctx, 0, st, PM_MAX_IDLE_STATES);
	CHECK(n >= 0 && n <= PM_MAX_IDLE_STATES);
	for (int i = 0; i < n; i++) {
		STR_OK(st[i].name);
		STR_OK(st[i].desc);
		CHECK(st[i].disabled >= -1 && st[i].disabled <= 1);
	}
	n = pm_idle_states_read_fields(&ctx, 0, st, 1, PM_IDLE_COUNTERS);
	CHECK(n >= 0 && n <= 1);
	if (pm_cpuidle_read(&ctx, &ci) == 0) {
		STR_OK(ci.driver);
		STR_OK(ci.governor);
		STR_OK(ci.available_governors);
	}
}

static void g_debugfs(void)
{
	struct pm_clk_table c;
	struct pm_genpd_table g;
	int r;

	r = pm_clk_read(&ctx, &c);
	CHECK(r < 0 || r == c.n);
	pm_clk_table_free(&c);
	r = pm_genpd_read(&ctx, &g);
	CHECK(r < 0 || r == g.n);
	pm_genpd_table_free(&g);
	(void)pm_debugfs_state(&ctx);
}

static void g_sleep(void)
{
	struct pm_sleep s;
	struct pm_suspend_stats ss;
	char reason[512];

	if (pm_sleep_read(&ctx, &s) == 0) {
		STR_OK(s.state);
		STR_OK(s.mem_sleep);
		STR_OK(s.disk);
		STR_OK(s.pm_test);
		STR_OK(s.resume);
		STR_OK(s.last_failed_dev);
		STR_OK(s.last_failed_step);
	}
	pm_suspend_stats_read(&ctx, &ss);
	STR_OK(ss.last_failed_dev);
	STR_OK(ss.last_failed_step);
	for (int m = PM_MODE_SUSPEND; m <= PM_MODE_SUSPEND_THEN_HIBERNATE;
	     m++) {
		int r = pm_sleep_offered(&ctx, (enum pm_sleep_mode)m,
					 "platform", reason, sizeof(reason));

		CHECK(r == 0 || r < 0);
		STR_OK(reason);
	}
}

static void g_swap(void)
{
	char reason[512];

	(void)pm_hibernate_check(&ctx, PM_HIB_KERNEL, reason, sizeof(reason));
	(void)pm_hibernate_check(&ctx, PM_HIB_USER, reason, sizeof(reason));
	STR_OK(reason);
	(void)pm_sleep_check(&ctx, PM_MODE_HIBERNATE, "platform",
			     PM_HIB_USER, reason, sizeof(reason));
	STR_OK(reason);
}

static void g_rtc(void)
{
	struct pm_rtc r;

	if (pm_rtc_read(&ctx, "rtc0", &r) == 0)
		STR_OK(r.wakeup);
	(void)pm_rtc_local(&ctx);
}

/*
 * The sampler over the changed file, then over its default again: a CPU
 * the fuzzed online list dropped comes back, and its files are opened
 * anew.
 */
static void sampler(const struct file *f)
{
	struct pm_sampler s;
	struct pm_cpuset sel;

	pm_cpuset_zero(&sel);
	pm_cpuset_set(&sel, 0);
	pm_cpuset_set(&sel, 1);
	if (pm_sampler_open(&ctx, &s, &sel,
			    PM_SAMPLE_CSTATES | PM_SAMPLE_PSTATES |
				    PM_SAMPLE_WAKEUPS | PM_SAMPLE_POWER |
				    PM_SAMPLE_BUSY) < 0)
		return;
	for (int round = 0; round < 2; round++) {
		pm_sampler_read(&s);
		CHECK(s.irq.nrows >= 0 && s.irq.nrows <= PM_IRQ_TABLE_ROWS);
		CHECK(s.nrapl >= 0 && s.nrapl <= PM_MAX_RAPL);
		for (int i = 0; i < s.ncpu; i++) {
			CHECK(s.cpu[i].nstates >= 0 &&
			      s.cpu[i].nstates <= PM_MAX_IDLE_STATES);
			CHECK(s.cpu[i].policy >= -1 &&
			      s.cpu[i].policy < s.npol);
		}
		for (int i = 0; i < s.npol; i++)
			CHECK(s.pol[i].n_tis >= 0 &&
			      s.pol[i].n_tis <= PM_MAX_FREQS);
		put(ctx.rootfd, f->path, f->text, strlen(f->text));
	}
	pm_sampler_close(&s);
}

static void g_proc(void)
{
	char name[64];

	for (unsigned irq = 0; irq < 10; irq += 9) {
		pm_irq_name(&ctx, irq, name, sizeof(name));
		STR_OK(name);
	}
}

static void g_classes(enum grp g)
{
	struct pm_supply *sup;
	struct pm_tzone *tz;
	struct pm_devfreq *df;
	struct pm_profile pp;
	struct pm_powercap pc;
	struct pm_regulator *reg;
	struct pm_devices dl = { NULL, 0, 0 };
	struct pm_wsrc *ws;
	struct pm_opp_entry *opp;
	int n;

	switch (g) {
	case G_SUPPLY:
		n = pm_supplies_read(&ctx, &sup);
		for (int i = 0; i < n; i++) {
			STR_OK(sup[i].type);
			STR_OK(sup[i].status);
			STR_OK(sup[i].model);
		}
		free(sup);
		break;
	case G_THERMAL:
		n = pm_tzones_read(&ctx, &tz);
		for (int i = 0; i < n; i++) {
			STR_OK(tz[i].type);
			STR_OK(tz[i].policy);
			STR_OK(tz[i].mode);
		}
		free(tz);
		break;
	case G_DEVFREQ:
		n = pm_devfreqs_read(&ctx, &df);
		for (int i = 0; i < n; i++) {
			STR_OK(df[i].governor);
			STR_OK(df[i].available_frequencies);
		}
		free(df);
		break;
	case G_PROFILE:
		if (pm_profile_read(&ctx, &pp) == 0) {
			STR_OK(pp.current);
			STR_OK(pp.choices);
			CHECK(pp.n_handlers <= PM_MAX_PROFILE_HANDLERS);
		}
		break;
	case G_POWERCAP:
		if (pm_powercap_read(&ctx, &pc) == 0)
			for (int i = 0; i < pc.nzones; i++) {
				STR_OK(pc.zones[i].name);
				CHECK(pc.zones[i].nconstraints <=
				      PM_POWERCAP_CONSTRAINTS);
			}
		pm_powercap_free(&pc);
		break;
	case G_REGULATOR:
		n = pm_regulators_read(&ctx, &reg);
		for (int i = 0; i < n; i++) {
			STR_OK(reg[i].name);
			STR_OK(reg[i].state);
			STR_OK(reg[i].device);
		}
		free(reg);
		break;
	case G_DEVICE:
		n = pm_devices_read(&ctx, "/sys/devices", NULL, NULL, &dl);
		pm_devices_sort(&dl);
		for (int i = 0; i < dl.n; i++) {
			STR_OK(dl.v[i].control);
			STR_OK(dl.v[i].runtime_status);
			STR_OK(dl.v[i].wakeup);
		}
		pm_devices_free(&dl);
		break;
	case G_WAKEUP:
		n = pm_wakeup_sources_read(&ctx, &ws);
		for (int i = 0; i < n; i++)
			STR_OK(ws[i].name);
		free(ws);
		break;
	case G_OPP:
		n = pm_opp_list(&ctx, NULL, &opp);
		for (int i = 0; i < n; i++) {
			STR_OK(opp[i].description);
			STR_OK(opp[i].error);
		}
		free(opp);
		break;
	default:
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct file *f;
	int probe;

	if (!size)
		return 0;
	f = &files[data[0] % NFILES];
	put(ctx.rootfd, f->path, data + 1, size - 1);
	switch (f->grp) {
	case G_VALUE:
		g_value(f->path, data + 1, size - 1);
		break;
	case G_CPUS:
		g_cpus();
		break;
	case G_POLICY:
		g_policy();
		break;
	case G_IDLE:
		g_idle();
		break;
	case G_DEBUGFS:
		g_debugfs();
		break;
	case G_SLEEP:
		g_sleep();
		break;
	case G_SWAP:
		g_swap();
		break;
	case G_RTC:
		g_rtc();
		break;
	case G_PROC:
		g_proc();
		break;
	default:
		g_classes(f->grp);
		break;
	}
	switch (f->grp) {
	case G_CPUS:
	case G_POLICY:
	case G_IDLE:
	case G_PROC:
	case G_POWERCAP:
		sampler(f);
		break;
	default:
		break;
	}
	put(ctx.rootfd, f->path, f->text, strlen(f->text));
	pm_err_clear(&ctx);
	/* Every reader closed what it opened. */
	probe = open("/dev/null", O_RDONLY | O_CLOEXEC);
	close(probe);
	if (probe != lowest_fd)
		fd_leaks(f->path, probe);
	return 0;
}
