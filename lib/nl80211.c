// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Wi-Fi power save through nl80211, spoken directly over a generic
 * netlink socket: the kernel's message format of <linux/netlink.h>,
 * <linux/genetlink.h> and <linux/nl80211.h>, four requests (the
 * controller's CTRL_CMD_GETFAMILY for "nl80211"'s id, a dump of
 * NL80211_CMD_GET_INTERFACE for the interfaces' index and type,
 * NL80211_CMD_GET_POWER_SAVE and NL80211_CMD_SET_POWER_SAVE).
 *
 * Not libnl: four messages do not need it, the tools are also built
 * static, and its errors would not be libpm's record.
 *
 * Every reply is read strictly (pm_nl_parse): a length past the
 * datagram, an attribute of the wrong size, a sequence number that is
 * not the request's, a datagram cut by the buffer are -EBADMSG (or
 * -EMSGSIZE), never a guess.  A request that is not a dump asks for the
 * kernel's ack, which ends it with the errno of the request.
 *
 * Under a --sysroot there is no kernel to ask: the same bytes go to a
 * test peer listening on PM_NL80211_FAKE below the root (an AF_UNIX
 * SOCK_SEQPACKET socket, one message a packet as netlink's datagrams;
 * tests/tools/fake-nl80211.c).  It is reached through the folder's fd
 * (/proc/self/fd/N/NAME), so a root path longer than sun_path does not
 * matter and the path stays confined.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/nl80211.h>

#include "nl80211.h"
#include "core.h"

#define FAKE_DIR "/run/pmtools-test"
#define FAKE_NAME "nl80211.sock"
/* A datagram: the kernel's dump skbs grow to what the reader takes. */
#define NL_BUF 65536
/* A peer that does not answer. */
#define NL_TIMEOUT_S 5

bool pm_ifname_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n >= PM_IFNAME_MAX || !strcmp(s, ".") ||
	    !strcmp(s, ".."))
		return false;
	for (const char *p = s; *p; p++)
		if (*p < '!' || *p > '~' || *p == '/' || *p == ':')
			return false;
	return true;
}

void pm_wifi_ps_name(const char *ifname, char *buf, size_t size)
{
	snprintf(buf, size, "nl80211:%s/power_save", ifname);
}

/* ------------------------------------------------------------ messages */

int pm_nl_build(void *buf, size_t size, uint16_t type, uint16_t flags,
		uint32_t seq, uint8_t cmd, const struct pm_nl_attr *a, int n)
{
	size_t len = NLMSG_HDRLEN + GENL_HDRLEN;
	unsigned char *p = buf;
	struct nlmsghdr h;
	struct genlmsghdr g;

	for (int i = 0; i < n; i++)
		len += NLA_ALIGN(NLA_HDRLEN + a[i].len);
	if (!buf || len > size || len > UINT32_MAX)
		return -ENOBUFS;
	memset(buf, 0, len);
	h.nlmsg_len = (uint32_t)len;
	h.nlmsg_type = type;
	h.nlmsg_flags = flags;
	h.nlmsg_seq = seq;
	h.nlmsg_pid = 0;
	memcpy(p, &h, sizeof(h));
	memset(&g, 0, sizeof(g));
	g.cmd = cmd;
	g.version = 1;
	memcpy(p + NLMSG_HDRLEN, &g, sizeof(g));
	p += NLMSG_HDRLEN + GENL_HDRLEN;
	for (int i = 0; i < n; i++) {
		struct nlattr na = { .nla_len = (uint16_t)(NLA_HDRLEN +
							   a[i].len),
				     .nla_type = a[i].type };

		memcpy(p, &na, sizeof(na));
		if (a[i].len)
			memcpy(p + NLA_HDRLEN, a[i].data, a[i].len);
		p += NLA_ALIGN(NLA_HDRLEN + a[i].len);
	}
	return (int)len;
}

static bool u32_of(const unsigned char *d, size_t n, uint32_t *v)
{
	if (n != sizeof(*v))
		return false;
	memcpy(v, d, sizeof(*v));
	return true;
}

