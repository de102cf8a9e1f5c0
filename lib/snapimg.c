// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pmtools' hibernation image: the writer and the strict reader
 * (snapimg.h has the layout).  zstd does the compression, CRC32C the
 * checksums (a table here: the image is read once, at disk speed).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "snapimg.h"

#define HDR_MAGIC "PMSNAPH1"
#define HDR_LEN 168		/* the header's bytes, CRC last */
#define BLK_MAGIC 0x4b424d50u	/* "PMBK" */
#define BLK_HDR 24
#define MAP_HEAD 16		/* next u64, count u32, crc u32 */
#define MAP_PER ((PM_SNAP_PAGE - MAP_HEAD) / 8)
/* The signature page's tail, from its end: sig, orig_sig, hdr_off, id,
 * crc of the tail. */
#define TAIL_SIG (PM_SNAP_PAGE - PM_SNAP_SIGLEN)
#define TAIL_ORIG (TAIL_SIG - PM_SNAP_SIGLEN)
#define TAIL_HOFF (TAIL_ORIG - 8)
#define TAIL_ID (TAIL_HOFF - PM_SNAP_ID_LEN)
#define TAIL_CRC (TAIL_ID - 4)
#define TAIL_RMS (TAIL_CRC - 4)	/* the reader's time, after a resume */

/* ------------------------------------------------------------ helpers */

static uint32_t crc_table[256];

static void crc_init(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
		crc_table[i] = c;
	}
}

uint32_t pm_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!crc_table[1])
		crc_init();
	crc = ~crc;
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

