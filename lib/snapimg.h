/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: pmtools' hibernation image format (lib/snapimg.c).
 *
 * The kernel's snapshot (read from /dev/snapshot) is kept opaque and cut
 * into blocks of PM_SNAP_BLOCK bytes, each compressed with zstd and
 * written with a block header and two CRC32C checksums.  The image lives
 * on a device of 4 KiB pages addressed by number (a swap area: the pages
 * SNAPSHOT_ALLOC_SWAP_PAGE gives; a file: its pages in order):
 *
 *   page 0      the signature page: the swap header, whose last bytes
 *               ("SWAPSPACE2") are replaced by PM_SNAP_SIG and a tail
 *               that points to the header page.  Written last, so a
 *               half-written image is never taken for a whole one.
 *   header      struct pm_snap_hdr, checked by its own CRC32C.
 *   map pages   a chain of lists of the data pages, in order.
 *   data pages  the block stream: block header + zstd frame, packed.
 *
 * Every number is little-endian.  The reader checks every field and
 * every checksum, and names the block or page that is wrong.  Nothing
 * here prints.
 */
#ifndef PM_SNAPIMG_H
#define PM_SNAPIMG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PM_SNAP_PAGE 4096
#define PM_SNAP_VERSION 2
/* Uncompressed bytes per block: 64 pages. */
#define PM_SNAP_BLOCK ((size_t)256 * 1024)
#define PM_SNAP_RELEASE_MAX 65	/* struct utsname's release, NUL included */
#define PM_SNAP_ID_LEN 16
#define PM_SNAP_WHY_MAX 256
/* The last 10 bytes of page 0: ours, and the swap area's own. */
#define PM_SNAP_SIG "PMTOOLSIMG"
#define PM_SNAP_SWAPSIG "SWAPSPACE2"
#define PM_SNAP_SIGLEN 10
/* The header's flags: the image was written in the platform mode
 * (SNAPSHOT_PLATFORM_SUPPORT, /sys/power/disk "platform"), and is
 * restored in it, as the kernel does with its own images. */
#define PM_SNAP_F_PLATFORM 0x1u
#define PM_SNAP_F_KNOWN PM_SNAP_F_PLATFORM
/* No image is larger than 1 TiB: past it a header is not believed. */
#define PM_SNAP_IMAGE_MAX (1ULL << 40)

/* The header, decoded. */
struct pm_snap_hdr {
	uint32_t version;
	uint64_t image_size;	/* bytes of the kernel's snapshot */
	uint64_t page_count;	/* image_size / PM_SNAP_PAGE */
	uint64_t data_size;	/* bytes of the block stream */
	uint64_t data_pages;	/* pages it takes */
	uint64_t map_off;	/* page of the first map page */
	uint32_t block_size;
	uint32_t nblocks;
	uint32_t image_crc;	/* CRC32C of the whole snapshot */
	uint8_t id[PM_SNAP_ID_LEN];
	char release[PM_SNAP_RELEASE_MAX];
	uint32_t flags;		/* PM_SNAP_F_* */
	uint32_t write_ms;	/* the writer's time, open to finish */
	uint64_t hdr_off;	/* page of the header (from the signature) */
	uint64_t map_pages;	/* pages of the map chain */
};

/*
 * The device, one page at a time; each returns 0 or -errno.  alloc
 * (writer only) gives the next free page, never 0.  npages: the device's
 * size in pages, 0 when unknown; a page past it is a truncated image.
 */
struct pm_snap_io {
	int (*read)(void *arg, uint64_t page, void *buf);
	int (*write)(void *arg, uint64_t page, const void *buf);
	int (*alloc)(void *arg, uint64_t *page);
	void *arg;
	uint64_t npages;
	/* Everything written so far on the disk (fsync), or NULL when the
	 * pages are nowhere else to go (memory): the writer calls it
	 * before the signature, so that no signature reaches the disk
	 * ahead of the image it announces, and the error is the writer's. */
	int (*sync)(void *arg);
};

/*
 * A file or block device as a pm_snap_io.  Page 0, the signature page,
 * is the device's page sig_page: 0 for a swap partition or a copy of an
 * image in a file; for a swap file, resume_offset, the page of its swap
 * header on the device, where the kernel's resume reads it too.  Every
 * other page is the device's own (the kernel hands out swap pages as
 * device pages); a file's writer takes them in order after sig_page.
 */
