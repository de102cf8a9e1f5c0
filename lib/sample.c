// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sampler behind interval reports: every counter file opened once,
 * re-read with pread(fd, buf, n, 0), so one sample costs one syscall per
 * value.  CPUs that leave are closed and re-opened when they return.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/resource.h>

#include "sample.h"
#include "core.h"
#include "parse.h"
#include "cpuset.h"
#include "cpuidle.h"
#include "cpufreq.h"
#include "proc.h"
#include "virt.h"

#define CPU_DIR "/sys/devices/system/cpu"
#define POWERCAP_DIR "/sys/class/powercap"
/* fds kept free for stdio, the output file and a child's pipes. */
#define FD_RESERVE 64
/* fs.nr_open's default: no more fds than this are ever asked for. */
#define NOFILE_MAX (1u << 20)
/* First size of the /proc buffer; it grows once if a table is larger. */
#define PROC_BUF 65536
/*
 * Readings at which a CPU may find fewer idle states than it had before
 * its count is taken as the new one: acpi_idle re-creates a CPU's state
 * folders one by one as it comes online, for some milliseconds.
 */
#define REOPEN_TRIES 3

/*
 * Room for one fd per counter: the soft limit goes up to the hard one,
 * and as root (CAP_SYS_RESOURCE) the hard one up to what is needed, so a
 * 1024-CPU machine (24 576 counters) samples at one syscall per value.
 */
static void raise_nofile(struct pm_sampler *s, unsigned need)
{
	struct rlimit rl;
	rlim_t want = (rlim_t)need + FD_RESERVE;

	s->fd_budget = 1024 - FD_RESERVE;
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return;
	if (want > NOFILE_MAX)
		want = NOFILE_MAX;
	if (want > rl.rlim_max) {
		struct rlimit up = { want, want };

		if (setrlimit(RLIMIT_NOFILE, &up) == 0)
			rl = up;
	}
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
		getrlimit(RLIMIT_NOFILE, &rl);
	}
	if (rl.rlim_cur > FD_RESERVE)
		s->fd_budget = rl.rlim_cur > NOFILE_MAX ?
				       NOFILE_MAX :
				       (unsigned)rl.rlim_cur - FD_RESERVE;
}

/* Open a counter to keep, or -1 (then it is read by path each time). */
static int keep_open(struct pm_sampler *s, int dirfd, const char *name)
{
	int fd;

	if (s->fds_open >= s->fd_budget)
		return -1;
	fd = pm_openat(s->ctx, dirfd, name, O_RDONLY);
	if (fd >= 0)
		s->fds_open++;
	return fd;
}

static void close_fd(struct pm_sampler *s, int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		s->fds_open--;
	}
	*fd = -1;
}

static void close_cpu(struct pm_sampler *s, struct pm_scpu *c)
{
	for (int i = 0; i < PM_MAX_IDLE_STATES; i++) {
		close_fd(s, &c->fd_usage[i]);
		close_fd(s, &c->fd_time[i]);
		close_fd(s, &c->fd_disable[i]);
	}
	close_fd(s, &c->fd_s390_count);
	close_fd(s, &c->fd_s390_time);
	c->nstates = 0;
}

static void unknown_cpu(struct pm_scpu *c)
{
	for (int i = 0; i < PM_MAX_IDLE_STATES; i++) {
		c->usage[i] = c->time_us[i] = PM_UNKNOWN;
		c->disabled[i] = -1;
	}
	c->s390_count = c->s390_time_us = PM_UNKNOWN;
}

/* s390's idle statistics (cpuN/idle_count, idle_time_us), kept open. */
static void open_s390(struct pm_sampler *s, struct pm_scpu *c)
{
	char path[96];
	int dfd;

	if (!s->s390)
		return;
	snprintf(path, sizeof(path), CPU_DIR "/cpu%u", c->cpu);
	dfd = pm_open_dir(s->ctx, path);
	if (dfd < 0)
		return;
	c->fd_s390_time = keep_open(s, dfd, "idle_time_us");
	c->fd_s390_count = keep_open(s, dfd, "idle_count");
	close(dfd);
}