/* One attribute of a reply into m; false when its size is wrong. */
static bool attr(struct pm_nl_msg *m, bool ctrl, unsigned type,
		 const unsigned char *d, size_t n)
{
	if (ctrl) {
		if (type != CTRL_ATTR_FAMILY_ID)
			return true;
		if (n != sizeof(m->family_id))
			return false;
		memcpy(&m->family_id, d, n);
		return m->family_id != 0;
	}
	switch (type) {
	case NL80211_ATTR_IFINDEX:
		return (m->has_ifindex = u32_of(d, n, &m->ifindex));
	case NL80211_ATTR_IFTYPE:
		return (m->has_iftype = u32_of(d, n, &m->iftype));
	case NL80211_ATTR_PS_STATE:
		return (m->has_ps = u32_of(d, n, &m->ps_state)) &&
		       m->ps_state <= NL80211_PS_ENABLED;
	case NL80211_ATTR_IFNAME:
		/* A string with its NUL, and none before it. */
		if (n < 2 || n > PM_IFNAME_MAX || d[n - 1] ||
		    memchr(d, '\0', n - 1))
			return false;
		memcpy(m->ifname, d, n);
		return true;
	default:
		return true;
	}
}

static int attrs(struct pm_nl_msg *m, bool ctrl, const unsigned char *p,
		 size_t len)
{
	while (len > 0) {
		struct nlattr na;
		size_t step;

		if (len < NLA_HDRLEN)
			return -EBADMSG;
		memcpy(&na, p, sizeof(na));
		if (na.nla_len < NLA_HDRLEN || na.nla_len > len)
			return -EBADMSG;
		if (!attr(m, ctrl, na.nla_type & NLA_TYPE_MASK, p + NLA_HDRLEN,
			  na.nla_len - NLA_HDRLEN))
			return -EBADMSG;
		step = NLA_ALIGN(na.nla_len);
		if (step > len)
			step = len;
		p += step;
		len -= step;
	}
	return 0;
}

/* NLMSG_ERROR's or NLMSG_DONE's code: 0 or -errno, else malformed. */
static int code_of(const unsigned char *p, size_t len, size_t need,
		   int *err)
{
	int e;

	if (len < need)
		return -EBADMSG;
	memcpy(&e, p, sizeof(e));
	if (e > 0 || e < -4095)
		return -EBADMSG;
	*err = e;
	return 0;
}

int pm_nl_parse(const void *buf, size_t len, size_t *off, bool ctrl,
		struct pm_nl_msg *m)
{
	const unsigned char *p = (const unsigned char *)buf + *off;
	size_t left = len - *off, body, step;
	struct nlmsghdr h;
	struct genlmsghdr g;
	int r;

	if (*off >= len)
		return 0;
	memset(m, 0, sizeof(*m));
	if (left < NLMSG_HDRLEN)
		return -EBADMSG;
	memcpy(&h, p, sizeof(h));
	if (h.nlmsg_len < NLMSG_HDRLEN || h.nlmsg_len > left)
		return -EBADMSG;
	m->type = h.nlmsg_type;
	m->flags = h.nlmsg_flags;
	m->seq = h.nlmsg_seq;
	body = h.nlmsg_len - NLMSG_HDRLEN;
	p += NLMSG_HDRLEN;
	if (h.nlmsg_type == NLMSG_ERROR)
		r = code_of(p, body, sizeof(struct nlmsgerr), &m->error);
	else if (h.nlmsg_type == NLMSG_DONE)
		r = code_of(p, body, sizeof(int), &m->error);
	else if (h.nlmsg_type < NLMSG_MIN_TYPE || body < GENL_HDRLEN)
		r = -EBADMSG;
	else {
		memcpy(&g, p, sizeof(g));
		m->cmd = g.cmd;
		r = attrs(m, ctrl, p + GENL_HDRLEN, body - GENL_HDRLEN);
	}
	if (r < 0)
		return r;
	step = NLMSG_ALIGN(h.nlmsg_len);
	*off += step < left ? step : left;
	return 1;
}

/* ------------------------------------------------------------ sessions */

struct nl {
	struct pm_ctx *ctx;
	int fd;
	bool kernel;		/* a netlink socket, not the test peer */
	uint32_t seq;
	uint16_t family;
	const char *name;	/* for the record: what is asked about */
	const char *value;
	bool recorded;		/* the error record is set */
	unsigned char *buf;	/* NL_BUF bytes */
};

static int fail(struct nl *s, const char *op, int err, const char *hint)
{
	s->recorded = true;
	if (hint)
		return pm_err_set(s->ctx, op, s->name, s->value, err, "%s",
				  hint);
	return pm_err_set(s->ctx, op, s->name, s->value, err, NULL);
}

