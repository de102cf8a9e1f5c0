// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The tests' nl80211: a peer that answers libpm's generic netlink bytes
 * as the kernel does, on ROOT/run/pmtools-test/nl80211.sock (AF_UNIX,
 * SOCK_SEQPACKET: one netlink datagram a packet).  Its own reading of
 * the format of <linux/netlink.h>, <linux/genetlink.h> and
 * <linux/nl80211.h>, not libpm's: a request it finds malformed is
 * answered EINVAL and logged "BAD".
 *
 *   fake-nl80211 ROOT IF=STATE[:TYPE]... [--fail CMD:IF:ERRNO[:N]]...
 *                [--bad CMD:HOW]... [--lie IF] [--hold IF]
 *
 * STATE on, off, or nops (a driver without power save: EOPNOTSUPP);
 * TYPE station (default), ap, monitor.  --fail: the Nth (default every)
 * CMD (get, set) on IF fails with ERRNO (a name: EBUSY...).  --bad: the
 * reply to CMD (family, dump, get, set) is cut short ("truncate": its
 * nlmsg_len past the packet), has a PS_STATE of 2 bytes ("attrlen"),
 * another sequence number ("seq"), or none at all ("silent").  --lie:
 * SET on IF is acked but changes nothing.  --hold: the first SET on IF is
 * made, then its ack held back while nl80211.held exists (made then,
 * holding IF; at most 60 s): a test signals the setter there.
 *
 * It forks once listening (the parent exits 0), writes its pid to
 * nl80211.pid, each interface's state to nl80211.state ("wlan0 on")
 * after every change, and each request to nl80211.log ("SET wlan0 on").
 * It ends on SIGTERM, or after 120 s.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>

#define FAMILY 0x1c
#define MAXIF 8
#define MAXRULE 16

struct iface {
	char name[16];
	uint32_t ifindex, iftype;
	int ps;			/* 1 on, 0 off, -1 no power save */
	int gets, sets;		/* requests seen */
	int lie;
	int hold;		/* --hold: the first SET's ack waits */
};

struct rule {
	char cmd[16], ifname[16], how[16];
	int err, nth;		/* --fail: errno, which one (0 every) */
};

static struct iface ifs[MAXIF];
static int nifs;
static struct rule fails[MAXRULE], bads[MAXRULE];
static int nfails, nbads;
static char dir[4096];

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void logf_(const char *fmt, const char *a, const char *b)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/nl80211.log", dir);
	f = fopen(path, "a");
	if (!f)
		return;
	fprintf(f, fmt, a, b);
	fputc('\n', f);
	fclose(f);
}

static void save_state(void)
{
	char path[4200], tmp[4300];
	FILE *f;

	snprintf(path, sizeof(path), "%s/nl80211.state", dir);
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		die(tmp);
	for (int i = 0; i < nifs; i++)
		fprintf(f, "%s %s\n", ifs[i].name,
			ifs[i].ps < 0 ? "nops" : ifs[i].ps ? "on" : "off");
	if (fclose(f) || rename(tmp, path))
		die(path);
}

static int errno_of(const char *s)
{
	static const struct {
		const char *n;
		int e;
	} t[] = { { "EBUSY", EBUSY },	      { "EOPNOTSUPP", EOPNOTSUPP },
		  { "EIO", EIO },	      { "EINVAL", EINVAL },
		  { "ENODEV", ENODEV },	      { "EPERM", EPERM },
		  { "ENETDOWN", ENETDOWN } };

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (!strcmp(t[i].n, s))
			return t[i].e;
	fprintf(stderr, "fake-nl80211: unknown errno %s\n", s);
	exit(2);
}

/* --fail CMD:IF:ERRNO[:N], --bad CMD:HOW */
static void rule(const char *arg, bool fail)
{
	struct rule *r = fail ? &fails[nfails++] : &bads[nbads++];
	char e[32] = "";

	if (nfails > MAXRULE || nbads > MAXRULE)
		exit(2);
	if (fail && sscanf(arg, "%15[^:]:%15[^:]:%31[^:]:%d", r->cmd,
			   r->ifname, e, &r->nth) < 3)
		exit(2);
	if (!fail && sscanf(arg, "%15[^:]:%15s", r->cmd, r->how) != 2)
		exit(2);
	if (fail)
		r->err = errno_of(e);
}

