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
	fputs("Usage: pmctl [options] [COMMAND]\n"
	      "\n"
	      "Show CPU and device power management.\n"
	      "\n"
	      "Commands:\n"
	      "  status           everything below on one screen (the "
	      "default)\n"
	      "  freq [show]      cpufreq policies: driver, governor, limits, "
	      "EPP, boost\n"
	      "  idle [show]      cpuidle driver, governor and states\n"
	      "  cpu [show]       present, possible, online, offline CPUs and "
	      "SMT\n"
	      "  sleep            sleep states, mem_sleep, hibernation, suspend "
	      "statistics\n"
	      "  supply           AC adapters and batteries\n"
	      "  thermal          thermal zones\n"
	      "  devfreq [show]   devfreq devices (GPUs, memory controllers)\n"
	      "  profile          the ACPI platform profile\n"
	      "  device [show]    devices' runtime PM and wakeup settings\n"
	      "  device set PATH... [--runtime auto|on] [--wakeup "
	      "enabled|disabled]\n"
	      "\n"
	      "Options:\n"
	      "  -c, --cpu LIST       freq: the policies of these CPUs (0-3,8, "
	      "all, online)\n"
	      "  -n, --dry-run        device set: print each write, change "
	      "nothing\n"
	      "      --wait[=SEC]     device set: wait for the writers' lock\n"
	      "  -F, --format FMT     human, json or kv\n"
	      "  -J, --json           same as --format json\n"
	      "  -o, --output FILE    write the report to FILE atomically\n"
	      "      --sysroot DIR    read /sys and /proc under DIR\n"
	      "  -q, --quiet          fewer messages on stderr\n"
	      "  -v, --verbose        more messages on stderr\n"
	      "  -h, --help           show this help\n"
	      "  -V, --version        show the version\n"
	      "\n"
	      "Exit status: 0 done, 1 failed, 2 usage error, 3 not supported "
	      "here, 4 busy.\n"
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
	  "kernel lacks says 'not available'.\n"
	  "\n"
	  "Options: -F/--format human|json|kv, -J, -o FILE, --sysroot DIR.\n" },
	{ "freq", cmd_freq,
	  "Usage: pmctl [options] freq [show]\n"
	  "\n"
	  "The cpufreq policies: CPUs, driver, governor, current and hardware\n"
	  "limits, available governors and frequencies, EPP and boost.  With\n"
	  "-c LIST, the policies of those CPUs.\n"
	  "\n"
	  "Options: -c LIST, -F/--format human|json|kv, -J, -o FILE,\n"
	  "--sysroot DIR.\n" },
	{ "idle", cmd_idle,
	  "Usage: pmctl [options] idle [show]\n"
	  "\n"
	  "The cpuidle driver and governor, and each idle state: index, name,\n"
	  "exit latency, target residency, on how many online CPUs it is\n"
	  "disabled, and its description.\n" },
	{ "cpu", cmd_cpu,
	  "Usage: pmctl [options] cpu [show]\n"
	  "\n"
	  "Present, possible, online and offline CPUs as range lists, SMT\n"
	  "control, and the CPUs that cannot be hot-plugged.\n" },
	{ "sleep", cmd_sleep,
	  "Usage: pmctl [options] sleep\n"
	  "\n"
	  "The sleep states the kernel offers, mem_sleep, hibernation modes,\n"
	  "pm_test levels, the resume device and the suspend statistics with\n"
	  "the last failure.\n" },
	{ "supply", cmd_supply,
	  "Usage: pmctl [options] supply\n"
	  "\n"
	  "AC adapters and batteries: status, capacity, power draw and the\n"
	  "time left (from energy and power, or charge and current).\n" },
	{ "thermal", cmd_thermal,
	  "Usage: pmctl [options] thermal\n"
	  "\n"
	  "Thermal zones: type, temperature, policy and mode.\n" },
	{ "devfreq", cmd_devfreq,
	  "Usage: pmctl [options] devfreq [show]\n"
	  "\n"
	  "devfreq devices: governor and current, minimum and maximum\n"
	  "frequencies (Hz).\n" },
	{ "profile", cmd_profile,
	  "Usage: pmctl [options] profile\n"
	  "\n"
	  "The ACPI platform profile and its choices.\n" },
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
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "dry-run", no_argument, NULL, 'n' },
		/* A subcommand's own options, handed to it as words. */
		{ "runtime", required_argument, NULL, PM_OPT_TOOL },
		{ "wakeup", required_argument, NULL, PM_OPT_TOOL },
		{ NULL, 0, NULL, 0 },
	};
	static struct pmctl p;
	char *args[64], *pass[16];
	int nargs = 0, npass = 0, c;
	bool help = false;

	pm_tool_init(&p.t, "pmctl", usage);
	opterr = 0;
	/* Options may follow the subcommand: collect the words apart. */
	while (optind < argc) {
		c = getopt_long(argc, argv, "-:n" PM_SHARED_SHORTOPTS, longopts,
				NULL);
		if (c == -1)
			break;
		if (c == 1) {
			if (nargs >= (int)(sizeof(args) / sizeof(args[0])))
				pm_usage_error(&p.t, "too many arguments");
			args[nargs++] = optarg;
			continue;
		}
		if (c == PM_OPT_TOOL) {
			/* --opt VALUE or --opt=VALUE, passed on as written. */
			if (npass + 2 > (int)(sizeof(pass) / sizeof(pass[0])))
				pm_usage_error(&p.t, "too many arguments");
			if (optarg == argv[optind - 1])
				pass[npass++] = argv[optind - 2];
			pass[npass++] = argv[optind - 1];
			continue;
		}
		if (c == 'h') {
			help = true;
			continue;
		}
		if (c == 'n') {
			p.t.dry_run = true;
			p.t.seen |= PM_SEEN_DRY_RUN;
			continue;
		}
		if (!pm_tool_opt(&p.t, c, optarg, argv))
			pm_usage_error(&p.t, "unrecognized option '%s'",
				       argv[optind - 1]);
	}
	while (optind < argc) {
		if (nargs >= (int)(sizeof(args) / sizeof(args[0])))
			pm_usage_error(&p.t, "too many arguments");
		args[nargs++] = argv[optind++];
	}
	/* After the words: none of them is taken for the command. */
	for (int i = 0; i < npass; i++) {
		if (nargs >= (int)(sizeof(args) / sizeof(args[0])))
			pm_usage_error(&p.t, "too many arguments");
		args[nargs++] = pass[i];
	}
	const char *name = nargs ? args[0] : "status";

	if (help && !nargs)
		pm_tool_opt(&p.t, 'h', NULL, argv);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(name, commands[i].name))
			continue;
		if (help) {
			fputs(commands[i].help, stdout);
			return PM_EXIT_OK;
		}
		pm_tool_formats(&p.t, 1u << PM_FMT_HUMAN | 1u << PM_FMT_JSON |
					      1u << PM_FMT_KV);
		pm_tool_ctx(&p.t, &p.ctx);
		p.ctx.dry_run = p.t.dry_run;
		return commands[i].fn(&p, nargs ? nargs - 1 : 0,
				      nargs ? args + 1 : args);
	}
	pm_usage_error(&p.t, "unknown command '%s'", name);
}
