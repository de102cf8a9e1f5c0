// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "psi": pm_psi_parse on any text (the input, NUL-terminated).
 * Checked: 0 or -EINVAL; on 0 every share within 0..100, and the kernel's
 * format printed back parses to the same numbers.
 */
#include <errno.h>

#include "fuzz.h"

static void print(char *buf, size_t size, const char *name, const double *a,
		  uint64_t total)
{
	size_t n = strlen(buf);

	snprintf(buf + n, size - n,
		 "%s avg10=%.2f avg60=%.2f avg300=%.2f total=%llu\n", name,
		 a[0], a[1], a[2], (unsigned long long)total);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fz_str(data, size), back[512] = "";
	struct pm_psi p, q;
	int r = pm_psi_parse(s, &p);

	CHECK(r == 0 || r == -EINVAL);
	if (r == 0) {
		for (int i = 0; i < 3; i++)
			CHECK(p.some[i] >= 0 && p.some[i] <= 100 &&
			      p.full[i] >= 0 && p.full[i] <= 100);
		CHECK(p.has_full || (p.full[0] == 0 && p.full_total_us == 0));
		print(back, sizeof(back), "some", p.some, p.some_total_us);
		if (p.has_full)
			print(back, sizeof(back), "full", p.full,
			      p.full_total_us);
		CHECK(pm_psi_parse(back, &q) == 0);
		CHECK(!memcmp(p.some, q.some, sizeof(p.some)) &&
		      !memcmp(p.full, q.full, sizeof(p.full)) &&
		      p.some_total_us == q.some_total_us &&
		      p.full_total_us == q.full_total_us &&
		      p.has_full == q.has_full);
	}
	free(s);
	return 0;
}
