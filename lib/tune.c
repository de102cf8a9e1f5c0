// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device tunables: the files powertop lists as "Tunables" (runtime PM,
 * USB autosuspend, SATA link power, audio codec power save, the NMI
 * watchdog, writeback) and the two it does not (PCIe ASPM's policy,
 * vm.laptop_mode), read with the names of their devices.
 *
 * Good and bad follow powertop where it has the tunable, except where
 * powertop compares to one exact value and another saves as much: SATA
 * min_power and min_power_with_partial (beside med_power_with_dipm) and
 * an audio power_save of more than one second are good here.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "device.h"
#include "nl80211.h"
#include "parse.h"
#include "tune.h"

static const char *const kind_names[PM_TUNE_NKINDS] = {
	[PM_TUNE_RUNTIME_PM] = "runtime_pm",
	[PM_TUNE_USB_AUTOSUSPEND] = "usb_autosuspend",
	[PM_TUNE_SATA_LINK] = "sata_link_power",
	[PM_TUNE_PCIE_ASPM] = "pcie_aspm",
	[PM_TUNE_AUDIO_POWER_SAVE] = "audio_power_save",
	[PM_TUNE_AUDIO_CONTROLLER] = "audio_power_save_controller",
	[PM_TUNE_NMI_WATCHDOG] = "nmi_watchdog",
	[PM_TUNE_DIRTY_WRITEBACK] = "dirty_writeback_centisecs",
	[PM_TUNE_LAPTOP_MODE] = "laptop_mode",
	[PM_TUNE_WIFI_PS] = "wifi_power_save",
};

static const char *const good_values[PM_TUNE_NKINDS] = {
	[PM_TUNE_RUNTIME_PM] = "auto",
	[PM_TUNE_USB_AUTOSUSPEND] = "auto",
	[PM_TUNE_SATA_LINK] = "med_power_with_dipm",
	[PM_TUNE_PCIE_ASPM] = "powersave",
	[PM_TUNE_AUDIO_POWER_SAVE] = "1",
	[PM_TUNE_AUDIO_CONTROLLER] = "Y",
	[PM_TUNE_NMI_WATCHDOG] = "0",
	[PM_TUNE_DIRTY_WRITEBACK] = "1500",
	[PM_TUNE_LAPTOP_MODE] = "5",
	[PM_TUNE_WIFI_PS] = "on",
};

/* The files of the tunables that are not a device's. */
static const char *const global_files[PM_TUNE_NKINDS] = {
	[PM_TUNE_PCIE_ASPM] = "/sys/module/pcie_aspm/parameters/policy",
	[PM_TUNE_AUDIO_POWER_SAVE] =
		"/sys/module/snd_hda_intel/parameters/power_save",
	[PM_TUNE_AUDIO_CONTROLLER] =
		"/sys/module/snd_hda_intel/parameters/power_save_controller",
	[PM_TUNE_NMI_WATCHDOG] = "/proc/sys/kernel/nmi_watchdog",
	[PM_TUNE_DIRTY_WRITEBACK] = "/proc/sys/vm/dirty_writeback_centisecs",
	[PM_TUNE_LAPTOP_MODE] = "/proc/sys/vm/laptop_mode",
};

const char *pm_tune_kind_name(enum pm_tune_kind k)
{
	return (unsigned)k < PM_TUNE_NKINDS ? kind_names[k] : "";
}

const char *pm_tune_good_value(enum pm_tune_kind k)
{
	return (unsigned)k < PM_TUNE_NKINDS ? good_values[k] : "";
}