struct pm_snap_fileio {
	int fd;
	uint64_t next;
	uint64_t sig_page;
};
int pm_snap_fileio_init(struct pm_snap_io *io, struct pm_snap_fileio *f,
			int fd, uint64_t sig_page);

/* CRC32C (Castagnoli, as iSCSI and ext4): crc = 0 to start. */
uint32_t pm_crc32c(uint32_t crc, const void *buf, size_t len);

struct pm_snapw {
	struct pm_snap_io *io;
	struct pm_snap_hdr h;
	void *zc;		/* ZSTD_CCtx */
	int level;
	uint8_t *raw;		/* the block being filled */
	size_t rawlen;
	uint8_t *cbuf;		/* its compressed form */
	size_t cbufsize;
	uint8_t page[PM_SNAP_PAGE];	/* the data page being filled */
	size_t pagepos;
	uint64_t *pages;	/* the data pages written, in order */
	size_t cap;
	uint64_t added;		/* snapshot bytes taken */
	double t0;		/* CLOCK_MONOTONIC at open */
	char why[PM_SNAP_WHY_MAX];
};

/*
 * Start an image of image_size bytes of a kernel of this release; id
 * NULL draws a random one.  level: zstd's (1 is fast, 19 small).
 * pm_snapw_add takes the snapshot in any pieces; pm_snapw_finish writes
 * the last block, the map, the header and then the signature.  Each
 * returns 0 or -errno, with w->why naming the step.
 */
int pm_snapw_open(struct pm_snapw *w, struct pm_snap_io *io,
		  uint64_t image_size, const char *release, const uint8_t *id,
		  int level);
int pm_snapw_add(struct pm_snapw *w, const void *buf, size_t len);
int pm_snapw_finish(struct pm_snapw *w);
void pm_snapw_free(struct pm_snapw *w);

struct pm_snapr {
	struct pm_snap_io *io;
	struct pm_snap_hdr h;
	void *zd;		/* ZSTD_DCtx */
	uint64_t *map;		/* the data pages, h.data_pages of them */
	uint8_t page[PM_SNAP_PAGE];
	uint64_t pageidx;	/* map index of page[], or UINT64_MAX */
	uint64_t pos;		/* offset in the block stream */
	uint8_t *cbuf;
	size_t cbufsize;
	uint32_t block;		/* the next block's number */
	uint64_t out;		/* snapshot bytes given */
	uint32_t crc;		/* CRC32C of them */
	char orig_sig[PM_SNAP_SIGLEN];	/* what page 0 said before */
	int64_t bad_block;	/* the block refused, or -1 */
	bool have_hdr;		/* h holds a header that was checked */
	char why[PM_SNAP_WHY_MAX];
};

/*
 * Open the image on io: the signature, the header and the map, each
 * checked.  release: the running kernel's (NULL: any); id: the image
 * expected (NULL: any).  -ENOENT: no image there (why says what page 0
 * holds); -EXDEV: another kernel's; -ESTALE: another id; -EBADMSG:
 * damaged or truncated; -ENOMEM; an io error as is.
 */
int pm_snapr_open(struct pm_snapr *r, struct pm_snap_io *io,
		  const char *release, const uint8_t *id);
/*
 * The next block, decompressed and checked, into buf (size at least
 * h.block_size): its length, or 0 after the last one (when the totals
 * and the image's checksum have been checked), or -errno (-EBADMSG with
 * r->bad_block set for a damaged block).
 */
ssize_t pm_snapr_next(struct pm_snapr *r, void *buf, size_t size);
void pm_snapr_close(struct pm_snapr *r);

/*
 * Put back page 0's own signature (what the writer found there), so the
 * swap area is a swap area again; 0 when there is no image.  The tail
 * stays, with resume_ms (the reader's time) beside it, for
 * pm_snap_last.
 */
int pm_snap_sig_restore(struct pm_snap_io *io, uint32_t resume_ms,
			char *why, size_t whysize);
/*
 * After a resume, the header of the image just restored, found through
 * page 0's tail when its id is id: 0, or -ENOENT (not there any more),
 * -EBADMSG.
 */
int pm_snap_last(struct pm_snap_io *io, const uint8_t *id,
		 struct pm_snap_hdr *h, uint32_t *resume_ms);
/* A random image id (getrandom): 0 or -errno. */
int pm_snap_new_id(uint8_t *id);

/* The id as 32 hex digits. */
void pm_snap_id_hex(const uint8_t *id, char *out /* 33 bytes */);

#endif /* PM_SNAPIMG_H */
