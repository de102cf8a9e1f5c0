// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * power_supply: AC adapters and batteries, with either the energy_* and
 * power_now set or the charge_* and current_now set the firmware gives.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "supply.h"
#include "core.h"
#include "parse.h"
#include "state.h"

#define SUPPLY_DIR "/sys/class/power_supply"

static int64_t get_s64(struct pm_ctx *ctx, int fd, const char *name)
{
	int64_t v;

	return pm_attr_readat_s64(ctx, fd, name, &v) < 0 ? PM_UNKNOWN_S64 : v;
}

static uint64_t mag(int64_t v)
{
	return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

/* a * b / div rounded to the nearest, or PM_UNKNOWN past 64 bits. */
static uint64_t mul_div(uint64_t a, uint64_t b, uint64_t div)
{
	uint64_t p;

	if (__builtin_mul_overflow(a, b, &p) || p > UINT64_MAX - div / 2)
		return PM_UNKNOWN;
	return (p + div / 2) / div;
}

/*
 * What the kernel leaves out, from what it gives (the power_supply ABI,
 * kernel-abi.md): the draw from power_now, else current_now x voltage_now;
 * the capacity from energy_now / energy_full, else the charge pair,
 * rounded to the nearest percent as the ACPI battery driver does and at
 * most 100; the time to empty (Discharging) or to full (Charging) from the
 * energy and the draw, else the charge and the current.
 */
static void derive(struct pm_supply *s)
{
	bool dis = !strcmp(s->status, "Discharging");
	bool chg = !strcmp(s->status, "Charging");
	int64_t now = PM_UNKNOWN_S64, full = PM_UNKNOWN_S64;
	uint64_t rate = 0, v;

	s->draw_uw = PM_UNKNOWN_S64;
	if (s->power_uw != PM_UNKNOWN_S64) {
		s->draw_uw = (int64_t)mag(s->power_uw);
	} else if (s->current_ua != PM_UNKNOWN_S64 &&
		   s->voltage_uv != PM_UNKNOWN_S64) {
		v = mul_div(mag(s->current_ua), mag(s->voltage_uv), 1000000);
		if (v <= INT64_MAX)
			s->draw_uw = (int64_t)v;
	}

	s->capacity_derived = false;
	if (s->capacity_pct == PM_UNKNOWN) {
		if (s->energy_now_uwh >= 0 && s->energy_full_uwh > 0)
			v = mul_div((uint64_t)s->energy_now_uwh, 100,
				    (uint64_t)s->energy_full_uwh);
		else if (s->charge_now_uah >= 0 && s->charge_full_uah > 0)
			v = mul_div((uint64_t)s->charge_now_uah, 100,
				    (uint64_t)s->charge_full_uah);
		else
			v = PM_UNKNOWN;
		if (v != PM_UNKNOWN) {
			s->capacity_pct = v > 100 ? 100 : v;
			s->capacity_derived = true;
		}
	}

	s->time_left_s = PM_UNKNOWN_S64;
	if (s->energy_now_uwh >= 0 && s->draw_uw != PM_UNKNOWN_S64) {
		now = s->energy_now_uwh;
		full = s->energy_full_uwh;
		rate = (uint64_t)s->draw_uw;
	} else if (s->charge_now_uah >= 0 &&
		   s->current_ua != PM_UNKNOWN_S64) {
		now = s->charge_now_uah;
		full = s->charge_full_uah;
		rate = mag(s->current_ua);
	}
	if (!rate || (!dis && !chg))
		return;
	if (dis)
		v = mul_div((uint64_t)now, 3600, rate);
	else if (full < 0)
		v = PM_UNKNOWN;
	else
		v = full > now ? mul_div((uint64_t)(full - now), 3600, rate) :
				 0;
	if (v <= INT64_MAX)
		s->time_left_s = (int64_t)v;
}

int pm_supplies_read(struct pm_ctx *ctx, struct pm_supply **out)
{
	struct pm_class c;
	int n = pm_class_open(ctx, &c, "power_supply", NULL), k = 0;
	struct pm_supply *v;

	*out = NULL;
	if (n < 0) {
		pm_err_clear(ctx);
		return 0;
	}
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v) {
		pm_class_close(&c);
		return -ENOMEM;
	}
	while (pm_class_next(ctx, &c)) {
		struct pm_supply *s = &v[k];
		int fd = c.fd;
		int64_t on;

		if (fd < 0)
			continue;
		snprintf(s->name, sizeof(s->name), "%s", c.name);
		if (pm_attr_readat(ctx, fd, "type", s->type, sizeof(s->type)) <
		    0)
			s->type[0] = '\0';
		if (pm_attr_readat(ctx, fd, "status", s->status,
				   sizeof(s->status)) < 0)
			s->status[0] = '\0';
		if (pm_attr_readat(ctx, fd, "model_name", s->model,
				   sizeof(s->model)) < 0)
			s->model[0] = '\0';
		on = get_s64(ctx, fd, "online");
		s->online = on == PM_UNKNOWN_S64 ? -1 : on != 0;
		s->capacity_pct = pm_attr_getat_u64(ctx, fd, "capacity");
		s->power_uw = get_s64(ctx, fd, "power_now");
		s->energy_now_uwh = get_s64(ctx, fd, "energy_now");
		s->energy_full_uwh = get_s64(ctx, fd, "energy_full");
		s->current_ua = get_s64(ctx, fd, "current_now");
		s->charge_now_uah = get_s64(ctx, fd, "charge_now");
		s->charge_full_uah = get_s64(ctx, fd, "charge_full");
		s->voltage_uv = get_s64(ctx, fd, "voltage_now");
		s->charge_start_pct = pm_attr_getat_u64(ctx, fd,
							PM_SUPPLY_START);
		s->charge_stop_pct = pm_attr_getat_u64(ctx, fd, PM_SUPPLY_STOP);
		if (pm_attr_readat(ctx, fd, PM_SUPPLY_BEHAVIOUR,
				   s->charge_behaviour,
				   sizeof(s->charge_behaviour)) < 0)
			s->charge_behaviour[0] = '\0';
		s->energy_full_design_uwh = get_s64(ctx, fd,
						    "energy_full_design");
		s->charge_full_design_uah = get_s64(ctx, fd,
						    "charge_full_design");
		s->cycle_count = get_s64(ctx, fd, "cycle_count");
		derive(s);
		k++;
	}
	pm_class_close(&c);
	pm_err_clear(ctx);
	*out = v;
	return k;
}

