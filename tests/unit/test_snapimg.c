// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the hibernation image format (lib/snapimg.c): a round
 * trip through a device whose pages are handed out out of order, as
 * SNAPSHOT_ALLOC_SWAP_PAGE does; one flipped byte in a block names that
 * block; a flipped header, signature or map byte, a truncated device,
 * another kernel's release and another id are refused; the swap
 * signature comes back; and a file image read through pm_snap_fileio.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"

#define NPAGES 2048
#define IMG (150 * PM_SNAP_PAGE + 3 * PM_SNAP_BLOCK)	/* 6 blocks */

struct mem {
	uint8_t *p;
	uint64_t next;		/* handed out downwards from the end */
	int fail_write_at;	/* nth write fails with -EIO; 0: never */
	int writes;
	int fail_sync;		/* the sync fails with -EIO */
	int synced;		/* writes done at the last sync; -1: none */
};

static int mem_read(void *arg, uint64_t page, void *buf)
{
	struct mem *m = arg;

	memcpy(buf, m->p + page * PM_SNAP_PAGE, PM_SNAP_PAGE);
	return 0;
}

static int mem_write(void *arg, uint64_t page, const void *buf)
{
	struct mem *m = arg;

	if (++m->writes == m->fail_write_at)
		return -EIO;
	memcpy(m->p + page * PM_SNAP_PAGE, buf, PM_SNAP_PAGE);
	return 0;
}

static int mem_sync(void *arg)
{
	struct mem *m = arg;

	if (m->fail_sync)
		return -EIO;
	m->synced = m->writes;
	return 0;
}

static int mem_alloc(void *arg, uint64_t *page)
{
	struct mem *m = arg;

	if (m->next <= 1)
		return -ENOSPC;
	*page = --m->next;
	return 0;
}

static void mem_init(struct pm_snap_io *io, struct mem *m)
{
	memset(m, 0, sizeof(*m));
	m->p = calloc(NPAGES, PM_SNAP_PAGE);
	m->next = NPAGES;
	m->synced = -1;
	/* A swap area's header: its signature in the last 10 bytes. */
	memcpy(m->p + PM_SNAP_PAGE - 10, PM_SNAP_SWAPSIG, 10);
	io->read = mem_read;
	io->write = mem_write;
	io->alloc = mem_alloc;
	io->sync = mem_sync;
	io->arg = m;
	io->npages = NPAGES;
}

/* Pages of text-like memory: compressible, but not all alike. */
static uint8_t *snapshot(void)
{
	uint8_t *s = malloc(IMG);
	uint32_t x = 12345;

	for (size_t i = 0; i < IMG; i++) {
		x = x * 1103515245 + 12345;
		s[i] = (i / 4096) % 3 ? (uint8_t)"pmtools "[i % 8] :
					(uint8_t)(x >> 24);
	}
	return s;
}

static const uint8_t ID[PM_SNAP_ID_LEN] = "0123456789abcdef";

static int write_image(struct pm_snap_io *io, const uint8_t *s)
{
	struct pm_snapw w;
	int e = pm_snapw_open(&w, io, IMG, "6.1.0-57-amd64", ID, 1);

	/* In uneven pieces, as a read of /dev/snapshot may return. */
	for (size_t off = 0; !e && off < IMG; off += 3000)
		e = pm_snapw_add(&w, s + off, IMG - off < 3000 ? IMG - off :
					      3000);
	if (!e)
		e = pm_snapw_finish(&w);
	if (e)
		diag("write: %s", w.why);
	pm_snapw_free(&w);
	return e;
}

/* Read the image whole: 0 and the same bytes, or the error (r kept). */
static int read_image(struct pm_snap_io *io, struct pm_snapr *r,
		      const uint8_t *s, const char *release,
		      const uint8_t *id, uint64_t *starts)
{
	uint8_t *buf = malloc(PM_SNAP_BLOCK);
	uint64_t off = 0;
	ssize_t n;
	int e = pm_snapr_open(r, io, release, id);

	while (!e) {
		if (starts)
			starts[r->block] = r->pos;
		n = pm_snapr_next(r, buf, PM_SNAP_BLOCK);
		if (n <= 0) {
			e = (int)n;
			break;
		}
		if (memcmp(buf, s + off, (size_t)n))
			e = -EILSEQ;
		off += (uint64_t)n;
	}
	pm_snapr_close(r);
	free(buf);
	return e;
}