/* A decimal number, whole: *v. */
static bool dec(const char *s, unsigned long long *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

enum pm_tune_state pm_tune_judge(enum pm_tune_kind k, const char *value)
{
	unsigned long long n;

	if (!value || !*value)
		return PM_TUNE_UNKNOWN;
	switch (k) {
	case PM_TUNE_RUNTIME_PM:
	case PM_TUNE_USB_AUTOSUSPEND:
		return !strcmp(value, "auto");
	case PM_TUNE_WIFI_PS:
		return !strcmp(value, "on");
	case PM_TUNE_SATA_LINK:
		return !strcmp(value, "med_power_with_dipm") ||
		       !strcmp(value, "min_power_with_partial") ||
		       !strcmp(value, "min_power");
	case PM_TUNE_PCIE_ASPM:
		return !strcmp(value, "powersave") ||
		       !strcmp(value, "powersupersave");
	case PM_TUNE_AUDIO_CONTROLLER:
		return !strcmp(value, "Y") || !strcmp(value, "1");
	case PM_TUNE_AUDIO_POWER_SAVE:
	case PM_TUNE_LAPTOP_MODE:
		if (!dec(value, &n))
			return PM_TUNE_UNKNOWN;
		return n > 0;
	case PM_TUNE_NMI_WATCHDOG:
		if (!dec(value, &n))
			return PM_TUNE_UNKNOWN;
		return n == 0;
	case PM_TUNE_DIRTY_WRITEBACK:
		if (!dec(value, &n))
			return PM_TUNE_UNKNOWN;
		return n >= 1500;
	default:
		return PM_TUNE_UNKNOWN;
	}
}

const char *pm_tune_file(enum pm_tune_kind k)
{
	return (unsigned)k < PM_TUNE_NKINDS ? global_files[k] : NULL;
}

int pm_sysctl_kind(const char *key)
{
	static const struct {
		const char *key;
		enum pm_tune_kind k;
	} m[] = {
		{ "kernel.nmi_watchdog", PM_TUNE_NMI_WATCHDOG },
		{ "vm.dirty_writeback_centisecs", PM_TUNE_DIRTY_WRITEBACK },
		{ "vm.laptop_mode", PM_TUNE_LAPTOP_MODE },
	};
	char k[64];

	if (strlen(key) >= sizeof(k))
		return -1;
	memcpy(k, key, strlen(key) + 1);
	for (char *p = k; *p; p++)
		if (*p == '/')
			*p = '.';
	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcmp(k, m[i].key))
			return (int)m[i].k;
	return -1;
}

static bool id_ok(const char *id, size_t len);

