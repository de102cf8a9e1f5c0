// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mksnapimg [-p] [-o PAGE] FILE PAGES RELEASE [RAW]: a swap area in
 * FILE (page 0 ends in SWAPSPACE2) holding a hibernation image of PAGES
 * pages of made-up memory for kernel RELEASE, written by libpm's own
 * writer, for the tests of pm-resume; RAW gets the made-up memory
 * itself.  The data pages are pages 1, 2, ... of the file, in the order
 * of the blocks.
 * -p: the image is marked as made in the platform mode.  -o PAGE: the
 * swap area starts at page PAGE of FILE, as a swap file's does at its
 * resume_offset on the device: its header there, the data pages after.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pm.h"

static void fill(uint8_t *p, uint64_t page)
{
	uint32_t x = (uint32_t)page * 2654435761u;

	for (int i = 0; i < PM_SNAP_PAGE; i++) {
		x = x * 1103515245 + 12345;
		/* A page in three random, the rest text: as memory is. */
		p[i] = page % 3 ? (uint8_t)"hibernate "[i % 10] :
				  (uint8_t)(x >> 24);
	}
}

int main(int argc, char **argv)
{
	uint8_t page[PM_SNAP_PAGE] = { 0 };
	struct pm_snap_fileio f;
	struct pm_snap_io io;
	struct pm_snapw w;
	uint64_t n;
	FILE *raw = NULL;
	bool platform = false;
	uint64_t at = 0;
	int fd, e;

	for (; argc > 1 && argv[1][0] == '-'; argv++, argc--) {
		if (!strcmp(argv[1], "-p")) {
			platform = true;
		} else if (!strcmp(argv[1], "-o") && argc > 2) {
			at = strtoull(argv[2], NULL, 10);
			argv++;
			argc--;
		} else {
			argc = 0;	/* usage */
			break;
		}
	}
	if (argc < 4 || argc > 5 || (n = strtoull(argv[2], NULL, 10)) == 0) {
		fprintf(stderr, "usage: mksnapimg [-p] [-o PAGE] FILE PAGES RELEASE [RAW]\n");
		return 2;
	}
	if (argc == 5 && !(raw = fopen(argv[4], "w"))) {
		perror(argv[4]);
		return 1;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
	memcpy(page + PM_SNAP_PAGE - 10, PM_SNAP_SWAPSIG, 10);
	if (fd < 0 ||
	    pwrite(fd, page, sizeof(page), (off_t)(at * PM_SNAP_PAGE)) !=
		    sizeof(page) ||
	    pm_snap_fileio_init(&io, &f, fd, at) < 0) {
		perror(argv[1]);
		return 1;
	}
	io.npages = 0;
	e = pm_snapw_open(&w, &io, n * PM_SNAP_PAGE, argv[3], NULL, 1);
	if (platform)
		w.h.flags |= PM_SNAP_F_PLATFORM;
	for (uint64_t i = 0; !e && i < n; i++) {
		fill(page, i);
		e = pm_snapw_add(&w, page, sizeof(page));
		if (raw && fwrite(page, sizeof(page), 1, raw) != 1)
			e = -EIO;
	}
	if (!e)
		e = pm_snapw_finish(&w);
	if (e) {
		fprintf(stderr, "mksnapimg: %s\n", w.why);
		return 1;
	}
	pm_snapw_free(&w);
	if (raw && fclose(raw))
		return 1;
	return close(fd) < 0;
}
