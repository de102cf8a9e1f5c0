// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "tables": the kernel table parsers.  Each input (NUL-
 * terminated) goes to all four, so a seed of one table also tries the
 * others' "not that table" paths:
 *
 *   pm_clk_parse          debugfs clk/clk_summary
 *   pm_genpd_parse        debugfs pm_genpd/pm_genpd_summary
 *   pm_trans_table_parse  cpufreq stats/trans_table
 *   pm_tis_parse          cpufreq stats/time_in_state
 *
 * Checked: an error leaves the table empty; every string points into the
 * table's own copy of the text; the clock tree is a tree (a parent comes
 * before its children, one level up); a domain's devices and children
 * are runs of their arrays; a transition table or a time_in_state list
 * printed back in the kernel's format parses to the same numbers.
 */
#include <errno.h>
#include <stdarg.h>

#include "fuzz.h"

static bool in_text(const char *text, size_t len, const char *p)
{
	return p && p >= text && p < text + len + 1;
}

static void clk(const char *s, size_t len)
{
	struct pm_clk_table t;
	int r = pm_clk_parse(s, &t);

	CHECK(r >= 0 || r == -EINVAL || r == -ENOMEM);
	if (r < 0) {
		CHECK(t.n == 0 && !t.text && !t.clk && !t.cons);
		pm_clk_table_free(&t);
		return;
	}
	CHECK(t.n == r && t.text && t.ncons >= 0);
	CHECK((t.nbad == 0) == (t.first_bad == 0));
	for (int i = 0; i < t.n; i++) {
		const struct pm_clk *c = &t.clk[i];

		CHECK(in_text(t.text, len, c->name) && c->name[0]);
		CHECK(c->depth >= 0 && c->parent >= -1 && c->parent < i);
		CHECK((c->parent == -1) == (c->depth == 0));
		if (c->parent >= 0)
			CHECK(t.clk[c->parent].depth == c->depth - 1);
		CHECK(c->hw_enabled >= -1 && c->hw_enabled <= 1);
		CHECK(c->nconsumers >= 0);
		if (c->nconsumers) {
			CHECK(c->first_consumer >= 0);
			CHECK(c->first_consumer + c->nconsumers <= t.ncons);
		}
	}
	for (int i = 0; i < t.ncons; i++) {
		const struct pm_clk_consumer *k = &t.cons[i];

		CHECK(!k->device || in_text(t.text, len, k->device));
		CHECK(!k->con_id || in_text(t.text, len, k->con_id));
	}
	pm_clk_table_free(&t);
}

static bool genpd_status_ok(const char *s)
{
	static const char *const w[] = { "on", "off", "wait-master", "busy",
					 "repeat" };

	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (!strcmp(s, w[i]))
			return true;
	return false;
}

static void genpd(const char *s, size_t len)
{
	struct pm_genpd_table t;
	int r = pm_genpd_parse(s, &t), dev_end = 0, child_end = 0;

	CHECK(r >= 0 || r == -EINVAL || r == -ENOMEM);
	if (r < 0) {
		CHECK(t.n == 0 && !t.text && !t.pd && !t.devs && !t.children);
		pm_genpd_table_free(&t);
		return;
	}
	CHECK(t.n == r && t.text && t.ndevs >= 0);
	CHECK((t.nbad == 0) == (t.first_bad == 0));
	for (int i = 0; i < t.n; i++) {
		const struct pm_genpd *pd = &t.pd[i];

		CHECK(in_text(t.text, len, pd->name) && pd->name[0]);
		CHECK(in_text(t.text, len, pd->status));
		CHECK(genpd_status_ok(pd->status));
		CHECK(pd->idle_state == PM_UNKNOWN_S64 ||
		      (pd->idle_state >= 0 && !strcmp(pd->status, "off")));
		CHECK(pd->ndevs >= 0 && pd->nchildren >= 0);
		if (pd->ndevs) {
			CHECK(pd->first_dev >= dev_end);
			dev_end = pd->first_dev + pd->ndevs;
			CHECK(dev_end <= t.ndevs);
		}
		if (pd->nchildren) {
			CHECK(pd->first_child >= child_end);
			child_end = pd->first_child + pd->nchildren;
			for (int k = pd->first_child; k < child_end; k++)
				CHECK(in_text(t.text, len, t.children[k]) &&
				      t.children[k][0]);
		}
	}
	for (int i = 0; i < t.ndevs; i++) {
		const struct pm_genpd_dev *d = &t.devs[i];

		CHECK(in_text(t.text, len, d->device));
		CHECK(!d->runtime_status ||
		      in_text(t.text, len, d->runtime_status));
		CHECK(!d->managed_by || !strcmp(d->managed_by, "SW") ||
		      !strcmp(d->managed_by, "HW"));
		CHECK(d->runtime_status || d->perf != PM_UNKNOWN_S64);
	}
	pm_genpd_table_free(&t);
}