static bool one_of(const char *s, const char *const *words)
{
	for (int i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return true;
	return false;
}

/* A decimal from 0 to max into out. */
static int num(const char *s, uint64_t max, char *out, size_t size)
{
	uint64_t v;

	if (pm_parse_u64(s, &v) < 0 || v > max)
		return -EINVAL;
	snprintf(out, size, "%llu", (unsigned long long)v);
	return 0;
}

int pm_tune_value_parse(enum pm_tune_kind k, const char *s, char *out,
			size_t size)
{
	static const char *const sata[] = {
		"max_performance", "medium_power", "med_power_with_dipm",
		"min_power_with_partial", "min_power",
		"keep_firmware_settings", NULL,
	};
	static const char *const aspm[] = {
		"default", "performance", "powersave", "powersupersave", NULL,
	};
	static const char *const control[] = { "auto", "on", NULL };
	const char *w = NULL;
	bool b;

	switch (k) {
	case PM_TUNE_RUNTIME_PM:
		w = one_of(s, control) ? s : NULL;
		break;
	case PM_TUNE_USB_AUTOSUSPEND:
		if (pm_parse_bool(s, &b) == 0)
			w = b ? "auto" : "on";
		break;
	case PM_TUNE_SATA_LINK:
		w = one_of(s, sata) ? s : NULL;
		break;
	case PM_TUNE_PCIE_ASPM:
		w = one_of(s, aspm) ? s : NULL;
		break;
	case PM_TUNE_AUDIO_CONTROLLER:
		/* The kernel's bool parameter prints Y or N. */
		if (!strcasecmp(s, "y") || !strcasecmp(s, "n"))
			w = toupper((unsigned char)*s) == 'Y' ? "Y" : "N";
		else if (pm_parse_bool(s, &b) == 0)
			w = b ? "Y" : "N";
		break;
	case PM_TUNE_NMI_WATCHDOG:
		if (pm_parse_bool(s, &b) == 0)
			w = b ? "1" : "0";
		break;
	case PM_TUNE_WIFI_PS:
		if (pm_parse_bool(s, &b) == 0)
			w = b ? "on" : "off";
		break;
	case PM_TUNE_AUDIO_POWER_SAVE:
	case PM_TUNE_LAPTOP_MODE:
		return num(s, 3600, out, size);
	case PM_TUNE_DIRTY_WRITEBACK:
		return num(s, 2147483647, out, size);
	default:
		break;
	}
	if (!w || strlen(w) >= size)
		return -EINVAL;
	memcpy(out, w, strlen(w) + 1);
	return 0;
}

int pm_usb_exclude_parse(const char *s, char *codes, size_t size,
			 const char **bad, size_t *badlen)
{
	static const struct {
		const char *word, *codes;
	} m[] = {
		{ "input", "03" }, { "audio", "01" }, { "comm", "02 0a" },
		{ "printer", "07" }, { "storage", "08" }, { "hub", "09" },
		{ "video", "0e" }, { "bluetooth", "e0" },
	};
	size_t len = 0, n;
	const char *add;
	char w[16];
	bool none = false;

	codes[0] = '\0';
	*bad = NULL;
	while (*s) {
		n = strcspn(s, ", \t");
		if (!n) {
			s++;
			continue;
		}
		add = NULL;
		if (n < sizeof(w)) {
			memcpy(w, s, n);
			w[n] = '\0';
			for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
				if (!strcmp(w, m[i].word))
					add = m[i].codes;
			if (n == 2 && id_ok(w, 2))
				add = w;
			if (!strcmp(w, "none")) {
				add = "";
				none = true;
			}
		}
		if (!add || len + strlen(add) + 2 > size) {
			*bad = s;
			*badlen = n;
			return -EINVAL;
		}
		if (*add)
			len += (size_t)snprintf(codes + len, size - len, "%s%s",
						len ? " " : "", add);
		s += n;
	}
	if (none && len) {
		*bad = "none";
		*badlen = 4;
		return -EINVAL;
	}
	return len || none ? 0 : -EINVAL;
}

int pm_ifname_list_parse(const char *s, char *names, size_t size,
			 const char **bad, size_t *badlen)
{
	size_t len = 0, n;
	bool none = false, ok;

	names[0] = '\0';
	*bad = NULL;
	while (*s) {
		n = strcspn(s, ", \t");
		if (!n) {
			s++;
			continue;
		}
		ok = n < 16 && strncmp(s, ".", n) && strncmp(s, "..", n) &&
		     len + n + 2 <= size;
		for (size_t i = 0; ok && i < n; i++)
			ok = (unsigned char)s[i] > ' ' &&
			     (unsigned char)s[i] < 0x7f && s[i] != '/' &&
			     s[i] != ':';
		if (n == 4 && !strncmp(s, "none", 4)) {
			none = true;
		} else if (!ok) {
			*bad = s;
			*badlen = n;
			return -EINVAL;
		} else {
			len += (size_t)snprintf(names + len, size - len,
						"%s%.*s", len ? " " : "",
						(int)n, s);
		}
		s += n;
	}
	if (none && len) {
		*bad = "none";
		*badlen = 4;
		return -EINVAL;
	}
	return len || none ? 0 : -EINVAL;
}

bool pm_usb_excluded(const struct pm_tunable *t, const char *codes)
{
	char c[3];

	for (const char *p = codes; *p; p += p[2] ? 3 : 2) {
		memcpy(c, p, 2);
		c[2] = '\0';
		if (!strcmp(t->class_code, c) || strstr(t->if_classes, c))
			return true;
		if (!p[2])
			break;
	}
	return false;
}

/* One word of a PCI class list into its codes (w is lower case). */
static const char *pci_class_word(const char *w, char *hex, size_t size)
{
	static const struct {
		const char *word, *codes;
	} m[] = {
		{ "audio", "0401 0403" }, { "input", "09" }, { "display", "03" },
		{ "network", "02" },	  { "storage", "01" }, { "bridge", "06" },
		{ "usb", "0c03" },
	};
	size_t n;

	for (size_t i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (!strcmp(w, m[i].word))
			return m[i].codes;
	if (!strncmp(w, "0x", 2))
		w += 2;
	n = strlen(w);
	if ((n != 2 && n != 4 && n != 6) || n >= size || !id_ok(w, n))
		return NULL;
	for (size_t i = 0; i <= n; i++)
		hex[i] = (char)tolower((unsigned char)w[i]);
	return hex;
}

/* A driver's name: letters, digits, '_' and '-'. */
static const char *driver_word(const char *w, char *buf, size_t size)
{
	(void)buf, (void)size;
	if (strlen(w) >= PM_NAME_MAX)
		return NULL;
	for (const char *p = w; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '-')
			return NULL;
	return w;
}

/*
 * Words separated by commas or blanks, each mapped by fn into out
 * ("a b c"), or "none" alone when none_ok.
 */
static int words_parse(const char *s, bool none_ok, char *out, size_t size,
		       const char **bad, size_t *badlen,
		       const char *(*fn)(const char *, char *, size_t))
{
	size_t len = 0, n;
	char w[PM_NAME_MAX + 4], tmp[16];
	const char *add;
	bool none = false;

	out[0] = '\0';
	*bad = NULL;
	for (; *s; s += n) {
		n = strcspn(s, ", \t");
		if (!n) {
			n = 1;
			continue;
		}
		add = NULL;
		if (n < sizeof(w)) {
			memcpy(w, s, n);
			w[n] = '\0';
			none |= none_ok && !strcmp(w, "none");
			add = none_ok && !strcmp(w, "none") ?
				      "" :
				      fn(w, tmp, sizeof(tmp));
		}
		if (!add || len + strlen(add) + 2 > size) {
			*bad = s;
			*badlen = n;
			return -EINVAL;
		}
		if (*add)
			len += (size_t)snprintf(out + len, size - len, "%s%s",
						len ? " " : "", add);
	}
	if (none && len) {
		*bad = "none";
		*badlen = 4;
		return -EINVAL;
	}
	return len || none ? 0 : -EINVAL;
}

int pm_pci_class_parse(const char *s, bool none_ok, char *codes,
		       size_t size, const char **bad, size_t *badlen)
{
	return words_parse(s, none_ok, codes, size, bad, badlen,
			   pci_class_word);
}

int pm_driver_list_parse(const char *s, bool none_ok, char *out,
			 size_t size, const char **bad, size_t *badlen)
{
	return words_parse(s, none_ok, out, size, bad, badlen, driver_word);
}

bool pm_pci_class_in(const char *cls, const char *codes)
{
	char c[8];
	size_t n;

	if (strlen(cls) != 8 || strncmp(cls, "0x", 2) || !id_ok(cls + 2, 6))
		return false;
	for (int i = 0; i < 7; i++)
		c[i] = (char)tolower((unsigned char)cls[i + 2]);
	for (const char *p = codes; *p; p += n) {
		n = strcspn(p, " ");
		if (n && n <= 6 && !strncmp(c, p, n))
			return true;
		if (p[n])
			n++;
	}
	return false;
}

int pm_bracket_choice(const char *text, char *out, size_t size)
{
	const char *a = strchr(text, '['), *b;
	size_t len;

	if (!a) {
		a = text;
		len = strlen(text);
	} else {
		b = strchr(++a, ']');
		if (!b)
			return -EINVAL;
		len = (size_t)(b - a);
	}
	if (len >= size)
		return -EINVAL;
	memcpy(out, a, len);
	out[len] = '\0';
	return 0;
}

/* ------------------------------------------------------------ the ids */

/*
 * The line after the one at p, or NULL at the end.
 */
static const char *next_line(const char *p)
{
	p = strchr(p, '\n');
	return p ? p + 1 : NULL;
}

/* The first line of text that starts with prefix, or NULL. */
static const char *find_line(const char *text, const char *prefix)
{
	size_t n = strlen(prefix);
	const char *p = text;
	char nl[24];

	if (!strncmp(text, prefix, n))
		return text;
	if (n + 2 > sizeof(nl))
		return NULL;
	nl[0] = '\n';
	memcpy(nl + 1, prefix, n + 1);
	p = strstr(p, nl);
	return p ? p + 1 : NULL;
}

/* The name after "ID  " on the line at p (its prefix plen long). */
static bool copy_name(const char *p, size_t plen, char *out, size_t size)
{
	const char *end = strchr(p + plen, '\n');
	size_t len = end ? (size_t)(end - p - plen) : strlen(p + plen);

	if (!size)
		return false;
	if (len >= size)
		len = size - 1;
	memcpy(out, p + plen, len);
	out[len] = '\0';
	return len > 0;
}

/* A lower-case id of exactly 4 (or 2) hex digits. */
static bool id_ok(const char *id, size_t len)
{
	if (strlen(id) != len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)id[i]) ||
		    isupper((unsigned char)id[i]))
			return false;
	return true;
}

