// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the output layer: JSON documents (checked with jq when it
 * is installed), kv that a shell can eval, csv and prom escaping, and the
 * atomic --output file.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* U+FFFD REPLACEMENT CHARACTER in UTF-8. */
#define FFFD "\xef\xbf\xbd"

static char tmpdir[] = "/tmp/pmtools-test-out.XXXXXX";
static bool have_jq;

/* ---------------------------------------------------------------- helpers */

/* An output on a memory stream. */
struct cap {
	struct pm_out o;
	FILE *mf;
	char *buf;
	size_t len;
};

static void cap_open(struct cap *c, enum pm_fmt fmt)
{
	memset(c, 0, sizeof(*c));
	pm_out_open(&c->o, fmt, NULL);
	c->mf = open_memstream(&c->buf, &c->len);
	if (!c->mf) {
		perror("open_memstream");
		exit(99);
	}
	c->o.f = c->mf;
}

/* The text written, malloc'ed; *commit gets pm_out_commit's result. */
static char *cap_close(struct cap *c, int *commit)
{
	int r = pm_out_commit(&c->o);

	if (commit)
		*commit = r;
	fclose(c->mf);
	return c->buf;
}

/* What an escaper makes of s, malloc'ed. */
static char *escaped(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

static void check_escape(void (*fn)(FILE *, const char *), const char *name,
			 const char *in, const char *want, const char *what)
{
	char *got = escaped(fn, in);

	is_str(got, want, "%s: %s", name, what);
	free(got);
}

static char *read_file(const char *path)
{
	char *buf = NULL;
	size_t cap = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	if (pm_fd_read_all(fd, &buf, &cap) < 0) {
		free(buf);
		buf = NULL;
	}
	close(fd);
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		perror(path);
		exit(99);
	}
	fputs(text, f);
	fclose(f);
}

/* Entries of the test folder other than . and .., as "a b c". */
static void dir_entries(char *out, size_t size)
{
	char **names;
	struct pm_ctx ctx;
	int n;

	out[0] = '\0';
	if (pm_ctx_open(&ctx, tmpdir) < 0)
		return;
	n = pm_list_dir(&ctx, "/", &names);
	for (int i = 0; i < n; i++) {
		size_t l = strlen(out);

		snprintf(out + l, size - l, "%s%s", l ? " " : "", names[i]);
	}
	pm_list_free(names, n);
	pm_ctx_close(&ctx);
}

static void tmp_path(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", tmpdir, name);
}

/*
 * Run "jq ARGS" on a JSON text; its stdout into out.  Returns the exit
 * status of jq (-1 if it could not run).
 */
static int jq(const char *json, const char *args, char *out, size_t size)
{
	char path[256], cmd[1024];
	FILE *p;
	size_t n = 0;
	int st;

	tmp_path(path, sizeof(path), "jq-input.json");
	write_file(path, json);
	snprintf(cmd, sizeof(cmd), "jq %s <'%s' 2>/dev/null", args, path);
	fflush(stdout);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (out) {
		n = fread(out, 1, size - 1, p);
		out[n] = '\0';
	} else {
		char sink[4096];

		while (fread(sink, 1, sizeof(sink), p) > 0)
			;
	}
	st = pclose(p);
	unlink(path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void check_json_valid(const char *json, const char *what)
{
	if (!have_jq) {
		skip("jq is not installed", "%s: valid JSON", what);
		return;
	}
	is_int(jq(json, "-e .", NULL, 0), 0, "%s: jq accepts it", what);
}

/* ---------------------------------------------------------------- formats */

static void test_fmt_names(void)
{
	static const struct {
		const char *name;
		enum pm_fmt f;
	} names[] = {
		{ "human", PM_FMT_HUMAN }, { "json", PM_FMT_JSON },
		{ "kv", PM_FMT_KV },	   { "csv", PM_FMT_CSV },
		{ "prom", PM_FMT_PROM },
	};
	static const char *const bad[] = { "",	    "JSON",  "Json",
					   "yaml",  "json ", " json",
					   "jsonl", "k",     "prometheus",
					   "txt" };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		enum pm_fmt f = (enum pm_fmt)99;

		is_int(pm_fmt_parse(names[i].name, &f), 0,
		       "pm_fmt_parse(\"%s\")", names[i].name);
		is_int(f, names[i].f, "pm_fmt_parse(\"%s\") value",
		       names[i].name);
		is_str(pm_fmt_name(names[i].f), names[i].name,
		       "pm_fmt_name(%d)", names[i].f);
	}
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		enum pm_fmt f = PM_FMT_CSV;

		is_int(pm_fmt_parse(bad[i], &f), -EINVAL,
		       "pm_fmt_parse(\"%s\") rejected", bad[i]);
		is_int(f, PM_FMT_CSV, "pm_fmt_parse(\"%s\") leaves the value",
		       bad[i]);
	}
	is_str(pm_fmt_name((enum pm_fmt)5), "?", "pm_fmt_name(5)");
	is_str(pm_fmt_name((enum pm_fmt)99), "?", "pm_fmt_name(99)");
}

/* ---------------------------------------------------------------- html */

