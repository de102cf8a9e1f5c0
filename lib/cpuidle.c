// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpuidle: the driver and governor, and each CPU's idle states with
 * their counters, read relative to one cached folder fd per state.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpuidle.h"
#include "core.h"
#include "cpuset.h"

#define IDLE_DIR "/sys/devices/system/cpu/cpuidle"

int pm_cpuidle_read(struct pm_ctx *ctx, struct pm_cpuidle *ci)
{
	int fd = pm_open_dir(ctx, IDLE_DIR);

	memset(ci, 0, sizeof(*ci));
	if (fd < 0)
		return pm_err_set(ctx, "open", IDLE_DIR, NULL, -fd, NULL);
	pm_attr_readat(ctx, fd, "current_driver", ci->driver,
		       sizeof(ci->driver));
	/* current_governor is writable since 5.8; _ro exists everywhere. */
	if (pm_attr_readat(ctx, fd, "current_governor", ci->governor,
			   sizeof(ci->governor)) > 0) {
		ci->governor_writable = true;
	} else {
		if (ctx->err.err != ENOENT)
			ci->governor_err = ctx->err.err;
		pm_attr_readat(ctx, fd, "current_governor_ro", ci->governor,
			       sizeof(ci->governor));
	}
	pm_attr_readat(ctx, fd, "available_governors",
		       ci->available_governors,
		       sizeof(ci->available_governors));
	close(fd);
	pm_err_clear(ctx);
	return 0;
}

/*
 * One state's files, opened relative to the CPU's cpuidle folder as
 * "stateN/file" (no folder fd per state).  Returns -ENOENT when the
 * state does not exist.
 */
/* "stateN/" in f[0..at), then name after it (cut to size). */
static const char *at_name(char *f, size_t size, size_t at, const char *name)
{
	size_t l = strlen(name);

	if (at >= size)
		at = size - 1;
	if (at + l >= size)
		l = size - 1 - at;
	memcpy(f + at, name, l);
	f[at + l] = '\0';
	return f;
}

static int read_state(struct pm_ctx *ctx, int dfd, unsigned index,
		      struct pm_idle_state *s, unsigned fields)
{
	char buf[PM_NAME_MAX], f[48];
	uint64_t d;
	/* "stateN/" once, each file's name copied after it: a report of
	 * thousands of states formats no path per file. */
	int at = snprintf(f, sizeof(f), "state%u/", index);

#define AT(name) at_name(f, sizeof(f), (size_t)at, name)
	memset(s, 0, sizeof(*s));
	s->index = index;
	s->latency_us = s->residency_us = s->power_mw = PM_UNKNOWN;
	s->usage = s->time_us = s->above = s->below = PM_UNKNOWN;
	s->rejected = s->s2idle_usage = s->s2idle_time_us = PM_UNKNOWN;
	s->disabled = s->default_disabled = -1;
	if (fields & PM_IDLE_NAMES) {
		/* Every state has a name: its absence ends the list. */
		if (pm_attr_readat(ctx, dfd, AT("name"), s->name,
				   sizeof(s->name)) < 0) {
			s->name[0] = '\0';
			if (ctx->err.err == ENOENT && !pm_existsat(dfd, AT("")))
				return -ENOENT;
		}
		if ((fields & PM_IDLE_NODESC) ||
		    pm_attr_readat(ctx, dfd, AT("desc"), s->desc,
				   sizeof(s->desc)) < 0)
			s->desc[0] = '\0';
		s->latency_us = pm_u32_known(
			pm_attr_getat_u64(ctx, dfd, AT("latency")));
		s->residency_us = pm_u32_known(
			pm_attr_getat_u64(ctx, dfd, AT("residency")));
	} else if (!pm_existsat(dfd, AT(""))) {
		return -ENOENT;
	}
	if (fields & PM_IDLE_COUNTERS) {
		s->usage = pm_attr_getat_u64(ctx, dfd, AT("usage"));
		s->time_us = pm_attr_getat_u64(ctx, dfd, AT("time"));
		s->above = pm_attr_getat_u64(ctx, dfd, AT("above"));
		s->below = pm_attr_getat_u64(ctx, dfd, AT("below"));
		s->rejected = pm_attr_getat_u64(ctx, dfd, AT("rejected"));
		s->s2idle_usage =
			pm_attr_getat_u64(ctx, dfd, AT("s2idle/usage"));
		s->s2idle_time_us =
			pm_attr_getat_u64(ctx, dfd, AT("s2idle/time"));
	}
	if (fields & PM_IDLE_DISABLE) {
		d = pm_attr_getat_u64(ctx, dfd, AT("disable"));
		s->disabled = d == PM_UNKNOWN ? -1 : d != 0;
		if (d == PM_UNKNOWN && ctx->err.err != ENOENT)
			s->disable_err = ctx->err.err ? ctx->err.err : EINVAL;
	}
	if (fields & PM_IDLE_EXTRA) {
		s->power_mw = pm_u32_known(
			pm_attr_getat_u64(ctx, dfd, AT("power")));
		if (pm_attr_readat(ctx, dfd, AT("default_status"), buf,
				   sizeof(buf)) > 0)
			s->default_disabled = strcmp(buf, "enabled") != 0;
	}
#undef AT
	return 0;
}

static int states_dir(struct pm_ctx *ctx, unsigned cpu)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpuidle",
		 cpu);
	return pm_open_dir(ctx, path);
}

