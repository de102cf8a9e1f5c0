// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procfs tables: /proc/stat's per-CPU tick counters, /proc/uptime and
 * /proc/interrupts' per-CPU columns, parsed by tokens (chip names may be
 * wider than their column), never by fixed offsets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc.h"
#include "core.h"
#include "cpuset.h"

/* The ten cpu fields of /proc/stat; guest and guest_nice are in user. */
#define STAT_FIELDS 10

static const char *skip_sp(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

/* One decimal token at *p; advances.  -1 if there is none. */
static int num(const char **p, uint64_t *v)
{
	const char *q = skip_sp(*p);
	uint64_t x = 0;

	if (*q < '0' || *q > '9')
		return -1;
	while (*q >= '0' && *q <= '9') {
		if (__builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, (uint64_t)(*q - '0'), &x))
			return -1;
		q++;
	}
	*p = q;
	*v = x;
	return 0;
}

int pm_proc_stat_parse(const char *text, struct pm_cpu_ticks *ticks,
		       unsigned nticks)
{
	int n = 0;

	for (unsigned i = 0; i < nticks; i++) {
		ticks[i].total = ticks[i].idle = PM_UNKNOWN;
		for (int k = 0; k < PM_ST_FIELDS; k++)
			ticks[i].f[k] = PM_UNKNOWN;
	}
	for (const char *p = text; p && *p; p = next_line(p)) {
		uint64_t cpu, f[STAT_FIELDS] = { 0 }, total = 0;
		const char *q = p + 3;
		int k;

		/* "cpu  ..." (two spaces) is the sum; "cpuN ..." per CPU. */
		if (strncmp(p, "cpu", 3) || q[0] < '0' || q[0] > '9')
			continue;
		if (num(&q, &cpu) < 0 || (*q != ' ' && *q != '\t'))
			return -EINVAL;
		for (k = 0; k < STAT_FIELDS; k++)
			if (num(&q, &f[k]) < 0)
				break;
		/* Old kernels print fewer fields: at least user..idle. */
		if (k < 4)
			return -EINVAL;
		for (int i = 0; i < k && i < 8; i++)
			total += f[i];
		if (cpu < nticks) {
			ticks[cpu].total = total;
			ticks[cpu].idle = f[3] + (k > 4 ? f[4] : 0);
			/* A line again: its own fields only, none left over. */
			for (int i = 0; i < PM_ST_FIELDS; i++)
				ticks[cpu].f[i] = i < k ? f[i] : PM_UNKNOWN;
		}
		n++;
	}
	return n;
}

/*
 * A row's description, q after its counts, into desc.  Device rows:
 * chip, hwirq and trigger, then the action names after a run of spaces
 * ("IR-PCI-MSI 32-edge      xhci_hcd"): the action names are kept.  Arch
 * rows are one phrase ("Local timer interrupts").
 */
static void irq_desc(const char *q, const char *eol, char *desc, size_t size)
{
	size_t dl;

	q = skip_sp(q);
	dl = eol ? (size_t)(eol - q) : strlen(q);
	for (const char *a = q + dl; a > q + 1; a--) {
		if (a[-1] == ' ' && a[-2] == ' ') {
			dl -= (size_t)(a - q);
			q = a;
			break;
		}
	}
	if (dl >= size)
		dl = size - 1;
	snprintf(desc, size, "%.*s", (int)dl, q);
}

/*
 * The header names the online CPUs' columns: "CPU0 CPU1 CPU4 ...".  Each
 * goes to col (*ncol of them), and a selected CPU's count starts at 0;
 * *pp is left at the end of the header line.
 */
static int interrupts_head(const char **pp, const struct pm_cpuset *sel,
			   unsigned *col, int *ncol, uint64_t *percpu,
			   unsigned npercpu)
{
	const char *p;

	for (p = skip_sp(*pp); *p && *p != '\n'; p = skip_sp(p)) {
		uint64_t c;

		if (strncmp(p, "CPU", 3))
			return -EINVAL;
		p += 3;
		if (num(&p, &c) < 0 || c >= PM_MAX_CPUS)
			return -EINVAL;
		if (*ncol < PM_MAX_CPUS)
			col[(*ncol)++] = (unsigned)c;
		if (c < npercpu && pm_cpuset_isset(sel, (unsigned)c))
			percpu[c] = 0;
	}
	*pp = p;
	return 0;
}

int pm_proc_interrupts_parse(const char *text, const struct pm_cpuset *sel,
			     uint64_t *percpu, unsigned npercpu,
			     struct pm_irq_row *rows, int maxrows)
{
	unsigned col[PM_MAX_CPUS];
	uint64_t val[PM_MAX_CPUS];
	int ncol = 0, nrows = 0;
	const char *p = text;

