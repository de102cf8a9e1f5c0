// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpuidle: the driver and governor, and each CPU's idle states with
 * their counters, read relative to one cached folder fd per state.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "pm.h"

#define IDLE_DIR "/sys/devices/system/cpu/cpuidle"

int pm_cpuidle_read(struct pm_ctx *ctx, struct pm_cpuidle *ci)
{
	int fd = pm_open_dir(ctx, IDLE_DIR);

	memset(ci, 0, sizeof(*ci));
	if (fd < 0)
		return pm_err_set(ctx, "open", IDLE_DIR, NULL, -fd, NULL);
	pm_attr_readat(ctx, fd, "current_driver", ci->driver,
		       sizeof(ci->driver));
	/* current_governor is writable since 5.8; _ro exists everywhere. */
	if (pm_attr_readat(ctx, fd, "current_governor", ci->governor,
			   sizeof(ci->governor)) > 0)
		ci->governor_writable = true;
	else
		pm_attr_readat(ctx, fd, "current_governor_ro", ci->governor,
			       sizeof(ci->governor));
	pm_attr_readat(ctx, fd, "available_governors",
		       ci->available_governors,
		       sizeof(ci->available_governors));
	close(fd);
	pm_err_clear(ctx);
	return 0;
}

static void read_str(struct pm_ctx *ctx, int fd, const char *name, char *buf,
		     size_t size)
{
	if (pm_attr_readat(ctx, fd, name, buf, size) < 0)
		buf[0] = '\0';
}

static int read_state(struct pm_ctx *ctx, int sfd, unsigned index,
		      struct pm_idle_state *s)
{
	char buf[32];

	memset(s, 0, sizeof(*s));
	s->index = index;
	read_str(ctx, sfd, "name", s->name, sizeof(s->name));
	read_str(ctx, sfd, "desc", s->desc, sizeof(s->desc));
	s->latency_us = pm_attr_getat_u64(ctx, sfd, "latency");
	s->residency_us = pm_attr_getat_u64(ctx, sfd, "residency");
	s->power_mw = pm_attr_getat_u64(ctx, sfd, "power");
	s->usage = pm_attr_getat_u64(ctx, sfd, "usage");
	s->time_us = pm_attr_getat_u64(ctx, sfd, "time");
	s->above = pm_attr_getat_u64(ctx, sfd, "above");
	s->below = pm_attr_getat_u64(ctx, sfd, "below");
	s->rejected = pm_attr_getat_u64(ctx, sfd, "rejected");
	s->s2idle_usage = pm_attr_getat_u64(ctx, sfd, "s2idle/usage");
	s->s2idle_time_us = pm_attr_getat_u64(ctx, sfd, "s2idle/time");

	uint64_t d = pm_attr_getat_u64(ctx, sfd, "disable");

	s->disabled = d == PM_UNKNOWN ? -1 : d != 0;
	if (pm_attr_readat(ctx, sfd, "default_status", buf, sizeof(buf)) > 0)
		s->default_disabled = strcmp(buf, "enabled") != 0;
	else
		s->default_disabled = -1;
	return 0;
}

int pm_idle_states_read(struct pm_ctx *ctx, unsigned cpu,
			struct pm_idle_state *states, int max)
{
	char path[96];
	int dfd, n = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/cpuidle",
		 cpu);
	dfd = pm_open_dir(ctx, path);
	if (dfd < 0) {
		pm_err_clear(ctx);
		return 0;
	}
	/* States are numbered from 0 without gaps (cpuidle_add_state_sysfs). */
	for (int i = 0; i < max; i++) {
		char name[24];
		int sfd;

		snprintf(name, sizeof(name), "state%d", i);
		sfd = pm_openat(ctx, dfd, name, O_RDONLY | O_DIRECTORY);
		if (sfd < 0)
			break;
		read_state(ctx, sfd, (unsigned)i, &states[n++]);
		close(sfd);
	}
	close(dfd);
	pm_err_clear(ctx);
	return n;
}
