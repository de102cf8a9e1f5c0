// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl's other setters: idle states and the cpuidle governor, CPU
 * hotplug and SMT, the platform profile, devfreq devices and battery
 * charge thresholds.  Each checks everything first, then writes through
 * the shared all-or-nothing path (lib/writer.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

#define WRITE_SEEN                                                           \
	(PM_SEEN_FORMAT | PM_SEEN_OUTPUT | PM_SEEN_WAIT | PM_SEEN_DRY_RUN)
/* The kernel's PM QoS ceiling for a latency (PM_QOS_CPU_LATENCY_DEFAULT). */
#define LATENCY_MAX_US 2000000000ULL

static void read_cpus(struct pmctl *p)
{
	if (pm_cpus_read(&p->ctx, &p->cpus) < 0)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no CPUs under /sys/devices/system/cpu");
}

/* A kernel name given by the user: letters, digits, '_', '-', '.'. */
static bool word_ok(const char *s, size_t max)
{
	size_t n = strlen(s);

	if (!n || n > max || !strcmp(s, ".") || !strcmp(s, ".."))
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '-' ||
		      *s == '.' || *s == ':'))
			return false;
	return true;
}

/* A latency in µs: a bare number is µs here (the argument says _US). */
uint64_t pmctl_latency_arg(struct pmctl *p, const char *cmd, const char *s)
{
	uint64_t us;
	int r;

	if (*s >= '0' && *s <= '9' && s[strspn(s, "0123456789")] == '\0')
		r = pm_parse_u64(s, &us);
	else
		r = pm_parse_duration_us(s, &us);
	if (r < 0 || us > LATENCY_MAX_US)
		pm_usage_error(&p->t,
			       "%s: invalid latency '%s' (microseconds, or "
			       "with us, ms or s; at most 2000 s)",
			       cmd, s);
	return us;
}

/* ---------------------------------------------------------------- idle */

struct idle_cpu {
	unsigned cpu;
	int n;
	struct pm_idle_state *st;	/* every state, no cut at ten */
};

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
		pm_cpuset_zero(&set);
		for (int j = k; j < n; j++) {
			char other[512];

			state_names(&c[j], other, sizeof(other));
			if (!strcmp(names, other))
				pm_cpuset_set(&set, c[j].cpu);
		}
		pm_cpulist_format(&set, cpus, sizeof(cpus));
		o += (size_t)snprintf(buf + o, size - o, "%scpus %s: %s",
				      o ? "; " : "", cpus, names);
		kinds++;
	}
	return kinds;
}

static void idle_cpus_free(struct idle_cpu *v, int n)
{
	for (int k = 0; v && k < n; k++)
		free(v[k].st);
	free(v);
}

/* The selected online CPUs with their states; offline ones noted. */
static struct idle_cpu *idle_cpus(struct pmctl *p, int *ncpu)
{
	struct pm_cpuset sel, off;
	struct idle_cpu *v;
	char list[256];
	int k = 0;

	read_cpus(p);
	if (pm_cpus_select(&p->ctx, &p->cpus, p->t.cpu ? p->t.cpu : "all",
			   &sel) < 0)
		pm_usage_error(&p->t, "--cpu '%s': %s", p->t.cpu,
			       p->ctx.err.hint);
	off = sel;
	pm_cpuset_andnot(&off, &p->cpus.online);
	if (!pm_cpuset_empty(&off)) {
		pm_cpulist_format(&off, list, sizeof(list));
		pm_note(&p->t, "cpus %s are offline: skipped", list);
	}
	pm_cpuset_and(&sel, &p->cpus.online);
	v = calloc(pm_cpuset_count(&sel) + 1, sizeof(*v));
	if (!v)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	pm_cpuset_foreach(cpu, &sel)
	{
		v[k].cpu = (unsigned)cpu;
		v[k].n = pm_idle_states_alloc(&p->ctx, (unsigned)cpu,
					      PM_IDLE_NAMES | PM_IDLE_NODESC |
						      PM_IDLE_DISABLE,
					      &v[k].st, NULL);
		if (v[k].n < 0)
			pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
		if (v[k].n == 0)
			pm_die(&p->t, PM_EXIT_UNSUPPORTED,
			       "cpu%d has no idle states (no "
			       "cpu%d/cpuidle)",
			       cpu, cpu);
		k++;
	}
	if (!k)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no online CPU in the selection");
	*ncpu = k;
	return v;
}

