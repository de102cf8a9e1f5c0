// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * System sleep as /sys/power offers it: states, mem_sleep variants,
 * hibernation modes, pm_test levels and the suspend statistics; and the
 * writes around a sleep (the files pm-suspend changes, in a transaction
 * read back; the wakeup_count handshake; the state write).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>
#include <linux/fiemap.h>

#include "sleep.h"
#include "txn.h"
#include "core.h"
#include "parse.h"
#include "cpuset.h"
#include "proc.h"
#include "sample.h"

#define POWER_DIR "/sys/power"

static void rd(struct pm_ctx *ctx, int fd, const char *name, char *buf,
	       size_t size)
{
	if (pm_attr_readat(ctx, fd, name, buf, size) < 0)
		buf[0] = '\0';
}

int pm_sleep_read(struct pm_ctx *ctx, struct pm_sleep *s)
{
	int fd = pm_open_dir(ctx, POWER_DIR);
	int64_t e;

	memset(s, 0, sizeof(*s));
	s->resume_offset = s->image_size = PM_UNKNOWN;
	s->success = s->fail = PM_UNKNOWN;
	s->last_failed_errno = PM_UNKNOWN_S64;
	if (fd < 0)
		return pm_err_set(ctx, "open", POWER_DIR, NULL, -fd, NULL);
	s->have_power = true;
	rd(ctx, fd, "state", s->state, sizeof(s->state));
	rd(ctx, fd, "mem_sleep", s->mem_sleep, sizeof(s->mem_sleep));
	rd(ctx, fd, "disk", s->disk, sizeof(s->disk));
	rd(ctx, fd, "pm_test", s->pm_test, sizeof(s->pm_test));
	rd(ctx, fd, "resume", s->resume, sizeof(s->resume));
	s->resume_offset = pm_attr_getat_u64(ctx, fd, "resume_offset");
	s->image_size = pm_attr_getat_u64(ctx, fd, "image_size");
	s->success = pm_attr_getat_u64(ctx, fd, "suspend_stats/success");
	s->fail = pm_attr_getat_u64(ctx, fd, "suspend_stats/fail");
	rd(ctx, fd, "suspend_stats/last_failed_dev", s->last_failed_dev,
	   sizeof(s->last_failed_dev));
	rd(ctx, fd, "suspend_stats/last_failed_step", s->last_failed_step,
	   sizeof(s->last_failed_step));
	if (pm_attr_readat_s64(ctx, fd, "suspend_stats/last_failed_errno",
			       &e) == 0)
		s->last_failed_errno = e;
	close(fd);
	pm_err_clear(ctx);
	return 0;
}

bool pm_choice_offered(const char *list, const char *word)
{
	return pm_word_in(list, word);
}

static const char *const mode_names[] = {
	[PM_MODE_SUSPEND] = "suspend",
	[PM_MODE_S2IDLE] = "s2idle",
	[PM_MODE_STANDBY] = "standby",
	[PM_MODE_DEEP] = "deep",
	[PM_MODE_HIBERNATE] = "hibernate",
	[PM_MODE_HYBRID] = "hybrid",
	[PM_MODE_SUSPEND_THEN_HIBERNATE] = "suspend-then-hibernate",
};