static void put32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v = 0;

	for (int i = 3; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static int why(char *buf, size_t size, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int why(char *buf, size_t size, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return err;
}

static double mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void pm_snap_id_hex(const uint8_t *id, char *out)
{
	for (int i = 0; i < PM_SNAP_ID_LEN; i++)
		snprintf(out + (size_t)2 * i, 3, "%02x", id[i]);
}

/* ------------------------------------------------------------ file io */

static int file_read(void *arg, uint64_t page, void *buf)
{
	struct pm_snap_fileio *f = arg;
	ssize_t n = pread(f->fd, buf, PM_SNAP_PAGE,
			  (off_t)((page ? page : f->sig_page) * PM_SNAP_PAGE));

	if (n < 0)
		return -errno;
	return n == PM_SNAP_PAGE ? 0 : -ENODATA;
}

static int file_write(void *arg, uint64_t page, const void *buf)
{
	struct pm_snap_fileio *f = arg;
	ssize_t n = pwrite(f->fd, buf, PM_SNAP_PAGE,
			   (off_t)((page ? page : f->sig_page) * PM_SNAP_PAGE));

	if (n < 0)
		return -errno;
	return n == PM_SNAP_PAGE ? 0 : -ENOSPC;
}

static int file_sync(void *arg)
{
	struct pm_snap_fileio *f = arg;

	return fsync(f->fd) < 0 ? -errno : 0;
}

static int file_alloc(void *arg, uint64_t *page)
{
	struct pm_snap_fileio *f = arg;

	*page = f->next++;
	return 0;
}

int pm_snap_fileio_init(struct pm_snap_io *io, struct pm_snap_fileio *f,
			int fd, uint64_t sig_page)
{
	struct stat st;
	off_t end;

	if (fstat(fd, &st) < 0)
		return -errno;
	f->fd = fd;
	f->sig_page = sig_page;
	f->next = sig_page + 1;
	memset(io, 0, sizeof(*io));
	io->read = file_read;
	io->write = file_write;
	io->alloc = file_alloc;
	io->sync = file_sync;
	io->arg = f;
	if (S_ISBLK(st.st_mode)) {
		end = lseek(fd, 0, SEEK_END);
		if (end < 0)
			return -errno;
		io->npages = (uint64_t)end / PM_SNAP_PAGE;
	} else if (S_ISREG(st.st_mode)) {
		io->npages = (uint64_t)st.st_size / PM_SNAP_PAGE;
	} else {
		return -ENXIO;
	}
	return 0;
}

/* ------------------------------------------------------------ header */

static void hdr_encode(const struct pm_snap_hdr *h, uint8_t *p)
{
	memset(p, 0, PM_SNAP_PAGE);
	/* A magic, not a string.
	 * NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
	memcpy(p, HDR_MAGIC, 8);
	put32(p + 8, h->version);
	put32(p + 12, HDR_LEN);
	put64(p + 16, h->image_size);
	put64(p + 24, h->page_count);
	put64(p + 32, h->data_size);
	put64(p + 40, h->data_pages);
	put64(p + 48, h->map_off);
	put32(p + 56, h->block_size);
	put32(p + 60, h->nblocks);
	put32(p + 64, h->image_crc);
	put32(p + 68, 1);	/* compression: 1 = zstd */
	memcpy(p + 72, h->id, PM_SNAP_ID_LEN);
	memcpy(p + 88, h->release, strnlen(h->release, 64));
	put32(p + 152, h->flags);
	put32(p + HDR_LEN - 8, h->write_ms);
	put32(p + HDR_LEN - 4, pm_crc32c(0, p, HDR_LEN - 4));
}

static void hdr_decode(struct pm_snap_hdr *h, const uint8_t *p)
{
	h->version = get32(p + 8);
	h->image_size = get64(p + 16);
	h->page_count = get64(p + 24);
	h->data_size = get64(p + 32);
	h->data_pages = get64(p + 40);
	h->map_off = get64(p + 48);
	h->block_size = get32(p + 56);
	h->nblocks = get32(p + 60);
	h->image_crc = get32(p + 64);
	memcpy(h->id, p + 72, PM_SNAP_ID_LEN);
	memcpy(h->release, p + 88, PM_SNAP_RELEASE_MAX - 1);
	h->release[PM_SNAP_RELEASE_MAX - 1] = '\0';
	h->flags = get32(p + 152);
	h->write_ms = get32(p + HDR_LEN - 8);
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

/* The numbers of a decoded header agree with each other and the device. */
static int hdr_sane(struct pm_snapr *r, const uint8_t *p)
{
	const struct pm_snap_hdr *h = &r->h;
	uint64_t bound;

	if (memcmp(p, HDR_MAGIC, 8))
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "header page %llu: no header magic",
			   (unsigned long long)h->hdr_off);
	if (get32(p + HDR_LEN - 4) != pm_crc32c(0, p, HDR_LEN - 4))
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "header: checksum mismatch");
	if (h->version != PM_SNAP_VERSION || get32(p + 12) != HDR_LEN ||
	    get32(p + 68) != 1)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "header: version %u, length %u, compression %u (want %u, %u, 1)",
			   h->version, get32(p + 12), get32(p + 68),
			   PM_SNAP_VERSION, HDR_LEN);
	if (h->flags & ~PM_SNAP_F_KNOWN)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "header: unknown flags 0x%x", h->flags);
	if (!h->image_size || h->image_size > PM_SNAP_IMAGE_MAX ||
	    h->image_size % PM_SNAP_PAGE ||
	    h->page_count != h->image_size / PM_SNAP_PAGE)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "header: image size %llu with %llu pages",
			   (unsigned long long)h->image_size,
			   (unsigned long long)h->page_count);
	bound = ZSTD_compressBound(PM_SNAP_BLOCK) + BLK_HDR;
	if (h->block_size != PM_SNAP_BLOCK ||
	    h->nblocks != div_up(h->image_size, h->block_size) ||
	    h->data_size < (uint64_t)h->nblocks * BLK_HDR ||
	    h->data_size > h->nblocks * bound ||
	    h->data_pages != div_up(h->data_size, PM_SNAP_PAGE))
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "header: %u blocks of %u bytes in %llu bytes of data",
			   h->nblocks, h->block_size,
			   (unsigned long long)h->data_size);
	r->h.map_pages = div_up(h->data_pages, MAP_PER);
	if (r->io->npages && (h->data_pages + r->h.map_pages + 2 >
			      r->io->npages ||
			      h->map_off >= r->io->npages))
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "header: %llu pages of data, the device has %llu (truncated image?)",
			   (unsigned long long)h->data_pages,
			   (unsigned long long)r->io->npages);
	return 0;
}

