// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "history": pm_hist_add_text on any bytes, as the text of
 * pm-suspend's history log, then pm_hist_weeks.  Checked: 0; every line
 * is a cycle or counted unparsed; a cycle's fields are in their ranges
 * and its strings end within their fields; the weeks are in order and
 * add up to the cycles, each week's median within its worst.
 */
#include <math.h>

#include "fuzz.h"

static void check_rec(const struct pm_hist_rec *r)
{
	CHECK(r->time >= 0);
	CHECK(r->mode <= PM_MODE_SUSPEND_THEN_HIBERNATE);
	CHECK(r->result <= PM_HIST_SKIPPED);
	CHECK(isfinite(r->resume_s) && r->resume_s >= 0);
	CHECK(isnan(r->trace_resume_s) ||
	      (isfinite(r->trace_resume_s) && r->trace_resume_s >= 0));
	CHECK(r->wake_irq >= -1);
	CHECK(memchr(r->wake_irq_name, 0, sizeof(r->wake_irq_name)));
	CHECK(memchr(r->failed_device, 0, sizeof(r->failed_device)));
	CHECK(memchr(r->failed_driver, 0, sizeof(r->failed_driver)));
}

static void check_week(const struct pm_hist_week *w)
{
	unsigned woken = 0;

	CHECK(w->week >= 1 && w->week <= 53);
	CHECK(w->cycles && w->ok + w->failed + w->skipped == w->cycles);
	CHECK(w->nresume == w->ok && w->ntrace <= w->ok);
	CHECK(w->nresume ? w->resume_median_s <= w->resume_worst_s :
			   isnan(w->resume_median_s));
	CHECK(w->ntrace ? w->trace_median_s <= w->trace_worst_s :
			  isnan(w->trace_median_s));
	for (int i = 0; i < w->nwake; i++) {
		CHECK(w->wake[i].cycles);
		CHECK(!i || w->wake[i - 1].cycles >= w->wake[i].cycles);
		woken += w->wake[i].cycles;
	}
	CHECK(woken == w->ok);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_hist h = { 0 };
	struct pm_hist_week *w;
	char *text = fz_mem(data, size);
	unsigned total = 0;
	int n;

	CHECK(pm_hist_add_text(&h, "f", text, size) == 0);
	free(text);
	CHECK(h.n + h.unparsed == h.lines);
	CHECK(!h.unparsed == !h.first_bad[0]);
	for (int i = 0; i < h.n; i++)
		check_rec(&h.rec[i]);
	n = pm_hist_weeks(&h, &w);
	CHECK(n >= 0 && n <= h.n);
	for (int i = 0; i < n; i++) {
		check_week(&w[i]);
		CHECK(!i || w[i - 1].year * 100 + w[i - 1].week <
				    w[i].year * 100 + w[i].week);
		total += w[i].cycles;
	}
	CHECK(total == (unsigned)h.n);
	pm_hist_weeks_free(w, n);
	pm_hist_free(&h);
	return 0;
}
