// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "trace": pm_trace_parse on any text (the input as bytes,
 * no NUL needed).  Checked: 0; every line counted once (header, event,
 * other, lost mark or unparsed); no span or callback ends before it
 * begins; a callback's phase is a dpm_* span begun before it; the
 * slowest callbacks come slowest first; the split adds up.
 */
#include <errno.h>

#include "fuzz.h"

static void check_slowest(const struct pm_trace *t, enum pm_trace_dir dir)
{
	int idx[8], n = pm_trace_slowest(t, dir, idx, 8);

	CHECK(n >= 0 && n <= 8 && n <= t->ncb);
	for (int i = 0; i < n; i++) {
		CHECK(idx[i] >= 0 && idx[i] < t->ncb);
		CHECK(t->cb[idx[i]].dir == dir);
		CHECK(pm_trace_cb_us(&t->cb[idx[i]]) != PM_UNKNOWN);
		if (i)
			CHECK(pm_trace_cb_us(&t->cb[idx[i - 1]]) >=
			      pm_trace_cb_us(&t->cb[idx[i]]));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_trace t;
	struct pm_trace_split s;
	int r = pm_trace_parse((const char *)data, size, &t), f;

	CHECK(r == 0 || r == -ENOMEM);
	if (r)
		return 0;
	CHECK(t.header + t.events + t.other + t.lost_marks + t.unparsed ==
	      t.lines);
	CHECK(!t.truncated || t.unparsed);
	CHECK(t.unparsed ? t.first_bad >= 1 && t.first_bad <= t.lines :
			   !t.first_bad);
	CHECK(t.nspan + t.ncb + t.unmatched <= t.events);
	for (int i = 0; i < t.nspan; i++)
		CHECK(t.span[i].end_us == PM_UNKNOWN ||
		      t.span[i].end_us >= t.span[i].begin_us);
	for (int i = 0; i < t.ncb; i++) {
		const struct pm_trace_cb *c = &t.cb[i];

		CHECK(c->end_us == PM_UNKNOWN || c->end_us >= c->start_us);
		CHECK(c->dir != PM_TRACE_OTHER && c->device[0]);
		CHECK(c->span >= -1 && c->span < t.nspan);
		if (c->span >= 0)
			CHECK(!strncmp(t.span[c->span].name, "dpm_", 4) &&
			      t.span[c->span].begin_us <= c->start_us);
	}
	check_slowest(&t, PM_TRACE_SUSPEND);
	check_slowest(&t, PM_TRACE_RESUME);
	f = pm_trace_failed(&t);
	CHECK(f == -1 || (f >= 0 && f < t.ncb && t.cb[f].error));
	if (pm_trace_split(&t, &s) == 0)
		CHECK(s.suspend_us <= UINT64_MAX - s.asleep_us - s.resume_us);
	pm_trace_free(&t);
	return 0;
}
