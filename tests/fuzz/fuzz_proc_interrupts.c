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
	free(s);
	free(pc);
	free(all);
	free(none);
	free(one);
	return 0;
}
