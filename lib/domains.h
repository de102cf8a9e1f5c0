/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: clocks, power domains and regulators (lib/domains.c).
 */
#ifndef PM_DOMAINS_H
#define PM_DOMAINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* /sys/class/regulator/regulator.N; an unknown number is PM_UNKNOWN_S64. */
struct pm_regulator {
	unsigned id;
	char name[128];			/* "" when not given */
	char type[16];
	int64_t num_users;
	int64_t microvolts, min_microvolts, max_microvolts;
	int64_t microamps;		/* the current limit */
	char state[16], status[16], opmode[16];
	char suspend_mem[16], suspend_disk[16], suspend_standby[16];
	char device[512];		/* /sys/devices/... or "" */
};

/*
 * Where a sysfs symlink points, as a system path ("/sys/devices/..."):
 * the link's text folded onto its folder, so nothing outside the root
 * is touched.  -errno; EINVAL when path is not a link.
 */
int pm_link_path(struct pm_ctx *ctx, const char *path, char *out,
		 size_t size);

/* Sorted by N; -ENOENT without /sys/class/regulator.  *out is malloc'ed. */
int pm_regulators_read(struct pm_ctx *ctx, struct pm_regulator **out);

/*
 * The debugfs tables are parsed by whitespace and indentation, the
 * columns named by the header, since kernels add columns over time.
 * Strings point into the table's own copy of the text.  A line that
 * fits no known form is skipped and counted in nbad.
 */
struct pm_genpd_dev {
	const char *device;		/* /devices/... path, or (≈6.10+) name */
	const char *runtime_status;	/* NULL when not given */
	int64_t perf;			/* PM_UNKNOWN_S64 without the column */
	const char *managed_by;		/* "SW" / "HW" (≈6.10+), or NULL */
};

struct pm_genpd {
	const char *name;
	const char *status;		/* "on", "off" */
	int64_t idle_state;		/* N of "off-N", else PM_UNKNOWN_S64 */
	int64_t perf;			/* PM_UNKNOWN_S64 without the column */
	int first_child, nchildren;	/* in children[] */
	int first_dev, ndevs;		/* in devs[] */
};

struct pm_genpd_table {
	char *text;
	struct pm_genpd *pd;
	int n;
	const char **children;
	struct pm_genpd_dev *devs;
	int ndevs;
	bool has_perf, has_managed;
	int nbad;
	unsigned first_bad;		/* line number of the first, from 1 */
};

struct pm_clk_consumer {
	const char *device;		/* NULL for "deviceless" */
	const char *con_id;		/* NULL for "no_connection_id" */
};

struct pm_clk {
	const char *name;
	int depth;
	int parent;			/* index in clk[], -1 at a root */
	int64_t enable_count, prepare_count, protect_count;
	uint64_t rate_hz, accuracy_ppb;	/* PM_UNKNOWN without the column */
	int64_t phase_deg;		/* PM_UNKNOWN_S64 for "-----" */
	int64_t duty;			/* duty cycle x 100000, or unknown */
	int hw_enabled;			/* 1 Y, 0 N, -1 "?" or no column */
	int first_consumer, nconsumers;	/* in cons[] */
};

struct pm_clk_table {
	char *text;
	struct pm_clk *clk;		/* depth first, as the kernel lists */
	int n;
	struct pm_clk_consumer *cons;
	int ncons;
	bool has_protect, has_accuracy, has_phase, has_duty, has_hw;
	bool has_consumers;
	int nbad;
	unsigned first_bad;
};

/*
 * Parse pm_genpd_summary / clk_summary text: the number of entries, or
 * -EINVAL when the text has no such header (not that table), -ENOMEM.
 * On error the table is empty; free it either way.
 */
int pm_genpd_parse(const char *text, struct pm_genpd_table *t);
int pm_clk_parse(const char *text, struct pm_clk_table *t);
void pm_genpd_table_free(struct pm_genpd_table *t);
void pm_clk_table_free(struct pm_clk_table *t);
/* Read and parse the debugfs file; -errno with ctx->err on failure. */
int pm_genpd_read(struct pm_ctx *ctx, struct pm_genpd_table *t);
int pm_clk_read(struct pm_ctx *ctx, struct pm_clk_table *t);
/*
 * Why debugfs files cannot be read: 0 when debugfs looks mounted and
 * open to us, -ENOENT when it is not mounted, -EACCES for non-root.
 */
int pm_debugfs_state(struct pm_ctx *ctx);

#endif /* PM_DOMAINS_H */
