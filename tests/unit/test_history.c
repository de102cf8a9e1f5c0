// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of pm-suspend's history (lib/history.c): the strict parse of
 * a line (each way a line can be wrong is refused with its reason, never
 * read in part), the log's lines counted with the first bad one named,
 * the ISO weeks at the turn of a year, the weekly sums (lower median,
 * worst, wake reasons by count), and the append: one line whole, a cut
 * line ended, the rotation at the limit, no symlink followed.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char root[256];

/* A line as pm-suspend writes it: a failed deep cycle with a trace. */
static const char good[] =
	"{\"v\":1,\"time\":1796456505,\"mode\":\"deep\",\"state\":\"mem\","
	"\"result\":\"failed\",\"error\":\"cannot write 'mem' to "
	"/sys/power/state: Device or resource busy (EBUSY)\","
	"\"errno\":\"EBUSY\",\"failure\":null,"
	"\"failed_device\":\"0000:00:14.0\",\"failed_driver\":\"xhci_hcd\","
	"\"failed_phase\":\"dpm_suspend\",\"failed_errno\":-16,"
	"\"failed_source\":\"trace\",\"prepare_s\":0.412,\"kernel_s\":0.01,"
	"\"asleep_s\":0,\"resume_s\":0.207,\"trace_resume_s\":0.0924,"
	"\"wake_irq\":9,\"wake_irq_name\":\"acpi\","
	"\"suspend_stats\":{\"success\":0,\"fail\":1}}";

/* good with the first from replaced by to. */
static char *edit(const char *from, const char *to)
{
	static char buf[4096];
	const char *at = strstr(good, from);

	if (!at) {
		fprintf(stderr, "no '%s' in the line\n", from);
		exit(99);
	}
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - good), good, to,
		 at + strlen(from));
	return buf;
}

static void test_good(void)
{
	struct pm_hist_rec r;
	char why[128] = "";
	const char *l;

	is_int(pm_hist_parse(good, strlen(good), &r, why, sizeof(why)), 0,
	       "a line as pm-suspend writes it parses (%s)", why);
	is_int(r.time, 1796456505, "its time");
	is_int(r.mode, PM_MODE_DEEP, "its mode");
	is_int(r.result, PM_HIST_FAILED, "its result");
	ok(r.resume_s == 0.207 && r.trace_resume_s == 0.0924,
	   "its resume times, read back exactly");
	is_int(r.wake_irq, 9, "its wake IRQ");
	is_str(r.wake_irq_name, "acpi", "its name");
	is_str(r.failed_device, "0000:00:14.0", "the failed device");
	is_str(r.failed_driver, "xhci_hcd", "its driver");
	l = edit("\"wake_irq\":9,\"wake_irq_name\":\"acpi\"",
		 " \"wake_irq\" : null ,\"wake_irq_name\":null, \"x\":"
		 "{\"a\":[1,-2.5e3,true,false,null,"
		 "\"\\u00e9\\ud83d\\ude00\"]}");
	is_int(pm_hist_parse(l, strlen(l), &r, why, sizeof(why)), 0,
	       "nulls, blanks and a key of a later version (%s)", why);
	ok(r.wake_irq == -1 && !r.wake_irq_name[0], "no wake IRQ: -1, \"\"");
	l = edit("\"acpi\"", "\"a\\u00e9\\\"\\\\\\/\\t\"");
	is_int(pm_hist_parse(l, strlen(l), &r, why, sizeof(why)), 0,
	       "escapes in a string (%s)", why);
	is_str(r.wake_irq_name, "a\xc3\xa9\"\\/\t", "decoded to UTF-8");
	l = edit("0.0924", "null");
	pm_hist_parse(l, strlen(l), &r, why, sizeof(why));
	ok(isnan(r.trace_resume_s), "no trace: NAN");
}