static int check_release(struct pm_snapr *r, const char *release,
			 const uint8_t *id)
{
	char a[33], b[33];

	if (release && strcmp(release, r->h.release))
		return why(r->why, sizeof(r->why), -EXDEV,
			   "image of kernel %s, this is %s", r->h.release,
			   release);
	if (id && memcmp(id, r->h.id, PM_SNAP_ID_LEN)) {
		pm_snap_id_hex(r->h.id, a);
		pm_snap_id_hex(id, b);
		return why(r->why, sizeof(r->why), -ESTALE,
			   "image id %s, expected %s", a, b);
	}
	return 0;
}

/* ------------------------------------------------------------ signature */

static int sig_read(struct pm_snapr *r, uint8_t *p)
{
	int e = r->io->read(r->io->arg, 0, p);

	if (e)
		return why(r->why, sizeof(r->why), e == -ENODATA ? -ENOENT : e,
			   "page 0: %s", e == -ENODATA ?
			   "cannot be read whole (too small)" : strerror(-e));
	if (memcmp(p + TAIL_SIG, PM_SNAP_SIG, PM_SNAP_SIGLEN)) {
		if (!memcmp(p + TAIL_SIG, PM_SNAP_SWAPSIG, PM_SNAP_SIGLEN))
			return why(r->why, sizeof(r->why), -ENOENT,
				   "no image: a plain swap signature");
		if (!memcmp(p + TAIL_SIG, "S1SUSPEND", 9))
			return why(r->why, sizeof(r->why), -ENOENT,
				   "no image of pmtools: the kernel's own image");
		return why(r->why, sizeof(r->why), -ENOENT,
			   "no image: no signature on page 0");
	}
	if (get32(p + TAIL_CRC) != pm_crc32c(0, p + TAIL_ID,
					     PM_SNAP_PAGE - TAIL_ID))
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "signature: checksum mismatch");
	memcpy(r->orig_sig, p + TAIL_ORIG, PM_SNAP_SIGLEN);
	r->h.hdr_off = get64(p + TAIL_HOFF);
	if (!r->h.hdr_off || (r->io->npages && r->h.hdr_off >= r->io->npages))
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "signature: header page %llu is off the device (truncated image?)",
			   (unsigned long long)r->h.hdr_off);
	return 0;
}

static void sig_encode(uint8_t *p, const char *orig, uint64_t hdr_off,
		       const uint8_t *id)
{
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
	memcpy(p + TAIL_SIG, PM_SNAP_SIG, PM_SNAP_SIGLEN);
	memcpy(p + TAIL_ORIG, orig, PM_SNAP_SIGLEN);
	put64(p + TAIL_HOFF, hdr_off);
	memcpy(p + TAIL_ID, id, PM_SNAP_ID_LEN);
	put32(p + TAIL_CRC, pm_crc32c(0, p + TAIL_ID, PM_SNAP_PAGE - TAIL_ID));
}

int pm_snap_sig_restore(struct pm_snap_io *io, uint32_t resume_ms,
			char *whybuf, size_t whysize)
{
	uint8_t p[PM_SNAP_PAGE];
	int e = io->read(io->arg, 0, p);

	if (e)
		return why(whybuf, whysize, e, "page 0: read: %s",
			   strerror(-e));
	if (memcmp(p + TAIL_SIG, PM_SNAP_SIG, PM_SNAP_SIGLEN))
		return 0;
	memcpy(p + TAIL_SIG, p + TAIL_ORIG, PM_SNAP_SIGLEN);
	put32(p + TAIL_RMS, resume_ms);
	e = io->write(io->arg, 0, p);
	if (e)
		return why(whybuf, whysize, e, "page 0: write: %s",
			   strerror(-e));
	return 0;
}

