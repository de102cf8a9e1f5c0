// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Operating point files: /etc/pm/opp.d/NAME.conf, the installed
 * examples, -f FILE and -s settings.  Every section, key and value is
 * checked here, with its file and line, before the machine is looked at.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "opp.h"

#define MAX_DEPTH 8
/* Point files one load may read through includes, each include counted
 * (a file included twice is read once and counted twice): a fan-out of
 * a few files each including the next many times stops here. */
#define MAX_INCLUDED 64

const char *opp_where(const struct opp_setting *s, char *buf, size_t size)
{
	if (s->line)
		snprintf(buf, size, "%s:%u: ", s->file, s->line);
	else if (s->file && !strncmp(s->file, "--", 2))
		snprintf(buf, size, "%s: ", s->file);	/* --auto-tune's */
	else
		snprintf(buf, size, "-s %s: ", s->file ? s->file : "");
	return buf;
}

/* ---------------------------------------------------------------- values */

/* NULL when the value is good, else what is wrong with it. */
typedef const char *(*check_fn)(const char *v, char *buf, size_t size);

static bool word_ok(const char *s, size_t max)
{
	return pm_fset_name_ok(s, max);
}

static const char *v_any(const char *v, char *buf, size_t size)
{
	(void)buf, (void)size;
	return *v ? NULL : "an empty value";
}

static const char *v_text(const char *v, char *buf, size_t size)
{
	(void)v, (void)buf, (void)size;
	return NULL;
}

static const char *v_khz(const char *v, char *buf, size_t size)
{
	uint64_t khz;

	if (pm_parse_freq_khz(v, &khz) == 0 && khz)
		return NULL;
	snprintf(buf, size, "invalid frequency '%s' (kHz, or a number with "
			    "Hz, kHz, MHz or GHz)", v);
	return buf;
}

static const char *v_hz(const char *v, char *buf, size_t size)
{
	uint64_t hz;

	if (pm_parse_freq_hz(v, &hz) == 0 && hz)
		return NULL;
	snprintf(buf, size, "invalid frequency '%s' (kHz, or a number with "
			    "Hz, kHz, MHz or GHz)", v);
	return buf;
}

static const char *v_governors(const char *v, char *buf, size_t size)
{
	char tmp[256], *save = NULL;
	int n = 0;

	snprintf(tmp, sizeof(tmp), "%s", v);
	for (char *g = strtok_r(tmp, "|", &save); g;
	     g = strtok_r(NULL, "|", &save), n++) {
		while (*g == ' ')
			g++;
		for (char *e = g + strlen(g); e > g && e[-1] == ' ';)
			*--e = '\0';
		if (!word_ok(g, PM_GOV_NAME_MAX)) {
			snprintf(buf, size, "invalid governor name '%s'", g);
			return buf;
		}
	}
	if (!n || v[strlen(v) - 1] == '|' || v[0] == '|' || strstr(v, "||")) {
		snprintf(buf, size, "invalid governor list '%s' (NAME or "
				    "NAME|FALLBACK...)", v);
		return buf;
	}
	return NULL;
}

static const char *v_name(const char *v, char *buf, size_t size)
{
	if (word_ok(v, PM_NAME_MAX - 1))
		return NULL;
	snprintf(buf, size, "invalid name '%s'", v);
	return buf;
}

static const char *v_onoff(const char *v, char *buf, size_t size)
{
	bool b;

	if (pm_parse_bool(v, &b) == 0)
		return NULL;
	snprintf(buf, size, "'%s' is not on or off", v);
	return buf;
}

static const char *v_pct(const char *v, char *buf, size_t size)
{
	unsigned p;

	if (pm_parse_pct(v, &p) == 0 && p <= 100)
		return NULL;
	snprintf(buf, size, "'%s' is not a percentage from 0 to 100", v);
	return buf;
}

static const char *v_us(const char *v, char *buf, size_t size)
{
	uint64_t us;

	if (pm_parse_u64(v, &us) == 0 && us <= 2000000000ull)
		return NULL;
	snprintf(buf, size, "'%s' is not a latency in microseconds", v);
	return buf;
}

static const char *v_int(const char *v, char *buf, size_t size)
{
	int64_t x;

	if (pm_parse_s64(v, &x) == 0 && x > -1000000 && x < 1000000)
		return NULL;
	snprintf(buf, size, "'%s' is not a whole number", v);
	return buf;
}

static const char *v_celsius(const char *v, char *buf, size_t size)
{
	char *end;
	double c = strtod(v, &end);

	if (end != v && !*end && c > -100 && c < 300)
		return NULL;
	snprintf(buf, size, "'%s' is not a temperature in degrees Celsius", v);
	return buf;
}

static const char *v_cpus(const char *v, char *buf, size_t size)
{
	struct pm_cpuset s;

	if (!strcmp(v, "all") || pm_cpulist_parse(v, &s) == 0)
		return NULL;
	snprintf(buf, size, "invalid CPU list '%s'", v);
	return buf;
}