static void iface(const char *arg)
{
	struct iface *x = &ifs[nifs];
	char st[16] = "", ty[16] = "station";

	if (nifs == MAXIF ||
	    sscanf(arg, "%15[^=]=%15[^:]:%15s", x->name, st, ty) < 2)
		exit(2);
	x->ifindex = (uint32_t)(3 + nifs);
	x->ps = !strcmp(st, "on") ? 1 : !strcmp(st, "off") ? 0 : -1;
	x->iftype = !strcmp(ty, "ap")	   ? NL80211_IFTYPE_AP :
		    !strcmp(ty, "monitor") ? NL80211_IFTYPE_MONITOR :
					     NL80211_IFTYPE_STATION;
	nifs++;
}

static const char *bad_how(const char *cmd)
{
	for (int i = 0; i < nbads; i++)
		if (!strcmp(bads[i].cmd, cmd))
			return bads[i].how;
	return "";
}

static int fail_err(const char *cmd, const struct iface *x, int count)
{
	for (int i = 0; i < nfails; i++)
		if (!strcmp(fails[i].cmd, cmd) &&
		    !strcmp(fails[i].ifname, x->name) &&
		    (!fails[i].nth || fails[i].nth == count))
			return fails[i].err;
	return 0;
}

/* ---------------------------------------------------------- replies */

struct msg {
	unsigned char b[8192];
	size_t len;
};

static void put(struct msg *m, const void *p, size_t n)
{
	memcpy(m->b + m->len, p, n);
	m->len += n;
}

static void begin(struct msg *m, uint16_t type, uint16_t flags,
		  uint32_t seq, uint8_t cmd)
{
	struct nlmsghdr h = { 0, type, flags, seq, 0 };
	struct genlmsghdr g = { cmd, 1, 0 };

	m->len = 0;
	put(m, &h, sizeof(h));
	put(m, &g, sizeof(g));
}

static void attr(struct msg *m, uint16_t type, const void *p, uint16_t n)
{
	struct nlattr a = { (uint16_t)(NLA_HDRLEN + n), type };
	static const unsigned char pad[4];

	put(m, &a, sizeof(a));
	put(m, p, n);
	put(m, pad, NLA_ALIGN(n) - n);
}

static void end(struct msg *m)
{
	uint32_t len = (uint32_t)m->len;

	memcpy(m->b, &len, sizeof(len));
}

static void sendm(int fd, const struct msg *m, size_t len)
{
	if (send(fd, m->b, len, MSG_NOSIGNAL) < 0)
		perror("fake-nl80211: send");
}

/* The ack (err 0) or error of request h. */
static void ack(int fd, const struct nlmsghdr *h, int err)
{
	struct msg m;
	struct nlmsghdr r = { 0, NLMSG_ERROR, 0, h->nlmsg_seq, 0 };
	int e = -err;

	m.len = 0;
	put(&m, &r, sizeof(r));
	put(&m, &e, sizeof(e));
	put(&m, h, sizeof(*h));
	end(&m);
	sendm(fd, &m, m.len);
}

/* Send a reply (its messages ended) as --bad says for cmd; false: it
 * sent nothing. */
static bool reply(int fd, struct msg *m, const char *cmd)
{
	const char *how = bad_how(cmd);

	if (!strcmp(how, "silent"))
		return false;
	if (!strcmp(how, "seq"))
		m->b[8] ^= 0x55;
	/* Cut short: the last message's length runs past the packet. */
	sendm(fd, m, !strcmp(how, "truncate") ? m->len - 8 : m->len);
	return true;
}

/* ---------------------------------------------------------- requests */

struct req {
	const struct nlmsghdr *h;
	uint8_t cmd;
	const char *family_name;
	bool has_ifindex, has_ps;
	uint32_t ifindex, ps;
};

/* The request in b (len bytes), strictly: false when malformed. */
static bool parse(const unsigned char *b, size_t len, struct req *r)
{
	static struct nlmsghdr h;
	struct genlmsghdr g;
	size_t off;

	memset(r, 0, sizeof(*r));
	if (len < NLMSG_HDRLEN + GENL_HDRLEN)
		return false;
	memcpy(&h, b, sizeof(h));
	r->h = &h;
	if (h.nlmsg_len != len || !(h.nlmsg_flags & NLM_F_REQUEST))
		return false;
	memcpy(&g, b + NLMSG_HDRLEN, sizeof(g));
	if (g.version != 1)
		return false;
	r->cmd = g.cmd;
	for (off = NLMSG_HDRLEN + GENL_HDRLEN; off < len;) {
		struct nlattr a;
		const unsigned char *d = b + off + NLA_HDRLEN;
		size_t n;

		if (len - off < NLA_HDRLEN)
			return false;
		memcpy(&a, b + off, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len - off)
			return false;
		n = a.nla_len - NLA_HDRLEN;
		if (h.nlmsg_type == GENL_ID_CTRL &&
		    a.nla_type == CTRL_ATTR_FAMILY_NAME) {
			if (!n || d[n - 1])
				return false;
			r->family_name = (const char *)d;
		} else if (h.nlmsg_type == FAMILY &&
			   a.nla_type == NL80211_ATTR_IFINDEX) {
			if (n != 4)
				return false;
			memcpy(&r->ifindex, d, 4);
			r->has_ifindex = true;
		} else if (h.nlmsg_type == FAMILY &&
			   a.nla_type == NL80211_ATTR_PS_STATE) {
			if (n != 4)
				return false;
			memcpy(&r->ps, d, 4);
			r->has_ps = true;
		}
		off += NLA_ALIGN(a.nla_len);
	}
	return off == len;
}