/* The test peer's socket below the root: -ENOENT when there is none. */
static int connect_fake(struct nl *s)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
	int dfd = pm_open_dir(s->ctx, FAKE_DIR), r = 0;

	if (dfd < 0)
		return dfd;
	if (fstatat(dfd, FAKE_NAME, &st, AT_SYMLINK_NOFOLLOW) < 0)
		r = -errno;
	else if (!S_ISSOCK(st.st_mode))
		r = -ENOENT;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "/proc/self/fd/%d/%s", dfd,
		 FAKE_NAME);
	if (!r)
		s->fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
	if (!r && s->fd < 0)
		r = -errno;
	if (!r && connect(s->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		r = -errno;
	close(dfd);
	return r;
}

static int nl_open(struct pm_ctx *ctx, struct nl *s, const char *name,
		   const char *value)
{
	struct timeval tv = { .tv_sec = NL_TIMEOUT_S };
	int r;

	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->fd = -1;
	s->name = name;
	s->value = value;
	s->kernel = ctx->real_root;
	s->seq = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16);
	s->buf = malloc(NL_BUF);
	if (!s->buf)
		return fail(s, "open", ENOMEM, NULL);
	if (s->kernel) {
		s->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
			       NETLINK_GENERIC);
		r = s->fd < 0 ? -errno : 0;
	} else {
		r = connect_fake(s);
	}
	if (!r && setsockopt(s->fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
			     sizeof(tv)) < 0)
		r = -errno;
	if (r < 0)
		return fail(s, "open", -r, s->kernel ? "a netlink socket" :
				"the test peer " FAKE_DIR "/" FAKE_NAME);
	return 0;
}

static void nl_close(struct nl *s)
{
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	free(s->buf);
	s->buf = NULL;
}

typedef int (*nl_cb)(void *arg, const struct pm_nl_msg *m);

/* One datagram into s->buf: its length, or -errno. */
static ssize_t nl_recv(struct nl *s)
{
	struct sockaddr_nl sa;
	struct iovec iov = { .iov_base = s->buf, .iov_len = NL_BUF };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (s->kernel) {
		mh.msg_name = &sa;
		mh.msg_namelen = sizeof(sa);
	}
	do
		n = recvmsg(s->fd, &mh, 0);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return errno == EAGAIN ? -ETIMEDOUT : -errno;
	if (n == 0)
		return -ECONNRESET;
	if (mh.msg_flags & MSG_TRUNC)
		return -EMSGSIZE;
	/* From the kernel alone (port 0). */
	if (s->kernel && (mh.msg_namelen != sizeof(sa) || sa.nl_pid != 0))
		return -EBADMSG;
	return n;
}

/*
 * Send the request of len bytes in s->buf (-errno: pm_nl_build's) and read its replies: each
 * message of the request's sequence number and of the type expected
 * goes to cb; it ends with the ack (not a dump) or NLMSG_DONE (a dump).
 * 0, the kernel's -errno, or -EBADMSG/-EMSGSIZE/-ETIMEDOUT (the record
 * set for those, not for the kernel's errno).
 */
