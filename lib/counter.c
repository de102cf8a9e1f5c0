// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a kernel counter did between two readings, decided per field: a
 * wrap, a reset, a step back, a jump no hardware can make; and shares
 * that stay within 0..100 %.  Every such decision is counted.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "counter.h"
#include "core.h"
#include "proc.h"

/*
 * Reading skew: the clock is read after the counters, and a 10 ms tick
 * or a /proc/uptime hundredth rounds either way.  A quarter of the
 * interval on top, and a fixed slack, is what a counter may run ahead of
 * the measured interval without being impossible.
 */
#define SKEW_FRACTION 0.25
#define SLACK_TICKS 2
#define SLACK_US 20000
/* Events: one idle period or interrupt under way at each reading. */
#define SLACK_EVENTS 2
/*
 * Since boot, a state's time may pass the uptime by its rounding (10 ms)
 * and by the gap between reading the state and reading the uptime.
 */
#define BOOT_SLACK_US 1000000
/* Without an uptime, no time counter moves more than a century. */
#define CENTURY_US (100ULL * 366 * 86400 * 1000000)
#define U32_SPAN (1ULL << 32)

static const char *const anom_names[PM_ANOM_KINDS] = {
	[PM_ANOM_RESET] = "reset",
	[PM_ANOM_STEP_BACK] = "step_back",
	[PM_ANOM_WRAP] = "wrap",
	[PM_ANOM_TOO_FAST] = "too_fast",
	[PM_ANOM_OVER_INTERVAL] = "over_interval",
	[PM_ANOM_OVER_UPTIME] = "over_uptime",
	[PM_ANOM_UNKNOWN] = "unknown",
	[PM_ANOM_MALFORMED] = "malformed",
};

const char *pm_anom_name(enum pm_anom k)
{
	return (unsigned)k < PM_ANOM_KINDS ? anom_names[k] : "?";
}

void pm_anoms_clear(struct pm_anoms *a)
{
	memset(a->n, 0, sizeof(a->n));
	a->nnotes = 0;
}

uint64_t pm_anoms_total(const struct pm_anoms *a)
{
	uint64_t t = 0;

	for (int k = 0; k < PM_ANOM_KINDS; k++)
		t += a->n[k];
	return t;
}

void pm_anom(struct pm_anoms *a, enum pm_anom k, const char *fmt, ...)
{
	va_list ap;

	if (!a || (unsigned)k >= PM_ANOM_KINDS)
		return;
	a->n[k]++;
	if (a->nnotes >= PM_ANOM_NOTES)
		return;
	va_start(ap, fmt);
	vsnprintf(a->note[a->nnotes++], PM_ANOM_NOTE_MAX, fmt, ap);
	va_end(ap);
}

double pm_user_hz(void)
{
	static double hz;

	if (hz <= 0) {
		long t = sysconf(_SC_CLK_TCK);

		/* Every Linux architecture but alpha (1024) has 100. */
		hz = t > 0 ? (double)t : 100.0;
	}
	return hz;
}

/* "cpu1 state2 time", "cpu0 irq LOC", "policy time_in_state". */
static void name_of(const struct pm_ctr_id *id, enum pm_ctr k, char *buf,
		    size_t size)
{
	int n = 0;

	if (!id) {
		snprintf(buf, size, "a counter");
		return;
	}
	if (id->cpu >= 0)
		n = snprintf(buf, size, "cpu%d ", id->cpu);
	if (n < 0 || (size_t)n >= size)
		return;
	if (k == PM_CTR_IRQ32)
		snprintf(buf + n, size - (size_t)n, "irq %s", id->field);
	else if (id->idx >= 0)
		snprintf(buf + n, size - (size_t)n, "state%d %s", id->idx,
			 id->field);
	else
		snprintf(buf + n, size - (size_t)n, "%s", id->field);
}

