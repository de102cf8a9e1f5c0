// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pm-suspend.conf (KEY=value lines, parsed, never sourced) and the
 * settings pm-utils' shell configuration in /etc/pm/config.d may give
 * us: HOOK_BLACKLIST, and SUSPEND_MODULES and TEMPORARY_CPUFREQ_GOVERNOR
 * for the hooks.  Everything else there is named once as ignored.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ps.h"

static const char *const keys[] = {
	"HOOK_TIMEOUT",	       "HIBERNATE_MODE", "HIBERNATE_DELAY",
	"SYSTEMD_SLEEP_HOOKS", "RTC",		 "HOOK_BLACKLIST",
	"SUSPEND_MODULES",     "TEMPORARY_CPUFREQ_GOVERNOR",
	"HIBERNATE_METHOD",
};

/* A module name as modprobe takes it. */
static bool module_ok(const char *w)
{
	size_t n = strlen(w);

	return n && n < 64 &&
	       strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789_-") == n;
}

/* The first word of words that is not a module name, or NULL. */
static const char *bad_module(const char *words, char *buf, size_t size)
{
	char tmp[1024], *save = NULL;

	snprintf(tmp, sizeof(tmp), "%s", words);
	for (char *w = strtok_r(tmp, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save))
		if (strcmp(w, "$SUSPEND_MODULES") &&
		    strcmp(w, "${SUSPEND_MODULES}") && !module_ok(w)) {
			snprintf(buf, size, "%s", w);
			return buf;
		}
	return NULL;
}