bool pm_ids_vendor(const char *ids, const char *vendor, char *out,
		   size_t size)
{
	char pre[8];
	const char *p;

	if (!ids || !id_ok(vendor, 4))
		return false;
	snprintf(pre, sizeof(pre), "%s  ", vendor);
	p = find_line(ids, pre);
	return p && copy_name(p, strlen(pre), out, size);
}

/*
 * Below the line at p, the indented line "\tID  name" (one tab), before
 * the next line that is not indented or a comment.
 */
static const char *find_sub(const char *p, const char *id)
{
	size_t n = strlen(id);

	for (p = next_line(p); p; p = next_line(p)) {
		if (*p == '#' || *p == '\n' || !strncmp(p, "\t\t", 2))
			continue;
		if (*p != '\t')
			return NULL;
		if (!strncmp(p + 1, id, n) && !strncmp(p + 1 + n, "  ", 2))
			return p;
	}
	return NULL;
}

bool pm_ids_device(const char *ids, const char *vendor, const char *device,
		   char *out, size_t size)
{
	char pre[8];
	const char *p;

	if (!ids || !id_ok(vendor, 4) || !id_ok(device, 4))
		return false;
	snprintf(pre, sizeof(pre), "%s  ", vendor);
	p = find_line(ids, pre);
	if (!p)
		return false;
	p = find_sub(p, device);
	return p && copy_name(p, 1 + 4 + 2, out, size);
}

bool pm_ids_class(const char *ids, const char *cls, char *out, size_t size)
{
	char pre[8], base[3], sub[3];
	const char *p, *s;

	if (!ids || (strlen(cls) != 2 && strlen(cls) != 4))
		return false;
	memcpy(base, cls, 2);
	base[2] = '\0';
	if (!id_ok(base, 2))
		return false;
	snprintf(pre, sizeof(pre), "C %s  ", base);
	p = find_line(ids, pre);
	if (!p)
		return false;
	if (cls[2]) {
		memcpy(sub, cls + 2, 3);
		if (id_ok(sub, 2)) {
			s = find_sub(p, sub);
			if (s && copy_name(s, 1 + 2 + 2, out, size))
				return true;
		}
	}
	return copy_name(p, strlen(pre), out, size);
}