static int nl_call(struct nl *s, int len, bool dump, uint16_t type,
		   nl_cb cb, void *arg)
{
	struct pm_nl_msg m;
	ssize_t n;
	int r;

	if (len < 0)
		return fail(s, "send", -len, "nl80211");
	do
		n = send(s->fd, s->buf, (size_t)len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	if (n < 0 || n != len)
		return fail(s, "send", n < 0 ? errno : EIO, "nl80211");
	for (;;) {
		size_t off = 0;

		n = nl_recv(s);
		if (n < 0)
			return fail(s, "read", (int)-n, "a reply from nl80211");
		while ((r = pm_nl_parse(s->buf, (size_t)n, &off,
					type == GENL_ID_CTRL, &m)) > 0) {
			if (m.seq != s->seq)
				return fail(s, "read", EBADMSG,
					    "a reply of another request");
			if (m.type == NLMSG_ERROR ||
			    (dump && m.type == NLMSG_DONE))
				return m.error;
			/* A SET is answered by its ack alone. */
			if (m.type != type || !cb)
				return fail(s, "read", EBADMSG,
					    "a reply of another type");
			r = cb(arg, &m);
			if (r < 0)
				return r;
		}
		if (r < 0)
			return fail(s, "read", EBADMSG,
				    "a malformed reply from nl80211");
	}
}

static int got_family(void *arg, const struct pm_nl_msg *m)
{
	struct nl *s = arg;

	s->family = m->family_id;
	return 0;
}

/* nl80211's id: 0, -ENOENT when the kernel has none (no cfg80211). */
static int nl_family(struct nl *s)
{
	static const char name[] = NL80211_GENL_NAME;
	struct pm_nl_attr a = { CTRL_ATTR_FAMILY_NAME, sizeof(name), name };
	int len = pm_nl_build(s->buf, NL_BUF, GENL_ID_CTRL,
			      NLM_F_REQUEST | NLM_F_ACK, ++s->seq,
			      CTRL_CMD_GETFAMILY, &a, 1);
	int r = nl_call(s, len, false, GENL_ID_CTRL, got_family, s);

	if (r == 0 && !s->family)
		return fail(s, "read", EBADMSG, "no family id from the "
				"netlink controller");
	if (r < 0 && !s->recorded)
		return fail(s, "open", -r, "the netlink family nl80211");
	return r;
}

struct ifs {
	struct pm_wifi_if *v;
	int n, cap;
};

static int got_if(void *arg, const struct pm_nl_msg *m)
{
	struct ifs *l = arg;
	struct pm_wifi_if *x;

	/* A wdev without a netdev (a P2P device) has no index or name. */
	if (!m->has_ifindex || !m->ifname[0] || !m->has_iftype)
		return 0;
	if (l->n == l->cap) {
		int cap = l->cap ? l->cap * 2 : 8;
		void *p = realloc(l->v, (size_t)cap * sizeof(*l->v));

		if (!p)
			return -ENOMEM;
		l->v = p;
		l->cap = cap;
	}
	x = &l->v[l->n++];
	memset(x, 0, sizeof(*x));
	memcpy(x->name, m->ifname, sizeof(x->name));
	x->ifindex = m->ifindex;
	x->iftype = m->iftype;
	x->ps = -1;
	return 0;
}

/* Every interface nl80211 lists: 0 or -errno (record set). */
static int nl_interfaces(struct nl *s, struct ifs *l)
{
	int len = pm_nl_build(s->buf, NL_BUF, s->family,
			      NLM_F_REQUEST | NLM_F_DUMP, ++s->seq,
			      NL80211_CMD_GET_INTERFACE, NULL, 0);
	int r = nl_call(s, len, true, s->family, got_if, l);

	if (r == -ENOMEM)
		return fail(s, "read", ENOMEM, NULL);
	if (r < 0 && !s->recorded)
		return fail(s, "read", -r, "the interfaces of nl80211");
	return r;
}

static int got_ps(void *arg, const struct pm_nl_msg *m)
{
	int *ps = arg;

	if (m->has_ps)
		*ps = m->ps_state == NL80211_PS_ENABLED;
	return 0;
}

/* GET_POWER_SAVE of ifindex into *ps: 0 or -errno; the kernel's errno
 * is not put in the record (the caller words it). */
static int nl_get_ps(struct nl *s, uint32_t ifindex, int *ps)
{
	struct pm_nl_attr a = { NL80211_ATTR_IFINDEX, sizeof(ifindex),
				&ifindex };
	int len = pm_nl_build(s->buf, NL_BUF, s->family,
			      NLM_F_REQUEST | NLM_F_ACK, ++s->seq,
			      NL80211_CMD_GET_POWER_SAVE, &a, 1);
	int r;

	*ps = -1;
	r = nl_call(s, len, false, s->family, got_ps, ps);
	if (r == 0 && *ps < 0)
		return fail(s, "read", EBADMSG, "no power save state in "
				"nl80211's reply");
	return r;
}

static int nl_set_ps(struct nl *s, uint32_t ifindex, bool on)
{
	uint32_t st = on ? NL80211_PS_ENABLED : NL80211_PS_DISABLED;
	struct pm_nl_attr a[] = {
		{ NL80211_ATTR_IFINDEX, sizeof(ifindex), &ifindex },
		{ NL80211_ATTR_PS_STATE, sizeof(st), &st },
	};
	int len = pm_nl_build(s->buf, NL_BUF, s->family,
			      NLM_F_REQUEST | NLM_F_ACK, ++s->seq,
			      NL80211_CMD_SET_POWER_SAVE, a, 2);

	return nl_call(s, len, false, s->family, NULL, NULL);
}

/* ------------------------------------------------------------ the API */

static bool ps_type(uint32_t t)
{
	return t == NL80211_IFTYPE_STATION || t == NL80211_IFTYPE_P2P_CLIENT;
}

/* The names of /sys/class/net that have phy80211: their count. */
static int sysfs_wireless(struct pm_ctx *ctx, char ***names)
{
	char path[PM_PATH_MAX];
	int n = pm_list_dir(ctx, "/sys/class/net", names), k = 0;

	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/net/%s/phy80211",
			 (*names)[i]);
		if (pm_ifname_ok((*names)[i]) && pm_exists(ctx, path)) {
			char *t = (*names)[k];

			(*names)[k++] = (*names)[i];
			(*names)[i] = t;
		}
	}
	/* The others freed; the list keeps the wireless first. */
	for (int i = k; i < n; i++)
		free((*names)[i]);
	if (n >= 0 && !k)
		free(*names);
	pm_err_clear(ctx);
	return n < 0 ? 0 : k;
}