	/* A CPU without a column (offline) has no count, not 0. */
	for (unsigned i = 0; i < npercpu; i++)
		percpu[i] = PM_UNKNOWN;
	if (!p || !*p || interrupts_head(&p, sel, col, &ncol, percpu,
					 npercpu) < 0)
		return -EINVAL;
	for (p = next_line(p); p && *p; p = next_line(p)) {
		const char *q = skip_sp(p), *colon = strchr(q, ':');
		const char *eol = strchr(q, '\n');
		struct pm_irq_row row;
		int k;

		if (!colon || (eol && colon > eol))
			continue;
		memset(&row, 0, sizeof(row));
		snprintf(row.label, sizeof(row.label), "%.*s",
			 (int)(colon - q), q);
		q = colon + 1;
		for (k = 0; k < ncol; k++) {
			const char *save = q;

			if (num(&q, &val[k]) < 0) {
				q = save;
				break;
			}
		}
		/* ERR: and MIS: have one count for the machine: not a CPU's. */
		if (k < ncol)
			continue;
		for (k = 0; k < ncol; k++) {
			if (!pm_cpuset_isset(sel, col[k]))
				continue;
			row.total += val[k];
			if (col[k] < npercpu)
				percpu[col[k]] += val[k];
		}
		irq_desc(q, eol, row.desc, sizeof(row.desc));
		if (nrows < maxrows)
			rows[nrows++] = row;
	}
	return nrows;
}

int pm_uptime_parse(const char *text, double *s)
{
	const char *p = text;
	uint64_t ip, fp = 0;
	unsigned nd = 0;
	double scale = 1;

	/* "12345.67 23456.78": exactly, no locale-dependent strtod. */
	if (*p < '0' || *p > '9' || num(&p, &ip) < 0)
		return -EINVAL;
	if (*p == '.') {
		const char *q = ++p;

		if (*p < '0' || *p > '9' || num(&p, &fp) < 0)
			return -EINVAL;
		nd = (unsigned)(p - q);
		if (nd > 9)
			return -EINVAL;
	}
	if (*p && *p != ' ' && *p != '\n')
		return -EINVAL;
	for (unsigned i = 0; i < nd; i++)
		scale *= 10;
	*s = (double)ip + (double)fp / scale;
	return 0;
}