static const char *one_of(const char *v, const char *const *ok, char *buf,
			  size_t size)
{
	char all[160] = "";

	for (int i = 0; ok[i]; i++) {
		if (!strcmp(v, ok[i]))
			return NULL;
		snprintf(all + strlen(all), sizeof(all) - strlen(all), "%s%s",
			 i ? ", " : "", ok[i]);
	}
	snprintf(buf, size, "'%s' is not one of %s", v, all);
	return buf;
}

static const char *v_onoff_word(const char *v, char *buf, size_t size)
{
	static const char *const ok[] = { "on", "off", NULL };

	return one_of(v, ok, buf, size);
}

static const char *v_ac(const char *v, char *buf, size_t size)
{
	static const char *const ok[] = { "online", "offline", NULL };

	return one_of(v, ok, buf, size);
}

static const char *v_runtime(const char *v, char *buf, size_t size)
{
	static const char *const ok[] = { "auto", "on", NULL };

	return one_of(v, ok, buf, size);
}

/* A device tunable's value, as pm_tune_value_parse takes it. */
static const char *v_tune(enum pm_tune_kind k, const char *v, char *buf,
			  size_t size)
{
	static const char *const why[PM_TUNE_NKINDS] = {
		[PM_TUNE_USB_AUTOSUSPEND] = "on or off",
		[PM_TUNE_SATA_LINK] = "one of max_performance, medium_power, "
				      "med_power_with_dipm, "
				      "min_power_with_partial, min_power, "
				      "keep_firmware_settings",
		[PM_TUNE_PCIE_ASPM] = "one of default, performance, "
				      "powersave, powersupersave",
		[PM_TUNE_AUDIO_POWER_SAVE] = "seconds from 0 to 3600",
		[PM_TUNE_AUDIO_CONTROLLER] = "Y or N",
		[PM_TUNE_NMI_WATCHDOG] = "0 or 1",
		[PM_TUNE_DIRTY_WRITEBACK] = "centiseconds from 0 to "
					    "2147483647",
		[PM_TUNE_LAPTOP_MODE] = "seconds from 0 to 3600",
		[PM_TUNE_WIFI_PS] = "on or off",
	};
	char out[64];

	if (pm_tune_value_parse(k, v, out, sizeof(out)) == 0)
		return NULL;
	snprintf(buf, size, "'%s' is not %s", v, why[k]);
	return buf;
}

static const char *v_delay(const char *v, char *buf, size_t size)
{
	int64_t x;

	if (pm_parse_s64(v, &x) == 0 && x >= -1 && x <= 86400000)
		return NULL;
	snprintf(buf, size, "'%s' is not milliseconds from -1 to 86400000",
		 v);
	return buf;
}

/* A list of words (classes, interface names) as parse takes it, or why
 * not: the first word that is not one, or no word at all. */
typedef int list_parse_fn(const char *s, char *out, size_t size,
			  const char **bad, size_t *badlen);
static const char *v_list(const char *v, char *buf, size_t size,
			  list_parse_fn *parse, const char *one,
			  const char *many, const char *not_one)
{
	const char *bad;
	size_t n = 0;
	char out[256];

	if (parse(v, out, sizeof(out), &bad, &n) == 0)
		return NULL;
	if (!bad)
		snprintf(buf, size, "names no %s (none for none)", one);
	else if (!strncmp(bad, "none", n) && n == 4)
		snprintf(buf, size, "none with %s", many);
	else
		snprintf(buf, size, "'%.*s' is not %s",
			 (int)(n > 64 ? 64 : n), bad, not_one);
	return buf;
}

static const char *v_usb_classes(const char *v, char *buf, size_t size)
{
	return v_list(v, buf, size, pm_usb_exclude_parse, "class", "classes",
		      "a class (input, audio, comm, printer, storage, hub, "
		      "video, bluetooth, two hex digits or none)");
}

static const char *v_ifnames(const char *v, char *buf, size_t size)
{
	return v_list(v, buf, size, pm_ifname_list_parse, "interface",
		      "interfaces",
		      "an interface name (1 to 15 printable bytes, no '/' "
		      "or ':')");
}

static const char *v_intel_status(const char *v, char *buf, size_t size)
{
	static const char *const ok[] = { "active", "passive", "off", NULL };

	return one_of(v, ok, buf, size);
}

static const char *v_amd_status(const char *v, char *buf, size_t size)
{
	static const char *const ok[] = { "active", "passive", "guided",
					  "disable", NULL };

	return one_of(v, ok, buf, size);
}