static void open_cpu(struct pm_sampler *s, struct pm_scpu *c)
{
	struct pm_idle_state st[PM_MAX_IDLE_STATES];
	char path[128];
	int n;

	close_cpu(s, c);
	c->pending = false;
	open_s390(s, c);
	if (!(s->flags & PM_SAMPLE_CSTATES))
		return;
	n = pm_idle_states_read_fields(s->ctx, c->cpu, st, PM_MAX_IDLE_STATES,
				       PM_IDLE_NAMES);
	for (int i = 0; i < n; i++) {
		int dfd;

		snprintf(c->names[i], sizeof(c->names[i]), "%s", st[i].name);
		c->latency_us[i] = st[i].latency_us;
		snprintf(path, sizeof(path), CPU_DIR "/cpu%u/cpuidle/state%d",
			 c->cpu, i);
		dfd = pm_open_dir(s->ctx, path);
		if (dfd < 0)
			break;
		c->fd_usage[i] = keep_open(s, dfd, "usage");
		c->fd_time[i] = keep_open(s, dfd, "time");
		c->fd_disable[i] = keep_open(s, dfd, "disable");
		close(dfd);
		c->nstates = i + 1;
	}
	pm_err_clear(s->ctx);
	/*
	 * Fewer states than at the last opening: the folders are being
	 * re-created.  Keep the states it had (names and all), with values
	 * unknown, and open them again at the next reading.
	 */
	if (c->nstates < c->nstates_seen && c->tries < REOPEN_TRIES) {
		close_cpu(s, c);
		unknown_cpu(c);
		c->nstates = c->nstates_seen;
		c->tries++;
		c->pending = true;
		return;
	}
	c->nstates_seen = c->nstates;
	c->tries = 0;
}

/* The kernel's "unknown" (all bits set) is counted, and unknown here. */
static int all_ones(struct pm_sampler *s, uint64_t v)
{
	if (v == PM_UNKNOWN)
		s->unknown_values++;
	return 0;
}

/* One value: pread on the kept fd, or open/read/close by path. */
static int value(struct pm_sampler *s, int fd, const char *fmt, unsigned cpu,
		 int state, const char *name, uint64_t *v)
{
	char buf[32];
	ssize_t n;

	s->values++;
	if (fd >= 0) {
		s->syscalls++;
		n = pm_attr_pread_ctx(s->ctx, fd, buf, sizeof(buf));
		if (n < 0)
			return (int)n;
		if (n == 0 || pm_parse_u64(buf, v) < 0)
			return -ENODATA;
		return all_ones(s, *v);
	}
	char path[160];
	int r;

	snprintf(path, sizeof(path), fmt, cpu, state, name);
	s->fallback++;
	s->syscalls += 3;
	r = pm_attr_read_u64(s->ctx, path, v);
	return r < 0 ? r : all_ones(s, *v);
}

static int read_cpu(struct pm_sampler *s, struct pm_scpu *c)
{
	static const char fmt[] = CPU_DIR "/cpu%u/cpuidle/state%d/%s";

	for (int i = 0; i < c->nstates; i++) {
		uint64_t d;
		int r;

		r = value(s, c->fd_usage[i], fmt, c->cpu, i, "usage",
			  &c->usage[i]);
		if (r == -ENODEV || r == -ENOENT)
			return r;
		if (r < 0)
			c->usage[i] = PM_UNKNOWN;
		r = value(s, c->fd_time[i], fmt, c->cpu, i, "time",
			  &c->time_us[i]);
		if (r == -ENODEV || r == -ENOENT)
			return r;
		if (r < 0)
			c->time_us[i] = PM_UNKNOWN;
		r = value(s, c->fd_disable[i], fmt, c->cpu, i, "disable", &d);
		c->disabled[i] = r < 0 ? -1 : d != 0;
	}
	return 0;
}

static void read_s390(struct pm_sampler *s, struct pm_scpu *c)
{
	/* By path past the fd budget; there is no state: %.0d prints 0 as "". */
	static const char fmt[] = CPU_DIR "/cpu%u/%.0d%s";

	c->s390_count = c->s390_time_us = PM_UNKNOWN;
	if (c->fd_s390_time < 0)
		return;
	if (value(s, c->fd_s390_time, fmt, c->cpu, 0, "idle_time_us",
		  &c->s390_time_us) < 0)
		c->s390_time_us = PM_UNKNOWN;
	if (c->fd_s390_count >= 0 &&
	    value(s, c->fd_s390_count, fmt, c->cpu, 0, "idle_count",
		  &c->s390_count) < 0)
		c->s390_count = PM_UNKNOWN;
}

/* pread a /proc table whole; the buffer grows only if it was too small,
 * and never past PM_FILE_MAX. */
