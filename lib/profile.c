// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ACPI platform profile: the legacy /sys/firmware/acpi files (the
 * combined view, and the one to write: it sets every handler), and the
 * handlers of the 6.14+ /sys/class/platform-profile class.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile.h"
#include "core.h"

static void read_handlers(struct pm_ctx *ctx, struct pm_profile *p)
{
	struct pm_class c;
	int n = pm_class_open(ctx, &c, "platform-profile", NULL);

	p->n_handlers = -1;
	if (n < 0)
		return;
	p->n_handlers = 0;
	while (p->n_handlers < PM_MAX_PROFILE_HANDLERS &&
	       pm_class_next(ctx, &c)) {
		struct pm_profile_handler *h = &p->h[p->n_handlers];
		int fd = c.fd;

		if (strncmp(c.name, "platform-profile-", 17) || fd < 0)
			continue;
		snprintf(h->id, sizeof(h->id), "%s", c.name);
		if (pm_attr_readat(ctx, fd, "name", h->name, sizeof(h->name)) <
		    0)
			h->name[0] = '\0';
		if (pm_attr_readat(ctx, fd, "profile", h->profile,
				   sizeof(h->profile)) < 0)
			h->profile[0] = '\0';
		if (pm_attr_readat(ctx, fd, "choices", h->choices,
				   sizeof(h->choices)) < 0)
			h->choices[0] = '\0';
		p->n_handlers++;
	}
	pm_class_close(&c);
}

int pm_profile_read(struct pm_ctx *ctx, struct pm_profile *p)
{
	int r = 0;

	memset(p, 0, sizeof(*p));
	read_handlers(ctx, p);
	if (pm_attr_read(ctx, "/sys/firmware/acpi/platform_profile",
			 p->current, sizeof(p->current)) < 0) {
		p->current[0] = '\0';
		r = -ctx->err.err;
		if (ctx->err.err != ENOENT)
			p->err = ctx->err.err;
	} else if (pm_attr_read(ctx,
				"/sys/firmware/acpi/platform_profile_choices",
				p->choices, sizeof(p->choices)) < 0) {
		p->choices[0] = '\0';
	}
	pm_err_clear(ctx);
	/* Handlers without the legacy view still make a profile. */
	return r < 0 && p->n_handlers <= 0 ? r : 0;
}