static void test_html_escape(void)
{
	static const struct {
		const char *in, *want, *what;
	} cases[] = {
		{ "", "", "empty" },
		{ "0000:00:19.0", "0000:00:19.0", "a PCI device as it is" },
		{ "<script>x</script>", "&lt;script&gt;x&lt;/script&gt;",
		  "markup shown, not read" },
		{ "a&b", "a&amp;b", "ampersand" },
		{ "\"'", "&quot;&#39;", "both quotes, for attributes" },
		{ "&amp;", "&amp;amp;", "an entity shown as written" },
		{ "a\x1b[2Jb", "a\\x1b[2Jb", "escape byte as text" },
		{ "a\nb", "a\\nb", "newline as text" },
		{ "\xff<", "\\xff&lt;", "a byte not UTF-8, then markup" },
		{ "\xc3\xa9", "\xc3\xa9", "UTF-8 kept" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		check_escape(pm_html_escape, "pm_html_escape", cases[i].in,
			     cases[i].want, cases[i].what);
}

/* ---------------------------------------------------------------- json */

static void test_json_escape(void)
{
	static const struct {
		const char *in, *want, *what;
	} cases[] = {
		{ "", "\"\"", "empty" },
		{ "plain", "\"plain\"", "plain" },
		{ "a\"b", "\"a\\\"b\"", "quote" },
		{ "a\\b", "\"a\\\\b\"", "backslash" },
		{ "a\nb", "\"a\\nb\"", "newline" },
		{ "a\tb", "\"a\\tb\"", "tab" },
		{ "a\rb", "\"a\\rb\"", "carriage return" },
		{ "\x01", "\"\\u0001\"", "0x01" },
		{ "\x08\x0c", "\"\\u0008\\u000c\"", "backspace and form feed" },
		{ "\x1b[31m", "\"\\u001b[31m\"", "escape sequence" },
		{ "\x1f", "\"\\u001f\"", "0x1f" },
		{ "\x7f", "\"\\u007f\"", "0x7f" },
		{ " ~/", "\" ~/\"", "printable ASCII kept" },
		{ "\xc3\xa9t\xc3\xa9", "\"\xc3\xa9t\xc3\xa9\"",
		  "2-byte UTF-8" },
		{ "\xe2\x82\xac", "\"\xe2\x82\xac\"", "3-byte UTF-8 (euro)" },
		{ "\xf0\x9f\x98\x80", "\"\xf0\x9f\x98\x80\"", "4-byte UTF-8" },
		{ "\xed\x9f\xbf", "\"\xed\x9f\xbf\"", "U+D7FF kept" },
		{ "\xee\x80\x80", "\"\xee\x80\x80\"", "U+E000 kept" },
		{ "\xef\xbf\xbd", "\"" FFFD "\"", "U+FFFD itself kept" },
		{ "\xf4\x8f\xbf\xbf", "\"\xf4\x8f\xbf\xbf\"", "U+10FFFF kept" },
		{ "\xff", "\"" FFFD "\"", "lone 0xff" },
		{ "a\377b", "\"a" FFFD "b\"", "0xff inside ASCII" },
		{ "\xfe", "\"" FFFD "\"", "lone 0xfe" },
		{ "\x80", "\"" FFFD "\"", "lone continuation byte" },
		{ "\xc3", "\"" FFFD "\"", "truncated 2-byte at the end" },
		{ "\xe2\x82", "\"" FFFD FFFD "\"",
		  "truncated 3-byte at the end" },
		{ "\xe2\x82x", "\"" FFFD FFFD "x\"",
		  "truncated 3-byte, then x" },
		{ "\xf0\x9f\x98", "\"" FFFD FFFD FFFD "\"",
		  "truncated 4-byte" },
		{ "\xc3(", "\"" FFFD "(\"", "2-byte start, ASCII after" },
		{ "\xc0\xaf", "\"" FFFD FFFD "\"", "overlong 0xc0 0xaf" },
		{ "\xc1\xbf", "\"" FFFD FFFD "\"", "overlong 0xc1 0xbf" },
		{ "\xe0\x80\xaf", "\"" FFFD FFFD FFFD "\"", "overlong 3-byte" },
		{ "\xf0\x80\x80\xaf", "\"" FFFD FFFD FFFD FFFD "\"",
		  "overlong 4-byte" },
		{ "\xed\xa0\x80", "\"" FFFD FFFD FFFD "\"",
		  "surrogate 0xed 0xa0 0x80" },
		{ "\xed\xbf\xbf", "\"" FFFD FFFD FFFD "\"",
		  "surrogate U+DFFF" },
		{ "\xf4\x90\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"",
		  "past U+10FFFF" },
		{ "\xf5\x80\x80\x80", "\"" FFFD FFFD FFFD FFFD "\"",
		  "0xf5 lead" },
		{ "\"\\\n\x01\xff", "\"\\\"\\\\\\n\\u0001" FFFD "\"",
		  "all at once" },
		{ "\xc2\x9b" "2J", "\"\\u009b2J\"", "C1 CSI" },
		{ "\xc2\x80\xc2\x9f\xc2\xa0", "\"\\u0080\\u009f\xc2\xa0\"",
		  "C1 ends at U+009F" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		check_escape(pm_json_escape, "pm_json_escape", cases[i].in,
			     cases[i].want, cases[i].what);

	/* jq decodes every escaped string back: valid text unchanged. */
	static const char *const back[] = {
		"a\"b\\c\nd\te\rf", "\x01\x02\x1f\x7f", "\xc3\xa9\xe2\x82\xac",
		"\xf0\x9f\x98\x80", "</script>",	"'single'",
		"$(touch x)", "\xc2\x9b\xc2\x85",
	};

	for (size_t i = 0; i < ARRAY_SIZE(back); i++) {
		char *json = escaped(pm_json_escape, back[i]), out[256];

		if (!have_jq) {
			skip("jq is not installed", "jq decodes string %zu", i);
		} else {
			is_int(jq(json, "-j .", out, sizeof(out)), 0,
			       "jq reads escaped string %zu", i);
			is_str(out, back[i], "jq decodes string %zu back", i);
		}
		free(json);
	}
	/* Invalid UTF-8 becomes text jq accepts. */
	char *json =
		escaped(pm_json_escape, "\xff\xc0\xaf\xed\xa0\x80\xe2\x82");

	check_json_valid(json, "invalid UTF-8 escaped");
	free(json);
}

/* A small document with every kind of scalar. */
static void emit_scalars(struct pm_out *o)
{
	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "name", "cpu0");
	pm_out_u64(o, "freq_khz", 800000);
	pm_out_u64(o, "max", UINT64_MAX - 1);
	pm_out_s64(o, "temp_mc", -5);
	pm_out_s64(o, "min_s64", INT64_MIN);
	pm_out_bool(o, "online", true);
	pm_out_bool(o, "boost", false);
	pm_out_null(o, "resume");
	pm_out_str(o, "model", NULL);
	pm_out_u64_or_null(o, "cur_khz", PM_UNKNOWN);
	pm_out_u64_or_null(o, "min_khz", 5);
	pm_out_double(o, "load", 0.25, 2);
	pm_out_double(o, "ratio", 2.0 / 3.0, 3);
	pm_out_double(o, "whole", 7.4, 0);
	pm_out_double(o, "neg", -1.5, 1);
	pm_out_double(o, "nan", NAN, 2);
	pm_out_double(o, "inf", INFINITY, 2);
	pm_out_double(o, "ninf", -INFINITY, 2);
	pm_out_obj_end(o);
}

static const char scalars_json[] = "{\n"
				   "  \"name\": \"cpu0\",\n"
				   "  \"freq_khz\": 800000,\n"
				   "  \"max\": 18446744073709551614,\n"
				   "  \"temp_mc\": -5,\n"
				   "  \"min_s64\": -9223372036854775808,\n"
				   "  \"online\": true,\n"
				   "  \"boost\": false,\n"
				   "  \"resume\": null,\n"
				   "  \"model\": null,\n"
				   "  \"cur_khz\": null,\n"
				   "  \"min_khz\": 5,\n"
				   "  \"load\": 0.25,\n"
				   "  \"ratio\": 0.667,\n"
				   "  \"whole\": 7,\n"
				   "  \"neg\": -1.5,\n"
				   "  \"nan\": null,\n"
				   "  \"inf\": null,\n"
				   "  \"ninf\": null\n"
				   "}\n";

/* Nested objects and arrays, as cstate-stat and pmctl status make them. */
static void emit_nested(struct pm_out *o)
{
	struct pm_cpuset s;

	pm_cpuset_zero(&s);
	pm_cpuset_set(&s, 3);
	pm_cpuset_set(&s, 7);
	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "driver", "intel_idle");
	pm_out_arr_begin(o, "cpus", "cpu");
	pm_out_elem_begin(o, 3);
	pm_out_u64(o, "online", 1);
	pm_out_arr_begin(o, "states", "state");
	pm_out_elem_begin(o, 2);
	pm_out_str(o, "name", "C1E");
	pm_out_u64(o, "time_us", 5);
	pm_out_obj_end(o);
	pm_out_arr_end(o);
	pm_out_cpuset(o, "siblings", &s);
	pm_out_obj_end(o);
	pm_out_elem_begin(o, 10);
	pm_out_u64(o, "online", 0);
	pm_out_arr_begin(o, "states", "state");
	pm_out_arr_end(o);
	pm_out_obj_end(o);
	pm_out_arr_end(o);
	pm_out_words(o, "governors", "menu teo ");
	pm_out_obj_begin(o, "policy0");
	pm_out_u64(o, "min_khz", 800000);
	pm_out_obj_begin(o, "stats");
	pm_out_obj_end(o);
	pm_out_obj_end(o);
	pm_out_words(o, "none", "");
	pm_out_obj_end(o);
}

static const char nested_json[] = "{\n"
				  "  \"driver\": \"intel_idle\",\n"
				  "  \"cpus\": [\n"
				  "    {\n"
				  "      \"online\": 1,\n"
				  "      \"states\": [\n"
				  "        {\n"
				  "          \"name\": \"C1E\",\n"
				  "          \"time_us\": 5\n"
				  "        }\n"
				  "      ],\n"
				  "      \"siblings\": [\n"
				  "        3,\n"
				  "        7\n"
				  "      ]\n"
				  "    },\n"
				  "    {\n"
				  "      \"online\": 0,\n"
				  "      \"states\": []\n"
				  "    }\n"
				  "  ],\n"
				  "  \"governors\": [\n"
				  "    \"menu\",\n"
				  "    \"teo\"\n"
				  "  ],\n"
				  "  \"policy0\": {\n"
				  "    \"min_khz\": 800000,\n"
				  "    \"stats\": {}\n"
				  "  },\n"
				  "  \"none\": []\n"
				  "}\n";

static const char nested_kv[] = "driver='intel_idle'\n"
				"cpu3_online='1'\n"
				"cpu3_state2_name='C1E'\n"
				"cpu3_state2_time_us='5'\n"
				"cpu3_siblings='3 7'\n"
				"cpu10_online='0'\n"
				"governors='menu teo'\n"
				"policy0_min_khz='800000'\n"
				"none=''\n";

static void test_json_docs(void)
{
	struct cap c;
	char *text, out[256];
	int r;

	cap_open(&c, PM_FMT_JSON);
	emit_scalars(&c.o);
	text = cap_close(&c, &r);
	is_int(r, 0, "json scalars: commit");
	is_str(text, scalars_json, "json scalars: exact text");
	check_json_valid(text, "json scalars");
	if (have_jq) {
		jq(text, "-j '.freq_khz + .temp_mc'", out, sizeof(out));
		is_str(out, "799995", "json scalars: numbers are numbers");
		jq(text,
		   "-j '[.resume, .cur_khz, .nan] | map(. == null) | all'", out,
		   sizeof(out));
		is_str(out, "true", "json scalars: unknowns are null");
	}
	free(text);

	cap_open(&c, PM_FMT_JSON);
	emit_nested(&c.o);
	text = cap_close(&c, &r);
	is_int(r, 0, "json nested: commit");
	is_str(text, nested_json, "json nested: exact text");
	check_json_valid(text, "json nested");
	if (have_jq) {
		jq(text, "-j '.cpus[0].states[0].time_us'", out, sizeof(out));
		is_str(out, "5", "json nested: jq finds cpus[0].states[0]");
		jq(text, "-j '.cpus[0].siblings | map(tostring) | join(\",\")'",
		   out, sizeof(out));
		is_str(out, "3,7", "json nested: CPU lists are integers");
	}
	free(text);

	/* Empty containers and a document that is one value. */
	cap_open(&c, PM_FMT_JSON);
	pm_out_obj_begin(&c.o, NULL);
	pm_out_obj_end(&c.o);
	text = cap_close(&c, NULL);
	is_str(text, "{}\n", "json: an empty object");
	free(text);

	cap_open(&c, PM_FMT_JSON);
	pm_out_arr_begin(&c.o, NULL, NULL);
	pm_out_u64(&c.o, NULL, 1);
	pm_out_str(&c.o, NULL, "x");
	pm_out_null(&c.o, NULL);
	pm_out_arr_end(&c.o);
	text = cap_close(&c, NULL);
	is_str(text, "[\n  1,\n  \"x\",\n  null\n]\n",
	       "json: a top-level array");
	check_json_valid(text, "json top-level array");
	free(text);

	cap_open(&c, PM_FMT_JSON);
	pm_out_u64(&c.o, NULL, 42);
	text = cap_close(&c, NULL);
	is_str(text, "42\n", "json: a bare value");
	free(text);

	/* JSON Lines: one object per sample, one per line. */
	cap_open(&c, PM_FMT_JSON);
	for (int i = 0; i < 3; i++) {
		pm_out_obj_begin(&c.o, NULL);
		pm_out_u64(&c.o, "n", (uint64_t)i);
		pm_out_obj_end(&c.o);
	}
	text = cap_close(&c, NULL);
	is_str(text, "{\n  \"n\": 0\n}\n{\n  \"n\": 1\n}\n{\n  \"n\": 2\n}\n",
	       "json: consecutive documents");
	if (have_jq) {
		jq(text, "-j .n", out, sizeof(out));
		is_str(out, "012", "json: jq reads every document");
	}
	free(text);

	/* Hostile keys and values stay strings. */
	cap_open(&c, PM_FMT_JSON);
	pm_out_obj_begin(&c.o, NULL);
	pm_out_str(&c.o, "k\"ey\n", "v\xff\x01\"");
	pm_out_words(&c.o, "words", "a\"b c\\d");
	pm_out_obj_end(&c.o);
	text = cap_close(&c, NULL);
	is_str(text,
	       "{\n  \"k\\\"ey\\n\": \"v" FFFD "\\u0001\\\"\",\n"
	       "  \"words\": [\n    \"a\\\"b\",\n    \"c\\\\d\"\n  ]\n}\n",
	       "json: keys and values escaped");
	check_json_valid(text, "json hostile strings");
	free(text);

	/* The deepest document allowed, and one level more. */
	cap_open(&c, PM_FMT_JSON);
	for (int i = 0; i < PM_OUT_DEPTH; i++)
		pm_out_obj_begin(&c.o, i ? "d" : NULL);
	pm_out_u64(&c.o, "leaf", 1);
	for (int i = 0; i < PM_OUT_DEPTH; i++)
		pm_out_obj_end(&c.o);
	text = cap_close(&c, &r);
	is_int(r, 0, "json: %d levels are fine", PM_OUT_DEPTH);
	check_json_valid(text, "json deepest document");
	free(text);

	cap_open(&c, PM_FMT_JSON);
	for (int i = 0; i <= PM_OUT_DEPTH; i++)
		pm_out_obj_begin(&c.o, i ? "d" : NULL);
	for (int i = 0; i <= PM_OUT_DEPTH; i++)
		pm_out_obj_end(&c.o);
	is_int(c.o.err, E2BIG, "json: one level too deep sets o->err");
	text = cap_close(&c, &r);
	is_int(r, -E2BIG, "json: pm_out_commit reports a document too deep");
	free(text);
}

/* ---------------------------------------------------------------- kv */

static void test_kv(void)
{
	struct cap c;
	char *text;
	int r;

	static const struct {
		const char *in, *want;
	} keys[] = {
		{ "time_us", "time_us" },
		{ "CPU3", "cpu3" },
		{ "Time-US", "time_us" },
		{ "a b", "a_b" },
		{ "a.b/c", "a_b_c" },
		{ "$(x)", "__x_" },
		{ "\xc3\xa9t\xc3\xa9", "__t__" },
		{ "", "" },
		{ "a'b\"c\n", "a_b_c_" },
		{ "Z9_z", "z9_z" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++) {
		char buf[64];

		snprintf(buf, sizeof(buf), "%s", keys[i].in);
		pm_kv_key_sanitize(buf);
		is_str(buf, keys[i].want, "pm_kv_key_sanitize(\"%s\")",
		       keys[i].in);
	}

	check_escape(pm_kv_quote, "pm_kv_quote", "", "''", "empty");
	check_escape(pm_kv_quote, "pm_kv_quote", "abc", "'abc'", "plain");
	check_escape(pm_kv_quote, "pm_kv_quote", "it's", "'it'\\''s'",
		     "a single quote");
	check_escape(pm_kv_quote, "pm_kv_quote", "''", "''\\'''\\'''",
		     "two single quotes");
	check_escape(pm_kv_quote, "pm_kv_quote", "$(x) `y` \"z\" \\",
		     "'$(x) `y` \"z\" \\'", "shell syntax stays literal");
	check_escape(pm_kv_quote, "pm_kv_quote", "a\nb", "'a\\nb'",
		     "a newline as text");
	check_escape(pm_kv_quote, "pm_kv_quote", "B\x1b]0;t\x07\x1b[2J",
		     "'B\\x1b]0;t\\x07\\x1b[2J'", "OSC and clear-screen as text");
	check_escape(pm_kv_quote, "pm_kv_quote", "a\xc2\x9b" "2J\xff",
		     "'a\\xc2\\x9b2J\\xff'", "C1 and a byte that is not UTF-8");
	check_escape(pm_kv_quote, "pm_kv_quote", "\xc3\xa9t\xc3\xa9",
		     "'\xc3\xa9t\xc3\xa9'", "UTF-8 kept");

	cap_open(&c, PM_FMT_KV);
	emit_nested(&c.o);
	text = cap_close(&c, &r);
	is_int(r, 0, "kv nested: commit");
	is_str(text, nested_kv, "kv nested: flattened keys");
	free(text);

	cap_open(&c, PM_FMT_KV);
	emit_scalars(&c.o);
	text = cap_close(&c, NULL);
	is_str(text,
	       "name='cpu0'\nfreq_khz='800000'\nmax='18446744073709551614'\n"
	       "temp_mc='-5'\nmin_s64='-9223372036854775808'\n"
	       "online='true'\nboost='false'\nresume=''\nmodel=''\n"
	       "cur_khz=''\nmin_khz='5'\nload='0.25'\nratio='0.667'\n"
	       "whole='7'\nneg='-1.5'\nnan=''\ninf=''\nninf=''\n",
	       "kv scalars: unknowns are empty");
	free(text);

	/* Elements without a label are numbered; keys are sanitized. */
	cap_open(&c, PM_FMT_KV);
	pm_out_obj_begin(&c.o, NULL);
	pm_out_arr_begin(&c.o, "supplies", "bat");
	for (int i = 0; i < 2; i++) {
		pm_out_obj_begin(&c.o, NULL);
		pm_out_str(&c.o, "Model-Name", i ? "b" : "a");
		pm_out_obj_end(&c.o);
	}
	pm_out_arr_end(&c.o);
	pm_out_obj_begin(&c.o, "Policy 0");
	pm_out_str(&c.o, "$(x)", "y");
	pm_out_obj_end(&c.o);
	pm_out_str(&c.o, "after", "z");
	pm_out_obj_end(&c.o);
	text = cap_close(&c, NULL);
	is_str(text,
	       "bat0_model_name='a'\nbat1_model_name='b'\n"
	       "policy_0___x_='y'\nafter='z'\n",
	       "kv: numbered elements, sanitized keys, key path restored");
	free(text);

	/* Two scalar arrays in a row do not share their values. */
	cap_open(&c, PM_FMT_KV);
	pm_out_obj_begin(&c.o, NULL);
	pm_out_words(&c.o, "a", "x y");
	pm_out_words(&c.o, "b", "z");
	pm_out_arr_begin(&c.o, "c", NULL);
	pm_out_u64(&c.o, NULL, 1);
	pm_out_str(&c.o, NULL, "it's");
	pm_out_arr_end(&c.o);
	pm_out_obj_end(&c.o);
	text = cap_close(&c, NULL);
	is_str(text, "a='x y'\nb='z'\nc='1 it'\\''s'\n",
	       "kv: scalar arrays joined with spaces, each its own");
	free(text);

	/* Human, csv and prom outputs ignore the structured calls. */
	static const enum pm_fmt others[] = { PM_FMT_HUMAN, PM_FMT_CSV,
					      PM_FMT_PROM };

	for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
		cap_open(&c, others[i]);
		emit_nested(&c.o);
		text = cap_close(&c, NULL);
		is_str(text, "", "%s output ignores documents",
		       pm_fmt_name(others[i]));
		free(text);
	}
	cap_open(&c, PM_FMT_HUMAN);
	pm_out_printf(&c.o, "%-6s %5u\n", "cpu0", 42u);
	text = cap_close(&c, NULL);
	is_str(text, "cpu0      42\n", "human: pm_out_printf");
	free(text);
}

/*
 * Human output: every string argument in its text form, whatever the
 * conversion around it; numbers and the format itself as printf has them.
 */
static void test_printf_escape(void)
{
	static const char osc[] = "BAT\x1b]0;pwned\x07\x1b[2J";
	struct cap c;
	char *text;

	cap_open(&c, PM_FMT_HUMAN);
	pm_out_printf(&c.o, "[%s] [%-12s|] [%4s] [%.3s] [%.*s] [%*s]\n", osc,
		      "a\nb", "\t", "\x1b[31mred", 2, "\x9bxyz", 3, "\x7f");
	text = cap_close(&c, NULL);
	is_str(text,
	       "[BAT\\x1b]0;pwned\\x07\\x1b[2J] [a\\nb        |] [  \\t] "
	       "[\\x1b[3] [\\x9bx] [\\x7f]\n",
	       "printf: %%s, widths and precisions of escaped text");
	free(text);

	cap_open(&c, PM_FMT_HUMAN);
	pm_out_printf(&c.o, "%d %ld %lld %u %lu %llu %zu %x %05.1f %g %c%c %% "
			    "%5.2f%%|%-3d|%+d\n",
		      -1, -2L, -3LL, 4u, 5UL, 6ULL, (size_t)7, 255u, 3.14159,
		      0.5, 'x', '\x1b', 99.5, 7, 8);
	text = cap_close(&c, NULL);
	is_str(text, "-1 -2 -3 4 5 6 7 ff 003.1 0.5 x\\x1b % 99.50%|7  |+8\n",
	       "printf: numbers as printf prints them, %%c escaped");
	free(text);

	cap_open(&c, PM_FMT_HUMAN);
	pm_out_printf(&c.o, "%hhd %hu %hhx %jd %td %zd %Lf %#o %.*f|%-*d|\n",
		      300, 70000, 0x1ff, (intmax_t)-9, (ptrdiff_t)-4,
		      (ssize_t)-5, 1.5L, 8u, 2, 2.0 / 3, 4, 1);
	text = cap_close(&c, NULL);
	is_str(text, "44 4464 ff -9 -4 -5 1.500000 010 0.67|1   |\n",
	       "printf: every length modifier reads its own argument");
	free(text);

	cap_open(&c, PM_FMT_HUMAN);
	pm_out_printf(&c.o, "%s %s\n", "\xc3\xa9t\xc3\xa9 \xe2\x96\x8f",
		      "\xc2\x9b\xff");
	text = cap_close(&c, NULL);
	is_str(text, "\xc3\xa9t\xc3\xa9 \xe2\x96\x8f \\xc2\\x9b\\xff\n",
	       "printf: UTF-8 kept, C1 and bytes that are not UTF-8 as text");
	free(text);
}

/* The shortest text that reads back exactly, after rounding to prec. */
static void test_numbers(void)
{
	static const struct {
		double v;
		int prec;
		const char *want;
	} dec[] = {
		{ 12.5, 2, "12.5" },	 { 0.3, 2, "0.3" },
		{ 7.4, 0, "7" },	 { 2.0 / 3.0, 3, "0.667" },
		{ -0.001, 2, "0" },	 { 1710000000.125, 3, "1710000000.125" },
		{ 119901.59999999999, 3, "119901.6" },
		{ 18.452, 6, "18.452" }, { 100, 2, "100" },
		{ 0.000001, 6, "0.000001" },
	};
	char b[64];

	for (size_t i = 0; i < ARRAY_SIZE(dec); i++)
		is_str(pm_fmt_decimals(dec[i].v, dec[i].prec, b, sizeof(b)),
		       dec[i].want, "pm_fmt_decimals(%.17g, %d)", dec[i].v,
		       dec[i].prec);
	is_str(pm_fmt_decimals(NAN, 2, b, sizeof(b)), "", "NaN: empty");
	/* energy_now 33306000 uWh in joules, computed in one division. */
	is_str(pm_fmt_double(33306000.0 * 3600 / 1e6, b, sizeof(b)),
	       "119901.6", "pm_fmt_double: joules from uWh");
	is_str(pm_fmt_double(-0.0, b, sizeof(b)), "0", "pm_fmt_double: -0");
	for (int i = 0; i < 2000; i++) {
		double v = (double)i * 1.37 / 7.0 - 100.0;

		pm_fmt_double(v, b, sizeof(b));
		if (strtod(b, NULL) != v) {
			ok(0, "pm_fmt_double(%.17g) reads back (%s)", v, b);
			return;
		}
	}
	ok(1, "pm_fmt_double: 2000 values read back exactly");
}

/* A family's HELP and TYPE once per exposition, even when asked again. */
static void test_prom_once(void)
{
	struct cap c;
	char *text;

	cap_open(&c, PM_FMT_PROM);
	for (int k = 0; k < 2; k++) {
		pm_out_prom_meta(&c.o, "pm_a", "gauge", "A.");
		pm_out_prom_sample(&c.o, "pm_a", NULL, k);
		pm_out_prom_meta(&c.o, "pm_b", "gauge", "B.");
		pm_out_prom_sample(&c.o, "pm_b", NULL, 0.5 + k);
	}
	text = cap_close(&c, NULL);
	is_str(text,
	       "# HELP pm_a A.\n# TYPE pm_a gauge\npm_a 0\n"
	       "# HELP pm_b B.\n# TYPE pm_b gauge\npm_b 0.5\n"
	       "pm_a 1\npm_b 1.5\n",
	       "prom: HELP and TYPE once per stream");
	free(text);
}

/* What "eval" of the kv file gives for one variable. */
static int sh_eval_var(const char *file, const char *var, char *out,
		       size_t size)
{
	char cmd[1024];
	size_t n;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd),
		 "sh -c 'eval \"$(cat %s)\"; printf %%s \"$%s\"' 2>&1", file,
		 var);
	fflush(stdout);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, size - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_kv_eval(void)
{
	char file[256], pwned[3][256], out[512];
	struct pm_out o;
	int r;

	tmp_path(pwned[0], sizeof(pwned[0]), "pwned");
	tmp_path(pwned[1], sizeof(pwned[1]), "pwned2");
	tmp_path(pwned[2], sizeof(pwned[2]), "pwned3");

	char v0[300], v1[300], v2[300];

	snprintf(v0, sizeof(v0), "$(touch %s)", pwned[0]);
	snprintf(v1, sizeof(v1), "`touch %s`", pwned[1]);
	snprintf(v2, sizeof(v2), "'; touch %s; '", pwned[2]);

	const char *const values[] = {
		v0,
		v1,
		v2,
		"line one\nline 'two' \"quoted\"\nend",
		"back\\slash \\n $HOME ${PATH} !! *",
		"it's",
		"",
		" leading and trailing ",
		"\t",
		"semi;colon&amp|pipe>redir",
	};

	tmp_path(file, sizeof(file), "status.kv");
	r = pm_out_open(&o, PM_FMT_KV, file);
	is_int(r, 0, "kv eval: pm_out_open on a file");
	if (r < 0)
		return;
	pm_out_obj_begin(&o, NULL);
	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		char key[16];

		snprintf(key, sizeof(key), "v%zu", i);
		pm_out_str(&o, key, values[i]);
	}
	/* A key made of kernel text is sanitized before it reaches sh. */
	pm_out_str(&o, "BAT0; touch pwned", "battery");
	pm_out_obj_end(&o);
	is_int(pm_out_commit(&o), 0, "kv eval: commit");

	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		char var[16], *want = pm_text_escape_dup(values[i]);

		snprintf(var, sizeof(var), "v%zu", i);
		r = sh_eval_var(file, var, out, sizeof(out));
		is_int(r, 0, "kv eval: sh exits 0 for $%s", var);
		/* Control bytes come back as their text (\n, \t). */
		is_str(out, want, "kv eval: $%s round-trips as text", var);
		free(want);
	}
	r = sh_eval_var(file, "bat0__touch_pwned", out, sizeof(out));
	is_str(out, "battery", "kv eval: a hostile key becomes a name");
	for (int i = 0; i < 3; i++)
		ok(access(pwned[i], F_OK) < 0 && errno == ENOENT,
		   "kv eval: %s was not created", pwned[i]);
	ok(access("pwned", F_OK) < 0, "kv eval: ./pwned was not created");
	unlink(file);
}