/* ------------------------------------------------------------ reader */

static int page_read(struct pm_snapr *r, uint64_t page, void *buf,
		     const char *what)
{
	int e;

	if (r->io->npages && page >= r->io->npages)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "%s: page %llu is past the end (truncated image)",
			   what, (unsigned long long)page);
	e = r->io->read(r->io->arg, page, buf);
	if (e == -ENODATA)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "%s: page %llu is past the end (truncated image)",
			   what, (unsigned long long)page);
	if (e)
		return why(r->why, sizeof(r->why), e, "%s: page %llu: %s",
			   what, (unsigned long long)page, strerror(-e));
	return 0;
}

static int map_read(struct pm_snapr *r)
{
	uint64_t at = r->h.map_off, n = 0, i;
	uint8_t *p = r->page;
	uint32_t count;
	int e;

	r->map = malloc(r->h.data_pages * sizeof(*r->map) + 1);
	if (!r->map)
		return why(r->why, sizeof(r->why), -ENOMEM,
			   "map: out of memory");
	for (i = 0; i < r->h.map_pages; i++) {
		e = page_read(r, at, p, "map");
		if (e)
			return e;
		count = get32(p + 8);
		if (count > MAP_PER || count > r->h.data_pages - n ||
		    get32(p + 12) != pm_crc32c(pm_crc32c(0, p, 12),
					       p + MAP_HEAD, (size_t)8 * count))
			return why(r->why, sizeof(r->why), -EBADMSG,
				   "map page %llu (page %llu): checksum or count wrong",
				   (unsigned long long)i,
				   (unsigned long long)at);
		for (uint32_t k = 0; k < count; k++, n++) {
			r->map[n] = get64(p + MAP_HEAD + (size_t)8 * k);
			if (!r->map[n] || (r->io->npages &&
					   r->map[n] >= r->io->npages))
				return why(r->why, sizeof(r->why), -EBADMSG,
					   "map: data page %llu is page %llu, past the end (truncated image)",
					   (unsigned long long)n,
					   (unsigned long long)r->map[n]);
		}
		at = get64(p);
		if ((at == 0) != (i + 1 == r->h.map_pages))
			return why(r->why, sizeof(r->why), -EBADMSG,
				   "map page %llu: the chain ends early or goes on",
				   (unsigned long long)i);
	}
	if (n != r->h.data_pages)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "map: %llu data pages listed, the header says %llu",
			   (unsigned long long)n,
			   (unsigned long long)r->h.data_pages);
	return 0;
}

int pm_snapr_open(struct pm_snapr *r, struct pm_snap_io *io,
		  const char *release, const uint8_t *id)
{
	uint8_t *p, sigid[PM_SNAP_ID_LEN];
	int e;

	memset(r, 0, sizeof(*r));
	r->io = io;
	r->bad_block = -1;
	r->pageidx = UINT64_MAX;
	p = r->page;
	e = sig_read(r, p);
	if (e)
		return e;
	memcpy(sigid, p + TAIL_ID, PM_SNAP_ID_LEN);
	e = page_read(r, r->h.hdr_off, p, "header");
	if (e)
		return e;
	hdr_decode(&r->h, p);
	e = hdr_sane(r, p);
	if (e)
		return e;
	r->have_hdr = true;
	if (memcmp(sigid, r->h.id, PM_SNAP_ID_LEN))
		return why(r->why, sizeof(r->why), -ESTALE,
			   "the signature and the header have different ids (a stale header)");
	e = check_release(r, release, id);
	if (e)
		return e;
	e = map_read(r);
	if (e)
		return e;
	r->cbufsize = ZSTD_compressBound(PM_SNAP_BLOCK);
	r->cbuf = malloc(r->cbufsize);
	r->zd = ZSTD_createDCtx();
	if (!r->cbuf || !r->zd)
		return why(r->why, sizeof(r->why), -ENOMEM, "out of memory");
	return 0;
}

