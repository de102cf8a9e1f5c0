// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the configuration reader: sections, key = value lines,
 * comments, quoting, line numbers, every error with its line, the
 * size limits of pm_conf_load, and, as root, its refusal of files that
 * others could write.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char tmpdir[] = "/tmp/pmtools-test-conf.XXXXXX";

/*
 * Parse len bytes of s from a buffer of exactly len bytes, as a caller
 * that read a file into a malloc'ed buffer would hand it over.
 */
static int parse_buf(const char *s, size_t len, struct pm_conf *c)
{
	char *text = malloc(len ? len : 1);

	if (!text)
		exit(99);
	memcpy(text, s, len);
	return pm_conf_parse("test.conf", text, len, c);
}

/* The parsed lines as "LINE[SECTION]KEY=VALUE;" each. */
static void dump(const struct pm_conf *c, char *out, size_t size)
{
	size_t l = 0;

	out[0] = '\0';
	for (int i = 0; i < c->n && l < size; i++)
		l += (size_t)snprintf(out + l, size - l, "%u[%s]%s=%s;",
				      c->lines[i].lineno, c->lines[i].section,
				      c->lines[i].key, c->lines[i].value);
}

struct conf_case {
	const char *what;
	const char *text;
	size_t len; /* 0: strlen(text) */
	int ret;
	const char *want; /* dump, or for an error a piece of errmsg */
	unsigned errline;
};

