// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A POSIX ustar writer for `pmctl dump`: regular files, folders and
 * symlinks, names past the ustar limits in pax extended headers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dump.h"

/* Field offsets and widths of the ustar header (POSIX.1-2001 pax). */
#define T_NAME 0
#define T_NAME_LEN 100
#define T_MODE 100
#define T_UID 108
#define T_GID 116
#define T_SIZE 124
#define T_MTIME 136
#define T_CHKSUM 148
#define T_CHKSUM_LEN 8
#define T_TYPE 156
#define T_LINK 157
#define T_LINK_LEN 100
#define T_MAGIC 257
#define T_VERSION 263
#define T_UNAME 265
#define T_GNAME 297
#define T_DEVMAJOR 329
#define T_DEVMINOR 337
#define T_PREFIX 345
#define T_PREFIX_LEN 155

/* The largest size an 11-digit octal field holds: 8 GiB - 1. */
#define T_SIZE_MAX 077777777777ULL
/* The pax header's own name: "PaxHeaders/" and the member's last part. */
#define T_PAX_DIR "PaxHeaders/"

static const unsigned char zero_block[PM_TAR_BLOCK];

/* A zero-padded octal number of width-1 digits and a NUL. */
static int octal(unsigned char *field, size_t width, uint64_t v)
{
	char tmp[24];

	if (width - 1 < 22 && v >> (3 * (width - 1)))
		return -ERANGE;
	snprintf(tmp, sizeof(tmp), "%0*llo", (int)(width - 1),
		 (unsigned long long)v);
	memcpy(field, tmp, width);
	return 0;
}

unsigned pm_tar_checksum(const unsigned char hdr[PM_TAR_BLOCK])
{
	unsigned sum = 0;

	for (size_t i = 0; i < PM_TAR_BLOCK; i++)
		sum += i >= T_CHKSUM && i < T_CHKSUM + T_CHKSUM_LEN ? ' ' :
								      hdr[i];
	return sum;
}

int pm_tar_split(const char *name, size_t *prefix_len)
{
	size_t len = strlen(name);

	*prefix_len = 0;
	if (len <= T_NAME_LEN)
		return 0;
	/* The shortest prefix that leaves at most 100 bytes after it. */
	for (size_t i = len - T_NAME_LEN - 1; i < len - 1; i++) {
		if (name[i] != '/')
			continue;
		if (i > T_PREFIX_LEN || i == 0)
			return -ENAMETOOLONG;
		*prefix_len = i;
		return 0;
	}
	return -ENAMETOOLONG;
}

int pm_tar_header(unsigned char hdr[PM_TAR_BLOCK], const char *name, char type,
		  unsigned mode, uint64_t size, int64_t mtime, const char *link)
{
	size_t plen;
	int r = 0;

	memset(hdr, 0, PM_TAR_BLOCK);
	if (size > T_SIZE_MAX)
		return -EFBIG;
	if (pm_tar_split(name, &plen) < 0) {
		/* The pax record before it has the real name. */
		memcpy(hdr + T_NAME, name, T_NAME_LEN);
		r = -ENAMETOOLONG;
	} else if (plen) {
		memcpy(hdr + T_PREFIX, name, plen);
		memcpy(hdr + T_NAME, name + plen + 1, strlen(name + plen + 1));
	} else {
		memcpy(hdr + T_NAME, name, strlen(name));
	}
	if (link) {
		size_t llen = strlen(link);

		if (llen > T_LINK_LEN) {
			llen = T_LINK_LEN;
			r = -ENAMETOOLONG;
		}
		memcpy(hdr + T_LINK, link, llen);
	}
	octal(hdr + T_MODE, 8, mode & 07777);
	octal(hdr + T_UID, 8, 0);
	octal(hdr + T_GID, 8, 0);
	octal(hdr + T_SIZE, 12, size);
	octal(hdr + T_MTIME, 12, mtime > 0 ? (uint64_t)mtime : 0);
	hdr[T_TYPE] = (unsigned char)type;
	memcpy(hdr + T_MAGIC, "ustar", 6);
	memcpy(hdr + T_VERSION, "00", 2);
	memcpy(hdr + T_UNAME, "root", 4);
	memcpy(hdr + T_GNAME, "root", 4);
	octal(hdr + T_DEVMAJOR, 8, 0);
	octal(hdr + T_DEVMINOR, 8, 0);
	/* Six digits, a NUL and a space, as POSIX and GNU tar write it. */
	char sum[8];

	snprintf(sum, sizeof(sum), "%06o", pm_tar_checksum(hdr));
	memcpy(hdr + T_CHKSUM, sum, 7);
	hdr[T_CHKSUM + 7] = ' ';
	return r;
}

