// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of lib/nl80211.c: requests compared with bytes built by
 * hand from the kernel's format (struct nlmsghdr, struct genlmsghdr,
 * struct nlattr, in the host's byte order as netlink's are; the
 * numbers are the kernel's ABI: CTRL_CMD_GETFAMILY 3, CTRL_ATTR_FAMILY_NAME
 * 2, CTRL_ATTR_FAMILY_ID 1, NL80211_CMD_SET_POWER_SAVE 61,
 * NL80211_CMD_GET_POWER_SAVE 62, NL80211_ATTR_IFINDEX 3, _IFNAME 4,
 * _IFTYPE 5, _PS_STATE 93); replies parsed, good and cut short; the
 * interface names taken; the guard; the journal's 'n' record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

static char root[] = "/tmp/pmtools-test-nl80211.XXXXXX";

/* Netlink's numbers are in the host's byte order. */
#define B(v, k) (unsigned char)(((v) >> (8 * (k))) & 0xff)
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define H16(v) B(v, 1), B(v, 0)
#define H32(v) B(v, 3), B(v, 2), B(v, 1), B(v, 0)
#else
#define H16(v) B(v, 0), B(v, 1)
#define H32(v) B(v, 0), B(v, 1), B(v, 2), B(v, 3)
#endif

static void test_build(void)
{
	/* GETFAMILY "nl80211", seq 7, REQUEST|ACK (1|4). */
	static const unsigned char fam[] = {
		H32(32), H16(0x10), H16(5), H32(7), H32(0),
		3, 1, 0, 0,
		H16(12), H16(2), 'n', 'l', '8', '0', '2', '1', '1', 0,
	};
	/* SET_POWER_SAVE ifindex 3, PS_STATE 1, family 0x1c, seq 9. */
	static const unsigned char set[] = {
		H32(36), H16(0x1c), H16(5), H32(9), H32(0),
		61, 1, 0, 0,
		H16(8), H16(3), H32(3),
		H16(8), H16(93), H32(1),
	};
	unsigned char buf[64];
	uint32_t ifindex = 3, ps = 1;
	struct pm_nl_attr a = { 2, 8, "nl80211" };
	struct pm_nl_attr s[] = { { 3, 4, &ifindex }, { 93, 4, &ps } };
	int n;

	n = pm_nl_build(buf, sizeof(buf), 0x10, 5, 7, 3, &a, 1);
	is_int(n, sizeof(fam), "GETFAMILY: 32 bytes");
	ok(n == sizeof(fam) && !memcmp(buf, fam, sizeof(fam)),
	   "GETFAMILY: the kernel's bytes");
	n = pm_nl_build(buf, sizeof(buf), 0x1c, 5, 9, 61, s, 2);
	ok(n == sizeof(set) && !memcmp(buf, set, sizeof(set)),
	   "SET_POWER_SAVE: the kernel's bytes");
	is_int(pm_nl_build(buf, 35, 0x1c, 5, 9, 61, s, 2), -ENOBUFS,
	       "a buffer one byte short: -ENOBUFS");
}

static int parse_all(const unsigned char *b, size_t len, bool ctrl,
		     struct pm_nl_msg *m, int *count)
{
	size_t off = 0;
	int r;

	*count = 0;
	while ((r = pm_nl_parse(b, len, &off, ctrl, m)) > 0)
		(*count)++;
	return r;
}

static void test_parse_good(void)
{
	/* NEWFAMILY: name, id 0x1c, and a nested attribute (ops) skipped. */
	static const unsigned char fam[] = {
		H32(48), H16(0x10), H16(0), H32(7), H32(0),
		1, 2, 0, 0,
		H16(12), H16(2), 'n', 'l', '8', '0', '2', '1', '1', 0,
		H16(6), H16(1), H16(0x1c), 0, 0,
		H16(8), H16(0x8006), H32(0),
	};
	/* Two interfaces in one datagram (NLM_F_MULTI 2), then DONE. */
	static const unsigned char dump[] = {
		H32(48), H16(0x1c), H16(2), H32(8), H32(0),
		7, 1, 0, 0,
		H16(8), H16(3), H32(3),
		H16(10), H16(4), 'w', 'l', 'a', 'n', '0', 0, 0, 0,
		H16(8), H16(5), H32(2),
		/* the second: no padding after its last attribute */
		H32(41), H16(0x1c), H16(2), H32(8), H32(0),
		7, 1, 0, 0,
		H16(8), H16(3), H32(4),
		H16(6), H16(4), 'w', 0, 0, 0,
		H16(5), H16(200), 0xff,
		0, 0, 0,
		H32(20), H16(3), H16(2), H32(8), H32(0), H32(0),
	};
	static const unsigned char ack[] = {
		H32(36), H16(2), H16(0), H32(9), H32(0),
		H32(-16),
		H32(36), H16(0x1c), H16(5), H32(9), H32(0),
	};
	struct pm_nl_msg m;
	size_t off = 0;
	int n;

	is_int(pm_nl_parse(fam, sizeof(fam), &off, true, &m), 1,
	       "NEWFAMILY parses");
	ok(m.family_id == 0x1c && m.cmd == 1 && m.seq == 7,
	   "NEWFAMILY: id 0x1c, seq 7");
	is_int(pm_nl_parse(fam, sizeof(fam), &off, true, &m), 0,
	       "then the end");
	off = 0;
	is_int(pm_nl_parse(dump, sizeof(dump), &off, false, &m), 1,
	       "dump: the first message");
	ok(m.has_ifindex && m.ifindex == 3 && !strcmp(m.ifname, "wlan0") &&
		   m.has_iftype && m.iftype == 2,
	   "dump: wlan0, index 3, a station");
	is_int(pm_nl_parse(dump, sizeof(dump), &off, false, &m), 1,
	       "dump: the second, its last attribute unpadded");
	ok(m.ifindex == 4 && !strcmp(m.ifname, "w") && !m.has_iftype,
	   "dump: w, index 4, no type");
	is_int(pm_nl_parse(dump, sizeof(dump), &off, false, &m), 1,
	       "dump: DONE");
	ok(m.type == 3 && m.error == 0, "DONE: error 0");
	is_int(parse_all(dump, sizeof(dump), false, &m, &n), 0,
	       "dump: the end");
	is_int(n, 3, "dump: three messages");
	off = 0;
	is_int(pm_nl_parse(ack, sizeof(ack), &off, false, &m), 1,
	       "an error parses");
	ok(m.type == 2 && m.error == -16 && m.seq == 9, "its -EBUSY, seq 9");
}

