// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * cpufreq: policies (policyN, or the per-CPU folders of old kernels),
 * their limits, governors, EPP and stats, and the driver-wide knobs of
 * cpufreq/boost, intel_pstate and amd_pstate.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cpufreq.h"
#include "core.h"
#include "parse.h"
#include "cpuset.h"

#define CPU_DIR "/sys/devices/system/cpu"

/*
 * Where cpuK/cpufreq leads, as a system path in out: 1 when it is a link
 * (to policyN since Linux 4.3, to the owner's cpuJ/cpufreq before), 0
 * when it is a folder of its own (before 4.3: the CPU owns a policy),
 * -errno when it cannot be told (-ENOENT: the CPU has no cpufreq).  The
 * link's text is folded onto the CPU's folder: it never leads out of the
 * root.
 */
static int cpu_folder(struct pm_ctx *ctx, unsigned cpu, char *out,
		      size_t size)
{
	char p[64], t[PM_PATH_MAX], dir[64];
	const char *target = t;
	struct stat st;
	ssize_t n;
	int fd, r;

	snprintf(p, sizeof(p), CPU_DIR "/cpu%u/cpufreq", cpu);
	fd = pm_open(ctx, p, O_PATH | O_NOFOLLOW);
	if (fd < 0)
		return fd;
	n = readlinkat(fd, "", t, sizeof(t) - 1);
	if (n < 0) {
		r = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
		close(fd);
		if (r == 0)
			snprintf(out, size, "%s", p);
		return r;
	}
	close(fd);
	t[n] = '\0';
	snprintf(dir, sizeof(dir), "sys/devices/system/cpu/cpu%u", cpu);
	while (*target == '/')
		target++;
	if (size < 2)
		return -ENAMETOOLONG;
	out[0] = '/';
	r = pm_link_resolve(target == t ? dir : "", target, out + 1,
			    size - 1);
	return r < 0 ? r : 1;
}

/* The policy a cpufreq folder is: policyN (1) or a CPU's own folder of
 * the kernels before 4.3 (2), with its number; 0 for anything else. */
static int folder_id(const char *path, unsigned *id)
{
	static const char pol[] = CPU_DIR "/cpufreq/policy", cpu[] = CPU_DIR
								     "/cpu";
	char num[16];
	const char *s;
	uint32_t v;
	size_t n;

	if (!strncmp(path, pol, sizeof(pol) - 1)) {
		if (pm_parse_u32(path + sizeof(pol) - 1, &v) < 0)
			return 0;
		*id = v;
		return 1;
	}
	if (strncmp(path, cpu, sizeof(cpu) - 1))
		return 0;
	s = path + sizeof(cpu) - 1;
	n = strspn(s, "0123456789");
	if (!n || n >= sizeof(num) || strcmp(s + n, "/cpufreq"))
		return 0;
	memcpy(num, s, n);
	num[n] = '\0';
	if (pm_parse_u32(num, &v) < 0)
		return 0;
	*id = v;
	return 2;
}

/*
 * Before Linux 4.3 each policy was a real cpuN/cpufreq folder, owned by
 * one CPU, and the other CPUs of the policy had a link to it (armv7's
 * cpu1/cpufreq -> ../cpu0/cpufreq).  With hardware coordination each CPU
 * had its own policy and folder, while related_cpus named the whole
 * hardware domain (x86_64-dell_e4310: four folders, each saying "0 1 2
 * 3").  owner[K] is the CPU whose folder cpuK/cpufreq is, or -1.
 */
static int legacy_owners(struct pm_ctx *ctx, int *owner, unsigned *cpus,
			 int ncpu)
{
	char path[PM_PATH_MAX];
	int k = 0;

	for (int i = 0; i < ncpu; i++) {
		unsigned id;
		int r = cpu_folder(ctx, cpus[i], path, sizeof(path));

		owner[cpus[i]] = -1;
		if (r == 0)
			owner[cpus[i]] = (int)cpus[i];
		else if (r == 1 && folder_id(path, &id) == 2 &&
			 id < PM_MAX_CPUS)
			owner[cpus[i]] = (int)id;
		k += r == 0;
	}
	return k;
}

