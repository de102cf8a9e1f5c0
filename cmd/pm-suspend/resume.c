// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pm-resume: pm-suspend called by that name.  --check reads a
 * hibernation image written by pm-hibernate --userspace (lib/snapimg.c)
 * and checks every block of it without restoring anything.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ps.h"
#include "resume.h"

enum {
	OPT_CHECK = PM_OPT_TOOL,
	OPT_OFFSET,
};

static const char resume_usage_text[] =
	"Usage: pm-resume [options] [DEVICE]\n"
	"       pm-resume --check DEVICE|FILE [options]\n"
	"\n"
	"Resume from the hibernation image that pm-hibernate --userspace "
	"wrote to\n"
	"DEVICE (default: the kernel's resume device): every block read, "
	"decompressed,\n"
	"checked and given to the kernel (/dev/snapshot), the swap "
	"signature put\n"
	"back, then the restore.  A damaged or foreign image is refused "
	"with its\n"
	"reason and the swap signature put back: the boot goes on.  Run "
	"it before\n"
	"any file system is mounted read-write.\n"
	"\n"
	"--check inspects the image on DEVICE or FILE (an absolute path) "
	"the same\n"
	"way, and restores and changes nothing.\n"
	"\n"
	"Options:\n"
	"      --check DEVICE|FILE  the image to inspect\n"
	"      --offset PAGES       the swap header's page on DEVICE: a "
	"swap file's\n"
	"                           resume_offset (default: 0; without "
	"DEVICE,\n"
	"                           /sys/power/resume_offset)\n"
	"  -J, --json               the result as JSON\n"
	"  -F, --format FMT         human (default) or json\n"
	"  -o, --output FILE        write the result to FILE "
	"atomically\n"
	"      --sysroot DIR        prefix /proc and the image's path "
	"with DIR\n"
	"  -q, --quiet              no reason on stderr\n"
	"  -v, --verbose            the same as without it\n"
	"  -h, --help               show this help\n"
	"  -V, --version            show the version\n"
	"\n"
	"Exit status of --check: 0 a whole image of the running kernel, "
	"1 a damaged\n"
	"image or one that cannot be read (the block named), 2 usage "
	"error, 3 no\n"
	"image there, or one of another kernel.  Of a resume: 0 no image "
	"(nothing to\n"
	"do), 1 an image refused or a restore that failed, 2 usage "
	"error.\n"
	"See pm-suspend(8).\n";

