// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl: look at CPU and device power management.  The shared options
 * come before or after the subcommand; each subcommand parses the rest.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pmctl.h"

static void usage(FILE *f)
{
	fputs("Usage: pmctl [options] [COMMAND [ARG...]]\n"
	      "\n"
	      "Show and set CPU and device power management.\n"
	      "\n"
	      "Commands:\n"
	      "  status                everything below on one screen (the "
	      "default)\n"
	      "  freq [show]           cpufreq policies: driver, governor, "
	      "limits, EPP\n"
	      "  freq set              --governor G --min F --max F --speed F "
	      "--epp PREF\n"
	      "  boost [on|off]        CPU boost (turbo)\n"
	      "  idle [show]           cpuidle driver, governor and states\n"
	      "  idle disable|enable STATE...   idle states on the CPUs of -c\n"
	      "  idle limit US         disable the states that take longer to "
	      "leave\n"
	      "  idle governor NAME    the cpuidle governor\n"
	      "  cpu [show]            present, possible, online, offline CPUs "
	      "and SMT\n"
	      "  cpu online|offline LIST   CPU hotplug\n"
	      "  smt [on|off]          simultaneous multithreading\n"
	      "  latency US -- CMD     hold a CPU wake-up latency limit while "
	      "CMD runs\n"
	      "  sleep                 sleep states, mem_sleep, hibernation, "
	      "suspend stats\n"
	      "  supply                AC adapters and batteries\n"
	      "  supply set NAME       --charge-start PCT --charge-stop PCT\n"
	      "  thermal               thermal zones\n"
	      "  devfreq [show]        devfreq devices (GPUs, memory "
	      "controllers)\n"
	      "  devfreq set NAME      --governor G --min F --max F\n"
	      "  domains               regulators, PM domains and the clock tree\n"
	      "  powercap              powercap (RAPL) zones: energy, power "
	      "limits\n"
	      "  profile [NAME]        the ACPI platform profile\n"
	      "  device [show] [PATH|SUBSYSTEM]   devices' runtime PM and wakeup\n"
	      "  device set PATH...    --runtime auto|on --wakeup "
	      "enabled|disabled\n"
	      "  tune                  device tunables: value, power-saving "
	      "value, Good/Bad\n"
	      "  dump                  the power-management files of /sys and "
	      "/proc as a tar\n"
	      "  recover               undo what a setter killed mid-apply "
	      "left changed\n"
	      "\n"
	      "Options:\n"
	      "  -c, --cpu LIST       the CPUs (0-3,8, all, online); reading: "
	      "online,\n"
	      "                       writing: all\n"
	      "  -n, --dry-run        print each write as PATH = VALUE, change "
	      "nothing\n"
	      "      --wait[=SEC]     wait for the writers' lock instead of "
	      "exit 4\n"
	      "  -F, --format FMT     human, json or kv (status: also prom)\n"
	      "  -J, --json           same as --format json\n"
	      "  -o, --output FILE    write the report to FILE atomically\n"
	      "      --sysroot DIR    read and write /sys, /proc, /dev under "
	      "DIR\n"
	      "      --redact         dump: replace serial numbers and UUIDs\n"
	      "  -q, --quiet          fewer messages on stderr\n"
	      "  -v, --verbose        more messages on stderr (each write)\n"
	      "  -h, --help           show this help; COMMAND --help for one "
	      "command\n"
	      "  -V, --version        show the version\n"
	      "\n"
	      "Exit status: 0 done, 1 failed or stopped by a signal (after "
	      "restoring what\n"
	      "was written), 2 usage error, 3 not supported here, 4 busy.  "
	      "See pmctl(8).\n",
	      f);
}