static const char *v_epp(const char *v, char *buf, size_t size)
{
	uint64_t x;

	if (v[0] >= '0' && v[0] <= '9') {
		if (pm_parse_u64(v, &x) == 0 && x <= 255)
			return NULL;
		snprintf(buf, size, "a raw EPP is 0 to 255, not '%s'", v);
		return buf;
	}
	if (word_ok(v, PM_NAME_MAX - 1))
		return NULL;
	snprintf(buf, size, "invalid preference '%s'", v);
	return buf;
}

/* Names or indices of idle states, separated by spaces or commas. */
static const char *v_states(const char *v, char *buf, size_t size)
{
	char tmp[256], *save = NULL;

	snprintf(tmp, sizeof(tmp), "%s", v);
	for (char *s = strtok_r(tmp, " ,", &save); s;
	     s = strtok_r(NULL, " ,", &save))
		if (!word_ok(s, PM_NAME_MAX - 1)) {
			snprintf(buf, size, "invalid idle state name '%s'", s);
			return buf;
		}
	return NULL;
}

static const char *v_includes(const char *v, char *buf, size_t size)
{
	char tmp[256], *save = NULL;
	int n = 0;

	snprintf(tmp, sizeof(tmp), "%s", v);
	for (char *s = strtok_r(tmp, ", ", &save); s;
	     s = strtok_r(NULL, ", ", &save), n++)
		if (!pm_opp_name_valid(s)) {
			snprintf(buf, size, "invalid point name '%s' (a name, "
					    "not a path)", s);
			return buf;
		}
	if (n)
		return NULL;
	snprintf(buf, size, "include names no point");
	return buf;
}

struct key {
	const char *section, *key;
	check_fn check;		/* NULL: a device tunable's value */
	enum pm_tune_kind tune;	/* its kind, or PM_TUNE_NKINDS */
};

static const struct key keys[] = {
	{ "opp", "description", v_text, PM_TUNE_NKINDS },
	{ "opp", "include", v_includes, PM_TUNE_NKINDS },
	{ "cpufreq", "governor", v_governors, PM_TUNE_NKINDS },
	{ "cpufreq", "min", v_khz, PM_TUNE_NKINDS },
	{ "cpufreq", "max", v_khz, PM_TUNE_NKINDS },
	{ "cpufreq", "speed", v_khz, PM_TUNE_NKINDS },
	{ "cpufreq", "epp", v_epp, PM_TUNE_NKINDS },
	{ "cpufreq", "boost", v_onoff, PM_TUNE_NKINDS },
	{ "intel_pstate", "min_perf_pct", v_pct, PM_TUNE_NKINDS },
	{ "intel_pstate", "max_perf_pct", v_pct, PM_TUNE_NKINDS },
	{ "intel_pstate", "no_turbo", v_onoff, PM_TUNE_NKINDS },
	{ "intel_pstate", "status", v_intel_status, PM_TUNE_NKINDS },
	{ "amd_pstate", "status", v_amd_status, PM_TUNE_NKINDS },
	{ "cpuidle", "governor", v_name, PM_TUNE_NKINDS },
	{ "cpuidle", "disable", v_states, PM_TUNE_NKINDS },
	{ "cpuidle", "max_latency", v_us, PM_TUNE_NKINDS },
	{ "cpu", "online", v_cpus, PM_TUNE_NKINDS },
	{ "cpu", "smt", v_onoff_word, PM_TUNE_NKINDS },
	{ "devfreq", "governor", v_name, PM_TUNE_NKINDS },
	{ "devfreq", "min", v_hz, PM_TUNE_NKINDS },
	{ "devfreq", "max", v_hz, PM_TUNE_NKINDS },
	{ "platform", "profile", v_name, PM_TUNE_NKINDS },
	{ "supply", "charge_start", v_pct, PM_TUNE_NKINDS },
	{ "supply", "charge_stop", v_pct, PM_TUNE_NKINDS },
	{ "supply", "charge_behaviour", v_name, PM_TUNE_NKINDS },
	{ "usb", "autosuspend", NULL, PM_TUNE_USB_AUTOSUSPEND },
	{ "usb", "autosuspend_delay_ms", v_delay, PM_TUNE_NKINDS },
	{ "usb", "exclude", v_usb_classes, PM_TUNE_NKINDS },
	{ "sata", "link_power", NULL, PM_TUNE_SATA_LINK },
	{ "pcie", "aspm", NULL, PM_TUNE_PCIE_ASPM },
	{ "audio", "power_save", NULL, PM_TUNE_AUDIO_POWER_SAVE },
	{ "audio", "power_save_controller", NULL,
	  PM_TUNE_AUDIO_CONTROLLER },
	{ "sysctl", "kernel.nmi_watchdog", NULL, PM_TUNE_NMI_WATCHDOG },
	{ "sysctl", "vm.dirty_writeback_centisecs", NULL,
	  PM_TUNE_DIRTY_WRITEBACK },
	{ "sysctl", "vm.laptop_mode", NULL, PM_TUNE_LAPTOP_MODE },
	{ "wifi", "power_save", NULL, PM_TUNE_WIFI_PS },
	{ "wifi", "exclude", v_ifnames, PM_TUNE_NKINDS },
	{ "match", "ac", v_ac, PM_TUNE_NKINDS },
	{ "match", "battery_below", v_pct, PM_TUNE_NKINDS },
	{ "match", "battery_above", v_pct, PM_TUNE_NKINDS },
	{ "match", "thermal_above", v_celsius, PM_TUNE_NKINDS },
	{ "match", "cpu_pressure_above", v_pct, PM_TUNE_NKINDS },
	{ "match", "cpu_pressure_below", v_pct, PM_TUNE_NKINDS },
	{ "match", "priority", v_int, PM_TUNE_NKINDS },
};