/* ------------------------------------------- the classes without ids */

struct class_name {
	const char *code;
	const char *name;
};

/* PCI base classes and the subclasses a laptop's tunables have. */
static const struct class_name pci_classes[] = {
	{ "0106", "SATA controller" },
	{ "0108", "Non-Volatile memory controller" },
	{ "0200", "Ethernet controller" },
	{ "0280", "Network controller" },
	{ "0300", "VGA compatible controller" },
	{ "0403", "Audio device" },
	{ "0600", "Host bridge" },
	{ "0601", "ISA bridge" },
	{ "0604", "PCI bridge" },
	{ "0c03", "USB controller" },
	{ "0c05", "SMBus" },
	{ "00", "Unclassified device" },
	{ "01", "Mass storage controller" },
	{ "02", "Network controller" },
	{ "03", "Display controller" },
	{ "04", "Multimedia controller" },
	{ "05", "Memory controller" },
	{ "06", "Bridge" },
	{ "07", "Communication controller" },
	{ "08", "Generic system peripheral" },
	{ "09", "Input device controller" },
	{ "0a", "Docking station" },
	{ "0b", "Processor" },
	{ "0c", "Serial bus controller" },
	{ "0d", "Wireless controller" },
	{ "0e", "Intelligent controller" },
	{ "0f", "Satellite communications controller" },
	{ "10", "Encryption controller" },
	{ "11", "Signal processing controller" },
	{ "12", "Processing accelerators" },
	{ "13", "Non-Essential Instrumentation" },
	{ NULL, NULL },
};

/* USB class codes (usb.org's defined class codes). */
static const struct class_name usb_classes[] = {
	{ "01", "Audio" },
	{ "02", "Communications" },
	{ "03", "Human Interface Device" },
	{ "05", "Physical Interface Device" },
	{ "06", "Imaging" },
	{ "07", "Printer" },
	{ "08", "Mass Storage" },
	{ "09", "Hub" },
	{ "0a", "CDC Data" },
	{ "0b", "Chip/SmartCard" },
	{ "0d", "Content Security" },
	{ "0e", "Video" },
	{ "0f", "Personal Healthcare" },
	{ "10", "Audio/Video" },
	{ "11", "Billboard" },
	{ "dc", "Diagnostic" },
	{ "e0", "Wireless" },
	{ "ef", "Miscellaneous Device" },
	{ "fe", "Application Specific Interface" },
	{ "ff", "Vendor Specific Class" },
	{ NULL, NULL },
};

static void class_builtin(const struct class_name *t, const char *cls,
			  char *out, size_t size)
{
	for (int len = 4; len >= 2; len -= 2) {
		if (strlen(cls) < (size_t)len)
			continue;
		for (int i = 0; t[i].code; i++)
			if (strlen(t[i].code) == (size_t)len &&
			    !strncmp(t[i].code, cls, (size_t)len)) {
				snprintf(out, size, "%s", t[i].name);
				return;
			}
	}
}

/* ------------------------------------------------------------ reading */

static struct pm_tunable *add(struct pm_tunables *l, enum pm_tune_kind k)
{
	struct pm_tunable *t;

	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 32;
		void *v = realloc(l->v, (size_t)cap * sizeof(*l->v));

		if (!v)
			return NULL;
		l->v = v;
		l->cap = cap;
	}
	t = &l->v[l->n++];
	memset(t, 0, sizeof(*t));
	t->kind = k;
	t->good_value = good_values[k];
	t->autosuspend_delay_ms = PM_UNKNOWN_S64;
	t->state = PM_TUNE_UNKNOWN;
	return t;
}

/* A short attribute below dfd, "" when it cannot be read. */
static void get(struct pm_ctx *ctx, int dfd, const char *name, char *buf,
		size_t size)
{
	if (pm_attr_readat(ctx, dfd, name, buf, size) < 0)
		buf[0] = '\0';
}

/* An id as the ids files have it: "0x8086" gives "8086". */
static void id_of(struct pm_ctx *ctx, int dfd, const char *name, char *out,
		  size_t size)
{
	char buf[32], *p = buf;

	get(ctx, dfd, name, buf, sizeof(buf));
	if (p[0] == '0' && p[1] == 'x')
		p += 2;
	for (char *q = p; *q; q++)
		*q = (char)tolower((unsigned char)*q);
	if (strlen(p) < size)
		memcpy(out, p, strlen(p) + 1);
}