static void resume_usage(FILE *f)
{
	fputs(resume_usage_text, f);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Every block, read and checked; 0 or the reader's error. */
static int read_blocks(struct rs *s)
{
	void *buf = malloc(PM_SNAP_BLOCK);
	double t0 = now_s();
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	do {
		n = pm_snapr_next(&s->r, buf, PM_SNAP_BLOCK);
	} while (n > 0);
	s->read_s = now_s() - t0;
	free(buf);
	return (int)n;
}

static void check_json(struct rs *s, struct pm_out *o)
{
	const struct pm_snap_hdr *h = &s->r.h;
	char id[33];

	pm_out_obj_begin(o, NULL);
	pm_out_str(o, "path", s->path);
	pm_out_bool(o, "image", s->found);
	pm_out_bool(o, "valid", s->status == PM_EXIT_OK ||
				(s->found && s->err == -EXDEV));
	pm_out_bool(o, "resumable", s->status == PM_EXIT_OK);
	pm_out_str_or_null(o, "error", s->status ? s->r.why : "");
	if (s->r.bad_block >= 0)
		pm_out_s64(o, "bad_block", s->r.bad_block);
	else
		pm_out_null(o, "bad_block");
	pm_out_str_or_null(o, "this_kernel", s->release);
	if (!s->header) {
		pm_out_obj_end(o);
		return;
	}
	pm_snap_id_hex(h->id, id);
	pm_out_u64(o, "version", h->version);
	pm_out_str(o, "kernel", h->release);
	pm_out_str(o, "id", id);
	pm_out_u64(o, "image_bytes", h->image_size);
	pm_out_u64(o, "pages", h->page_count);
	pm_out_u64(o, "stored_bytes", h->data_size);
	pm_out_double(o, "ratio", (double)h->data_size /
				  (double)h->image_size, 4);
	pm_out_u64(o, "blocks", h->nblocks);
	pm_out_bool(o, "platform", h->flags & PM_SNAP_F_PLATFORM);
	pm_out_u64(o, "blocks_checked", s->r.block);
	pm_out_double(o, "read_s", s->read_s, 6);
	pm_out_obj_end(o);
}

static void check_human(struct rs *s, FILE *f)
{
	const struct pm_snap_hdr *h = &s->r.h;
	char id[33];

	if (!s->header) {
		fprintf(f, "%s: %s\n", s->path, s->r.why);
		return;
	}
	pm_snap_id_hex(h->id, id);
	fprintf(f, "%s: pmtools hibernation image, version %u\n", s->path,
		h->version);
	fprintf(f, "  kernel   %s (running: %s)\n", h->release,
		s->release[0] ? s->release : "unknown");
	fprintf(f, "  id       %s\n", id);
	fprintf(f, "  image    %llu bytes, %llu pages\n",
		(unsigned long long)h->image_size,
		(unsigned long long)h->page_count);
	fprintf(f, "  stored   %llu bytes in %u blocks (%.1f%% of the image)\n",
		(unsigned long long)h->data_size, h->nblocks,
		100.0 * (double)h->data_size / (double)h->image_size);
	fprintf(f, "  mode     %s\n", h->flags & PM_SNAP_F_PLATFORM ?
		"platform (restored in the platform mode)" : "shutdown or reboot");
	fprintf(f, "  checked  %u of %u blocks in %.3f s: %s\n", s->r.block,
		h->nblocks, s->read_s,
		s->status == PM_EXIT_OK ? "good" :
		s->err == -EXDEV ? "good, but of another kernel" : s->r.why);
}

static void check_image(struct rs *s)
{
	struct pm_snap_fileio f;
	struct pm_snap_io io;
	char buf[PM_PATH_MAX + 700];
	int fd, e;

	if (pm_kernel_release(&s->ctx, s->release, sizeof(s->release)) < 0)
		s->release[0] = '\0';
	pm_err_clear(&s->ctx);
	fd = pm_snap_image_open(&s->ctx, s->path, false);
	if (fd < 0)
		pm_die(&s->t, pm_exit_for(-fd), "cannot open %s",
		       pm_err_str(&s->ctx.err, buf, sizeof(buf)));
	e = pm_snap_fileio_init(&io, &f, fd, s->offset);
	if (e < 0)
		pm_die(&s->t, PM_EXIT_FAIL, "%s: %s", s->path, strerror(-e));
	e = pm_snapr_open(&s->r, &io, NULL, NULL);
	s->found = e != -ENOENT;
	s->header = s->r.have_hdr;
	if (!e)
		e = read_blocks(s);
	if (!e && s->release[0] && strcmp(s->release, s->r.h.release)) {
		snprintf(s->r.why, sizeof(s->r.why),
			 "image of kernel %s, this is %s", s->r.h.release,
			 s->release);
		e = -EXDEV;
	}
	s->err = e;
	s->status = !e ? PM_EXIT_OK :
		    e == -ENOENT || e == -EXDEV ? PM_EXIT_UNSUPPORTED :
						  PM_EXIT_FAIL;
	pm_snapr_close(&s->r);
	close(fd);
}

/* The kernel could not take the image: the step, the ioctl, errno. */
static int kernel_failed(struct rs *s, const char *step)
{
	const struct pm_err *e = &s->ctx.err;

	snprintf(s->r.why, sizeof(s->r.why), "%s: %s%s%.64s: %s (%s)", step,
		 e->value[0] ? e->value : e->op, e->value[0] ? " on " : " ",
		 e->file, strerror(e->err), pm_errno_name(e->err));
	return -e->err;
}

/* Every block checked and given to the kernel, page by page. */
static int give_image(struct rs *s, uint8_t *buf)
{
	ssize_t n;

	while ((n = pm_snapr_next(&s->r, buf, PM_SNAP_BLOCK)) > 0)
		for (ssize_t off = 0; off < n; off += PM_SNAP_PAGE)
			if (pm_snapshot_write(&s->ctx, &s->snap, buf + off) < 0)
				return kernel_failed(s, "giving the image to "
						     "the kernel");
	return (int)n;
}

/* The image to the kernel, the signature put back on fd's device, the
 * restore. */
static int restore(struct rs *s, struct pm_snap_io *io, int fd)
{
	uint8_t *buf = malloc(PM_SNAP_BLOCK);
	int e = buf ? 0 : -ENOMEM;

	if (!e && pm_snapshot_open(&s->ctx, &s->snap, true) < 0)
		e = kernel_failed(s, "opening the snapshot device");
	/* An image made in the platform mode is restored in it: the
	 * firmware's hooks run around the restore (hibernation_restore). */
	if (!e && (s->r.h.flags & PM_SNAP_F_PLATFORM) &&
	    pm_snapshot_platform(&s->ctx, &s->snap, true) < 0)
		e = kernel_failed(s, "the platform mode");
	if (!e)
		e = give_image(s, buf);
	free(buf);
	/* Never the same image twice: the signature goes before the
	 * restore, whose success does not return. */
	if (!e && pm_snap_sig_restore(io, (uint32_t)((now_s() - s->t0) * 1000),
				      s->r.why, sizeof(s->r.why)))
		e = -EIO;
	/* On the disk before the restore, which drops this memory. */
	if (!e && fsync(fd) < 0) {
		e = -errno;
		snprintf(s->r.why, sizeof(s->r.why),
			 "the swap signature put back: fsync: %s (%s)",
			 strerror(-e), pm_errno_name(-e));
	}
	if (!e && pm_snapshot_freeze(&s->ctx, &s->snap) < 0)
		e = kernel_failed(s, "freezing user space");
	if (!e && pm_snapshot_restore(&s->ctx, &s->snap) < 0)
		e = kernel_failed(s, "restoring");
	if (s->snap.frozen)
		pm_snapshot_unfreeze(&s->ctx, &s->snap);
	pm_snapshot_close(&s->snap);
	return e;
}

static void resume_image(struct rs *s)
{
	struct pm_snap_fileio f;
	struct pm_snap_io io;
	char buf[PM_PATH_MAX + 700], why[PM_SNAP_WHY_MAX];
	int fd, e;

	if (pm_kernel_release(&s->ctx, s->release, sizeof(s->release)) < 0)
		pm_die(&s->t, PM_EXIT_FAIL,
		       "cannot tell the running kernel: %s",
		       pm_err_str(&s->ctx.err, buf, sizeof(buf)));
	fd = pm_snap_image_open(&s->ctx, s->path, true);
	if (fd < 0)
		pm_die(&s->t, PM_EXIT_FAIL, "cannot open %s",
		       pm_err_str(&s->ctx.err, buf, sizeof(buf)));
	e = pm_snap_fileio_init(&io, &f, fd, s->offset);
	if (e < 0)
		pm_die(&s->t, PM_EXIT_FAIL, "%s: %s", s->path, strerror(-e));
	s->t0 = now_s();
	e = pm_snapr_open(&s->r, &io, s->release, NULL);
	if (e == -ENOENT) {
		if (s->t.verbose > 0)
			pm_warn(&s->t, "%s: %s", s->path, s->r.why);
		s->status = PM_EXIT_OK;
	} else {
		/* A restore that works does not return. */
		if (!e)
			restore(s, &io, fd);
		s->status = PM_EXIT_FAIL;
		if (pm_snap_sig_restore(&io, 0, why, sizeof(why)))
			pm_warn(&s->t, "%s: %s; the swap signature could not "
				"be put back (mkswap it)", s->path, s->r.why);
		else if (s->t.verbose >= 0)
			pm_warn(&s->t, "%s: %s; the swap signature is put "
				"back, booting on", s->path, s->r.why);
	}
	pm_snapr_close(&s->r);
	close(fd);
}

static void resume_opts(struct rs *s, int argc, char **argv)
{
	static const struct option longopts[] = {
		PM_SHARED_LONGOPTS,
		{ "check", required_argument, NULL, OPT_CHECK },
		{ "offset", required_argument, NULL, OPT_OFFSET },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":" PM_SHARED_SHORTOPTS,
				longopts, NULL)) != -1) {
		if (pm_tool_opt(&s->t, c, optarg, argv))
			continue;
		if (c == OPT_OFFSET) {
			if (pm_parse_u64(optarg, &s->offset) < 0 ||
			    s->offset > PM_SNAP_IMAGE_MAX / PM_SNAP_PAGE)
				pm_usage_error(&s->t,
					       "--offset '%s': a page number "
					       "(a swap file's resume_offset)",
					       optarg);
			s->offset_set = true;
			continue;
		}
		if (s->path && strcmp(s->path, optarg))
			pm_usage_error(&s->t,
				       "--check given twice with different "
				       "values");
		s->path = optarg;
		s->check = true;
	}
	if (optind < argc && !s->check)
		s->path = argv[optind++];
	if (optind < argc)
		pm_usage_error(&s->t, "unexpected argument '%s'", argv[optind]);
	if (s->path && s->path[0] != '/')
		pm_usage_error(&s->t,
			       "%s'%s': an absolute path (/dev/vda2, "
			       "/var/tmp/image)",
			       s->check ? "--check " : "", s->path);
	if (s->check) {
		pm_tool_only(&s->t, PM_SEEN_FORMAT | PM_SEEN_OUTPUT,
			     "pm-resume --check");
		pm_tool_formats(&s->t, 1u << PM_FMT_HUMAN | 1u << PM_FMT_JSON);
	} else {
		pm_tool_only(&s->t, 0, "pm-resume without --check");
	}
}