static const struct {
	const char *name;
	int (*fn)(struct pmctl *p, int argc, char **argv);
	const char *help;
} commands[] = {
	{ "status", cmd_status,
	  "Usage: pmctl [options] status\n"
	  "\n"
	  "One screen of power management: cpufreq policies, intel_pstate /\n"
	  "amd_pstate, cpuidle, CPUs and SMT, sleep states, platform profile,\n"
	  "power supplies, thermal zones and devfreq devices.  A section the\n"
	  "kernel lacks says 'not available'.  -F prom gives the metrics of\n"
	  "policies, CPUs, sleeps, supplies, thermal zones and devfreq for\n"
	  "node_exporter's textfile collector (with -o FILE).\n"
	  "\n"
	  "Options: -F/--format human|json|kv|prom, -J, -o FILE, --sysroot DIR.\n" },
	{ "freq", cmd_freq,
	  "Usage: pmctl [options] freq [show]\n"
	  "       pmctl [options] freq set [-c LIST] [--governor G] [--min F]\n"
	  "                                [--max F] [--speed F] [--epp PREF]\n"
	  "\n"
	  "show: the cpufreq policies: CPUs, driver, governor, current and\n"
	  "hardware limits, available governors and frequencies, EPP and\n"
	  "boost.  With -c LIST, the policies of those CPUs (default: online).\n"
	  "\n"
	  "set: write the policies of the CPUs in LIST (default: all).  A\n"
	  "frequency is kHz, or has a unit: 1.2GHz, 800MHz.  --speed needs the\n"
	  "userspace governor.  Everything is checked first (a governor or EPP\n"
	  "the driver does not offer: exit 3; min above max or outside the\n"
	  "hardware range: exit 2), written in an order that never has min\n"
	  "above max, and read back; a failure restores every earlier write.\n"
	  "\n"
	  "Options: -c LIST, -n/--dry-run, --wait[=SEC], -F/--format\n"
	  "human|json|kv, -J, -o FILE, --sysroot DIR.\n" },
	{ "boost", cmd_boost,
	  "Usage: pmctl [options] boost [show|on|off]\n"
	  "\n"
	  "Show or set CPU boost (turbo): cpufreq/boost, or intel_pstate's\n"
	  "no_turbo (inverted), or with -c LIST the per-policy boost files\n"
	  "(Linux 6.6+) of those CPUs' policies.\n"
	  "\n"
	  "Options: -c LIST, -n/--dry-run, --wait[=SEC], -F/--format\n"
	  "human|json|kv, -J, -o FILE, --sysroot DIR.\n" },
	{ "idle", cmd_idle,
	  "Usage: pmctl [options] idle [show]\n"
	  "       pmctl [options] idle disable|enable STATE... [-c LIST]\n"
	  "       pmctl [options] idle limit LATENCY_US [-c LIST]\n"
	  "       pmctl [options] idle governor NAME\n"
	  "\n"
	  "show: the cpuidle driver and governor, and each idle state: index,\n"
	  "name, exit latency, target residency, on how many online CPUs it is\n"
	  "disabled, and its description.\n"
	  "\n"
	  "disable, enable: the states named (C6) or numbered (3) on the CPUs\n"
	  "of LIST (default: all online; enable also takes all).  limit:\n"
	  "disable every state whose exit latency is above LATENCY_US (a bare\n"
	  "number is microseconds; 2ms works too) and enable the others.\n"
	  "governor: the cpuidle governor, one of available_governors.\n"
	  "\n"
	  "Options: -c LIST, -n/--dry-run, --wait[=SEC], -F/--format\n"
	  "human|json|kv, -J, -o FILE, --sysroot DIR.\n" },
	{ "cpu", cmd_cpu,
	  "Usage: pmctl [options] cpu [show]\n"
	  "       pmctl [options] cpu online|offline LIST\n"
	  "\n"
	  "show: present, possible, online and offline CPUs as range lists,\n"
	  "SMT control, and the CPUs that cannot be hot-plugged.\n"
	  "\n"
	  "online, offline: hot-plug the CPUs of LIST (0-3,8), in ascending\n"
	  "order; a failure brings back the ones already changed.\n"
	  "\n"
	  "Options: -n/--dry-run, --wait[=SEC], -F/--format human|json|kv,\n"
	  "-J, -o FILE, --sysroot DIR.\n" },
	{ "smt", cmd_smt,
	  "Usage: pmctl [options] smt [show|on|off]\n"
	  "\n"
	  "Show or switch simultaneous multithreading (smt/control).\n"
	  "\n"
	  "Options: -n/--dry-run, --wait[=SEC], -F/--format human|json|kv,\n"
	  "-J, -o FILE, --sysroot DIR.\n" },
	{ "latency", cmd_latency,
	  "Usage: pmctl [options] latency LATENCY_US -- COMMAND [ARG...]\n"
	  "       pmctl [options] latency LATENCY_US --hold\n"
	  "\n"
	  "Hold a CPU wake-up latency limit (PM QoS, /dev/cpu_dma_latency)\n"
	  "while COMMAND runs, and exit with its status; with --hold, until\n"
	  "SIGINT or SIGTERM.  A bare number is microseconds.  The limit ends\n"
	  "when pmctl exits, however it exits.\n"
	  "\n"
	  "Options: --hold, -n/--dry-run, --sysroot DIR.\n" },
	{ "sleep", cmd_sleep,
	  "Usage: pmctl [options] sleep\n"
	  "\n"
	  "The sleep states the kernel offers, mem_sleep, hibernation modes,\n"
	  "pm_test levels, the resume device and the suspend statistics with\n"
	  "the last failure.\n" },
	{ "supply", cmd_supply,
	  "Usage: pmctl [options] supply\n"
	  "       pmctl [options] supply set NAME [--charge-start PCT]\n"
	  "                     [--charge-stop PCT] [--charge-behaviour B]\n"
	  "\n"
	  "AC adapters and batteries: status, capacity, power draw and the\n"
	  "time left (from energy and power, or charge and current).\n"
	  "\n"
	  "set: a battery's charge thresholds (charge_control_start_threshold,\n"
	  "charge_control_end_threshold) and charge_behaviour where its driver\n"
	  "offers them; start must stay below stop, in the end and on the way.\n"
	  "\n"
	  "Options: -n/--dry-run, --wait[=SEC], -F/--format human|json|kv,\n"
	  "-J, -o FILE, --sysroot DIR.\n" },
	{ "thermal", cmd_thermal,
	  "Usage: pmctl [options] thermal\n"
	  "\n"
	  "Thermal zones: type, temperature, policy and mode.\n" },
	{ "devfreq", cmd_devfreq,
	  "Usage: pmctl [options] devfreq [show]\n"
	  "       pmctl [options] devfreq set NAME [--governor G] [--min F]\n"
	  "                                        [--max F]\n"
	  "\n"
	  "devfreq devices: governor and current, minimum and maximum\n"
	  "frequencies (Hz).  set: a frequency is kHz, or has a unit (400MHz);\n"
	  "pmctl writes the Hz the kernel takes.\n"
	  "\n"
	  "Options: -n/--dry-run, --wait[=SEC], -F/--format human|json|kv,\n"
	  "-J, -o FILE, --sysroot DIR.\n" },
	{ "domains", cmd_domains,
	  "Usage: pmctl [options] domains [show]\n"
	  "\n"
	  "Regulators (/sys/class/regulator): voltage and its range, current\n"
	  "limit, state, users and the device; generic PM domains (debugfs\n"
	  "pm_genpd_summary): status, children, performance state and the\n"
	  "devices with their runtime status; the clock tree (debugfs\n"
	  "clk_summary): rate, enable and prepare counts, hardware enable and\n"
	  "consumers.  debugfs needs root; a part that cannot be read says\n"
	  "'not available' and why.\n"
	  "\n"
	  "Options: -F/--format human|json|kv, -J, -o FILE, --sysroot DIR.\n" },
	{ "powercap", cmd_powercap,
	  "Usage: pmctl [options] powercap [show]\n"
	  "\n"
	  "The powercap control types (intel-rapl, intel-rapl-mmio, ...) and\n"
	  "their zones and subzones: name, enabled, energy counter and its\n"
	  "range, and each constraint's power limit, time window and maximum\n"
	  "power.  energy_uj is readable by root only since Linux 5.10.\n"
	  "\n"
	  "Options: -F/--format human|json|kv, -J, -o FILE, --sysroot DIR.\n" },
	{ "profile", cmd_profile,
	  "Usage: pmctl [options] profile [NAME]\n"
	  "\n"
	  "The ACPI platform profile and its choices; with NAME, set it (one\n"
	  "of the choices).\n"
	  "\n"
	  "Options: -n/--dry-run, --wait[=SEC], -F/--format human|json|kv,\n"
	  "-J, -o FILE, --sysroot DIR.\n" },
	{ "dump", cmd_dump,
	  "Usage: pmctl [options] dump [--output FILE.tar[.gz]] [--redact]\n"
	  "\n"
	  "Write the power-management files of /sys and /proc (cpufreq,\n"
	  "cpuidle, CPUs, /sys/power, supplies, thermal, devfreq, regulators,\n"
	  "powercap, RTC, platform profile, device power/ folders with their\n"
	  "driver, subsystem and class links, DMI, /proc/stat, interrupts,\n"
	  "cpuinfo, meminfo, swaps, version, cmdline) as a POSIX tar archive,\n"
	  "to attach to a bug report; gzip-compressed for a name ending in\n"
	  ".gz or .tgz.  Unpacked into a folder, it is a --sysroot.\n"
	  "Write-only files and /sys/power/wakeup_count are never read; files\n"
	  "that cannot be read are left out and counted (-v names them).\n"
	  "--redact replaces serial numbers and UUIDs with REDACTED.\n"
	  "\n"
	  "Options: -o FILE (default: standard output, never a terminal),\n"
	  "--redact, --sysroot DIR, -q, -v.\n" },
	{ "device", cmd_device,
	  "Usage: pmctl [options] device [show] [PATH|SUBSYSTEM...]\n"
	  "       pmctl [options] device set PATH... [--runtime auto|on]\n"
	  "                                          [--wakeup enabled|disabled]\n"
	  "\n"
	  "The devices below /sys/devices with runtime PM or wakeup files:\n"
	  "runtime status and control, times, autosuspend delay, driver,\n"
	  "subsystem, wakeup and its counts.  A PATH (/sys/devices/...,\n"
	  "/sys/class/net/eth0, /sys/bus/pci/devices/...) selects that device\n"
	  "and those below it; a SUBSYSTEM (pci, usb, net, block, ...) the\n"
	  "devices of that bus or class and the parents of a class's devices.\n"
	  "\n"
	  "set writes power/control (auto lets the device suspend, on keeps it\n"
	  "active) and power/wakeup of each PATH, all or nothing, each write\n"
	  "read back.  --wakeup also takes on/off, yes/no, 1/0.\n"
	  "\n"
	  "Options: -n/--dry-run (set: print PATH = VALUE, change nothing),\n"
	  "--wait[=SEC] (set), -F/--format human|json|kv, -J, -o FILE,\n"
	  "--sysroot DIR.\n" },
	{ "tune", cmd_tune,
	  "Usage: pmctl [options] tune [show]\n"
	  "\n"
	  "The device tunables, as powertop lists them: runtime PM of PCI\n"
	  "devices, autosuspend of USB devices (with the delay and the\n"
	  "interfaces' classes), SATA link power of each SCSI host, the PCIe\n"
	  "ASPM policy, HDA audio power save and power_save_controller, the\n"
	  "NMI watchdog, vm.dirty_writeback_centisecs and vm.laptop_mode.\n"
	  "Each with its value, the value that saves power and Good or Bad,\n"
	  "and for a device its name (from pci.ids and usb.ids when they are\n"
	  "installed), class and driver.  A USB device with an interface that\n"
	  "cannot autosuspend is left out.\n"
	  "\n"
	  "Options: -F/--format human|json|kv, -J, -o FILE, --sysroot DIR.\n" },
	{ "recover", cmd_recover,
	  "Usage: pmctl [options] recover\n"
	  "\n"
	  "Put back the files that a pmctl or opp-set killed mid-apply (SIGKILL,\n"
	  "a crash) had changed, from the journal it keeps in /run/pmtools,\n"
	  "last first, each read back.  Every setter does this itself when it\n"
	  "takes the writers' lock; the boot unit runs it.  A journal from an\n"
	  "earlier boot is removed, not restored (the kernel started afresh);\n"
	  "one that does not parse is left as it is, and exit 1.\n"
	  "\n"
	  "Options: -n/--dry-run (print PATH = VALUE, change nothing),\n"
	  "--wait[=SEC], -F/--format human|json|kv, -J, -o FILE, --sysroot DIR.\n" },
};