static ssize_t read_table(struct pm_sampler *s, int fd, const char *path)
{
	for (;;) {
		ssize_t n;

		s->syscalls++;
		do
			n = pread(fd, s->buf, s->bufcap - 1, 0);
		while (n < 0 && errno == EINTR);
		/* A FIFO (ESPIPE) or a device that fills any buffer: the
		 * table is not the kernel's. */
		if (n < 0) {
			int e = errno;

			return pm_fd_check(s->ctx, fd) < 0 ? -ENXIO : -e;
		}
		if ((size_t)n == s->bufcap - 1 && pm_fd_check(s->ctx, fd) < 0)
			return -ENXIO;
		if ((size_t)n < s->bufcap - 1) {
			s->buf[n] = '\0';
			return n;
		}
		if (s->bufcap >= PM_FILE_MAX) {
			pm_odd_file(s->ctx, path, PM_FILE_MAX_TEXT);
			return -EFBIG;
		}
		char *nb = realloc(s->buf, s->bufcap * 2);

		if (!nb)
			return -ENOMEM;
		s->buf = nb;
		s->bufcap *= 2;
	}
}

static void open_rapl(struct pm_sampler *s)
{
	char **names;
	int n = pm_list_dir(s->ctx, POWERCAP_DIR, &names);

	for (int i = 0; i < n && s->nrapl < PM_MAX_RAPL; i++) {
		struct pm_rapl_zone *z = &s->rapl[s->nrapl];
		int dfd;

		/* Control types ("intel-rapl") have no energy: zones do. */
		if (!strchr(names[i], ':'))
			continue;
		snprintf(z->path, sizeof(z->path), POWERCAP_DIR "/%s",
			 names[i]);
		dfd = pm_open_dir(s->ctx, z->path);
		if (dfd < 0)
			continue;
		if (pm_attr_readat(s->ctx, dfd, "name", z->name,
				   sizeof(z->name)) <= 0)
			snprintf(z->name, sizeof(z->name), "%s", names[i]);
		z->max_range_uj =
			pm_attr_getat_u64(s->ctx, dfd, "max_energy_range_uj");
		z->fd = pm_openat(s->ctx, dfd, "energy_uj", O_RDONLY);
		z->err = z->fd < 0 ? -z->fd : 0;
		if (z->fd < 0)
			z->fd = -1;
		else
			s->fds_open++;
		z->energy_uj = PM_UNKNOWN;
		close(dfd);
		s->nrapl++;
	}
	pm_list_free(names, n < 0 ? 0 : n);
	pm_err_clear(s->ctx);
}

/* A file kept open for the whole run, counted; or -1. */
static int open_counted(struct pm_sampler *s, const char *path)
{
	int fd = pm_open(s->ctx, path, O_RDONLY);

	if (fd >= 0)
		s->fds_open++;
	return fd;
}

/* A selected CPU: nothing known, nothing open yet, then its files. */
static void add_cpu(struct pm_sampler *s, unsigned cpu)
{
	struct pm_scpu *sc = &s->cpu[s->ncpu++];

	sc->cpu = cpu;
	sc->policy = -1;
	for (int i = 0; i < PM_MAX_IDLE_STATES; i++)
		sc->fd_usage[i] = sc->fd_time[i] = sc->fd_disable[i] = -1;
	sc->fd_s390_count = sc->fd_s390_time = -1;
	unknown_cpu(sc);
	sc->ticks.total = sc->ticks.idle = PM_UNKNOWN;
	sc->online = true;
	open_cpu(s, sc);
}

/* The cpufreq policies over the selected CPUs: time_in_state and
 * scaling_cur_freq kept open, and each CPU told its policy. */
static void open_policies(struct pm_sampler *s, const struct pm_cpuset *sel)
{
	unsigned *ids = calloc(PM_MAX_CPUS, sizeof(*ids));
	int n = ids ? pm_policies_list(s->ctx, ids, PM_MAX_CPUS) : -ENOMEM;

	if (n > 0)
		s->pol = calloc((size_t)n, sizeof(*s->pol));
	for (int i = 0; i < n && s->pol; i++) {
		struct pm_policy p;
		struct pm_spol *sp = &s->pol[s->npol];
		int dfd;

		if (pm_policy_read(s->ctx, ids[i], &p) < 0)
			continue;
		if (!pm_cpuspan_intersects(&p.related, sel)) {
			pm_policy_free(&p);
			continue;
		}
		sp->id = p.id;
		pm_cpuspan_get(&p.related, &sp->cpus);
		pm_policy_free(&p);
		snprintf(sp->path, sizeof(sp->path), "%s", p.path);
		dfd = pm_open_dir(s->ctx, p.path);
		sp->fd_tis = sp->fd_cur = -1;
		if (dfd >= 0) {
			sp->fd_tis = keep_open(s, dfd, "stats/time_in_state");
			sp->fd_cur = keep_open(s, dfd, "scaling_cur_freq");
			close(dfd);
		}
		sp->cur_khz = PM_UNKNOWN;
		s->npol++;
	}
	free(ids);
	for (int c = 0; c < s->ncpu; c++)
		for (int i = 0; i < s->npol; i++)
			if (pm_cpuset_isset(&s->pol[i].cpus, s->cpu[c].cpu))
				s->cpu[c].policy = i;
}