static void add_words(char *list, size_t size, const char *words)
{
	char buf[4096], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", words);
	for (char *w = strtok_r(buf, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		size_t n = strlen(list);

		/* "$HOOK_BLACKLIST foo": the variable is what we have. */
		if (!strcmp(w, "$HOOK_BLACKLIST") ||
		    !strcmp(w, "${HOOK_BLACKLIST}") ||
		    !strcmp(w, "$SUSPEND_MODULES") ||
		    !strcmp(w, "${SUSPEND_MODULES}") || pm_word_in(list, w))
			continue;
		snprintf(list + n, size - n, "%s%s", n ? " " : "", w);
	}
}

static void __attribute__((noreturn))
bad(struct ps *p, const struct pm_conf *c, unsigned line, const char *fmt,
    const char *a)
{
	char msg[512];

	snprintf(msg, sizeof(msg), fmt, a);
	pm_die(&p->t, PM_EXIT_USAGE, "%s:%u: %s", c->path, line, msg);
}

/* HOOK_TIMEOUT and HIBERNATE_DELAY: an option given wins. */
static void conf_duration(struct ps *p, const struct pm_conf *c,
			  const struct pm_conf_line *l, bool explicit_timeout,
			  bool explicit_delay)
{
	bool delay = !strcmp(l->key, "HIBERNATE_DELAY");
	uint64_t us;

	if (pm_parse_duration_us(l->value, &us) < 0 || us == 0)
		bad(p, c, l->lineno,
		    "%s: not a duration above 0 (30, 500ms, 2min, 1h)", l->key);
	if (delay && us < 1000000)
		bad(p, c, l->lineno, "%s: at least 1 s (the RTC counts seconds)",
		    l->key);
	if (!delay && !explicit_timeout)
		p->hook_timeout_s = (double)us / 1e6;
	else if (delay && !explicit_delay)
		p->hibernate_delay_s = (double)us / 1e6;
}

/* The keys of a word or a list: each checked, then kept. */
static void conf_word(struct ps *p, const struct pm_conf *c,
		      const struct pm_conf_line *l)
{
	const char *v = l->value;
	char w[80];
	bool b;

	if (!strcmp(l->key, "HIBERNATE_MODE")) {
		if (strcmp(v, "platform") && strcmp(v, "shutdown") &&
		    strcmp(v, "reboot"))
			bad(p, c, l->lineno,
			    "HIBERNATE_MODE '%s': choose platform, shutdown or "
			    "reboot",
			    v);
		snprintf(p->hib_mode, sizeof(p->hib_mode), "%s", v);
	} else if (!strcmp(l->key, "HIBERNATE_METHOD")) {
		if (strcmp(v, "kernel") && strcmp(v, "userspace"))
			bad(p, c, l->lineno,
			    "HIBERNATE_METHOD '%s': choose kernel or userspace",
			    v);
		/* --userspace on the command line wins over kernel. */
		p->userspace = p->userspace || !strcmp(v, "userspace");
	} else if (!strcmp(l->key, "SYSTEMD_SLEEP_HOOKS")) {
		if (pm_parse_bool(v, &b) < 0)
			bad(p, c, l->lineno, "SYSTEMD_SLEEP_HOOKS '%s': yes or no",
			    v);
		p->systemd_hooks = b;
	} else if (!strcmp(l->key, "RTC")) {
		if (!pm_fset_name_ok(v, 31))
			bad(p, c, l->lineno, "RTC '%s': an RTC name such as rtc0",
			    v);
		snprintf(p->conf_rtc, sizeof(p->conf_rtc), "%s", v);
	} else if (!strcmp(l->key, "SUSPEND_MODULES")) {
		if (bad_module(v, w, sizeof(w)))
			bad(p, c, l->lineno,
			    "SUSPEND_MODULES: '%s' is not a module name", w);
		add_words(p->suspend_modules, sizeof(p->suspend_modules), v);
	} else if (!strcmp(l->key, "TEMPORARY_CPUFREQ_GOVERNOR")) {
		if (!pm_fset_name_ok(v, sizeof(p->cpufreq_gov) - 1))
			bad(p, c, l->lineno,
			    "TEMPORARY_CPUFREQ_GOVERNOR '%s': a governor name "
			    "such as performance",
			    v);
		snprintf(p->cpufreq_gov, sizeof(p->cpufreq_gov), "%s", v);
	} else {
		add_words(p->blacklist, sizeof(p->blacklist), v);
	}
}

static void conf_file(struct ps *p, bool explicit_timeout,
		      bool explicit_delay)
{
	const char *path = p->config ? p->config : PS_CONF;
	struct pm_conf c;
	int r = pm_conf_load(p->config ? NULL : &p->ctx, path, &c);

	if (r == -ENOENT && !p->config) {
		pm_conf_free(&c);
		pm_err_clear(&p->ctx);
		return;
	}
	if (r < 0) {
		if (c.errline)
			pm_die(&p->t, PM_EXIT_USAGE, "%s:%u: %s", path,
			       c.errline, c.errmsg);
		pm_die(&p->t, PM_EXIT_USAGE, "%s: %s", path, c.errmsg);
	}
	for (int i = 0; i < c.n; i++) {
		const struct pm_conf_line *l = &c.lines[i];
		size_t k;

		/* Not the line's text: --config may name a file of secrets. */
		if (l->section[0])
			bad(p, &c, l->lineno,
			    "a [section] header: pm-suspend.conf has "
			    "KEY=value lines only%s", "");
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strcmp(l->key, keys[k]))
				break;
		if (k == sizeof(keys) / sizeof(keys[0]))
			bad(p, &c, l->lineno,
			    "unknown key (known: HOOK_TIMEOUT, "
			    "HIBERNATE_MODE, HIBERNATE_DELAY, "
			    "SYSTEMD_SLEEP_HOOKS, RTC, HOOK_BLACKLIST, "
			    "SUSPEND_MODULES, TEMPORARY_CPUFREQ_GOVERNOR, "
			    "HIBERNATE_METHOD)%s",
			    "");
		if (!strcmp(l->key, "HOOK_TIMEOUT") ||
		    !strcmp(l->key, "HIBERNATE_DELAY"))
			conf_duration(p, &c, l, explicit_timeout,
				      explicit_delay);
		else
			conf_word(p, &c, l);
	}
	pm_conf_free(&c);
}

