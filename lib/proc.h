/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: procfs tables: /proc/stat ticks, /proc/uptime, /proc/interrupts
 * (lib/proc.c).
 */
#ifndef PM_PROC_H
#define PM_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "cpuset.h"

/* /proc/stat's per-CPU fields, in its order. */
enum pm_stat_field {
	PM_ST_USER,
	PM_ST_NICE,
	PM_ST_SYSTEM,
	PM_ST_IDLE,
	PM_ST_IOWAIT,
	PM_ST_IRQ,
	PM_ST_SOFTIRQ,
	PM_ST_STEAL,
	PM_ST_FIELDS,
};

/* /proc/stat cpu fields in USER_HZ ticks. */
struct pm_cpu_ticks {
	uint64_t total;		/* every field but guest (inside user) */
	uint64_t idle;		/* idle + iowait */
	uint64_t f[PM_ST_FIELDS];	/* PM_UNKNOWN: an older kernel's line */
};

/* /proc/uptime's first figure: 0 or -errno (-EINVAL: malformed). */
int pm_uptime_parse(const char *text, double *s);
int pm_uptime_read(struct pm_ctx *ctx, double *s);

struct pm_irq_row {
	char label[16];		/* "24", "LOC", "NMI" */
	char desc[64];		/* the action names or the arch row's text */
	uint64_t total;		/* over the sampled CPUs */
};

/*
 * /proc/interrupts with each count kept per row and CPU: the kernel's
 * counts are 32-bit and wrap one by one, so deltas are taken per cell.
 */
struct pm_irq_table {
	int ncol;		/* columns kept: the selected CPUs listed */
	unsigned *col;		/* their CPU numbers, ascending */
	int nrows, caprows;
	struct pm_irq_row *rows;
	uint64_t *cells;	/* [row * ncol + k] */
	size_t capcells;
	int cut;		/* rows past PM_IRQ_TABLE_ROWS left out */
};

/* Rows kept of a /proc/interrupts: far more than any machine has. */
#define PM_IRQ_TABLE_ROWS 65536

/*
 * Parse into t (grown as needed; zero it first): rows with a count per
 * listed CPU, columns of the CPUs in sel only.  Rows that have one count
 * for the machine (ERR:, MIS:) are left out.  0, -EINVAL, -ENOMEM.
 */
int pm_irq_table_parse(const char *text, const struct pm_cpuset *sel,
		       struct pm_irq_table *t);
int pm_irq_table_copy(struct pm_irq_table *dst,
		      const struct pm_irq_table *src);
void pm_irq_table_free(struct pm_irq_table *t);
/* A CPU's count over all rows, PM_UNKNOWN without a column. */
uint64_t pm_irq_table_cpu(const struct pm_irq_table *t, unsigned cpu);
/* Parse /proc/stat's cpuN lines into ticks[cpu] (PM_UNKNOWN if absent). */
int pm_proc_stat_parse(const char *text, struct pm_cpu_ticks *ticks,
		       unsigned nticks);
/*
 * Parse /proc/interrupts: per-CPU totals into percpu[cpu] for the CPUs in
 * sel that have a column (the kernel lists the online CPUs only; the
 * others are PM_UNKNOWN), and per-row totals over sel into rows.  Returns
 * the row count.
 */
int pm_proc_interrupts_parse(const char *text, const struct pm_cpuset *sel,
			     uint64_t *percpu, unsigned npercpu,
			     struct pm_irq_row *rows, int maxrows);

/*
 * The readers of the files themselves, for a tool that reads them once
 * (cstate-stat's report since boot): the parsers' results, or -errno of
 * the read with the error record naming the file.
 */
#define PM_PROC_STAT "/proc/stat"
#define PM_PROC_INTERRUPTS "/proc/interrupts"
/* /proc/stat into ticks[cpu] (pm_proc_stat_parse): the CPUs found. */
int pm_proc_stat_read(struct pm_ctx *ctx, struct pm_cpu_ticks *ticks,
		      unsigned nticks);
/* /proc/interrupts into t (pm_irq_table_parse). */
int pm_irq_table_read(struct pm_ctx *ctx, const struct pm_cpuset *sel,
		      struct pm_irq_table *t);
/* Can /proc/interrupts be read?  0 or -errno. */
int pm_proc_interrupts_check(struct pm_ctx *ctx);

#endif /* PM_PROC_H */
