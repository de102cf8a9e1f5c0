// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The machine under the kernel: a hypervisor that owns the real C- and
 * P-states (so that the guest has no cpuidle states or cpufreq of its
 * own), and s390's per-CPU idle statistics, its only idle accounting.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "virt.h"
#include "core.h"
#include "parse.h"
#include "cpuset.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define DMI_DIR "/sys/class/dmi/id"
/*
 * CPUs looked at for s390's idle statistics: a standby CPU of an LPAR has
 * none, the others all do; elsewhere no CPU has them.
 */
#define S390_PROBE_CPUS 8
#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

/*
 * DMI strings of virtual machines (sys_vendor or product_name, compared
 * at the start).  A vendor that also sells bare metal is listed with the
 * product that means a guest.
 */
static const struct {
	const char *vendor;	/* NULL: any */
	const char *product;	/* NULL: any */
	const char *name;
} dmi_vms[] = {
	{ "QEMU", NULL, "QEMU" },
	{ NULL, "KVM", "KVM" },
	{ "VMware", NULL, "VMware" },
	{ "innotek GmbH", NULL, "VirtualBox" },
	{ NULL, "VirtualBox", "VirtualBox" },
	{ "Microsoft Corporation", "Virtual Machine", "Hyper-V" },
	{ "Xen", NULL, "Xen" },
	{ "Google", "Google Compute Engine", "Google Compute Engine" },
	{ "Parallels", NULL, "Parallels" },
	{ "BHYVE", NULL, "bhyve" },
	{ "Bochs", NULL, "Bochs" },
	{ NULL, "OpenStack", "OpenStack" },
	{ "Apple Inc.", "Apple Virtualization", "Apple Virtualization" },
	{ "Alibaba Cloud", "Alibaba Cloud ECS", "Alibaba Cloud ECS" },
};

static bool starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

static void set(struct pm_hypervisor *h, const char *name, const char *src)
{
	if (!h->present)
		snprintf(h->source, sizeof(h->source), "%s", src);
	h->present = true;
	if (!h->name[0])
		snprintf(h->name, sizeof(h->name), "%s", name);
}

static void from_dmi(struct pm_ctx *ctx, struct pm_hypervisor *h)
{
	char vendor[128] = "", product[128] = "";

	if (pm_attr_read(ctx, DMI_DIR "/sys_vendor", vendor,
			 sizeof(vendor)) < 0)
		vendor[0] = '\0';
	if (pm_attr_read(ctx, DMI_DIR "/product_name", product,
			 sizeof(product)) < 0)
		product[0] = '\0';
	if (!vendor[0] && !product[0])
		return;
	for (size_t i = 0; i < N_ELEMS(dmi_vms); i++) {
		if (dmi_vms[i].vendor && !starts(vendor, dmi_vms[i].vendor))
			continue;
		if (dmi_vms[i].product &&
		    !starts(product, dmi_vms[i].product))
			continue;
		set(h, dmi_vms[i].name, "DMI");
		return;
	}
	/* EC2's bare-metal instances have the same vendor. */
	if (starts(vendor, "Amazon EC2") && !strstr(product, ".metal"))
		set(h, "Amazon EC2", "DMI");
}

/*
 * The value of a "Key<tabs>: value" line (cpuinfo, sysinfo), trimmed,
 * runs of blanks made one space; NULL without such a line.
 */
static const char *field(const char *text, const char *key, char *out,
			 size_t size)
{
	size_t kl = strlen(key);

	for (const char *l = text; l && *l;) {
		const char *v = l + kl, *eol = strchr(l, '\n');
		size_t n = 0;

		if (!strncmp(l, key, kl)) {
			while (*v == ' ' || *v == '\t')
				v++;
		}
		if (strncmp(l, key, kl) || *v != ':') {
			l = eol ? eol + 1 : NULL;
			continue;
		}
		for (v++; *v && *v != '\n' && n + 1 < size; v++) {
			bool blank = *v == ' ' || *v == '\t';

			if (blank && (!n || out[n - 1] == ' '))
				continue;
			out[n++] = *v;
			if (blank)
				out[n - 1] = ' ';
		}
		while (n && out[n - 1] == ' ')
			n--;
		out[n] = '\0';
		return out;
	}
	return NULL;
}

/*
 * s390: the guest of z/VM or KVM has a "VM00 Control Program" line, and
 * every s390 Linux runs in a logical partition of PR/SM at least.
 */
static void from_sysinfo(struct pm_ctx *ctx, struct pm_hypervisor *h)
{
	char *text = NULL, cp[PM_NAME_MAX];

	if (pm_file_read(ctx, "/proc/sysinfo", &text) < 0) {
		free(text);
		return;
	}
	if (field(text, "VM00 Control Program", cp, sizeof(cp)) && cp[0])
		set(h, cp, "/proc/sysinfo");
	else if (field(text, "LPAR Number", cp, sizeof(cp)))
		set(h, "PR/SM (LPAR)", "/proc/sysinfo");
	free(text);
}

static void from_cpuinfo(struct pm_ctx *ctx, struct pm_hypervisor *h)
{
	char *text = NULL, flags[8192];

	if (pm_file_read(ctx, "/proc/cpuinfo", &text) >= 0 &&
	    field(text, "flags", flags, sizeof(flags)) &&
	    pm_word_in(flags, "hypervisor"))
		set(h, "", "cpuinfo flag hypervisor");
	free(text);
}

int pm_hypervisor_detect(struct pm_ctx *ctx, struct pm_hypervisor *h)
{
	char type[PM_NAME_MAX];

	memset(h, 0, sizeof(*h));
	/* Xen ("xen"), s390 hypfs ("z/VM Hypervisor"). */
	if (pm_attr_read(ctx, "/sys/hypervisor/type", type, sizeof(type)) > 0)
		set(h, !strcmp(type, "xen") ? "Xen" : type,
		    "/sys/hypervisor/type");
	from_dmi(ctx, h);
	from_sysinfo(ctx, h);
	from_cpuinfo(ctx, h);
	pm_err_clear(ctx);
	return h->present ? 1 : 0;
}

int pm_s390_idle_read(struct pm_ctx *ctx, unsigned cpu, uint64_t *count,
		      uint64_t *time_us)
{
	char path[96];
	int r;

	*count = *time_us = PM_UNKNOWN;
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/idle_time_us", cpu);
	r = pm_attr_read_u64(ctx, path, time_us);
	if (r < 0) {
		*time_us = PM_UNKNOWN;
		return r;
	}
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u/idle_count", cpu);
	if (pm_attr_read_u64(ctx, path, count) < 0)
		*count = PM_UNKNOWN;
	return 0;
}

bool pm_s390_idle_present(struct pm_ctx *ctx, const struct pm_cpuset *sel)
{
	char path[96];
	int seen = 0;

	pm_cpuset_foreach(c, sel)
	{
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d/idle_time_us", c);
		if (pm_exists(ctx, path))
			return true;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%d", c);
		if (pm_exists(ctx, path) && ++seen >= S390_PROBE_CPUS)
			break;
	}
	return false;
}
