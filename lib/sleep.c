// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * System sleep as /sys/power offers it: states, mem_sleep variants,
 * hibernation modes, pm_test levels and the suspend statistics.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "pm.h"

#define POWER_DIR "/sys/power"

static void rd(struct pm_ctx *ctx, int fd, const char *name, char *buf,
	       size_t size)
{
	if (pm_attr_readat(ctx, fd, name, buf, size) < 0)
		buf[0] = '\0';
}

int pm_sleep_read(struct pm_ctx *ctx, struct pm_sleep *s)
{
	int fd = pm_open_dir(ctx, POWER_DIR);
	int64_t e;

	memset(s, 0, sizeof(*s));
	s->resume_offset = s->image_size = PM_UNKNOWN;
	s->success = s->fail = PM_UNKNOWN;
	s->last_failed_errno = PM_UNKNOWN_S64;
	if (fd < 0)
		return pm_err_set(ctx, "open", POWER_DIR, NULL, -fd, NULL);
	s->have_power = true;
	rd(ctx, fd, "state", s->state, sizeof(s->state));
	rd(ctx, fd, "mem_sleep", s->mem_sleep, sizeof(s->mem_sleep));
	rd(ctx, fd, "disk", s->disk, sizeof(s->disk));
	rd(ctx, fd, "pm_test", s->pm_test, sizeof(s->pm_test));
	rd(ctx, fd, "resume", s->resume, sizeof(s->resume));
	s->resume_offset = pm_attr_getat_u64(ctx, fd, "resume_offset");
	s->image_size = pm_attr_getat_u64(ctx, fd, "image_size");
	s->success = pm_attr_getat_u64(ctx, fd, "suspend_stats/success");
	s->fail = pm_attr_getat_u64(ctx, fd, "suspend_stats/fail");
	rd(ctx, fd, "suspend_stats/last_failed_dev", s->last_failed_dev,
	   sizeof(s->last_failed_dev));
	rd(ctx, fd, "suspend_stats/last_failed_step", s->last_failed_step,
	   sizeof(s->last_failed_step));
	if (pm_attr_readat_s64(ctx, fd, "suspend_stats/last_failed_errno",
			       &e) == 0)
		s->last_failed_errno = e;
	close(fd);
	pm_err_clear(ctx);
	return 0;
}

bool pm_choice_offered(const char *list, const char *word)
{
	return pm_word_in(list, word);
}

void pm_choice_current(const char *list, char *out, size_t size)
{
	const char *a = strchr(list, '['), *b;

	if (!a || !(b = strchr(a, ']'))) {
		if (size)
			out[0] = '\0';
		return;
	}
	snprintf(out, size, "%.*s", (int)(b - a - 1), a + 1);
}
