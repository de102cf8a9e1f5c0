// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmctl devfreq: devfreq devices (show) and their governor and limits
 * (set, through pm_devfreq_plan).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pmctl.h"

int cmd_devfreq(struct pmctl *p, int argc, char **argv)
{
	struct pm_devfreq *v;
	int n;

	if (argc >= 1 && !strcmp(argv[0], "set"))
		return pmctl_devfreq_set(p, argc - 1, argv + 1);
	pmctl_view_args(p, "devfreq", argc, argv);
	n = pm_devfreqs_read(&p->ctx, &v);
	if (n < 0)
		pm_die(&p->t, PM_EXIT_FAIL, "out of memory");
	if (!n) {
		free(v);
		pm_die(&p->t, PM_EXIT_UNSUPPORTED,
		       "no devfreq devices (/sys/class/devfreq is empty or "
		       "missing)");
	}
	pmctl_view_begin(p);
	if (p->t.fmt != PM_FMT_HUMAN)
		pmctl_devfreq_json(&p->o, v, n);
	else
		pmctl_human_devfreq(p, v, n);
	free(v);
	return pmctl_view_end(p);
}

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
	if (!pmctl_word_ok(argv[0], PM_NAME_MAX - 1))
		pm_usage_error(&p->t, "devfreq set: invalid device name '%s'",
			       argv[0]);
	if (!gov && !p->opt[PMCTL_O_MIN] && !p->opt[PMCTL_O_MAX])
		pm_usage_error(&p->t, "devfreq set: nothing to set (give "
				      "--governor, --min or --max)");
	if (gov && !pmctl_word_ok(gov, PM_NAME_MAX - 1))
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