static const struct {
	const char *from, *to, *why;
} bad[] = {
	{ "\"v\":1,", "", "no \"v\"" },
	{ "\"v\":1", "\"v\":2", "\"v\" is not 1" },
	{ "\"v\":1", "\"v\":1.0", "\"v\" is not 1" },
	{ "\"state\"", "\"mode\"", "a key twice" },
	{ "\"deep\"", "\"freeze\"", "\"mode\" is not a mode's name" },
	{ "\"failed\",", "\"maybe\",",
	  "\"result\" is not ok, failed or skipped" },
	{ "1796456505", "-1", "a field that is not an integer >= 0" },
	{ "1796456505", "1796456505.5", "a field that is not an integer >= 0" },
	{ "1796456505", "99999999999999999999",
	  "a field that is not an integer >= 0" },
	{ "0.207", "-0.1", "a negative time" },
	{ "0.207", "null", "a field of the wrong type" },
	{ "0.207", "\"0.207\"", "a field of the wrong type" },
	{ "\"wake_irq\":9", "\"wake_irq\":\"9\"", "a field of the wrong type" },
	{ "\"deep\"", "7", "a field of the wrong type" },
	{ "0.207", "01", "not JSON" },
	{ "0.207", "1.", "a number without digits after '.'" },
	{ "0.207", ".5", "not JSON" },
	{ "0.207", "1e", "a number without an exponent" },
	{ "0.207", "1e999", "a number out of range" },
	{ "0.207", "NaN", "not JSON" },
	{ "\"fail\":1}}", "\"fail\":1}}x", "more after the object" },
	{ "\"fail\":1}}", "\"fail\":1},}", "not JSON" },
	{ "\"fail\":1}}", "\"fail\":1}", "not JSON" },
	{ "\"fail\":1}}", "\"fail\":1,}}", "not JSON" },
	{ "\"fail\":1}}", "\"fail\":[[[[[[[[1]]]]]]]]}}", "nested too deep" },
	{ "\"acpi\"", "\"ac\\xpi\"", "an unknown escape" },
	{ "\"acpi\"", "\"\\ud800\"", "a lone high surrogate" },
	{ "\"acpi\"", "\"\\udc00\"", "a lone low surrogate" },
	{ "\"acpi\"", "\"\\u00g0\"", "a \\u escape that is not hex" },
	{ "\"acpi\"", "\"\\u0000\"", "a NUL in a string" },
	{ "\"acpi\"", "\"a\tb\"", "a control byte in a string" },
	{ "\"acpi\"", "\"\xc3\x28\"", "a string that is not UTF-8" },
	{ "\"acpi\"", "\"\xc0\xaf\"", "a string that is not UTF-8" },
	{ "\"acpi\"", "\"\xed\xa0\x80\"", "a string that is not UTF-8" },
	{ "\"acpi\"", "\"\xf4\x90\x80\x80\"", "a string that is not UTF-8" },
	{ "\"acpi\"", "\"0123456789012345678901234567890123456789"
		      "012345678901234567890123456789\"",
	  "a string too long for its field" },
	{ "\"suspend_stats\":{", "\"suspend_stats\":{\"a\" 1,", "not JSON" },
	{ "\"suspend_stats\":{\"success\":0", "\"suspend_stats\":tru",
	  "not JSON" },
};

static void test_bad(void)
{
	struct pm_hist_rec r;
	char why[128];
	size_t n, k;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *l = edit(bad[i].from, bad[i].to);

		why[0] = '\0';
		ok(pm_hist_parse(l, strlen(l), &r, why, sizeof(why)) ==
				   -EINVAL &&
			   !strcmp(why, bad[i].why),
		   "refused: %s (%s)", bad[i].why, why);
	}
	is_int(pm_hist_parse("", 0, &r, why, sizeof(why)), -EINVAL,
	       "an empty line is refused");
	is_str(why, "not a JSON object", "with its reason");
	is_int(pm_hist_parse("{}", 2, &r, why, sizeof(why)), -EINVAL,
	       "an empty object is refused");
	is_str(why, "no \"v\"", "the first field missing named");
	/* Every cut of the line is refused, none read in part. */
	n = strlen(good);
	k = 0;
	while (k < n && pm_hist_parse(good, k, &r, why, sizeof(why)) == -EINVAL)
		k++;
	is_int((long long)k, (long long)n,
	       "each of the %zu cuts of the line is refused", n);
}

static void test_text(void)
{
	struct pm_hist h = { 0 };
	char text[8192];

	snprintf(text, sizeof(text), "%s\n%s\n%s\n%s", good,
		 edit("\"v\":1", "\"v\":3"), good, good);
	/* The last line without its '\n': cut by a crash. */
	text[strlen(text) - 1] = '\0';
	is_int(pm_hist_add_text(&h, "/var/log/x", text, strlen(text)), 0,
	       "pm_hist_add_text");
	is_int(h.lines, 4, "four lines read");
	is_int(h.n, 2, "two parsed");
	is_int(h.unparsed, 2, "two not: a wrong one and a cut one");
	is_str(h.first_bad, "/var/log/x:2: \"v\" is not 1",
	       "the first named by file, line and reason");
	pm_hist_free(&h);
	memset(&h, 0, sizeof(h));
	snprintf(text, sizeof(text), "%s\n%s", good, good);
	pm_hist_add_text(&h, "f", text, strlen(text));
	is_str(h.first_bad, "f:2: cut: no end of line", "a cut line named");
	pm_hist_free(&h);
}

static int64_t utc(int y, int mo, int d)
{
	struct tm tm = { .tm_year = y - 1900, .tm_mon = mo - 1, .tm_mday = d,
			 .tm_hour = 12 };

	return (int64_t)timegm(&tm);
}