/* n bytes of the block stream at r->pos into dst. */
static int stream_read(struct pm_snapr *r, uint8_t *dst, size_t n,
		       const char *what)
{
	uint64_t idx;
	size_t off, k;
	int e;

	if (n > r->h.data_size - r->pos)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "%s: runs past the end of the data", what);
	while (n) {
		idx = r->pos / PM_SNAP_PAGE;
		off = r->pos % PM_SNAP_PAGE;
		if (idx != r->pageidx) {
			e = page_read(r, r->map[idx], r->page, what);
			if (e)
				return e;
			r->pageidx = idx;
		}
		k = PM_SNAP_PAGE - off < n ? PM_SNAP_PAGE - off : n;
		memcpy(dst, r->page + off, k);
		dst += k;
		r->pos += k;
		n -= k;
	}
	return 0;
}

static int bad_block(struct pm_snapr *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int bad_block(struct pm_snapr *r, const char *fmt, ...)
{
	int n = snprintf(r->why, sizeof(r->why), "block %u of %u: ", r->block,
			 r->h.nblocks);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why + n, sizeof(r->why) - (size_t)n, fmt, ap);
	va_end(ap);
	r->bad_block = r->block;
	return -EBADMSG;
}

/* After the last block: everything read and the whole image's CRC. */
static ssize_t stream_end(struct pm_snapr *r)
{
	if (r->pos != r->h.data_size)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "data: %llu bytes after the last block",
			   (unsigned long long)(r->h.data_size - r->pos));
	if (r->crc != r->h.image_crc)
		return why(r->why, sizeof(r->why), -EBADMSG,
			   "image: checksum mismatch (0x%08x, the header says 0x%08x)",
			   r->crc, r->h.image_crc);
	return 0;
}

ssize_t pm_snapr_next(struct pm_snapr *r, void *buf, size_t size)
{
	uint8_t bh[BLK_HDR] = { 0 };
	uint64_t left = r->h.image_size - r->out;
	uint32_t raw, comp, crc;
	size_t got;
	int e;

	if (r->block == r->h.nblocks)
		return stream_end(r);
	if (size < r->h.block_size)
		return why(r->why, sizeof(r->why), -EINVAL,
			   "a buffer of %zu bytes for blocks of %u", size,
			   r->h.block_size);
	e = stream_read(r, bh, BLK_HDR, "block header");
	if (e)
		return bad_block(r, "%s", r->why);
	raw = get32(bh + 8);
	comp = get32(bh + 12);
	if (get32(bh) != BLK_MAGIC || get32(bh + 4) != r->block)
		return bad_block(r, "no block header here (magic or number wrong)");
	if (raw != (left < r->h.block_size ? left : r->h.block_size) ||
	    !comp || comp > r->cbufsize)
		return bad_block(r, "sizes %u/%u wrong", raw, comp);
	e = stream_read(r, r->cbuf, comp, "block data");
	if (e)
		return bad_block(r, "%s", r->why);
	crc = pm_crc32c(pm_crc32c(0, bh, 20), r->cbuf, comp);
	if (crc != get32(bh + 20))
		return bad_block(r, "checksum mismatch (0x%08x, stored 0x%08x)",
				 crc, get32(bh + 20));
	got = ZSTD_decompressDCtx(r->zd, buf, raw, r->cbuf, comp);
	if (ZSTD_isError(got) || got != raw)
		return bad_block(r, "does not decompress to %u bytes (%s)", raw,
				 ZSTD_isError(got) ? ZSTD_getErrorName(got) :
				 "short");
	if (pm_crc32c(0, buf, raw) != get32(bh + 16))
		return bad_block(r, "checksum of the decompressed data mismatch");
	r->crc = pm_crc32c(r->crc, buf, raw);
	r->out += raw;
	r->block++;
	return raw;
}

void pm_snapr_close(struct pm_snapr *r)
{
	free(r->map);
	free(r->cbuf);
	ZSTD_freeDCtx(r->zd);
	r->map = NULL;
	r->cbuf = NULL;
	r->zd = NULL;
}