/*
 * Which states of each CPU a disable or enable names: a name is the
 * state of that name on every CPU that has one (a phone's clusters each
 * name their deep state differently), an index the state of that index.
 * A STATE no selected CPU has is -1 with the message in msg (exit 3 once
 * the caller has freed what it holds); the CPUs without it are left
 * alone, and a note says so.
 */
static int idle_named(struct pmctl *p, const char *verb, char **argv,
		      int argc, struct idle_cpu *c, int n, bool **touch,
		      bool **want, char *msg, size_t msize)
{
	bool dis = !strcmp(verb, "disable");

	for (int a = 0; a < argc; a++) {
		struct pm_cpuset without;
		char list[256];
		int found = 0;

		pm_cpuset_zero(&without);
		for (int k = 0; k < n; k++) {
			int i;

			if (!dis && !strcmp(argv[a], "all")) {
				for (i = 0; i < c[k].n; i++)
					touch[k][i] = true;
				found++;
				continue;
			}
			i = state_index(&c[k], argv[a]);
			if (i < 0) {
				pm_cpuset_set(&without, c[k].cpu);
				continue;
			}
			touch[k][i] = true;
			want[k][i] = dis;
			found++;
		}
		if (!found) {
			char names[1024], one[512];

			if (all_state_names(c, n, names, sizeof(names)) == 1) {
				state_names(&c[0], one, sizeof(one));
				snprintf(msg, msize,
					 "no idle state '%s' on cpu%u "
					 "(states: %s)",
					 argv[a], c[0].cpu, one);
				return -1;
			}
			snprintf(msg, msize,
				 "no idle state '%s' on the selected CPUs (%s)",
				 argv[a], names);
			return -1;
		}
		if (!pm_cpuset_empty(&without)) {
			pm_cpulist_format(&without, list, sizeof(list));
			pm_note(&p->t, "cpus %s have no idle state '%s': "
				       "left alone",
				list, argv[a]);
		}
	}
	return 0;
}

