// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl domains: regulators, generic PM domains and the clock tree;
 * pmctl powercap: powercap (RAPL) zones with their energy and limits.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmctl.h"

#define NA "not available"
/* Columns of the human clock tree: the name with its indentation. */
#define CLK_NAME_COL 32
#define CLK_INDENT 2
#define MICRO 1000000
#define MILLI 1000

/* ---------------------------------------------------------------- numbers */

/* v / div with the decimals it needs ("875", "712.5"), and a unit. */
static const char *fmt_fixed(int64_t v, int64_t div, const char *unit,
			     char *buf, size_t size)
{
	uint64_t a = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	uint64_t d = (uint64_t)div, ip = a / d, fp = a % d;
	int digits = 0, n;

	for (uint64_t x = d; x > 1; x /= 10)
		digits++;
	n = snprintf(buf, size, "%s%llu", v < 0 ? "-" : "",
		     (unsigned long long)ip);
	if (fp && n > 0 && (size_t)n < size) {
		while (fp % 10 == 0) {
			fp /= 10;
			digits--;
		}
		n += snprintf(buf + n, size - (size_t)n, ".%0*llu", digits,
			      (unsigned long long)fp);
	}
	if (unit && n > 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, " %s", unit);
	return buf;
}

static const char *fmt_hz(uint64_t hz, char *buf, size_t size)
{
	if (hz == PM_UNKNOWN)
		return "-";
	if (hz >= 1000000000ULL)
		return fmt_fixed((int64_t)hz, 1000000000, "GHz", buf, size);
	if (hz >= 1000000)
		return fmt_fixed((int64_t)hz, 1000000, "MHz", buf, size);
	if (hz >= 1000)
		return fmt_fixed((int64_t)hz, 1000, "kHz", buf, size);
	return fmt_fixed((int64_t)hz, 1, "Hz", buf, size);
}

static const char *fmt_us(uint64_t us, char *buf, size_t size)
{
	if (us >= MICRO)
		return fmt_fixed((int64_t)us, MICRO, "s", buf, size);
	if (us >= MILLI)
		return fmt_fixed((int64_t)us, MILLI, "ms", buf, size);
	return fmt_fixed((int64_t)us, 1, "us", buf, size);
}

