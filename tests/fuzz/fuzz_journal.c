// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target "journal": any bytes as /run/pmtools/journal, read by
 * pm_journal_recover in a dry run (it parses and compares, and writes
 * nothing) on a tiny system root made once in a mkdtemp folder, removed
 * at exit.
 *
 * Checked: 0 or -ENOMEM; a journal that does not parse says why as
 * "line N: ..." with N at most one past the input's lines, and has no
 * records; one that parses has records whose kind is w, c, o, s or u,
 * whose path lies below /sys without "." or ".." and whose old value is
 * set unless the kind is u, or of kind n: an interface name the kernel
 * could have and a Wi-Fi power save of on or off; counts within the
 * records.  And a round trip:
 * the records written again by pm_journal_write (from a transaction
 * made of them) parse to the same records.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"

static struct pm_ctx ctx;
static char root[PM_PATH_MAX];

static void put(const char *rel, const void *data, size_t size)
{
	char path[PM_PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		fz_fail(__FILE__, __LINE__, "cannot write the journal");
	close(fd);
}

static void cleanup(void)
{
	pm_ctx_close(&ctx);
	fz_rmtree(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	char cmd[PM_PATH_MAX + 128];

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/pmfuzz-journal.XXXXXX",
		 tmp ? tmp : "/dev/shm");
	if (!mkdtemp(root))
		fz_fail(__FILE__, __LINE__, "mkdtemp");
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/run/pmtools' '%s/sys/a' && "
				   "echo 1 >'%s/sys/a/x'",
		 root, root, root);
	if (system(cmd) != 0 || pm_ctx_open(&ctx, root) < 0)
		fz_fail(__FILE__, __LINE__, "the tree");
	ctx.dry_run = true;
	atexit(cleanup);
	return 0;
}

static bool path_ok(const char *p)
{
	if (strncmp(p, "/sys/", 5))
		return false;
	return !strstr(p, "/../") && !strstr(p, "/./") && !strstr(p, "//") &&
	       strcmp(p + strlen(p) - 3, "/..") && strcmp(p + strlen(p) - 2, "/.");
}

/* The records of r as a transaction, written, read back: the same. */
static void round_trip(const struct pm_recovery *r)
{
	struct pm_recovery again;
	struct pm_journal j;
	struct pm_txn t;

	pm_txn_init(&t, &ctx);
	for (int i = 0; i < r->n; i++) {
		const struct pm_jfile *x = &r->f[i];
		/* Forced: never skipped, whatever the old value. */
		unsigned flags = x->kind == 'c' ? PM_W_CHOICE | PM_W_FORCE :
				 x->kind == 'o' ? PM_W_CHOICE | PM_W_SELECTED |
							  PM_W_FORCE :
				 x->kind == 's' ? PM_W_RESTORE :
				 x->kind == 'u' ? PM_W_NOREAD :
						  PM_W_FORCE;
		/* A power save set to the other value: never skipped. */
		int k = x->kind == 'n' ?
			pm_txn_add_wifi_ps(&t, x->ifname, x->old,
					   strcmp(x->old, "on") ? "on" : "off") :
			pm_txn_add_known(&t, x->path, x->old,
					 x->kind == 's' ? x->old : "~", flags);

		CHECK(k == i);
	}
	ctx.dry_run = false;
	pm_journal_init(&j, &ctx, "fuzz");
	CHECK(pm_journal_write(&j, &t) == 0);
	pm_journal_close(&j);
	ctx.dry_run = true;
	CHECK(pm_journal_recover(&ctx, &again) == 0);
	CHECK(again.found && !again.bad);
	CHECK(again.n == r->n);
	for (int i = 0; i < r->n; i++) {
		CHECK(again.f[i].kind == r->f[i].kind);
		CHECK(!strcmp(again.f[i].path, r->f[i].path));
		CHECK(!strcmp(again.f[i].ifname, r->f[i].ifname));
		CHECK(!strcmp(again.f[i].old, r->f[i].old));
	}
	pm_recovery_free(&again);
	pm_txn_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pm_recovery r;
	unsigned lines = 1, line;
	int e;

	for (size_t i = 0; i < size; i++)
		lines += data[i] == '\n';
	put("run/pmtools/journal", data, size);
	e = pm_journal_recover(&ctx, &r);
	CHECK(e == 0 || e == -ENOMEM);
	if (e < 0)
		return 0;
	CHECK(r.found);
	CHECK(fz_terminated(r.why, sizeof(r.why)));
	if (r.bad) {
		CHECK(sscanf(r.why, "line %u: ", &line) == 1);
		CHECK(line >= 1 && line <= lines + 1);
		CHECK(r.n == 0);
		return 0;
	}
	CHECK(r.changed <= r.n && r.restored == 0 && r.failed <= r.n);
	CHECK(r.pid > 0 && r.tool[0]);
	for (int i = 0; i < r.n; i++) {
		const struct pm_jfile *x = &r.f[i];

		CHECK(strchr("wcosun", x->kind) && x->kind);
		if (x->kind == 'n') {
			CHECK(pm_ifname_ok(x->ifname));
			CHECK(!strcmp(x->old, "on") || !strcmp(x->old, "off"));
			continue;
		}
		CHECK(path_ok(x->path));
		CHECK((x->kind == 'u') == !x->old[0]);
	}
	if (!r.earlier_boot)
		round_trip(&r);
	pm_recovery_free(&r);
	return 0;
}