/*
 * The device's power/control into t: false when it has none (ENOENT),
 * so it is not a tunable.
 */
static bool control(struct pm_ctx *ctx, int dfd, struct pm_tunable *t)
{
	ssize_t n = pm_attr_readat(ctx, dfd, "power/control", t->value,
				   sizeof(t->value));

	if (n == -ENOENT)
		return false;
	if (n < 0)
		t->value[0] = '\0';
	t->state = pm_tune_judge(t->kind, t->value);
	return true;
}

/* "Vendor Device" from the ids, else the vendor and the id. */
static void ids_name(const char *ids, struct pm_tunable *t)
{
	char v[80], d[128];

	if (!pm_ids_vendor(ids, t->vendor_id, v, sizeof(v)))
		return;
	if (pm_ids_device(ids, t->vendor_id, t->device_id, d, sizeof(d)))
		snprintf(t->name, sizeof(t->name), "%s %s", v, d);
	else
		snprintf(t->name, sizeof(t->name), "%s device %s", v,
			 t->device_id);
}

static int read_pci(struct pm_ctx *ctx, const char *ids,
		    struct pm_tunables *l)
{
	char **names, path[PM_PATH_MAX], cls[16];
	int n = pm_list_dir(ctx, "/sys/bus/pci/devices", &names), rc = 0;

	for (int i = 0; i < n && !rc; i++) {
		struct pm_tunable *t = add(l, PM_TUNE_RUNTIME_PM);
		int dfd;

		if (!t) {
			rc = -ENOMEM;
			break;
		}
		snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s",
			 names[i]);
		dfd = pm_open_dir(ctx, path);
		if (dfd < 0 || !control(ctx, dfd, t)) {
			l->n--;
			if (dfd >= 0)
				close(dfd);
			continue;
		}
		snprintf(t->path, sizeof(t->path),
			 "/sys/bus/pci/devices/%s/power/control", names[i]);
		snprintf(t->device, sizeof(t->device), "%s", names[i]);
		id_of(ctx, dfd, "vendor", t->vendor_id, sizeof(t->vendor_id));
		id_of(ctx, dfd, "device", t->device_id, sizeof(t->device_id));
		get(ctx, dfd, "class", cls, sizeof(cls));
		snprintf(t->class_code, sizeof(t->class_code), "%s", cls);
		/* "0x0c0330": the class and subclass, "0c03" */
		if (strlen(cls) == 8 && !strncmp(cls, "0x", 2)) {
			cls[6] = '\0';
			for (char *q = cls; *q; q++)
				*q = (char)tolower((unsigned char)*q);
			if (!pm_ids_class(ids, cls + 2, t->class_name,
					  sizeof(t->class_name)))
				class_builtin(pci_classes, cls + 2,
					      t->class_name,
					      sizeof(t->class_name));
		}
		pm_link_base(dfd, "driver", t->driver, sizeof(t->driver));
		ids_name(ids, t);
		close(dfd);
	}
	if (n > 0)
		pm_list_free(names, n);
	return rc;
}

/*
 * The device's interfaces ("1-2:1.0"): their classes, space-separated,
 * into t->if_classes, and false when one says it cannot autosuspend.
 */
static bool usb_interfaces(struct pm_ctx *ctx, const char *path,
			   struct pm_tunable *t)
{
	char **names, buf[16];
	int n = pm_list_dir(ctx, path, &names);
	size_t len = 0;
	bool ok = true;

	for (int i = 0; i < n && ok; i++) {
		if (!isdigit((unsigned char)names[i][0]) ||
		    !strchr(names[i], ':'))
			continue;
		if (pm_attr_readf(ctx, buf, sizeof(buf),
				  "%s/%s/supports_autosuspend", path,
				  names[i]) >= 0 && !strcmp(buf, "0"))
			ok = false;
		if (pm_attr_readf(ctx, buf, sizeof(buf),
				  "%s/%s/bInterfaceClass", path,
				  names[i]) < 0 || strlen(buf) != 2 ||
		    strstr(t->if_classes, buf))
			continue;
		if (len + 4 > sizeof(t->if_classes))
			break;
		len += (size_t)snprintf(t->if_classes + len,
					sizeof(t->if_classes) - len, "%s%s",
					len ? " " : "", buf);
	}
	if (n > 0)
		pm_list_free(names, n);
	return ok;
}

/* The USB device's name: the ids, else its own strings. */
static void usb_name(struct pm_ctx *ctx, int dfd, const char *ids,
		     struct pm_tunable *t)
{
	char m[64], p[80];

	ids_name(ids, t);
	if (t->name[0])
		return;
	get(ctx, dfd, "manufacturer", m, sizeof(m));
	get(ctx, dfd, "product", p, sizeof(p));
	snprintf(t->name, sizeof(t->name), "%s%s%s", m, *m && *p ? " " : "",
		 p);
}

