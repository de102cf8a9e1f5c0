// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Governor tunables ([cpufreq] GOVERNOR.TUNABLE = N): the files of
 * cpufreq/GOVERNOR/ (or policyN/GOVERNOR/ with a driver whose governors
 * are per policy), and the ranges the 6.1 kernel accepts (kernel-abi.md,
 * "Governor tunables").  Every value is a plain decimal, as the kernel
 * reads it back ("%u\n"); microseconds for sampling_rate and
 * rate_limit_us.
 */
#include <string.h>

#include "opp.h"

static const struct opp_tunable tunables[] = {
	/* sampling_rate: the kernel's floor is 2 ticks in us (HZ is not
	 * known here): below it the write's EINVAL is rolled back. */
	{ "ondemand", "sampling_rate", 1, 4294967295u },
	{ "ondemand", "up_threshold", 1, 100 },
	{ "ondemand", "sampling_down_factor", 1, 100000 },
	{ "ondemand", "ignore_nice_load", 0, 1 },
	{ "ondemand", "io_is_busy", 0, 1 },
	{ "ondemand", "powersave_bias", 0, 1000 },
	{ "conservative", "sampling_rate", 1, 4294967295u },
	{ "conservative", "sampling_down_factor", 1, 10 },
	{ "conservative", "up_threshold", 1, 100 },
	{ "conservative", "down_threshold", 1, 100 },
	{ "conservative", "ignore_nice_load", 0, 1 },
	{ "conservative", "freq_step", 0, 100 },
	{ "schedutil", "rate_limit_us", 0, 4294967295u },
};

#define NTUN (sizeof(tunables) / sizeof(tunables[0]))

const struct opp_tunable *opp_tunable_at(int i)
{
	return i >= 0 && (size_t)i < NTUN ? &tunables[i] : NULL;
}

bool opp_tunable_governor(const char *gov)
{
	for (size_t i = 0; i < NTUN; i++)
		if (!strcmp(tunables[i].gov, gov))
			return true;
	return false;
}

const struct opp_tunable *opp_tunable_find(const char *key)
{
	const char *dot = strchr(key, '.');

	if (!dot)
		return NULL;
	for (size_t i = 0; i < NTUN; i++)
		if (strlen(tunables[i].gov) == (size_t)(dot - key) &&
		    !strncmp(tunables[i].gov, key, (size_t)(dot - key)) &&
		    !strcmp(tunables[i].name, dot + 1))
			return &tunables[i];
	return NULL;
}

const char *opp_tunable_check(const char *key, const char *value, char *buf,
			      size_t size)
{
	const struct opp_tunable *t = opp_tunable_find(key);
	const char *dot = strchr(key, '.');
	uint32_t v;

	if (!t) {
		char gov[64], names[256] = "";
		size_t gl = dot ? (size_t)(dot - key) : strlen(key);

		snprintf(gov, sizeof(gov), "%.*s", (int)(gl < 63 ? gl : 63),
			 key);
		if (!opp_tunable_governor(gov)) {
			snprintf(buf, size, "'%s' is not a governor whose "
					    "tunables opp-set knows (ondemand, "
					    "conservative, schedutil; [sysfs] "
					    "sets any file)", gov);
			return buf;
		}
		for (size_t i = 0; i < NTUN; i++)
			if (!strcmp(tunables[i].gov, gov))
				snprintf(names + strlen(names),
					 sizeof(names) - strlen(names),
					 "%s%s", names[0] ? ", " : "",
					 tunables[i].name);
		snprintf(buf, size, "%s has no tunable '%s' (tunables: %s)",
			 gov, dot ? dot + 1 : "", names);
		return buf;
	}
	if (pm_parse_u32(value, &v) == 0 && v >= t->lo && v <= t->hi)
		return NULL;
	if (t->lo == 0 && t->hi == 1)
		snprintf(buf, size, "'%s' is not 0 or 1", value);
	else
		snprintf(buf, size, "'%s' is not a whole number from %u to %u",
			 value, t->lo, t->hi);
	return buf;
}
