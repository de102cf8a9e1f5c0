// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The idle states planner, shared by pmctl idle disable|enable|limit and
 * opp-set's [cpuidle] disable and max_latency: which states of which
 * online CPUs are disabled or enabled, checked against the states each
 * CPU has before anything is written (exit 3 naming the states there),
 * then one write of each state's disable file.  A state is named by its
 * name (exactly, else in any case) or its index, on every CPU that has
 * one: a phone's clusters each name their deep state their own way.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plan.h"
#include "core.h"
#include "txn.h"
#include "parse.h"
#include "cpuset.h"
#include "cpuidle.h"
#include "tool.h"
#include "writer.h"

#define CPU_DIR "/sys/devices/system/cpu"

struct idle_cpu {
	unsigned cpu;
	int n;
	struct pm_idle_state *st;	/* every state, no cut at ten */
	signed char *set;		/* per state: 1 disable, 0 enable, -1 */
};

static const char *at(const char *where)
{
	return where ? where : "";
}

bool pm_idle_disable_plan(struct pm_writer *w, unsigned cpu,
			  const struct pm_idle_state *st, bool disable,
			  const char *where)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cpuidle/state%u/disable",
		 cpu, st->index);
	/* There and unreadable: exit 1 naming it, never a guess. */
	if (st->disable_err)
		pm_die(w->t, PM_EXIT_FAIL, "%scannot read %s: %s (%s)",
		       at(where), path, strerror(st->disable_err),
		       pm_errno_name(st->disable_err));
	if (st->disabled < 0)
		return false;
	pm_writer_set(w, path, st->disabled ? "1" : "0", disable ? "1" : "0",
		      0, NULL);
	return true;
}

/* The index of STATE (a name or a number) on one CPU, or -1. */
static int state_index(const struct idle_cpu *c, const char *arg)
{
	uint64_t v;

	if (pm_parse_u64(arg, &v) == 0)
		return v < (uint64_t)c->n ? (int)v : -1;
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->st[i].name, arg))
			return i;
	for (int i = 0; i < c->n; i++)
		if (!strcasecmp(c->st[i].name, arg))
			return i;
	return -1;
}

/* "0:POLL 1:C1 ..." of a CPU, cut with "..." to fit. */
static void state_names(const struct idle_cpu *c, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = '\0';
	for (int i = 0; i < c->n && o < size; i++)
		o += (size_t)snprintf(buf + o, size - o, "%s%d:%s",
				      i ? " " : "", i, c->st[i].name);
	if (o >= size && size > 4)
		memcpy(buf + size - 4, "...", 4);
}

/* The CPUs of c[k..n) whose states are named as c[k]'s. */
static void same_names(const struct idle_cpu *c, int k, int n,
		       const char *names, struct pm_cpuset *set)
{
	char other[512];

	pm_cpuset_zero(set);
	for (int j = k; j < n; j++) {
		state_names(&c[j], other, sizeof(other));
		if (!strcmp(names, other))
			pm_cpuset_set(set, c[j].cpu);
	}
}

/* Each kind of state table of the CPUs once: "cpus 0-2: 0:WFI 1:C4";
 * returns how many kinds. */
static int all_state_names(const struct idle_cpu *c, int n, char *buf,
			   size_t size)
{
	size_t o = 0;
	int kinds = 0;

	buf[0] = '\0';
	for (int k = 0; k < n && o < size; k++) {
		char names[512], cpus[256];
		struct pm_cpuset set;
		bool seen = false;

		state_names(&c[k], names, sizeof(names));
		for (int j = 0; j < k && !seen; j++) {
			char other[512];

			state_names(&c[j], other, sizeof(other));
			seen = !strcmp(names, other);
		}
		if (seen)
			continue;
		same_names(c, k, n, names, &set);
		pm_cpulist_format(&set, cpus, sizeof(cpus));
		o += (size_t)snprintf(buf + o, size - o, "%scpus %s: %s",
				      o ? "; " : "", cpus, names);
		kinds++;
	}
	return kinds;
}

static void idle_cpus_free(struct idle_cpu *v, int n)
{
	for (int k = 0; v && k < n; k++) {
		free(v[k].st);
		free(v[k].set);
	}
	free(v);
}