/* The device's class, or its first interface's when it is 00 or ef. */
static void usb_class(struct pm_ctx *ctx, int dfd, const char *ids,
		      struct pm_tunable *t)
{
	char cls[16];

	get(ctx, dfd, "bDeviceClass", cls, sizeof(cls));
	/* 00: by interface; ef with interfaces: an association of them */
	if ((!strcmp(cls, "00") || !strcmp(cls, "ef") || !cls[0]) &&
	    t->if_classes[0])
		snprintf(cls, sizeof(cls), "%.2s", t->if_classes);
	if (strlen(cls) != 2)
		return;
	snprintf(t->class_code, sizeof(t->class_code), "%s", cls);
	if (!pm_ids_class(ids, cls, t->class_name, sizeof(t->class_name)))
		class_builtin(usb_classes, cls, t->class_name,
			      sizeof(t->class_name));
}

static int read_usb(struct pm_ctx *ctx, const char *ids,
		    struct pm_tunables *l)
{
	char **names, path[PM_PATH_MAX];
	int n = pm_list_dir(ctx, "/sys/bus/usb/devices", &names), rc = 0;

	for (int i = 0; i < n; i++) {
		struct pm_tunable *t;
		int dfd;

		if (strchr(names[i], ':'))
			continue;	/* an interface */
		t = add(l, PM_TUNE_USB_AUTOSUSPEND);
		if (!t) {
			rc = -ENOMEM;
			break;
		}
		snprintf(path, sizeof(path), "/sys/bus/usb/devices/%s",
			 names[i]);
		dfd = pm_open_dir(ctx, path);
		if (dfd < 0 || !control(ctx, dfd, t) ||
		    !usb_interfaces(ctx, path, t)) {
			l->n--;
			if (dfd >= 0)
				close(dfd);
			continue;
		}
		snprintf(t->path, sizeof(t->path),
			 "/sys/bus/usb/devices/%s/power/control", names[i]);
		snprintf(t->device, sizeof(t->device), "%s", names[i]);
		id_of(ctx, dfd, "idVendor", t->vendor_id,
		      sizeof(t->vendor_id));
		id_of(ctx, dfd, "idProduct", t->device_id,
		      sizeof(t->device_id));
		if (pm_attr_readat_s64(ctx, dfd, "power/autosuspend_delay_ms",
				       &t->autosuspend_delay_ms) < 0)
			t->autosuspend_delay_ms = PM_UNKNOWN_S64;
		usb_class(ctx, dfd, ids, t);
		usb_name(ctx, dfd, ids, t);
		pm_link_base(dfd, "driver", t->driver, sizeof(t->driver));
		close(dfd);
	}
	if (n > 0)
		pm_list_free(names, n);
	return rc;
}

static int read_sata(struct pm_ctx *ctx, struct pm_tunables *l)
{
	char **names;
	int n = pm_list_dir(ctx, "/sys/class/scsi_host", &names), rc = 0;

	for (int i = 0; i < n; i++) {
		struct pm_tunable *t = add(l, PM_TUNE_SATA_LINK);
		ssize_t r;

		if (!t) {
			rc = -ENOMEM;
			break;
		}
		snprintf(t->path, sizeof(t->path),
			 "/sys/class/scsi_host/%s/link_power_management_policy",
			 names[i]);
		r = pm_attr_read(ctx, t->path, t->value, sizeof(t->value));
		if (r == -ENOENT) {
			l->n--;
			continue;
		}
		if (r < 0)
			t->value[0] = '\0';
		t->state = pm_tune_judge(t->kind, t->value);
		snprintf(t->device, sizeof(t->device), "%s", names[i]);
		if (pm_attr_readf(ctx, t->driver, sizeof(t->driver),
				  "/sys/class/scsi_host/%s/proc_name",
				  names[i]) < 0)
			t->driver[0] = '\0';
	}
	if (n > 0)
		pm_list_free(names, n);
	return rc;
}

/* One file of the kernel's or a module's: none when it is not there. */
static int read_global(struct pm_ctx *ctx, enum pm_tune_kind k,
		       struct pm_tunables *l)
{
	struct pm_tunable *t = add(l, k);
	char buf[256];
	ssize_t r;

	if (!t)
		return -ENOMEM;
	snprintf(t->path, sizeof(t->path), "%s", global_files[k]);
	r = pm_attr_read(ctx, t->path, buf, sizeof(buf));
	if (r == -ENOENT) {
		l->n--;
		return 0;
	}
	if (r < 0 || pm_bracket_choice(buf, t->value, sizeof(t->value)) < 0)
		t->value[0] = '\0';
	t->state = pm_tune_judge(k, t->value);
	return 0;
}

