// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "nl80211": pm_nl_parse of lib/nl80211.c on arbitrary
 * datagrams, as a reply of nl80211 or (first byte odd) of the netlink
 * controller.  Checked from nl80211.h's promises: each message parsed
 * moves the offset forward and not past the datagram; a result is 1, 0
 * or -EBADMSG; a name is NUL-terminated and shorter than IFNAMSIZ; a
 * power save state is one of the kernel's; an error code is 0 or an
 * errno negated.
 */
#include <errno.h>
#include <linux/nl80211.h>

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_nl_msg m;
	unsigned char *buf;
	size_t off = 0, len, last;
	bool ctrl;
	int r;

	if (!size)
		return 0;
	ctrl = data[0] & 1;
	len = size - 1;
	/* Exactly len bytes: a read past the datagram is ASan's. */
	buf = malloc(len ? len : 1);
	if (!buf)
		abort();
	memcpy(buf, data + 1, len);
	for (;;) {
		last = off;
		r = pm_nl_parse(buf, len, &off, ctrl, &m);
		CHECK(r == 1 || r == 0 || r == -EBADMSG);
		if (r != 1) {
			CHECK(off == last);
			break;
		}
		CHECK(off > last && off <= len);
		CHECK(memchr(m.ifname, '\0', sizeof(m.ifname)));
		CHECK(!m.has_ps || m.ps_state <= NL80211_PS_ENABLED);
		CHECK(m.error <= 0 && m.error >= -4095);
		CHECK(!ctrl || !m.has_ifindex);
	}
	free(buf);
	return 0;
}
