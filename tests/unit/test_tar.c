// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the ustar writer (lib/tar.c): octal fields, the checksum,
 * the prefix split, pax records for long names and links, sizes around a
 * block, and the two zero blocks at the end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"
#include "tap.h"

/* A field as a C string (ustar fields may fill their width: no NUL). */
static char *field(const unsigned char *h, size_t off, size_t len)
{
	static char buf[8][256];
	static int k;
	char *b = buf[k++ % 8];

	memcpy(b, h + off, len);
	b[len] = '\0';
	return b;
}

static unsigned long long octal_of(const unsigned char *h, size_t off,
				   size_t len)
{
	return strtoull(field(h, off, len), NULL, 8);
}

/* The checksum summed here, independently of pm_tar_checksum. */
static unsigned sum_of(const unsigned char *h)
{
	unsigned s = 0;

	for (int i = 0; i < PM_TAR_BLOCK; i++)
		s += (i >= 148 && i < 156) ? 32 : h[i];
	return s;
}

/* n copies of c, freed at the end by pool_free. */
static char *pool[64];
static int npool;

static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	if (!s || npool == (int)(sizeof(pool) / sizeof(pool[0]))) {
		fputs("repeat: out of room\n", stderr);
		exit(99);
	}
	memset(s, c, n);
	s[n] = '\0';
	pool[npool++] = s;
	return s;
}

static void pool_free(void)
{
	while (npool)
		free(pool[--npool]);
}

static void test_fields(void)
{
	unsigned char h[PM_TAR_BLOCK];
	int r = pm_tar_header(h, "sys/power/state", PM_TAR_REG, 0644, 17,
			      1700000000, NULL);

	is_int(r, 0, "a short name fits");
	is_str(field(h, 0, 100), "sys/power/state", "name field");
	is_str(field(h, 345, 155), "", "no prefix");
	is_str(field(h, 100, 8), "0000644", "mode: 7 octal digits and NUL");
	ok(h[107] == 0, "mode ends in NUL");
	is_str(field(h, 108, 8), "0000000", "uid 0");
	is_str(field(h, 116, 8), "0000000", "gid 0");
	is_str(field(h, 124, 12), "00000000021", "size 17 in 11 octal digits");
	is_str(field(h, 136, 12), "14524770400", "mtime in octal");
	ok(h[156] == '0', "type regular file");
	is_str(field(h, 257, 6), "ustar", "magic");
	ok(!memcmp(h + 263, "00", 2), "version 00");
	is_str(field(h, 265, 32), "root", "uname");
	is_str(field(h, 297, 32), "root", "gname");
	is_u64(octal_of(h, 148, 8), sum_of(h), "checksum matches the bytes");
	is_u64(pm_tar_checksum(h), sum_of(h), "pm_tar_checksum agrees");
	ok(h[154] == 0 && h[155] == ' ', "checksum: 6 digits, NUL, space");

	pm_tar_header(h, "sys/power/disk", PM_TAR_REG, 0100400, 0, 0, NULL);
	is_str(field(h, 100, 8), "0000400", "mode 0400: type bits dropped");
	pm_tar_header(h, "sys/x/reset", PM_TAR_REG, 0200, 0, 0, NULL);
	is_str(field(h, 100, 8), "0000200", "mode 0200 kept");
	pm_tar_header(h, "sys/x/y", PM_TAR_REG, 04755, 0, 0, NULL);
	is_str(field(h, 100, 8), "0004755", "set-id bits kept");

	r = pm_tar_header(h, "sys/class/power_supply/BAT0", PM_TAR_SYMLINK,
			  0777, 0, 0,
			  "../../devices/LNXSYSTM:00/power_supply/BAT0");
	is_int(r, 0, "a symlink with a short target");
	ok(h[156] == '2', "type symlink");
	is_str(field(h, 157, 100),
	       "../../devices/LNXSYSTM:00/power_supply/BAT0",
	       "link target kept relative");

	r = pm_tar_header(h, "x", PM_TAR_REG, 0644, 077777777777ULL, 0, NULL);
	is_int(r, 0, "8 GiB - 1 fits");
	is_str(field(h, 124, 12), "77777777777", "largest size");
	r = pm_tar_header(h, "x", PM_TAR_REG, 0644, 077777777777ULL + 1, 0,
			  NULL);
	is_int(r, -EFBIG, "8 GiB is -EFBIG");
}

