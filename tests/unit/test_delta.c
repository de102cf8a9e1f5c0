// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A property test of the sampler's delta code (lib/delta.c over
 * lib/counter.c): random sequences of readings of four CPUs, their idle
 * states, /proc/stat fields, s390 idle statistics, a policy's
 * time_in_state and /proc/interrupts cells (its text parsed by
 * pm_irq_table_parse), with steps, restarts, steps back, 32-bit wraps,
 * values at 2^64 - 1, jumps no hardware makes, and CPUs leaving and
 * coming back.  After each reading: every share is within 0..100, every
 * rate within what the hardware can reach, and every injected anomaly is
 * counted as its kind, no more and no less.
 *
 * PM_PROPTEST_SEED and PM_PROPTEST_STEPS change the run (the default is
 * fixed, so that a failure can be replayed); the seed is printed.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pm.h"
#include "tap.h"

#define NCPU 4
#define NST 3
#define NROW 3
#define NFREQ 3
#define STEPS 4000
#define U32_SPAN (1ULL << 32)

static const unsigned cpu_ids[NCPU] = { 0, 1, 2, 5 };
static const uint64_t freqs[NFREQ] = { 800000, 1600000, 2400000 };
static const char *const rows[NROW] = { "LOC", "RES", "24" };

static uint64_t rng_state;

