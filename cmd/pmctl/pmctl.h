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

/*
 * A write: pmctl_write_begin takes the lock (exit 4 when held), each
 * pmctl_plan adds a file (exit 3 when it is not there), and
 * pmctl_write_commit applies all of it or nothing and reports; it
 * returns the exit status.
 */
struct pmctl_w {
	struct pm_txn txn;
	int lockfd;
	bool lock_denied;	/* no right to the lock: not root */
	bool perm_ok;		/* EPERM is the kernel's refusal, not root */
	/* A value read back other than written (NULL: a plain warning). */
	void (*explain)(struct pmctl *p, const struct pm_write *x);
	/* The message for the failed write (NULL: the file and errno). */
	void (*explain_fail)(struct pmctl *p, const struct pm_write *x,
			     char *buf, size_t size);
};

void pmctl_write_begin(struct pmctl *p, struct pmctl_w *w);
/* old NULL: read the file now. Returns the write's index. */
int pmctl_plan(struct pmctl *p, struct pmctl_w *w, const char *path,
	       const char *old, const char *value, unsigned flags, void *tag);
int pmctl_write_commit(struct pmctl *p, struct pmctl_w *w);

int cmd_status(struct pmctl *p, int argc, char **argv);
int cmd_idle(struct pmctl *p, int argc, char **argv);
int cmd_cpu(struct pmctl *p, int argc, char **argv);
int cmd_sleep(struct pmctl *p, int argc, char **argv);
int cmd_supply(struct pmctl *p, int argc, char **argv);
int cmd_thermal(struct pmctl *p, int argc, char **argv);
int cmd_devfreq(struct pmctl *p, int argc, char **argv);
int cmd_profile(struct pmctl *p, int argc, char **argv);
int cmd_freq(struct pmctl *p, int argc, char **argv);
int cmd_device(struct pmctl *p, int argc, char **argv);

#endif /* PMCTL_H */