static void family(int fd, const struct req *r)
{
	struct msg m;
	uint16_t id = FAMILY;

	logf_("FAMILY %s%s", r->family_name ? r->family_name : "?", "");
	if (!r->family_name || strcmp(r->family_name, "nl80211")) {
		ack(fd, r->h, ENOENT);
		return;
	}
	begin(&m, GENL_ID_CTRL, 0, r->h->nlmsg_seq, CTRL_CMD_NEWFAMILY);
	attr(&m, CTRL_ATTR_FAMILY_NAME, "nl80211", 8);
	attr(&m, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
	end(&m);
	if (reply(fd, &m, "family") && (r->h->nlmsg_flags & NLM_F_ACK))
		ack(fd, r->h, 0);
}

static void dump(int fd, const struct req *r)
{
	struct msg m, all;
	uint32_t wiphy = 0;
	uint64_t wdev;
	int done = 0;

	logf_("DUMP interfaces%s%s", "", "");
	all.len = 0;
	for (int i = 0; i < nifs; i++) {
		begin(&m, FAMILY, NLM_F_MULTI, r->h->nlmsg_seq,
		      NL80211_CMD_NEW_INTERFACE);
		attr(&m, NL80211_ATTR_IFINDEX, &ifs[i].ifindex, 4);
		attr(&m, NL80211_ATTR_IFNAME, ifs[i].name,
		     (uint16_t)(strlen(ifs[i].name) + 1));
		attr(&m, NL80211_ATTR_WIPHY, &wiphy, 4);
		attr(&m, NL80211_ATTR_IFTYPE, &ifs[i].iftype, 4);
		wdev = ifs[i].ifindex;
		attr(&m, NL80211_ATTR_WDEV, &wdev, 8);
		end(&m);
		put(&all, m.b, m.len);
	}
	/* A P2P device: a wdev without a netdev. */
	begin(&m, FAMILY, NLM_F_MULTI, r->h->nlmsg_seq,
	      NL80211_CMD_NEW_INTERFACE);
	wdev = 99;
	attr(&m, NL80211_ATTR_WDEV, &wdev, 8);
	end(&m);
	put(&all, m.b, m.len);
	if (!nifs || reply(fd, &all, "dump")) {
		struct nlmsghdr h = { 0, NLMSG_DONE, NLM_F_MULTI,
				      r->h->nlmsg_seq, 0 };

		m.len = 0;
		put(&m, &h, sizeof(h));
		put(&m, &done, sizeof(done));
		end(&m);
		sendm(fd, &m, m.len);
	}
}

static struct iface *by_index(uint32_t i)
{
	for (int k = 0; k < nifs; k++)
		if (ifs[k].ifindex == i)
			return &ifs[k];
	return NULL;
}

static void get_ps(int fd, const struct req *r, struct iface *x)
{
	struct msg m;
	uint32_t st = x->ps == 1 ? NL80211_PS_ENABLED : NL80211_PS_DISABLED;
	int e = fail_err("get", x, ++x->gets);

	logf_("GET %s%s", x->name, "");
	if (x->ps < 0 || e) {
		ack(fd, r->h, x->ps < 0 ? EOPNOTSUPP : e);
		return;
	}
	begin(&m, FAMILY, 0, r->h->nlmsg_seq, NL80211_CMD_GET_POWER_SAVE);
	if (!strcmp(bad_how("get"), "attrlen"))
		attr(&m, NL80211_ATTR_PS_STATE, &st, 2);
	else
		attr(&m, NL80211_ATTR_PS_STATE, &st, 4);
	end(&m);
	if (reply(fd, &m, "get") && (r->h->nlmsg_flags & NLM_F_ACK))
		ack(fd, r->h, 0);
}

/* --hold: nl80211.held made, then a wait until it is gone. */
static void hold(const char *ifname)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/nl80211.held", dir);
	f = fopen(path, "w");
	if (!f)
		die(path);
	fprintf(f, "%s\n", ifname);
	if (fclose(f))
		die(path);
	for (int i = 0; i < 6000 && access(path, F_OK) == 0; i++)
		usleep(10000);
}

