// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/tune.c: what is good, the bracketed choice, names
 * and classes from pci.ids and usb.ids text, and the tunables read from
 * a small system root (PCI, USB with an interface that cannot
 * autosuspend, SATA hosts, module parameters and sysctls).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

static char root[] = "/tmp/pmtools-test-tune.XXXXXX";

/* root/rel -> target, its folders made. */
static void tree_link(const char *rel, const char *target)
{
	char path[PM_PATH_MAX];

	tree_put(root, rel, "");
	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
	if (symlink(target, path) < 0) {
		perror(path);
		exit(99);
	}
}

static void test_judge(void)
{
	static const struct {
		enum pm_tune_kind k;
		const char *v;
		enum pm_tune_state want;
	} c[] = {
		{ PM_TUNE_RUNTIME_PM, "auto", PM_TUNE_GOOD },
		{ PM_TUNE_RUNTIME_PM, "on", PM_TUNE_BAD },
		{ PM_TUNE_USB_AUTOSUSPEND, "on", PM_TUNE_BAD },
		{ PM_TUNE_SATA_LINK, "med_power_with_dipm", PM_TUNE_GOOD },
		{ PM_TUNE_SATA_LINK, "min_power", PM_TUNE_GOOD },
		{ PM_TUNE_SATA_LINK, "min_power_with_partial", PM_TUNE_GOOD },
		{ PM_TUNE_SATA_LINK, "medium_power", PM_TUNE_BAD },
		{ PM_TUNE_SATA_LINK, "max_performance", PM_TUNE_BAD },
		{ PM_TUNE_SATA_LINK, "keep_firmware_settings", PM_TUNE_BAD },
		{ PM_TUNE_PCIE_ASPM, "powersupersave", PM_TUNE_GOOD },
		{ PM_TUNE_PCIE_ASPM, "default", PM_TUNE_BAD },
		{ PM_TUNE_AUDIO_POWER_SAVE, "0", PM_TUNE_BAD },
		{ PM_TUNE_AUDIO_POWER_SAVE, "10", PM_TUNE_GOOD },
		{ PM_TUNE_AUDIO_POWER_SAVE, "-1", PM_TUNE_UNKNOWN },
		{ PM_TUNE_AUDIO_CONTROLLER, "Y", PM_TUNE_GOOD },
		{ PM_TUNE_AUDIO_CONTROLLER, "N", PM_TUNE_BAD },
		{ PM_TUNE_NMI_WATCHDOG, "1", PM_TUNE_BAD },
		{ PM_TUNE_NMI_WATCHDOG, "0", PM_TUNE_GOOD },
		{ PM_TUNE_DIRTY_WRITEBACK, "500", PM_TUNE_BAD },
		{ PM_TUNE_DIRTY_WRITEBACK, "0", PM_TUNE_BAD },
		{ PM_TUNE_DIRTY_WRITEBACK, "1500", PM_TUNE_GOOD },
		{ PM_TUNE_DIRTY_WRITEBACK, "1500x", PM_TUNE_UNKNOWN },
		{ PM_TUNE_LAPTOP_MODE, "0", PM_TUNE_BAD },
		{ PM_TUNE_LAPTOP_MODE, "5", PM_TUNE_GOOD },
		{ PM_TUNE_RUNTIME_PM, "", PM_TUNE_UNKNOWN },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		is_int(pm_tune_judge(c[i].k, c[i].v), c[i].want,
		       "judge: %s = '%s'", pm_tune_kind_name(c[i].k), c[i].v);
	for (int k = 0; k < PM_TUNE_NKINDS; k++)
		is_int(pm_tune_judge((enum pm_tune_kind)k,
				     pm_tune_good_value((enum pm_tune_kind)k)),
		       PM_TUNE_GOOD, "the good value of %s is good",
		       pm_tune_kind_name((enum pm_tune_kind)k));
}

static void test_values(void)
{
	static const struct {
		enum pm_tune_kind k;
		const char *in, *out;	/* out NULL: refused */
	} c[] = {
		{ PM_TUNE_USB_AUTOSUSPEND, "on", "auto" },
		{ PM_TUNE_USB_AUTOSUSPEND, "off", "on" },
		{ PM_TUNE_USB_AUTOSUSPEND, "auto", NULL },
		{ PM_TUNE_RUNTIME_PM, "auto", "auto" },
		{ PM_TUNE_RUNTIME_PM, "off", NULL },
		{ PM_TUNE_SATA_LINK, "min_power_with_partial",
		  "min_power_with_partial" },
		{ PM_TUNE_SATA_LINK, "min_power ", NULL },
		{ PM_TUNE_PCIE_ASPM, "powersupersave", "powersupersave" },
		{ PM_TUNE_PCIE_ASPM, "[powersave]", NULL },
		{ PM_TUNE_AUDIO_POWER_SAVE, "3600", "3600" },
		{ PM_TUNE_AUDIO_POWER_SAVE, "3601", NULL },
		{ PM_TUNE_AUDIO_POWER_SAVE, "-1", NULL },
		{ PM_TUNE_AUDIO_CONTROLLER, "yes", "Y" },
		{ PM_TUNE_AUDIO_CONTROLLER, "Y", "Y" },
		{ PM_TUNE_AUDIO_CONTROLLER, "n", "N" },
		{ PM_TUNE_AUDIO_CONTROLLER, "YN", NULL },
		{ PM_TUNE_AUDIO_CONTROLLER, "0", "N" },
		{ PM_TUNE_NMI_WATCHDOG, "off", "0" },
		{ PM_TUNE_NMI_WATCHDOG, "2", NULL },
		{ PM_TUNE_DIRTY_WRITEBACK, "2147483647", "2147483647" },
		{ PM_TUNE_DIRTY_WRITEBACK, "2147483648", NULL },
		{ PM_TUNE_DIRTY_WRITEBACK, "015", "15" },
		{ PM_TUNE_LAPTOP_MODE, "", NULL },
	};
	char out[32], codes[64];
	const char *bad;
	size_t n;
	struct pm_tunable t = { .class_code = "ef", .if_classes = "0e 01" };

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		int r = pm_tune_value_parse(c[i].k, c[i].in, out,
					    sizeof(out));

		if (c[i].out)
			ok(r == 0 && !strcmp(out, c[i].out),
			   "value: %s '%s' is '%s'", pm_tune_kind_name(c[i].k),
			   c[i].in, c[i].out);
		else
			is_int(r, -EINVAL, "value: %s '%s' refused",
			       pm_tune_kind_name(c[i].k), c[i].in);
	}
	is_int(pm_sysctl_kind("vm/laptop_mode"), PM_TUNE_LAPTOP_MODE,
	       "sysctl: vm/laptop_mode");
	is_int(pm_sysctl_kind("kernel.nmi_watchdog"), PM_TUNE_NMI_WATCHDOG,
	       "sysctl: kernel.nmi_watchdog");
	is_int(pm_sysctl_kind("vm.swappiness"), -1, "sysctl: not ours");
	is_int(pm_usb_exclude_parse("input, audio comm,e0", codes,
				    sizeof(codes), &bad, &n), 0,
	       "exclude: words");
	is_str(codes, "03 01 02 0a e0", "exclude: their codes");
	is_int(pm_usb_exclude_parse("none", codes, sizeof(codes), &bad, &n),
	       0, "exclude: none");
	is_str(codes, "", "exclude: none is no code");
	ok(pm_usb_exclude_parse("input,keyboard", codes, sizeof(codes), &bad,
				&n) == -EINVAL && n == 8 &&
	   !strncmp(bad, "keyboard", n), "exclude: the bad word named");
	ok(pm_usb_exclude_parse("E0", codes, sizeof(codes), &bad, &n) ==
	   -EINVAL, "exclude: hex is lower case");
	ok(pm_usb_exclude_parse(" , ", codes, sizeof(codes), &bad, &n) ==
	   -EINVAL && !bad, "exclude: nothing named");
	ok(pm_usb_exclude_parse("none,video", codes, sizeof(codes), &bad,
				&n) == -EINVAL, "exclude: none with a class");
	ok(pm_usb_excluded(&t, "01"), "excluded: by an interface");
	ok(pm_usb_excluded(&t, "03 ef"), "excluded: by the device's class");
	ok(!pm_usb_excluded(&t, "03 e0"), "excluded: not");
	ok(!pm_usb_excluded(&t, ""), "excluded: nothing excluded");
}

