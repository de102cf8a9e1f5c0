// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "conf": pm_conf_parse, the reader of opp.d points and
 * pm-suspend.conf.  It takes the buffer over (freed by pm_conf_free), so
 * the input is handed over as a malloc'ed copy of exactly its length,
 * without a NUL: the parser must not read or write past it.
 *
 * Checked on success: every line points into the conf's own text, keys
 * are non-empty, trimmed and without '=', no field holds a control
 * character, sections are non-empty after the first header, and line
 * numbers increase and stay within the file.  On failure the message is
 * a NUL-terminated string and the line is in the file.
 */
#include <errno.h>

#include "fuzz.h"

static bool inside(const struct pm_conf *c, size_t len, const char *p)
{
	return p >= c->text && p <= c->text + len;
}

static bool trimmed(const char *s)
{
	size_t n = strlen(s);

	return !n || (s[0] != ' ' && s[0] != '\t' && s[n - 1] != ' ' &&
		      s[n - 1] != '\t' && s[n - 1] != '\r');
}

static bool no_ctl(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t')
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_conf c;
	unsigned lines = 1, last = 0;
	int r;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	r = pm_conf_parse("fuzz.conf", fz_mem(data, size), size, &c);
	CHECK(r == 0 || r == -EINVAL || r == -ENOMEM);
	CHECK(fz_terminated(c.errmsg, sizeof(c.errmsg)));
	if (r < 0) {
		CHECK(c.errmsg[0]);
		CHECK(c.errline <= lines);
	} else {
		CHECK(c.path && !strcmp(c.path, "fuzz.conf"));
		CHECK(c.n >= 0);
		CHECK(c.n == 0 || c.lines);
		for (int i = 0; i < c.n; i++) {
			const struct pm_conf_line *l = &c.lines[i];

			CHECK(l->lineno > last && l->lineno <= lines);
			last = l->lineno;
			CHECK(l->key && l->value && l->section);
			CHECK(inside(&c, size, l->key));
			CHECK(inside(&c, size, l->value));
			CHECK(!*l->section || inside(&c, size, l->section));
			CHECK(l->key[0]);
			CHECK(!strchr(l->key, '='));
			CHECK(trimmed(l->key));
			CHECK(trimmed(l->section));
			CHECK(no_ctl(l->key) && no_ctl(l->value) &&
			      no_ctl(l->section));
			CHECK(l->key[0] != '#' && l->key[0] != ';' &&
			      l->key[0] != '[');
			CHECK(i == 0 || !c.lines[i - 1].section[0] ||
			      l->section[0]);
		}
	}
	pm_conf_free(&c);
	return 0;
}
