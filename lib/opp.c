// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Operating points: finding the named point files in /etc/pm/opp.d and
 * in the installed examples.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opp.h"
#include "core.h"
#include "conf.h"

#define OPP_ETC "/etc/pm/opp.d"
#define OPP_SUFFIX ".conf"

bool pm_opp_name_valid(const char *name)
{
	if (!*name || *name == '.' || strlen(name) >= PM_NAME_MAX)
		return false;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-' ||
		      *p == '.'))
			return false;
	return true;
}

static void describe(struct pm_ctx *ctx, struct pm_opp_entry *e, bool real)
{
	struct pm_conf c;

	if (pm_conf_load(real ? NULL : ctx, e->path, &c) < 0) {
		if (c.errline)
			snprintf(e->error, sizeof(e->error), "line %u: %s",
				 c.errline, c.errmsg);
		else
			snprintf(e->error, sizeof(e->error), "%s", c.errmsg);
		pm_conf_free(&c);
		return;
	}
	for (int i = 0; i < c.n; i++)
		if (!strcmp(c.lines[i].section, "opp") &&
		    !strcmp(c.lines[i].key, "description"))
			snprintf(e->description, sizeof(e->description), "%s",
				 c.lines[i].value);
	pm_conf_free(&c);
}

static int scan(struct pm_ctx *ctx, const char *dir, bool real,
		struct pm_opp_entry **v, int *n, int *cap)
{
	struct pm_ctx rctx;
	char **names;
	int k;

	if (real) {
		/* The installed examples are a real path, not under --sysroot. */
		if (pm_ctx_open(&rctx, "/") < 0)
			return 0;
		k = pm_list_dir(&rctx, dir, &names);
		pm_ctx_close(&rctx);
	} else {
		k = pm_list_dir(ctx, dir, &names);
	}
	if (k < 0)
		return 0;
	for (int i = 0; i < k; i++) {
		size_t l = strlen(names[i]), sl = strlen(OPP_SUFFIX);
		char name[PM_NAME_MAX];
		bool dup = false;

		if (l <= sl || strcmp(names[i] + l - sl, OPP_SUFFIX) ||
		    l - sl >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(l - sl), names[i]);
		if (!pm_opp_name_valid(name))
			continue;
		for (int j = 0; j < *n; j++)
			if (!strcmp((*v)[j].name, name))
				dup = true;
		if (dup)
			continue;
		if (*n == *cap) {
			int ncap = *cap ? *cap * 2 : 16;
			struct pm_opp_entry *nv =
				realloc(*v, (size_t)ncap * sizeof(*nv));

			if (!nv) {
				pm_list_free(names, k);
				return -ENOMEM;
			}
			*v = nv;
			*cap = ncap;
		}
		struct pm_opp_entry *e = &(*v)[(*n)++];

		memset(e, 0, sizeof(*e));
		snprintf(e->name, sizeof(e->name), "%s", name);
		snprintf(e->path, sizeof(e->path), "%s/%s", dir, names[i]);
		e->installed = real;
		describe(ctx, e, real);
	}
	pm_list_free(names, k);
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct pm_opp_entry *)a)->name,
		      ((const struct pm_opp_entry *)b)->name);
}

int pm_opp_list(struct pm_ctx *ctx, const char *datadir,
		struct pm_opp_entry **out)
{
	struct pm_opp_entry *v = NULL;
	int n = 0, cap = 0, r;
	char dir[PM_PATH_MAX];

	*out = NULL;
	r = scan(ctx, OPP_ETC, false, &v, &n, &cap);
	if (!r && datadir) {
		snprintf(dir, sizeof(dir), "%s/opp.d", datadir);
		r = scan(ctx, dir, true, &v, &n, &cap);
	}
	if (r < 0) {
		free(v);
		return r;
	}
	pm_err_clear(ctx);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_entry);
	*out = v;
	return n;
}