static void test_split(void)
{
	unsigned char h[PM_TAR_BLOCK];
	char name[400], *a100 = repeat('a', 100), *a101 = repeat('a', 101);
	size_t plen;
	int r;

	is_int(pm_tar_split(a100, &plen), 0, "100 bytes: no split needed");
	is_u64(plen, 0, "100 bytes: no prefix");
	pm_tar_header(h, a100, PM_TAR_REG, 0644, 0, 0, NULL);
	is_str(field(h, 0, 100), a100, "100 bytes fill the name field");
	is_int(pm_tar_split(a101, &plen), -ENAMETOOLONG,
	       "101 bytes without '/' cannot split");

	/* 60 + '/' + 99 = 160 bytes. */
	snprintf(name, sizeof(name), "%s/%s", repeat('p', 60), repeat('n', 99));
	is_int(pm_tar_split(name, &plen), 0, "160 bytes split");
	is_u64(plen, 60, "at the '/' after 60 bytes");
	r = pm_tar_header(h, name, PM_TAR_REG, 0644, 0, 0, NULL);
	is_int(r, 0, "header with a prefix");
	is_str(field(h, 345, 155), repeat('p', 60), "prefix field");
	is_str(field(h, 0, 100), repeat('n', 99), "name field after the split");

	/* The shortest prefix that leaves <= 100 bytes: a/.../ picks the
	 * first '/' at or after len - 101. */
	snprintf(name, sizeof(name), "sys/%s/%s/%s", repeat('a', 50),
		 repeat('b', 50), repeat('c', 50));
	is_int(pm_tar_split(name, &plen), 0, "several '/': split");
	is_u64(plen, 4 + 50 + 1 + 50, "the name part is as long as it can be");

	/* 155 + '/' + 100 = 256 bytes: the largest that fits. */
	snprintf(name, sizeof(name), "%s/%s", repeat('p', 155),
		 repeat('n', 100));
	is_int(pm_tar_split(name, &plen), 0, "155 + 100 bytes split");
	snprintf(name, sizeof(name), "%s/%s", repeat('p', 156),
		 repeat('n', 99));
	is_int(pm_tar_split(name, &plen), -ENAMETOOLONG,
	       "a prefix of 156 bytes does not fit");
	snprintf(name, sizeof(name), "%s/%s", repeat('p', 10),
		 repeat('n', 101));
	is_int(pm_tar_split(name, &plen), -ENAMETOOLONG,
	       "a last part of 101 bytes does not fit");
	r = pm_tar_header(h, name, PM_TAR_REG, 0644, 0, 0, NULL);
	is_int(r, -ENAMETOOLONG, "the header says a pax record is needed");
	snprintf(name, sizeof(name), "/%s", repeat('n', 100));
	is_int(pm_tar_split(name, &plen), -ENAMETOOLONG,
	       "an empty prefix is no split");
	snprintf(name, sizeof(name), "%s/", repeat('n', 100));
	is_int(pm_tar_split(name, &plen), -ENAMETOOLONG,
	       "a folder's trailing '/' is no split");
}

static void test_pax_record(void)
{
	char buf[2048], *v;

	is_u64(pm_tar_pax_record(buf, sizeof(buf), "path", "a/b"), 12,
	       "record length");
	is_str(buf, "12 path=a/b\n", "record text");
	/* 1 + 4 + 1 + 91 + 1 = 98 + 2 digits = 100: three digits, 101. */
	v = repeat('x', 91);
	is_u64(pm_tar_pax_record(buf, sizeof(buf), "path", v), 101,
	       "the length's own digits carry over (98 -> 101)");
	ok(!strncmp(buf, "101 path=", 9) && strlen(buf) == 101,
	   "the record is as long as it says");
	v = repeat('x', 89);	/* 96 + 2 = 98 */
	is_u64(pm_tar_pax_record(buf, sizeof(buf), "path", v), 98,
	       "two digits suffice at 98");
	is_u64(strlen(buf), 98, "98 bytes written");
	is_u64(pm_tar_pax_record(NULL, 0, "linkpath", "t"), 14,
	       "length without a buffer");
}

/* An archive in memory. */
struct mem {
	FILE *f;
	char *buf;
	size_t len;
	struct pm_tar t;
};

static void mem_open(struct mem *m)
{
	memset(m, 0, sizeof(*m));
	m->f = open_memstream(&m->buf, &m->len);
	if (!m->f) {
		perror("open_memstream");
		exit(99);
	}
	pm_tar_init(&m->t, m->f, 1700000000);
}

static void mem_close(struct mem *m)
{
	fclose(m->f);
	free(m->buf);
}