/* ------------------------------------------------------------ writer */

int pm_snapw_open(struct pm_snapw *w, struct pm_snap_io *io,
		  uint64_t image_size, const char *release, const uint8_t *id,
		  int level)
{
	memset(w, 0, sizeof(*w));
	w->io = io;
	w->level = level;
	if (!image_size || image_size % PM_SNAP_PAGE ||
	    image_size > PM_SNAP_IMAGE_MAX)
		return why(w->why, sizeof(w->why), -EINVAL,
			   "image size %llu is not a whole number of pages",
			   (unsigned long long)image_size);
	if (strlen(release) >= PM_SNAP_RELEASE_MAX)
		return why(w->why, sizeof(w->why), -EINVAL,
			   "kernel release too long");
	w->h.version = PM_SNAP_VERSION;
	w->h.image_size = image_size;
	w->h.page_count = image_size / PM_SNAP_PAGE;
	w->h.block_size = PM_SNAP_BLOCK;
	snprintf(w->h.release, sizeof(w->h.release), "%s", release);
	if (id)
		memcpy(w->h.id, id, PM_SNAP_ID_LEN);
	else if (getrandom(w->h.id, PM_SNAP_ID_LEN, 0) != PM_SNAP_ID_LEN)
		return why(w->why, sizeof(w->why), -errno ? -errno : -EIO,
			   "random id: %s", strerror(errno));
	w->t0 = mono_s();
	w->cbufsize = ZSTD_compressBound(PM_SNAP_BLOCK) + BLK_HDR;
	w->raw = malloc(PM_SNAP_BLOCK);
	w->cbuf = malloc(w->cbufsize);
	w->zc = ZSTD_createCCtx();
	if (!w->raw || !w->cbuf || !w->zc)
		return why(w->why, sizeof(w->why), -ENOMEM, "out of memory");
	return 0;
}

static int alloc_page(struct pm_snapw *w, uint64_t *page, const char *what)
{
	int e = w->io->alloc(w->io->arg, page);

	if (e)
		return why(w->why, sizeof(w->why), e,
			   "%s: no page to write to: %s", what, strerror(-e));
	if (!*page || (w->io->npages && *page >= w->io->npages))
		return why(w->why, sizeof(w->why), -ENOSPC,
			   "%s: page %llu is off the device", what,
			   (unsigned long long)*page);
	return 0;
}

static int write_page(struct pm_snapw *w, uint64_t page, const void *buf,
		      const char *what)
{
	int e = w->io->write(w->io->arg, page, buf);

	if (e)
		return why(w->why, sizeof(w->why), e, "%s: page %llu: %s",
			   what, (unsigned long long)page, strerror(-e));
	return 0;
}

/* The data page being filled, to a new page of the device. */
static int flush_page(struct pm_snapw *w)
{
	uint64_t page, *np;
	int e;

	if (w->h.data_pages == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 1024;
		np = realloc(w->pages, w->cap * sizeof(*np));
		if (!np)
			return why(w->why, sizeof(w->why), -ENOMEM,
				   "out of memory");
		w->pages = np;
	}
	e = alloc_page(w, &page, "data");
	if (!e)
		e = write_page(w, page, w->page, "data");
	if (e)
		return e;
	w->pages[w->h.data_pages++] = page;
	memset(w->page, 0, sizeof(w->page));
	w->pagepos = 0;
	return 0;
}

static int stream_write(struct pm_snapw *w, const uint8_t *p, size_t n)
{
	size_t k;
	int e;

	while (n) {
		k = PM_SNAP_PAGE - w->pagepos;
		if (k > n)
			k = n;
		memcpy(w->page + w->pagepos, p, k);
		w->pagepos += k;
		w->h.data_size += k;
		p += k;
		n -= k;
		if (w->pagepos == PM_SNAP_PAGE) {
			e = flush_page(w);
			if (e)
				return e;
		}
	}
	return 0;
}