/* A growing text buffer. */
struct buf {
	char *s;
	size_t len, cap;
};

static void bprintf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void bprintf(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = (b->len + (size_t)n + 1) * 2;
		b->s = realloc(b->s, b->cap);
		if (!b->s)
			abort();
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

static void trans(const char *s)
{
	struct pm_trans_table t, u;
	struct buf b = { NULL, 0, 0 };
	int r = pm_trans_table_parse(s, &t);

	CHECK(r == 0 || r == -EINVAL || r == -ENOMEM);
	if (r < 0) {
		CHECK(t.n == 0 && !t.counts);
		pm_trans_table_free(&t);
		return;
	}
	CHECK(t.n >= 1 && t.n <= PM_MAX_FREQS && t.counts);
	/* cpufreq_stats.c, show_trans_table(). */
	bprintf(&b, "   From  :    To\n         : ");
	for (int i = 0; i < t.n; i++)
		bprintf(&b, "%9llu ", (unsigned long long)t.khz[i]);
	bprintf(&b, "\n");
	for (int i = 0; i < t.n; i++) {
		bprintf(&b, "%9llu: ", (unsigned long long)t.khz[i]);
		for (int j = 0; j < t.n; j++)
			bprintf(&b, "%9llu ",
				(unsigned long long)t.counts[i * t.n + j]);
		bprintf(&b, "\n");
	}
	CHECK(pm_trans_table_parse(b.s, &u) == 0);
	CHECK(u.n == t.n);
	CHECK(!memcmp(u.khz, t.khz, (size_t)t.n * sizeof(t.khz[0])));
	CHECK(!memcmp(u.counts, t.counts,
		      (size_t)t.n * (size_t)t.n * sizeof(t.counts[0])));
	pm_trans_table_free(&u);
	pm_trans_table_free(&t);
	free(b.s);
}

static void tis(const char *s)
{
	struct pm_tis *t = malloc(PM_MAX_FREQS * sizeof(*t));
	struct pm_tis *u = malloc(PM_MAX_FREQS * sizeof(*u));
	struct pm_tis *two = malloc(2 * sizeof(*two));
	struct buf b = { NULL, 0, 0 };
	int r, r2;

	if (!t || !u || !two)
		abort();
	r = pm_tis_parse(s, t, PM_MAX_FREQS);
	CHECK(r == -EINVAL || r == -E2BIG || (r >= 0 && r <= PM_MAX_FREQS));
	r2 = pm_tis_parse(s, two, 2);
	if (r >= 0 && r <= 2)
		CHECK(r2 == r);
	else if (r > 2)
		CHECK(r2 == -E2BIG);
	else
		CHECK(r2 < 0);
	if (r > 0) {
		/* cpufreq_stats.c, show_time_in_state(). */
		bprintf(&b, "%s", "");
		for (int i = 0; i < r; i++)
			bprintf(&b, "%llu %llu\n", (unsigned long long)t[i].khz,
				(unsigned long long)t[i].ticks);
		CHECK(pm_tis_parse(b.s, u, PM_MAX_FREQS) == r);
		CHECK(!memcmp(u, t, (size_t)r * sizeof(*t)));
	}
	free(b.s);
	free(t);
	free(u);
	free(two);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fz_str(data, size);
	size_t len = strlen(s);

	clk(s, len);
	genpd(s, len);
	trans(s);
	tis(s);
	free(s);
	return 0;
}