/* ---------------------------------------------------------------- csv */

static void test_csv(void)
{
	static const struct {
		const char *in, *want, *what;
	} cases[] = {
		{ "", "", "empty" },
		{ "plain", "plain", "plain" },
		{ "with space", "with space", "space unquoted" },
		{ "a,b", "\"a,b\"", "comma" },
		{ "a\"b", "\"a\"\"b\"", "quote doubled" },
		{ "\"", "\"\"\"\"", "a lone quote" },
		{ "a\nb", "a\\nb", "newline as text" },
		{ "a\r\nb", "a\\x0d\\nb", "CRLF as text" },
		{ "a,\x1b[2J", "\"a,\\x1b[2J\"", "escape and comma" },
		{ "\xff\xc2\x85", "\\xff\\xc2\\x85", "not UTF-8, C1" },
		{ "\"a\",\"b\"", "\"\"\"a\"\",\"\"b\"\"\"",
		  "quotes and commas" },
		{ "a;b", "a;b", "semicolon unquoted" },
	};
	struct cap c;
	char *text;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		check_escape(pm_csv_field, "pm_csv_field", cases[i].in,
			     cases[i].want, cases[i].what);

	const char *const hdr[] = { "time", "cpu", "state", "name" };
	const char *const row[] = { "0.5", "3", NULL, "C1,\"E\"\nx" };

	cap_open(&c, PM_FMT_CSV);
	pm_out_csv_row(&c.o, 4, hdr);
	pm_out_csv_row(&c.o, 4, row);
	pm_out_csv_row(&c.o, 0, row);
	text = cap_close(&c, NULL);
	is_str(text, "time,cpu,state,name\n0.5,3,,\"C1,\"\"E\"\"\\nx\"\n\n",
	       "csv rows: NULL is an empty field, RFC 4180 quoting");
	free(text);

	cap_open(&c, PM_FMT_JSON);
	pm_out_csv_row(&c.o, 4, hdr);
	text = cap_close(&c, NULL);
	is_str(text, "", "csv rows are ignored by other formats");
	free(text);
}