static void out_s64(struct pm_out *o, const char *key, int64_t v)
{
	if (v == PM_UNKNOWN_S64)
		pm_out_null(o, key);
	else
		pm_out_s64(o, key, v);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* ---------------------------------------------------------------- parts */

/* One part of `pmctl domains`: n entries, or err (positive) and why. */
struct part {
	int n;
	int err;
	char why[PM_PATH_MAX + 640];
};

/* "FILE: reason; hint", the kernel's reason in words. */
static void part_failed(struct pmctl *p, struct part *pt, int r,
			const char *absent_hint)
{
	const struct pm_err *e = &p->ctx.err;
	const char *hint = NULL;
	int dfs;

	pt->n = 0;
	pt->err = -r;
	if (!strcmp(e->op, "parse")) {
		snprintf(pt->why, sizeof(pt->why), "%s: %s", e->file, e->hint);
		return;
	}
	if (pt->err == EACCES || pt->err == EPERM) {
		hint = "debugfs needs root";
	} else if (pt->err == ENOENT && absent_hint) {
		dfs = pm_debugfs_state(&p->ctx);
		hint = dfs == -ENOENT ? "debugfs is not mounted" : absent_hint;
	}
	snprintf(pt->why, sizeof(pt->why), "%s: %s%s%s", e->file,
		 strerror(pt->err), hint ? "; " : "", hint ? hint : "");
}

/* A reader's result: n entries, or why not; out of memory ends it all. */
static void part_result(struct pmctl *p, struct part *pt, int n,
			const char *absent_hint)
{
	if (n == -ENOMEM)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (n < 0)
		part_failed(p, pt, n, absent_hint);
	else
		pt->n = n;
}

/* Absent: the kernel has nothing to show (exit 3 when all parts are). */
static bool part_absent(const struct part *pt)
{
	return pt->err ? pt->err == ENOENT || pt->err == ENOTDIR : !pt->n;
}

static void bad_lines_note(struct pmctl *p, const char *file, int nbad,
			   unsigned first)
{
	if (nbad)
		pm_note(&p->t,
			"%s: %d line%s not understood, skipped (the first is "
			"line %u)",
			file, nbad, nbad == 1 ? "" : "s", first);
}

/* ---------------------------------------------------------------- json */

static void regulators_json(struct pm_out *o, const struct part *pt,
			    const struct pm_regulator *r)
{
	if (pt->err) {
		pm_out_null(o, "regulators");
		return;
	}
	pm_out_arr_begin(o, "regulators", "regulator");
	for (int i = 0; i < pt->n; i++) {
		pm_out_elem_begin(o, r[i].id);
		pm_out_u64(o, "id", r[i].id);
		pm_out_str_or_null(o, "name", r[i].name);
		pm_out_str_or_null(o, "type", r[i].type);
		out_s64(o, "num_users", r[i].num_users);
		out_s64(o, "voltage_uv", r[i].microvolts);
		out_s64(o, "min_voltage_uv", r[i].min_microvolts);
		out_s64(o, "max_voltage_uv", r[i].max_microvolts);
		out_s64(o, "current_limit_ua", r[i].microamps);
		pm_out_str_or_null(o, "state", r[i].state);
		pm_out_str_or_null(o, "status", r[i].status);
		pm_out_str_or_null(o, "opmode", r[i].opmode);
		pm_out_str_or_null(o, "suspend_mem_state", r[i].suspend_mem);
		pm_out_str_or_null(o, "suspend_disk_state", r[i].suspend_disk);
		pm_out_str_or_null(o, "suspend_standby_state",
				   r[i].suspend_standby);
		pm_out_str_or_null(o, "device", r[i].device);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

static void genpd_json(struct pm_out *o, const struct part *pt,
		       const struct pm_genpd_table *t)
{
	if (pt->err) {
		pm_out_null(o, "power_domains");
		return;
	}
	pm_out_arr_begin(o, "power_domains", "domain");
	for (int i = 0; i < t->n; i++) {
		const struct pm_genpd *d = &t->pd[i];

		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "name", d->name);
		pm_out_str(o, "status", d->status);
		out_s64(o, "idle_state", d->idle_state);
		out_s64(o, "performance_state", d->perf);
		pm_out_arr_begin(o, "children", NULL);
		for (int k = 0; k < d->nchildren; k++)
			pm_out_str(o, NULL, t->children[d->first_child + k]);
		pm_out_arr_end(o);
		pm_out_arr_begin(o, "devices", "device");
		for (int k = 0; k < d->ndevs; k++) {
			const struct pm_genpd_dev *v =
				&t->devs[d->first_dev + k];

			pm_out_obj_begin(o, NULL);
			pm_out_str(o, "device", v->device);
			pm_out_str(o, "runtime_status", v->runtime_status);
			out_s64(o, "performance_state", v->perf);
			pm_out_str(o, "managed_by", v->managed_by);
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

static void clocks_json(struct pm_out *o, const struct part *pt,
			const struct pm_clk_table *t)
{
	if (pt->err) {
		pm_out_null(o, "clocks");
		return;
	}
	pm_out_arr_begin(o, "clocks", "clock");
	for (int i = 0; i < t->n; i++) {
		const struct pm_clk *c = &t->clk[i];

		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "name", c->name);
		pm_out_str(o, "parent",
			   c->parent >= 0 ? t->clk[c->parent].name : NULL);
		pm_out_u64(o, "depth", (uint64_t)c->depth);
		out_s64(o, "enable_count", c->enable_count);
		out_s64(o, "prepare_count", c->prepare_count);
		out_s64(o, "protect_count", c->protect_count);
		pm_out_u64_or_null(o, "rate_hz", c->rate_hz);
		pm_out_u64_or_null(o, "accuracy_ppb", c->accuracy_ppb);
		out_s64(o, "phase_deg", c->phase_deg);
		if (c->duty == PM_UNKNOWN_S64)
			pm_out_null(o, "duty_cycle_pct");
		else
			pm_out_double(o, "duty_cycle_pct",
				      (double)c->duty / 1000.0, 3);
		pm_out_flag(o, "hw_enabled", c->hw_enabled);
		if (!t->has_consumers) {
			pm_out_null(o, "consumers");
		} else {
			pm_out_arr_begin(o, "consumers", "consumer");
			for (int k = 0; k < c->nconsumers; k++) {
				const struct pm_clk_consumer *u =
					&t->cons[c->first_consumer + k];

				pm_out_obj_begin(o, NULL);
				pm_out_str(o, "device", u->device);
				pm_out_str(o, "connection_id", u->con_id);
				pm_out_obj_end(o);
			}
			pm_out_arr_end(o);
		}
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
}

/* ---------------------------------------------------------------- human */

static void human_regulators(struct pmctl *p, const struct part *pt,
			     const struct pm_regulator *r)
{
	struct pm_out *o = &p->o;

	if (pt->err) {
		pm_out_printf(o, "regulators: " NA " (%s)\n", pt->why);
		return;
	}
	if (!pt->n) {
		pm_out_printf(o, "regulators: none\n");
		return;
	}
	pm_out_printf(o, "regulators:\n  %3s %-15s %-9s %9s  %-17s %5s  %s\n",
		      "ID", "NAME", "STATE", "VOLTAGE", "RANGE", "USERS",
		      "DEVICE");
	for (int i = 0; i < pt->n; i++) {
		char v[32] = "-", range[48] = "-", users[24] = "-", a[32],
		     b[32];

		if (r[i].microvolts != PM_UNKNOWN_S64)
			fmt_fixed(r[i].microvolts, MILLI, "mV", v, sizeof(v));
		if (r[i].min_microvolts != PM_UNKNOWN_S64 &&
		    r[i].max_microvolts != PM_UNKNOWN_S64) {
			snprintf(range, sizeof(range), "%s-%s",
				 fmt_fixed(r[i].min_microvolts, MILLI, NULL, a,
					   sizeof(a)),
				 fmt_fixed(r[i].max_microvolts, MILLI, "mV", b,
					   sizeof(b)));
		}
		if (r[i].num_users != PM_UNKNOWN_S64)
			snprintf(users, sizeof(users), "%lld",
				 (long long)r[i].num_users);
		pm_out_printf(o, "  %3u %-15s %-9s %9s  %-17s %5s  %s\n",
			      r[i].id, r[i].name[0] ? r[i].name : "?",
			      r[i].state[0] ? r[i].state : "?", v, range, users,
			      r[i].device[0] ? base_name(r[i].device) : "-");
		/* The rest on a second line, only what the kernel gives. */
		pm_out_printf(o, "      suspend: mem %s, disk %s, standby %s",
			      r[i].suspend_mem[0] ? r[i].suspend_mem : "?",
			      r[i].suspend_disk[0] ? r[i].suspend_disk : "?",
			      r[i].suspend_standby[0] ? r[i].suspend_standby :
							"?");
		if (r[i].type[0] && strcmp(r[i].type, "voltage"))
			pm_out_printf(o, "; type %s", r[i].type);
		if (r[i].microamps != PM_UNKNOWN_S64)
			pm_out_printf(o, "; current limit %s",
				      fmt_fixed(r[i].microamps, MILLI, "mA", a,
						sizeof(a)));
		if (r[i].status[0])
			pm_out_printf(o, "; status %s", r[i].status);
		if (r[i].opmode[0])
			pm_out_printf(o, "; opmode %s", r[i].opmode);
		pm_out_printf(o, "\n");
	}
}

static void human_genpd(struct pmctl *p, const struct part *pt,
			const struct pm_genpd_table *t)
{
	struct pm_out *o = &p->o;

	if (pt->err) {
		pm_out_printf(o, "power domains: " NA " (%s)\n", pt->why);
		return;
	}
	if (!t->n) {
		pm_out_printf(o, "power domains: none\n");
		return;
	}
	pm_out_printf(o, "power domains:\n  %-24s %-8s %4s  %s\n", "DOMAIN",
		      "STATUS", "PERF", "CHILDREN / DEVICES");
	for (int i = 0; i < t->n; i++) {
		const struct pm_genpd *d = &t->pd[i];
		char st[48], perf[24] = "-";

		if (d->idle_state != PM_UNKNOWN_S64)
			snprintf(st, sizeof(st), "%s-%lld", d->status,
				 (long long)d->idle_state);
		else
			snprintf(st, sizeof(st), "%s", d->status);
		if (d->perf != PM_UNKNOWN_S64)
			snprintf(perf, sizeof(perf), "%lld",
				 (long long)d->perf);
		pm_out_printf(o, "  %-24s %-8s %4s", d->name, st, perf);
		for (int k = 0; k < d->nchildren; k++)
			pm_out_printf(o, "%s%s", k ? ", " : "  ",
				      t->children[d->first_child + k]);
		pm_out_printf(o, "\n");
		for (int k = 0; k < d->ndevs; k++) {
			const struct pm_genpd_dev *v =
				&t->devs[d->first_dev + k];

			pm_out_printf(o, "      %-44s %s", v->device,
				      v->runtime_status ? v->runtime_status :
							  "?");
			if (v->perf != PM_UNKNOWN_S64 && v->perf)
				pm_out_printf(o, ", perf %lld",
					      (long long)v->perf);
			if (v->managed_by)
				pm_out_printf(o, ", %s", v->managed_by);
			pm_out_printf(o, "\n");
		}
	}
}

static void human_clocks(struct pmctl *p, const struct part *pt,
			 const struct pm_clk_table *t)
{
	struct pm_out *o = &p->o;

	if (pt->err) {
		pm_out_printf(o, "clocks: " NA " (%s)\n", pt->why);
		return;
	}
	if (!t->n) {
		pm_out_printf(o, "clocks: none\n");
		return;
	}
	pm_out_printf(o, "clocks:\n  %-*s %14s %4s %5s  HW  CONSUMERS\n",
		      CLK_NAME_COL, "CLOCK", "RATE", "EN", "PREP");
	for (int i = 0; i < t->n; i++) {
		const struct pm_clk *c = &t->clk[i];
		int ind = c->depth * CLK_INDENT;
		int w = ind < CLK_NAME_COL ? CLK_NAME_COL - ind : 0;
		char rate[32], en[24] = "-", prep[24] = "-";
		bool first = true;

		if (c->enable_count != PM_UNKNOWN_S64)
			snprintf(en, sizeof(en), "%lld",
				 (long long)c->enable_count);
		if (c->prepare_count != PM_UNKNOWN_S64)
			snprintf(prep, sizeof(prep), "%lld",
				 (long long)c->prepare_count);
		pm_out_printf(o, "  %*s%-*s %14s %4s %5s  %s", ind, "", w,
			      c->name, fmt_hz(c->rate_hz, rate, sizeof(rate)),
			      en, prep,
			      c->hw_enabled == 1 ? "Y" :
			      c->hw_enabled == 0 ? "N" :
						   "?");
		/* The provider's own handle (deviceless, no id) says
		 * nothing: leave it out. */
		for (int k = 0; k < c->nconsumers; k++) {
			const struct pm_clk_consumer *u =
				&t->cons[c->first_consumer + k];

			if (!u->device && !u->con_id)
				continue;
			pm_out_printf(o, "%s%s%s%s", first ? "   " : ", ",
				      u->device ? u->device : "-",
				      u->con_id ? ":" : "",
				      u->con_id ? u->con_id : "");
			first = false;
		}
		pm_out_printf(o, "\n");
	}
}

/* ---------------------------------------------------------------- domains */

int cmd_domains(struct pmctl *p, int argc, char **argv)
{
	struct part reg = { 0 }, pd = { 0 }, clk = { 0 };
	struct pm_regulator *r = NULL;
	struct pm_genpd_table gt;
	struct pm_clk_table ct;

	pmctl_view_args(p, "domains", argc, argv);
	part_result(p, &reg, pm_regulators_read(&p->ctx, &r), NULL);
	part_result(p, &pd, pm_genpd_read(&p->ctx, &gt),
		    "the kernel has no generic PM domains");
	part_result(p, &clk, pm_clk_read(&p->ctx, &ct),
		    "the kernel has no common clock framework");
	if (part_absent(&reg) && part_absent(&pd) && part_absent(&clk)) {
		bool mounted = pm_debugfs_state(&p->ctx) != -ENOENT;

		free(r);
		pm_genpd_table_free(&gt);
		pm_clk_table_free(&ct);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no regulators, PM domains or clocks (%s; %s)",
		       reg.err ? "no /sys/class/regulator" :
				 "/sys/class/regulator is empty",
		       mounted ? "none in debugfs" : "debugfs is not mounted");
	}
	bad_lines_note(p, "/sys/kernel/debug/pm_genpd/pm_genpd_summary",
		       gt.nbad, gt.first_bad);
	bad_lines_note(p, "/sys/kernel/debug/clk/clk_summary", ct.nbad,
		       ct.first_bad);
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN) {
		/* Why a part is null, for those who read only stdout's
		 * document; a part that is not there needs no word. */
		if (!part_absent(&reg) && reg.err)
			pm_note(&p->t, "regulators: " NA " (%s)", reg.why);
		if (!part_absent(&pd) && pd.err)
			pm_note(&p->t, "power domains: " NA " (%s)", pd.why);
		if (!part_absent(&clk) && clk.err)
			pm_note(&p->t, "clocks: " NA " (%s)", clk.why);
		regulators_json(&p->o, &reg, r);
		genpd_json(&p->o, &pd, &gt);
		clocks_json(&p->o, &clk, &ct);
	} else {
		human_regulators(p, &reg, r);
		human_genpd(p, &pd, &gt);
		human_clocks(p, &clk, &ct);
	}
	free(r);
	pm_genpd_table_free(&gt);
	pm_clk_table_free(&ct);
	return pmctl_view_end(p);
}

/* ---------------------------------------------------------------- powercap */

/* How deep a zone sits: its chain of parents. */
static int zone_depth(const struct pm_powercap *pc,
		      const struct pm_powercap_zone *z)
{
	int depth = 0;

	while (z->parent[0] && depth < pc->nzones) {
		const struct pm_powercap_zone *up = NULL;

		for (int i = 0; i < pc->nzones && !up; i++)
			if (!strcmp(pc->zones[i].zone, z->parent))
				up = &pc->zones[i];
		if (!up)
			break;
		z = up;
		depth++;
	}
	return depth;
}

static void powercap_json(struct pm_out *o, const struct pm_powercap *pc)
{
	pm_out_obj_begin(o, "powercap");
	pm_out_arr_begin(o, "control_types", "type");
	for (int i = 0; i < pc->ntypes; i++) {
		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "name", pc->types[i].name);
		pm_out_flag(o, "enabled", pc->types[i].enabled);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	pm_out_arr_begin(o, "zones", "zone");
	for (int i = 0; i < pc->nzones; i++) {
		const struct pm_powercap_zone *z = &pc->zones[i];

		pm_out_obj_begin(o, NULL);
		pm_out_str(o, "zone", z->zone);
		pm_out_str_or_null(o, "control_type", z->control_type);
		pm_out_str_or_null(o, "parent", z->parent);
		pm_out_str_or_null(o, "name", z->name);
		pm_out_flag(o, "enabled", z->enabled);
		pm_out_u64_or_null(o, "energy_uj", z->energy_uj);
		pm_out_u64_or_null(o, "max_energy_range_uj",
				   z->max_energy_range_uj);
		pm_out_arr_begin(o, "constraints", "constraint");
		for (int k = 0; k < z->nconstraints; k++) {
			const struct pm_powercap_constraint *c = &z->c[k];

			pm_out_elem_begin(o, c->id);
			pm_out_u64(o, "id", c->id);
			pm_out_str_or_null(o, "name", c->name);
			pm_out_u64_or_null(o, "power_limit_uw",
					   c->power_limit_uw);
			pm_out_u64_or_null(o, "time_window_us",
					   c->time_window_us);
			pm_out_u64_or_null(o, "max_power_uw", c->max_power_uw);
			pm_out_obj_end(o);
		}
		pm_out_arr_end(o);
		pm_out_obj_end(o);
	}
	pm_out_arr_end(o);
	pm_out_obj_end(o);
}

static void human_powercap(struct pmctl *p, const struct pm_powercap *pc)
{
	struct pm_out *o = &p->o;
	const char *type = NULL;

	for (int i = 0; i < pc->ntypes; i++)
		pm_out_printf(o, "%s: %s\n", pc->types[i].name,
			      pc->types[i].enabled == 1 ? "enabled" :
			      pc->types[i].enabled == 0 ? "disabled" :
							  "?");
	for (int i = 0; i < pc->nzones; i++) {
		const struct pm_powercap_zone *z = &pc->zones[i];
		int ind = 2 + 2 * zone_depth(pc, z);
		char a[48], b[48];

		if (!type || strcmp(type, z->control_type)) {
			type = z->control_type;
			pm_out_printf(o, "%s zones:\n",
				      type[0] ? type : "other");
		}
		pm_out_printf(o, "%*s%s  %s  %s", ind, "", z->zone,
			      z->name[0] ? z->name : "?",
			      z->enabled == 1 ? "enabled" :
			      z->enabled == 0 ? "disabled" :
						"enabled ?");
		/* The energy on a line of its own: 80 columns. */
		if (z->energy_uj != PM_UNKNOWN)
			pm_out_printf(o, "\n%*senergy %s", ind + 2, "",
				      fmt_fixed((int64_t)z->energy_uj, MICRO,
						"J", a, sizeof(a)));
		else
			pm_out_printf(o, "\n%*senergy ?%s", ind + 2, "",
				      z->energy_err == EACCES ? " (root only)" :
								"");
		if (z->max_energy_range_uj != PM_UNKNOWN)
			pm_out_printf(o, ", wraps at %s",
				      fmt_fixed((int64_t)z->max_energy_range_uj,
						MICRO, "J", b, sizeof(b)));
		pm_out_printf(o, "\n");
		for (int k = 0; k < z->nconstraints; k++) {
			const struct pm_powercap_constraint *c = &z->c[k];

			pm_out_printf(
				o, "%*s%u %-11s limit %s", ind + 2, "", c->id,
				c->name[0] ? c->name : "?",
				c->power_limit_uw == PM_UNKNOWN ?
					"?" :
					fmt_fixed((int64_t)c->power_limit_uw,
						  MICRO, "W", a, sizeof(a)));
			if (c->time_window_us != PM_UNKNOWN)
				pm_out_printf(o, ", window %s",
					      fmt_us(c->time_window_us, b,
						     sizeof(b)));
			if (c->max_power_uw != PM_UNKNOWN)
				pm_out_printf(
					o, ", max %s",
					fmt_fixed((int64_t)c->max_power_uw,
						  MICRO, "W", b, sizeof(b)));
			pm_out_printf(o, "\n");
		}
	}
}

int cmd_powercap(struct pmctl *p, int argc, char **argv)
{
	struct pm_powercap pc;
	int r, denied = 0;

	pmctl_view_args(p, "powercap", argc, argv);
	r = pm_powercap_read(&p->ctx, &pc);
	if (r == -ENOMEM)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (r < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no powercap zones (/sys/class/powercap is empty or "
		       "missing)");
	for (int i = 0; i < pc.nzones; i++)
		denied += pc.zones[i].energy_err == EACCES;
	if (denied)
		pm_note(&p->t,
			"energy_uj is readable by root only (since Linux "
			"5.10): the energy of %d zone%s is unknown",
			denied, denied == 1 ? "" : "s");
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN)
		powercap_json(&p->o, &pc);
	else
		human_powercap(p, &pc);
	pm_powercap_free(&pc);
	return pmctl_view_end(p);
}
