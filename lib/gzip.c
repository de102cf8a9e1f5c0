// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A gzip writer (RFC 1952 around one RFC 1951 deflate stream) for pmctl
 * dump -o FILE.tar.gz: LZ77 matches over the 32 KiB window, coded with
 * the fixed Huffman codes.  No library and no child process: the dump
 * stays one program writing one temporary file, in the static build too.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

#define WSIZE 32768		/* the deflate window */
#define BUF_SIZE ((size_t)3 * WSIZE)	/* history + input coded at once */
#define MIN_MATCH 3
#define MAX_MATCH 258
#define HASH_BITS 15
#define HASH_SIZE (1 << HASH_BITS)
/* Candidates tried per position: zlib's level 6 tries 128. */
#define MAX_CHAIN 64
#define END_OF_BLOCK 256
#define OUT_SIZE 16384

/* RFC 1951 3.2.5: length codes 257..285 and distance codes 0..29. */
static const uint16_t len_base[29] = {
	3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
	31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
};
static const uint8_t len_extra[29] = {
	0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
	2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
};
static const uint16_t dist_base[30] = {
	1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
	33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
	1025, 1537, 2049, 3073, 4097, 6145,  8193,  12289, 16385, 24577,
};
static const uint8_t dist_extra[30] = {
	0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
	6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
};

struct pm_gzip {
	FILE *out;
	int err;			/* first error (errno) */
	uint32_t crc, size;
	uint32_t crc_table[256];
	unsigned char buf[BUF_SIZE];
	size_t len, start;		/* valid bytes; first not coded */
	int32_t head[HASH_SIZE];	/* last position of each hash */
	int32_t prev[BUF_SIZE];		/* the position before, same hash */
	uint64_t bits;			/* bits not yet written, LSB first */
	unsigned nbits;
	unsigned char obuf[OUT_SIZE];
	size_t olen;
};