/* One config.d file: shell, read as text for the three keys we use. */
static void config_d_file(struct ps *p, const char *path, char *ignored,
			  size_t size)
{
	char *text = NULL, *save = NULL;
	struct pm_conf c;
	ssize_t r = pm_conf_read(&p->ctx, path, &text, &c);

	/* Root's hooks depend on it: one that others could write is
	 * refused as pm-suspend.conf is; one that cannot be read is not
	 * configuration (a folder, a dangling link). */
	if (r == -EPERM)
		pm_die(&p->t, PM_EXIT_USAGE, "%s: %s", path, c.errmsg);
	if (r < 0)
		return;
	for (char *l = strtok_r(text, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		char key[64], *eq, *v;
		size_t n;

		l += strspn(l, " \t");
		if (!*l || *l == '#')
			continue;
		if (!strncmp(l, "export ", 7))
			l += 7 + strspn(l + 7, " \t");
		n = strspn(l, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvw"
			      "xyz0123456789_");
		eq = l + n;
		if (*eq == '+')
			eq++;
		if (!n || n >= sizeof(key) || *eq != '=') {
			add_words(ignored, size, "(shell-code)");
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)n, l);
		if (strcmp(key, "HOOK_BLACKLIST") &&
		    strcmp(key, "SUSPEND_MODULES") &&
		    strcmp(key, "TEMPORARY_CPUFREQ_GOVERNOR")) {
			add_words(ignored, size, key);
			continue;
		}
		v = eq + 1;
		n = strlen(v);
		while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
			v[--n] = '\0';
		if (n >= 2 && (v[0] == '"' || v[0] == '\'') &&
		    v[n - 1] == v[0]) {
			v[n - 1] = '\0';
			v++;
		}
		/* As pm-utils: the lists of every file add up, the
		 * governor of the last file wins.  A value that is not
		 * plain words is shell code: ignored. */
		if (!strcmp(key, "HOOK_BLACKLIST")) {
			add_words(p->blacklist, sizeof(p->blacklist), v);
		} else if (!strcmp(key, "SUSPEND_MODULES")) {
			char w[80];

			if (bad_module(v, w, sizeof(w)))
				add_words(ignored, size, key);
			else
				add_words(p->suspend_modules,
					  sizeof(p->suspend_modules), v);
		} else if (pm_fset_name_ok(v, sizeof(p->cpufreq_gov) - 1)) {
			snprintf(p->cpufreq_gov, sizeof(p->cpufreq_gov), "%s",
				 v);
		} else {
			add_words(ignored, size, key);
		}
	}
	free(text);
}

void ps_config(struct ps *p, bool explicit_timeout, bool explicit_delay)
{
	char **names, ignored[1024] = "", gov[sizeof(p->cpufreq_gov)];
	int n;

	conf_file(p, explicit_timeout, explicit_delay);
	n = pm_list_dir(&p->ctx, PS_CONFIG_D, &names);
	if (n < 0) {
		pm_err_clear(&p->ctx);
		return;
	}
	/* pm-suspend.conf's governor wins over pm-utils' files. */
	snprintf(gov, sizeof(gov), "%s", p->cpufreq_gov);
	for (int i = 0; i < n; i++) {
		char path[PM_PATH_MAX];

		if (names[i][0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", PS_CONFIG_D, names[i]);
		config_d_file(p, path, ignored, sizeof(ignored));
	}
	pm_list_free(names, n);
	if (gov[0])
		snprintf(p->cpufreq_gov, sizeof(p->cpufreq_gov), "%s", gov);
	if (ignored[0])
		pm_note(&p->t,
			"%s is shell configuration for pm-utils, never "
			"sourced here: only HOOK_BLACKLIST, SUSPEND_MODULES "
			"and TEMPORARY_CPUFREQ_GOVERNOR are used; ignored: "
			"%s",
			PS_CONFIG_D, ignored);
}