static void test_iso_week(void)
{
	static const struct {
		int y, m, d, wy, ww;
	} t[] = {
		{ 2026, 12, 5, 2026, 49 },  { 2026, 12, 31, 2026, 53 },
		{ 2027, 1, 1, 2026, 53 },   { 2027, 1, 4, 2027, 1 },
		{ 2024, 12, 30, 2025, 1 },  { 2021, 1, 3, 2020, 53 },
		{ 2020, 2, 29, 2020, 9 },   { 2023, 1, 1, 2022, 52 },
		{ 2018, 12, 31, 2019, 1 },  { 2016, 1, 3, 2015, 53 },
	};
	int y, w;

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		pm_hist_iso_week(utc(t[i].y, t[i].m, t[i].d), &y, &w);
		ok(y == t[i].wy && w == t[i].ww,
		   "%04d-%02d-%02d is %04d-W%02d (got %04d-W%02d)", t[i].y,
		   t[i].m, t[i].d, t[i].wy, t[i].ww, y, w);
	}
}

static struct pm_hist_rec rec(int64_t t, enum pm_hist_result res, double s,
			      double tr, int64_t irq, const char *name)
{
	struct pm_hist_rec r = { .time = t, .mode = PM_MODE_DEEP,
				 .result = res, .resume_s = s,
				 .trace_resume_s = tr, .wake_irq = irq };

	snprintf(r.wake_irq_name, sizeof(r.wake_irq_name), "%s", name);
	return r;
}

static void test_weeks(void)
{
	int64_t a = utc(2026, 12, 1), b = utc(2026, 11, 24);
	struct pm_hist_rec r[] = {
		rec(a, PM_HIST_OK, 0.4, 0.09, 9, "acpi"),
		rec(a + 86400, PM_HIST_OK, 0.2, NAN, 1, "i8042"),
		rec(a + 3600, PM_HIST_FAILED, 9.0, NAN, -1, ""),
		rec(a + 7200, PM_HIST_OK, 0.3, 0.08, 9, "acpi"),
		rec(a + 9000, PM_HIST_SKIPPED, 8.0, NAN, -1, ""),
		rec(b, PM_HIST_OK, 0.5, NAN, -1, ""),
		rec(b + 60, PM_HIST_OK, 0.1, NAN, 9, "acpi"),
	};
	struct pm_hist h = { .rec = r, .n = ARRAY_SIZE(r) };
	struct pm_hist_week *w;
	int n = pm_hist_weeks(&h, &w);

	is_int(n, 2, "two weeks");
	if (n != 2)
		return;
	ok(w[0].year == 2026 && w[0].week == 48 && w[1].week == 49,
	   "the older week first, whatever the order of the log");
	ok(w[1].cycles == 5 && w[1].ok == 3 && w[1].failed == 1 &&
		   w[1].skipped == 1,
	   "5 cycles: 3 ok, 1 failed, 1 skipped");
	ok(w[1].resume_median_s == 0.3 && w[1].resume_worst_s == 0.4,
	   "resume over the resumed cycles only: median 0.3, worst 0.4");
	ok(w[1].ntrace == 2 && w[1].trace_median_s == 0.08 &&
		   w[1].trace_worst_s == 0.09,
	   "the trace's resume over the traced ones");
	ok(w[1].nwake == 2 && w[1].wake[0].irq == 9 &&
		   w[1].wake[0].cycles == 2 && w[1].wake[1].irq == 1 &&
		   !strcmp(w[1].wake[1].name, "i8042"),
	   "wake reasons, the most frequent first");
	ok(w[0].resume_median_s == 0.1 && w[0].resume_worst_s == 0.5,
	   "an even count: the lower middle, a time of the log");
	ok(isnan(w[0].trace_median_s) && w[0].ntrace == 0,
	   "no trace that week: NAN");
	ok(w[0].nwake == 2 && w[0].wake[0].irq == -1,
	   "ties by IRQ, none recorded first");
	pm_hist_weeks_free(w, n);
}

static off_t size_of(const char *rel)
{
	char path[8192];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return stat(path, &st) < 0 ? -1 : st.st_size;
}

/* A log of exactly size bytes of lines. */
static void fill(const char *rel, size_t size)
{
	char *text = malloc(size + 1);

	if (!text)
		exit(99);
	memset(text, 'x', size);
	for (size_t i = 99; i < size; i += 100)
		text[i] = '\n';
	text[size - 1] = '\n';
	text[size] = '\0';
	tree_put(root, rel, text);
	free(text);
}