static const char *const sections[] = {
	"opp", "cpufreq", "intel_pstate", "amd_pstate", "cpuidle", "cpu",
	"devfreq", "platform", "runtime_pm", "usb", "sata", "pcie", "audio",
	"sysctl", "wifi", "sysfs", "supply", "match", NULL,
};

/* "sections: opp, cpufreq, ...", for a message. */
static const char *section_names(char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "sections:");

	for (int i = 0; sections[i] && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s %s",
				      i ? "," : "", sections[i]);
	return buf;
}

/* "keys: governor, min, ..." of a section, for a message. */
static const char *key_names(const char *sec, char *buf, size_t size)
{
	size_t n = (size_t)snprintf(buf, size, "keys:");
	bool first = true;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && n < size;
	     i++)
		if (!strcmp(keys[i].section, sec)) {
			n += (size_t)snprintf(buf + n, size - n, "%s %s",
					      first ? "" : ",", keys[i].key);
			first = false;
		}
	if (!strcmp(sec, "cpufreq") && n < size)
		snprintf(buf + n, size - n, ", GOVERNOR.TUNABLE");
	return buf;
}

/* A /sys path of [sysfs]: absolute, under /sys, no "." or ".." parts. */
static const char *sys_path_ok(const char *k, char *buf, size_t size)
{
	char tmp[PM_PATH_MAX], *save = NULL;

	if (strncmp(k, "/sys/", 5) || strlen(k) >= sizeof(tmp)) {
		snprintf(buf, size, "'%s' is not a path under /sys", k);
		return buf;
	}
	snprintf(tmp, sizeof(tmp), "%s", k);
	for (char *c = strtok_r(tmp, "/", &save); c;
	     c = strtok_r(NULL, "/", &save))
		if (!strcmp(c, "..") || !strcmp(c, ".")) {
			snprintf(buf, size, "'%s': '.' and '..' are not "
					    "allowed", k);
			return buf;
		}
	return NULL;
}

static const char *bus_ok(const char *k, char *buf, size_t size)
{
	if (k[0] == '/') {
		if (strncmp(k, "/sys/devices/", 13)) {
			snprintf(buf, size, "'%s' is not a device path "
					    "(/sys/devices/...)", k);
			return buf;
		}
		return sys_path_ok(k, buf, size);
	}
	if (word_ok(k, 31))
		return NULL;
	snprintf(buf, size, "'%s' is neither a bus name (pci, usb, ...) nor "
			    "a device path", k);
	return buf;
}

#define CLASS_WORDS                                                     \
	"audio, input, display, network, storage, bridge, usb, or 2, 4 or " \
	"6 hex digits"

/* A [runtime_pm] line: a bus, a path, class.CLASS, driver.NAME, or the
 * exclusions of the lines for many devices. */
static const char *runtime_ok(const char *k, const char *v, char *buf,
			      size_t size)
{
	bool x = !strncmp(k, "exclude_", 8);
	const char *w = x ? v : strchr(k, '.') ? strchr(k, '.') + 1 : "";
	char out[256];
	const char *bad = NULL;
	size_t n = 0;
	int r = 0;
	bool cls;

	if (!strcmp(k, "exclude_class") || !strncmp(k, "class.", 6))
		r = pm_pci_class_parse(w, x, out, sizeof(out), &bad, &n);
	else if (!strcmp(k, "exclude_driver") || !strncmp(k, "driver.", 7))
		r = pm_driver_list_parse(w, x, out, sizeof(out), &bad, &n);
	else if (!x)
		return bus_ok(k, buf, size) ? buf : v_runtime(v, buf, size);
	else
		r = -EINVAL;
	if (r < 0 && x && !bad && strcmp(k, "exclude_class") &&
	    strcmp(k, "exclude_driver")) {
		snprintf(buf, size, "'%s' is not a key (the exclusions: "
				    "exclude_class, exclude_driver)", k);
		return buf;
	}
	if (r == 0 && !x && strchr(out, ' ') && k[0] == 'd')
		r = -EINVAL, bad = w, n = strlen(w);
	cls = k[x ? 8 : 0] == 'c';
	if (r < 0 && !bad)
		snprintf(buf, size, "names no %s%s", cls ? "class" : "driver",
			 x ? " (none for none)" : "");
	else if (r < 0 && x && n == 4 && !strncmp(bad, "none", 4))
		snprintf(buf, size, "none with %s",
			 cls ? "classes" : "drivers");
	else if (r < 0)
		snprintf(buf, size, "'%.*s' is not %s%s", (int)n, bad,
			 cls ? "a PCI class (" CLASS_WORDS : "a driver's name",
			 cls ? x ? ", or none)" : ")" : x ? " (or none)" : "");
	return r < 0 ? buf : x ? NULL : v_runtime(v, buf, size);
}