/* [wifi] exclude: interface names as the kernel takes them. */
static void test_ifnames(void)
{
	static const char *const bad_words[] = {
		".", "..", "a/b", "wl:1", "wlp0s20f3abcdefg", "w\x7f", "w\xc3\xa9",
	};
	char names[64];
	const char *bad;
	size_t n;

	is_int(pm_ifname_list_parse("wlan0, wlx00c0ca\twlp0s20f3abcdef",
				    names, sizeof(names), &bad, &n),
	       0, "ifnames: commas and blanks, 15 bytes");
	is_str(names, "wlan0 wlx00c0ca wlp0s20f3abcdef", "ifnames: the list");
	is_int(pm_ifname_list_parse("none", names, sizeof(names), &bad, &n),
	       0, "ifnames: none");
	is_str(names, "", "ifnames: none is no name");
	is_int(pm_ifname_list_parse("...", names, sizeof(names), &bad, &n),
	       0, "ifnames: '...' is a name");
	for (size_t i = 0; i < sizeof(bad_words) / sizeof(bad_words[0]);
	     i++) {
		char in[40];

		snprintf(in, sizeof(in), "wlan0,%s", bad_words[i]);
		ok(pm_ifname_list_parse(in, names, sizeof(names), &bad, &n) ==
			   -EINVAL &&
			   n == strlen(bad_words[i]) &&
			   !strncmp(bad, bad_words[i], n),
		   "ifnames: '%s' refused and named", bad_words[i]);
	}
	ok(pm_ifname_list_parse(" ,", names, sizeof(names), &bad, &n) ==
		   -EINVAL && !bad,
	   "ifnames: nothing named");
	ok(pm_ifname_list_parse("wlan0 none", names, sizeof(names), &bad,
				&n) == -EINVAL && n == 4,
	   "ifnames: none with a name");
	ok(pm_ifname_list_parse("aaaaaaaaaaaaaaa bbbbbbbbbbbbbbb "
				"ccccccccccccccc ddddddddddddddd e",
				names, sizeof(names), &bad, &n) == -EINVAL &&
		   !strncmp(bad, "e", 2),
	   "ifnames: a list longer than the room is refused, not cut");
}