static void crc_init(struct pm_gzip *z)
{
	for (uint32_t n = 0; n < 256; n++) {
		uint32_t c = n;

		for (int k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320U ^ (c >> 1) : c >> 1;
		z->crc_table[n] = c;
	}
	z->crc = 0xffffffffU;
}

static void crc_add(struct pm_gzip *z, const unsigned char *p, size_t n)
{
	uint32_t c = z->crc;

	while (n--)
		c = z->crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	z->crc = c;
}

static void out_flush(struct pm_gzip *z)
{
	if (z->olen && !z->err && fwrite(z->obuf, 1, z->olen, z->out) != z->olen)
		z->err = errno ? errno : EIO;
	z->olen = 0;
}

static void out_byte(struct pm_gzip *z, unsigned char c)
{
	if (z->olen == OUT_SIZE)
		out_flush(z);
	z->obuf[z->olen++] = c;
}

/* n bits of v, least significant first (extra bits, headers). */
static void put_bits(struct pm_gzip *z, uint32_t v, unsigned n)
{
	z->bits |= (uint64_t)v << z->nbits;
	z->nbits += n;
	while (z->nbits >= 8) {
		out_byte(z, (unsigned char)z->bits);
		z->bits >>= 8;
		z->nbits -= 8;
	}
}

/* A Huffman code of n bits, most significant first. */
static void put_code(struct pm_gzip *z, uint32_t code, unsigned n)
{
	uint32_t r = 0;

	for (unsigned i = 0; i < n; i++)
		r |= ((code >> i) & 1) << (n - 1 - i);
	put_bits(z, r, n);
}

/* RFC 1951 3.2.6: the fixed literal/length code. */
static void put_lit(struct pm_gzip *z, unsigned v)
{
	if (v < 144)
		put_code(z, 0x30 + v, 8);
	else if (v < 256)
		put_code(z, 0x190 + v - 144, 9);
	else if (v < 280)
		put_code(z, v - 256, 7);
	else
		put_code(z, 0xc0 + v - 280, 8);
}

static void put_match(struct pm_gzip *z, unsigned len, unsigned dist)
{
	int l = 28, d = 29;

	while (len_base[l] > len)
		l--;
	put_lit(z, 257 + (unsigned)l);
	put_bits(z, len - len_base[l], len_extra[l]);
	while (dist_base[d] > dist)
		d--;
	put_code(z, (uint32_t)d, 5);
	put_bits(z, dist - dist_base[d], dist_extra[d]);
}

static unsigned hash3(const unsigned char *p)
{
	return ((unsigned)p[0] << 10 ^ (unsigned)p[1] << 5 ^ p[2]) &
	       (HASH_SIZE - 1);
}

/* The longest earlier match of the bytes at pos, within the window. */
static unsigned longest(struct pm_gzip *z, size_t pos, unsigned *dist)
{
	size_t max = z->len - pos < MAX_MATCH ? z->len - pos : MAX_MATCH;
	int32_t cand = z->head[hash3(z->buf + pos)];
	unsigned best = 0;

	for (int chain = 0; cand >= 0 && chain < MAX_CHAIN; chain++) {
		size_t c = (size_t)cand, n = 0;

		if (pos - c > WSIZE)
			break;
		while (n < max && z->buf[c + n] == z->buf[pos + n])
			n++;
		if (n > best) {
			best = (unsigned)n;
			*dist = (unsigned)(pos - c);
			if (n == max)
				break;
		}
		cand = z->prev[c];
	}
	return best >= MIN_MATCH ? best : 0;
}

static void insert(struct pm_gzip *z, size_t pos)
{
	unsigned h;

	if (pos + MIN_MATCH > z->len)
		return;
	h = hash3(z->buf + pos);
	z->prev[pos] = z->head[h];
	z->head[h] = (int32_t)pos;
}

/* Code the input not coded yet as one block; last: the final one. */
static void code_block(struct pm_gzip *z, bool last)
{
	size_t pos = z->start;

	put_bits(z, last ? 1 : 0, 1);	/* BFINAL */
	put_bits(z, 1, 2);		/* BTYPE 01: fixed codes */
	while (pos < z->len) {
		unsigned dist = 0, n = 0;

		if (pos + MIN_MATCH <= z->len)
			n = longest(z, pos, &dist);
		if (!n) {
			put_lit(z, z->buf[pos]);
			insert(z, pos++);
			continue;
		}
		put_match(z, n, dist);
		for (unsigned i = 0; i < n; i++)
			insert(z, pos++);
	}
	put_lit(z, END_OF_BLOCK);
	z->start = z->len;
}

/* Keep the last window as history, positions moved down with it. */
static void slide(struct pm_gzip *z)
{
	size_t drop = z->len - WSIZE;

	memmove(z->buf, z->buf + drop, WSIZE);
	for (int i = 0; i < HASH_SIZE; i++)
		z->head[i] = z->head[i] >= (int32_t)drop ?
				     z->head[i] - (int32_t)drop :
				     -1;
	for (size_t i = 0; i < WSIZE; i++)
		z->prev[i] = z->prev[i + drop] >= (int32_t)drop ?
				     z->prev[i + drop] - (int32_t)drop :
				     -1;
	z->len = z->start = WSIZE;
}

static ssize_t gz_write(void *cookie, const char *data, size_t n)
{
	struct pm_gzip *z = cookie;
	size_t done = 0;

	if (z->err) {
		errno = z->err;
		return -1;
	}
	crc_add(z, (const unsigned char *)data, n);
	z->size += (uint32_t)n;
	while (done < n) {
		size_t room = BUF_SIZE - z->len;
		size_t k = n - done < room ? n - done : room;

		memcpy(z->buf + z->len, data + done, k);
		z->len += k;
		done += k;
		if (z->len == BUF_SIZE) {
			code_block(z, false);
			slide(z);
		}
	}
	if (z->err) {
		errno = z->err;
		return -1;
	}
	return (ssize_t)n;
}

/* The last block and the trailer; the stream under it stays open. */
static int gz_close(void *cookie)
{
	struct pm_gzip *z = cookie;
	uint32_t crc = z->crc ^ 0xffffffffU;
	int err;

	code_block(z, true);
	if (z->nbits)
		put_bits(z, 0, 8 - z->nbits);
	for (int i = 0; i < 4; i++)
		out_byte(z, (unsigned char)(crc >> (8 * i)));
	for (int i = 0; i < 4; i++)
		out_byte(z, (unsigned char)(z->size >> (8 * i)));
	out_flush(z);
	err = z->err;
	free(z);
	if (err) {
		errno = err;
		return -1;
	}
	return 0;
}

FILE *pm_gzip_open(FILE *out, int64_t mtime)
{
	static const cookie_io_functions_t io = {
		.write = gz_write,
		.close = gz_close,
	};
	struct pm_gzip *z = calloc(1, sizeof(*z));
	uint32_t mt = mtime > 0 && mtime <= UINT32_MAX ? (uint32_t)mtime : 0;
	FILE *f;

	if (!z)
		return NULL;
	z->out = out;
	crc_init(z);
	for (int i = 0; i < HASH_SIZE; i++)
		z->head[i] = -1;
	/* ID1 ID2, CM deflate, no flags, MTIME, XFL, OS Unix. */
	out_byte(z, 0x1f);
	out_byte(z, 0x8b);
	out_byte(z, 8);
	out_byte(z, 0);
	for (int i = 0; i < 4; i++)
		out_byte(z, (unsigned char)(mt >> (8 * i)));
	out_byte(z, 0);
	out_byte(z, 3);
	f = fopencookie(z, "w", io);
	if (!f)
		free(z);
	return f;
}

bool pm_gzip_name(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	return (n > 3 && !strcmp(path + n - 3, ".gz")) ||
	       (n > 4 && !strcmp(path + n - 4, ".tgz"));
}
