// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl cpu and smt: the CPUs online and offline, SMT (show), CPU
 * hotplug and SMT control (set), through lib/cpuplan.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

int cmd_cpu(struct pmctl *p, int argc, char **argv)
{
	char buf[1024];
	struct pm_cpuset fixed;

	if (argc >= 1 && (!strcmp(argv[0], "online") ||
			  !strcmp(argv[0], "offline")))
		return pmctl_cpu_set(p, argc, argv);
	pmctl_view_args(p, "cpu", argc, argv);
	pmctl_read_cpus(p);
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN) {
		pmctl_cpus_json(p);
		return pmctl_view_end(p);
	}
	pm_cpulist_format(&p->cpus.present, buf, sizeof(buf));
	pm_out_printf(&p->o, "present   %s\n", buf[0] ? buf : "none");
	pm_cpulist_format(&p->cpus.possible, buf, sizeof(buf));
	pm_out_printf(&p->o, "possible  %s\n", buf[0] ? buf : "none");
	pm_cpulist_format(&p->cpus.online, buf, sizeof(buf));
	pm_out_printf(&p->o, "online    %s\n", buf[0] ? buf : "none");
	pm_cpulist_format(&p->cpus.offline, buf, sizeof(buf));
	pm_out_printf(&p->o, "offline   %s\n", buf[0] ? buf : "none");
	pm_out_printf(&p->o, "SMT       %s%s\n",
		      p->cpus.smt_control[0] ? p->cpus.smt_control :
					       "not available",
		      p->cpus.smt_active == 1 ? " (active)" :
		      p->cpus.smt_active == 0 ? " (inactive)" :
						"");
	/* CPUs without an online file cannot be hot-plugged. */
	pm_cpuset_zero(&fixed);
	pm_cpuset_foreach(c, &p->cpus.present)
		if (!pm_cpu_hotpluggable(&p->ctx, (unsigned)c))
			pm_cpuset_set(&fixed, (unsigned)c);
	pm_cpulist_format(&fixed, buf, sizeof(buf));
	pm_out_printf(&p->o, "fixed     %s (no online file: not "
			     "hot-pluggable)\n",
		      buf[0] ? buf : "none");
	return pmctl_view_end(p);
}

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
	pmctl_read_cpus(p);
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
		pmctl_read_cpus(p);
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
	pmctl_read_cpus(p);
	pm_smt_plan(&w, &p->cpus, argv[0], NULL);
	w.perm_ok = true;
	return pm_writer_commit(&w);
}