static bool listed(char **names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/* Keep the interfaces of l that sysfs names and that have power save,
 * each with its state read. */
static int keep_ps(struct nl *s, struct ifs *l, char **names, int k)
{
	int n = 0;

	for (int i = 0; i < l->n; i++) {
		struct pm_wifi_if *x = &l->v[i];
		int r;

		if (!listed(names, k, x->name) || !ps_type(x->iftype))
			continue;
		r = nl_get_ps(s, x->ifindex, &x->ps);
		/* A driver without power save (no set_power_mgmt). */
		if (r == -EOPNOTSUPP)
			continue;
		if (r < 0) {
			x->ps = -1;
			x->ps_err = -r;
		}
		l->v[n++] = *x;
	}
	return n;
}

int pm_wifi_list(struct pm_ctx *ctx, struct pm_wifi_if **v)
{
	struct ifs l = { 0 };
	struct nl s;
	char **names;
	int k = sysfs_wireless(ctx, &names), r;

	*v = NULL;
	if (k == 0)
		return 0;
	r = nl_open(ctx, &s, "nl80211", NULL);
	if (r == 0)
		r = nl_family(&s);
	if (r == 0)
		r = nl_interfaces(&s, &l);
	if (r == 0)
		r = keep_ps(&s, &l, names, k);
	nl_close(&s);
	pm_list_free(names, k);
	/* No test peer, no cfg80211: no Wi-Fi here. */
	if (r == -ENOENT) {
		pm_err_clear(ctx);
		r = 0;
	}
	if (r <= 0) {
		free(l.v);
		return r;
	}
	*v = l.v;
	return r;
}

/* A session on ifname's interface: *ifindex, or -errno (ENODEV: not
 * one nl80211 lists). */
static int session(struct pm_ctx *ctx, struct nl *s, const char *ifname,
		   const char *name, const char *value, uint32_t *ifindex)
{
	struct ifs l = { 0 };
	int r = -ENODEV;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (!pm_ifname_ok(ifname))
		return pm_err_set(ctx, "open", name, value, EINVAL,
				  "not an interface name");
	if (nl_open(ctx, s, name, value) < 0 || nl_family(s) < 0 ||
	    nl_interfaces(s, &l) < 0) {
		free(l.v);
		return -ctx->err.err;
	}
	for (int i = 0; i < l.n; i++)
		if (!strcmp(l.v[i].name, ifname)) {
			*ifindex = l.v[i].ifindex;
			r = 0;
		}
	free(l.v);
	if (r < 0)
		return fail(s, "open", ENODEV, "nl80211 lists no such "
				"interface");
	return 0;
}

int pm_wifi_ps_get(struct pm_ctx *ctx, const char *ifname, bool *on)
{
	char name[64];
	uint32_t ifindex = 0;
	struct nl s;
	int ps = -1, r;

	pm_wifi_ps_name(ifname, name, sizeof(name));
	r = session(ctx, &s, ifname, name, NULL, &ifindex);
	if (r == 0) {
		r = nl_get_ps(&s, ifindex, &ps);
		if (r < 0 && !s.recorded)
			r = fail(&s, "read", -r, NULL);
	}
	nl_close(&s);
	if (r == 0)
		*on = ps == 1;
	return r;
}

int pm_wifi_ps_set(struct pm_ctx *ctx, const char *ifname, bool on)
{
	const char *value = on ? "on" : "off";
	char name[64];
	uint32_t ifindex = 0;
	struct nl s;
	int r;

	pm_wifi_ps_name(ifname, name, sizeof(name));
	/* The guard first: no socket is opened on a guarded real root. */
	r = pm_write_begin(ctx, name, value);
	if (r <= 0)
		return r;
	r = session(ctx, &s, ifname, name, value, &ifindex);
	if (r == 0) {
		r = nl_set_ps(&s, ifindex, on);
		if (r < 0 && !s.recorded)
			r = fail(&s, "write", -r, NULL);
	}
	nl_close(&s);
	return r;
}