static int block_write(struct pm_snapw *w)
{
	uint8_t *bh = w->cbuf;
	size_t c;

	c = ZSTD_compressCCtx(w->zc, w->cbuf + BLK_HDR, w->cbufsize - BLK_HDR,
			      w->raw, w->rawlen, w->level);
	if (ZSTD_isError(c))
		return why(w->why, sizeof(w->why), -EIO, "block %u: zstd: %s",
			   w->h.nblocks, ZSTD_getErrorName(c));
	put32(bh, BLK_MAGIC);
	put32(bh + 4, w->h.nblocks);
	put32(bh + 8, (uint32_t)w->rawlen);
	put32(bh + 12, (uint32_t)c);
	put32(bh + 16, pm_crc32c(0, w->raw, w->rawlen));
	put32(bh + 20, pm_crc32c(pm_crc32c(0, bh, 20), bh + BLK_HDR, c));
	w->h.image_crc = pm_crc32c(w->h.image_crc, w->raw, w->rawlen);
	w->h.nblocks++;
	w->rawlen = 0;
	return stream_write(w, w->cbuf, BLK_HDR + c);
}

int pm_snapw_add(struct pm_snapw *w, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t k;
	int e;

	if (len > w->h.image_size - w->added)
		return why(w->why, sizeof(w->why), -EFBIG,
			   "the snapshot is larger than its %llu bytes",
			   (unsigned long long)w->h.image_size);
	w->added += len;
	while (len) {
		k = PM_SNAP_BLOCK - w->rawlen;
		if (k > len)
			k = len;
		memcpy(w->raw + w->rawlen, p, k);
		w->rawlen += k;
		p += k;
		len -= k;
		if (w->rawlen == PM_SNAP_BLOCK) {
			e = block_write(w);
			if (e)
				return e;
		}
	}
	return 0;
}

/* The map chain: its pages allocated first, so each can name the next. */
static int map_write(struct pm_snapw *w)
{
	uint64_t n = div_up(w->h.data_pages, MAP_PER), *at, i, k, done = 0;
	uint8_t *p = w->page;
	uint32_t count;
	int e = 0;

	at = calloc(n + 1, sizeof(*at));
	if (!at)
		return why(w->why, sizeof(w->why), -ENOMEM, "out of memory");
	for (i = 0; i < n && !e; i++)
		e = alloc_page(w, &at[i], "map");
	for (i = 0; i < n && !e; i++) {
		memset(p, 0, PM_SNAP_PAGE);
		count = (uint32_t)(w->h.data_pages - done < MAP_PER ?
				   w->h.data_pages - done : MAP_PER);
		put64(p, at[i + 1]);
		put32(p + 8, count);
		for (k = 0; k < count; k++)
			put64(p + MAP_HEAD + 8 * k, w->pages[done++]);
		put32(p + 12, pm_crc32c(pm_crc32c(0, p, 12), p + MAP_HEAD,
					(size_t)8 * count));
		e = write_page(w, at[i], p, "map");
	}
	w->h.map_off = at[0];
	w->h.map_pages = n;
	free(at);
	return e;
}

/* Page 0 last: its own signature kept in the tail, ours in its place. */
static int sig_write(struct pm_snapw *w)
{
	uint8_t *p = w->page;
	char orig[PM_SNAP_SIGLEN];
	int e = w->io->read(w->io->arg, 0, p);

	if (e)
		return why(w->why, sizeof(w->why), e,
			   "signature: page 0: read: %s", strerror(-e));
	if (!memcmp(p + TAIL_SIG, PM_SNAP_SIG, PM_SNAP_SIGLEN))
		memcpy(orig, p + TAIL_ORIG, PM_SNAP_SIGLEN);
	else
		memcpy(orig, p + TAIL_SIG, PM_SNAP_SIGLEN);
	/* Only a swap area's header takes the signature: never a page of
	 * something else, whatever offset the device was given. */
	if (memcmp(orig, PM_SNAP_SWAPSIG, PM_SNAP_SIGLEN))
		return why(w->why, sizeof(w->why), -EINVAL,
			   "signature: page 0 is not a swap area's header "
			   "(no %s at its end: resume_offset is not the swap "
			   "file's first page, or mkswap's header never "
			   "reached the disk)", PM_SNAP_SWAPSIG);
	sig_encode(p, orig, w->h.hdr_off, w->h.id);
	return write_page(w, 0, p, "signature");
}

