// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * devfreq: device frequency scaling (GPUs, memory controllers), in Hz.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devfreq.h"
#include "core.h"

int pm_devfreqs_read(struct pm_ctx *ctx, struct pm_devfreq **out)
{
	struct pm_class c;
	int n = pm_class_open(ctx, &c, "devfreq", NULL), k = 0;
	struct pm_devfreq *v;

	*out = NULL;
	if (n < 0) {
		pm_err_clear(ctx);
		return 0;
	}
	v = calloc((size_t)n + 1, sizeof(*v));
	if (!v) {
		pm_class_close(&c);
		return -ENOMEM;
	}
	while (pm_class_next(ctx, &c)) {
		struct pm_devfreq *d = &v[k];
		int fd = c.fd;

		if (fd < 0)
			continue;
		snprintf(d->name, sizeof(d->name), "%s", c.name);
		if (pm_attr_readat(ctx, fd, "governor", d->governor,
				   sizeof(d->governor)) < 0)
			d->governor[0] = '\0';
		d->cur_hz = pm_attr_getat_u64(ctx, fd, "cur_freq");
		d->min_hz = pm_attr_getat_u64(ctx, fd, "min_freq");
		d->max_hz = pm_attr_getat_u64(ctx, fd, "max_freq");
		if (pm_attr_readat(ctx, fd, "available_governors",
				   d->available_governors,
				   sizeof(d->available_governors)) < 0)
			d->available_governors[0] = '\0';
		if (pm_attr_readat(ctx, fd, "available_frequencies",
				   d->available_frequencies,
				   sizeof(d->available_frequencies)) < 0)
			d->available_frequencies[0] = '\0';
		k++;
	}
	pm_class_close(&c);
	pm_err_clear(ctx);
	*out = v;
	return k;
}