/* buf with the 32-bit word at off replaced by v. */
static int parse_patched(const unsigned char *b, size_t len, size_t at,
			 uint32_t v, bool ctrl)
{
	unsigned char c[128];
	struct pm_nl_msg m;
	int n;

	memcpy(c, b, len);
	if (at + 4 <= len)
		memcpy(c + at, &v, 4);
	return parse_all(c, len, ctrl, &m, &n);
}

static void test_parse_bad(void)
{
	/* GET_POWER_SAVE's reply: PS_STATE 1. */
	static const unsigned char ps[] = {
		H32(28), H16(0x1c), H16(0), H32(9), H32(0),
		62, 1, 0, 0,
		H16(8), H16(93), H32(1),
	};
	static const unsigned char name[] = {
		H32(28), H16(0x1c), H16(0), H32(9), H32(0),
		7, 1, 0, 0,
		H16(8), H16(4), 'w', 'l', 'a', 'n',
	};
	static const unsigned char err[] = {
		H32(36), H16(2), H16(0), H32(9), H32(0), H32(0),
		H32(36), H16(0x1c), H16(5), H32(9), H32(0),
	};
	static const unsigned char fam0[] = {
		H32(28), H16(0x10), H16(0), H32(9), H32(0),
		1, 2, 0, 0,
		H16(6), H16(1), H16(0), 0, 0,
	};
	struct pm_nl_msg m;
	size_t off = 0;
	int n;

	is_int(parse_all(ps, sizeof(ps), false, &m, &n), 0, "PS_STATE 1");
	ok(n == 1 && m.has_ps && m.ps_state == 1, "read as enabled");
	is_int(parse_all(ps, sizeof(ps) - 1, false, &m, &n), -EBADMSG,
	       "a datagram one byte short of its length: -EBADMSG");
	is_int(parse_all(ps, 15, false, &m, &n), -EBADMSG,
	       "less than a header: -EBADMSG");
	is_int(parse_patched(ps, sizeof(ps), 0, 12, false), -EBADMSG,
	       "a length below the header's: -EBADMSG");
	is_int(parse_patched(ps, sizeof(ps), 0, 18, false), -EBADMSG,
	       "a body shorter than the genetlink header: -EBADMSG");
	is_int(parse_patched(ps, sizeof(ps), 20, 0x005d0006, false), -EBADMSG,
	       "PS_STATE of 2 bytes: -EBADMSG");
	is_int(parse_patched(ps, sizeof(ps), 20, 0x005d000c, false), -EBADMSG,
	       "an attribute longer than the message: -EBADMSG");
	is_int(parse_patched(ps, sizeof(ps), 20, 0x005d0003, false), -EBADMSG,
	       "an attribute shorter than its header: -EBADMSG");
	is_int(parse_patched(ps, sizeof(ps), 24, 2, false), -EBADMSG,
	       "PS_STATE 2, no state of the kernel's: -EBADMSG");
	is_int(parse_patched(ps, sizeof(ps), 4, 0x0001, false), -EBADMSG,
	       "NLMSG_NOOP, not a reply: -EBADMSG");
	is_int(parse_all(name, sizeof(name), false, &m, &n), -EBADMSG,
	       "IFNAME without its NUL: -EBADMSG");
	is_int(parse_patched(err, sizeof(err), 16, 5, false), -EBADMSG,
	       "an error code above 0: -EBADMSG");
	is_int(parse_patched(err, sizeof(err), 16, (uint32_t)-5000, false),
	       -EBADMSG, "an error code below -4095: -EBADMSG");
	is_int(parse_patched(err, sizeof(err), 0, 20, false), -EBADMSG,
	       "an error without the request's header: -EBADMSG");
	is_int(parse_all(fam0, sizeof(fam0), true, &m, &n), -EBADMSG,
	       "a controller's FAMILY_ID 0: -EBADMSG");
	is_int(parse_patched(fam0, sizeof(fam0), 20, 0x00010008, true),
	       -EBADMSG, "a controller's FAMILY_ID of 4 bytes: -EBADMSG");
	off = sizeof(ps);
	is_int(pm_nl_parse(ps, sizeof(ps), &off, false, &m), 0,
	       "at the end: 0");
}