/* [runtime_pm]'s classes and drivers, and their defaults. */
static void test_rpm_lists(void)
{
	char out[128];
	const char *bad;
	size_t n;

	is_int(pm_pci_class_parse("audio,input 0x0c03 02 010802", false, out,
				  sizeof(out), &bad, &n), 0, "class: words");
	is_str(out, "0401 0403 09 0c03 02 010802", "class: their codes");
	is_int(pm_pci_class_parse(PM_RPM_EXCLUDE_CLASS, true, out,
				  sizeof(out), &bad, &n), 0,
	       "class: the default");
	is_str(out, "0401 0403 09", "class: the default's codes");
	is_int(pm_pci_class_parse("none", true, out, sizeof(out), &bad, &n), 0,
	       "class: none");
	is_str(out, "", "class: none is no code");
	ok(pm_pci_class_parse("none", false, out, sizeof(out), &bad, &n) ==
	   -EINVAL && n == 4, "class: none only for an exclusion");
	ok(pm_pci_class_parse("audio,none", true, out, sizeof(out), &bad,
			      &n) == -EINVAL && !strncmp(bad, "none", n),
	   "class: none with a class");
	ok(pm_pci_class_parse("04 0C03", false, out, sizeof(out), &bad, &n) ==
	   -EINVAL && n == 4 && !strncmp(bad, "0C03", 4),
	   "class: hex is lower case, the bad word named");
	ok(pm_pci_class_parse("040", false, out, sizeof(out), &bad, &n) ==
	   -EINVAL, "class: 3 digits refused");
	ok(pm_pci_class_parse("0x04038000", false, out, sizeof(out), &bad,
			      &n) == -EINVAL, "class: 8 digits refused");
	ok(pm_pci_class_parse(" ,", false, out, sizeof(out), &bad, &n) ==
	   -EINVAL && !bad, "class: nothing named");
	ok(pm_pci_class_in("0x040380", "0401 0403 09"), "in: HDA is audio");
	ok(pm_pci_class_in("0x090000", "0401 0403 09"), "in: by base class");
	ok(!pm_pci_class_in("0x040100", "0403"), "in: not by subclass");
	ok(pm_pci_class_in("0x0c0330", "0c0330"), "in: all six digits");
	ok(!pm_pci_class_in("0x0c0330", ""), "in: nothing");
	ok(!pm_pci_class_in("", "04"), "in: no class file");
	ok(!pm_pci_class_in("0x04038", "04"), "in: not the kernel's form");
	is_int(pm_driver_list_parse(PM_RPM_EXCLUDE_DRIVER, true, out,
				    sizeof(out), &bad, &n), 0,
	       "driver: the default");
	is_str(out, "mei_me nouveau radeon xhci_hcd",
	       "driver: TLP's RUNTIME_PM_DRIVER_DENYLIST");
	is_int(pm_driver_list_parse("i2c-hid,nvme", false, out, sizeof(out),
				    &bad, &n), 0, "driver: '-' and commas");
	is_str(out, "i2c-hid nvme", "driver: blank-separated");
	ok(pm_driver_list_parse("nvme a/b", false, out, sizeof(out), &bad,
				&n) == -EINVAL && n == 3 &&
	   !strncmp(bad, "a/b", 3), "driver: a '/' refused, named");
	ok(pm_driver_list_parse("none nvme", true, out, sizeof(out), &bad,
				&n) == -EINVAL, "driver: none with a driver");
	ok(pm_word_in(out, "nvme") && !pm_word_in(out, "nvm"),
	   "driver: whole words");
}

