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

/* A threshold now: PM_UNKNOWN when the file is not there; exit 1 when it
 * is there and cannot be read. */
static uint64_t now_pct(struct opp *op, const char *where, const char *path)
{
	uint64_t v;

	if (pm_attr_read_u64(&op->ctx, path, &v) == 0)
		return v;
	if (op->ctx.err.err == ENOENT) {
		pm_err_clear(&op->ctx);
		return PM_UNKNOWN;
	}
	pm_die(&op->t, PM_EXIT_FAIL, "%scannot read %s: %s (%s)", where, path,
	       strerror(op->ctx.err.err), pm_errno_name(op->ctx.err.err));
}

static void plan_one(struct opp *op, const struct opp_point *pt,
		     struct pm_writer *w, const char *name)
{
	const struct opp_setting *st = get(pt, name, "charge_start");
	const struct opp_setting *sp = get(pt, name, "charge_stop");
	const struct opp_setting *sb = get(pt, name, "charge_behaviour");
	const struct opp_setting *any = st ? st : sp ? sp : sb;
	char where[PM_PATH_MAX + 16], dir[PM_PATH_MAX], ps[PM_PATH_MAX],
		pe[PM_PATH_MAX], pb[PM_PATH_MAX], cur[256], now[PM_NAME_MAX];
	uint64_t cs, ce, ns = 0, ne = 0, es, ee;
	bool stop_first;

	if (!any)
		return; /* the keys of [supply] are these three */
	opp_where(any, where, sizeof(where));
	if (!pm_supply_path(name, "", dir, sizeof(dir)) ||
	    !pm_supply_path(name, PM_SUPPLY_START, ps, sizeof(ps)) ||
	    !pm_supply_path(name, PM_SUPPLY_STOP, pe, sizeof(pe)) ||
	    !pm_supply_path(name, PM_SUPPLY_BEHAVIOUR, pb, sizeof(pb)))
		pm_die(&op->t, PM_EXIT_USAGE, "%s[supply %s]: invalid name",
		       where, name);
	if (!pm_exists(&op->ctx, dir))
		pm_die(&op->t, PM_EXIT_UNSUPPORTED,
		       "%s[supply %s]: no power supply %s here (pmctl supply "
		       "lists them)",
		       where, name, name);
	for (size_t i = 0; i < NKEYS; i++) {
		const struct opp_setting *s = get(pt, name, keymap[i].key);
		char kw[PM_PATH_MAX + 16], f[PM_PATH_MAX];

		pm_supply_path(name, keymap[i].file, f, sizeof(f));
		if (s && !pm_exists(&op->ctx, f))
			pm_die(&op->t, PM_EXIT_UNSUPPORTED,
			       "%s[supply %s] %s: %s has no %s (its driver "
			       "offers no %s)",
			       opp_where(s, kw, sizeof(kw)), name, s->key, name,
			       keymap[i].file,
			       i < 2 ? "charge thresholds" :
				       "charge behaviour control");
	}
	cs = now_pct(op, where, ps);
	ce = now_pct(op, where, pe);
	if (st)
		pm_parse_u64(st->value, &ns);
	if (sp)
		pm_parse_u64(sp->value, &ne);
	/* The pair the battery ends with keeps start below stop. */
	es = st ? ns : cs;
	ee = sp ? ne : ce;
	if ((st || sp) && es != PM_UNKNOWN && ee != PM_UNKNOWN && es >= ee) {
		if (st && sp)
			pm_die(&op->t, PM_EXIT_USAGE,
			       "%s[supply %s] charge_start %llu%% is not below "
			       "charge_stop %llu%%",
			       where, name, (unsigned long long)es,
			       (unsigned long long)ee);
		pm_die(&op->t, PM_EXIT_USAGE,
		       "%s[supply %s]: %s would end with start %llu%% not "
		       "below stop %llu%%",
		       where, name, name, (unsigned long long)es,
		       (unsigned long long)ee);
	}
	/* On the way too: a start at or above the old stop moves the stop
	 * up first. */
	stop_first = st && sp && ce != PM_UNKNOWN && ns >= ce;
	for (int pass = 0; pass < 2; pass++) {
		bool stop = (pass == 0) == stop_first;
		const struct opp_setting *s = stop ? sp : st;

		if (s)
			pm_writer_plan(w, stop ? pe : ps, NULL, s->value, 0,
				       NULL);
	}
	if (!sb)
		return;
	if (pm_attr_read(&op->ctx, pb, cur, sizeof(cur)) < 0)
		pm_die(&op->t, PM_EXIT_FAIL, "%scannot read %s: %s (%s)", where,
		       pb, strerror(op->ctx.err.err),
		       pm_errno_name(op->ctx.err.err));
	if (!pm_choice_offered(cur, sb->value))
		pm_die(&op->t, PM_EXIT_UNSUPPORTED,
		       "%s[supply %s] charge_behaviour: '%s' is not offered "
		       "(choices: %s)",
		       opp_where(sb, where, sizeof(where)), name, sb->value,
		       cur);
	/* The file reads "[auto] inhibit-charge": the old value is the
	 * bracketed one. */
	pm_choice_current(cur, now, sizeof(now));
	pm_writer_plan(w, pb, now, sb->value, PM_W_CHOICE, NULL);
}

void opp_plan_supply(struct opp *op, const struct opp_point *pt,
		     struct pm_writer *w)
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
			plan_one(op, pt, w, s->arg);
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