const char *opp_save_unsafe(const char *v, bool arg)
{
	size_t len = strlen(v);

	for (const char *p = v; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return *p == '\n' ? "it holds a newline" :
					     "it holds a control character";
	if (!len)
		return "it is empty";
	if (v[0] == ' ' || v[0] == '\t' || v[len - 1] == ' ' ||
	    v[len - 1] == '\t')
		return "it begins or ends with a space";
	if (len >= 2 && (v[0] == '"' || v[0] == '\'') && v[len - 1] == v[0])
		return "a point file would take its quotes off";
	if (arg && (strchr(v, '/') || strchr(v, ' ') || strchr(v, ']') ||
		    !strcmp(v, ".") || !strcmp(v, "..")))
		return "it is not a name a section can hold";
	return NULL;
}

/* ---------------------------------------------------------------- points */

static void die_at(struct opp *op, const char *file, unsigned line,
		   const char *fmt, const char *what)
	__attribute__((noreturn));

static void die_at(struct opp *op, const char *file, unsigned line,
		   const char *fmt, const char *what)
{
	(void)fmt;
	if (line)
		pm_die(&op->t, PM_EXIT_USAGE, "%s:%u: %s", file, line, what);
	/* A -s setting is an argument: a usage error. */
	pm_usage_error(&op->t, "-s '%s': %s", file, what);
}

/* A section's argument in the form its section takes (exit 2). */
static void check_arg(struct opp *op, const char *file, unsigned line,
		      const char *sec, const char *arg)
{
	char msg[PM_PATH_MAX + 200], err[PM_PATH_MAX + 100];

	if (!strcmp(sec, "cpufreq") && arg[0]) {
		if (strncmp(arg, "cpus=", 5) ||
		    v_cpus(arg + 5, err, sizeof(err))) {
			snprintf(msg, sizeof(msg),
				 "[cpufreq%s%s]: expected [cpufreq cpus=LIST]",
				 line ? "" : " ", line ? "" : arg);
			die_at(op, file, line, NULL, msg);
		}
	} else if (!strcmp(sec, "devfreq")) {
		if (!arg[0] || strchr(arg, '/') || strchr(arg, ' ') ||
		    !strcmp(arg, ".") || !strcmp(arg, "..")) {
			snprintf(msg, sizeof(msg),
				 "[devfreq%s%s]: expected [devfreq NAME] (a "
				 "name of /sys/class/devfreq)",
				 arg[0] && !line ? " " : "", line ? "" : arg);
			die_at(op, file, line, NULL, msg);
		}
	} else if (!strcmp(sec, "supply")) {
		if (!pm_supply_name_ok(arg)) {
			snprintf(msg, sizeof(msg),
				 "[supply%s%s]: expected [supply NAME] (a name "
				 "of /sys/class/power_supply, such as BAT0)",
				 arg[0] ? " " : "", arg);
			die_at(op, file, line, NULL, msg);
		}
	} else if (arg[0]) {
		if (line)
			snprintf(msg, sizeof(msg), "[%s] takes no argument",
				 sec);
		else
			snprintf(msg, sizeof(msg),
				 "[%s] takes no argument, not '%s'", sec, arg);
		die_at(op, file, line, NULL, msg);
	}
}

/*
 * The section is one opp-set knows, with its argument.  A line of a file
 * is quoted only once it sits in a section that opp-set knows under a
 * key it knows: -f may name a file of secrets (through a link, as root),
 * whose first line must not be printed.  A -s setting is the user's own
 * argument.
 */
static void check_section(struct opp *op, const char *file, unsigned line,
			  const char *header, const char *sec,
			  const char *arg, const char *key)
{
	char msg[PM_PATH_MAX + 200], err[PM_PATH_MAX + 100];
	bool known = false;

	if (!header[0]) {
		if (line)
			snprintf(msg, sizeof(msg),
				 "a setting outside any [section]");
		else
			snprintf(msg, sizeof(msg),
				 "'%s' is outside any [section]", key);
		die_at(op, file, line, NULL, msg);
	}
	for (int i = 0; sections[i]; i++)
		known |= !strcmp(sec, sections[i]);
	if (!known) {
		if (line)
			snprintf(msg, sizeof(msg), "unknown section (%s)",
				 section_names(err, sizeof(err)));
		else
			snprintf(msg, sizeof(msg), "unknown section [%s]",
				 sec);
		die_at(op, file, line, NULL, msg);
	}
	check_arg(op, file, line, sec, arg);
}

/* The key is one of its section's, and the value one it takes. */
static void check_key(struct opp *op, const char *file, unsigned line,
		      const char *sec, const char *key, const char *value)
{
	char msg[PM_PATH_MAX + 200], err[PM_PATH_MAX + 100];
	const struct key *k = NULL;
	const char *bad;

	if (!strcmp(sec, "sysfs")) {
		bad = sys_path_ok(key, err, sizeof(err));
		if (!bad)
			bad = v_any(value, err, sizeof(err));
	} else if (!strcmp(sec, "runtime_pm")) {
		bad = runtime_ok(key, value, err, sizeof(err));
	} else {
		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
			if (!strcmp(keys[i].section, sec) &&
			    !strcmp(keys[i].key, key))
				k = &keys[i];
		if (!k && !strcmp(sec, "cpufreq") && strchr(key, '.')) {
			bad = opp_tunable_check(key, value, err, sizeof(err));
		} else if (!k) {
			if (line)
				snprintf(msg, sizeof(msg),
					 "unknown key in [%s] (%s)", sec,
					 key_names(sec, err, sizeof(err)));
			else
				snprintf(msg, sizeof(msg),
					 "unknown key '%s' in [%s]", key, sec);
			die_at(op, file, line, NULL, msg);
		} else if (k->check) {
			bad = k->check(value, err, sizeof(err));
		} else {
			bad = v_tune(k->tune, value, err, sizeof(err));
		}
	}
	if (bad) {
		snprintf(msg, sizeof(msg), "[%s] %s: %s", sec, key, bad);
		die_at(op, file, line, NULL, msg);
	}
}

/* Later wins: an include's setting is replaced in place. */
static struct opp_setting *slot(struct opp *op, struct opp_point *pt,
				const char *sec, const char *arg,
				const char *key)
{
	struct opp_setting *s;

	for (int i = 0; i < pt->n; i++) {
		s = &pt->v[i];
		if (!strcmp(s->section, sec) && !strcmp(s->arg, arg) &&
		    !strcmp(s->key, key))
			return s;
	}
	if (pt->n == pt->cap) {
		int cap = pt->cap ? pt->cap * 2 : 32;
		void *p = realloc(pt->v, (size_t)cap * sizeof(*pt->v));

		if (!p)
			pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
		pt->v = p;
		pt->cap = cap;
	}
	s = &pt->v[pt->n++];
	memset(s, 0, sizeof(*s));
	snprintf(s->section, sizeof(s->section), "%s", sec);
	snprintf(s->arg, sizeof(s->arg), "%s", arg);
	snprintf(s->key, sizeof(s->key), "%s", key);
	return s;
}

/* Check one setting; the section header is split into name and arg. */
static void add(struct opp *op, struct opp_point *pt, const char *file,
		unsigned line, const char *header, const char *key,
		const char *value)
{
	char sec[64], arg[160], msg[PM_PATH_MAX + 200];
	const char *sp = strchr(header, ' ');
	struct opp_setting *s;

	snprintf(sec, sizeof(sec), "%.*s",
		 (int)(sp ? (size_t)(sp - header) : strlen(header)), header);
	snprintf(arg, sizeof(arg), "%s", sp ? sp + 1 : "");
	for (char *a = arg; *a == ' ';)
		memmove(a, a + 1, strlen(a));
	check_section(op, file, line, header, sec, arg, key);
	check_key(op, file, line, sec, key, value);
	if (strlen(key) >= sizeof(s->key) || strlen(value) >= sizeof(s->value) ||
	    strlen(arg) >= sizeof(s->arg)) {
		snprintf(msg, sizeof(msg), "[%s] %.60s: too long", sec, key);
		die_at(op, file, line, NULL, msg);
	}
	s = slot(op, pt, sec, arg, key);
	snprintf(s->value, sizeof(s->value), "%s", value);
	s->file = file;
	s->line = line;
}

static const char *keep_file(struct opp *op, struct opp_point *pt,
			     const char *path)
{
	if (pt->nfiles == pt->capfiles) {
		int cap = pt->capfiles ? pt->capfiles * 2 : 8;
		char **f = realloc(pt->files, (size_t)cap * sizeof(*f));

		if (!f)
			pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
		pt->files = f;
		pt->capfiles = cap;
	}
	pt->files[pt->nfiles] = strdup(path);
	if (!pt->files[pt->nfiles])
		pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
	return pt->files[pt->nfiles++];
}

/* A file read once, however many times it is included. */
struct loaded {
	char *shown;
	struct pm_conf c;
};

struct stack {
	const char *names[MAX_DEPTH];
	int n;
	int included;			/* files loaded, repeats counted */
	struct loaded *files;
	int nfiles;
};

static void stack_free(struct stack *st)
{
	for (int i = 0; i < st->nfiles; i++) {
		free(st->files[i].shown);
		pm_conf_free(&st->files[i].c);
	}
	free(st->files);
	st->files = NULL;
	st->nfiles = 0;
}

static void load_conf(struct opp *op, struct pm_ctx *ctx, const char *path,
		      const char *shown, struct opp_point *pt,
		      struct stack *st);

/* Where NAME is: /etc/pm/opp.d under the root, then the examples. */
static void load_named(struct opp *op, const char *name,
		       struct opp_point *pt, struct stack *st,
		       const char *from)
{
	char etc[PM_PATH_MAX], inst[PM_PATH_MAX], shown[PM_PATH_MAX];
	int fd;

	if (!pm_opp_name_valid(name) && !from)
		pm_usage_error(&op->t, "invalid point name '%s' (letters, "
				       "digits, '_', '-' and '.'; no '/')",
			       name);
	if (!pm_opp_name_valid(name))
		pm_die(&op->t, PM_EXIT_USAGE, "%s%sinvalid point name '%s' "
			       "(letters, digits, '_', '-' and '.'; no '/')",
			       from ? from : "", from ? ": " : "", name);
	for (int i = 0; i < st->n; i++)
		if (!strcmp(st->names[i], name))
			pm_die(&op->t, PM_EXIT_USAGE, "%s: include cycle: "
				       "%s includes itself",
				       from ? from : name, name);
	if (st->n == MAX_DEPTH)
		pm_die(&op->t, PM_EXIT_USAGE, "%s: includes nested deeper "
			       "than %d", from ? from : name, MAX_DEPTH);
	snprintf(etc, sizeof(etc), "/etc/pm/opp.d/%s.conf", name);
	snprintf(inst, sizeof(inst), "%s/opp.d/%s.conf", PM_DATADIR, name);
	fd = pm_open(&op->ctx, etc, O_PATH);
	st->names[st->n++] = name;
	if (fd >= 0 || fd != -ENOENT) {
		if (fd >= 0)
			close(fd);
		snprintf(shown, sizeof(shown), "%s", etc);
		load_conf(op, &op->ctx, etc, shown, pt, st);
	} else if (access(inst, F_OK) == 0) {
		load_conf(op, NULL, inst, inst, pt, st);
	} else if (!from) {
		pm_usage_error(&op->t, "no operating point '%s' (looked in "
				       "/etc/pm/opp.d and %s/opp.d; opp-set "
				       "--list shows them)",
			       name, PM_DATADIR);
	} else {
		pm_die(&op->t, PM_EXIT_USAGE, "%s%sno operating point '%s' "
			       "(looked in /etc/pm/opp.d and %s/opp.d; "
			       "opp-set --list shows them)",
			       from ? from : "", from ? ": " : "", name,
			       PM_DATADIR);
	}
	st->n--;
}

static void load_conf(struct opp *op, struct pm_ctx *ctx, const char *path,
		      const char *shown, struct opp_point *pt,
		      struct stack *st)
{
	struct pm_conf *cp = NULL;
	const char *file;

	if (++st->included > MAX_INCLUDED)
		pm_die(&op->t, PM_EXIT_USAGE, "%s: more than %d point files "
			       "through includes (each include counts)",
		       pt->nfiles ? pt->files[0] : shown, MAX_INCLUDED);
	for (int i = 0; i < st->nfiles; i++)
		if (!strcmp(st->files[i].shown, shown))
			cp = &st->files[i].c;
	if (!cp) {
		struct pm_conf c;
		struct loaded *f = realloc(st->files, (size_t)(st->nfiles + 1) *
							      sizeof(*f));

		if (!f)
			pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
		st->files = f;
		if (pm_conf_load(ctx, path, &c) < 0) {
			if (c.errline)
				pm_die(&op->t, PM_EXIT_USAGE, "%s:%u: %s",
				       shown, c.errline, c.errmsg);
			pm_die(&op->t, PM_EXIT_USAGE, "%s: %s", shown,
			       c.errmsg);
		}
		f[st->nfiles].shown = strdup(shown);
		if (!f[st->nfiles].shown)
			pm_die(&op->t, PM_EXIT_FAIL, "out of memory");
		f[st->nfiles].c = c;
		cp = &f[st->nfiles++].c;
	}
	struct pm_conf c = *cp;

	file = keep_file(op, pt, shown);
	/* Includes first, whatever their place: this file wins. */
	for (int i = 0; i < c.n; i++) {
		struct pm_conf_line *l = &c.lines[i];
		char where[PM_PATH_MAX + 16], tmp[256], *save = NULL;

		if (strcmp(l->section, "opp") || strcmp(l->key, "include"))
			continue;
		add(op, pt, file, l->lineno, l->section, l->key, l->value);
		snprintf(where, sizeof(where), "%s:%u", file, l->lineno);
		snprintf(tmp, sizeof(tmp), "%s", l->value);
		for (char *s = strtok_r(tmp, ", ", &save); s;
		     s = strtok_r(NULL, ", ", &save))
			load_named(op, s, pt, st, where);
	}
	for (int i = 0; i < c.n; i++) {
		struct pm_conf_line *l = &c.lines[i];

		if (!strcmp(l->section, "opp") && !strcmp(l->key, "include"))
			continue;
		add(op, pt, file, l->lineno, l->section, l->key, l->value);
		if (!strcmp(l->section, "opp") &&
		    !strcmp(l->key, "description") && st->n == 1)
			snprintf(pt->description, sizeof(pt->description),
				 "%s", l->value);
	}
}

void opp_load_name(struct opp *op, const char *name, struct opp_point *pt)
{
	struct stack st = { .n = 0 };

	snprintf(pt->name, sizeof(pt->name), "%s", name);
	load_named(op, name, pt, &st, NULL);
	stack_free(&st);
}

void opp_load_file(struct opp *op, const char *file, struct opp_point *pt)
{
	struct stack st = { .n = 1, .names = { "" } };
	const char *b = strrchr(file, '/');
	size_t len;

	b = b ? b + 1 : file;
	len = strlen(b);
	if (len > 5 && !strcmp(b + len - 5, ".conf"))
		len -= 5;
	snprintf(pt->name, sizeof(pt->name), "%.*s", (int)len, b);
	load_conf(op, NULL, file, file, pt, &st);
	stack_free(&st);
}

void opp_add_inline(struct opp *op, const char *a, struct opp_point *pt)
{
	char head[200], key[PM_PATH_MAX], msg[PM_PATH_MAX + 64];
	const char *eq = strchr(a, '='), *dot, *colon;
	const char *file = keep_file(op, pt, a);
	size_t seclen;

	if (!eq)
		pm_usage_error(&op->t, "-s '%s': expected "
				       "SECTION[:ARG].KEY=VALUE", a);
	seclen = strcspn(a, ".:");
	if (seclen >= 32 || a + seclen >= eq)
		pm_usage_error(&op->t, "-s '%s': expected "
				       "SECTION[:ARG].KEY=VALUE", a);
	colon = a[seclen] == ':' ? a + seclen : NULL;
	if (colon) {
		/* The key is after the last '.' before '=': an ARG such as
		 * ff9a0000.gpu has dots of its own.  A CPU list has none,
		 * and a [cpufreq] key may (ondemand.up_threshold). */
		bool cpufreq = seclen == 7 && !strncmp(a, "cpufreq", 7);

		dot = NULL;
		for (const char *q = colon; q < eq; q++)
			if (*q == '.' && (!cpufreq || !dot))
				dot = q;
		if (!dot || dot == colon + 1)
			pm_usage_error(&op->t, "-s '%s': expected "
					       "SECTION:ARG.KEY=VALUE", a);
		if (cpufreq)
			snprintf(head, sizeof(head), "cpufreq cpus=%.*s",
				 (int)(dot - colon - 1), colon + 1);
		else
			snprintf(head, sizeof(head), "%.*s %.*s", (int)seclen,
				 a, (int)(dot - colon - 1), colon + 1);
	} else {
		dot = a + seclen;
		snprintf(head, sizeof(head), "%.*s", (int)seclen, a);
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - dot - 1), dot + 1);
	if (!key[0]) {
		snprintf(msg, sizeof(msg), "a key is missing before '='");
		pm_usage_error(&op->t, "-s '%s': %s", a, msg);
	}
	if (!strcmp(head, "opp") && !strcmp(key, "include"))
		pm_usage_error(&op->t, "-s '%s': include is for point files "
				       "(give the NAME instead)", a);
	add(op, pt, file, 0, head, key, eq + 1);
}

void opp_add_setting(struct opp *op, struct opp_point *pt, const char *file,
		     unsigned line, const char *arg, const char *key,
		     const char *value)
{
	char head[PM_NAME_MAX + 16];

	snprintf(head, sizeof(head), "supply %s", arg);
	add(op, pt, keep_file(op, pt, file), line, head, key, value);
}

void opp_add_auto(struct opp *op, struct opp_point *pt, const char *set)
{
	char shown[200];

	opp_add_inline(op, set, pt);
	snprintf(shown, sizeof(shown), "--auto-tune (%s)", set);
	pt->v[pt->n - 1].file = keep_file(op, pt, shown);
}

void opp_point_free(struct opp_point *pt)
{
	free(pt->v);
	for (int i = 0; i < pt->nfiles; i++)
		free(pt->files[i]);
	free(pt->files);
	memset(pt, 0, sizeof(*pt));
}
