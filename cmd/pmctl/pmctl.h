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
	bool redact;		/* dump --redact */
};

/* The policies, read once; *out is malloc'ed. */
int pmctl_policies(struct pmctl *p, struct pm_policy **out);
/* One policy as the JSON object CLI.md gives for `pmctl freq --json`. */
void pmctl_policy_json(struct pm_out *o, const struct pm_policy *p);

/* The sections of `pmctl status`, each also a subcommand's document. */
void pmctl_cpufreq_json(struct pm_out *o, const struct pm_policy *pol, int npol,
			const struct pm_cpufreq_global *g);
void pmctl_cpuidle_json(struct pmctl *p);
void pmctl_cpus_json(struct pmctl *p);
void pmctl_sleep_json(struct pm_out *o, const struct pm_sleep *s);
void pmctl_profile_json(struct pmctl *p);
void pmctl_supply_json(struct pm_out *o, const struct pm_supply *sup,
		       int nsup);
void pmctl_thermal_json(struct pm_out *o, const struct pm_tzone *tz, int ntz);
void pmctl_devfreq_json(struct pm_out *o, const struct pm_devfreq *df,
			int ndf);
void pmctl_human_supplies(struct pmctl *p, const struct pm_supply *s, int n);
void pmctl_human_thermal(struct pmctl *p, const struct pm_tzone *z, int n);
void pmctl_human_devfreq(struct pmctl *p, const struct pm_devfreq *d, int n);

int cmd_status(struct pmctl *p, int argc, char **argv);
int cmd_idle(struct pmctl *p, int argc, char **argv);
int cmd_cpu(struct pmctl *p, int argc, char **argv);
int cmd_sleep(struct pmctl *p, int argc, char **argv);
int cmd_supply(struct pmctl *p, int argc, char **argv);
int cmd_thermal(struct pmctl *p, int argc, char **argv);
int cmd_devfreq(struct pmctl *p, int argc, char **argv);
int cmd_profile(struct pmctl *p, int argc, char **argv);
int cmd_freq(struct pmctl *p, int argc, char **argv);
int cmd_dump(struct pmctl *p, int argc, char **argv);

#endif /* PMCTL_H */
