// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of write transactions (plan, apply, read back, roll back in
 * reverse, restores that fail) and of the writers' lock, on a temporary
 * system root.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

static char root[] = "/tmp/pmtools-test-txn.XXXXXX";

static void put(const char *rel, const char *text)
{
	tree_put(root, rel, text);
}

static const char *get(const char *rel)
{
	return tree_get(root, rel);
}

/* A file turned into a folder: the next write to it fails (EISDIR). */
static void break_file(const char *rel)
{
	char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	unlink(path);
	mkdir(path, 0755);
}

static void reset(void)
{
	char path[PM_PATH_MAX];
	const char *names[] = { "a", "b", "c", "d" };

	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, names[i]);
		rmdir(path);
	}
	put("a", "1\n");
	put("b", "2\n");
	put("c", "3\n");
	put("d", "4\n");
}

struct sabotage {
	const char *when_path;	/* on the write of this value to this path */
	const char *when_value;
	const char *target;	/* break this file */
	int calls;
};

static void on_write(void *arg, const char *path, const char *value)
{
	struct sabotage *s = arg;

	s->calls++;
	if (s->when_path && !strcmp(path, s->when_path) &&
	    !strcmp(value, s->when_value))
		break_file(s->target);
}

static void test_plan(struct pm_ctx *ctx)
{
	struct pm_txn t;
	int r;

	reset();
	pm_txn_init(&t, ctx);
	is_int(pm_txn_add(&t, "/a", "10", 0), 0, "the first write is 0");
	is_str(t.w[0].old, "1", "its old value is read at plan time");
	ok(!t.w[0].skip, "a change is not skipped");
	is_int(pm_txn_add(&t, "/b", "2", 0), 1, "the second write is 1");
	ok(t.w[1].skip, "a write of the value already there is skipped");
	is_int(pm_txn_add(&t, "/b", "2", PM_W_FORCE), 2, "forced");
	ok(!t.w[2].skip, "a forced write is not skipped");
	r = pm_txn_add(&t, "/missing", "1", 0);
	is_int(r, -ENOENT, "a file that is not there: -ENOENT");
	is_str(ctx->err.file, "/missing", "the record names it");
	is_int(t.n, 3, "and it is not planned");
	is_int(pm_txn_changes(&t), 2, "two writes change something");
	r = pm_txn_add_known(&t, "/c", "3", "30", 0);
	is_int(r, 3, "a write with a known old value");
	is_str(t.w[3].old, "3", "keeps that old value");
	char big[PM_W_VAL + 10];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	is_int(pm_txn_add_known(&t, "/c", "3", big, 0), -ENAMETOOLONG,
	       "a value longer than a write holds is refused");
	pm_txn_free(&t);
}

static void test_replace(struct pm_ctx *ctx)
{
	struct pm_txn t;

	reset();
	pm_txn_init(&t, ctx);
	pm_txn_add_known(&t, "/a", "1", "1", PM_W_RESTORE);
	pm_txn_add(&t, "/a", "10", 0);
	pm_txn_add(&t, "/b", "20", 0);
	is_int(pm_txn_replace(&t, "/c", "5"), -1, "replace: not planned, -1");
	is_int(pm_txn_replace(&t, "/a", "11"), 1,
	       "replace: the planned write, not the rollback's snapshot");
	is_str(t.w[1].val, "11", "its value is the new one");
	is_str(t.w[0].val, "1", "the snapshot keeps its own");
	is_int(pm_txn_replace(&t, "/b", "2"), 2, "replace b");
	ok(t.w[2].skip, "a value the file holds already is skipped");
	is_int(t.n, 3, "nothing added");
	is_int(pm_txn_apply(&t), 0, "apply: 0");
	is_str(get("a"), "11\n", "a is written once, with the later value");
	is_str(get("b"), "2\n", "b is untouched");
	is_int(pm_txn_replace(&t, "/a", "12"), -1,
	       "an applied write is not replaced: planned anew");
	pm_txn_free(&t);
}

