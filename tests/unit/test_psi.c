// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the pressure stall parser: the kernel's two lines, the
 * cpu file before Linux 5.13 (no "full"), and what is not the kernel's.
 */
#include <errno.h>
#include <math.h>

#include "pm.h"
#include "tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const bad[] = {
	"",
	"\n",
	"full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n",
	"some avg10=1.5 avg60=0.00 avg300=0.00 total=0\n",
	"some avg10=1.500 avg60=0.00 avg300=0.00 total=0\n",
	"some avg10=100.01 avg60=0.00 avg300=0.00 total=0\n",
	"some avg10=-1.00 avg60=0.00 avg300=0.00 total=0\n",
	"some avg10=1.00 avg60=0.00 avg300=0.00\n",
	"some avg10=1.00 avg60=0.00 avg300=0.00 total=\n",
	"some avg10=1.00 avg60=0.00 avg300=0.00 total=12x\n",
	"some avg10=1.00 avg60=0.00 avg300=0.00 total=99999999999999999999999\n",
	"some avg10=1.00  avg60=0.00 avg300=0.00 total=1\n",
	"some avg60=0.00 avg10=1.00 avg300=0.00 total=1\n",
	"some avg10=1.00 avg60=0.00 avg300=0.00 total=1\n"
	"some avg10=1.00 avg60=0.00 avg300=0.00 total=1\n",
	"some avg10=1.00 avg60=0.00 avg300=0.00 total=1\nnone\n",
};

int main(void)
{
	struct pm_psi p;

	is_int(pm_psi_parse("some avg10=1.53 avg60=0.87 avg300=0.31 "
			    "total=3170981\nfull avg10=0.00 avg60=0.00 "
			    "avg300=0.00 total=0\n",
			    &p),
	       0, "the kernel's two lines");
	ok(fabs(p.some[0] - 1.53) < 1e-9 && fabs(p.some[1] - 0.87) < 1e-9 &&
		   fabs(p.some[2] - 0.31) < 1e-9,
	   "some avg10, avg60, avg300");
	is_u64(p.some_total_us, 3170981, "some total");
	ok(p.has_full && p.full[0] == 0, "full");
	is_int(pm_psi_parse("some avg10=100.00 avg60=99.99 avg300=0.00 "
			    "total=18446744073709551615\n",
			    &p),
	       0, "cpu before 5.13: no full line; 100 %% and the largest total");
	ok(!p.has_full && p.some[0] == 100.0, "100.00 and no full");
	is_int(pm_psi_parse("some avg10=0.00 avg60=0.00 avg300=0.00 total=0",
			    &p),
	       0, "no newline at the end");
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		is_int(pm_psi_parse(bad[i], &p), -EINVAL, "refused: %s", bad[i]);
	return done_testing();
}