static int idle_governor(struct pmctl *p, int argc, char **argv)
{
	struct pm_writer w;

	if (argc != 1)
		pm_usage_error(&p->t, "idle governor: give one governor name");
	if (!word_ok(argv[0], PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "idle governor: invalid name '%s'",
			       argv[0]);
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl idle governor");
	pmctl_write_begin(p, &w);
	pm_idle_governor_plan(&w, argv[0], NULL);
	return pm_writer_commit(&w);
}

static void idle_marks_free(bool **touch, bool **want, int n)
{
	for (int k = 0; k < n; k++) {
		free(touch[k]);
		free(want[k]);
	}
	free(touch);
	free(want);
}

int pmctl_idle_set(struct pmctl *p, int argc, char **argv)
{
	const char *verb = argv[0];
	struct idle_cpu *c;
	struct pm_writer w;
	uint64_t limit = 0;
	char msg[2048];
	int n, code;

	pmctl_opts_only(p, 0, "pmctl idle");
	argc--;
	argv++;
	if (!strcmp(verb, "governor"))
		return idle_governor(p, argc, argv);
	pm_tool_only(&p->t, PM_SEEN_CPU | WRITE_SEEN, "pmctl idle");
	if (!strcmp(verb, "limit")) {
		if (argc != 1)
			pm_usage_error(&p->t, "idle limit: give one latency "
					      "in microseconds");
		limit = pmctl_latency_arg(p, "idle limit", argv[0]);
	} else if (!argc) {
		pm_usage_error(&p->t, "idle %s: name the states (a name such "
				      "as C6, or an index)",
			       verb);
	}
	for (int a = 0; a < argc; a++)
		if (!strcmp(verb, "disable") && !strcmp(argv[a], "all"))
			pm_usage_error(&p->t, "idle disable: name the states; "
					      "only enable takes all");
	for (int a = 0; a < argc; a++) {
		uint64_t v;

		/* An index too big for any number is no index. */
		if (!word_ok(argv[a], PM_NAME_MAX - 1) ||
		    pm_parse_u64(argv[a], &v) == -ERANGE)
			pm_usage_error(&p->t, "idle %s: invalid state '%s'",
				       verb, argv[a]);
	}
	pmctl_write_begin(p, &w);
	c = idle_cpus(p, &n);
	bool **touch = calloc((size_t)n, sizeof(*touch));
	bool **want = calloc((size_t)n, sizeof(*want));

	if (!touch || !want)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	for (int k = 0; k < n; k++) {
		touch[k] = calloc((size_t)c[k].n, sizeof(**touch));
		want[k] = calloc((size_t)c[k].n, sizeof(**want));
		if (!touch[k] || !want[k])
			pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
		if (strcmp(verb, "limit"))
			continue;
		for (int i = 0; i < c[k].n; i++) {
			touch[k][i] = true;
			want[k][i] = c[k].st[i].latency_us != PM_UNKNOWN &&
				     c[k].st[i].latency_us > limit;
		}
	}
	if (strcmp(verb, "limit") &&
	    idle_named(p, verb, argv, argc, c, n, touch, want, msg,
		       sizeof(msg)) < 0) {
		idle_marks_free(touch, want, n);
		idle_cpus_free(c, n);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED, "%s", msg);
	}
	for (int k = 0; k < n; k++)
		for (int i = 0; i < c[k].n; i++)
			if (touch[k][i])
				pm_idle_disable_plan(&w, c[k].cpu,
						     &c[k].st[i], want[k][i],
						     NULL);
	code = pm_writer_commit(&w);
	idle_marks_free(touch, want, n);
	idle_cpus_free(c, n);
	return code;
}

/* ---------------------------------------------------------------- cpu */

static const struct pm_cpus *cur_cpus;

static void explain_hotplug(struct pm_writer *w, const struct pm_write *x,
			    char *buf, size_t size)
{
	struct pmctl *p = w->arg;
	char err[PM_PATH_MAX + 600];
	const char *why = "";
	unsigned cpu = 0;

	pm_err_str(&p->ctx.err, err, sizeof(err));
	pm_hotplug_cpu(x->path, &cpu);
	if (x->err == EBUSY)
		why = " (the last online CPU cannot go, and hotplug is off "
		      "during a suspend)";
	else if (x->err == EPERM && !strcmp(x->val, "1") && cur_cpus &&
		 (!strcmp(cur_cpus->smt_control, "off") ||
		  !strcmp(cur_cpus->smt_control, "forceoff")))
		why = " (an SMT sibling stays offline while smt/control is "
		      "off: pmctl smt on)";
	else if (x->err == EPERM)
		why = " (the kernel does not let this CPU go offline)";
	else if (x->err == EOPNOTSUPP)
		why = " (this machine does not allow CPU hotplug: a "
		      "confidential-computing guest)";
	snprintf(buf, size, "cannot take cpu%u %s: %s%s", cpu,
		 !strcmp(x->val, "1") ? "online" : "offline", err, why);
}

int pmctl_cpu_set(struct pmctl *p, int argc, char **argv)
{
	bool on = !strcmp(argv[0], "online");
	struct pm_cpuset want, left;
	struct pm_hotplug h = { .where = NULL };
	struct pm_writer w;
	char list[256];
	int r;

	pmctl_opts_only(p, 0, "pmctl cpu");
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl cpu online|offline");
	if (argc != 2)
		pm_usage_error(&p->t, "cpu %s: give one CPU list (0-3,8)",
			       argv[0]);
	r = pm_cpulist_parse(argv[1], &want);
	if (r < 0 || pm_cpuset_empty(&want))
		pm_usage_error(&p->t, "cpu %s: invalid CPU list '%s'", argv[0],
			       argv[1]);
	pmctl_write_begin(p, &w);
	read_cpus(p);
	left = want;
	pm_cpuset_andnot(&left, &p->cpus.present);
	if (!pm_cpuset_empty(&left)) {
		pm_cpulist_format(&left, list, sizeof(list));
		pm_die(&p->t, PM_EXIT_USAGE, "cpu %s: no CPU %s on this "
					     "machine",
		       argv[0], list);
	}
	pm_cpuset_zero(&h.up);
	pm_cpuset_zero(&h.down);
	if (on)
		h.up = want;
	else
		h.down = want;
	pm_hotplug_check(&w, &p->cpus, &h);
	pm_hotplug_plan(&w, &want, on);
	cur_cpus = &p->cpus;
	w.perm_ok = true;
	w.explain_fail = explain_hotplug;
	return pm_writer_commit(&w);
}