/* Write i's planned path, old value and value in the strings test. */
static void strings_of(int i, char *path, size_t psize, char *old,
		       char *val)
{
	/* Paths of 8 to 307 bytes, values of 2 to 127: the blocks fill
	 * unevenly, and some strings straddle where one would end. */
	snprintf(path, psize, "/p/%d/%.*s", i, i % 300,
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		 "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	snprintf(old, PM_W_VAL, "o%d", i);
	if (i % 3 == 0)
		snprintf(val, PM_W_VAL, "%s", old);
	else
		snprintf(val, PM_W_VAL, "v%d%.*s", i, i % 110,
			 "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
			 "yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy"
			 "yyyyyyyyyyyyyyyyyyyy");
}

/* The writes' strings, each its own length in the transaction's
 * blocks: thousands of them, long ones, replaced ones, all intact. */
static void test_strings(struct pm_ctx *ctx)
{
	char path[PM_PATH_MAX], old[PM_W_VAL], val[PM_W_VAL + 1];
	char *longp = malloc(PM_W_PATH + 1);
	struct pm_txn t;
	int bad = -1, n = 3000;

	pm_txn_init(&t, ctx);
	if (!longp)
		return;
	memset(longp, 'z', PM_W_PATH);
	longp[0] = '/';
	longp[PM_W_PATH] = '\0';
	is_int(pm_txn_add_known(&t, longp, "", "1", 0), -ENAMETOOLONG,
	       "a path of PM_W_PATH bytes is refused");
	longp[PM_W_PATH - 1] = '\0';
	for (int i = 0; i < n; i++) {
		strings_of(i, path, sizeof(path), old, val);
		if (pm_txn_add_known(&t, i == n / 2 ? longp : path, old, val,
				     0) != i)
			break;
	}
	is_int(t.n, n, "%d writes planned", n);
	for (int i = 0; i < t.n && bad < 0; i++) {
		strings_of(i, path, sizeof(path), old, val);
		if (strcmp(t.w[i].path, i == n / 2 ? longp : path) ||
		    strcmp(t.w[i].old, old) || strcmp(t.w[i].val, val) ||
		    strcmp(t.w[i].got, "") || t.w[i].skip != (i % 3 == 0))
			bad = i;
	}
	is_int(bad, -1, "every path and value as planned");
	ok(t.w[3].old == t.w[3].val, "a value the file holds is kept once");
	memset(val, 'w', PM_W_VAL);
	val[PM_W_VAL - 1] = '\0';
	is_int(pm_txn_replace(&t, "/p/4/xxxx", val), 4,
	       "a value replaced by the longest one");
	is_str(t.w[4].val, val, "which is kept whole");
	is_str(t.w[5].val, "v5yyyyy", "the next write's value untouched");
	val[PM_W_VAL - 1] = 'w';
	val[PM_W_VAL] = '\0';
	is_int(pm_txn_add_known(&t, "/q", "", val, 0), -ENAMETOOLONG,
	       "a value of PM_W_VAL bytes is refused");
	is_int(pm_txn_add_known(&t, "/q", val, "1", 0), -ENAMETOOLONG,
	       "and an old value of PM_W_VAL bytes");
	pm_txn_truncate(&t, 10);
	is_int(pm_txn_add_known(&t, "/r", "1", "2", 0), 10,
	       "planned again after a truncation");
	is_int(pm_txn_set_alt(&t, 10, "/s"), 0, "its other place kept");
	strings_of(9, path, sizeof(path), old, val);
	ok(!strcmp(t.w[10].path, "/r") && !strcmp(t.w[10].alt, "/s") &&
		   !strcmp(t.w[9].path, path) && !strcmp(t.w[9].val, val),
	   "the earlier writes' strings stay");
	pm_txn_free(&t);
	is_int(t.n, 0, "freed");
	free(longp);
}

static void test_apply(struct pm_ctx *ctx)
{
	struct pm_txn t;

	reset();
	pm_txn_init(&t, ctx);
	pm_txn_add(&t, "/a", "10", 0);
	pm_txn_add(&t, "/b", "2", 0);
	pm_txn_add(&t, "/c", "30", 0);
	is_int(pm_txn_apply(&t), 0, "apply: 0");
	is_str(get("a"), "10\n", "a is written");
	is_str(get("b"), "2\n", "b is untouched");
	is_str(get("c"), "30\n", "c is written");
	is_str(t.w[0].got, "10", "a is read back");
	ok(t.w[0].got == t.w[0].val, "read back as written: kept once");
	ok(t.w[0].done && !t.w[1].done && t.w[2].done, "done flags");
	is_int(t.failed, -1, "nothing failed");
	ok(!t.rolled_back, "no rollback");
	pm_txn_free(&t);
}

static void test_rollback(struct pm_ctx *ctx)
{
	struct pm_txn t;
	int r;

	reset();
	pm_txn_init(&t, ctx);
	pm_txn_add(&t, "/a", "10", 0);
	pm_txn_add(&t, "/b", "20", 0);
	pm_txn_add(&t, "/c", "30", 0);
	pm_txn_add(&t, "/d", "40", 0);
	break_file("c");
	r = pm_txn_apply(&t);
	is_int(r, -EISDIR, "a failed write gives its errno");
	is_int(t.failed, 2, "t.failed names it");
	is_int(t.w[2].err, EISDIR, "the write records the errno");
	is_str(ctx->err.file, "/c", "the error record still names it");
	ok(t.rolled_back, "rolled back");
	is_int(t.not_restored, 0, "everything restored");
	is_str(get("a"), "1\n", "a is back");
	is_str(get("b"), "2\n", "b is back");
	is_str(get("d"), "4\n", "d was never written");
	ok(t.w[0].undone && t.w[1].undone, "undone flags");
	ok(!t.w[3].done, "the write after the failure is not made");
	pm_txn_free(&t);
}

static void test_restore_fails(struct pm_ctx *ctx)
{
	struct sabotage s = { "/b", "2", "a", 0 };
	struct pm_txn t;

	reset();
	ctx->on_write = on_write;
	ctx->on_write_arg = &s;
	pm_txn_init(&t, ctx);
	pm_txn_add(&t, "/a", "10", 0);
	pm_txn_add(&t, "/b", "20", 0);
	pm_txn_add(&t, "/c", "30", 0);
	break_file("c");
	/* Restoring b breaks a: its own restore then fails. */
	is_int(pm_txn_apply(&t), -EISDIR, "the failed write's errno");
	is_int(t.not_restored, 1, "one write could not be restored");
	is_int(t.w[0].undo_err, EISDIR, "a's restore failed with EISDIR");
	ok(!t.w[0].undone, "a is not undone");
	ok(t.w[1].undone, "b is undone");
	is_str(get("b"), "2\n", "b is back");
	is_int(s.calls, 5, "the hook saw 3 writes and 2 restores");
	ctx->on_write = NULL;
	pm_txn_free(&t);

	/* A write with no old value to put back. */
	reset();
	pm_txn_init(&t, ctx);
	pm_txn_add(&t, "/a", "10", PM_W_NOREAD);
	pm_txn_add(&t, "/b", "20", PM_W_NOUNDO);
	pm_txn_add(&t, "/c", "30", 0);
	break_file("c");
	pm_txn_apply(&t);
	is_int(t.w[0].undo_err, ENODATA, "no old value: ENODATA");
	ok(t.w[1].undone, "PM_W_NOUNDO counts as undone by an earlier write");
	is_int(t.not_restored, 1, "one not restored");
	is_str(t.w[0].got, "", "a NOREAD write is not read back");
	pm_txn_free(&t);
}

static void test_dry_run(struct pm_ctx *ctx)
{
	struct sabotage s = { 0 };
	struct pm_txn t;

	reset();
	ctx->dry_run = true;
	ctx->on_write = on_write;
	ctx->on_write_arg = &s;
	pm_txn_init(&t, ctx);
	pm_txn_add(&t, "/a", "10", 0);
	pm_txn_add(&t, "/b", "2", 0);
	is_int(pm_txn_apply(&t), 0, "a dry run succeeds");
	is_int(s.calls, 1, "the hook sees the one change");
	is_str(get("a"), "1\n", "and nothing is written");
	is_str(t.w[0].got, "", "nothing is read back");
	ctx->dry_run = false;
	ctx->on_write = NULL;
	pm_txn_free(&t);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_lock(struct pm_ctx *ctx)
{
	char holder[96], want[96];
	struct pm_ctx other;
	int fd, fd2;
	double t0;

	fd = pm_lock_take(ctx, "/run/x.lock", "unit", -1, holder,
			  sizeof(holder));
	ok(fd >= 0, "the lock is taken, /run made when missing");
	snprintf(want, sizeof(want), "%ld unit\n", (long)getpid());
	is_str(get("run/x.lock"), want, "the holder's pid and name are in it");
	if (pm_ctx_open(&other, root) < 0)
		exit(99);
	fd2 = pm_lock_take(&other, "/run/x.lock", "unit2", -1, holder,
			   sizeof(holder));
	is_int(fd2, -EWOULDBLOCK, "a second taker: -EWOULDBLOCK");
	snprintf(want, sizeof(want), "%ld unit", (long)getpid());
	is_str(holder, want, "and learns who holds it");
	t0 = now();
	fd2 = pm_lock_take(&other, "/run/x.lock", "unit2", 0.05, holder,
			   sizeof(holder));
	is_int(fd2, -EWOULDBLOCK, "--wait=SEC gives up after SEC");
	ok(now() - t0 >= 0.05 && now() - t0 < 2, "after about SEC");
	pm_lock_release(fd);
	fd2 = pm_lock_take(&other, "/run/x.lock", "unit2", 0.05, holder,
			   sizeof(holder));
	ok(fd2 >= 0, "after the release the lock is free");
	pm_lock_release(fd2);
	pm_ctx_close(&other);

	setenv("PM_TEST_GUARD", "1", 1);
	if (pm_ctx_open(&other, "/") == 0) {
		is_int(pm_lock_take(&other, "/run/x.lock", "unit", -1, holder,
				    sizeof(holder)),
		       -EPERM, "the guard refuses a lock on the real root");
		pm_ctx_close(&other);
	}
}

int main(void)
{
	struct pm_ctx ctx;

	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	if (pm_ctx_open(&ctx, root) < 0)
		return 99;
	test_plan(&ctx);
	test_replace(&ctx);
	test_strings(&ctx);
	test_apply(&ctx);
	test_rollback(&ctx);
	test_restore_fails(&ctx);
	test_dry_run(&ctx);
	test_lock(&ctx);
	pm_ctx_close(&ctx);
	if (tree_rm(root) != 0)
		diag("could not remove %s", root);
	return done_testing();
}