int pm_snapw_finish(struct pm_snapw *w)
{
	uint64_t hdr;
	int e = 0;

	if (w->added != w->h.image_size)
		return why(w->why, sizeof(w->why), -ENODATA,
			   "the snapshot ended after %llu of %llu bytes",
			   (unsigned long long)w->added,
			   (unsigned long long)w->h.image_size);
	if (w->rawlen)
		e = block_write(w);
	if (!e && w->pagepos)
		e = flush_page(w);
	if (!e)
		e = map_write(w);
	if (!e)
		e = alloc_page(w, &hdr, "header");
	if (e)
		return e;
	w->h.hdr_off = hdr;
	w->h.write_ms = (uint32_t)((mono_s() - w->t0) * 1000);
	hdr_encode(&w->h, w->page);
	e = write_page(w, hdr, w->page, "header");
	if (e)
		return e;
	/* The data, the map and the header on the disk before the page
	 * that makes them an image: written back in any order, the
	 * signature could land first, and a power cut then would leave a
	 * signature over a half-written image. */
	e = w->io->sync ? w->io->sync(w->io->arg) : 0;
	if (e)
		return why(w->why, sizeof(w->why), e,
			   "the image before its signature: fsync: %s",
			   strerror(-e));
	return sig_write(w);
}

void pm_snapw_free(struct pm_snapw *w)
{
	free(w->raw);
	free(w->cbuf);
	free(w->pages);
	ZSTD_freeCCtx(w->zc);
	w->raw = NULL;
	w->cbuf = NULL;
	w->pages = NULL;
	w->zc = NULL;
}

int pm_snap_last(struct pm_snap_io *io, const uint8_t *id,
		 struct pm_snap_hdr *h, uint32_t *resume_ms)
{
	uint8_t p[PM_SNAP_PAGE];
	uint64_t at;
	int e = io->read(io->arg, 0, p);

	if (e)
		return e;
	/* Put back by the reader: the tail as the writer left it but for
	 * the swap signature, which its checksum covered as ours. */
	if (!memcmp(p + TAIL_SIG, PM_SNAP_SIG, PM_SNAP_SIGLEN) ||
	    memcmp(p + TAIL_SIG, p + TAIL_ORIG, PM_SNAP_SIGLEN) ||
	    memcmp(p + TAIL_ID, id, PM_SNAP_ID_LEN))
		return -ENOENT;
	/* NOLINTNEXTLINE(bugprone-not-null-terminated-result) */
	memcpy(p + TAIL_SIG, PM_SNAP_SIG, PM_SNAP_SIGLEN);
	if (get32(p + TAIL_CRC) != pm_crc32c(0, p + TAIL_ID,
					     PM_SNAP_PAGE - TAIL_ID))
		return -ENOENT;
	*resume_ms = get32(p + TAIL_RMS);
	at = get64(p + TAIL_HOFF);
	e = io->read(io->arg, at, p);
	if (e)
		return e;
	if (memcmp(p, HDR_MAGIC, 8) ||
	    get32(p + HDR_LEN - 4) != pm_crc32c(0, p, HDR_LEN - 4))
		return -EBADMSG;
	hdr_decode(h, p);
	return memcmp(h->id, id, PM_SNAP_ID_LEN) ? -ENOENT : 0;
}

int pm_snap_new_id(uint8_t *id)
{
	if (getrandom(id, PM_SNAP_ID_LEN, 0) != PM_SNAP_ID_LEN)
		return errno ? -errno : -EIO;
	return 0;
}