int cmd_smt(struct pmctl *p, int argc, char **argv)
{
	struct pm_writer w;

	pmctl_opts_only(p, 0, "pmctl smt");
	if (argc > 1 || (argc == 1 && strcmp(argv[0], "on") &&
			 strcmp(argv[0], "off") && strcmp(argv[0], "show")))
		pm_usage_error(&p->t, "smt: '%s' is not on, off or show",
			       argc > 1 ? argv[1] : argv[0]);
	if (argc == 0 || !strcmp(argv[0], "show")) {
		pm_tool_only(&p->t, PM_SEEN_FORMAT | PM_SEEN_OUTPUT,
			     "pmctl smt");
		read_cpus(p);
		if (!p->cpus.smt_control[0])
			pm_die(&p->t, PM_EXIT_UNSUPPORTED,
			       "no SMT control on this machine "
			       "(/sys/devices/system/cpu/smt is missing)");
		pm_tool_out(&p->t, &p->o);
		if (p->t.fmt == PM_FMT_HUMAN) {
			pm_out_printf(&p->o, "smt: control %s, active %s\n",
				      p->cpus.smt_control,
				      p->cpus.smt_active < 0 ? "?" :
				      p->cpus.smt_active     ? "yes" :
							       "no");
		} else {
			pm_out_obj_begin(&p->o, NULL);
			pm_out_str(&p->o, "control", p->cpus.smt_control);
			pm_out_flag(&p->o, "active", p->cpus.smt_active);
			pm_out_obj_end(&p->o);
		}
		pm_tool_out_done(&p->t, &p->o);
		return PM_EXIT_OK;
	}
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl smt on|off");
	pmctl_write_begin(p, &w);
	read_cpus(p);
	pm_smt_plan(&w, &p->cpus, argv[0], NULL);
	w.perm_ok = true;
	return pm_writer_commit(&w);
}

/* ---------------------------------------------------------------- profile */