int ps_resume_main(int argc, char **argv)
{
	static struct rs s;
	char buf[PM_PATH_MAX + 700];
	struct pm_out o;

	pm_tool_init(&s.t, "pm-resume", resume_usage);
	resume_opts(&s, argc, argv);
	pm_tool_ctx(&s.t, &s.ctx);
	if (!s.check) {
		if (!s.path && pm_resume_dev_read(&s.ctx, &s.dev) < 0)
			pm_die(&s.t, pm_exit_for(s.ctx.err.err),
			       "no resume device: %s",
			       pm_err_str(&s.ctx.err, buf, sizeof(buf)));
		if (!s.path) {
			s.path = s.dev.path;
			if (!s.offset_set)
				s.offset = s.dev.offset;
		}
		resume_image(&s);
		pm_ctx_close(&s.ctx);
		return s.status;
	}
	check_image(&s);
	if (s.status && s.t.verbose >= 0)
		pm_warn(&s.t, "%s: %s", s.path, s.r.why);
	pm_tool_out(&s.t, &o);
	if (s.t.fmt == PM_FMT_JSON)
		check_json(&s, &o);
	else
		check_human(&s, o.f);
	pm_tool_out_done(&s.t, &o);
	pm_ctx_close(&s.ctx);
	return s.status;
}