static const struct conf_case cases[] = {
	{ "empty file", "", 0, 0, "", 0 },
	{ "only a newline", "\n", 0, 0, "", 0 },
	{ "no newline at the end", "a=b", 0, 0, "1[]a=b;", 0 },
	{ "key = value", "key = value\n", 0, 0, "1[]key=value;", 0 },
	{ "KEY=value", "KEY=value\n", 0, 0, "1[]KEY=value;", 0 },
	{ "spaces and tabs around", "  key\t=\t value with spaces  \n", 0, 0,
	  "1[]key=value with spaces;", 0 },
	{ "empty value", "k=\nl = \n", 0, 0, "1[]k=;2[]l=;", 0 },
	{ "'=' in the value", "k=a=b\n", 0, 0, "1[]k=a=b;", 0 },
	{ "'#' inside a value is kept", "k = v # not a comment\n", 0, 0,
	  "1[]k=v # not a comment;", 0 },
	{ "comments and blank lines",
	  "# comment\n; other\n\n   \n\t# indented\n  ;x=y\nkey=v\n", 0, 0,
	  "7[]key=v;", 0 },
	{ "line numbers kept", "\n\n\nk=v\n\n# x\nl=w", 0, 0, "4[]k=v;7[]l=w;",
	  0 },
	{ "sections",
	  "top=1\n[cpufreq]\ngovernor = powersave\n\n"
	  "[cpuidle]\ngovernor=menu\n",
	  0, 0,
	  "1[]top=1;3[cpufreq]governor=powersave;6[cpuidle]governor=menu;", 0 },
	{ "section with arguments", "[policy 0-3]\nmax=2GHz\n", 0, 0,
	  "2[policy 0-3]max=2GHz;", 0 },
	{ "section name trimmed", "  [ spaced ]  \nk=v\n", 0, 0,
	  "2[spaced]k=v;", 0 },
	{ "a section with no keys", "[a]\n[b]\nk=v\n", 0, 0, "3[b]k=v;", 0 },
	{ "CRLF lines",
	  "[a]\r\nk = v\r\n# c\r\n\r\n;d\r\nx=\"q\"\r\nlast=1\r\n", 0, 0,
	  "2[a]k=v;6[a]x=q;7[a]last=1;", 0 },
	{ "CRLF without a final newline", "k=v\r\nl=w\r", 0, 0,
	  "1[]k=v;2[]l=w;", 0 },
	{ "double quotes removed", "a=\"hello world\"\n", 0, 0,
	  "1[]a=hello world;", 0 },
	{ "single quotes removed", "b='single'\n", 0, 0, "1[]b=single;", 0 },
	{ "quoted spaces kept", "g=  \"  padded  \"  \n", 0, 0,
	  "1[]g=  padded  ;", 0 },
	{ "empty quotes", "e=\"\"\nf=''\n", 0, 0, "1[]e=;2[]f=;", 0 },
	{ "mismatched quotes kept", "c=\"mismatch'\n", 0, 0,
	  "1[]c=\"mismatch';", 0 },
	{ "a lone quote kept", "d=\"\n", 0, 0, "1[]d=\";", 0 },
	{ "an opening quote only", "d=\"abc\n", 0, 0, "1[]d=\"abc;", 0 },
	{ "inner quotes kept", "f=\"in\"side\"\n", 0, 0, "1[]f=in\"side;", 0 },
	{ "a key with a space", "a b = c\n", 0, 0, "1[]a b=c;", 0 },
	{ "UTF-8 value", "name=\xc3\xa9t\xc3\xa9\n", 0, 0,
	  "1[]name=\xc3\xa9t\xc3\xa9;", 0 },
	{ "tab in a value", "k=a\tb\n", 0, 0, "1[]k=a\tb;", 0 },

	{ "a line without '='", "key value\n", 0, -EINVAL,
	  "expected 'key = value' or a [section]", 1 },
	{ "a bad line after good ones", "a=b\n\n# c\nnovalue\nc=d\n", 0,
	  -EINVAL, "expected 'key = value'", 4 },
	{ "empty key", "=value\n", 0, -EINVAL, "key is missing", 1 },
	{ "blank key", "  \t= value\n", 0, -EINVAL, "key is missing", 1 },
	{ "unterminated section", "[cpufreq\nk=v\n", 0, -EINVAL,
	  "must end with ']'", 1 },
	{ "junk after a section", "k=v\n[cpufreq] x\n", 0, -EINVAL,
	  "must end with ']'", 2 },
	{ "empty section", "[]\n", 0, -EINVAL, "empty section", 1 },
	{ "blank section", "a=1\n[  ]\n", 0, -EINVAL, "empty section", 2 },
	{ "NUL byte", "a=b\n\0c=d\n", 9, -EINVAL, "NUL byte", 0 },
	{ "control byte 0x01", "a=b\nk=v\x01w\n", 0, -EINVAL,
	  "control character 0x01", 2 },
	{ "escape byte", "k=\x1b[31mred\n", 0, -EINVAL,
	  "control character 0x1b", 1 },
	{ "CR inside a line", "k=a\rb\n", 0, -EINVAL, "control character 0x0d",
	  1 },
	{ "control byte in a comment", "# a\x02\n", 0, -EINVAL,
	  "control character 0x02", 1 },
	{ "vertical tab", "k=\v\n", 0, -EINVAL, "control character 0x0b", 1 },
};

static void test_parse(void)
{
	char out[1024];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct conf_case *t = &cases[i];
		size_t len = t->len ? t->len : strlen(t->text);
		struct pm_conf c;
		int r = parse_buf(t->text, len, &c);

		is_int(r, t->ret, "pm_conf_parse %s: returns %d", t->what,
		       t->ret);
		if (t->ret) {
			is_int(c.errline, t->errline,
			       "pm_conf_parse %s: errline", t->what);
			ok(strstr(c.errmsg, t->want) != NULL,
			   "pm_conf_parse %s: errmsg has \"%s\" (%s)", t->what,
			   t->want, c.errmsg);
		} else {
			dump(&c, out, sizeof(out));
			is_str(out, t->want, "pm_conf_parse %s: lines",
			       t->what);
			is_int(c.errline, 0, "pm_conf_parse %s: no errline",
			       t->what);
			is_str(c.errmsg, "", "pm_conf_parse %s: no errmsg",
			       t->what);
		}
		is_str(c.path, "test.conf", "pm_conf_parse %s: path kept",
		       t->what);
		pm_conf_free(&c);
	}
}