uint64_t pm_ctr_ceiling(enum pm_ctr k, double dt)
{
	double c, span = dt > 0 ? dt * (1 + SKEW_FRACTION) : 0;

	switch (k) {
	case PM_CTR_TIME_US:
		c = span * 1e6 + SLACK_US;
		break;
	case PM_CTR_TICKS:
		c = span * pm_user_hz() + SLACK_TICKS;
		break;
	case PM_CTR_EVENTS:
	case PM_CTR_IRQ32:
	default:
		c = span * PM_EVENTS_PER_S_MAX + SLACK_EVENTS;
		break;
	}
	return c >= 1.8e19 ? PM_UNKNOWN - 1 : (uint64_t)c;
}

/*
 * The most a counter may rise: for a time, idle periods are counted when
 * they end, so an interval may get far more than its length, but never
 * more than the time since boot.
 */
static uint64_t rise_max(const struct pm_dctx *d, enum pm_ctr k)
{
	if (k != PM_CTR_TIME_US)
		return pm_ctr_ceiling(k, d->dt);
	if (isfinite(d->uptime_s) && d->uptime_s > 0)
		return (uint64_t)(d->uptime_s * 1e6) + BOOT_SLACK_US;
	return CENTURY_US;
}

uint64_t pm_ctr_delta(const struct pm_dctx *d, enum pm_ctr k, uint64_t prev,
		      uint64_t cur, const struct pm_ctr_id *id)
{
	uint64_t ceil, max;
	char what[96];

	if (prev == PM_UNKNOWN || cur == PM_UNKNOWN)
		return PM_UNKNOWN;
	if (cur >= prev) {
		max = rise_max(d, k);
		if (cur - prev <= max)
			return cur - prev;
		name_of(id, k, what, sizeof(what));
		pm_anom(d->an, PM_ANOM_TOO_FAST,
			"%s rose by %llu in %.3f s: more than the hardware can "
			"count, unknown",
			what, (unsigned long long)(cur - prev), d->dt);
		return PM_UNKNOWN;
	}
	ceil = pm_ctr_ceiling(k, d->dt);
	name_of(id, k, what, sizeof(what));
	/* The kernel keeps each interrupt count in 32 bits. */
	if (k == PM_CTR_IRQ32 && prev < U32_SPAN) {
		uint64_t w = cur + (U32_SPAN - prev);

		if (w <= ceil) {
			pm_anom(d->an, PM_ANOM_WRAP,
				"%s wrapped at 2^32: %llu -> %llu, +%llu", what,
				(unsigned long long)prev,
				(unsigned long long)cur, (unsigned long long)w);
			return w;
		}
	}
	/*
	 * A restart drops the count by more than it could gain in the
	 * interval, to a value it could have reached since; a fall of a
	 * few units (iowait, a time rounded the other way) is a step back.
	 */
	if (prev - cur > ceil && cur <= ceil) {
		pm_anom(d->an, PM_ANOM_RESET,
			"%s restarted: %llu -> %llu, counted from 0", what,
			(unsigned long long)prev, (unsigned long long)cur);
		return cur;
	}
	pm_anom(d->an, PM_ANOM_STEP_BACK,
		"%s went back by %llu (%llu -> %llu), not a reset: counted as "
		"no change",
		what, (unsigned long long)(prev - cur),
		(unsigned long long)prev, (unsigned long long)cur);
	return 0;
}

double pm_share_interval(const struct pm_dctx *d, uint64_t time_us,
			 const struct pm_ctr_id *id)
{
	double v;
	char what[96];

	if (time_us == PM_UNKNOWN || !(d->dt > 0))
		return NAN;
	v = (double)time_us / (d->dt * 1e6) * 100.0;
	if (v <= 100.0)
		return v;
	name_of(id, PM_CTR_TIME_US, what, sizeof(what));
	pm_anom(d->an, PM_ANOM_OVER_INTERVAL,
		"%s: %.3f s in an interval of %.3f s (an idle period is "
		"counted when it ends): shown as 100%%",
		what, (double)time_us / 1e6, d->dt);
	return 100.0;
}

