// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * [supply NAME]: a battery's charge thresholds and charge behaviour as
 * part of a point, planned like the rest (refused before any write when
 * this machine cannot take them, read back, undone on a failure); the
 * record of what was applied, and --reapply's comparison with it: a
 * firmware may drop the thresholds at a resume or a boot.
 */
#include <errno.h>
#include <string.h>

#include "opp.h"

/* The keys of [supply NAME] and the files they write. */
static const struct {
	const char *key, *file;
} keymap[] = {
	{ "charge_start", PM_SUPPLY_START },
	{ "charge_stop", PM_SUPPLY_STOP },
	{ "charge_behaviour", PM_SUPPLY_BEHAVIOUR },
};

#define NKEYS (sizeof(keymap) / sizeof(keymap[0]))

static const char *file_of(const char *key)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keymap[i].key, key))
			return keymap[i].file;
	return NULL;
}

static const char *key_of(const char *file)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (!strcmp(keymap[i].file, file))
			return keymap[i].key;
	return NULL;
}

static const struct opp_setting *get(const struct opp_point *pt,
				     const char *name, const char *key)
{
	for (int i = 0; i < pt->n; i++)
		if (!strcmp(pt->v[i].section, "supply") &&
		    !strcmp(pt->v[i].arg, name) && !strcmp(pt->v[i].key, key))
			return &pt->v[i];
	return NULL;
}

static void plan_one(const struct opp_point *pt, struct pm_writer *w,
		     const char *name)
{
	const struct opp_setting *s[PM_CHARGE_N] = {
		get(pt, name, "charge_start"),
		get(pt, name, "charge_stop"),
		get(pt, name, "charge_behaviour"),
	};
	const struct opp_setting *any = s[0] ? s[0] : s[1] ? s[1] : s[2];
	char where[PM_PATH_MAX + 300], wk[PM_CHARGE_N][PM_PATH_MAX + 300];
	struct pm_charge c = { .name = name, .keys = true, .where = where };

	if (!any)
		return; /* the keys of [supply] are these three */
	opp_where(any, where, sizeof(where));
	snprintf(where + strlen(where), sizeof(where) - strlen(where),
		 "[supply %s]: ", name);
	for (int k = 0; k < PM_CHARGE_N; k++) {
		if (!s[k])
			continue;
		opp_where(s[k], wk[k], sizeof(wk[k]));
		snprintf(wk[k] + strlen(wk[k]), sizeof(wk[k]) - strlen(wk[k]),
			 "[supply %s] ", name);
		c.where_key[k] = wk[k];
	}
	/* Values were checked when the point was read: 0 to 100. */
	c.has_start = s[0] && pm_parse_pct(s[0]->value, &c.start) == 0;
	c.has_stop = s[1] && pm_parse_pct(s[1]->value, &c.stop) == 0;
	c.behaviour = s[2] ? s[2]->value : NULL;
	pm_charge_plan(w, &c);
}

void opp_plan_supply(const struct opp_point *pt, struct pm_writer *w)
{
	for (int i = 0; i < pt->n; i++) {
		const struct opp_setting *s = &pt->v[i];
		bool seen = false;

		if (strcmp(s->section, "supply"))
			continue;
		/* Each supply once, at its first setting. */
		for (int j = 0; j < i && !seen; j++)
			seen = !strcmp(pt->v[j].section, "supply") &&
			       !strcmp(pt->v[j].arg, s->arg);
		if (!seen)
			plan_one(pt, w, s->arg);
	}
}

void opp_record_supply(struct opp *op, const struct opp_point *pt)
{
	struct pm_supply_set v[PM_SUPPLY_RECORD_MAX];
	char err[PM_PATH_MAX + 600];
	int n = 0;

	for (int i = 0; i < pt->n && n < PM_SUPPLY_RECORD_MAX; i++) {
		const struct opp_setting *s = &pt->v[i];
		const char *f = file_of(s->key);

		if (strcmp(s->section, "supply") || !f)
			continue;
		memset(&v[n], 0, sizeof(v[n]));
		/* Names and values were checked when the point was read. */
		snprintf(v[n].name, sizeof(v[n].name), "%.*s",
			 (int)sizeof(v[n].name) - 1, s->arg);
		snprintf(v[n].file, sizeof(v[n].file), "%s", f);
		snprintf(v[n].value, sizeof(v[n].value), "%.*s",
			 (int)sizeof(v[n].value) - 1, s->value);
		n++;
	}
	if (n && pm_supply_record_update(&op->ctx, v, n) < 0)
		pm_warn(&op->t,
			"the charge settings were applied, but cannot be "
			"recorded for --reapply: %s",
			pm_err_str(&op->ctx.err, err, sizeof(err)));
	pm_err_clear(&op->ctx);
}

int opp_reapply_supply(struct opp *op, struct opp_point *pt)
{
	struct pm_supply_set v[PM_SUPPLY_RECORD_MAX];
	int n = pm_supply_record_read(&op->ctx, v, PM_SUPPLY_RECORD_MAX);
	int dropped = 0;

	for (int i = 0; i < n; i++) {
		char path[PM_PATH_MAX], cur[256], now[sizeof(cur)];
		const char *key = key_of(v[i].file);

		if (!key || !pm_supply_path(v[i].name, v[i].file, path,
					    sizeof(path)))
			continue;
		if (pm_attr_read(&op->ctx, path, cur, sizeof(cur)) < 0) {
			/* A battery taken out: nothing to give back. */
			if (op->ctx.err.err == ENOENT)
				pm_note(&op->t,
					"%s:%u: %s is not here now: its %s is "
					"left out",
					PM_SUPPLY_RECORD, v[i].line, path, key);
			pm_err_clear(&op->ctx);
			continue;
		}
		/* "[auto] inhibit-charge" for the behaviour, "80" else. */
		pm_choice_current(cur, now, sizeof(now));
		if (!now[0])
			snprintf(now, sizeof(now), "%s", cur);
		if (strcmp(now, v[i].value)) {
			dropped++;
			pm_warn(&op->t,
				"%s reads %s, not the %s applied last: the "
				"firmware dropped it%s",
				path, now, v[i].value,
				get(pt, v[i].name, key) ? "" :
							  "; applying it again");
		}
		/* The point's own value wins; the others are kept. */
		if (!get(pt, v[i].name, key))
			opp_add_setting(op, pt, PM_SUPPLY_RECORD, v[i].line,
					v[i].name, key, v[i].value);
	}
	return dropped;
}