int pm_sampler_open(struct pm_ctx *ctx, struct pm_sampler *s,
		    const struct pm_cpuset *sel, unsigned flags)
{
	unsigned ncpu = pm_cpuset_count(sel);

	memset(s, 0, sizeof(*s));
	s->ctx = ctx;
	s->flags = flags;
	s->sel = *sel;
	s->uptime_s = NAN;
	s->fd_online = s->fd_stat = s->fd_irq = s->fd_uptime = -1;
	/* usage, time and disable of every state, and two per policy. */
	raise_nofile(s, ncpu * PM_MAX_IDLE_STATES * 3 + ncpu * 2 + 16);
	s->cpu = calloc(ncpu ? ncpu : 1, sizeof(*s->cpu));
	s->bufcap = PROC_BUF;
	s->buf = malloc(s->bufcap);
	s->ticks = calloc(PM_MAX_CPUS, sizeof(*s->ticks));
	s->colmap = calloc(PM_MAX_CPUS, sizeof(*s->colmap));
	if (!s->cpu || !s->buf || !s->ticks || !s->colmap) {
		pm_sampler_close(s);
		return -ENOMEM;
	}
	s->s390 = pm_s390_idle_present(ctx, sel);
	s->fd_uptime = open_counted(s, "/proc/uptime");
	s->fd_online = open_counted(s, CPU_DIR "/online");
	pm_cpuset_foreach(c, sel)
		add_cpu(s, (unsigned)c);
	if (flags & PM_SAMPLE_BUSY)
		s->fd_stat = open_counted(s, "/proc/stat");
	if (flags & PM_SAMPLE_WAKEUPS)
		s->fd_irq = open_counted(s, "/proc/interrupts");
	if (flags & PM_SAMPLE_PSTATES)
		open_policies(s, sel);
	if (flags & PM_SAMPLE_POWER)
		open_rapl(s);
	pm_err_clear(ctx);
	return 0;
}

static void read_online(struct pm_sampler *s)
{
	struct pm_cpuset on;
	char buf[8192];

	if (s->fd_online < 0)
		return;
	s->syscalls++;
	if (pm_attr_pread_ctx(s->ctx, s->fd_online, buf, sizeof(buf)) < 0 ||
	    pm_cpulist_parse(buf, &on) < 0)
		return;
	for (int i = 0; i < s->ncpu; i++) {
		struct pm_scpu *c = &s->cpu[i];
		bool now = pm_cpuset_isset(&on, c->cpu);

		if (c->online && !now) {
			close_cpu(s, c);
			unknown_cpu(c);
		} else if (!c->online && now) {
			open_cpu(s, c);
		}
		c->online = now;
	}
}

/* A policy's text attribute: pread on the kept fd, else by path. */
static ssize_t policy_text(struct pm_sampler *s, struct pm_spol *p, int fd,
			   const char *name, char *buf, size_t size)
{
	char path[160];

	if (fd >= 0) {
		s->syscalls++;
		return pm_attr_pread_ctx(s->ctx, fd, buf, size);
	}
	snprintf(path, sizeof(path), "%s/%s", p->path, name);
	s->fallback++;
	s->syscalls += 3;
	return pm_attr_read(s->ctx, path, buf, size);
}

static void read_policy(struct pm_sampler *s, struct pm_spol *p)
{
	char buf[4096];
	int n;

	s->values++;
	if (policy_text(s, p, p->fd_cur, "scaling_cur_freq", buf,
			sizeof(buf)) <= 0 ||
	    pm_parse_u64(buf, &p->cur_khz) < 0)
		p->cur_khz = PM_UNKNOWN;
	p->tis_bad_line = 0;
	if (policy_text(s, p, p->fd_tis, "stats/time_in_state", buf,
			sizeof(buf)) < 0) {
		p->n_tis = 0;
		return;
	}
	n = pm_tis_parse_line(buf, p->tis, PM_MAX_FREQS, &p->tis_bad_line);
	p->n_tis = n < 0 ? 0 : n;
	s->values += (uint64_t)p->n_tis;
}