static void test_round_trip(const uint8_t *s, uint64_t *starts)
{
	struct pm_snap_io io;
	struct pm_snapr r;
	struct mem m;

	mem_init(&io, &m);
	is_int(write_image(&io, s), 0, "round trip: written");
	is_int(read_image(&io, &r, s, "6.1.0-57-amd64", ID, starts), 0,
	       "round trip: read back the same %zu bytes", IMG);
	ok(r.h.nblocks == 6 && r.h.page_count == IMG / PM_SNAP_PAGE &&
	   r.h.image_size == IMG && r.h.data_size < IMG / 2 &&
	   !strcmp(r.h.release, "6.1.0-57-amd64") &&
	   !memcmp(r.h.id, ID, PM_SNAP_ID_LEN),
	   "round trip: header: 6 blocks, %llu pages, %llu bytes compressed to %llu",
	   (unsigned long long)r.h.page_count,
	   (unsigned long long)r.h.image_size,
	   (unsigned long long)r.h.data_size);
	ok(!memcmp(r.orig_sig, PM_SNAP_SWAPSIG, 10),
	   "round trip: the swap signature is kept in the tail");
	struct pm_snap_hdr h;
	uint32_t ms = 0;
	uint8_t other[PM_SNAP_ID_LEN] = "fedcba9876543210";

	is_int(pm_snap_last(&io, ID, &h, &ms), -ENOENT,
	       "pm_snap_last: not before the signature is put back");
	is_int(pm_snap_sig_restore(&io, 4321, r.why, sizeof(r.why)), 0,
	       "signature restored");
	is_int(pm_snap_last(&io, ID, &h, &ms), 0,
	       "pm_snap_last: the header found after the restore");
	ok(h.image_size == IMG && h.data_size == r.h.data_size && ms == 4321 &&
	   h.write_ms < 60000, "pm_snap_last: sizes, the reader's %u ms, "
	   "the writer's %u ms", ms, h.write_ms);
	is_int(pm_snap_last(&io, other, &h, &ms), -ENOENT,
	       "pm_snap_last: another id is not this image");
	ok(!memcmp(m.p + PM_SNAP_PAGE - 10, PM_SNAP_SWAPSIG, 10),
	   "page 0 ends in SWAPSPACE2 again");
	is_int(pm_snapr_open(&r, &io, NULL, NULL), -ENOENT,
	       "then no image: %s", r.why);
	pm_snapr_close(&r);
	free(m.p);
}

/* One byte flipped in each data page of the stream: its block named. */
static void test_flips(const uint8_t *s, const uint64_t *starts)
{
	struct pm_snap_io io;
	struct pm_snapr r;
	struct mem m;
	char want[32];
	unsigned bad = 0, n = 0;

	mem_init(&io, &m);
	write_image(&io, s);
	if (!ok(pm_snapr_open(&r, &io, NULL, NULL) == 0, "flips: open"))
		return;
	for (uint64_t k = 0; k < r.h.data_pages; k++) {
		uint64_t pos = k * PM_SNAP_PAGE + 1000, b = 0;
		uint8_t *byte = m.p + r.map[k] * PM_SNAP_PAGE + 1000;
		struct pm_snapr q;
		int e;

		if (pos >= r.h.data_size)
			continue;
		while (b + 1 < r.h.nblocks && starts[b + 1] <= pos)
			b++;
		*byte ^= 0x10;
		e = read_image(&io, &q, s, NULL, NULL, NULL);
		*byte ^= 0x10;
		snprintf(want, sizeof(want), "block %llu of 6: ",
			 (unsigned long long)b);
		n++;
		if (e != -EBADMSG || q.bad_block != (int64_t)b ||
		    strncmp(q.why, want, strlen(want))) {
			bad++;
			diag("data page %llu: %d %s", (unsigned long long)k, e,
			     q.why);
		}
	}
	pm_snapr_close(&r);
	ok(bad == 0 && n > 6,
	   "a byte flipped in each of %u data pages: its block named", n);
	free(m.p);
}

/* Every byte of the header's fields, of the signature's tail and of the
 * first map page's head: each flip refused, none taken for an image. */
