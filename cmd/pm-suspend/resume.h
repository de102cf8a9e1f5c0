/* SPDX-License-Identifier: GPL-2.0-or-later */
/* pm-resume (resume.c): pm-suspend called by that name. */
#ifndef PM_RESUME_H
#define PM_RESUME_H

#include "pm.h"

struct rs {
	struct pm_tool t;
	struct pm_ctx ctx;
	const char *path;		/* --check PATH, or DEVICE */
	bool check;			/* --check */
	uint64_t offset;		/* --offset, or resume_offset */
	bool offset_set;		/* --offset given */
	struct pm_resume_dev dev;	/* the kernel's, without DEVICE */
	struct pm_snapshot snap;
	char release[PM_SNAP_RELEASE_MAX];	/* the running kernel's */
	struct pm_snapr r;
	bool found;			/* an image's signature is there */
	bool header;			/* and its header was read */
	int err;			/* the reader's -errno, 0 */
	int status;			/* the exit status */
	double read_s;
	double t0;			/* the resume's start */
};

/* pm-resume's main. */
int ps_resume_main(int argc, char **argv);

#endif