bool pm_supply_name_ok(const char *name)
{
	size_t n = strlen(name);

	/* The kernel's names: BAT0, macsmc-battery, ucsi-source-psy-USBC000:001. */
	return n && n < PM_NAME_MAX && strcmp(name, ".") &&
	       strcmp(name, "..") &&
	       strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_-.:") == n;
}

bool pm_supply_path(const char *name, const char *file, char *buf,
		    size_t size)
{
	int n;

	if (!pm_supply_name_ok(name))
		return false;
	n = snprintf(buf, size, SUPPLY_DIR "/%s/%s", name, file);
	return n > 0 && (size_t)n < size;
}

double pm_supply_health_pct(const struct pm_supply *s)
{
	if (s->energy_full_uwh > 0 && s->energy_full_design_uwh > 0)
		return 100.0 * (double)s->energy_full_uwh /
		       (double)s->energy_full_design_uwh;
	if (s->charge_full_uah > 0 && s->charge_full_design_uah > 0)
		return 100.0 * (double)s->charge_full_uah /
		       (double)s->charge_full_design_uah;
	return NAN;
}

static bool record_file_ok(const char *f)
{
	return !strcmp(f, PM_SUPPLY_START) || !strcmp(f, PM_SUPPLY_STOP) ||
	       !strcmp(f, PM_SUPPLY_BEHAVIOUR);
}

/* A threshold is a percentage; the behaviour a word of the kernel's. */
static bool record_value_ok(const char *f, const char *x)
{
	uint64_t pct;

	if (!strcmp(f, PM_SUPPLY_BEHAVIOUR))
		return pm_fset_name_ok(x, 39);
	return pm_parse_u64(x, &pct) == 0 && pct <= 100;
}

int pm_supply_record_read(struct pm_ctx *ctx, struct pm_supply_set *v,
			  int max)
{
	char *text, *l, *nl;
	unsigned line = 0;
	int k = 0;

	if (pm_file_read(ctx, PM_SUPPLY_RECORD, &text) < 0) {
		pm_err_clear(ctx);
		return 0;
	}
	for (l = text; *l; l = nl ? nl + 1 : l + strlen(l)) {
		char n[PM_NAME_MAX], f[40], x[40], extra[2];
		int j;

		nl = strchr(l, '\n');
		if (nl)
			*nl = '\0';
		line++;
		if (l[0] == '#' ||
		    sscanf(l, "%63s %39s %39s %1s", n, f, x, extra) != 3 ||
		    !pm_supply_name_ok(n) || !record_file_ok(f) ||
		    !record_value_ok(f, x))
			continue;
		/* A file named twice (an edit by hand): the last line wins. */
		for (j = 0; j < k; j++)
			if (!strcmp(v[j].name, n) && !strcmp(v[j].file, f))
				break;
		if (j == k && k == max)
			continue;
		snprintf(v[j].name, sizeof(v[j].name), "%s", n);
		snprintf(v[j].file, sizeof(v[j].file), "%s", f);
		snprintf(v[j].value, sizeof(v[j].value), "%s", x);
		v[j].line = line;
		if (j == k)
			k++;
	}
	free(text);
	return k;
}

int pm_supply_record_update(struct pm_ctx *ctx,
			    const struct pm_supply_set *v, int n)
{
	struct pm_supply_set all[PM_SUPPLY_RECORD_MAX];
	char text[PM_SUPPLY_RECORD_MAX * 160];
	size_t len;
	int k, fd, r;

	r = pm_write_allowed(ctx, PM_SUPPLY_RECORD);
	if (r < 0)
		return r;
	k = pm_supply_record_read(ctx, all, PM_SUPPLY_RECORD_MAX);
	for (int i = 0; i < n; i++) {
		int j;

		for (j = 0; j < k; j++)
			if (!strcmp(all[j].name, v[i].name) &&
			    !strcmp(all[j].file, v[i].file))
				break;
		if (j == k && k == PM_SUPPLY_RECORD_MAX)
			continue;
		all[j] = v[i];
		if (j == k)
			k++;
	}
	len = (size_t)snprintf(text, sizeof(text),
			       "# The charge settings last applied, by "
			       "opp-set and pmctl supply set:\n"
			       "# opp-set --reapply gives back those a "
			       "firmware dropped.\n");
	for (int j = 0; j < k && len < sizeof(text); j++)
		len += (size_t)snprintf(text + len, sizeof(text) - len,
					"%s %s %s\n", all[j].name,
					all[j].file, all[j].value);
	fd = pm_state_dir(ctx, PM_SUPPLY_RECORD_DIR, 0755);
	if (fd < 0)
		return fd;
	r = pm_state_put(ctx, fd, PM_SUPPLY_RECORD, "supply.applied", text);
	close(fd);
	return r;
}