static void test_meta_flips(const uint8_t *s)
{
	struct pm_snap_io io;
	struct pm_snapr r;
	struct mem m;
	unsigned taken = 0, n = 0;
	uint64_t hdr, map;

	mem_init(&io, &m);
	write_image(&io, s);
	pm_snapr_open(&r, &io, NULL, NULL);
	hdr = r.h.hdr_off;
	map = r.h.map_off;
	pm_snapr_close(&r);
	uint8_t *at[] = { m.p + hdr * PM_SNAP_PAGE, m.p + PM_SNAP_PAGE - 48,
			  m.p + map * PM_SNAP_PAGE };
	size_t len[] = { 168, 48, 16 + 8 * 3 };

	for (int a = 0; a < 3; a++) {
		for (size_t i = 0; i < len[a]; i++) {
			at[a][i] ^= 0x01;
			if (pm_snapr_open(&r, &io, NULL, NULL) == 0)
				taken++;
			pm_snapr_close(&r);
			at[a][i] ^= 0x01;
			n++;
		}
	}
	is_int(taken, 0,
	       "%u header, signature and map bytes flipped: all refused", n);
	free(m.p);
}

/* The header's flags: the platform mode kept, an unknown flag refused
 * even with the header's checksum made right. */
static void test_flags(const uint8_t *s)
{
	struct pm_snap_io io;
	struct pm_snapr r;
	struct pm_snapw w;
	struct mem m;
	uint8_t *h;
	uint32_t crc;
	int e;

	mem_init(&io, &m);
	e = pm_snapw_open(&w, &io, IMG, "6.1.0-57-amd64", ID, 1);
	w.h.flags = PM_SNAP_F_PLATFORM;
	if (!e)
		e = pm_snapw_add(&w, s, IMG);
	if (!e)
		e = pm_snapw_finish(&w);
	pm_snapw_free(&w);
	e = e ? e : pm_snapr_open(&r, &io, NULL, NULL);
	ok(e == 0 && r.h.flags == PM_SNAP_F_PLATFORM,
	   "the platform mode's flag read back (%d, 0x%x)", e, r.h.flags);
	h = m.p + r.h.hdr_off * PM_SNAP_PAGE;
	pm_snapr_close(&r);
	h[152] |= 0x2;
	crc = pm_crc32c(0, h, 164);
	for (int i = 0; i < 4; i++)	/* little-endian */
		h[164 + i] = (uint8_t)(crc >> (8 * i));
	e = pm_snapr_open(&r, &io, NULL, NULL);
	ok(e == -EBADMSG && !strcmp(r.why, "header: unknown flags 0x3"),
	   "an unknown flag: %s", r.why);
	pm_snapr_close(&r);
	free(m.p);
}

/* Page 0 that is no swap area's header (a file system's page, a wrong
 * offset): the writer refuses to put its signature there. */
static void test_not_swap(const uint8_t *s)
{
	struct pm_snap_io io;
	struct pm_snapw w;
	struct mem m;
	uint8_t page0[PM_SNAP_PAGE];
	int e;

	mem_init(&io, &m);
	memcpy(m.p + PM_SNAP_PAGE - 10, "ext2 data!", 10);
	memcpy(page0, m.p, sizeof(page0));
	e = pm_snapw_open(&w, &io, IMG, "6.1.0-57-amd64", ID, 1);
	if (!e)
		e = pm_snapw_add(&w, s, IMG);
	if (!e)
		e = pm_snapw_finish(&w);
	ok(e == -EINVAL && !strcmp(w.why, "signature: page 0 is not a "
				   "swap area's header (no SWAPSPACE2 at its end: "
				   "resume_offset is not the swap file's first "
				   "page, or mkswap's header never reached the "
				   "disk)"),
	   "no swap header: refused (%s)", w.why);
	ok(!memcmp(m.p, page0, sizeof(page0)), "and page 0 is untouched");
	pm_snapw_free(&w);
	free(m.p);
}