static void test_bracket(void)
{
	char b[16];

	is_int(pm_bracket_choice("[default] performance powersave", b,
				 sizeof(b)), 0, "bracket: first");
	is_str(b, "default", "bracket: default");
	is_int(pm_bracket_choice("default performance [powersupersave]", b,
				 sizeof(b)), 0, "bracket: last");
	is_str(b, "powersupersave", "bracket: powersupersave");
	is_int(pm_bracket_choice("5", b, sizeof(b)), 0, "bracket: none");
	is_str(b, "5", "bracket: the text whole");
	is_int(pm_bracket_choice("[default perf", b, sizeof(b)), -EINVAL,
	       "bracket: unclosed");
	is_int(pm_bracket_choice("[0123456789abcdefg]", b, sizeof(b)), -EINVAL,
	       "bracket: too long");
}

static const char pci_ids[] =
	"# pci.ids\n"
	"#\tabcd  a comment\n"
	"8086  Intel Corporation\n"
	"\t0d57  Host bridge of something\n"
	"\ta0ed  Tiger Lake-LP USB 3.2 Gen 2x1 xHCI Host Controller\n"
	"\t\t17aa 22d8  ThinkPad X1 Carbon 9th Gen\n"
	"\ta0f0  Wi-Fi 6 AX201\n"
	"80ee  InnoTek\n"
	"\ta0f0  Not Intel's\n"
	"C 0c  Serial bus controller\n"
	"\t03  USB controller\n"
	"\t\t30  XHCI\n"
	"\t05  SMBus\n"
	"C 0d  Wireless controller\n";

static const char usb_ids[] =
	"046d  Logitech, Inc.\n"
	"\tc52b  Unifying Receiver\n"
	"C 03  Human Interface Device\n"
	"\t01  Boot Interface Subclass\n"
	"C e0  Wireless\n"
	"\t01  Radio Frequency\n"
	"HID 00  Undefined\n";