static void test_limits(void)
{
	size_t max = PM_CONF_LINE_MAX;
	char *text = malloc(max + 16), out[64];
	struct pm_conf c;
	int r;

	/* Exactly PM_CONF_LINE_MAX bytes before the newline: allowed. */
	memset(text, 'x', max + 16);
	memcpy(text, "k=", 2);
	text[max] = '\n';
	memcpy(text + max + 1, "l=1\n", 4);
	r = parse_buf(text, max + 5, &c);
	is_int(r, 0, "a line of PM_CONF_LINE_MAX bytes is allowed");
	is_int(c.n, 2, "a line of PM_CONF_LINE_MAX bytes: both lines");
	if (c.n == 2) {
		is_int((long long)strlen(c.lines[0].value), (long long)max - 2,
		       "a line of PM_CONF_LINE_MAX bytes: the whole value");
		is_int(c.lines[1].lineno, 2, "the next line is line 2");
	}
	pm_conf_free(&c);

	/* One more byte: refused, on its line. */
	memcpy(text, "a=1\n# c\nk=", 10);
	memset(text + 10, 'x', max - 1);
	r = parse_buf(text, 10 + max - 1, &c);
	is_int(r, -EINVAL, "a line of PM_CONF_LINE_MAX + 1 bytes is refused");
	is_int(c.errline, 3, "a line too long: its line number");
	snprintf(out, sizeof(out), "longer than %d", PM_CONF_LINE_MAX);
	ok(strstr(c.errmsg, out) != NULL, "a line too long: errmsg (%s)",
	   c.errmsg);
	pm_conf_free(&c);
	free(text);

	/* Many lines: the table grows. */
	char *big = malloc(64 * 1000), *p = big;

	for (int i = 0; i < 1000; i++)
		p += sprintf(p, "%skey%d = value %d\n", i % 10 ? "" : "\n", i,
			     i);
	r = parse_buf(big, (size_t)(p - big), &c);
	is_int(r, 0, "1000 lines parse");
	is_int(c.n, 1000, "1000 lines: 1000 entries");
	if (c.n == 1000) {
		is_str(c.lines[999].key, "key999", "1000 lines: the last key");
		is_str(c.lines[999].value, "value 999",
		       "1000 lines: the last value");
		is_int(c.lines[999].lineno, 1100,
		       "1000 lines: the last line number");
	}
	pm_conf_free(&c);
	free(big);

	/* Freeing twice, or a conf never filled, is harmless. */
	memset(&c, 0, sizeof(c));
	pm_conf_free(&c);
	pm_conf_free(&c);
	ok(c.n == 0 && !c.lines && !c.text && !c.path,
	   "pm_conf_free of an empty conf");
}

static void write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		perror(path);
		exit(99);
	}
	close(fd);
}

/* A file of n bytes of comment lines (each well under the line limit). */
static void write_sized(const char *path, size_t n)
{
	char *buf = malloc(n);

	for (size_t i = 0; i < n; i++)
		buf[i] = i % 100 == 99 ? '\n' : i % 100 == 0 ? '#' : 'x';
	buf[n - 1] = '\n';
	write_file(path, buf, n);
	free(buf);
}