int pmctl_profile_set(struct pmctl *p, const char *name)
{
	struct pm_writer w;

	pm_tool_only(&p->t, WRITE_SEEN, "pmctl profile NAME");
	if (!word_ok(name, PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "profile: invalid profile name '%s'",
			       name);
	pmctl_write_begin(p, &w);
	pm_profile_plan(&w, name, "profile: ");
	return pm_writer_commit(&w);
}

/* ---------------------------------------------------------------- devfreq */

static uint64_t hz_opt(struct pmctl *p, int o, const char *name)
{
	uint64_t hz;

	if (pm_parse_freq_hz(p->opt[o], &hz) < 0 || hz == 0)
		pm_usage_error(&p->t,
			       "--%s: invalid frequency '%s' (kHz, or a "
			       "number with Hz, kHz, MHz or GHz)",
			       name, p->opt[o]);
	return hz;
}

int pmctl_devfreq_set(struct pmctl *p, int argc, char **argv)
{
	const unsigned opts = PMCTL_BIT(PMCTL_O_GOVERNOR) |
			      PMCTL_BIT(PMCTL_O_MIN) | PMCTL_BIT(PMCTL_O_MAX);
	const char *gov = p->opt[PMCTL_O_GOVERNOR];
	uint64_t min = 0, max = 0;
	struct pm_devfreq *df, *d = NULL;
	char a[32], b[32];
	struct pm_writer w;
	int n, code;

	pmctl_opts_only(p, opts, "pmctl devfreq set");
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl devfreq set");
	if (argc != 1)
		pm_usage_error(&p->t, "devfreq set: name one device");
	if (!word_ok(argv[0], PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "devfreq set: invalid device name '%s'",
			       argv[0]);
	if (!gov && !p->opt[PMCTL_O_MIN] && !p->opt[PMCTL_O_MAX])
		pm_usage_error(&p->t, "devfreq set: nothing to set (give "
				      "--governor, --min or --max)");
	if (gov && !word_ok(gov, PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "--governor: invalid governor name '%s'",
			       gov);
	if (p->opt[PMCTL_O_MIN])
		min = hz_opt(p, PMCTL_O_MIN, "min");
	if (p->opt[PMCTL_O_MAX])
		max = hz_opt(p, PMCTL_O_MAX, "max");
	if (min && max && min > max) {
		pm_fmt_hz(min, a, sizeof(a));
		pm_fmt_hz(max, b, sizeof(b));
		pm_die(&p->t, PM_EXIT_USAGE, "--min %s is above --max %s", a,
		       b);
	}
	pmctl_write_begin(p, &w);
	n = pm_devfreqs_read(&p->ctx, &df);
	for (int i = 0; i < n; i++)
		if (!strcmp(df[i].name, argv[0]))
			d = &df[i];
	if (!d)
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no devfreq device '%s' (see pmctl devfreq)", argv[0]);
	pm_devfreq_plan(&w, d, gov, min, max, NULL);
	code = pm_writer_commit(&w);
	free(df);
	return code;
}

/* ---------------------------------------------------------------- supply */

int pmctl_supply_set(struct pmctl *p, int argc, char **argv)
{
	const unsigned opts = PMCTL_BIT(PMCTL_O_CHARGE_START) |
			      PMCTL_BIT(PMCTL_O_CHARGE_STOP) |
			      PMCTL_BIT(PMCTL_O_CHARGE_BEHAVIOUR);
	const char *start = p->opt[PMCTL_O_CHARGE_START];
	const char *stop = p->opt[PMCTL_O_CHARGE_STOP];
	struct pm_charge c = { .behaviour = p->opt[PMCTL_O_CHARGE_BEHAVIOUR] };
	struct pm_supply_set rec[PM_CHARGE_N];
	char err[PM_PATH_MAX + 600];
	struct pm_writer w;
	int code;

	pmctl_opts_only(p, opts, "pmctl supply set");
	pm_tool_only(&p->t, WRITE_SEEN, "pmctl supply set");
	if (argc != 1)
		pm_usage_error(&p->t, "supply set: name one battery (BAT0)");
	if (!word_ok(argv[0], PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "supply set: invalid supply name '%s'",
			       argv[0]);
	c.name = argv[0];
	c.has_start = start != NULL;
	c.has_stop = stop != NULL;
	if (!start && !stop && !c.behaviour)
		pm_usage_error(&p->t, "supply set: nothing to set (give "
				      "--charge-start, --charge-stop or "
				      "--charge-behaviour)");
	if (start && pm_parse_pct(start, &c.start))
		pm_usage_error(&p->t, "--charge-start: invalid percentage "
				      "'%s' (0 to 100)",
			       start);
	if (stop && pm_parse_pct(stop, &c.stop))
		pm_usage_error(&p->t, "--charge-stop: invalid percentage "
				      "'%s' (0 to 100)",
			       stop);
	if (c.behaviour && !word_ok(c.behaviour, PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "--charge-behaviour: invalid value '%s'",
			       c.behaviour);
	pmctl_write_begin(p, &w);
	pm_charge_plan(&w, &c);
	code = pm_writer_commit(&w);
	/* What the user wants now: opp-set --reapply gives it back to a
	 * firmware that drops it. */
	if (code == PM_EXIT_OK && !p->t.dry_run &&
	    pm_supply_record_update(&p->ctx, rec, pm_charge_record(&c, rec)) <
		    0)
		pm_warn(&p->t, "the charge settings were written, but cannot "
			       "be recorded for opp-set --reapply: %s",
			pm_err_str(&p->ctx.err, err, sizeof(err)));
	return code;
}