int pm_uptime_read(struct pm_ctx *ctx, double *s)
{
	char buf[128];
	ssize_t n = pm_attr_read(ctx, "/proc/uptime", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	return pm_uptime_parse(buf, s) < 0 ?
		       pm_err_set(ctx, "parse", "/proc/uptime", buf, EINVAL,
				  "not an uptime") :
		       0;
}

/* ---------------------------------------------------------------- files */

int pm_proc_stat_read(struct pm_ctx *ctx, struct pm_cpu_ticks *ticks,
		      unsigned nticks)
{
	char *text = NULL;
	ssize_t n = pm_file_read(ctx, PM_PROC_STAT, &text);
	int r;

	if (n < 0)
		return (int)n;
	r = pm_proc_stat_parse(text, ticks, nticks);
	free(text);
	return r;
}

int pm_irq_table_read(struct pm_ctx *ctx, const struct pm_cpuset *sel,
		      struct pm_irq_table *t)
{
	char *text = NULL;
	ssize_t n = pm_file_read(ctx, PM_PROC_INTERRUPTS, &text);
	int r;

	if (n < 0)
		return (int)n;
	r = pm_irq_table_parse(text, sel, t);
	free(text);
	return r;
}

int pm_proc_interrupts_check(struct pm_ctx *ctx)
{
	char *text = NULL;
	ssize_t n = pm_file_read(ctx, PM_PROC_INTERRUPTS, &text);

	free(text);
	return n < 0 ? (int)n : 0;
}

/* ---------------------------------------------------------------- table */

void pm_irq_table_free(struct pm_irq_table *t)
{
	free(t->col);
	free(t->rows);
	free(t->cells);
	memset(t, 0, sizeof(*t));
}

/* Room for rows rows of ncol cells each. */
static int table_room(struct pm_irq_table *t, int rows, int ncol)
{
	size_t need;

	if (!t->col) {
		t->col = calloc(PM_MAX_CPUS, sizeof(*t->col));
		if (!t->col)
			return -ENOMEM;
	}
	if (rows > t->caprows) {
		int n = t->caprows ? t->caprows : 64;
		struct pm_irq_row *nr;

		while (n < rows)
			n *= 2;
		nr = realloc(t->rows, (size_t)n * sizeof(*nr));
		if (!nr)
			return -ENOMEM;
		t->rows = nr;
		t->caprows = n;
	}
	need = (size_t)t->caprows * (size_t)(ncol ? ncol : 1);
	if (need > t->capcells) {
		uint64_t *nc = realloc(t->cells, need * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		t->cells = nc;
		t->capcells = need;
	}
	return 0;
}

/*
 * The header names the online CPUs' columns: "CPU0 CPU1 CPU4 ...", in
 * ascending order as the kernel lists them.  keep[k]: header column k's
 * place among the kept (selected) ones, or -1; *nhead columns in all.
 */
static int table_head(const char **pp, const struct pm_cpuset *sel,
		      struct pm_irq_table *t, int *keep, int *nhead)
{
	int64_t last = -1;
	const char *p;

	for (p = skip_sp(*pp); *p && *p != '\n'; p = skip_sp(p)) {
		uint64_t c;

		if (strncmp(p, "CPU", 3) || *nhead >= PM_MAX_CPUS)
			return -EINVAL;
		p += 3;
		/* One column per CPU. */
		if (num(&p, &c) < 0 || c >= PM_MAX_CPUS || (int64_t)c <= last)
			return -EINVAL;
		last = (int64_t)c;
		keep[*nhead] = -1;
		if (pm_cpuset_isset(sel, (unsigned)c)) {
			keep[*nhead] = t->ncol;
			t->col[t->ncol++] = (unsigned)c;
		}
		(*nhead)++;
	}
	*pp = p;
	return 0;
}

/* One line of the table, p at its start: a row of counts, or skipped
 * (no label, or one count for the machine); -ENOMEM. */
static int table_row(struct pm_irq_table *t, const char *p, const int *keep,
		     int nhead)
{
	const char *q = skip_sp(p), *colon = strchr(q, ':');
	const char *eol = strchr(q, '\n');
	struct pm_irq_row *row;
	uint64_t *cell;
	int k, r;

	if (!colon || (eol && colon > eol))
		return 0;
	if (t->nrows >= PM_IRQ_TABLE_ROWS) {
		t->cut++;
		return 0;
	}
	r = table_room(t, t->nrows + 1, t->ncol);
	if (r < 0)
		return r;
	row = &t->rows[t->nrows];
	cell = &t->cells[(size_t)t->nrows * (size_t)t->ncol];
	memset(row, 0, sizeof(*row));
	snprintf(row->label, sizeof(row->label), "%.*s", (int)(colon - q), q);
	q = colon + 1;
	for (k = 0; k < nhead; k++) {
		const char *save = q;
		uint64_t v;

		if (num(&q, &v) < 0) {
			q = save;
			break;
		}
		if (keep[k] >= 0) {
			cell[keep[k]] = v;
			row->total += v;
		}
	}
	/* ERR: and MIS: have one count for the machine: not a CPU's. */
	if (k < nhead)
		return 0;
	irq_desc(q, eol, row->desc, sizeof(row->desc));
	t->nrows++;
	return 0;
}

int pm_irq_table_parse(const char *text, const struct pm_cpuset *sel,
		       struct pm_irq_table *t)
{
	/* Per header column: its place among the kept ones, or -1. */
	int *keep = malloc(PM_MAX_CPUS * sizeof(*keep));
	int nhead = 0, r = 0;
	const char *p = text;

	if (!keep)
		return -ENOMEM;
	t->nrows = t->ncol = t->cut = 0;
	if (!p || !*p) {
		r = -EINVAL;
		goto out;
	}
	r = table_room(t, 1, 1);
	if (r < 0)
		goto out;
	r = table_head(&p, sel, t, keep, &nhead);
	for (p = next_line(p); r >= 0 && p && *p; p = next_line(p))
		r = table_row(t, p, keep, nhead);
out:
	free(keep);
	if (r < 0)
		t->nrows = t->ncol = 0;
	return r < 0 ? r : 0;
}

int pm_irq_table_copy(struct pm_irq_table *dst, const struct pm_irq_table *src)
{
	int r = table_room(dst, src->nrows ? src->nrows : 1, src->ncol);

	if (r < 0)
		return r;
	dst->ncol = src->ncol;
	dst->nrows = src->nrows;
	dst->cut = src->cut;
	memcpy(dst->col, src->col, (size_t)src->ncol * sizeof(*dst->col));
	memcpy(dst->rows, src->rows, (size_t)src->nrows * sizeof(*dst->rows));
	memcpy(dst->cells, src->cells,
	       (size_t)src->nrows * (size_t)src->ncol * sizeof(*dst->cells));
	return 0;
}

uint64_t pm_irq_table_cpu(const struct pm_irq_table *t, unsigned cpu)
{
	uint64_t sum = 0;
	int k;

	for (k = 0; k < t->ncol && t->col[k] != cpu; k++)
		;
	if (k == t->ncol)
		return PM_UNKNOWN;
	for (int r = 0; r < t->nrows; r++)
		sum += t->cells[(size_t)r * (size_t)t->ncol + (size_t)k];
	return sum;
}