/* Every state of each CPU of the request: exit 3 when one has none. */
static struct idle_cpu *idle_cpus(struct pm_writer *w,
				  const struct pm_idle_set *r, int *ncpu)
{
	struct idle_cpu *v = calloc(pm_cpuset_count(&r->cpus) + 1,
				    sizeof(*v));
	int k = 0;

	if (!v)
		pm_die(w->t, PM_EXIT_FAIL, "out of memory");
	pm_cpuset_foreach(cpu, &r->cpus)
	{
		v[k].cpu = (unsigned)cpu;
		v[k].n = pm_idle_states_alloc(w->ctx, (unsigned)cpu,
					      PM_IDLE_NAMES | PM_IDLE_NODESC |
						      PM_IDLE_DISABLE,
					      &v[k].st, NULL);
		if (v[k].n < 0 || !(v[k].set = malloc((size_t)v[k].n + 1)))
			pm_die(w->t, PM_EXIT_FAIL, "out of memory");
		memset(v[k].set, -1, (size_t)v[k].n + 1);
		if (v[k].n == 0)
			pm_die(w->t, PM_EXIT_UNSUPPORTED,
			       "%scpu%d has no idle states (no cpu%d/cpuidle)",
			       at(r->where), cpu, cpu);
		k++;
	}
	if (!k)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sno online CPU in the selection", at(r->where));
	*ncpu = k;
	return v;
}

/* A name no CPU has: the message naming the states there are. */
static void no_state(const struct pm_idle_set *r, const struct idle_cpu *c,
		     int n, const char *name, char *msg, size_t size)
{
	char names[1024], one[512];

	if (all_state_names(c, n, names, sizeof(names)) == 1) {
		state_names(&c[0], one, sizeof(one));
		snprintf(msg, size, "%sno idle state '%s' on cpu%u (states: %s)",
			 at(r->where), name, c[0].cpu, one);
		return;
	}
	snprintf(msg, size, "%sno idle state '%s' on the selected CPUs (%s)",
		 at(r->where), name, names);
}

/* The states one name marks on each CPU; the CPUs without it are left
 * alone, and a note says so.  -1 when no CPU has it, with msg. */
static int mark_name(struct pm_writer *w, const struct pm_idle_set *r,
		     struct idle_cpu *c, int n, const char *name, char *msg,
		     size_t size)
{
	struct pm_cpuset without;
	char list[256];
	int found = 0;

	pm_cpuset_zero(&without);
	for (int k = 0; k < n; k++) {
		int i;

		if (r->enable && !strcmp(name, "all")) {
			memset(c[k].set, 0, (size_t)c[k].n);
			found++;
			continue;
		}
		i = state_index(&c[k], name);
		if (i < 0) {
			pm_cpuset_set(&without, c[k].cpu);
			continue;
		}
		c[k].set[i] = r->enable ? 0 : 1;
		found++;
	}
	if (!found) {
		no_state(r, c, n, name, msg, size);
		return -1;
	}
	if (!pm_cpuset_empty(&without)) {
		pm_cpulist_format(&without, list, sizeof(list));
		pm_note(w->t, "cpus %s have no idle state '%s': left alone",
			list, name);
	}
	return 0;
}

/* The disable writes marked; exit 3 when none of them has the file. */
static void plan_marked(struct pm_writer *w, const struct pm_idle_set *r,
			const struct idle_cpu *c, int n)
{
	int planned = 0, missing = 0;

	for (int k = 0; k < n; k++)
		for (int i = 0; i < c[k].n; i++) {
			if (c[k].set[i] < 0)
				continue;
			if (pm_idle_disable_plan(w, c[k].cpu, &c[k].st[i],
						 c[k].set[i], r->where))
				planned++;
			else
				missing++;
		}
	/* States without their disable file: a kernel before 3.x. */
	if (missing && !planned)
		pm_die(w->t, PM_EXIT_UNSUPPORTED,
		       "%sthe idle states here have no disable file "
		       "(" CPU_DIR "/cpuN/cpuidle/stateK/disable is missing)",
		       at(r->where));
}

void pm_idle_plan(struct pm_writer *w, const struct pm_idle_set *r)
{
	struct idle_cpu *c;
	int n;

	char msg[2048];

	c = idle_cpus(w, r, &n);
	for (int k = 0; r->rest && k < n; k++)
		for (int i = 0; i < c[k].n; i++)
			c[k].set[i] = (signed char)(r->has_latency &&
				      c[k].st[i].latency_us != PM_UNKNOWN &&
				      c[k].st[i].latency_us > r->latency_us);
	for (int a = 0; a < r->n_names; a++)
		if (mark_name(w, r, c, n, r->names[a], msg, sizeof(msg)) < 0) {
			/* Freed first: the exit is no leak. */
			idle_cpus_free(c, n);
			pm_die(w->t, PM_EXIT_UNSUPPORTED, "%s", msg);
		}
	plan_marked(w, r, c, n);
	idle_cpus_free(c, n);
}
