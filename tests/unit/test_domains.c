// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the debugfs summary parsers: clk_summary and
 * pm_genpd_summary in the layouts of several kernels (built here with
 * the kernels' printf formats), odd names, garbage and deep trees.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"
#include "tap.h"

/* ---------------------------------------------------------------- text */

struct sb {
	char *s;
	size_t len, cap;
};

static void sb_printf(struct sb *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void sb_printf(struct sb *b, const char *fmt, ...)
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

static void sb_free(struct sb *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

/* ---------------------------------------------------------------- clk */

/* 6.1.192 (with the consumer columns of ≈6.8, backported). */
#define CLK_HDR_61                                                            \
	"                                 enable  prepare  protect          " \
	"                      duty  hardware                            "    \
	"connection\n"                                                        \
	"   clock                          count    count    count        "   \
	"rate   accuracy phase  cycle    enable   consumer                "   \
	"         id\n"                                                       \
	"------------------------------------------------------------------"  \
	"---------------------------------------------------------------"     \
	"------------\n"

/* ≈6.3 to 6.7: hardware enable, no consumers. */
#define CLK_HDR_63                                                            \
	"                                 enable  prepare  protect          " \
	"                      duty  hardware\n"                              \
	"   clock                          count    count    count        "   \
	"rate   accuracy phase  cycle    enable\n"                            \
	"------------------------------------------------------------------"  \
	"-------------------------------------\n"

/* ≈4.15 to 4.18: protect, no duty cycle, no hardware enable. */
#define CLK_HDR_415                                                           \
	"                                 enable  prepare  protect          " \
	"                     \n"                                             \
	"   clock                          count    count    count        "   \
	"rate   accuracy   phase\n"                                           \
	"------------------------------------------------------------------"  \
	"----------------------\n"

/* ≈4.4: no protect count either. */
#define CLK_HDR_44                                                           \
	"   clock                         enable_cnt  prepare_cnt        "   \
	"rate   accuracy   phase\n"                                          \
	"------------------------------------------------------------------" \
	"----------------------\n"

struct clk61 {
	int level;
	const char *name;
	int en, prep, prot;
	unsigned long rate, acc;
	int phase; /* < 0: "-----" */
	int duty;
	char hw;
	const char *cons[3]; /* "dev\tcon" pairs */
};

/* One clock as 6.1.192's clk_summary_show_one prints it. */
static void clk61_line(struct sb *b, const struct clk61 *c)
{
	sb_printf(b, "%*s%-*s %-7d %-8d %-8d %-11lu %-10lu ", c->level * 3 + 1,
		  "", 35 - c->level * 3, c->name, c->en, c->prep, c->prot,
		  c->rate, c->acc);
	if (c->phase >= 0)
		sb_printf(b, "%-5d", c->phase);
	else
		sb_printf(b, "-----");
	sb_printf(b, " %-6d", c->duty);
	sb_printf(b, " %5c ", c->hw);
	for (int i = 0; i < 3 && c->cons[i]; i++) {
		const char *tab = strchr(c->cons[i], '\t');

		sb_printf(b, "%*s%-*.*s  %-25s\n",
			  c->level * 3 + 2 + 105 * (i > 0), "", 30,
			  (int)(tab - c->cons[i]), c->cons[i], tab + 1);
	}
}

static void test_clk_61(void)
{
	static const struct clk61 clks[] = {
		{ 0,
		  "xin24m",
		  9,
		  10,
		  0,
		  24000000,
		  0,
		  0,
		  50000,
		  'Y',
		  { "deviceless\tno_connection_id" } },
		{ 1,
		  "pll_apll",
		  1,
		  1,
		  0,
		  1416000000,
		  0,
		  0,
		  50000,
		  'Y',
		  { "deviceless\tno_connection_id" } },
		{ 2,
		  "armclkl",
		  1,
		  1,
		  0,
		  1416000000,
		  0,
		  0,
		  50000,
		  'Y',
		  { "cpu0\tno_connection_id",
		    "deviceless\tno_connection_id" } },
		{ 1,
		  "aclk_vio",
		  0,
		  0,
		  1,
		  400000000,
		  20,
		  -1,
		  33333,
		  'N',
		  { "ff8f0000.vop\taclk", "ff8f3f00.iommu\taclk_iommu",
		    "deviceless\tno_connection_id" } },
		{ 0,
		  "xin32k",
		  1,
		  1,
		  0,
		  32768,
		  0,
		  90,
		  50000,
		  '?',
		  { "rk808-rtc\tno_connection_id" } },
	};
	struct sb b = { 0 };
	struct pm_clk_table t;
	int n;

	sb_printf(&b, CLK_HDR_61);
	for (size_t i = 0; i < sizeof(clks) / sizeof(clks[0]); i++)
		clk61_line(&b, &clks[i]);
	n = pm_clk_parse(b.s, &t);
	is_int(n, 5, "6.1: five clocks");
	ok(t.has_protect && t.has_duty && t.has_hw && t.has_consumers &&
		   t.has_accuracy && t.has_phase,
	   "6.1: every column known from the header");
	is_int(t.nbad, 0, "6.1: no line skipped");
	is_str(t.clk[0].name, "xin24m", "6.1: root name");
	is_int(t.clk[0].depth, 0, "6.1: root depth");
	is_int(t.clk[0].parent, -1, "6.1: root has no parent");
	is_int(t.clk[0].enable_count, 9, "6.1: enable count");
	is_int(t.clk[0].prepare_count, 10, "6.1: prepare count");
	is_u64(t.clk[0].rate_hz, 24000000, "6.1: rate");
	is_int(t.clk[0].duty, 50000, "6.1: duty cycle x 100000");
	is_int(t.clk[0].hw_enabled, 1, "6.1: hardware enable Y");
	is_int(t.clk[0].nconsumers, 1, "6.1: the provider's own handle");
	ok(!t.cons[t.clk[0].first_consumer].device &&
		   !t.cons[t.clk[0].first_consumer].con_id,
	   "6.1: deviceless / no_connection_id are NULL");
	is_int(t.clk[2].depth, 2, "6.1: depth from the indentation");
	is_int(t.clk[2].parent, 1, "6.1: parent is the line above");
	is_int(t.clk[2].nconsumers, 2, "6.1: a second consumer line");
	is_str(t.cons[t.clk[2].first_consumer].device, "cpu0",
	       "6.1: consumer device");
	is_str(t.cons[t.clk[2].first_consumer].con_id, NULL,
	       "6.1: consumer without a connection id");
	is_int(t.clk[3].depth, 1, "6.1: back up one level");
	is_int(t.clk[3].parent, 0, "6.1: parent is the root again");
	is_int(t.clk[3].protect_count, 1, "6.1: protect count");
	is_u64(t.clk[3].accuracy_ppb, 20, "6.1: accuracy");
	is_int(t.clk[3].phase_deg, PM_UNKNOWN_S64, "6.1: ----- is unknown");
	is_int(t.clk[3].duty, 33333, "6.1: odd duty cycle");
	is_int(t.clk[3].hw_enabled, 0, "6.1: hardware enable N");
	is_int(t.clk[3].nconsumers, 3, "6.1: three consumers");
	is_str(t.cons[t.clk[3].first_consumer + 1].device, "ff8f3f00.iommu",
	       "6.1: continuation consumer device");
	is_str(t.cons[t.clk[3].first_consumer + 1].con_id, "aclk_iommu",
	       "6.1: continuation consumer id");
	is_int(t.clk[4].parent, -1, "6.1: a second root");
	is_int(t.clk[4].phase_deg, 90, "6.1: phase");
	is_int(t.clk[4].hw_enabled, -1, "6.1: hardware enable ? is unknown");
	is_u64(t.clk[4].rate_hz, 32768, "6.1: 32 kHz rate");
	pm_clk_table_free(&t);
	sb_free(&b);
}

static void test_clk_older(void)
{
	struct sb b = { 0 };
	struct pm_clk_table t;

	/* ≈6.3: " %9c\n" ends the line after the hardware enable. */
	sb_printf(&b, CLK_HDR_63);
	sb_printf(&b, "%*s%-*s %7d %8d %8d %11lu %10lu %5d %6d %9c\n", 1, "",
		  30, "osc", 2, 2, 0, 19200000UL, 0UL, 0, 50000, 'Y');
	sb_printf(&b, "%*s%-*s %7d %8d %8d %11lu %10lu %5s %6d %9c\n", 4, "",
		  27, "pll0", 0, 0, 0, 600000000UL, 0UL, "-----", 50000, '?');
	is_int(pm_clk_parse(b.s, &t), 2, "6.3: two clocks");
	ok(t.has_hw && !t.has_consumers, "6.3: hardware enable, no consumers");
	is_int(t.clk[1].parent, 0, "6.3: pll0 under osc");
	is_int(t.clk[1].hw_enabled, -1, "6.3: ? is unknown");
	is_int(t.clk[1].nconsumers, 0, "6.3: no consumers");
	pm_clk_table_free(&t);
	b.len = 0;

	/* ≈4.15: no duty cycle, no hardware enable. */
	sb_printf(&b, CLK_HDR_415);
	sb_printf(&b, "%*s%-*s %7d %8d %8d %11lu %10lu %-3d\n", 1, "", 30,
		  "ref", 1, 1, 0, 25000000UL, 0UL, 0);
	sb_printf(&b, "%*s%-*s %7d %8d %8d %11lu %10lu %-3d\n", 4, "", 27,
		  "ref_div2", 0, 1, 0, 12500000UL, 0UL, 180);
	is_int(pm_clk_parse(b.s, &t), 2, "4.15: two clocks");
	ok(t.has_protect && !t.has_duty && !t.has_hw && !t.has_consumers,
	   "4.15: protect but no duty, hardware or consumer column");
	is_int(t.clk[1].phase_deg, 180, "4.15: phase");
	is_int(t.clk[1].duty, PM_UNKNOWN_S64, "4.15: no duty cycle");
	is_int(t.clk[1].hw_enabled, -1, "4.15: no hardware enable");
	is_int(t.nbad, 0, "4.15: no line skipped");
	pm_clk_table_free(&t);
	b.len = 0;

	/* ≈4.4: no protect count; a negative errno as the phase. */
	sb_printf(&b, CLK_HDR_44);
	sb_printf(&b, "%*s%-*s %11d %12d %11lu %10lu %-3d\n", 1, "", 30, "sys",
		  3, 3, 100000000UL, 50UL, -22);
	is_int(pm_clk_parse(b.s, &t), 1, "4.4: one clock");
	ok(!t.has_protect && t.has_accuracy && t.has_phase,
	   "4.4: no protect column");
	is_int(t.clk[0].protect_count, PM_UNKNOWN_S64, "4.4: protect unknown");
	is_int(t.clk[0].enable_count, 3, "4.4: enable count");
	is_u64(t.clk[0].accuracy_ppb, 50, "4.4: accuracy");
	is_int(t.clk[0].phase_deg, PM_UNKNOWN_S64,
	       "4.4: a negative phase is unknown");
	pm_clk_table_free(&t);
	sb_free(&b);
}

static void test_clk_names(void)
{
	static const char *const names[] = {
		"clk with spaces",
		"div/2-\"q\"$(x)",
		"a_very_long_clock_name_that_is_wider_than_its_column_x",
		"24000000",
		"h\xc3\xa9llo",
	};
	struct sb b = { 0 };
	struct pm_clk_table t;

	sb_printf(&b, CLK_HDR_61);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct clk61 c = { (int)i ? 1 : 0,
				   names[i],
				   1,
				   1,
				   0,
				   1000000UL * (i + 1),
				   0,
				   0,
				   50000,
				   'Y',
				   { "dev with space\tcon id", NULL } };

		clk61_line(&b, &c);
	}
	is_int(pm_clk_parse(b.s, &t), 5, "odd names: five clocks");
	is_int(t.nbad, 0, "odd names: no line skipped");
	for (int i = 0; i < t.n && i < 5; i++) {
		is_str(t.clk[i].name, names[i], "odd name %d kept whole", i);
		is_u64(t.clk[i].rate_hz, 1000000UL * (uint64_t)(i + 1),
		       "odd name %d: its rate", i);
	}
	is_str(t.cons[0].device, "dev with space", "consumer with a blank");
	is_str(t.cons[0].con_id, "con id", "connection id with a blank");
	pm_clk_table_free(&t);
	sb_free(&b);
}

static void test_clk_deep(void)
{
	enum { DEPTH = 300 };
	struct sb b = { 0 };
	struct pm_clk_table t;
	bool chain = true;

	sb_printf(&b, CLK_HDR_61);
	for (int i = 0; i < DEPTH; i++) {
		char name[32];
		struct clk61 c = { i,
				   name,
				   1,
				   1,
				   0,
				   1000UL + (unsigned)i,
				   0,
				   0,
				   50000,
				   'Y',
				   { "deviceless\tno_connection_id" } };

		snprintf(name, sizeof(name), "c%d", i);
		clk61_line(&b, &c);
	}
	/* Two levels deeper than the last line: hangs under it. */
	sb_printf(&b, "%*s%-*s %-7d %-8d %-8d %-11lu %-10lu %-5d %-6d %5c ",
		  (DEPTH + 1) * 3 + 1, "", 10, "jump", 0, 0, 0, 1UL, 0UL, 0,
		  50000, 'N');
	sb_printf(&b, "%*s%-*s  %-25s\n", 4, "", 30, "deviceless",
		  "no_connection_id");
	is_int(pm_clk_parse(b.s, &t), DEPTH + 1, "deep: every level read");
	for (int i = 1; i < DEPTH && chain; i++)
		chain = t.clk[i].depth == i && t.clk[i].parent == i - 1;
	ok(chain, "deep: %d levels, each under the one above", DEPTH);
	is_int(t.clk[DEPTH].depth, DEPTH, "deep: a jump of two is clamped");
	is_int(t.clk[DEPTH].parent, DEPTH - 1,
	       "deep: the jump hangs under the last line");
	pm_clk_table_free(&t);
	sb_free(&b);
}

static void test_clk_garbage(void)
{
	struct sb b = { 0 };
	struct pm_clk_table t;
	char *cut;

	is_int(pm_clk_parse("", &t), -EINVAL, "empty text is not a summary");
	ok(!t.text && !t.clk && !t.n, "a failed parse leaves an empty table");
	pm_clk_table_free(&t);
	is_int(pm_clk_parse("no header here\n 1 2 3\n", &t), -EINVAL,
	       "text without the dashes line is not a summary");
	pm_clk_table_free(&t);
	is_int(pm_clk_parse("--------------------\nx 1 2 3\n", &t), -EINVAL,
	       "dashes first (no header) is not a summary");
	pm_clk_table_free(&t);
	is_int(pm_clk_parse(CLK_HDR_61, &t), 0, "a header alone: no clocks");
	pm_clk_table_free(&t);

	sb_printf(&b, CLK_HDR_61);
	clk61_line(&b, &(struct clk61){ 0,
					"good",
					1,
					1,
					0,
					5,
					0,
					0,
					50000,
					'Y',
					{ "deviceless\tno_connection_id" } });
	sb_printf(&b, "this is not a clock line\n");
	sb_printf(&b, "\x01\x02\xff\xfe junk \x7f\n");
	sb_printf(&b, "   half 1 2\n");
	clk61_line(&b, &(struct clk61){ 1,
					"after",
					0,
					0,
					0,
					7,
					0,
					0,
					50000,
					'N',
					{ "deviceless\tno_connection_id" } });
	/* Cut in the middle of the last line. */
	clk61_line(&b, &(struct clk61){ 1,
					"truncated",
					0,
					0,
					0,
					123456789,
					0,
					0,
					50000,
					'N',
					{ "deviceless\tno_connection_id" } });
	cut = strstr(b.s, "123456");
	cut[3] = '\0';
	is_int(pm_clk_parse(b.s, &t), 2, "garbage: the good lines are kept");
	is_str(t.clk[1].name, "after", "garbage: the line after it too");
	is_int(t.clk[1].parent, 0, "garbage: the tree still holds");
	is_int(t.nbad, 4, "garbage: four lines skipped");
	is_int(t.first_bad, 5, "garbage: the first is line 5");
	pm_clk_table_free(&t);
	b.len = 0;

	/* A consumer line with no clock above it. */
	sb_printf(&b, CLK_HDR_61);
	sb_printf(&b, "%*s%-*s  %-25s\n", 107, "", 30, "dev", "con");
	is_int(pm_clk_parse(b.s, &t), 0, "orphan consumer: no clock");
	is_int(t.nbad, 1, "orphan consumer: skipped");
	pm_clk_table_free(&t);
	b.len = 0;

	/* More words than any clock line has. */
	sb_printf(&b, CLK_HDR_61);
	for (int i = 0; i < 100; i++)
		sb_printf(&b, "w%d ", i);
	sb_printf(&b, "\n");
	is_int(pm_clk_parse(b.s, &t), 0, "a line of 100 words: no clock");
	is_int(t.nbad, 1, "a line of 100 words: skipped");
	pm_clk_table_free(&t);
	sb_free(&b);
}

/* ---------------------------------------------------------------- genpd */

#define GENPD_HDR_61                                                         \
	"domain                          status          children          " \
	"                 performance\n"                                     \
	"    /device                                             runtime "   \
	"status\n"                                                           \
	"------------------------------------------------------------------" \
	"----------------------------\n"

#define GENPD_HDR_610                                                        \
	"domain                          status          children        "   \
	"performance\n"                                                      \
	"    /device                         runtime status                " \
	"  managed by\n"                                                     \
	"------------------------------------------------------------------" \
	"------------\n"

#define GENPD_HDR_OLD                                                        \
	"domain                          status          slaves\n"           \
	"    /device                                             runtime "   \
	"status\n"                                                           \
	"------------------------------------------------------------------" \
	"----\n"

static void test_genpd_61(void)
{
	struct sb b = { 0 };
	struct pm_genpd_table t;

	sb_printf(&b, GENPD_HDR_61);
	sb_printf(&b, "%-30s  %-49s  %u", "pd_gpu", "on", 0u);
	sb_printf(&b, "\n    %-50s  %-25s  %u",
		  "/devices/platform/ff9a0000.gpu", "active", 0u);
	sb_printf(&b, "\n");
	sb_printf(&b, "%-30s  %-49s  %u", "pd_vio", "on", 2u);
	sb_printf(&b, "\n%48s", " ");
	sb_printf(&b, "pd_isp0, pd_isp1, pd_vo");
	sb_printf(&b, "\n");
	sb_printf(&b, "%-30s  %-49s  %u", "pd_isp0", "off-1", 0u);
	sb_printf(&b, "\n    %-50s  %-25s  %u",
		  "/devices/platform/ff914000.iommu", "suspended", 0u);
	sb_printf(&b, "\n    %-50s  %-25s  %u",
		  "/devices/platform/ff910000.isp0", "unsupported", 3u);
	sb_printf(&b, "\n");
	is_int(pm_genpd_parse(b.s, &t), 3, "genpd 6.1: three domains");
	ok(t.has_perf && !t.has_managed, "genpd 6.1: perf, no managed by");
	is_int(t.nbad, 0, "genpd 6.1: no line skipped");
	is_str(t.pd[0].name, "pd_gpu", "genpd 6.1: name");
	is_str(t.pd[0].status, "on", "genpd 6.1: status on");
	is_int(t.pd[0].idle_state, PM_UNKNOWN_S64, "genpd 6.1: on: no idle");
	is_int(t.pd[0].ndevs, 1, "genpd 6.1: one device");
	is_str(t.devs[t.pd[0].first_dev].device,
	       "/devices/platform/ff9a0000.gpu", "genpd 6.1: device path");
	is_str(t.devs[t.pd[0].first_dev].runtime_status, "active",
	       "genpd 6.1: runtime status");
	is_int(t.devs[t.pd[0].first_dev].perf, 0, "genpd 6.1: device perf");
	is_str(t.devs[t.pd[0].first_dev].managed_by, NULL,
	       "genpd 6.1: no managed by");
	is_int(t.pd[1].perf, 2, "genpd 6.1: performance state");
	is_int(t.pd[1].nchildren, 3, "genpd 6.1: three children");
	is_str(t.children[t.pd[1].first_child], "pd_isp0",
	       "genpd 6.1: first child");
	is_str(t.children[t.pd[1].first_child + 2], "pd_vo",
	       "genpd 6.1: last child");
	is_int(t.pd[1].ndevs, 0, "genpd 6.1: no devices");
	is_str(t.pd[2].status, "off", "genpd 6.1: off-1 is off");
	is_int(t.pd[2].idle_state, 1, "genpd 6.1: ... in idle state 1");
	is_int(t.pd[2].ndevs, 2, "genpd 6.1: two devices");
	is_str(t.devs[t.pd[2].first_dev + 1].runtime_status, "unsupported",
	       "genpd 6.1: unsupported runtime PM");
	is_int(t.devs[t.pd[2].first_dev + 1].perf, 3,
	       "genpd 6.1: second device perf");
	pm_genpd_table_free(&t);
	sb_free(&b);
}

static void test_genpd_610(void)
{
	struct sb b = { 0 };
	struct pm_genpd_table t;

	sb_printf(&b, GENPD_HDR_610);
	sb_printf(&b, "%-30s  %-30s  %u", "gpucc_cx", "on", 1u);
	sb_printf(&b, "\n    %-30s  ", "3d6a000.gmu");
	sb_printf(&b, "%-26s  ", "active");
	sb_printf(&b, "%-10u  ", 2u);
	sb_printf(&b, "%2s", "HW");
	sb_printf(&b, "\n    %-30s  ", "soc:gpu");
	sb_printf(&b, "%-26s  ", "suspended");
	sb_printf(&b, "%-10u  ", 0u);
	sb_printf(&b, "%2s", "SW");
	sb_printf(&b, "\n");
	sb_printf(&b, "%-30s  %-30s  %u", "mdss_gdsc", "off-0", 0u);
	sb_printf(&b, "\n");
	is_int(pm_genpd_parse(b.s, &t), 2, "genpd 6.10: two domains");
	ok(t.has_perf && t.has_managed, "genpd 6.10: managed by column");
	is_int(t.pd[0].ndevs, 2, "genpd 6.10: two devices");
	is_str(t.devs[0].device, "3d6a000.gmu", "genpd 6.10: a device name");
	is_int(t.devs[0].perf, 2, "genpd 6.10: device perf");
	is_str(t.devs[0].managed_by, "HW", "genpd 6.10: managed by HW");
	is_str(t.devs[1].managed_by, "SW", "genpd 6.10: managed by SW");
	is_str(t.devs[1].runtime_status, "suspended",
	       "genpd 6.10: runtime status");
	is_int(t.pd[1].idle_state, 0, "genpd 6.10: off-0");
	is_int(t.nbad, 0, "genpd 6.10: no line skipped");
	pm_genpd_table_free(&t);
	sb_free(&b);
}

static void test_genpd_old(void)
{
	struct sb b = { 0 };
	struct pm_genpd_table t;

	sb_printf(&b, GENPD_HDR_OLD);
	sb_printf(&b, "%-30s  %-15s ", "a3sp", "on");
	sb_printf(&b, "a3sg, a4s");
	sb_printf(&b, "\n    %-50s  %-25s", "/devices/platform/e6e20000.pwm",
		  "suspended");
	sb_printf(&b, "\n");
	sb_printf(&b, "%-30s  %-15s \n", "a4s", "off");
	is_int(pm_genpd_parse(b.s, &t), 2, "genpd old: two domains");
	ok(!t.has_perf && !t.has_managed, "genpd old: no perf column");
	is_int(t.pd[0].nchildren, 2, "genpd old: children on the line");
	is_str(t.children[t.pd[0].first_child + 1], "a4s",
	       "genpd old: second child");
	is_int(t.pd[0].perf, PM_UNKNOWN_S64, "genpd old: perf unknown");
	is_int(t.pd[0].ndevs, 1, "genpd old: one device");
	is_int(t.devs[0].perf, PM_UNKNOWN_S64, "genpd old: no device perf");
	is_str(t.devs[0].runtime_status, "suspended",
	       "genpd old: runtime status");
	is_str(t.pd[1].status, "off", "genpd old: plain off");
	is_int(t.pd[1].idle_state, PM_UNKNOWN_S64, "genpd old: no idle state");
	pm_genpd_table_free(&t);
	sb_free(&b);
}

static void test_genpd_odd(void)
{
	struct sb b = { 0 };
	struct pm_genpd_table t;

	sb_printf(&b, GENPD_HDR_61);
	sb_printf(&b, "%-30s  %-49s  %u\n", "my \"domain\" $(x)", "on", 0u);
	sb_printf(&b, "%-30s  %-49s  %u", "power-domain@ff3b0000", "off-2", 0u);
	sb_printf(&b, "\n    %-50s  %-25s  %u",
		  "/devices/platform/a b/\xc3\xa9", "active", 0u);
	sb_printf(&b, "\n");
	sb_printf(&b, "%-30s  %-49s  %u", "on", "on", 0u);
	sb_printf(&b, "\n");
	is_int(pm_genpd_parse(b.s, &t), 3, "odd genpd: three domains");
	is_str(t.pd[0].name, "my \"domain\" $(x)", "odd genpd: blanks kept");
	is_str(t.pd[1].name, "power-domain@ff3b0000", "odd genpd: @ in name");
	is_int(t.pd[1].idle_state, 2, "odd genpd: off-2");
	is_str(t.devs[0].device, "/devices/platform/a b/\xc3\xa9",
	       "odd genpd: device path with a blank and UTF-8");
	is_str(t.pd[2].name, "on", "odd genpd: a domain named on");
	pm_genpd_table_free(&t);
	sb_free(&b);
}

static void test_genpd_garbage(void)
{
	struct sb b = { 0 };
	struct pm_genpd_table t;
	char *cut;

	is_int(pm_genpd_parse("", &t), -EINVAL, "genpd: empty is no summary");
	pm_genpd_table_free(&t);
	is_int(pm_genpd_parse(CLK_HDR_61, &t), -EINVAL,
	       "genpd: a clock summary is not a genpd summary");
	pm_genpd_table_free(&t);
	is_int(pm_genpd_parse(GENPD_HDR_61, &t), 0, "genpd: header alone");
	pm_genpd_table_free(&t);

	sb_printf(&b, GENPD_HDR_61);
	sb_printf(&b, "    %-50s  %-25s  %u\n", "/devices/orphan", "active",
		  0u);
	sb_printf(&b, "%-30s  %-49s  %u\n", "good", "on", 0u);
	sb_printf(&b, "lonely\n");
	sb_printf(&b, "name  maybe  7\n");
	sb_printf(&b, "    /devices/no-status\n");
	sb_printf(&b, "\xff\xfe\x01\n");
	sb_printf(&b, "%-30s  %-49s  %u", "cut", "off-0", 0u);
	sb_printf(&b, "\n    %-50s  %-25s  %u\n", "/devices/x", "active", 0u);
	cut = strstr(b.s, "/devices/x");
	cut[4] = '\0';
	is_int(pm_genpd_parse(b.s, &t), 2, "genpd garbage: good lines kept");
	is_str(t.pd[1].name, "cut", "genpd garbage: the last domain");
	is_int(t.pd[1].ndevs, 0, "genpd garbage: its cut device is skipped");
	is_int(t.nbad, 6, "genpd garbage: six lines skipped");
	is_int(t.first_bad, 4, "genpd garbage: the first is line 4");
	pm_genpd_table_free(&t);
	sb_free(&b);
}

int main(void)
{
	test_clk_61();
	test_clk_older();
	test_clk_names();
	test_clk_deep();
	test_clk_garbage();
	test_genpd_61();
	test_genpd_610();
	test_genpd_old();
	test_genpd_odd();
	test_genpd_garbage();
	return done_testing();
}