double pm_share_boot(struct pm_anoms *a, uint64_t time_us, double uptime_s,
		     unsigned ncpu, const struct pm_ctr_id *id)
{
	double whole, v;
	char what[96];

	if (time_us == PM_UNKNOWN || !isfinite(uptime_s) || uptime_s <= 0 ||
	    !ncpu)
		return NAN;
	whole = uptime_s * 1e6 * ncpu;
	v = (double)time_us / whole * 100.0;
	if (v <= 100.0)
		return v;
	if ((double)time_us <= whole + (double)BOOT_SLACK_US * ncpu)
		return 100.0;
	name_of(id, PM_CTR_TIME_US, what, sizeof(what));
	pm_anom(a, PM_ANOM_OVER_UPTIME,
		"%s: %.3f s, more than the %.2f s since boot: unknown", what,
		(double)time_us / 1e6, uptime_s * ncpu);
	return NAN;
}

double pm_rate(uint64_t n, double dt)
{
	return n == PM_UNKNOWN || !(dt > 0) ? NAN : (double)n / dt;
}

/* ---------------------------------------------------------------- CPU time */

static const char *const ct_names[PM_CT_KINDS] = {
	[PM_CT_BUSY] = "busy",	   [PM_CT_USER] = "user",
	[PM_CT_SYSTEM] = "system", [PM_CT_IOWAIT] = "iowait",
	[PM_CT_IRQ] = "irq",	   [PM_CT_STEAL] = "steal",
	[PM_CT_IDLE] = "idle",
};

static const char *const st_names[PM_ST_FIELDS] = {
	"user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal",
};

const char *pm_ct_name(enum pm_ct k)
{
	return (unsigned)k < PM_CT_KINDS ? ct_names[k] : "?";
}

/* Sum of two fields, unknown if either is: an older kernel's line. */
static uint64_t add2(uint64_t a, uint64_t b)
{
	return a == PM_UNKNOWN || b == PM_UNKNOWN ? PM_UNKNOWN : a + b;
}

/* Shares of the fields f[] (already decided) of their known sum. */
static void split(const uint64_t *f, struct pm_cputime *ct)
{
	uint64_t part[PM_CT_KINDS], total = 0;

	for (int k = 0; k < PM_CT_KINDS; k++)
		ct->pct[k] = NAN;
	for (int i = 0; i < PM_ST_FIELDS; i++)
		if (f[i] != PM_UNKNOWN)
			total += f[i];
	/* The four fields every kernel has must be known. */
	for (int i = PM_ST_USER; i <= PM_ST_IDLE; i++)
		if (f[i] == PM_UNKNOWN)
			return;
	if (!total)
		return;
	part[PM_CT_USER] = f[PM_ST_USER] + f[PM_ST_NICE];
	part[PM_CT_SYSTEM] = f[PM_ST_SYSTEM];
	part[PM_CT_IOWAIT] = f[PM_ST_IOWAIT];
	part[PM_CT_IRQ] = add2(f[PM_ST_IRQ], f[PM_ST_SOFTIRQ]);
	part[PM_CT_STEAL] = f[PM_ST_STEAL];
	part[PM_CT_IDLE] = f[PM_ST_IDLE];
	part[PM_CT_BUSY] = total - f[PM_ST_IDLE] -
			   (f[PM_ST_IOWAIT] == PM_UNKNOWN ? 0 :
							    f[PM_ST_IOWAIT]);
	for (int k = 0; k < PM_CT_KINDS; k++)
		if (part[k] != PM_UNKNOWN)
			ct->pct[k] = (double)part[k] * 100.0 / (double)total;
}

void pm_cputime_boot(const struct pm_cpu_ticks *t, struct pm_cputime *ct)
{
	split(t->f, ct);
}

void pm_cputime_delta(const struct pm_dctx *d, unsigned cpu,
		      const struct pm_cpu_ticks *a,
		      const struct pm_cpu_ticks *b, struct pm_cputime *ct)
{
	uint64_t f[PM_ST_FIELDS];

	for (int i = 0; i < PM_ST_FIELDS; i++) {
		struct pm_ctr_id id = { (int)cpu, -1, st_names[i] };

		f[i] = pm_ctr_delta(d, PM_CTR_TICKS, a->f[i], b->f[i], &id);
	}
	split(f, ct);
}