/* Room for the shared long options, -n, pmctl's own and the end. */
#define PMCTL_NLONGOPTS (16 + PMCTL_NOPTS)

/* The long options: the shared ones, -n, and pmctl's own table. */
static void make_longopts(struct option *longopts)
{
	static const struct option base[] = {
		PM_SHARED_LONGOPTS,
		{ "dry-run", no_argument, NULL, 'n' },
	};
	const size_t nbase = sizeof(base) / sizeof(base[0]);

	_Static_assert(sizeof(base) / sizeof(base[0]) + PMCTL_NOPTS + 1 <=
			       PMCTL_NLONGOPTS,
		       "PMCTL_NLONGOPTS is too small");
	memcpy(longopts, base, sizeof(base));
	for (int i = 0; i < PMCTL_NOPTS; i++)
		longopts[nbase + i] = (struct option){
			pmctl_own[i].name, pmctl_own[i].has_arg, NULL,
			PMCTL_OPT_BASE + i
		};
	longopts[nbase + PMCTL_NOPTS] = (struct option){ NULL, 0, NULL, 0 };
}

/* One option of pmctl's own table, or -h: false for others. */
static bool own_opt(struct pmctl *p, int c, bool *help)
{
	if (c >= PMCTL_OPT_BASE && c < PMCTL_OPT_BASE + PMCTL_NOPTS) {
		int k = c - PMCTL_OPT_BASE;

		if (p->opt[k] && pmctl_own[k].has_arg &&
		    strcmp(p->opt[k], optarg))
			pm_usage_error(&p->t, "--%s given twice",
				       pmctl_own[k].name);
		p->opt[k] = pmctl_own[k].has_arg ? optarg : "";
		return true;
	}
	if (c == 'h') {
		*help = true;
		return true;
	}
	return false;
}