static void test_ids(void)
{
	char b[96];

	ok(pm_ids_vendor(pci_ids, "8086", b, sizeof(b)), "ids: vendor");
	is_str(b, "Intel Corporation", "ids: vendor name");
	ok(pm_ids_device(pci_ids, "8086", "a0f0", b, sizeof(b)),
	   "ids: device");
	is_str(b, "Wi-Fi 6 AX201", "ids: the vendor's own device");
	ok(pm_ids_device(pci_ids, "80ee", "a0f0", b, sizeof(b)) &&
	   !strcmp(b, "Not Intel's"), "ids: the same id of another vendor");
	ok(!pm_ids_device(pci_ids, "8086", "22d8", b, sizeof(b)),
	   "ids: a subsystem line is no device");
	ok(!pm_ids_device(pci_ids, "8086", "abcd", b, sizeof(b)),
	   "ids: a comment is no device");
	ok(!pm_ids_vendor(pci_ids, "8087", b, sizeof(b)), "ids: no vendor");
	ok(!pm_ids_vendor(pci_ids, "0x8086", b, sizeof(b)),
	   "ids: 0x8086 is no id");
	ok(!pm_ids_vendor(NULL, "8086", b, sizeof(b)), "ids: none");
	ok(pm_ids_class(pci_ids, "0c05", b, sizeof(b)), "ids: subclass");
	is_str(b, "SMBus", "ids: subclass name");
	ok(pm_ids_class(pci_ids, "0c80", b, sizeof(b)) &&
	   !strcmp(b, "Serial bus controller"), "ids: the class alone");
	ok(pm_ids_class(usb_ids, "e0", b, sizeof(b)) &&
	   !strcmp(b, "Wireless"), "ids: a USB class");
	ok(pm_ids_device(usb_ids, "046d", "c52b", b, sizeof(b)) &&
	   !strcmp(b, "Unifying Receiver"), "ids: a USB device");
	ok(!pm_ids_class(usb_ids, "00", b, sizeof(b)),
	   "ids: HID 00 is no class");
	ok(pm_ids_device(pci_ids, "8086", "a0ed", b, 10) &&
	   !strcmp(b, "Tiger Lak"), "ids: a name cut to the buffer");
}

static void build_tree(void)
{
	const char *x = "sys/devices/pci0000:00/0000:00:14.0";
	const char *u = "sys/devices/pci0000:00/0000:00:14.0/usb1/1-3";
	const char *k = "sys/devices/pci0000:00/0000:00:14.0/usb1/1-4";
	char p[PM_PATH_MAX];

	snprintf(p, sizeof(p), "%s/power/control", x);
	tree_put(root, p, "on\n");
	snprintf(p, sizeof(p), "%s/vendor", x);
	tree_put(root, p, "0x8086\n");
	snprintf(p, sizeof(p), "%s/device", x);
	tree_put(root, p, "0xa0ed\n");
	snprintf(p, sizeof(p), "%s/class", x);
	tree_put(root, p, "0x0c0330\n");
	tree_put(root, "sys/bus/pci/drivers/xhci_hcd/bind", "");
	snprintf(p, sizeof(p), "%s/driver", x);
	tree_link(p, "../../../bus/pci/drivers/xhci_hcd");
	tree_link("sys/bus/pci/devices/0000:00:14.0",
		  "../../../devices/pci0000:00/0000:00:14.0");
	/* A PCI device without runtime PM is no tunable. */
	tree_put(root, "sys/devices/pci0000:00/0000:00:1f.0/vendor",
		 "0x8086\n");
	tree_link("sys/bus/pci/devices/0000:00:1f.0",
		  "../../../devices/pci0000:00/0000:00:1f.0");
	/* A Bluetooth adapter (class e0 on its interface). */
	snprintf(p, sizeof(p), "%s/power/control", u);
	tree_put(root, p, "auto\n");
	snprintf(p, sizeof(p), "%s/power/autosuspend_delay_ms", u);
	tree_put(root, p, "2000\n");
	snprintf(p, sizeof(p), "%s/idVendor", u);
	tree_put(root, p, "8087\n");
	snprintf(p, sizeof(p), "%s/idProduct", u);
	tree_put(root, p, "0026\n");
	snprintf(p, sizeof(p), "%s/bDeviceClass", u);
	tree_put(root, p, "e0\n");
	snprintf(p, sizeof(p), "%s/product", u);
	tree_put(root, p, "AX201 Bluetooth\n");
	snprintf(p, sizeof(p), "%s/1-3:1.0/bInterfaceClass", u);
	tree_put(root, p, "e0\n");
	snprintf(p, sizeof(p), "%s/1-3:1.1/bInterfaceClass", u);
	tree_put(root, p, "e0\n");
	tree_link("sys/bus/usb/devices/1-3",
		  "../../../devices/pci0000:00/0000:00:14.0/usb1/1-3");
	tree_link("sys/bus/usb/devices/1-3:1.0",
		  "../../../devices/pci0000:00/0000:00:14.0/usb1/1-3/1-3:1.0");
	/* A keyboard whose driver says it cannot autosuspend: left out. */
	snprintf(p, sizeof(p), "%s/power/control", k);
	tree_put(root, p, "on\n");
	snprintf(p, sizeof(p), "%s/1-4:1.0/supports_autosuspend", k);
	tree_put(root, p, "0\n");
	tree_link("sys/bus/usb/devices/1-4",
		  "../../../devices/pci0000:00/0000:00:14.0/usb1/1-4");
	/* Two SATA hosts and one without link power (usb-storage). */
	tree_put(root, "sys/class/scsi_host/host0/"
		 "link_power_management_policy", "max_performance\n");
	tree_put(root, "sys/class/scsi_host/host0/proc_name", "ahci\n");
	tree_put(root, "sys/class/scsi_host/host1/"
		 "link_power_management_policy", "med_power_with_dipm\n");
	tree_put(root, "sys/class/scsi_host/host2/proc_name",
		 "usb-storage\n");
	tree_put(root, "sys/module/pcie_aspm/parameters/policy",
		 "[default] performance powersave powersupersave \n");
	tree_put(root, "sys/module/snd_hda_intel/parameters/power_save",
		 "0\n");
	tree_put(root, "proc/sys/kernel/nmi_watchdog", "1\n");
	tree_put(root, "proc/sys/vm/dirty_writeback_centisecs", "1500\n");
	tree_put(root, "usr/share/misc/pci.ids", pci_ids);
}

