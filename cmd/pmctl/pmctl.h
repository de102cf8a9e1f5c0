/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pmctl's subcommands and what they share. */
#ifndef PMCTL_H
#define PMCTL_H

#include <string.h>

#include "pm.h"

/* pmctl's own options (main.c parses them with the shared ones). */
enum {
	PMCTL_O_GOVERNOR,
	PMCTL_O_MIN,
	PMCTL_O_MAX,
	PMCTL_O_SPEED,
	PMCTL_O_EPP,
	PMCTL_O_HOLD,
	PMCTL_O_CHARGE_START,
	PMCTL_O_CHARGE_STOP,
	PMCTL_O_CHARGE_BEHAVIOUR,
	PMCTL_O_REDACT,
	PMCTL_O_RUNTIME,
	PMCTL_O_WAKEUP,
	PMCTL_NOPTS,
};
#define PMCTL_OPT_BASE PM_OPT_TOOL
#define PMCTL_BIT(o) (1u << (o))

struct pmctl {
	struct pm_tool t;
	const char *opt[PMCTL_NOPTS];	/* the value, "" for a flag, NULL */
	int dashdash;			/* words before "--" after the
					 * command word, -1 without it */
	struct pm_ctx ctx;
	struct pm_out o;
	struct pm_cpus cpus;
	bool redact;		/* dump --redact */
};

/* The policies, read once; *out is malloc'ed. */
int pmctl_policies(struct pmctl *p, struct pm_policy **out);
int pmctl_policies_fields(struct pmctl *p, unsigned fields,
			  struct pm_policy **out);
int pmctl_freq_set(struct pmctl *p, int argc, char **argv);
int cmd_boost(struct pmctl *p, int argc, char **argv);
int cmd_smt(struct pmctl *p, int argc, char **argv);
int cmd_latency(struct pmctl *p, int argc, char **argv);
/* The setters behind the views (argv[0] is the verb for idle and cpu). */
/* A latency: a bare number is µs; us, ms, s; at most 2000 s (exit 2). */
uint64_t pmctl_latency_arg(struct pmctl *p, const char *cmd, const char *s);
int pmctl_idle_set(struct pmctl *p, int argc, char **argv);
int pmctl_cpu_set(struct pmctl *p, int argc, char **argv);
int pmctl_profile_set(struct pmctl *p, const char *name);
int pmctl_devfreq_set(struct pmctl *p, int argc, char **argv);
int pmctl_supply_set(struct pmctl *p, int argc, char **argv);
/*
 * A policy's frequencies whole: the ones it keeps, or the file read again
 * when it has more (*buf then malloc'ed).  The count, -1 without a list.
 */
int pmctl_policy_freqs(struct pm_ctx *ctx, const struct pm_policy *p,
		       bool boost, const uint64_t **v, uint64_t **buf);
/* One policy as the JSON object CLI.md gives for `pmctl freq --json`. */
/* ctx: where to read a frequency list longer than the policy keeps. */
void pmctl_policy_json(struct pm_ctx *ctx, struct pm_out *o,
		       const struct pm_policy *p);

/* A read-only view's steps (common.c): take only "show" and the output
 * options, open the document, close it (returns the exit status). */
void pmctl_view_args(struct pmctl *p, const char *cmd, int argc, char **argv);
void pmctl_view_begin(struct pmctl *p);
int pmctl_view_end(struct pmctl *p);
/* The options a setter takes beyond its own. */
#define WRITE_SEEN                                                           \
	(PM_SEEN_FORMAT | PM_SEEN_OUTPUT | PM_SEEN_WAIT | PM_SEEN_DRY_RUN)
/* The CPUs into p->cpus, or exit 3 when there are none. */
void pmctl_read_cpus(struct pmctl *p);
/* The CPUs of -c (default all present ones) into sel, after the CPUs
 * are read: exit 2 for a bad list. */
void pmctl_select_cpus(struct pmctl *p, struct pm_cpuset *sel);
/* A kernel name given by the user: letters, digits, '_', '-', '.', ':',
 * at most max bytes, not "." or "..". */
bool pmctl_word_ok(const char *s, size_t max);
/* domains.c: regulators, PM domains and clocks; powercap zones. */
int cmd_domains(struct pmctl *p, int argc, char **argv);
int cmd_powercap(struct pmctl *p, int argc, char **argv);

/* The sections of `pmctl status`, each also a subcommand's document. */
void pmctl_cpufreq_json(struct pm_ctx *ctx, struct pm_out *o,
			const struct pm_policy *pol, int npol,
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

/* A write (lib/writer.c) with pmctl's context; w->arg is the pmctl. */
/* pm_writer_begin checks --output before any write. */
static inline void pmctl_write_begin(struct pmctl *p, struct pm_writer *w)
{
	pm_writer_begin(w, &p->t, &p->ctx, &p->o);
	w->arg = p;
}

/* pmctl's own options by PMCTL_O_*: the long name, getopt's has_arg. */
struct pmctl_own {
	const char *name;
	int has_arg;
};
extern const struct pmctl_own pmctl_own[PMCTL_NOPTS];
/* Refuse pmctl's own options outside allowed (PMCTL_BIT): exit 2. */
void pmctl_opts_only(struct pmctl *p, unsigned allowed, const char *what);

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
int cmd_device(struct pmctl *p, int argc, char **argv);
int cmd_recover(struct pmctl *p, int argc, char **argv);
int cmd_tune(struct pmctl *p, int argc, char **argv);

#endif /* PMCTL_H */