static void test_refusals(const uint8_t *s)
{
	struct pm_snap_io io;
	struct pm_snapr r;
	struct mem m;
	uint8_t other[PM_SNAP_ID_LEN] = "fedcba9876543210";
	int e;

	mem_init(&io, &m);
	is_int(pm_snapr_open(&r, &io, NULL, NULL), -ENOENT,
	       "a plain swap area: no image (%s)", r.why);
	write_image(&io, s);
	e = pm_snapr_open(&r, &io, "6.1.0-58-amd64", NULL);
	ok(e == -EXDEV && strstr(r.why, "6.1.0-57-amd64") &&
	   strstr(r.why, "6.1.0-58-amd64"),
	   "another kernel's image: %s", r.why);
	pm_snapr_close(&r);
	e = pm_snapr_open(&r, &io, NULL, other);
	ok(e == -ESTALE && strstr(r.why, "image id 30313233"),
	   "another id: %s", r.why);
	pm_snapr_close(&r);
	/* The device cut short: the pages at its end (handed out first,
	 * the data) are gone. */
	io.npages = NPAGES - 20;
	e = pm_snapr_open(&r, &io, NULL, NULL);
	ok(e == -EBADMSG && strstr(r.why, "truncated"), "truncated: %s", r.why);
	pm_snapr_close(&r);
	io.npages = NPAGES;
	free(m.p);
	/* A write that fails: the step and page named, no signature. */
	mem_init(&io, &m);
	m.fail_write_at = 30;
	is_int(write_image(&io, s), -EIO,
	       "a write error is the writer's error");
	ok(!memcmp(m.p + PM_SNAP_PAGE - 10, PM_SNAP_SWAPSIG, 10),
	   "and page 0 is still a swap area");
	free(m.p);
	/* The image synced before the signature, and only then. */
	mem_init(&io, &m);
	is_int(write_image(&io, s), 0, "written whole");
	ok(m.synced > 0 && m.synced == m.writes - 1,
	   "synced once every page but the signature was written (%d of %d)",
	   m.synced, m.writes);
	free(m.p);
	/* A sync that fails (EIO of a write-back): no signature. */
	mem_init(&io, &m);
	m.fail_sync = 1;
	is_int(write_image(&io, s), -EIO, "a failed sync is the writer's error");
	ok(!memcmp(m.p + PM_SNAP_PAGE - 10, PM_SNAP_SWAPSIG, 10),
	   "and page 0 is still a swap area");
	free(m.p);
}

static void test_file(const uint8_t *s)
{
	char path[] = "/tmp/test_snapimg.XXXXXX";
	const char *dir = getenv("TMPDIR");
	char buf[PM_PATH_MAX];
	struct pm_snap_fileio f;
	struct pm_snap_io io;
	struct pm_snapr r;
	uint8_t hdr[PM_SNAP_PAGE];
	int fd;

	snprintf(buf, sizeof(buf), "%s/test_snapimg.XXXXXX",
		 dir ? dir : "/tmp");
	fd = mkstemp(dir ? buf : path);
	if (!ok(fd >= 0, "a temporary file"))
		return;
	unlink(dir ? buf : path);
	/* A swap file's header at page 3 of its device, as resume_offset
	 * says: the signature goes there, the pages before stay as they
	 * were (a hole: zeros). */
	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr + PM_SNAP_PAGE - 10, PM_SNAP_SWAPSIG, 10);
	is_int(pwrite(fd, hdr, sizeof(hdr), 3 * PM_SNAP_PAGE), PM_SNAP_PAGE,
	       "a swap header at page 3");
	is_int(pm_snap_fileio_init(&io, &f, fd, 3), 0, "file io");
	io.npages = 0;	/* the file grows as it is written */
	is_int(write_image(&io, s), 0, "file: written");
	ok(pread(fd, hdr, sizeof(hdr), 0) == PM_SNAP_PAGE &&
	   !memcmp(hdr + PM_SNAP_PAGE - 10, "\0\0\0\0\0\0\0\0\0\0", 10) &&
	   pread(fd, hdr, sizeof(hdr), 3 * PM_SNAP_PAGE) == PM_SNAP_PAGE &&
	   !memcmp(hdr + PM_SNAP_PAGE - 10, PM_SNAP_SIG, 10),
	   "the signature at page 3, page 0 as it was");
	io.npages = (uint64_t)lseek(fd, 0, SEEK_END) / PM_SNAP_PAGE;
	is_int(read_image(&io, &r, s, NULL, NULL, NULL), 0,
	       "file: read back, %llu pages", (unsigned long long)io.npages);
	is_int(ftruncate(fd, (off_t)(io.npages - 1) * PM_SNAP_PAGE), 0, "cut");
	io.npages = 0;	/* unknown: the short read says it */
	is_int(read_image(&io, &r, s, NULL, NULL, NULL), -EBADMSG,
	       "file cut by a page: %s", r.why);
	close(fd);
}

int main(void)
{
	uint8_t *s = snapshot();
	uint64_t starts[8] = { 0 };

	is_int(pm_crc32c(0, "123456789", 9), 0xe3069283,
	       "CRC32C check value");
	test_round_trip(s, starts);
	test_flips(s, starts);
	test_meta_flips(s);
	test_flags(s);
	test_not_swap(s);
	test_refusals(s);
	test_file(s);
	free(s);
	return done_testing();
}