int pm_policies_list(struct pm_ctx *ctx, unsigned *ids, unsigned max)
{
	unsigned *cpus;
	int *owner;
	int n, ncpu, out = 0;

	n = pm_list_numbered(ctx, CPU_DIR "/cpufreq", "policy", ids, max);
	if (n > 0)
		return n;
	/* Before 4.3 (and in some dumps): cpuN/cpufreq folders, each a
	 * policy of its own. */
	cpus = malloc(PM_MAX_CPUS * sizeof(*cpus));
	owner = malloc(PM_MAX_CPUS * sizeof(*owner));
	if (!cpus || !owner) {
		free(cpus);
		free(owner);
		return -ENOMEM;
	}
	ncpu = pm_list_numbered(ctx, CPU_DIR, "cpu", cpus, PM_MAX_CPUS);
	if (ncpu > 0)
		legacy_owners(ctx, owner, cpus, ncpu);
	for (int i = 0; i < ncpu; i++)
		if (owner[cpus[i]] == (int)cpus[i] && (unsigned)out < max)
			ids[out++] = cpus[i];
	free(cpus);
	free(owner);
	pm_err_clear(ctx);
	return out;
}

/*
 * The numbers of a frequency list ("f1 f2 f3 \n"): the first max into v
 * (v NULL: none), and how many there are, past max too.
 */
static int freq_list(const char *text, uint64_t *v, int max, int *all)
{
	int k = 0, n = 0;

	for (const char *p = text; *p;) {
		char w[24];
		size_t len;
		uint64_t f;

		p += strspn(p, " \t\n");
		len = strcspn(p, " \t\n");
		if (!len)
			break;
		if (len < sizeof(w)) {
			memcpy(w, p, len);
			w[len] = '\0';
			if (pm_parse_u64(w, &f) == 0) {
				if (v && k < max)
					v[k++] = f;
				n++;
			}
		}
		p += len;
	}
	if (all)
		*all = n;
	return k;
}

int pm_policy_freqs(struct pm_ctx *ctx, const struct pm_policy *p,
		    bool boost, uint64_t **out)
{
	char path[PM_PATH_MAX], *buf = malloc(PM_ATTR_MAX);
	int n = 0;

	*out = NULL;
	if (!buf)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/%s", p->path,
		 boost ? "scaling_boost_frequencies" :
			 "scaling_available_frequencies");
	if (pm_attr_read(ctx, path, buf, PM_ATTR_MAX) < 0) {
		int e = ctx->err.err;

		free(buf);
		return -(e ? e : EIO);
	}
	freq_list(buf, NULL, 0, &n);
	*out = malloc(((size_t)n + 1) * sizeof(**out));
	if (!*out) {
		free(buf);
		return -ENOMEM;
	}
	n = freq_list(buf, *out, n, NULL);
	free(buf);
	return n;
}

int pm_tis_parse_line(const char *text, struct pm_tis *tis, int max,
		      int *bad_line)
{
	int n = 0, line_no = 0;

	*bad_line = 0;
	while (*text) {
		const char *eol = strchr(text, '\n');
		size_t len = eol ? (size_t)(eol - text) : strlen(text);
		char line[96], *sp;

		line_no++;
		if (len && len < sizeof(line)) {
			memcpy(line, text, len);
			line[len] = '\0';
			sp = strchr(line, ' ');
			if (n >= max)
				return -E2BIG;
			if (!sp) {
				*bad_line = line_no;
				return -EINVAL;
			}
			*sp = '\0';
			if (pm_parse_u64(line, &tis[n].khz) < 0 ||
			    pm_parse_u64(sp + 1, &tis[n].ticks) < 0) {
				*bad_line = line_no;
				return -EINVAL;
			}
			n++;
		} else if (len) {
			*bad_line = line_no;
			return -EINVAL;
		}
		text += len + (eol ? 1 : 0);
	}
	return n;
}

int pm_tis_parse(const char *text, struct pm_tis *tis, int max)
{
	int bad;

	return pm_tis_parse_line(text, tis, max, &bad);
}

static void rd(struct pm_ctx *ctx, int fd, const char *name, char *buf,
	       size_t size)
{
	if (pm_attr_readat(ctx, fd, name, buf, size) < 0)
		buf[0] = '\0';
}

/*
 * The files a driver may leave out.  A report reads most of them, so the
 * folder is listed once instead of a failed open for each absent one.
 */