int pm_idle_states_read_fields(struct pm_ctx *ctx, unsigned cpu,
			       struct pm_idle_state *states, int max,
			       unsigned fields)
{
	bool was;
	int dfd, n = 0;

	dfd = states_dir(ctx, cpu);
	if (dfd < 0) {
		pm_err_clear(ctx);
		return 0;
	}
	was = pm_batch_begin(ctx);
	/* States are numbered from 0 without gaps (cpuidle_add_state_sysfs). */
	for (int i = 0; i < max; i++) {
		if (read_state(ctx, dfd, (unsigned)i, &states[n], fields) < 0)
			break;
		n++;
	}
	pm_batch_end(ctx, was);
	close(dfd);
	pm_err_clear(ctx);
	return n;
}

int pm_idle_states_read(struct pm_ctx *ctx, unsigned cpu,
			struct pm_idle_state *states, int max)
{
	return pm_idle_states_read_fields(ctx, cpu, states, max, PM_IDLE_ALL);
}

bool pm_idle_state_exists(struct pm_ctx *ctx, unsigned cpu, unsigned n)
{
	char path[96];

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%u/cpuidle/state%u", cpu, n);
	return pm_exists(ctx, path);
}

int pm_idle_states_alloc(struct pm_ctx *ctx, unsigned cpu, unsigned fields,
			 struct pm_idle_state **out, bool *cut)
{
	struct pm_idle_state *v = NULL, one;
	int dfd, n = 0, cap = 0, r = 0;
	bool was;

	*out = NULL;
	if (cut)
		*cut = false;
	dfd = states_dir(ctx, cpu);
	if (dfd < 0) {
		pm_err_clear(ctx);
		return 0;
	}
	was = pm_batch_begin(ctx);
	for (;;) {
		if (n == PM_IDLE_STATES_LIMIT) {
			if (cut)
				*cut = read_state(ctx, dfd, (unsigned)n, &one,
						  0) == 0;
			break;
		}
		if (n == cap) {
			int ncap = cap ? cap * 2 : 16;
			struct pm_idle_state *nv =
				realloc(v, (size_t)ncap * sizeof(*v));

			if (!nv) {
				r = -ENOMEM;
				break;
			}
			v = nv;
			cap = ncap;
		}
		if (read_state(ctx, dfd, (unsigned)n, &v[n], fields) < 0)
			break;
		n++;
	}
	pm_batch_end(ctx, was);
	close(dfd);
	pm_err_clear(ctx);
	if (r < 0 || !n) {
		free(v);
		return r;
	}
	*out = v;
	return n;
}

static bool same_table(const struct pm_idle_state *a, int na,
		       const struct pm_idle_state *b, int nb)
{
	if (na != nb)
		return false;
	for (int i = 0; i < na; i++)
		if (strcmp(a[i].name, b[i].name) ||
		    a[i].latency_us != b[i].latency_us ||
		    a[i].residency_us != b[i].residency_us)
			return false;
	return true;
}

void pm_idle_groups_free(struct pm_idle_group *g, int n)
{
	for (int i = 0; g && i < n; i++) {
		free(g[i].st);
		free(g[i].disabled);
		free(g[i].known);
	}
	free(g);
}

/* A new group for cpu, its table read whole (with desc). */
static int group_add(struct pm_ctx *ctx, struct pm_idle_group *g,
		     unsigned cpu)
{
	memset(g, 0, sizeof(*g));
	pm_cpuset_set(&g->cpus, cpu);
	g->n = pm_idle_states_alloc(ctx, cpu, PM_IDLE_NAMES | PM_IDLE_DISABLE,
				    &g->st, &g->cut);
	if (g->n < 0)
		return g->n;
	g->disabled = calloc((size_t)g->n + 1, sizeof(*g->disabled));
	g->known = calloc((size_t)g->n + 1, sizeof(*g->known));
	return g->disabled && g->known ? 0 : -ENOMEM;
}

int pm_idle_groups_read(struct pm_ctx *ctx, const struct pm_cpuset *sel,
			struct pm_idle_group **out)
{
	struct pm_idle_group *v = NULL;
	int n = 0, cap = 0;

	*out = NULL;
	pm_cpuset_foreach(cpu, sel)
	{
		struct pm_idle_state *st;
		struct pm_idle_group *g = NULL;
		int k = pm_idle_states_alloc(ctx, (unsigned)cpu,
					     PM_IDLE_NAMES | PM_IDLE_NODESC |
						     PM_IDLE_DISABLE,
					     &st, NULL);

		if (k < 0)
			goto oom;
		if (!k)
			continue;
		for (int i = 0; i < n && !g; i++)
			if (same_table(v[i].st, v[i].n, st, k))
				g = &v[i];
		if (!g) {
			if (n == cap) {
				int ncap = cap ? cap * 2 : 4;
				struct pm_idle_group *nv = realloc(
					v, (size_t)ncap * sizeof(*v));

				if (!nv) {
					free(st);
					goto oom;
				}
				v = nv;
				cap = ncap;
			}
			g = &v[n++];
			if (group_add(ctx, g, (unsigned)cpu) < 0) {
				free(st);
				goto oom;
			}
		}
		pm_cpuset_set(&g->cpus, (unsigned)cpu);
		for (int i = 0; i < k && i < g->n; i++) {
			if (st[i].disabled < 0)
				continue;
			g->known[i]++;
			g->disabled[i] += (unsigned)st[i].disabled;
		}
		free(st);
	}
	*out = v;
	return n;
oom:
	pm_idle_groups_free(v, n);
	return -ENOMEM;
}
