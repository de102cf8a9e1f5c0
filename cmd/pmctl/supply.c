// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl supply: power supplies (show) and a battery's charge settings
 * (set, through pm_charge_plan).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

int cmd_supply(struct pmctl *p, int argc, char **argv)
{
	struct pm_supply *v;
	int n;

	if (argc >= 1 && !strcmp(argv[0], "set"))
		return pmctl_supply_set(p, argc - 1, argv + 1);
	pmctl_view_args(p, "supply", argc, argv);
	n = pm_supplies_read(&p->ctx, &v);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n) {
		free(v);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no power supplies (/sys/class/power_supply is empty "
		       "or missing)");
	}
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN)
		pmctl_supply_json(&p->o, v, n);
	else
		pmctl_human_supplies(p, v, n);
	free(v);
	return pmctl_view_end(p);
}

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
	if (!pmctl_word_ok(argv[0], PM_NAME_MAX - 1))
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
	if (c.behaviour && !pmctl_word_ok(c.behaviour, PM_NAME_MAX - 1))
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