enum {
	OPT_BIOS, OPT_BASE, OPT_AVAIL, OPT_BOOSTF, OPT_EPP, OPT_EPPA,
	OPT_BOOST, OPT_SETSPEED, OPT_STATS, OPT_CINFOCUR, OPT_N
};
static const char *const opt_name[OPT_N] = {
	[OPT_BIOS] = "bios_limit",
	[OPT_BASE] = "base_frequency",
	[OPT_AVAIL] = "scaling_available_frequencies",
	[OPT_BOOSTF] = "scaling_boost_frequencies",
	[OPT_EPP] = "energy_performance_preference",
	[OPT_EPPA] = "energy_performance_available_preferences",
	[OPT_BOOST] = "boost",
	[OPT_SETSPEED] = "scaling_setspeed",
	[OPT_STATS] = "stats",
	[OPT_CINFOCUR] = "cpuinfo_cur_freq",
};
#define OPT(x) (1u << (x))

/* A bit per optional file in the folder; every bit when it cannot be
 * listed (each file is then tried). */
static unsigned list_optional(int fd)
{
	char buf[8192] __attribute__((aligned(8)));
	unsigned has = 0;
	ssize_t n;

	while ((n = getdents64(fd, buf, sizeof(buf))) > 0) {
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *d = (const void *)(buf + off);

			for (int i = 0; i < OPT_N; i++)
				if (!strcmp(d->d_name, opt_name[i]))
					has |= OPT(i);
			off += d->d_reclen;
		}
	}
	return n < 0 ? ~0u : has;
}

/*
 * The CPUs a folder of the kernels before 4.3 serves: its owner and the
 * CPUs whose cpuN/cpufreq links to it (linked, when the caller knows
 * them; else looked up among the CPUs related_cpus and affected_cpus
 * name).  related_cpus there may name other policies' CPUs (a hardware
 * coordination domain): a CPU with a folder of its own is not this one's.
 */
static void legacy_cpus(struct pm_ctx *ctx, const struct pm_policy *p,
			struct pm_cpuset *rel, struct pm_cpuset *aff,
			const struct pm_cpuset *linked)
{
	struct pm_cpuset cand = *rel;
	char path[PM_PATH_MAX];

	pm_cpuset_or(&cand, aff);
	pm_cpuset_zero(rel);
	pm_cpuset_set(rel, p->id);
	if (linked) {
		pm_cpuset_or(rel, linked);
	} else {
		pm_cpuset_foreach(c, &cand)
			if ((unsigned)c != p->id &&
			    cpu_folder(ctx, (unsigned)c, path,
				       sizeof(path)) == 1 &&
			    !strcmp(path, p->path))
				pm_cpuset_set(rel, (unsigned)c);
	}
	pm_cpuset_and(aff, rel);
}

/* A policy with nothing known yet. */
static void policy_init(struct pm_policy *p, unsigned id)
{
	memset(p, 0, sizeof(*p));
	p->id = id;
	p->min_khz = p->max_khz = p->cpuinfo_min_khz = PM_UNKNOWN;
	p->cpuinfo_max_khz = p->cur_khz = p->cpuinfo_cur_khz = PM_UNKNOWN;
	p->transition_latency_ns = p->bios_limit_khz = PM_UNKNOWN;
	p->base_khz = p->total_trans = PM_UNKNOWN;
	p->n_avail = -1;
	p->boost = -1;
}

/* The policy's folder, or the CPU's own cpufreq folder of a kernel
 * without policyN (*legacy): an fd, or -errno with the error set. */