/* Options may follow the subcommand: the words are collected apart into
 * args (the count returned), and words after "--" are a command's
 * (pmctl latency). */
static int parse_args(struct pmctl *p, int argc, char **argv, char **args,
		      bool *help)
{
	struct option longopts[PMCTL_NLONGOPTS];
	int nargs = 0, c;

	make_longopts(longopts);
	opterr = 0;
	while (optind < argc) {
		c = getopt_long(argc, argv, "-:n" PM_SHARED_SHORTOPTS, longopts,
				NULL);
		if (c == -1)
			break;
		if (c == 1)
			args[nargs++] = optarg;
		else if (!own_opt(p, c, help) &&
			 !pm_tool_opt(&p->t, c, optarg, argv))
			pm_usage_error(&p->t, "unrecognized option '%s'",
				       argv[optind - 1]);
	}
	p->dashdash = -1;
	if (optind > 1 && !strcmp(argv[optind - 1], "--"))
		p->dashdash = nargs ? nargs - 1 : 0;
	while (optind < argc)
		args[nargs++] = argv[optind++];
	return nargs;
}

/* The options given before a command is chosen, and the command. */
enum {
	X_REDACT = 1 << 0,
	X_NOT_DUMP = 1 << 1,	/* a command other than dump */
};

/* What the command words decide for the options (each command checks
 * its own: pmctl_opts_only, pm_tool_only). */