size_t pm_tar_pax_record(char *buf, size_t size, const char *key,
			 const char *value)
{
	/* "LEN key=value\n": LEN counts its own digits too. */
	size_t base = 1 + strlen(key) + 1 + strlen(value) + 1, len, digits;
	char tmp[24];

	digits = (size_t)snprintf(tmp, sizeof(tmp), "%zu", base);
	len = base + digits;
	if ((size_t)snprintf(tmp, sizeof(tmp), "%zu", len) > digits)
		len++;
	if (size)
		snprintf(buf, size, "%zu %s=%s\n", len, key, value);
	return len;
}

void pm_tar_init(struct pm_tar *t, FILE *f, int64_t mtime)
{
	memset(t, 0, sizeof(*t));
	t->f = f;
	t->mtime = mtime;
}

static int put(struct pm_tar *t, const void *p, size_t n)
{
	if (t->err)
		return -t->err;
	errno = 0;
	if (n && fwrite(p, 1, n, t->f) != n) {
		t->err = errno ? errno : EIO;
		return -t->err;
	}
	t->written += n;
	return 0;
}

/* Data, then zeros up to the next block. */
static int put_data(struct pm_tar *t, const void *data, size_t size)
{
	size_t pad = (PM_TAR_BLOCK - size % PM_TAR_BLOCK) % PM_TAR_BLOCK;
	int r = put(t, data, size);

	return r < 0 ? r : put(t, zero_block, pad);
}

/* A pax 'x' header with path and/or linkpath for the member after it. */
static int put_pax(struct pm_tar *t, const char *name, bool long_name,
		   const char *link, bool long_link)
{
	size_t nlen = long_name ? pm_tar_pax_record(NULL, 0, "path", name) : 0;
	size_t llen = long_link ? pm_tar_pax_record(NULL, 0, "linkpath", link) :
				  0;
	unsigned char hdr[PM_TAR_BLOCK];
	char pname[T_NAME_LEN + 1];
	const char *base = strrchr(name, '/');
	char *rec;
	int r;

	base = base && base[1] ? base + 1 : name;
	snprintf(pname, sizeof(pname), "%s%.*s", T_PAX_DIR,
		 (int)(T_NAME_LEN - strlen(T_PAX_DIR)), base);
	rec = malloc(nlen + llen + 1);
	if (!rec)
		return -(t->err = ENOMEM);
	if (long_name)
		pm_tar_pax_record(rec, nlen + 1, "path", name);
	if (long_link)
		pm_tar_pax_record(rec + nlen, llen + 1, "linkpath", link);
	pm_tar_header(hdr, pname, PM_TAR_PAX, 0644, nlen + llen, t->mtime,
		      NULL);
	r = put(t, hdr, sizeof(hdr));
	if (!r)
		r = put_data(t, rec, nlen + llen);
	free(rec);
	return r;
}

static int member(struct pm_tar *t, const char *name, char type, unsigned mode,
		  const void *data, size_t size, const char *link)
{
	unsigned char hdr[PM_TAR_BLOCK];
	size_t plen;
	int r;

	if (t->err)
		return -t->err;
	r = pm_tar_header(hdr, name, type, mode, size, t->mtime, link);
	if (r == -EFBIG)
		return r;
	if (r == -ENAMETOOLONG) {
		bool long_name = pm_tar_split(name, &plen) < 0;
		bool long_link = link && strlen(link) > T_LINK_LEN;

		r = put_pax(t, name, long_name, link, long_link);
		if (r < 0)
			return r;
	}
	r = put(t, hdr, sizeof(hdr));
	return r < 0 ? r : put_data(t, data, size);
}

int pm_tar_file(struct pm_tar *t, const char *name, unsigned mode,
		const void *data, size_t size)
{
	return member(t, name, PM_TAR_REG, mode, data, size, NULL);
}

int pm_tar_dir(struct pm_tar *t, const char *name, unsigned mode)
{
	size_t len = strlen(name);
	char *d = malloc(len + 2);
	int r;

	if (!d)
		return -(t->err = ENOMEM);
	/* Folders end in '/', as every tar writes them. */
	memcpy(d, name, len);
	d[len] = '/';
	d[len + 1] = '\0';
	if (len && name[len - 1] == '/')
		d[len] = '\0';
	r = member(t, d, PM_TAR_DIR, mode, NULL, 0, NULL);
	free(d);
	return r;
}

int pm_tar_symlink(struct pm_tar *t, const char *name, const char *target)
{
	return member(t, name, PM_TAR_SYMLINK, 0777, NULL, 0, target);
}

int pm_tar_finish(struct pm_tar *t)
{
	int r = put(t, zero_block, sizeof(zero_block));

	if (!r)
		r = put(t, zero_block, sizeof(zero_block));
	errno = 0;
	if (!r && fflush(t->f) != 0)
		r = -(t->err = errno ? errno : EIO);
	return r;
}
