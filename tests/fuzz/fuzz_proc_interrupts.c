// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "proc_interrupts": pm_proc_interrupts_parse on any text
 * (the input, NUL-terminated), with per-CPU totals and rows in arrays of
 * exactly npercpu and maxrows entries.  Checked: the result is a row
 * count within maxrows or -EINVAL; labels and descriptions are
 * NUL-terminated; the rows do not depend on the CPU selection, except
 * their totals, which are 0 for an empty selection; the per-CPU totals
 * are then all unknown (PM_UNKNOWN: only a selected CPU with a column has
 * one); NULL per-CPU space (as pm_irq_name passes) gives the same rows.
 * The per-cell table (pm_irq_table_parse) of the same text, where it
 * parses (its header must list CPUs in ascending order), has the same
 * rows and the same per-CPU totals, and its columns are selected CPUs.
 */
#include <errno.h>

#include "fuzz.h"

#define NPERCPU 16
#define MAXROWS 48

static void rows_ok(const struct pm_irq_row *r, int n)
{
	for (int i = 0; i < n; i++) {
		CHECK(fz_terminated(r[i].label, sizeof(r[i].label)));
		CHECK(fz_terminated(r[i].desc, sizeof(r[i].desc)));
		CHECK(!strchr(r[i].label, '\n') && !strchr(r[i].desc, '\n'));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t *pc = malloc(NPERCPU * sizeof(*pc));
	struct pm_irq_row *all = malloc(MAXROWS * sizeof(*all));
	struct pm_irq_row *none = malloc(MAXROWS * sizeof(*none));
	struct pm_irq_row *one = malloc(MAXROWS * sizeof(*one));
	struct pm_cpuset sel;
	char *s = fz_str(data, size);
	int n, m, k;

	if (!pc || !all || !none || !one)
		abort();
	memset(&sel, 0xff, sizeof(sel));
	n = pm_proc_interrupts_parse(s, &sel, pc, NPERCPU, all, MAXROWS);
	CHECK(n == -EINVAL || (n >= 0 && n <= MAXROWS));
	if (n > 0)
		rows_ok(all, n);

	pm_cpuset_zero(&sel);
	m = pm_proc_interrupts_parse(s, &sel, pc, NPERCPU, none, MAXROWS);
	CHECK(m == n);
	for (int i = 0; i < NPERCPU; i++)
		CHECK(pc[i] == PM_UNKNOWN);
	for (int i = 0; i < m; i++) {
		CHECK(none[i].total == 0);
		CHECK(!strcmp(none[i].label, all[i].label));
		CHECK(!strcmp(none[i].desc, all[i].desc));
	}

	memset(&sel, 0xff, sizeof(sel));
	k = pm_proc_interrupts_parse(s, &sel, NULL, 0, one, MAXROWS);
	CHECK(k == n);
	for (int i = 0; i < k; i++)
		CHECK(one[i].total == all[i].total &&
		      !strcmp(one[i].label, all[i].label));
	/* Fewer rows than the text has: the first ones, no more. */
	k = pm_proc_interrupts_parse(s, &sel, NULL, 0, one, 1);
	CHECK(k == (n > 1 ? 1 : n));

	/* The per-cell table: CPUs 0..NPERCPU-1 selected. */
	struct pm_irq_table t;
	struct pm_cpuset few;

	memset(&t, 0, sizeof(t));
	pm_cpuset_zero(&few);
	for (unsigned c = 0; c < NPERCPU; c++)
		pm_cpuset_set(&few, c);
	k = pm_irq_table_parse(s, &few, &t);
	CHECK(k == 0 || k == -EINVAL || k == -ENOMEM);
	if (k == 0) {
		CHECK(t.ncol >= 0 && t.ncol <= NPERCPU && t.nrows >= 0);
		for (int i = 0; i < t.ncol; i++) {
			CHECK(t.col[i] < NPERCPU);
			CHECK(i == 0 || t.col[i] > t.col[i - 1]);
		}
		rows_ok(t.rows, t.nrows);
		n = pm_proc_interrupts_parse(s, &few, pc, NPERCPU, all,
					     MAXROWS);
		CHECK(n >= 0 && n == (t.nrows < MAXROWS ? t.nrows : MAXROWS));
		for (int i = 0; i < n; i++)
			CHECK(!strcmp(t.rows[i].label, all[i].label) &&
			      t.rows[i].total == all[i].total);
		for (unsigned c = 0; !t.cut && c < NPERCPU; c++)
			CHECK(pm_irq_table_cpu(&t, c) == pc[c]);
	}
	pm_irq_table_free(&t);
	free(s);
	free(pc);
	free(all);
	free(none);
	free(one);
	return 0;
}