/* ---------------------------------------------------------------- prom */

static void test_prom(void)
{
	static const struct {
		const char *in, *want, *what;
	} labels[] = {
		{ "", "", "empty" },
		{ "cpu0", "cpu0", "plain" },
		{ "a\\b", "a\\\\b", "backslash" },
		{ "a\"b", "a\\\"b", "quote" },
		{ "a\nb", "a\\nb", "newline" },
		{ "\\\"\n", "\\\\\\\"\\n", "all three" },
		{ "a'b{}=,", "a'b{}=,", "other punctuation kept" },
		{ "B\x1b]0;t\x07", "B\\\\x1b]0;t\\\\x07",
		  "control bytes as text, the backslash escaped" },
		{ "a\xff\xc3", "a\\\\xff\\\\xc3", "not UTF-8 as text" },
		{ "\xc2\x9b\xc3\xa9", "\\\\xc2\\\\x9b\xc3\xa9", "C1; UTF-8 kept" },
	};
	static const struct {
		double v;
		const char *want;
	} values[] = {
		{ 0, "0" },
		{ 1, "1" },
		{ -3, "-3" },
		{ 1e6, "1000000" },
		{ 123456789, "123456789" },
		{ 1e15, "1000000000000000" },
		{ 4294967296.0, "4294967296" },
		{ 9007199254740991.0, "9007199254740991" },
		{ 0.5, "0.5" },
		{ 0.1, "0.1" },
		{ -2.25, "-2.25" },
		{ 1.0 / 3.0, "0.3333333333333333" },
		/* A timestamp keeps its fraction. */
		{ 1733184000.5, "1733184000.5" },
		{ 123456.123456, "123456.123456" },
		{ 1e-9, "1e-09" },
		{ NAN, "NaN" },
		{ INFINITY, "+Inf" },
		{ -INFINITY, "-Inf" },
	};
	struct cap c;
	char *text, want[128];

	for (size_t i = 0; i < ARRAY_SIZE(labels); i++)
		check_escape(pm_prom_label_escape, "pm_prom_label_escape",
			     labels[i].in, labels[i].want, labels[i].what);

	cap_open(&c, PM_FMT_PROM);
	pm_out_prom_meta(
		&c.o, "pm_cpu_freq_hz", "gauge",
		"Current frequency of a \"CPU\", in Hz\\s\nsecond line");
	pm_out_prom_sample(&c.o, "pm_cpu_freq_hz",
			   (const char *const[]){ "cpu", "0", NULL }, 8e8);
	pm_out_prom_sample(&c.o, "pm_cpu_freq_hz",
			   (const char *const[]){ "cpu", "1", "name",
						  "a\"b\\c\nd", NULL },
			   1.2e9);
	pm_out_prom_sample(&c.o, "pm_up", NULL, 1);
	pm_out_prom_sample(&c.o, "pm_up", (const char *const[]){ NULL }, 1);
	pm_out_prom_meta(&c.o, "pm_idle_time_us_total", "counter", "");
	pm_out_prom_sample_u64(&c.o, "pm_idle_time_us_total",
			       (const char *const[]){ "cpu", "3", "state", "2",
						      NULL },
			       UINT64_MAX);
	text = cap_close(&c, NULL);
	is_str(text,
	       "# HELP pm_cpu_freq_hz Current frequency of a \"CPU\", in "
	       "Hz\\\\s\\nsecond line\n"
	       "# TYPE pm_cpu_freq_hz gauge\n"
	       "pm_cpu_freq_hz{cpu=\"0\"} 800000000\n"
	       "pm_cpu_freq_hz{cpu=\"1\",name=\"a\\\"b\\\\c\\nd\"} 1200000000\n"
	       "pm_up 1\n"
	       "pm_up 1\n"
	       "# HELP pm_idle_time_us_total \n"
	       "# TYPE pm_idle_time_us_total counter\n"
	       "pm_idle_time_us_total{cpu=\"3\",state=\"2\"} "
	       "18446744073709551615\n",
	       "prom: HELP, TYPE, labels and samples");
	free(text);

	for (size_t i = 0; i < ARRAY_SIZE(values); i++) {
		cap_open(&c, PM_FMT_PROM);
		pm_out_prom_sample(&c.o, "m", NULL, values[i].v);
		text = cap_close(&c, NULL);
		snprintf(want, sizeof(want), "m %s\n", values[i].want);
		is_str(text, want, "prom sample %s", values[i].want);
		free(text);
	}

	/* Large integers round-trip, with or without an exponent. */
	static const double big[] = { 9007199254740992.0, 1e17, 1e300,
				      18446744073709551616.0, -1e20 };

	for (size_t i = 0; i < ARRAY_SIZE(big); i++) {
		cap_open(&c, PM_FMT_PROM);
		pm_out_prom_sample(&c.o, "m", NULL, big[i]);
		text = cap_close(&c, NULL);
		ok(!strncmp(text, "m ", 2) && strtod(text + 2, NULL) == big[i],
		   "prom sample %g reads back exactly (%s)", big[i], text + 2);
		free(text);
	}

	cap_open(&c, PM_FMT_KV);
	pm_out_prom_meta(&c.o, "m", "gauge", "h");
	pm_out_prom_sample(&c.o, "m", NULL, 1);
	pm_out_prom_sample_u64(&c.o, "m", NULL, 1);
	text = cap_close(&c, NULL);
	is_str(text, "", "prom calls are ignored by other formats");
	free(text);
}

