/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmctl's subcommands and what they share. */
#ifndef PMCTL_H
#define PMCTL_H

#include "pm.h"

struct pmctl {
	struct pm_tool t;
	struct pm_ctx ctx;
	struct pm_out o;
	struct pm_cpus cpus;
};

/* The policies, read once; *out is malloc'ed. */
int pmctl_policies(struct pmctl *p, struct pm_policy **out);
/* One policy as the JSON object CLI.md gives for `pmctl freq --json`. */
void pmctl_policy_json(struct pm_out *o, const struct pm_policy *p);

int cmd_status(struct pmctl *p, int argc, char **argv);
int cmd_freq(struct pmctl *p, int argc, char **argv);

#endif /* PMCTL_H */
