// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procfs tables: /proc/stat's per-CPU tick counters and /proc/interrupts'
 * per-CPU columns, parsed by tokens (chip names may be wider than their
 * column), never by fixed offsets.
 */
#include <errno.h>
#include <string.h>

#include "pm.h"

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

	for (unsigned i = 0; i < nticks; i++)
		ticks[i].total = ticks[i].idle = PM_UNKNOWN;
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
		}
		n++;
	}
	return n;
}

int pm_proc_interrupts_parse(const char *text, const struct pm_cpuset *sel,
			     uint64_t *percpu, unsigned npercpu,
			     struct pm_irq_row *rows, int maxrows)
{
	/* The header names the online CPUs' columns: "CPU0 CPU1 CPU4 ...". */
	unsigned col[PM_MAX_CPUS];
	uint64_t val[PM_MAX_CPUS];
	int ncol = 0, nrows = 0;
	const char *p = text;

	/* A CPU without a column (offline) has no count, not 0. */
	for (unsigned i = 0; i < npercpu; i++)
		percpu[i] = PM_UNKNOWN;
	if (!p || !*p)
		return -EINVAL;
	for (p = skip_sp(p); *p && *p != '\n'; p = skip_sp(p)) {
		uint64_t c;

		if (strncmp(p, "CPU", 3))
			return -EINVAL;
		p += 3;
		if (num(&p, &c) < 0 || c >= PM_MAX_CPUS)
			return -EINVAL;
		if (ncol < PM_MAX_CPUS)
			col[ncol++] = (unsigned)c;
		if (c < npercpu && pm_cpuset_isset(sel, (unsigned)c))
			percpu[c] = 0;
	}
	for (p = next_line(p); p && *p; p = next_line(p)) {
		const char *q = skip_sp(p), *colon = strchr(q, ':');
		const char *eol = strchr(q, '\n');
		uint64_t total = 0;
		int k;

		if (!colon || (eol && colon > eol))
			continue;
		struct pm_irq_row row;

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
			total += val[k];
			if (col[k] < npercpu)
				percpu[col[k]] += val[k];
		}
		q = skip_sp(q);
		size_t dl = eol ? (size_t)(eol - q) : strlen(q);

		/*
		 * Device rows: chip, hwirq and trigger, then the action names
		 * after a run of spaces ("IR-PCI-MSI 32-edge      xhci_hcd").
		 * Arch rows are one phrase ("Local timer interrupts").
		 */
		for (const char *a = q + dl; a > q + 1; a--) {
			if (a[-1] == ' ' && a[-2] == ' ') {
				dl -= (size_t)(a - q);
				q = a;
				break;
			}
		}
		if (dl >= sizeof(row.desc))
			dl = sizeof(row.desc) - 1;
		snprintf(row.desc, sizeof(row.desc), "%.*s", (int)dl, q);
		row.total = total;
		if (nrows < maxrows)
			rows[nrows++] = row;
	}
	return nrows;
}