/* The time since boot at this reading: bounds what counters may do. */
static void read_uptime(struct pm_sampler *s)
{
	char buf[128];

	s->uptime_s = NAN;
	if (s->fd_uptime < 0)
		return;
	s->syscalls++;
	s->values++;
	if (pm_attr_pread_ctx(s->ctx, s->fd_uptime, buf, sizeof(buf)) <= 0 ||
	    pm_uptime_parse(buf, &s->uptime_s) < 0)
		s->uptime_s = NAN;
}

int pm_sampler_read(struct pm_sampler *s)
{
	s->syscalls = s->values = s->fallback = 0;
	s->unknown_values = 0;
	/* States that were not all there at the reading before. */
	for (int i = 0; i < s->ncpu; i++)
		if (s->cpu[i].online && s->cpu[i].pending)
			open_cpu(s, &s->cpu[i]);
	read_online(s);
	for (int i = 0; i < s->ncpu; i++) {
		struct pm_scpu *c = &s->cpu[i];

		if (!c->online)
			continue;
		read_s390(s, c);
		if (c->pending)
			continue;
		if (read_cpu(s, c) < 0) {
			/*
			 * Its files went away under a CPU that is listed
			 * online: they may have been replaced (acpi_idle
			 * removes and re-adds a CPU's cpuidle folders as it
			 * comes online, after the online list has it).  Open
			 * the new ones; the kernel's counters go on (while
			 * the folders are still being made, open_cpu leaves
			 * the values unknown).  Only when the new ones cannot
			 * be read either is the CPU offline until it is
			 * listed again.
			 */
			open_cpu(s, c);
			if (!c->pending && read_cpu(s, c) < 0) {
				close_cpu(s, c);
				unknown_cpu(c);
				c->online = false;
			}
		}
	}
	for (int i = 0; i < s->ncpu; i++) {
		s->cpu[i].ticks.total = s->cpu[i].ticks.idle = PM_UNKNOWN;
		for (int k = 0; k < PM_ST_FIELDS; k++)
			s->cpu[i].ticks.f[k] = PM_UNKNOWN;
	}
	if (s->fd_stat >= 0 && read_table(s, s->fd_stat, "/proc/stat") >= 0 &&
	    pm_proc_stat_parse(s->buf, s->ticks, PM_MAX_CPUS) >= 0) {
		for (int i = 0; i < s->ncpu; i++)
			s->cpu[i].ticks = s->ticks[s->cpu[i].cpu];
		s->values += (uint64_t)s->ncpu;
	}
	s->have_irq = false;
	if (s->fd_irq >= 0 && read_table(s, s->fd_irq, "/proc/interrupts") >= 0 &&
	    pm_irq_table_parse(s->buf, &s->sel, &s->irq) == 0) {
		s->have_irq = true;
		/* PM_UNKNOWN for a CPU without a column: not online. */
		for (int i = 0; i < s->ncpu; i++)
			s->cpu[i].irqs = pm_irq_table_cpu(&s->irq,
							  s->cpu[i].cpu);
		s->values += (uint64_t)s->irq.nrows * (uint64_t)s->irq.ncol;
	} else {
		for (int i = 0; i < s->ncpu; i++)
			s->cpu[i].irqs = PM_UNKNOWN;
	}
	for (int i = 0; i < s->npol; i++)
		read_policy(s, &s->pol[i]);
	read_uptime(s);
	for (int i = 0; i < s->nrapl; i++) {
		struct pm_rapl_zone *z = &s->rapl[i];
		char buf[32];

		if (z->fd < 0)
			continue;
		s->values++;
		s->syscalls++;
		if (pm_attr_pread_ctx(s->ctx, z->fd, buf, sizeof(buf)) <= 0 ||
		    pm_parse_u64(buf, &z->energy_uj) < 0)
			z->energy_uj = PM_UNKNOWN;
	}
	return 0;
}

void pm_sampler_close(struct pm_sampler *s)
{
	for (int i = 0; i < s->ncpu; i++)
		close_cpu(s, &s->cpu[i]);
	for (int i = 0; i < s->npol; i++) {
		close_fd(s, &s->pol[i].fd_tis);
		close_fd(s, &s->pol[i].fd_cur);
	}
	for (int i = 0; i < s->nrapl; i++)
		close_fd(s, &s->rapl[i].fd);
	close_fd(s, &s->fd_online);
	close_fd(s, &s->fd_stat);
	close_fd(s, &s->fd_irq);
	close_fd(s, &s->fd_uptime);
	free(s->cpu);
	free(s->pol);
	free(s->buf);
	pm_irq_table_free(&s->irq);
	free(s->ticks);
	free(s->colmap);
	memset(s, 0, sizeof(*s));
}