static const struct pm_opt_rule rules[] = {
	{ PM_RULE_CONFLICT, X_REDACT, X_NOT_DUMP,
	  "--redact does not apply to pmctl %s" },
};

int main(int argc, char **argv)
{
	static struct pmctl p;
	/* Static: reachable until exit, which ends every command. */
	static char **args;
	const char *name;
	bool help = false;
	int nargs;

	pm_tool_init(&p.t, "pmctl", usage);
	p.t.dry_run_opt = true;
	args = calloc((size_t)argc + 1, sizeof(*args));
	if (!args)
		pm_die(&p.t, PM_EXIT_FAIL, "out of memory");
	nargs = parse_args(&p, argc, argv, args, &help);
	name = nargs ? args[0] : "status";
	if (help && !nargs)
		pm_tool_opt(&p.t, 'h', NULL, argv);
	p.redact = p.opt[PMCTL_O_REDACT] != NULL;
	pm_tool_rules(&p.t,
		      (p.redact ? X_REDACT : 0) |
			      (strcmp(name, "dump") ? X_NOT_DUMP : 0),
		      rules, sizeof(rules) / sizeof(rules[0]), name);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(name, commands[i].name))
			continue;
		if (help) {
			fputs(commands[i].help, stdout);
			return PM_EXIT_OK;
		}
		pm_tool_formats(&p.t, 1u << PM_FMT_HUMAN | 1u << PM_FMT_JSON |
					      1u << PM_FMT_KV |
					      (strcmp(name, "status") ?
						       0u :
						       1u << PM_FMT_PROM));
		pm_tool_ctx(&p.t, &p.ctx);
		p.ctx.dry_run = p.t.dry_run;
		return commands[i].fn(&p, nargs ? nargs - 1 : 0,
				      nargs ? args + 1 : args);
	}
	pm_usage_error(&p.t, "unknown command '%s'", name);
}