static void test_names(void)
{
	char buf[16];

	ok(pm_ifname_ok("wlan0") && pm_ifname_ok("wlp0s20f3") &&
		   pm_ifname_ok("a-b_c.d@e"),
	   "wlan0, wlp0s20f3, a-b_c.d@e are names");
	ok(!pm_ifname_ok("") && !pm_ifname_ok(".") && !pm_ifname_ok("..") &&
		   !pm_ifname_ok("a/b") && !pm_ifname_ok("a:b") &&
		   !pm_ifname_ok("a b") && !pm_ifname_ok("w\x1b[2J") &&
		   !pm_ifname_ok("w\xc3\xa9") &&
		   !pm_ifname_ok("0123456789abcdef"),
	   "empty, . and .., / : space, escapes, UTF-8, 16 bytes are not");
	ok(pm_ifname_ok("0123456789abcde"), "15 bytes is");
	pm_wifi_ps_name("wlan0", buf, sizeof(buf));
	is_str(buf, "nl80211:wlan0/p", "the name is cut to the buffer");
}

static void test_guard(void)
{
	struct pm_ctx ctx;
	bool on;

	setenv("PM_TEST_GUARD", "1", 1);
	if (pm_ctx_open(&ctx, "/") < 0) {
		ok(false, "open the real root");
		return;
	}
	is_int(pm_wifi_ps_set(&ctx, "wlan0", true), -EPERM,
	       "the real root under PM_TEST_GUARD: -EPERM");
	is_str(ctx.err.file, "nl80211:wlan0/power_save",
	       "the record names the setting");
	pm_ctx_close(&ctx);

	/* A root of files without a test peer: nothing there. */
	if (pm_ctx_open(&ctx, root) < 0) {
		ok(false, "open the tree");
		return;
	}
	is_int(pm_wifi_ps_get(&ctx, "wlan0", &on), -ENOENT,
	       "no peer under the root: -ENOENT");
	is_int(pm_wifi_ps_set(&ctx, "wlan\n0", true), -EINVAL,
	       "a name that is none: -EINVAL, nothing sent");
	pm_ctx_close(&ctx);
}

/* Recover a journal of text under root: r filled. */
static void recover(const char *text, struct pm_recovery *r)
{
	struct pm_ctx ctx;
	char path[PM_PATH_MAX];

	tree_put(root, "run/pmtools/journal", text);
	snprintf(path, sizeof(path), "%s/run/pmtools/journal", root);
	chmod(path, 0600);
	snprintf(path, sizeof(path), "%s/run/pmtools", root);
	chmod(path, 0755);
	memset(r, 0, sizeof(*r));
	if (pm_ctx_open(&ctx, root) < 0)
		return;
	if (pm_journal_recover(&ctx, r) < 0)
		r->bad = true;
	pm_ctx_close(&ctx);
}

#define HEAD "pmtools-journal 1\npid 12\ntool opp-set\nboot -\ntime 1\n"

static void test_journal(void)
{
	struct pm_recovery r;

	recover(HEAD "n wlan0 off\nend 1\n", &r);
	ok(r.found && !r.bad && r.n == 1, "an 'n' record parses");
	if (r.n == 1) {
		is_int(r.f[0].kind, 'n', "its kind");
		is_str(r.f[0].ifname, "wlan0", "its interface");
		is_str(r.f[0].path, "nl80211:wlan0/power_save", "its name");
		is_str(r.f[0].old, "off", "its old value");
		is_int(r.f[0].err, ENOENT,
		       "no nl80211 under the root: not restored, ENOENT");
	}
	pm_recovery_free(&r);
	recover(HEAD "n wlan0 maybe\nend 1\n", &r);
	ok(r.bad && strstr(r.why, "line 6: not an interface's power save"),
	   "an old value that is not on or off: bad (%s)", r.why);
	pm_recovery_free(&r);
	recover(HEAD "n wlan/0 on\nend 1\n", &r);
	ok(r.bad, "an interface name with '/': bad");
	pm_recovery_free(&r);
	recover(HEAD "n wlan0 on x\nend 1\n", &r);
	ok(r.bad, "a field too many: bad");
	pm_recovery_free(&r);
	recover(HEAD "n wlan0\nend 1\n", &r);
	ok(r.bad, "no old value: bad");
	pm_recovery_free(&r);
}

int main(void)
{
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	test_build();
	test_parse_good();
	test_parse_bad();
	test_names();
	test_guard();
	test_journal();
	tree_rm(root);
	return done_testing();
}