static void test_load(void)
{
	char path[PM_PATH_MAX], root[256];
	struct pm_conf c;
	struct pm_ctx ctx;
	int r;

	snprintf(path, sizeof(path), "%s/missing.conf", tmpdir);
	r = pm_conf_load(NULL, path, &c);
	is_int(r, -ENOENT, "pm_conf_load of a missing file: -ENOENT");
	is_int(c.errline, 0, "pm_conf_load of a missing file: errline 0");
	is_str(c.errmsg, strerror(ENOENT),
	       "pm_conf_load of a missing file: errmsg");
	is_str(c.path, path, "pm_conf_load of a missing file: path");
	pm_conf_free(&c);

	snprintf(path, sizeof(path), "%s/good.conf", tmpdir);
	write_file(path, "# pm\n[sleep]\nmode = deep\n", 25);
	r = pm_conf_load(NULL, path, &c);
	is_int(r, 0, "pm_conf_load of a file");
	is_int(c.n, 1, "pm_conf_load: one line");
	if (c.n == 1) {
		is_str(c.lines[0].section, "sleep", "pm_conf_load: section");
		is_str(c.lines[0].key, "mode", "pm_conf_load: key");
		is_str(c.lines[0].value, "deep", "pm_conf_load: value");
		is_int(c.lines[0].lineno, 3, "pm_conf_load: line number");
	}
	is_str(c.path, path, "pm_conf_load: path");
	pm_conf_free(&c);

	snprintf(path, sizeof(path), "%s/bad.conf", tmpdir);
	write_file(path, "[sleep]\nmode deep\n", 18);
	r = pm_conf_load(NULL, path, &c);
	is_int(r, -EINVAL, "pm_conf_load of a bad file: -EINVAL");
	is_int(c.errline, 2, "pm_conf_load of a bad file: errline");
	pm_conf_free(&c);

	r = pm_conf_load(NULL, tmpdir, &c);
	is_int(r, -EISDIR, "pm_conf_load of a folder: -EISDIR");
	pm_conf_free(&c);

	/* The size limit, on both sides. */
	snprintf(path, sizeof(path), "%s/max.conf", tmpdir);
	write_sized(path, PM_CONF_MAX);
	r = pm_conf_load(NULL, path, &c);
	is_int(r, 0, "pm_conf_load of exactly PM_CONF_MAX bytes");
	pm_conf_free(&c);
	snprintf(path, sizeof(path), "%s/big.conf", tmpdir);
	write_sized(path, PM_CONF_MAX + 1);
	r = pm_conf_load(NULL, path, &c);
	is_int(r, -EFBIG, "pm_conf_load of PM_CONF_MAX + 1 bytes: -EFBIG");
	is_int(c.errline, 0, "pm_conf_load of a big file: errline 0");
	ok(strstr(c.errmsg, "larger than") != NULL,
	   "pm_conf_load of a big file: errmsg (%s)", c.errmsg);
	is_str(c.path, path, "pm_conf_load of a big file: path");
	pm_conf_free(&c);
	snprintf(path, sizeof(path), "%s/huge.conf", tmpdir);
	write_sized(path, 3 * PM_CONF_MAX);
	r = pm_conf_load(NULL, path, &c);
	is_int(r, -EFBIG, "pm_conf_load of 3 MiB: -EFBIG");
	pm_conf_free(&c);

	/* An endless file is refused without reading any of it: only a
	 * regular file is configuration.  /dev/zero is writable by others,
	 * which root refuses first: root tries a zero device of its own. */
	snprintf(path, sizeof(path), "%s/zero", tmpdir);
	if (geteuid() != 0) {
		r = pm_conf_load(NULL, "/dev/zero", &c);
		is_int(r, -EINVAL, "pm_conf_load of /dev/zero: -EINVAL");
		pm_conf_free(&c);
	} else if (mknod(path, S_IFCHR | 0644, makedev(1, 5)) == 0) {
		r = pm_conf_load(NULL, path, &c);
		is_int(r, -EINVAL, "pm_conf_load of a zero device: -EINVAL");
		ok(strstr(c.errmsg, "a character device, not a regular file"),
		   "pm_conf_load of a zero device: errmsg (%s)", c.errmsg);
		pm_conf_free(&c);
	} else {
		skip("no mknod here", "pm_conf_load of a zero device: -EINVAL");
	}

	/* Under a system root, /etc/pm/... is the root's. */
	snprintf(root, sizeof(root), "%s/root", tmpdir);
	mkdir(root, 0755);
	snprintf(path, sizeof(path), "%s/etc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/etc/pm", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/etc/pm/pm.conf", root);
	write_file(path, "SLEEP_MODULE=kernel\n", 20);
	if (pm_ctx_open(&ctx, root) < 0) {
		ok(false, "pm_ctx_open(%s)", root);
		return;
	}
	r = pm_conf_load(&ctx, "/etc/pm/pm.conf", &c);
	is_int(r, 0, "pm_conf_load under a root");
	if (c.n == 1) {
		is_str(c.lines[0].key, "SLEEP_MODULE",
		       "pm_conf_load under a root: key");
		is_str(c.lines[0].value, "kernel",
		       "pm_conf_load under a root: value");
	} else {
		ok(false, "pm_conf_load under a root: one line (got %d)", c.n);
	}
	is_str(c.path, "/etc/pm/pm.conf",
	       "pm_conf_load under a root: the path as given");
	pm_conf_free(&c);
	r = pm_conf_load(&ctx, "etc/pm/pm.conf", &c);
	is_int(r, 0, "pm_conf_load under a root, relative path");
	pm_conf_free(&c);
	r = pm_conf_load(&ctx, "/etc/pm/missing.conf", &c);
	is_int(r, -ENOENT, "pm_conf_load under a root: missing file");
	is_str(c.errmsg, strerror(ENOENT),
	       "pm_conf_load under a root: missing file errmsg");
	pm_conf_free(&c);
	pm_ctx_close(&ctx);
}

/* pm_conf_load of path: -EPERM naming want in errmsg, or 0 (want NULL). */
static void owner_case(const char *path, const char *want, const char *what)
{
	struct pm_conf c;
	int r = pm_conf_load(NULL, path, &c);

	if (!want) {
		is_int(r, 0, "as root, %s is read", what);
	} else {
		is_int(r, -EPERM, "as root, %s is refused: -EPERM", what);
		ok(strstr(c.errmsg, want) != NULL, "as root, %s: errmsg (%s)",
		   what, c.errmsg);
		is_int(c.errline, 0, "as root, %s: errline 0", what);
		is_str(c.path, path, "as root, %s: path", what);
	}
	pm_conf_free(&c);
}

/* As root: a file or folder others could write is refused (-EPERM). */
static void test_owner(void)
{
	char dir[PM_PATH_MAX], path[PM_PATH_MAX + 16];
	static const char text[] = "[sleep]\nmode = deep\n";

	if (geteuid() != 0) {
		skip("not root", "as root, unsafe configuration is refused");
		return;
	}
	snprintf(dir, sizeof(dir), "%s/owner", tmpdir);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/a.conf", dir);
	write_file(path, text, sizeof(text) - 1);
	chmod(path, 0644);
	owner_case(path, NULL, "a root file of mode 0644");
	chmod(path, 0600);
	owner_case(path, NULL, "a root file of mode 0600 (mktemp)");
	chmod(path, 0664);
	owner_case(path, "it is not owned by root or is writable by group or "
			 "others (mode 0664, uid 0)",
		   "a group-writable file");
	chmod(path, 0646);
	owner_case(path, "(mode 0646, uid 0)", "a file others may write");
	chmod(path, 0644);
	if (chown(path, 65534, 0) == 0)
		owner_case(path, "(mode 0644, uid 65534)",
			   "a file owned by nobody");
	else
		skip("chown failed", "as root, a file owned by nobody");
	if (chown(path, 0, 0) < 0)
		perror(path);
	chmod(dir, 0777);
	owner_case(path, "its folder is not owned by root or is writable by "
			 "group or others without the sticky bit (mode 0777, "
			 "uid 0)",
		   "a file in a folder others may write");
	chmod(dir, 01777);
	owner_case(path, NULL, "a file in a sticky folder (/tmp)");
	chmod(dir, 0775);
	owner_case(path, "(mode 0775, uid 0)", "a file in a group's folder");
	chmod(dir, 0755);
	if (chown(dir, 65534, 0) == 0)
		owner_case(path, "its folder is not owned by root",
			   "a file in nobody's folder");
	else
		skip("chown failed", "as root, a file in nobody's folder");
	if (chown(dir, 0, 0) < 0)
		perror(dir);
}

static int rm_rf(const char *dir)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 99;
	}
	test_parse();
	test_limits();
	test_load();
	test_owner();
	rm_rf(tmpdir);
	return done_testing();
}