static uint64_t rnd(void)
{
	/* xorshift64*: enough for choosing events. */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t upto(uint64_t n)
{
	return n ? rnd() % n : 0;
}

static double frand(void)
{
	return (double)(rnd() >> 11) / 9007199254740992.0;
}

/* What one counter does at a reading. */
enum ev { EV_STEP, EV_RESET, EV_BACK, EV_WRAP, EV_ONES, EV_JUMP, EV_LONG };

/* The truth of the simulation. */
struct sim {
	bool online[NCPU];
	uint64_t usage[NCPU][NST], time_us[NCPU][NST];
	uint64_t f[NCPU][PM_ST_FIELDS];
	uint64_t s390_count[NCPU], s390_time[NCPU];
	uint64_t cell[NROW][NCPU];
	uint64_t tis[NFREQ];
	double uptime;
	/* Expected counts of this reading's anomalies. */
	uint64_t want[PM_ANOM_KINDS];
	uint64_t ones;		/* values at 2^64 - 1 this reading */
};

static enum ev pick(bool irq)
{
	uint64_t r = upto(1000);

	if (r < 40)
		return EV_RESET;
	if (r < 80)
		return EV_BACK;
	if (r < 110)
		return irq ? EV_WRAP : EV_ONES;
	if (r < 140)
		return EV_JUMP;
	if (r < 170)
		return irq ? EV_WRAP : EV_LONG;
	return EV_STEP;
}

/*
 * Move one counter whose last value is *v (PM_UNKNOWN after a reading at
 * 2^64 - 1: it goes on from *keep) by a step of at most step, or by an
 * event.  seen: the delta code compares it with a known value (the CPU
 * was online at both readings), so an anomaly is expected.
 */
static void move(struct sim *m, enum pm_ctr k, uint64_t *v, uint64_t *keep,
		 uint64_t step, double dt, bool seen, bool long_ok)
{
	uint64_t ceil = pm_ctr_ceiling(k, dt);
	bool was_known = *v != PM_UNKNOWN;
	enum ev e = pick(false);

	if (!was_known)
		*v = *keep;
	switch (e) {
	case EV_RESET:
		/* Only from far enough up that it is a restart, not jitter. */
		if (*v > 3 * ceil + 10) {
			*v = upto(ceil / 2 + 1);
			if (seen && was_known)
				m->want[PM_ANOM_RESET]++;
			/* Counted from 0, it may be more than the interval. */
			if (seen && was_known && long_ok &&
			    (double)*v > dt * 1e6)
				m->want[PM_ANOM_OVER_INTERVAL]++;
			break;
		}
		*v += upto(step + 1);
		break;
	case EV_BACK:
		if (*v > 0) {
			uint64_t back = 1 + upto(*v < ceil ? *v : ceil);

			if (back > *v)
				back = *v;
			*v -= back;
			if (back && seen && was_known)
				m->want[PM_ANOM_STEP_BACK]++;
			break;
		}
		*v += upto(step + 1);
		break;
	case EV_ONES:
		*keep = *v + upto(step + 1);
		*v = PM_UNKNOWN;
		m->ones++;
		return;
	case EV_JUMP:
		/* For a time: beyond the time since boot; else beyond rate. */
		*v += (k == PM_CTR_TIME_US ? (uint64_t)(m->uptime * 1e6) :
					     ceil) * 4 + 1000000007ULL;
		if (seen && was_known)
			m->want[PM_ANOM_TOO_FAST]++;
		break;
	case EV_LONG:
		/* An idle period longer than the interval, ended in it. */
		if (long_ok) {
			*v += (uint64_t)(dt * 1e6 * 1.5) + 1000;
			if (seen && was_known)
				m->want[PM_ANOM_OVER_INTERVAL]++;
			break;
		}
		*v += upto(step + 1);
		break;
	case EV_STEP:
	default:
		*v += upto(step + 1);
		break;
	}
	*keep = *v;
}

/*
 * An interrupt count: 32 bits, wrapping as it goes.  A wrap is clean only
 * from near the top, so a wrap event first brings the count there (a
 * jump, when it is far) and wraps it at the next one; a restart is
 * injected only far from the top, where it cannot look like a wrap.
 */
static void move_irq(struct sim *m, uint64_t *v, uint64_t step, double dt,
		     bool seen)
{
	uint64_t ceil = pm_ctr_ceiling(PM_CTR_IRQ32, dt);
	uint64_t inc = upto(step + 1), near = U32_SPAN - 1 - upto(step + 1);

	switch (pick(true)) {
	case EV_RESET:
		if (*v > 3 * ceil + 10 && *v + 2 * ceil < U32_SPAN) {
			*v = upto(ceil / 2 + 1);
			m->want[PM_ANOM_RESET] += seen;
			return;
		}
		break;
	case EV_BACK:
		if (*v > 0) {
			uint64_t back = 1 + upto(*v < ceil ? *v : ceil);

			*v -= back > *v ? *v : back;
			m->want[PM_ANOM_STEP_BACK] += seen && back;
			return;
		}
		break;
	case EV_JUMP:
		if (*v + 4 * ceil + 1000 < U32_SPAN) {
			*v += 4 * ceil + 1000;
			m->want[PM_ANOM_TOO_FAST] += seen;
			return;
		}
		break;
	case EV_WRAP:
		if (*v < U32_SPAN - 1 - step) {
			if (near - *v > ceil)
				m->want[PM_ANOM_TOO_FAST] += seen;
			*v = near;
			return;
		}
		inc = U32_SPAN - *v + upto(step + 1);
		break;
	default:
		break;
	}
	*v += inc;
	if (*v >= U32_SPAN) {
		*v -= U32_SPAN;
		m->want[PM_ANOM_WRAP] += seen && inc;
	}
}

/* Build /proc/interrupts' text for the online CPUs. */
static void irq_text(const struct sim *m, char *buf, size_t size)
{
	size_t n = 0;

	n += (size_t)snprintf(buf + n, size - n, "          ");
	for (int c = 0; c < NCPU; c++)
		if (m->online[c])
			n += (size_t)snprintf(buf + n, size - n, " CPU%u",
					      cpu_ids[c]);
	n += (size_t)snprintf(buf + n, size - n, "\n");
	for (int r = 0; r < NROW; r++) {
		n += (size_t)snprintf(buf + n, size - n, "%s:", rows[r]);
		for (int c = 0; c < NCPU; c++)
			if (m->online[c])
				n += (size_t)snprintf(
					buf + n, size - n, " %llu",
					(unsigned long long)m->cell[r][c]);
		n += (size_t)snprintf(buf + n, size - n, "   source %d\n", r);
	}
	snprintf(buf + n, size - n, "ERR: 0\n");
}

static void fill(const struct sim *m, struct pm_reading *r,
		 const struct pm_cpuset *sel)
{
	char text[4096];

	for (int c = 0; c < NCPU; c++) {
		struct pm_rcpu *rc = &r->cpu[c];

		rc->online = m->online[c];
		rc->nstates = m->online[c] ? NST : 0;
		for (int i = 0; i < NST; i++) {
			rc->usage[i] = m->online[c] ? m->usage[c][i] :
						      PM_UNKNOWN;
			rc->time_us[i] = m->online[c] ? m->time_us[c][i] :
							PM_UNKNOWN;
		}
		/* /proc/stat keeps offline CPUs' lines. */
		memcpy(rc->ticks.f, m->f[c], sizeof(rc->ticks.f));
		rc->s390_count = m->online[c] ? m->s390_count[c] : PM_UNKNOWN;
		rc->s390_time_us = m->online[c] ? m->s390_time[c] : PM_UNKNOWN;
	}
	r->ntis[0] = NFREQ;
	for (int i = 0; i < NFREQ; i++) {
		r->tis[i].khz = freqs[i];
		r->tis[i].ticks = m->tis[i];
	}
	irq_text(m, text, sizeof(text));
	r->have_irq = pm_irq_table_parse(text, sel, &r->irq) == 0;
	r->uptime_s = m->uptime;
	r->unknown_values = m->ones;
}

static bool pct_ok(double v)
{
	return isnan(v) || (v >= 0 && v <= 100);
}

struct tally {
	uint64_t checks, bad;
	uint64_t got[PM_ANOM_KINDS], want[PM_ANOM_KINDS];
	uint64_t offline_seen, back_seen;
	char first[256];
};

static void fail_at(struct tally *t, int step, const char *what)
{
	if (!t->bad++)
		snprintf(t->first, sizeof(t->first), "step %d: %s", step,
			 what);
}

static void check(struct tally *t, int step, const struct pm_delta *d,
		  double dt, const bool *was)
{
	double ev_max = (double)pm_ctr_ceiling(PM_CTR_EVENTS, dt) / dt;
	double irq_max = (double)pm_ctr_ceiling(PM_CTR_IRQ32, dt) / dt;

	for (int c = 0; c < NCPU; c++) {
		const struct pm_cpu_delta *cd = &d->cpu[c];
		double sum = 0;
		bool all = true;

		t->checks++;
		if (!cd->online || !was[c]) {
			t->offline_seen += !cd->online;
			t->back_seen += cd->online && !was[c];
			if (!isnan(cd->wakeups_per_s) ||
			    !isnan(cd->ct.pct[PM_CT_BUSY]) ||
			    (cd->nstates && !isnan(cd->res_pct[0])))
				fail_at(t, step, "a CPU offline at a reading "
						 "has a value");
			continue;
		}
		for (int i = 0; i < cd->nstates; i++) {
			if (!pct_ok(cd->res_pct[i]))
				fail_at(t, step, "a residency out of 0..100");
			if (cd->entries_per_s[i] > ev_max)
				fail_at(t, step, "entries/s out of reach");
		}
		for (int k = 0; k < PM_CT_KINDS; k++) {
			if (!pct_ok(cd->ct.pct[k]))
				fail_at(t, step, "a CPU time share out of "
						 "0..100");
			if (k != PM_CT_BUSY) {
				all &= isfinite(cd->ct.pct[k]);
				sum += isfinite(cd->ct.pct[k]) ?
					       cd->ct.pct[k] :
					       0;
			}
		}
		if (all && cd->idle_src == PM_IDLE_SRC_PROC_STAT &&
		    fabs(sum - 100) > 1e-6)
			fail_at(t, step, "the CPU time does not add up");
		if (!pct_ok(cd->s390_idle_pct))
			fail_at(t, step, "s390 idle out of 0..100");
		if (cd->s390_entries_per_s > ev_max)
			fail_at(t, step, "s390 entries/s out of reach");
		if (cd->wakeups_per_s > irq_max)
			fail_at(t, step, "wakeups/s out of reach");
		if (!isnan(cd->avg_khz) &&
		    (cd->avg_khz < (double)freqs[0] - 1e-6 ||
		     cd->avg_khz > (double)freqs[NFREQ - 1] + 1e-6))
			fail_at(t, step, "an average frequency outside the "
					 "table");
	}
	for (int r = 0; r < d->nrows; r++)
		if (d->row[r] != PM_UNKNOWN &&
		    (double)d->row[r] / dt > irq_max * NCPU)
			fail_at(t, step, "a source's rate out of reach");
}

int main(void)
{
	const char *e = getenv("PM_PROPTEST_SEED");
	const char *n = getenv("PM_PROPTEST_STEPS");
	uint64_t seed = e ? strtoull(e, NULL, 0) : 0x5eed2024ULL;
	int steps = n ? (int)strtol(n, NULL, 10) : STEPS;
	struct pm_sampler s;
	struct pm_reading ra, rb, *a = &ra, *b = &rb;
	struct pm_delta d;
	struct pm_cpuset sel;
	struct tally t;
	struct sim m;
	uint64_t keep[NCPU][NST][2], fkeep[NCPU][PM_ST_FIELDS];
	uint64_t skeep[NCPU][2], tkeep[NFREQ];
	bool was[NCPU];

	rng_state = seed ? seed : 1;
	diag("seed %#llx, %d readings", (unsigned long long)seed, steps);
	memset(&s, 0, sizeof(s));
	memset(&t, 0, sizeof(t));
	memset(&m, 0, sizeof(m));
	s.ncpu = NCPU;
	s.cpu = calloc(NCPU, sizeof(*s.cpu));
	s.npol = 1;
	s.pol = calloc(1, sizeof(*s.pol));
	s.colmap = calloc(PM_MAX_CPUS, sizeof(*s.colmap));
	if (!s.cpu || !s.pol || !s.colmap)
		return 99;
	pm_cpuset_zero(&sel);
	for (int c = 0; c < NCPU; c++) {
		s.cpu[c].cpu = cpu_ids[c];
		s.cpu[c].policy = 0;
		pm_cpuset_set(&sel, cpu_ids[c]);
	}
	snprintf(s.pol[0].path, sizeof(s.pol[0].path),
		 "/sys/devices/system/cpu/cpufreq/policy0");
	if (pm_reading_alloc(a, &s) < 0 || pm_reading_alloc(b, &s) < 0 ||
	    pm_delta_alloc(&d, &s) < 0)
		return 99;
	a->npol = b->npol = 1;
	a->ncpu = b->ncpu = NCPU;

	/* Since a day after boot, from large values. */
	m.uptime = 86400;
	for (int c = 0; c < NCPU; c++) {
		m.online[c] = true;
		for (int i = 0; i < NST; i++) {
			m.usage[c][i] = keep[c][i][0] = 1000000000ULL + upto(1000);
			m.time_us[c][i] = keep[c][i][1] = 20000000000ULL;
		}
		for (int k = 0; k < PM_ST_FIELDS; k++)
			m.f[c][k] = fkeep[c][k] = 1000000 + upto(1000);
		m.s390_count[c] = skeep[c][0] = 5000000;
		m.s390_time[c] = skeep[c][1] = 40000000000ULL;
		for (int r = 0; r < NROW; r++)
			m.cell[r][c] = U32_SPAN - 1 - upto(100000);
	}
	for (int i = 0; i < NFREQ; i++)
		m.tis[i] = tkeep[i] = 2000000;
	fill(&m, a, &sel);

	for (int step = 1; step <= steps; step++) {
		double dt = 0.01 + frand() * 5;

		memset(m.want, 0, sizeof(m.want));
		m.ones = 0;
		m.uptime += dt;
		for (int c = 0; c < NCPU; c++) {
			was[c] = m.online[c];
			/* CPUs leave and come back (cpu0 stays). */
			if (c && upto(100) < 4)
				m.online[c] = !m.online[c];
		}
		for (int c = 0; c < NCPU; c++) {
			bool seen = was[c] && m.online[c];
			uint64_t tstep = (uint64_t)(dt * 1e6 / NST);
			uint64_t fstep = (uint64_t)(dt * pm_user_hz() / 8);

			for (int i = 0; i < NST; i++) {
				move(&m, PM_CTR_EVENTS, &m.usage[c][i],
				     &keep[c][i][0], (uint64_t)(dt * 1000),
				     dt, seen, false);
				move(&m, PM_CTR_TIME_US, &m.time_us[c][i],
				     &keep[c][i][1], tstep, dt, seen, true);
			}
			/* /proc/stat: its lines stay while a CPU is away. */
			for (int k = 0; k < PM_ST_FIELDS; k++)
				move(&m, PM_CTR_TICKS, &m.f[c][k], &fkeep[c][k],
				     fstep, dt, seen, false);
			move(&m, PM_CTR_EVENTS, &m.s390_count[c], &skeep[c][0],
			     (uint64_t)(dt * 1000), dt, seen, false);
			move(&m, PM_CTR_TIME_US, &m.s390_time[c], &skeep[c][1],
			     (uint64_t)(dt * 1e6), dt, seen, true);
			/* Its column is gone while it is offline. */
			for (int r = 0; r < NROW; r++)
				move_irq(&m, &m.cell[r][c],
					 (uint64_t)(dt * 1000), dt, seen);
		}
		for (int i = 0; i < NFREQ; i++)
			move(&m, PM_CTR_TICKS, &m.tis[i], &tkeep[i],
			     (uint64_t)(dt * pm_user_hz() / NFREQ), dt, true,
			     false);
		m.want[PM_ANOM_UNKNOWN] = m.ones;
		fill(&m, b, &sel);
		if (pm_delta_compute(&d, &s, a, b, dt) < 0) {
			fail_at(&t, step, "pm_delta_compute failed");
			break;
		}
		check(&t, step, &d, dt, was);
		for (int k = 0; k < PM_ANOM_KINDS; k++) {
			t.got[k] += d.an.n[k];
			t.want[k] += m.want[k];
		}
		/* Counted exactly where the injection is unambiguous. */
		for (int k = 0; k < PM_ANOM_KINDS; k++) {
			char what[160];

			if (k == PM_ANOM_TOO_FAST || k == PM_ANOM_MALFORMED ||
			    d.an.n[k] == m.want[k])
				continue;
			snprintf(what, sizeof(what),
				 "%s: counted %llu, injected %llu", pm_anom_name(k),
				 (unsigned long long)d.an.n[k],
				 (unsigned long long)m.want[k]);
			fail_at(&t, step, what);
		}
		/* A jump may hide in a reset of the same reading: at least. */
		if (d.an.n[PM_ANOM_TOO_FAST] < m.want[PM_ANOM_TOO_FAST])
			fail_at(&t, step, "a jump not counted as too fast");
		{
			struct pm_reading *x = a;

			a = b;
			b = x;
		}
	}
	ok(t.bad == 0, "%llu CPU deltas: shares within 0..100, rates within "
		       "reach%s%s",
	   (unsigned long long)t.checks, t.bad ? "; first failure: " : "",
	   t.first);
	for (int k = 0; k < PM_ANOM_KINDS; k++)
		if (k != PM_ANOM_MALFORMED)
			diag("%-13s injected %6llu, counted %6llu",
			     pm_anom_name(k), (unsigned long long)t.want[k],
			     (unsigned long long)t.got[k]);
	ok(t.want[PM_ANOM_RESET] > 50 && t.want[PM_ANOM_STEP_BACK] > 50 &&
		   t.want[PM_ANOM_WRAP] > 50 && t.want[PM_ANOM_TOO_FAST] > 50 &&
		   t.want[PM_ANOM_OVER_INTERVAL] > 50 &&
		   t.want[PM_ANOM_UNKNOWN] > 50,
	   "every kind of anomaly was injected many times");
	ok(t.offline_seen > 50 && t.back_seen > 50,
	   "CPUs left (%llu) and came back (%llu)",
	   (unsigned long long)t.offline_seen,
	   (unsigned long long)t.back_seen);
	pm_reading_free(a);
	pm_reading_free(b);
	pm_delta_free(&d);
	free(s.cpu);
	free(s.pol);
	free(s.colmap);
	return done_testing();
}