/* ---------------------------------------------------------------- --output */

static void test_atomic(void)
{
	char target[256], list[1024], *text;
	struct pm_out o;
	struct stat st;
	int r;

	tmp_path(target, sizeof(target), "out.json");

	/* A new file appears whole, at commit. */
	r = pm_out_open(&o, PM_FMT_JSON, target);
	is_int(r, 0, "--output: pm_out_open");
	ok(o.tmp_path && o.f && o.f != stdout, "--output: a temporary file");
	ok(o.tmp_path && !strncmp(o.tmp_path, tmpdir, strlen(tmpdir)) &&
		   strchr(o.tmp_path + strlen(tmpdir) + 1, '/') == NULL,
	   "--output: the temporary file is in the same folder (%s)",
	   o.tmp_path ? o.tmp_path : "NULL");
	ok(o.tmp_path && access(o.tmp_path, F_OK) == 0,
	   "--output: the temporary file exists");
	emit_nested(&o);
	fflush(o.f);
	ok(access(target, F_OK) < 0 && errno == ENOENT,
	   "--output: no target before the commit");
	r = pm_out_commit(&o);
	is_int(r, 0, "--output: pm_out_commit");
	text = read_file(target);
	is_str(text, nested_json, "--output: the target has the document");
	free(text);
	ok(stat(target, &st) == 0 && (st.st_mode & 07777) == 0644,
	   "--output: mode 0644 (got %o)", (unsigned)(st.st_mode & 07777));
	ok(S_ISREG(st.st_mode), "--output: a regular file");
	dir_entries(list, sizeof(list));
	is_str(list, "out.json", "--output: no temporary file left");
	ok(o.tmp_path == NULL && o.final_path == NULL,
	   "--output: the paths are freed");

	/* An old file keeps its content until the commit. */
	write_file(target, "old\n");
	chmod(target, 0600);
	r = pm_out_open(&o, PM_FMT_KV, target);
	is_int(r, 0, "--output over a file: pm_out_open");
	pm_out_str(&o, "k", "new");
	fflush(o.f);
	text = read_file(target);
	is_str(text, "old\n",
	       "--output over a file: old content before "
	       "the commit");
	free(text);
	is_int(pm_out_commit(&o), 0, "--output over a file: commit");
	text = read_file(target);
	is_str(text, "k='new'\n", "--output over a file: new content");
	free(text);
	ok(stat(target, &st) == 0 && (st.st_mode & 07777) == 0644,
	   "--output over a file: mode 0644 (got %o)",
	   (unsigned)(st.st_mode & 07777));

	/* Abort: the old file stays, the temporary goes. */
	r = pm_out_open(&o, PM_FMT_JSON, target);
	is_int(r, 0, "abort: pm_out_open");
	pm_out_str(&o, NULL, "half a docu");
	pm_out_abort(&o);
	text = read_file(target);
	is_str(text, "k='new'\n", "abort: the target is unchanged");
	free(text);
	dir_entries(list, sizeof(list));
	is_str(list, "out.json", "abort: no temporary file left");
	ok(o.tmp_path == NULL && o.final_path == NULL && o.f == NULL,
	   "abort: the output is released");

	/* Abort before a target existed: nothing at all. */
	unlink(target);
	r = pm_out_open(&o, PM_FMT_CSV, target);
	is_int(r, 0, "abort of a new file: pm_out_open");
	pm_out_abort(&o);
	dir_entries(list, sizeof(list));
	is_str(list, "", "abort of a new file: the folder is empty");

	/* A failed document does not replace the target. */
	write_file(target, "old\n");
	r = pm_out_open(&o, PM_FMT_JSON, target);
	for (int i = 0; i <= PM_OUT_DEPTH; i++)
		pm_out_obj_begin(&o, i ? "d" : NULL);
	r = pm_out_commit(&o);
	is_int(r, -E2BIG, "--output of a broken document: commit fails");
	text = read_file(target);
	is_str(text, "old\n", "--output of a broken document: target kept");
	free(text);
	dir_entries(list, sizeof(list));
	is_str(list, "out.json",
	       "--output of a broken document: no "
	       "temporary file left");
	unlink(target);

	/* A folder that is not there. */
	char missing[300];

	tmp_path(missing, sizeof(missing), "no/such/out.json");
	r = pm_out_open(&o, PM_FMT_JSON, missing);
	is_int(r, -ENOENT, "--output in a missing folder: -ENOENT");
	ok(o.tmp_path == NULL && o.final_path == NULL,
	   "--output in a missing folder: nothing kept");

	/* A relative name: the temporary file is in the current folder. */
	char cwd[PM_PATH_MAX];

	if (getcwd(cwd, sizeof(cwd)) && chdir(tmpdir) == 0) {
		r = pm_out_open(&o, PM_FMT_KV, "rel.kv");
		is_int(r, 0, "--output rel.kv: pm_out_open");
		ok(o.tmp_path && !strncmp(o.tmp_path, ".rel.kv.", 8),
		   "--output rel.kv: temporary name %s",
		   o.tmp_path ? o.tmp_path : "NULL");
		pm_out_u64(&o, "x", 1);
		is_int(pm_out_commit(&o), 0, "--output rel.kv: commit");
		text = read_file("rel.kv");
		is_str(text, "x='1'\n", "--output rel.kv: content");
		free(text);
		unlink("rel.kv");
		if (chdir(cwd) != 0)
			perror("chdir");
	}

	/* "-" and NULL are stdout. */
	r = pm_out_open(&o, PM_FMT_JSON, "-");
	ok(r == 0 && o.f == stdout && !o.tmp_path, "--output -: stdout");
	pm_out_abort(&o);
	r = pm_out_open(&o, PM_FMT_JSON, NULL);
	ok(r == 0 && o.f == stdout && !o.tmp_path, "no --output: stdout");
	ok(!o.color, "json on stdout has no colour");
	pm_out_abort(&o);
}

static int rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

int main(void)
{
	/* jq closing its end early must not kill the test. */
	signal(SIGPIPE, SIG_IGN);
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 99;
	}
	have_jq = system("command -v jq >/dev/null 2>&1") == 0;
	if (!have_jq)
		diag("jq is not installed: JSON validity checks skipped");
	test_fmt_names();
	test_html_escape();
	test_json_escape();
	test_printf_escape();
	test_numbers();
	test_prom_once();
	test_json_docs();
	test_kv();
	test_kv_eval();
	test_csv();
	test_prom();
	test_atomic();
	rm_rf(tmpdir);
	return done_testing();
}
