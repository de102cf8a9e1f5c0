// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * CPU topology as the hotplug code shows it: possible, present, online
 * and offline range lists, SMT control, and --cpu selections over them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu.h"
#include "core.h"
#include "cpuset.h"

#define CPU_DIR "/sys/devices/system/cpu"

static int read_list(struct pm_ctx *ctx, const char *name,
		     struct pm_cpuset *set)
{
	char path[128], buf[PM_ATTR_MAX];
	ssize_t n;
	int r;

	snprintf(path, sizeof(path), CPU_DIR "/%s", name);
	n = pm_attr_read(ctx, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	r = pm_cpulist_parse(buf, set);
	if (r < 0)
		return pm_err_set(ctx, "parse", path, buf, -r,
				  "not a CPU range list");
	return 0;
}

int pm_cpus_read(struct pm_ctx *ctx, struct pm_cpus *c)
{
	unsigned *nums;
	char buf[64];
	int n, r;

	memset(c, 0, sizeof(*c));
	c->kernel_max = -1;
	c->smt_active = -1;

	/* The cpuN folders are what is present, whatever the lists say. */
	nums = malloc(PM_MAX_CPUS * sizeof(*nums));
	if (!nums)
		return -ENOMEM;
	n = pm_list_numbered(ctx, CPU_DIR, "cpu", nums, PM_MAX_CPUS);
	if (n < 0) {
		free(nums);
		return n;
	}
	struct pm_cpuset dirs;

	pm_cpuset_zero(&dirs);
	for (int i = 0; i < n; i++)
		pm_cpuset_set(&dirs, nums[i]);
	free(nums);

	if (read_list(ctx, "present", &c->present) < 0)
		c->present = dirs;
	if (read_list(ctx, "possible", &c->possible) < 0)
		c->possible = c->present;
	r = read_list(ctx, "online", &c->online);
	if (r < 0) {
		/* Old dumps: an online file per CPU, else assume online. */
		pm_cpuset_zero(&c->online);
		pm_cpuset_foreach(cpu, &c->present)
		{
			uint64_t v;

			if (pm_attr_readf_u64(ctx, &v, CPU_DIR "/cpu%d/online",
					      cpu) < 0 ||
			    v)
				pm_cpuset_set(&c->online, (unsigned)cpu);
		}
	}
	if (read_list(ctx, "offline", &c->offline) < 0) {
		c->offline = c->possible;
		pm_cpuset_andnot(&c->offline, &c->online);
	}
	c->nr_present = pm_cpuset_count(&c->present);

	int64_t km;
	int fd = pm_open_dir(ctx, CPU_DIR);

	if (fd >= 0) {
		if (pm_attr_readat_s64(ctx, fd, "kernel_max", &km) == 0)
			c->kernel_max = (int)km;
		if (pm_attr_readat(ctx, fd, "smt/control", c->smt_control,
				   sizeof(c->smt_control)) < 0)
			c->smt_control[0] = '\0';
		if (pm_attr_readat(ctx, fd, "smt/active", buf, sizeof(buf)) >
		    0)
			c->smt_active = !strcmp(buf, "1");
		close(fd);
	}
	pm_err_clear(ctx);
	return 0;
}

int pm_cpu_hotpluggable(struct pm_ctx *ctx, unsigned cpu)
{
	char p[96];

	snprintf(p, sizeof(p), CPU_DIR "/cpu%u/online", cpu);
	return pm_exists(ctx, p);
}

int pm_cpus_select(struct pm_ctx *ctx, const struct pm_cpus *c,
		   const char *arg, struct pm_cpuset *out)
{
	struct pm_cpuset bad;
	char list[256];
	int r;

	if (!strcmp(arg, "all")) {
		*out = c->present;
		return 0;
	}
	if (!strcmp(arg, "online")) {
		*out = c->online;
		return 0;
	}
	/* A user's list must not be empty, unlike the kernel's. */
	if (!*arg || strspn(arg, " \n") == strlen(arg))
		return pm_err_set(ctx, "parse", "--cpu", arg, EINVAL,
				  "an empty CPU list");
	r = pm_cpulist_parse(arg, out);
	if (r < 0)
		return pm_err_set(ctx, "parse", "--cpu", arg, -r,
				  r == -ERANGE ? "CPU number too large" :
						 "expected a list like 0-3,8 or "
						 "'all' or 'online'");
	bad = *out;
	pm_cpuset_andnot(&bad, &c->present);
	if (!pm_cpuset_empty(&bad)) {
		pm_cpulist_format(&bad, list, sizeof(list));
		return pm_err_set(ctx, "select", "--cpu", arg, ENOENT,
				  "no CPU %s on this machine", list);
	}
	return 0;
}
