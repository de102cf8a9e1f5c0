// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "snapimg": the hibernation image reader (pm_snapr_open,
 * pm_snapr_next) on any device.  The first byte picks the mode:
 *  - even: the rest is the device (padded to whole pages), with the
 *    signature's, the header's and the map pages' checksums made right
 *    where they are found, so the fuzzer gets past them to the fields;
 *  - odd: the rest (from byte 5) is a snapshot, written by pm_snapw_*
 *    to a device of its own; bytes 1-4 name one device byte to flip.
 * Checked: every call returns one of its documented errors with a
 * reason, a refused block is the block being read, the reader never
 * gives more than the header's size, and a flipped image that is read
 * whole gives back exactly the snapshot written.
 */
#include <errno.h>

#include "fuzz.h"

struct dev {
	uint8_t *p;
	uint64_t npages, next;
};

static int dev_read(void *arg, uint64_t page, void *buf)
{
	struct dev *d = arg;

	if (page >= d->npages)
		return -ENODATA;
	memcpy(buf, d->p + page * PM_SNAP_PAGE, PM_SNAP_PAGE);
	return 0;
}

static int dev_write(void *arg, uint64_t page, const void *buf)
{
	struct dev *d = arg;

	if (page >= d->npages)
		return -ENOSPC;
	memcpy(d->p + page * PM_SNAP_PAGE, buf, PM_SNAP_PAGE);
	return 0;
}

static int dev_alloc(void *arg, uint64_t *page)
{
	struct dev *d = arg;

	if (d->next >= d->npages)
		return -ENOSPC;
	*page = d->next++;
	return 0;
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return get32(p) | (uint64_t)get32(p + 4) << 32;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The checksums of snapimg.h's layout, made right where they are. */
static void fix_sums(struct dev *d)
{
	uint8_t *p = d->p, *h, *m;
	uint64_t at;

	put32(p + 4048, pm_crc32c(0, p + 4052, 44));
	at = get64(p + 4068);
	if (!at || at >= d->npages)
		return;
	h = p + at * PM_SNAP_PAGE;
	put32(h + 156, pm_crc32c(0, h, 156));
	at = get64(h + 48);
	for (int i = 0; i < 4 && at && at < d->npages; i++) {
		m = p + at * PM_SNAP_PAGE;
		uint32_t n = get32(m + 8) > 510 ? 510 : get32(m + 8);

		put32(m + 12, pm_crc32c(pm_crc32c(0, m, 12), m + 16, 8 * n));
		at = get64(m);
	}
}

/* Read it all; 0 and out, or the error.  want: the snapshot, or NULL. */
static int read_all(struct pm_snap_io *io, const uint8_t *want,
		    size_t wantlen)
{
	static uint8_t buf[PM_SNAP_BLOCK];
	struct pm_snapr r;
	uint64_t out = 0;
	ssize_t n;
	int e = pm_snapr_open(&r, io, NULL, NULL);

	CHECK(e == 0 || e == -ENOENT || e == -EBADMSG || e == -ESTALE);
	CHECK(e == 0 || r.why[0]);
	while (!e) {
		uint32_t block = r.block;

		n = pm_snapr_next(&r, buf, sizeof(buf));
		CHECK(n >= 0 || n == -EBADMSG);
		CHECK(n >= 0 || r.why[0]);
		CHECK(n != -EBADMSG || !r.why[0] || r.bad_block < 0 ||
		      r.bad_block == block);
		if (n <= 0) {
			e = (int)n;
			break;
		}
		CHECK(out + (uint64_t)n <= r.h.image_size);
		if (want)
			CHECK(out + (uint64_t)n <= wantlen &&
			      !memcmp(buf, want + out, (size_t)n));
		out += (uint64_t)n;
	}
	if (!e)
		CHECK(out == r.h.image_size && (!want || out == wantlen));
	pm_snapr_close(&r);
	return e;
}

static void raw_mode(const uint8_t *data, size_t size)
{
	struct dev d = { 0 };
	struct pm_snap_io io = { dev_read, dev_write, dev_alloc, &d, 0, NULL };

	d.npages = size / PM_SNAP_PAGE + 1;
	d.p = calloc(d.npages, PM_SNAP_PAGE);
	if (!d.p)
		abort();
	memcpy(d.p, data, size);
	fix_sums(&d);
	io.npages = d.npages;
	read_all(&io, NULL, 0);
	free(d.p);
}

static void write_mode(const uint8_t *data, size_t size)
{
	struct dev d = { 0 };
	struct pm_snap_io io = { dev_read, dev_write, dev_alloc, &d, 0, NULL };
	size_t len = (size - 4) / PM_SNAP_PAGE * PM_SNAP_PAGE + PM_SNAP_PAGE;
	uint8_t *snap = calloc(1, len);
	struct pm_snapw w;
	uint32_t flip = get32(data);
	int e;

	if (!snap)
		abort();
	memcpy(snap, data + 4, size - 4);
	d.npages = len / PM_SNAP_PAGE * 2 + 8;
	d.next = 1;
	d.p = calloc(d.npages, PM_SNAP_PAGE);
	if (!d.p)
		abort();
	/* Page 0 a swap area's header, as the writer wants it. */
	memcpy(d.p + PM_SNAP_PAGE - PM_SNAP_SIGLEN, PM_SNAP_SWAPSIG,
	       PM_SNAP_SIGLEN);
	io.npages = d.npages;
	e = pm_snapw_open(&w, &io, len, "fuzz", NULL, 1);
	if (!e)
		e = pm_snapw_add(&w, snap, len);
	if (!e)
		e = pm_snapw_finish(&w);
	CHECK(e == 0);
	pm_snapw_free(&w);
	CHECK(read_all(&io, snap, len) == 0);
	d.p[flip % (d.next * PM_SNAP_PAGE)] ^= (uint8_t)(flip >> 24 | 1);
	read_all(&io, snap, len);
	free(d.p);
	free(snap);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 5)
		return 0;
	if (data[0] & 1)
		write_mode(data + 1, size - 1);
	else
		raw_mode(data + 1, size - 1);
	return 0;
}
