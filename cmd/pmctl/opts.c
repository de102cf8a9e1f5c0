// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl's own options: their names (main.c parses them with the shared
 * ones), and the check every command makes of those it takes.
 */
#include <getopt.h>

#include "pmctl.h"

/* The subcommands' own options, parsed here with the shared ones so
 * that all of them may come before or after the command words. */
const struct pmctl_own pmctl_own[PMCTL_NOPTS] = {
	[PMCTL_O_GOVERNOR] = { "governor", required_argument },
	[PMCTL_O_MIN] = { "min", required_argument },
	[PMCTL_O_MAX] = { "max", required_argument },
	[PMCTL_O_SPEED] = { "speed", required_argument },
	[PMCTL_O_EPP] = { "epp", required_argument },
	[PMCTL_O_HOLD] = { "hold", no_argument },
	[PMCTL_O_CHARGE_START] = { "charge-start", required_argument },
	[PMCTL_O_CHARGE_STOP] = { "charge-stop", required_argument },
	[PMCTL_O_CHARGE_BEHAVIOUR] = { "charge-behaviour",
				       required_argument },
	[PMCTL_O_REDACT] = { "redact", no_argument },
	[PMCTL_O_RUNTIME] = { "runtime", required_argument },
	[PMCTL_O_WAKEUP] = { "wakeup", required_argument },
};

void pmctl_opts_only(struct pmctl *p, unsigned allowed, const char *what)
{
	for (int i = 0; i < PMCTL_NOPTS; i++)
		if (p->opt[i] && !(allowed & (1u << i)))
			pm_usage_error(&p->t, "--%s does not apply to %s",
				       pmctl_own[i].name, what);
}
