// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl: look at CPU and device power management.  The shared options
 * come before or after the subcommand; each subcommand parses the rest.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "pmctl.h"

enum {
	OPT_REDACT = PM_OPT_TOOL,
};

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
	      "  dump             the power-management files of /sys and "
	      "/proc as a tar\n"
	      "\n"
	      "Options:\n"
	      "  -c, --cpu LIST       freq: the policies of these CPUs (0-3,8, "
	      "all, online)\n"
	      "  -F, --format FMT     human, json or kv\n"
	      "  -J, --json           same as --format json\n"
	      "  -o, --output FILE    write the report to FILE atomically\n"
	      "      --sysroot DIR    read /sys and /proc under DIR\n"
	      "      --redact         dump: replace serial numbers and UUIDs\n"
	      "  -q, --quiet          fewer messages on stderr\n"
	      "  -v, --verbose        more messages on stderr\n"
	      "  -h, --help           show this help\n"
	      "  -V, --version        show the version\n"
	      "\n"
	      "Exit status: 0 done, 1 failed, 2 usage error, 3 not supported "
	      "here.\n"
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
	{ "dump", cmd_dump,
	  "Usage: pmctl [options] dump [--output FILE.tar] [--redact]\n"
	  "\n"
	  "Write the power-management files of /sys and /proc (cpufreq,\n"
	  "cpuidle, CPUs, /sys/power, supplies, thermal, devfreq, regulators,\n"
	  "powercap, RTC, platform profile, device power/ folders, /proc/stat,\n"
	  "interrupts, cpuinfo, meminfo, swaps) as a POSIX tar archive, to\n"
	  "attach to a bug report.  Unpacked into a folder, it is a --sysroot.\n"
	  "Write-only files and /sys/power/wakeup_count are never read; files\n"
	  "that cannot be read are left out and counted (-v names them).\n"
	  "--redact replaces serial numbers and UUIDs with REDACTED.\n"
	  "\n"
	  "Options: -o FILE (default: standard output, never a terminal),\n"
	  "--redact, --sysroot DIR, -q, -v.\n" },
};

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "redact", no_argument, NULL, OPT_REDACT },
		{ NULL, 0, NULL, 0 },
	};
	static struct pmctl p;
	char *args[64];
	int nargs = 0, c;
	bool help = false;

	pm_tool_init(&p.t, "pmctl", usage);
	opterr = 0;
	/* Options may follow the subcommand: collect the words apart. */
	while (optind < argc) {
		c = getopt_long(argc, argv, "-:" PM_SHARED_SHORTOPTS, longopts,
				NULL);
		if (c == -1)
			break;
		if (c == 1) {
			if (nargs >= (int)(sizeof(args) / sizeof(args[0])))
				pm_usage_error(&p.t, "too many arguments");
			args[nargs++] = optarg;
			continue;
		}
		if (c == 'h') {
			help = true;
			continue;
		}
		if (c == OPT_REDACT) {
			p.redact = true;
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
	const char *name = nargs ? args[0] : "status";

	if (help && !nargs)
		pm_tool_opt(&p.t, 'h', NULL, argv);
	if (p.redact && strcmp(name, "dump"))
		pm_usage_error(&p.t, "--redact does not apply to pmctl %s",
			       name);
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
		return commands[i].fn(&p, nargs ? nargs - 1 : 0,
				      nargs ? args + 1 : args);
	}
	pm_usage_error(&p.t, "unknown command '%s'", name);
}