static int policy_open(struct pm_ctx *ctx, struct pm_policy *p, bool *legacy)
{
	int fd;

	*legacy = false;
	snprintf(p->path, sizeof(p->path), CPU_DIR "/cpufreq/policy%u", p->id);
	fd = pm_open_dir(ctx, p->path);
	if (fd < 0) {
		/* The CPU's own folder, not a link to another CPU's. */
		snprintf(p->path, sizeof(p->path), CPU_DIR "/cpu%u/cpufreq",
			 p->id);
		fd = pm_open(ctx, p->path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		*legacy = true;
	}
	if (fd < 0)
		return pm_err_set(ctx, "open", p->path, NULL, -fd, NULL);
	return fd;
}

/* The policy's CPU spans from full sets: 0 or -ENOMEM. */
static int keep_cpus(struct pm_policy *p, const struct pm_cpuset *rel,
		     const struct pm_cpuset *aff)
{
	if (pm_cpuspan_set(&p->related, rel) < 0 ||
	    pm_cpuspan_set(&p->affected, aff) < 0)
		return -ENOMEM;
	return 0;
}

/* related_cpus and affected_cpus: the CPUs the policy covers, read into
 * full sets and kept as spans; 0 or -ENOMEM. */
static int read_policy_cpus(struct pm_ctx *ctx, int fd, struct pm_policy *p,
			    unsigned fields, bool legacy,
			    const struct pm_cpuset *online,
			    const struct pm_cpuset *linked)
{
	struct pm_cpuset rel, aff;
	char buf[PM_ATTR_MAX];

	pm_cpuset_zero(&rel);
	if (pm_attr_readat(ctx, fd, "related_cpus", buf, sizeof(buf)) < 0 ||
	    pm_cpulist_parse_spaced(buf, &rel) < 0)
		pm_cpuset_set(&rel, p->id);
	/* affected_cpus is policy->cpus, the online ones of related_cpus:
	 * a writer that knows the online CPUs need not read it. */
	if (online && !(fields & PM_POL_INFO) && !legacy) {
		aff = rel;
		pm_cpuset_and(&aff, online);
	} else if (pm_attr_readat(ctx, fd, "affected_cpus", buf,
				  sizeof(buf)) < 0 ||
		   pm_cpulist_parse_spaced(buf, &aff) < 0) {
		aff = rel;
		if (online)
			pm_cpuset_and(&aff, online);
	}
	if (legacy)
		legacy_cpus(ctx, p, &rel, &aff, linked);
	return keep_cpus(p, &rel, &aff);
}

/* A frequency list: its first PM_MAX_FREQS in *v, malloc'd to their
 * count (n, the file's count in *all); -ENOMEM. */
static int keep_freqs(const char *text, uint64_t **v, int *all)
{
	uint64_t f[PM_MAX_FREQS];
	int n = freq_list(text, f, PM_MAX_FREQS, all);

	*v = malloc(((size_t)n + 1) * sizeof(**v));
	if (!*v)
		return -ENOMEM;
	memcpy(*v, f, (size_t)n * sizeof(**v));
	return n;
}

/* The driver and the governors, from prev when it has them. */
static void read_policy_names(struct pm_ctx *ctx, int fd, struct pm_policy *p,
			      unsigned fields, const struct pm_policy *prev)
{
	/* One driver serves every policy, and the governors it may run
	 * are the same list for all of them (cpufreq.c,
	 * show_scaling_available_governors). */
	if ((fields & PM_POL_DRIVER) && prev && prev->driver[0])
		memcpy(p->driver, prev->driver, sizeof(p->driver));
	else if (fields & PM_POL_DRIVER)
		rd(ctx, fd, "scaling_driver", p->driver, sizeof(p->driver));
	if (fields & PM_POL_GOVERNOR) {
		rd(ctx, fd, "scaling_governor", p->governor,
		   sizeof(p->governor));
		if (prev && prev->available_governors[0])
			memcpy(p->available_governors,
			       prev->available_governors,
			       sizeof(p->available_governors));
		else
			rd(ctx, fd, "scaling_available_governors",
			   p->available_governors,
			   sizeof(p->available_governors));
	}
}

/* PM_POL_INFO: the current frequency, latency, and the frequency lists;
 * has: the optional files present (list_optional).  0 or -ENOMEM. */
static int read_policy_info(struct pm_ctx *ctx, int fd, struct pm_policy *p,
			     unsigned has)
{
	char buf[PM_ATTR_MAX];

	p->cur_khz = pm_attr_getat_u64(ctx, fd, "scaling_cur_freq");
	/* 0400 and "<unknown>" when the driver cannot tell. */
	if (has & OPT(OPT_CINFOCUR))
		p->cpuinfo_cur_khz =
			pm_attr_getat_u64(ctx, fd, "cpuinfo_cur_freq");
	p->transition_latency_ns = pm_u32_known(
		pm_attr_getat_u64(ctx, fd, "cpuinfo_transition_latency"));
	if (has & OPT(OPT_BIOS))
		p->bios_limit_khz = pm_attr_getat_u64(ctx, fd, "bios_limit");
	if (has & OPT(OPT_BASE))
		p->base_khz = pm_attr_getat_u64(ctx, fd, "base_frequency");
	if ((has & OPT(OPT_AVAIL)) &&
	    pm_attr_readat(ctx, fd, "scaling_available_frequencies", buf,
			   sizeof(buf)) >= 0) {
		p->n_avail = keep_freqs(buf, &p->avail_khz, &p->n_avail_all);
		if (p->n_avail < 0)
			return -ENOMEM;
	}
	if ((has & OPT(OPT_BOOSTF)) &&
	    pm_attr_readat(ctx, fd, "scaling_boost_frequencies", buf,
			   sizeof(buf)) >= 0) {
		p->n_boost = keep_freqs(buf, &p->boost_khz, &p->n_boost_all);
		if (p->n_boost < 0)
			return -ENOMEM;
	}
	return 0;
}

/* The stats folder: total_trans and time_in_state; 0 or -ENOMEM. */
static int read_policy_stats(struct pm_ctx *ctx, int fd, struct pm_policy *p,
			     unsigned fields)
{
	struct pm_tis tis[PM_MAX_FREQS];
	char buf[PM_ATTR_MAX];

	if (fields & PM_POL_STATS) {
		p->total_trans =
			pm_attr_getat_u64(ctx, fd, "stats/total_trans");
		p->has_stats = p->total_trans != PM_UNKNOWN;
	}
	if ((fields & PM_POL_TIS) &&
	    pm_attr_readat(ctx, fd, "stats/time_in_state", buf,
			   sizeof(buf)) >= 0) {
		int n = pm_tis_parse_line(buf, tis, PM_MAX_FREQS,
					  &p->tis_bad_line);

		/* More lines than kept: the first ones, and the cut said. */
		if (n == -E2BIG) {
			n = PM_MAX_FREQS;
			p->tis_cut = true;
		}
		if (n >= 0) {
			p->tis = malloc(((size_t)n + 1) * sizeof(*p->tis));
			if (!p->tis)
				return -ENOMEM;
			memcpy(p->tis, tis, (size_t)n * sizeof(*p->tis));
			p->n_tis = n;
			p->has_stats = true;
		}
	}
	return 0;
}

/* The files some drivers have: EPP, boost, setspeed and the stats;
 * 0 or -ENOMEM. */
static int read_policy_optional(struct pm_ctx *ctx, int fd,
				 struct pm_policy *p, unsigned fields,
				 unsigned has)
{
	if ((fields & PM_POL_EPP) && (has & OPT(OPT_EPP))) {
		rd(ctx, fd, "energy_performance_preference", p->epp,
		   sizeof(p->epp));
		rd(ctx, fd, "energy_performance_available_preferences",
		   p->epp_available, sizeof(p->epp_available));
	}
	if ((fields & PM_POL_BOOST) && (has & OPT(OPT_BOOST))) {
		uint64_t b = pm_attr_getat_u64(ctx, fd, "boost");

		p->boost = b == PM_UNKNOWN ? -1 : b != 0;
	}
	if ((fields & PM_POL_SPEED) && (has & OPT(OPT_SETSPEED)))
		rd(ctx, fd, "scaling_setspeed", p->setspeed,
		   sizeof(p->setspeed));
	if (has & OPT(OPT_STATS))
		return read_policy_stats(ctx, fd, p, fields);
	return 0;
}

static int read_policy(struct pm_ctx *ctx, unsigned id, struct pm_policy *p,
		       unsigned fields, const struct pm_policy *prev,
		       const struct pm_cpuset *online,
		       const struct pm_cpuset *linked)
{
	unsigned has = ~0u;
	bool legacy, was;
	int fd, r;

	policy_init(p, id);
	fd = policy_open(ctx, p, &legacy);
	if (fd < 0)
		return fd;
	was = pm_batch_begin(ctx);
	/* Closed with the files read in it, by one close_range. */
	pm_fdbatch_add(&ctx->fdb, fd);
	if (fields & (PM_POL_INFO | PM_POL_EPP))
		has = list_optional(fd);
	r = read_policy_cpus(ctx, fd, p, fields, legacy, online, linked);
	read_policy_names(ctx, fd, p, fields, prev);
	if (fields & PM_POL_LIMITS) {
		p->min_khz = pm_attr_getat_u64(ctx, fd, "scaling_min_freq");
		p->max_khz = pm_attr_getat_u64(ctx, fd, "scaling_max_freq");
		p->cpuinfo_min_khz =
			pm_attr_getat_u64(ctx, fd, "cpuinfo_min_freq");
		p->cpuinfo_max_khz =
			pm_attr_getat_u64(ctx, fd, "cpuinfo_max_freq");
	}
	if (r == 0 && (fields & PM_POL_INFO))
		r = read_policy_info(ctx, fd, p, has);
	if (r == 0)
		r = read_policy_optional(ctx, fd, p, fields, has);
	pm_batch_end(ctx, was);
	pm_err_clear(ctx);
	if (r < 0) {
		pm_policy_free(p);
		return pm_err_set(ctx, "read", p->path, NULL, -r, NULL);
	}
	return 0;
}

void pm_policy_free(struct pm_policy *p)
{
	pm_cpuspan_free(&p->related);
	pm_cpuspan_free(&p->affected);
	free(p->avail_khz);
	free(p->boost_khz);
	free(p->tis);
	p->avail_khz = p->boost_khz = NULL;
	p->tis = NULL;
	p->n_avail = -1;
	p->n_boost = p->n_tis = 0;
}

void pm_policies_free(struct pm_policy *v, int n)
{
	for (int i = 0; v && i < n; i++)
		pm_policy_free(&v[i]);
	free(v);
}

int pm_policy_read_fields(struct pm_ctx *ctx, unsigned id,
			  struct pm_policy *p, unsigned fields)
{
	return read_policy(ctx, id, p, fields, NULL, NULL, NULL);
}

/*
 * The policyN folders of the CPUs in sel, from the CPUs' own links (a
 * few syscalls a CPU instead of a dozen files a policy): pmctl freq
 * -c 0-1 on 256 CPUs reads one policy, not 128.  False when a CPU's
 * link names no policyN folder: the caller then reads every policy.
 */
static bool select_by_links(struct pm_ctx *ctx, const struct pm_cpuset *sel,
			    unsigned *ids, int *n)
{
	char path[PM_PATH_MAX];
	struct pm_cpuset want;
	unsigned id;
	int k = 0;

	pm_cpuset_zero(&want);
	pm_cpuset_foreach(c, sel)
	{
		if (cpu_folder(ctx, (unsigned)c, path, sizeof(path)) != 1 ||
		    folder_id(path, &id) != 1 || id >= PM_MAX_CPUS)
			return false;
		pm_cpuset_set(&want, id);
	}
	pm_cpuset_foreach(i, &want)
		ids[k++] = (unsigned)i;
	*n = k;
	return true;
}

/* ids and, before 4.3, each owner's linked CPUs (owner[] by CPU). */
struct pol_list {
	unsigned *ids;
	int n;
	int *owner;		/* NULL: policyN folders */
};

static int list_for(struct pm_ctx *ctx, const struct pm_cpuset *sel,
		    struct pol_list *l)
{
	struct pm_cpuset want;
	unsigned *cpus;
	int ncpu;

	l->owner = NULL;
	l->n = pm_list_numbered(ctx, CPU_DIR "/cpufreq", "policy", l->ids,
				PM_MAX_CPUS);
	if (l->n > 0) {
		int n = l->n;

		/* A link per selected CPU against a dozen files a policy. */
		if (sel && pm_cpuset_count(sel) < (unsigned)n &&
		    !select_by_links(ctx, sel, l->ids, &l->n)) {
			l->n = pm_list_numbered(ctx, CPU_DIR "/cpufreq",
						"policy", l->ids, PM_MAX_CPUS);
		}
		return 0;
	}
	l->n = 0;
	cpus = malloc(PM_MAX_CPUS * sizeof(*cpus));
	l->owner = malloc(PM_MAX_CPUS * sizeof(*l->owner));
	if (!cpus || !l->owner) {
		free(cpus);
		return -ENOMEM;
	}
	/* -1 everywhere: a CPU without a folder of its own, or a link. */
	memset(l->owner, 0xff, PM_MAX_CPUS * sizeof(*l->owner));
	ncpu = pm_list_numbered(ctx, CPU_DIR, "cpu", cpus, PM_MAX_CPUS);
	if (ncpu > 0)
		legacy_owners(ctx, l->owner, cpus, ncpu);
	pm_cpuset_zero(&want);
	for (int i = 0; i < ncpu; i++) {
		int o = l->owner[cpus[i]];

		if (o >= 0 && (!sel || pm_cpuset_isset(sel, cpus[i])))
			pm_cpuset_set(&want, (unsigned)o);
	}
	pm_cpuset_foreach(o, &want)
		l->ids[l->n++] = (unsigned)o;
	free(cpus);
	return 0;
}

int pm_policies_read_sel(struct pm_ctx *ctx, unsigned fields,
			 const struct pm_cpuset *sel, struct pm_policy **out)
{
	struct pol_list l = { .ids = calloc(PM_MAX_CPUS, sizeof(unsigned)) };
	struct pm_policy *v = NULL;
	struct pm_cpuset online, *on = NULL;
	char buf[PM_ATTR_MAX];
	int k = 0, r;

	*out = NULL;
	if (!l.ids)
		return -ENOMEM;
	if (!(fields & PM_POL_INFO) &&
	    pm_attr_read(ctx, CPU_DIR "/online", buf, sizeof(buf)) > 0 &&
	    pm_cpulist_parse(buf, &online) == 0)
		on = &online;
	r = list_for(ctx, sel, &l);
	if (r == 0 && l.n > 0) {
		v = calloc((size_t)l.n, sizeof(*v));
		if (!v)
			r = -ENOMEM;
	}
	if (r < 0 || !v) {
		free(l.ids);
		free(l.owner);
		return r < 0 ? r : 0;
	}
	for (int i = 0; i < l.n; i++) {
		struct pm_cpuset linked, *lk = NULL;

		if (l.owner) {
			pm_cpuset_zero(&linked);
			for (unsigned c = 0; c < PM_MAX_CPUS; c++)
				if (l.owner[c] == (int)l.ids[i] && c != l.ids[i])
					pm_cpuset_set(&linked, c);
			lk = &linked;
		}
		r = read_policy(ctx, l.ids[i], &v[k], fields,
				k ? &v[k - 1] : NULL, on, lk);
		if (r == -ENOMEM)
			break;
		if (r < 0)
			continue;
		if (!sel || pm_cpuspan_intersects(&v[k].related, sel))
			k++;
		else
			pm_policy_free(&v[k]);
	}
	free(l.ids);
	free(l.owner);
	if (r == -ENOMEM) {
		pm_policies_free(v, k);
		return r;
	}
	pm_err_clear(ctx);
	*out = v;
	return k;
}

int pm_policies_read(struct pm_ctx *ctx, unsigned fields,
		     struct pm_policy **out)
{
	return pm_policies_read_sel(ctx, fields, NULL, out);
}

int pm_policy_read(struct pm_ctx *ctx, unsigned id, struct pm_policy *p)
{
	return pm_policy_read_fields(ctx, id, p, PM_POL_ALL);
}

static int get_int(struct pm_ctx *ctx, int fd, const char *name)
{
	uint64_t v = pm_attr_getat_u64(ctx, fd, name);

	return v == PM_UNKNOWN || v > INT32_MAX ? -1 : (int)v;
}

int pm_cpufreq_global_read(struct pm_ctx *ctx, struct pm_cpufreq_global *g)
{
	int fd;

	memset(g, 0, sizeof(*g));
	g->boost = g->intel_no_turbo = g->intel_min_perf_pct = -1;
	g->intel_max_perf_pct = g->intel_num_pstates = -1;
	g->intel_turbo_pct = g->intel_hwp_dynamic_boost = -1;

	fd = pm_open_dir(ctx, CPU_DIR "/cpufreq");
	if (fd >= 0) {
		g->boost = get_int(ctx, fd, "boost");
		close(fd);
	}
	fd = pm_open_dir(ctx, CPU_DIR "/intel_pstate");
	if (fd >= 0) {
		g->intel_pstate = true;
		rd(ctx, fd, "status", g->intel_status,
		   sizeof(g->intel_status));
		g->intel_no_turbo = get_int(ctx, fd, "no_turbo");
		g->intel_min_perf_pct = get_int(ctx, fd, "min_perf_pct");
		g->intel_max_perf_pct = get_int(ctx, fd, "max_perf_pct");
		g->intel_num_pstates = get_int(ctx, fd, "num_pstates");
		g->intel_turbo_pct = get_int(ctx, fd, "turbo_pct");
		g->intel_hwp_dynamic_boost =
			get_int(ctx, fd, "hwp_dynamic_boost");
		close(fd);
	}
	fd = pm_open_dir(ctx, CPU_DIR "/amd_pstate");
	if (fd >= 0) {
		g->amd_pstate = true;
		rd(ctx, fd, "status", g->amd_status, sizeof(g->amd_status));
		rd(ctx, fd, "prefcore", g->amd_prefcore,
		   sizeof(g->amd_prefcore));
		close(fd);
	}
	pm_err_clear(ctx);
	return 0;
}

/* Skip spaces; read one decimal; -1 when there is none. */
static int tt_num(const char **p, uint64_t *v)
{
	const char *q = *p;

	while (*q == ' ')
		q++;
	if (*q < '0' || *q > '9')
		return -1;
	*v = 0;
	while (*q >= '0' && *q <= '9') {
		if (__builtin_mul_overflow(*v, 10, v) ||
		    __builtin_add_overflow(*v, (uint64_t)(*q - '0'), v))
			return -1;
		q++;
	}
	*p = q;
	return 0;
}

int pm_trans_table_parse(const char *text, struct pm_trans_table *t)
{
	const char *p = text, *eol;
	int row = 0;

	memset(t, 0, sizeof(*t));
	/* "   From  :    To" */
	eol = strchr(p, '\n');
	if (!eol || !strstr(p, "From") || strstr(p, "From") > eol)
		return -EINVAL;
	/* "         :   2600000   2200000 " */
	p = eol + 1;
	eol = strchr(p, '\n');
	p = strchr(p, ':');
	if (!p || !eol || p > eol)
		return -EINVAL;
	p++;
	while (t->n < PM_MAX_FREQS && tt_num(&p, &t->khz[t->n]) == 0)
		t->n++;
	if (!t->n)
		return -EINVAL;
	t->counts = calloc((size_t)t->n * (size_t)t->n, sizeof(*t->counts));
	if (!t->counts)
		return -ENOMEM;
	/* "  2600000:         0        10 " per row. */
	for (p = eol + 1; *p && row < t->n; row++) {
		uint64_t from;

		if (tt_num(&p, &from) < 0 || *p != ':' || from != t->khz[row])
			goto bad;
		p++;
		for (int c = 0; c < t->n; c++)
			if (tt_num(&p, &t->counts[row * t->n + c]) < 0)
				goto bad;
		while (*p == ' ')
			p++;
		if (*p == '\n')
			p++;
		else if (*p)
			goto bad;
	}
	if (row != t->n)
		goto bad;
	return 0;
bad:
	pm_trans_table_free(t);
	return -EINVAL;
}

int pm_trans_table_read(struct pm_ctx *ctx, const struct pm_policy *p,
			struct pm_trans_table *t)
{
	char path[160], buf[PM_ATTR_MAX];
	ssize_t n;
	int r;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/stats/trans_table", p->path);
	n = pm_attr_read(ctx, path, buf, sizeof(buf));
	if (n < 0)
		return (int)n;
	/* 5.7-6.6 truncate silently at a page instead of EFBIG. */
	r = pm_trans_table_parse(buf, t);
	if (r == -EINVAL && (size_t)n >= 4095)
		return pm_err_set(ctx, "read", path, NULL, EFBIG,
				  "the kernel truncated the table at a page");
	if (r < 0)
		return pm_err_set(ctx, "parse", path, NULL, -r,
				  "not a cpufreq transition table");
	return 0;
}

void pm_trans_table_free(struct pm_trans_table *t)
{
	free(t->counts);
	t->counts = NULL;
	t->n = 0;
}

int pm_gov_tunable(struct pm_ctx *ctx, const struct pm_policy *pol,
		   const char *gov, const char *name, char *path, size_t size,
		   char *other, size_t osize)
{
	snprintf(path, size, "%s/%s/%s", pol->path, gov, name);
	if (pm_exists(ctx, path))
		return 1;
	if (other)
		snprintf(other, osize, "%s", path);
	snprintf(path, size, CPU_DIR "/cpufreq/%s/%s", gov, name);
	return pm_exists(ctx, path) ? 2 : 0;
}

const char *pm_policy_folder(const struct pm_policy *pol, char *buf,
			     size_t size)
{
	/* Before Linux 4.3 a policy is its owner's cpuN/cpufreq folder. */
	if (strstr(pol->path, "/cpufreq/policy"))
		snprintf(buf, size, "policy%u", pol->id);
	else
		snprintf(buf, size, "cpu%u/cpufreq", pol->id);
	return buf;
}

const char *pm_policy_name(const struct pm_policy *pol, char *buf,
			   size_t size)
{
	char cpus[256], dir[32];

	pm_cpuspan_format(&pol->related, cpus, sizeof(cpus));
	snprintf(buf, size, "%s (cpus %s)",
		 pm_policy_folder(pol, dir, sizeof(dir)), cpus);
	return buf;
}