static void set_ps(int fd, const struct req *r, struct iface *x)
{
	int e = fail_err("set", x, ++x->sets);

	logf_("SET %s %s", x->name, r->ps ? "on" : "off");
	if (!r->has_ps || r->ps > NL80211_PS_ENABLED) {
		ack(fd, r->h, EINVAL);
		return;
	}
	if (x->ps < 0 || x->iftype != NL80211_IFTYPE_STATION || e) {
		ack(fd, r->h, e ? e : EOPNOTSUPP);
		return;
	}
	if (!x->lie) {
		x->ps = r->ps == NL80211_PS_ENABLED;
		save_state();
	}
	if (x->hold) {
		x->hold = 0;
		hold(x->name);
	}
	if (!strcmp(bad_how("set"), "silent"))
		return;
	ack(fd, r->h, 0);
}

static void serve(int fd)
{
	static unsigned char b[65536];
	ssize_t n;
	struct req r;

	while ((n = recv(fd, b, sizeof(b), 0)) > 0) {
		struct iface *x;

		if (!parse(b, (size_t)n, &r)) {
			logf_("BAD request%s%s", "", "");
			if (r.h)
				ack(fd, r.h, EINVAL);
			continue;
		}
		if (r.h->nlmsg_type == GENL_ID_CTRL &&
		    r.cmd == CTRL_CMD_GETFAMILY) {
			family(fd, &r);
		} else if (r.h->nlmsg_type != FAMILY) {
			ack(fd, r.h, EINVAL);
		} else if (r.cmd == NL80211_CMD_GET_INTERFACE &&
			   (r.h->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP) {
			dump(fd, &r);
		} else if (!r.has_ifindex || !(x = by_index(r.ifindex))) {
			ack(fd, r.h, ENODEV);
		} else if (r.cmd == NL80211_CMD_GET_POWER_SAVE) {
			get_ps(fd, &r, x);
		} else if (r.cmd == NL80211_CMD_SET_POWER_SAVE) {
			set_ps(fd, &r, x);
		} else {
			ack(fd, r.h, EOPNOTSUPP);
		}
	}
}

static void listen_at(const char *root)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char path[4200];
	int fd, dfd;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/run/pmtools-test", root);
	snprintf(path, sizeof(path), "%s/run", root);
	mkdir(path, 0755);
	mkdir(dir, 0755);
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd < 0)
		die(dir);
	unlinkat(dfd, "nl80211.sock", 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path),
		 "/proc/self/fd/%d/nl80211.sock", dfd);
	fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 8) < 0)
		die("fake-nl80211: bind");
	save_state();
	fflush(NULL);
	if (fork() > 0)
		exit(0);
	setsid();
	snprintf(path, sizeof(path), "%s/nl80211.pid", dir);
	f = fopen(path, "w");
	if (!f)
		die(path);
	fprintf(f, "%ld\n", (long)getpid());
	fclose(f);
	alarm(120);
	for (;;) {
		int c = accept(fd, NULL, NULL);

		if (c < 0)
			continue;
		serve(c);
		close(c);
	}
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: fake-nl80211 ROOT IF=STATE[:TYPE]... "
				"[--fail CMD:IF:ERRNO[:N]] [--bad CMD:HOW] "
				"[--lie IF] [--hold IF]\n");
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--fail") && i + 1 < argc) {
			rule(argv[++i], true);
		} else if (!strcmp(argv[i], "--bad") && i + 1 < argc) {
			rule(argv[++i], false);
		} else if (!strcmp(argv[i], "--lie") && i + 1 < argc) {
			i++;
			for (int k = 0; k < nifs; k++)
				ifs[k].lie |= !strcmp(ifs[k].name, argv[i]);
		} else if (!strcmp(argv[i], "--hold") && i + 1 < argc) {
			i++;
			for (int k = 0; k < nifs; k++)
				ifs[k].hold |= !strcmp(ifs[k].name, argv[i]);
		} else {
			iface(argv[i]);
		}
	}
	signal(SIGPIPE, SIG_IGN);
	listen_at(argv[1]);
	return 0;
}