int pm_sleep_mode_parse(const char *s, enum pm_sleep_mode *m)
{
	if (!strcmp(s, "freeze")) {
		*m = PM_MODE_S2IDLE;
		return 0;
	}
	if (!strcmp(s, "shallow")) {
		*m = PM_MODE_STANDBY;
		return 0;
	}
	for (size_t i = 0; i < sizeof(mode_names) / sizeof(mode_names[0]);
	     i++) {
		if (!strcmp(s, mode_names[i])) {
			*m = (enum pm_sleep_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *pm_sleep_mode_name(enum pm_sleep_mode m)
{
	return (size_t)m < sizeof(mode_names) / sizeof(mode_names[0]) ?
		       mode_names[m] :
		       "?";
}

static int no(char *reason, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int no(char *reason, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, size, fmt, ap);
	va_end(ap);
	return -EOPNOTSUPP;
}

/* Look a key up in /proc/meminfo ("Active(anon):  123 kB"), in KiB. */
static uint64_t meminfo_kib(const char *text, const char *key)
{
	size_t kl = strlen(key);

	const char *p = text;

	while (p && *p) {
		uint64_t v = 0;
		const char *q;

		if (strncmp(p, key, kl) || p[kl] != ':') {
			p = strchr(p, '\n');
			if (p)
				p++;
			continue;
		}
		q = p + kl + 1;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q < '0' || *q > '9')
			return PM_UNKNOWN;
		while (*q >= '0' && *q <= '9')
			v = v * 10 + (uint64_t)(*q++ - '0');
		return v;
	}
	return PM_UNKNOWN;
}

/*
 * A swap file is the image's home only if it lives on the resume device
 * and resume_offset is the page of its first block (FIEMAP), as the
 * kernel's swap-file resume reads it.  A file we cannot open or map (no
 * FIEMAP on this file system) is not held against it.
 */
static bool swap_file_mismatch(struct pm_ctx *ctx, const char *file,
			       const char *resume, uint64_t off, char *why,
			       size_t size)
{
	struct {
		struct fiemap fm;
		struct fiemap_extent fe[1];
	} m;
	struct stat st;
	char dev[32];
	long page = sysconf(_SC_PAGESIZE);
	int fd = pm_open(ctx, file, O_RDONLY);
	bool bad = false;

	if (fd < 0) {
		pm_err_clear(ctx);
		return false;
	}
	if (fstat(fd, &st) == 0) {
		snprintf(dev, sizeof(dev), "%u:%u", major(st.st_dev),
			 minor(st.st_dev));
		if (strcmp(dev, resume)) {
			snprintf(why, size,
				 "the swap file %s is on device %s, not on the "
				 "resume device %s",
				 file, dev, resume);
			bad = true;
		}
	}
	memset(&m, 0, sizeof(m));
	m.fm.fm_length = ~0ULL;
	m.fm.fm_flags = FIEMAP_FLAG_SYNC;
	m.fm.fm_extent_count = 1;
	if (!bad && page > 0 && ioctl(fd, FS_IOC_FIEMAP, &m.fm) == 0 &&
	    m.fm.fm_mapped_extents >= 1 && m.fe[0].fe_logical == 0 &&
	    m.fe[0].fe_physical / (uint64_t)page != off) {
		snprintf(why, size,
			 "resume_offset %llu does not match the swap file %s, "
			 "whose first page is %llu",
			 (unsigned long long)off, file,
			 (unsigned long long)(m.fe[0].fe_physical /
					      (uint64_t)page));
		bad = true;
	}
	close(fd);
	return bad;
}

/*
 * One line of /proc/swaps ("NAME TYPE SIZE USED PRIO", KiB): its free
 * KiB when it is the resume device's swap area, else -1 (why says so for
 * a swap file at another offset).
 */
static int64_t resume_area_free(struct pm_ctx *ctx, const char *line,
				const char *resume, char *why, size_t whysize)
{
	char name[256], type[32], dev[32], path[320], szs[32], useds[32];
	uint64_t sz, used, off;

	/* Strict numbers: "-1" is no size, not 2^64 - 1 of them. */
	if (sscanf(line, "%255s %31s %31s %31s", name, type, szs, useds) !=
		    4 ||
	    pm_parse_u64(szs, &sz) < 0 || pm_parse_u64(useds, &used) < 0)
		return -1;
	if (!strcmp(type, "partition") && !strncmp(name, "/dev/", 5)) {
		snprintf(path, sizeof(path), "/sys/class/block/%s/dev",
			 name + 5);
		if (pm_attr_read(ctx, path, dev, sizeof(dev)) <= 0 ||
		    strcmp(dev, resume))
			return -1;
	} else if (!strcmp(type, "file")) {
		if (pm_attr_read_u64(ctx, "/sys/power/resume_offset", &off) <
			    0 ||
		    off == 0 ||
		    swap_file_mismatch(ctx, name, resume, off, why, whysize))
			return -1;
	} else {
		return -1;
	}
	return sz > used ? (int64_t)(sz - used) : 0;
}

int pm_hibernate_check(struct pm_ctx *ctx, enum pm_hib_writer w,
		       char *reason, size_t size)
{
	char resume[32], *swaps = NULL, *meminfo = NULL, why[384] = "";
	char *save = NULL, *line;
	uint64_t need;
	int64_t best_free = -1, f;

	if (pm_attr_read(ctx, "/sys/power/resume", resume, sizeof(resume)) <
	    0)
		return no(reason, size, "/sys/power/resume cannot be read");
	if (!resume[0] || !strcmp(resume, "0:0"))
		return no(reason, size,
			  "no resume device: /sys/power/resume is 0:0, so the "
			  "image could never be restored (set resume= on the "
			  "kernel command line)");
	if (pm_file_read(ctx, "/proc/swaps", &swaps) < 0)
		return no(reason, size, "/proc/swaps cannot be read");
	strtok_r(swaps, "\n", &save); /* the header */
	for (line = strtok_r(NULL, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		f = resume_area_free(ctx, line, resume, why, sizeof(why));
		if (f > best_free)
			best_free = f;
	}
	free(swaps);
	pm_err_clear(ctx);
	if (best_free < 0 && why[0])
		return no(reason, size, "%s", why);
	if (best_free < 0)
		return no(reason, size,
			  "the resume device %s is not an active swap area in "
			  "/proc/swaps",
			  resume);
	if (pm_file_read(ctx, "/proc/meminfo", &meminfo) < 0)
		return no(reason, size, "/proc/meminfo cannot be read");
	need = meminfo_kib(meminfo, "Active(anon)");
	free(meminfo);
	pm_err_clear(ctx);
	if (need == PM_UNKNOWN)
		return no(reason, size, "Active(anon) is missing from "
					"/proc/meminfo");
	if (w == PM_HIB_USER)
		need = (need * PM_HIB_USER_PCT + 99) / 100;
	if ((uint64_t)best_free < need)
		return no(reason, size,
			  "not enough free swap for the image: %llu KiB free "
			  "on %s, %llu KiB needed (%s)",
			  (unsigned long long)best_free, resume,
			  (unsigned long long)need,
			  w == PM_HIB_USER ?
				  "the compressed estimate, half of Active(anon)" :
				  "Active(anon)");
	return 0;
}

/* safety: who would write a hibernation image, for the safety check;
 * NULL: none (--force). */
static int sleep_check(struct pm_ctx *ctx, enum pm_sleep_mode m,
		       const char *hib_mode, const enum pm_hib_writer *safety,
		       char *reason, size_t size)
{
	struct pm_sleep s;
	const char *st;
	int r;

	reason[0] = '\0';
	if (pm_sleep_read(ctx, &s) < 0)
		return no(reason, size, "no /sys/power: the kernel has no "
					"system sleep support");
	st = s.state[0] ? s.state : "nothing";
	switch (m) {
	case PM_MODE_SUSPEND:
		if (!pm_word_in(s.state, "mem"))
			return no(reason, size,
				  "suspend to RAM is not offered (the kernel "
				  "offers: %s)",
				  st);
		return 0;
	case PM_MODE_DEEP:
		if (!pm_word_in(s.state, "mem") ||
		    !pm_word_in(s.mem_sleep, "deep"))
			return no(reason, size,
				  "deep sleep (S3) is not offered (state: %s; "
				  "mem_sleep: %s)",
				  st, s.mem_sleep[0] ? s.mem_sleep : "none");
		return 0;
	case PM_MODE_S2IDLE:
		if ((pm_word_in(s.state, "mem") &&
		     pm_word_in(s.mem_sleep, "s2idle")) ||
		    pm_word_in(s.state, "freeze"))
			return 0;
		return no(reason, size,
			  "suspend-to-idle is not offered (state: %s)", st);
	case PM_MODE_STANDBY:
		if (pm_word_in(s.state, "standby") ||
		    (pm_word_in(s.state, "mem") &&
		     pm_word_in(s.mem_sleep, "shallow")))
			return 0;
		return no(reason, size,
			  "standby is not offered (state: %s; mem_sleep: %s)",
			  st, s.mem_sleep[0] ? s.mem_sleep : "none");
	case PM_MODE_HIBERNATE:
	case PM_MODE_HYBRID:
		if (!pm_word_in(s.state, "disk"))
			return no(reason, size,
				  "hibernation is not offered (the kernel "
				  "offers: %s)",
				  st);
		hib_mode = m == PM_MODE_HYBRID ? "suspend" :
			   hib_mode	       ? hib_mode :
						 "platform";
		if (!pm_word_in(s.disk, hib_mode) &&
		    !(m == PM_MODE_HIBERNATE && !strcmp(hib_mode, "platform") &&
		      pm_word_in(s.disk, "shutdown")))
			return no(reason, size,
				  "hibernation mode '%s' is not offered "
				  "(disk: %s)",
				  hib_mode, s.disk[0] ? s.disk : "none");
		return safety ? pm_hibernate_check(ctx, *safety, reason, size) :
				0;
	case PM_MODE_SUSPEND_THEN_HIBERNATE:
		r = sleep_check(ctx, PM_MODE_SUSPEND, NULL, safety, reason,
				size);
		if (r < 0)
			return r;
		r = sleep_check(ctx, PM_MODE_HIBERNATE, hib_mode, safety,
				reason, size);
		if (r < 0)
			return r;
		if (!pm_exists(ctx, "/sys/class/rtc/rtc0/wakealarm"))
			return no(reason, size,
				  "no RTC alarm (/sys/class/rtc/rtc0/wakealarm) "
				  "to end the suspend leg");
		return 0;
	}
	return -EINVAL;
}

int pm_sleep_check(struct pm_ctx *ctx, enum pm_sleep_mode m,
		   const char *hib_mode, enum pm_hib_writer w, char *reason,
		   size_t size)
{
	return sleep_check(ctx, m, hib_mode, &w, reason, size);
}

int pm_sleep_offered(struct pm_ctx *ctx, enum pm_sleep_mode m,
		     const char *hib_mode, char *reason, size_t size)
{
	return sleep_check(ctx, m, hib_mode, NULL, reason, size);
}

void pm_choice_selected(const char *list, char *out, size_t size)
{
	if (!size)
		return;
	pm_choice_current(list, out, size);
	if (!out[0] && list[0] && !strpbrk(list, " \t[]"))
		snprintf(out, size, "%s", list);
}

const char *const pm_suspend_stat_names[PM_SUSPEND_STATS] = {
	"success",	       "fail",		     "failed_freeze",
	"failed_prepare",      "failed_suspend",     "failed_suspend_late",
	"failed_suspend_noirq", "failed_resume",     "failed_resume_early",
	"failed_resume_noirq",
};

void pm_suspend_stats_read(struct pm_ctx *ctx, struct pm_suspend_stats *s)
{
	int fd = pm_open_dir(ctx, POWER_DIR "/suspend_stats");
	int64_t e;

	memset(s, 0, sizeof(*s));
	s->last_failed_errno = PM_UNKNOWN_S64;
	for (int i = 0; i < PM_SUSPEND_STATS; i++)
		s->v[i] = PM_UNKNOWN;
	if (fd < 0) {
		pm_err_clear(ctx);
		return;
	}
	for (int i = 0; i < PM_SUSPEND_STATS; i++)
		s->v[i] = pm_attr_getat_u64(ctx, fd, pm_suspend_stat_names[i]);
	rd(ctx, fd, "last_failed_dev", s->last_failed_dev,
	   sizeof(s->last_failed_dev));
	rd(ctx, fd, "last_failed_step", s->last_failed_step,
	   sizeof(s->last_failed_step));
	if (pm_attr_readat_s64(ctx, fd, "last_failed_errno", &e) == 0)
		s->last_failed_errno = e;
	close(fd);
	pm_err_clear(ctx);
}

static volatile sig_atomic_t alarm_fired;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

int pm_wakeup_count_read(struct pm_ctx *ctx, double timeout_s,
			 uint64_t *count)
{
	static const char path[] = POWER_DIR "/wakeup_count";
	struct sigaction sa, old;
	struct itimerval it = { { 0, 0 }, { 0, 0 } }, oldit;
	char buf[32];
	ssize_t n;
	int fd = pm_open(ctx, path, O_RDONLY), e;

	if (fd < 0)
		return pm_err_set(ctx, "open", path, NULL, -fd, NULL);
	/* A FIFO would read as empty (or block): it is not the kernel's. */
	e = pm_fd_check(ctx, fd);
	if (e < 0) {
		close(fd);
		return pm_err_set(ctx, "open", path, NULL, -e, NULL);
	}
	/* The read blocks while events are in flight: bound it. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm; /* no SA_RESTART: the read gets EINTR */
	sigaction(SIGALRM, &sa, &old);
	it.it_value.tv_sec = (time_t)timeout_s;
	it.it_value.tv_usec =
		(suseconds_t)((timeout_s - (double)(time_t)timeout_s) * 1e6);
	if (!it.it_value.tv_sec && !it.it_value.tv_usec)
		it.it_value.tv_usec = 1;
	setitimer(ITIMER_REAL, &it, &oldit);
	alarm_fired = 0;
	n = read(fd, buf, sizeof(buf) - 1);
	e = errno;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	sigaction(SIGALRM, &old, NULL);
	/* The caller's timer goes on (less the time this read took). */
	if (oldit.it_value.tv_sec || oldit.it_value.tv_usec)
		setitimer(ITIMER_REAL, &oldit, NULL);
	close(fd);
	if (n < 0 && e == EINTR && !alarm_fired)
		return -EINTR; /* another signal: the caller's to handle */
	if (n < 0)
		return pm_err_set(ctx, "read", path, NULL,
				  e == EINTR ? ETIMEDOUT : e,
				  e == EINTR ? "wakeup events kept it busy "
					       "for %.0f s" :
					     NULL,
				  timeout_s);
	buf[n] = '\0';
	pm_strip(buf, (size_t)n);
	if (pm_parse_u64(buf, count) < 0)
		return pm_err_set(ctx, "parse", path, buf, EINVAL, NULL);
	return 0;
}

int pm_rtc_read(struct pm_ctx *ctx, const char *name, struct pm_rtc *r)
{
	char buf[64];
	ssize_t n;

	memset(r, 0, sizeof(*r));
	if (!pm_fset_name_ok(name, sizeof(r->name)))
		return pm_err_set(ctx, "open", name, NULL, ENOENT,
				  "not an RTC name");
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->path, sizeof(r->path), "/sys/class/rtc/%s", name);
	n = pm_attr_readf(ctx, buf, sizeof(buf), "%s/wakealarm", r->path);
	if (n < 0)
		return (int)n;
	if (!n || pm_parse_u64(buf, &r->alarm) < 0)
		r->alarm = 0;
	if (pm_attr_readf_u64(ctx, &r->now, "%s/since_epoch", r->path) < 0)
		r->now = PM_UNKNOWN;
	if (pm_attr_readf(ctx, r->wakeup, sizeof(r->wakeup),
			  "%s/device/power/wakeup", r->path) < 0)
		r->wakeup[0] = '\0';
	pm_err_clear(ctx);
	return 0;
}

bool pm_rtc_alarm_path(const char *name, char *buf, size_t size)
{
	if (!pm_fset_name_ok(name, sizeof(((struct pm_rtc *)0)->name)))
		return false;
	snprintf(buf, size, "/sys/class/rtc/%s/wakealarm", name);
	return true;
}

int pm_rtc_alarm_clear(struct pm_ctx *ctx, const char *rtc)
{
	char path[PM_PATH_MAX];
	struct pm_rtc r;

	if (!pm_rtc_alarm_path(rtc, path, sizeof(path)))
		return pm_err_set(ctx, "write", rtc, "0", ENOENT,
				  "not an RTC name");
	/* The kernel disables an alarm that fired; one still set is ours. */
	if (!ctx->dry_run && pm_rtc_read(ctx, rtc, &r) == 0 && r.alarm == 0)
		return 0;
	return pm_attr_write(ctx, path, "0");
}

/* ---------------------------------------------------------------- writes */

int pm_wakeup_count_write(struct pm_ctx *ctx, uint64_t count)
{
	char v[32];

	snprintf(v, sizeof(v), "%llu", (unsigned long long)count);
	return pm_attr_write(ctx, POWER_DIR "/wakeup_count", v);
}

int pm_sleep_enter(struct pm_ctx *ctx, const char *state)
{
	return pm_attr_write(ctx, POWER_DIR "/state", state);
}

int pm_sleep_state_writable(struct pm_ctx *ctx)
{
	int r = pm_write_allowed(ctx, POWER_DIR "/state");

	if (r < 0)
		return r;
	return pm_writable(ctx, POWER_DIR "/state") ? 0 : -EACCES;
}

int pm_wakeup_irq_read(struct pm_ctx *ctx, uint64_t *irq)
{
	return pm_attr_read_u64(ctx, POWER_DIR "/pm_wakeup_irq", irq);
}

bool pm_sleep_syncs(struct pm_ctx *ctx)
{
	uint64_t v;
	bool yes = pm_attr_read_u64(ctx, POWER_DIR "/sync_on_suspend",
				    &v) == 0 && v == 1;

	pm_err_clear(ctx);
	return yes;
}

void pm_sleep_txn_init(struct pm_sleep_txn *s, struct pm_ctx *ctx)
{
	pm_txn_init(&s->txn, ctx);
	s->mismatch = -1;
}

void pm_sleep_txn_free(struct pm_sleep_txn *s)
{
	pm_txn_free(&s->txn);
}

int pm_sleep_plan_choice(struct pm_sleep_txn *s, const char *name,
			 const char *value)
{
	char path[64];
	int i;

	snprintf(path, sizeof(path), POWER_DIR "/%s", name);
	i = pm_txn_add(&s->txn, path, value, PM_W_CHOICE | PM_W_SELECTED);
	if (i < 0)
		return i;
	/* Nothing selected to go back to: left as written. */
	if (!s->txn.w[i].old[0])
		s->txn.w[i].flags |= PM_W_NOUNDO;
	return 0;
}

int pm_sleep_plan_alarm(struct pm_sleep_txn *s, const char *rtc,
			uint64_t when, bool replace)
{
	char path[PM_PATH_MAX], v[32];
	int i;

	if (!pm_rtc_alarm_path(rtc, path, sizeof(path)))
		return pm_err_set(s->txn.ctx, "write", rtc, NULL, ENOENT,
				  "not an RTC name");
	/* Cleared, the file reads empty: nothing to read back. */
	if (replace) {
		i = pm_txn_add_known(&s->txn, path, "", "0",
				     PM_W_FORCE | PM_W_NOREAD | PM_W_NOUNDO);
		if (i < 0)
			return i;
	}
	snprintf(v, sizeof(v), "%llu", (unsigned long long)when);
	i = pm_txn_add_known(&s->txn, path, "0", v, PM_W_FORCE | PM_W_NOUNDO);
	return i < 0 ? i : 0;
}

int pm_sleep_apply(struct pm_sleep_txn *s)
{
	struct pm_txn *t = &s->txn;
	int from = t->next, r = pm_txn_apply(t);

	if (r < 0)
		return r;
	for (int i = from; i < t->n; i++) {
		const struct pm_write *w = &t->w[i];

		if (!w->done || !w->got[0] || !strcmp(w->got, w->val))
			continue;
		s->mismatch = i;
		pm_txn_undo(t);
		return pm_err_set(t->ctx, "write", w->path, w->val, EIO,
				  "the kernel did not keep it: it reads '%s'",
				  w->got);
	}
	return 0;
}

int pm_sleep_undo(struct pm_sleep_txn *s)
{
	struct pm_txn *t = &s->txn;

	if (!t->ctx->dry_run) {
		pm_txn_undo(t);
		return t->not_restored;
	}
	/* A dry run shows the writes that would put the files back. */
	for (int i = t->next - 1; i >= 0; i--)
		if (t->w[i].done && !(t->w[i].flags & PM_W_NOUNDO))
			(void)pm_attr_write(t->ctx, t->w[i].path, t->w[i].old);
	return 0;
}

bool pm_rtc_local(struct pm_ctx *ctx)
{
	char *text = NULL, *line, *save = NULL;
	bool local = false;
	int k = 0;

	if (pm_file_read(ctx, "/etc/adjtime", &text) < 0) {
		pm_err_clear(ctx);
		return false; /* hwclock's default is UTC */
	}
	/* Three lines; a line may be empty, so do not use strtok. */
	line = text;
	for (k = 0; k < 2 && line; k++) {
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	if (line) {
		save = strchr(line, '\n');
		if (save)
			*save = '\0';
		local = !strcmp(line, "LOCAL");
	}
	free(text);
	return local;
}

int pm_wakeup_sources_read(struct pm_ctx *ctx, struct pm_wsrc **out)
{
	struct pm_class c;
	int n = pm_class_open(ctx, &c, "wakeup", NULL), k = 0;

	*out = NULL;
	if (n < 0) {
		pm_err_clear(ctx);
		return n;
	}
	*out = calloc((size_t)n + 1, sizeof(**out));
	if (!*out) {
		pm_class_close(&c);
		return -ENOMEM;
	}
	while (pm_class_next(ctx, &c)) {
		struct pm_wsrc *w = &(*out)[k];
		int fd = c.fd;

		if (strlen(c.name) >= sizeof(w->id) || fd < 0)
			continue;
		snprintf(w->id, sizeof(w->id), "%s", c.name);
		rd(ctx, fd, "name", w->name, sizeof(w->name));
		w->event_count = pm_attr_getat_u64(ctx, fd, "event_count");
		w->wakeup_count = pm_attr_getat_u64(ctx, fd, "wakeup_count");
		k++;
	}
	pm_class_close(&c);
	pm_err_clear(ctx);
	return k;
}

void pm_irq_name(struct pm_ctx *ctx, unsigned irq, char *name, size_t size)
{
	char *text = NULL, label[16];
	struct pm_irq_row *rows;
	struct pm_cpuset all;
	int n;

	name[0] = '\0';
	if (pm_file_read(ctx, "/proc/interrupts", &text) < 0) {
		pm_err_clear(ctx);
		return;
	}
	rows = calloc(PM_MAX_IRQ_ROWS, sizeof(*rows));
	if (!rows) {
		free(text);
		return;
	}
	memset(&all, 0xff, sizeof(all));
	n = pm_proc_interrupts_parse(text, &all, NULL, 0, rows,
				     PM_MAX_IRQ_ROWS);
	snprintf(label, sizeof(label), "%u", irq);
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].label, label)) {
			snprintf(name, size, "%s", rows[i].desc);
			break;
		}
	free(rows);
	free(text);
}
