/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libpm: Wi-Fi power save through nl80211, the kernel's generic netlink
 * family for wireless (lib/nl80211.c), spoken directly: four messages
 * (the family's id, the interfaces, power save's get and set).  Under a
 * --sysroot the same bytes go to a test peer at PM_NL80211_FAKE below the
 * root (an AF_UNIX SOCK_SEQPACKET socket); without one, Wi-Fi is not
 * offered there.
 */
#ifndef PM_NL80211_H
#define PM_NL80211_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

/* The test peer's socket below a system root that is not "/". */
#define PM_NL80211_FAKE "/run/pmtools-test/nl80211.sock"
/* IFNAMSIZ, with the NUL. */
#define PM_IFNAME_MAX 16

/*
 * A network interface name pmtools takes: 1 to 15 bytes, each '!'..'~'
 * but '/' and ':', not "." or "..".  The kernel allows more (spaces
 * aside, any byte); a name outside this is shown nowhere and never sent.
 */
bool pm_ifname_ok(const char *s);

/* How a transaction's write shows an interface's power save:
 * "nl80211:wlan0/power_save". */
void pm_wifi_ps_name(const char *ifname, char *buf, size_t size);

/* One wireless interface, as the kernel's nl80211 lists it. */
struct pm_wifi_if {
	char name[PM_IFNAME_MAX];
	uint32_t ifindex;
	uint32_t iftype;	/* enum nl80211_iftype */
	int ps;			/* 1 on, 0 off, -1 not read */
	int ps_err;		/* errno of GET_POWER_SAVE, 0 */
};

/*
 * The wireless interfaces of the root (/sys/class/net/IF/phy80211 marks
 * one, pm_ifname_ok names only) that nl80211 lists as a station or a P2P
 * client (the types that have power save), each with its power save.
 * *v is malloc'd (free it); returns the count, 0 when the root has none
 * or no nl80211 (no test peer under a --sysroot), or -errno with the
 * record set when nl80211 is there but fails.
 */
int pm_wifi_list(struct pm_ctx *ctx, struct pm_wifi_if **v);
/* An interface's power save: 0 with *on set, or -errno (record set:
 * the interface, the errno; ENODEV when nl80211 does not list it). */
int pm_wifi_ps_get(struct pm_ctx *ctx, const char *ifname, bool *on);
/*
 * Set it: refused (-EPERM) as a file write is under PM_TEST_GUARD on the
 * real root, before any socket is opened; under ctx->dry_run only the
 * write hook sees it.  0 or -errno of the kernel's ack, the record
 * naming the interface, the value and the errno.
 */
int pm_wifi_ps_set(struct pm_ctx *ctx, const char *ifname, bool on);

/* ------------------------------------------------ the messages, bare */

/* An attribute to put in a request. */
struct pm_nl_attr {
	uint16_t type;
	uint16_t len;
	const void *data;
};

/*
 * A generic netlink request into buf: the netlink header (type, flags,
 * seq, pid 0), the genetlink header (cmd, version 1), the attributes,
 * each padded to 4 bytes.  Returns its length or -ENOBUFS.
 */
int pm_nl_build(void *buf, size_t size, uint16_t type, uint16_t flags,
		uint32_t seq, uint8_t cmd, const struct pm_nl_attr *a, int n);

/* What pmtools reads of one reply message. */
struct pm_nl_msg {
	uint16_t type, flags;
	uint32_t seq;
	int error;		/* NLMSG_ERROR, NLMSG_DONE: -errno, 0 */
	uint8_t cmd;		/* a genetlink message's command */
	uint16_t family_id;	/* CTRL_ATTR_FAMILY_ID, 0 none */
	bool has_ifindex, has_iftype, has_ps;
	uint32_t ifindex, iftype, ps_state;
	char ifname[PM_IFNAME_MAX];	/* NL80211_ATTR_IFNAME, "" none */
};

/*
 * The message at *off of a datagram of len bytes into m, *off moved
 * past it: 1, 0 at the end, -EBADMSG for a message that is cut short or
 * malformed (a length past the datagram, an attribute of the wrong
 * size, an unterminated name, an error code out of range).  ctrl: the
 * datagram answers the controller (its attributes are CTRL_ATTR_*).
 */
int pm_nl_parse(const void *buf, size_t len, size_t *off, bool ctrl,
		struct pm_nl_msg *m);

#endif /* PM_NL80211_H */