static void test_read(void)
{
	struct pm_tunables l = { 0 };
	struct pm_ctx ctx;
	const struct pm_tunable *t;

	if (pm_ctx_open(&ctx, root) < 0) {
		ok(false, "open the root");
		return;
	}
	is_int(pm_tunables_read(&ctx, &l), 8, "read: 8 tunables");
	if (l.n != 8)
		goto out;
	t = &l.v[0];
	is_int(t->kind, PM_TUNE_RUNTIME_PM, "pci: runtime_pm");
	is_str(t->path, "/sys/bus/pci/devices/0000:00:14.0/power/control",
	       "pci: path");
	is_str(t->value, "on", "pci: value");
	is_int(t->state, PM_TUNE_BAD, "pci: bad");
	is_str(t->name, "Intel Corporation Tiger Lake-LP USB 3.2 Gen 2x1 "
	       "xHCI Host Controller", "pci: name from pci.ids");
	is_str(t->class_code, "0x0c0330", "pci: class code");
	is_str(t->class_name, "USB controller", "pci: class from pci.ids");
	is_str(t->driver, "xhci_hcd", "pci: driver");
	t = &l.v[1];
	is_int(t->kind, PM_TUNE_USB_AUTOSUSPEND, "usb: autosuspend");
	is_str(t->device, "1-3", "usb: 1-3, not the keyboard 1-4");
	is_int(t->state, PM_TUNE_GOOD, "usb: good");
	is_int(t->autosuspend_delay_ms, 2000, "usb: delay");
	is_str(t->name, "AX201 Bluetooth", "usb: its own name, no usb.ids");
	is_str(t->class_name, "Wireless", "usb: class without usb.ids");
	is_str(t->if_classes, "e0", "usb: interface classes, once each");
	is_str(l.v[2].device, "host0", "sata: host0");
	is_str(l.v[2].driver, "ahci", "sata: driver");
	is_int(l.v[2].state, PM_TUNE_BAD, "sata: host0 bad");
	is_int(l.v[3].state, PM_TUNE_GOOD, "sata: host1 good");
	t = &l.v[4];
	is_int(t->kind, PM_TUNE_PCIE_ASPM, "aspm");
	is_str(t->value, "default", "aspm: the bracketed choice");
	is_int(l.v[5].kind, PM_TUNE_AUDIO_POWER_SAVE,
	       "audio: power_save, no power_save_controller");
	is_int(l.v[6].kind, PM_TUNE_NMI_WATCHDOG, "nmi_watchdog");
	is_int(l.v[7].kind, PM_TUNE_DIRTY_WRITEBACK, "dirty_writeback");
	is_int(l.v[7].state, PM_TUNE_GOOD, "dirty_writeback: 1500 good");
out:
	pm_tunables_free(&l);
	pm_ctx_close(&ctx);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	test_judge();
	test_values();
	test_rpm_lists();
	test_ifnames();
	test_bracket();
	test_ids();
	build_tree();
	test_read();
	tree_rm(root);
	return done_testing();
}