/*
 * The wireless interfaces nl80211 gives a power save for.  One that
 * fails otherwise is shown unknown; nl80211 failing as a whole (a test
 * peer that answers nonsense) leaves Wi-Fi out, as a file that cannot
 * be listed does.
 */
static int read_wifi(struct pm_ctx *ctx, struct pm_tunables *l)
{
	struct pm_wifi_if *v;
	int n = pm_wifi_list(ctx, &v);

	for (int i = 0; i < n; i++) {
		struct pm_tunable *t = add(l, PM_TUNE_WIFI_PS);
		char dev[PM_PATH_MAX];
		int dfd;

		if (!t) {
			free(v);
			return -ENOMEM;
		}
		pm_wifi_ps_name(v[i].name, t->path, sizeof(t->path));
		snprintf(t->device, sizeof(t->device), "%s", v[i].name);
		snprintf(t->value, sizeof(t->value), "%s",
			 v[i].ps < 0 ? "" : v[i].ps ? "on" : "off");
		t->state = pm_tune_judge(t->kind, t->value);
		snprintf(dev, sizeof(dev), "/sys/class/net/%s/device",
			 v[i].name);
		dfd = pm_open_dir(ctx, dev);
		if (dfd >= 0) {
			pm_link_base(dfd, "driver", t->driver,
				     sizeof(t->driver));
			close(dfd);
		}
	}
	if (n > 0)
		free(v);
	return n == -ENOMEM ? n : 0;
}

/* pci.ids or usb.ids under the root; NULL when there is none. */
static char *ids_read(struct pm_ctx *ctx, const char *a, const char *b)
{
	char *buf = NULL;

	if (pm_file_read(ctx, a, &buf) >= 0)
		return buf;
	free(buf);
	buf = NULL;
	if (b && pm_file_read(ctx, b, &buf) >= 0)
		return buf;
	free(buf);
	return NULL;
}

int pm_tunables_read(struct pm_ctx *ctx, struct pm_tunables *list)
{
	char *pci = ids_read(ctx, "/usr/share/misc/pci.ids", NULL);
	char *usb = ids_read(ctx, "/usr/share/misc/usb.ids",
			     "/var/lib/usbutils/usb.ids");
	int start = list->n, rc;

	rc = read_pci(ctx, pci, list);
	if (!rc)
		rc = read_usb(ctx, usb, list);
	if (!rc)
		rc = read_sata(ctx, list);
	for (int k = PM_TUNE_PCIE_ASPM; k <= PM_TUNE_LAPTOP_MODE && !rc; k++)
		rc = read_global(ctx, (enum pm_tune_kind)k, list);
	if (!rc)
		rc = read_wifi(ctx, list);
	free(pci);
	free(usb);
	pm_err_clear(ctx);
	return rc < 0 ? rc : list->n - start;
}

int pm_tune_globals_read(struct pm_ctx *ctx, struct pm_tunables *list)
{
	int start = list->n, rc = read_sata(ctx, list);

	for (int k = PM_TUNE_PCIE_ASPM; k <= PM_TUNE_LAPTOP_MODE && !rc; k++)
		rc = read_global(ctx, (enum pm_tune_kind)k, list);
	if (!rc)
		rc = read_wifi(ctx, list);
	pm_err_clear(ctx);
	return rc < 0 ? rc : list->n - start;
}

int pm_device_tunables_read(struct pm_ctx *ctx, struct pm_tunables *list)
{
	int start = list->n, rc = read_pci(ctx, NULL, list);

	if (!rc)
		rc = read_usb(ctx, NULL, list);
	pm_err_clear(ctx);
	return rc < 0 ? rc : list->n - start;
}

int pm_tunable_device(struct pm_ctx *ctx, const struct pm_tunable *t,
		      char *out, size_t size)
{
	static const char tail[] = "/power/control";
	char dir[PM_PATH_MAX];
	size_t n = strlen(t->path);

	if ((t->kind != PM_TUNE_RUNTIME_PM &&
	     t->kind != PM_TUNE_USB_AUTOSUSPEND) ||
	    n <= sizeof(tail) - 1 || strcmp(t->path + n - (sizeof(tail) - 1),
					    tail))
		return -EINVAL;
	snprintf(dir, sizeof(dir), "%.*s", (int)(n - (sizeof(tail) - 1)),
		 t->path);
	return pm_device_resolve(ctx, dir, out, size);
}

int pm_usb_tunables_read(struct pm_ctx *ctx, struct pm_tunables *list)
{
	int start = list->n, rc = read_usb(ctx, NULL, list);

	pm_err_clear(ctx);
	return rc < 0 ? rc : list->n - start;
}

void pm_tunables_free(struct pm_tunables *list)
{
	free(list->v);
	list->v = NULL;
	list->n = list->cap = 0;
}