static bool all_zero(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

static void test_sizes(void)
{
	static const size_t sizes[] = { 0, 1, 511, 512, 513, 4096 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		size_t n = sizes[i], data_blocks = (n + 511) / 512;
		char *data = repeat('d', n);
		const unsigned char *h;
		struct mem m;
		int r;

		mem_open(&m);
		r = pm_tar_file(&m.t, "proc/stat", 0444, data, n);
		is_int(r, 0, "size %zu: written", n);
		r = pm_tar_finish(&m.t);
		is_int(r, 0, "size %zu: finished", n);
		is_u64(m.len, 512 * (1 + data_blocks + 2),
		       "size %zu: header, %zu data blocks, two zero blocks", n,
		       data_blocks);
		is_u64(m.t.written, m.len, "size %zu: written counts it", n);
		h = (const unsigned char *)m.buf;
		is_u64(octal_of(h, 124, 12), n, "size %zu: size field", n);
		ok(!n || !memcmp(m.buf + 512, data, n), "size %zu: the data",
		   n);
		ok(all_zero(m.buf + 512 + n, 512 * data_blocks - n),
		   "size %zu: padded with zeros", n);
		ok(all_zero(m.buf + m.len - 1024, 1024),
		   "size %zu: ends with two zero blocks", n);
		mem_close(&m);
	}
}

static void test_members(void)
{
	struct mem m;
	const unsigned char *h;
	char name[600], link[300];
	size_t reclen;

	mem_open(&m);
	pm_tar_dir(&m.t, "sys/power", 0755);
	pm_tar_finish(&m.t);
	h = (const unsigned char *)m.buf;
	is_str(field(h, 0, 100), "sys/power/", "a folder ends in '/'");
	ok(h[156] == '5', "type folder");
	is_u64(octal_of(h, 124, 12), 0, "a folder has size 0");
	is_u64(m.len, 512 * 3, "a folder is one header");
	mem_close(&m);

	/* A path past 255 bytes: a pax 'x' header with path first. */
	snprintf(name, sizeof(name), "sys/devices/%s/%s/%s/power/control",
		 repeat('a', 90), repeat('b', 90), repeat('c', 90));
	mem_open(&m);
	is_int(pm_tar_file(&m.t, name, 0644, "auto\n", 5), 0,
	       "a %zu-byte path is written", strlen(name));
	pm_tar_finish(&m.t);
	h = (const unsigned char *)m.buf;
	ok(h[156] == 'x', "a pax extended header comes first");
	ok(!strncmp(field(h, 0, 100), "PaxHeaders/", 11),
	   "named PaxHeaders/...: %s", field(h, 0, 100));
	is_u64(octal_of(h, 148, 8), sum_of(h), "its checksum");
	reclen = pm_tar_pax_record(NULL, 0, "path", name);
	is_u64(octal_of(h, 124, 12), reclen, "its size is the record's");
	{
		char want[700];

		pm_tar_pax_record(want, sizeof(want), "path", name);
		ok(!memcmp(m.buf + 512, want, reclen), "the path record");
	}
	size_t next = 512 + (reclen + 511) / 512 * 512;

	h = (const unsigned char *)m.buf + next;
	ok(h[156] == '0', "then the file's own header");
	is_u64(octal_of(h, 124, 12), 5, "with the file's size");
	ok(!memcmp(m.buf + next + 512, "auto\n", 5), "and its data");
	is_u64(m.len, next + 512 + 512 + 1024, "nothing else");
	mem_close(&m);

	/* A link target past 100 bytes: pax linkpath, name in the header. */
	snprintf(link, sizeof(link), "../../devices/%s/%s", repeat('l', 60),
		 repeat('m', 60));
	mem_open(&m);
	is_int(pm_tar_symlink(&m.t, "sys/class/power_supply/BAT0", link), 0,
	       "a symlink with a %zu-byte target", strlen(link));
	pm_tar_finish(&m.t);
	h = (const unsigned char *)m.buf;
	ok(h[156] == 'x', "pax header for the long target");
	reclen = pm_tar_pax_record(NULL, 0, "linkpath", link);
	is_u64(octal_of(h, 124, 12), reclen, "only a linkpath record");
	{
		char want[400];

		pm_tar_pax_record(want, sizeof(want), "linkpath", link);
		ok(!memcmp(m.buf + 512, want, reclen), "the linkpath record");
	}
	h = (const unsigned char *)m.buf + 512 + (reclen + 511) / 512 * 512;
	ok(h[156] == '2', "then the symlink header");
	is_str(field(h, 0, 100), "sys/class/power_supply/BAT0",
	       "its name in the header");
	is_str(field(h, 100, 8), "0000777", "mode 0777");
	mem_close(&m);
}

/* A stream that fails: the error is kept and nothing more is written. */
static void test_write_error(void)
{
	FILE *f = fopen("/dev/full", "w");
	struct pm_tar t;
	char data[4096] = { 0 };
	int r = 0;

	if (!f) {
		skip("no /dev/full", "write errors");
		return;
	}
	setvbuf(f, NULL, _IONBF, 0);
	pm_tar_init(&t, f, 0);
	r = pm_tar_file(&t, "proc/stat", 0444, data, sizeof(data));
	is_int(r, -ENOSPC, "a full disk is -ENOSPC");
	is_int(t.err, ENOSPC, "kept in err");
	is_int(pm_tar_dir(&t, "sys", 0755), -ENOSPC, "later writes refused");
	is_int(pm_tar_finish(&t), -ENOSPC, "finish reports it");
	fclose(f);
}

int main(void)
{
	test_fields();
	test_split();
	test_pax_record();
	test_sizes();
	test_members();
	test_write_error();
	pool_free();
	return done_testing();
}