static void test_append(void)
{
	char line[2048], want[8192];
	struct pm_ctx ctx;
	struct stat st;

	if (pm_ctx_open(&ctx, root) < 0)
		exit(99);
	snprintf(line, sizeof(line), "%s\n", good);
	is_int(pm_hist_append(&ctx, line, strlen(line)), -ENOENT,
	       "no /var/log: -ENOENT");
	is_str(ctx.err.file, PM_HIST_LOG, "the record names the log");
	tree_put(root, "var/log/pm-suspend.log", "");
	is_int(pm_hist_append(&ctx, line, strlen(line)), 0, "a line added");
	is_int(pm_hist_append(&ctx, line, strlen(line)), 0, "and another");
	snprintf(want, sizeof(want), "%s%s", line, line);
	is_str(tree_get(root, "var/log/" PM_HIST_NAME), want,
	       "both, whole, in order");
	snprintf(want, sizeof(want), "%s/var/log/%s", root, PM_HIST_NAME);
	ok(stat(want, &st) == 0 && (st.st_mode & 07777) == 0640,
	   "the log is made 0640");
	is_int(pm_hist_append(&ctx, "x", 1), -EINVAL, "not a line: -EINVAL");
	is_int(pm_hist_append(&ctx, "a\nb\n", 4), -EINVAL,
	       "two lines: -EINVAL");
	/* A line cut by a crash gets its end, ours stays whole. */
	tree_put(root, "var/log/" PM_HIST_NAME, "{\"v\":1,\"ti");
	pm_hist_append(&ctx, line, strlen(line));
	snprintf(want, sizeof(want), "{\"v\":1,\"ti\n%s", line);
	is_str(tree_get(root, "var/log/" PM_HIST_NAME), want,
	       "a cut last line is ended first");
	/* Under the limit: appended; at it: rotated, then appended. */
	fill("var/log/" PM_HIST_NAME, PM_HIST_MAX - 1);
	pm_hist_append(&ctx, line, strlen(line));
	is_int(size_of("var/log/" PM_HIST_NAME),
	       PM_HIST_MAX - 1 + (off_t)strlen(line), "under the limit: kept");
	ok(size_of("var/log/" PM_HIST_NAME ".1") < 0, "no rotation");
	is_int(pm_hist_append(&ctx, line, strlen(line)), 0,
	       "a line added to a full log");
	is_int(size_of("var/log/" PM_HIST_NAME ".1"),
	       PM_HIST_MAX - 1 + (off_t)strlen(line),
	       "the full log is now " PM_HIST_NAME ".1");
	is_str(tree_get(root, "var/log/" PM_HIST_NAME), line,
	       "and the new log holds the line alone");
	/* No symlink followed: the file it names stays as it is. */
	tree_put(root, "elsewhere", "mine\n");
	snprintf(want, sizeof(want), "%s/var/log/%s", root, PM_HIST_NAME);
	unlink(want);
	if (symlink("../../elsewhere", want) < 0)
		exit(99);
	ok(pm_hist_append(&ctx, line, strlen(line)) < 0, "a symlink: refused");
	is_str(tree_get(root, "elsewhere"), "mine\n", "its target untouched");
	unlink(want);
	pm_ctx_close(&ctx);
}

static void test_read(void)
{
	char text[8192];
	struct pm_hist h;
	struct pm_ctx ctx;

	if (pm_ctx_open(&ctx, root) < 0)
		exit(99);
	snprintf(text, sizeof(text), "%s/var/log/%s.1", root, PM_HIST_NAME);
	unlink(text);
	is_int(pm_hist_read(&ctx, &h), 0, "no log: 0");
	is_int(h.files, 0, "no file");
	pm_hist_free(&h);
	snprintf(text, sizeof(text), "%s\n%s\n", good, good);
	tree_put(root, "var/log/" PM_HIST_NAME ".1", text);
	snprintf(text, sizeof(text), "%s\n\n", edit("\"deep\"", "\"s2idle\""));
	tree_put(root, "var/log/" PM_HIST_NAME, text);
	is_int(pm_hist_read(&ctx, &h), 0, "pm_hist_read");
	ok(h.files == 2 && h.n == 3 && h.lines == 4 && h.unparsed == 1,
	   "both files: 3 cycles, an empty line not parsed");
	ok(h.n == 3 && h.rec[0].mode == PM_MODE_DEEP &&
		   h.rec[2].mode == PM_MODE_S2IDLE,
	   "the old log's lines first");
	is_str(h.first_bad, PM_HIST_LOG ":2: not a JSON object",
	       "the bad line named by its file");
	pm_hist_free(&h);
	pm_ctx_close(&ctx);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(root, sizeof(root), "%s/pmtools-test-history.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	setenv("TZ", "UTC", 1);
	tzset();
	test_good();
	test_bad();
	test_text();
	test_iso_week();
	test_weeks();
	test_append();
	test_read();
	tree_rm(root);
	return done_testing();
}
