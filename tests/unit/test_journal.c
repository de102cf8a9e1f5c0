// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the writers' journal (lib/journal.c: the text written
 * before the first write, the restore of a dead writer's journal, the
 * journals that do not parse, earlier boots) and of the stop signals of
 * a transaction (lib/txn.c), on a temporary system root.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pm.h"
#include "tap.h"
#include "tree.h"

static char root[] = "/tmp/pmtools-test-journal.XXXXXX";

static void put(const char *rel, const char *text)
{
	tree_put(root, rel, text);
}

static const char *get(const char *rel)
{
	return tree_get(root, rel);
}

/* The real path of rel below the root (one buffer: use it at once). */
static const char *at(const char *rel)
{
	static char path[PM_PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return path;
}

static bool there(const char *rel)
{
	return access(at(rel), F_OK) == 0;
}

static void reset(void)
{
	put("sys/a", "1\n");
	put("sys/b", "two words\n");
	put("sys/c", "s2idle [deep]\n");
	put("sys/d", "4\n");
	put("sys/e", "5\n");
	unlink(at("run/pmtools/journal"));
}

/* The header of a journal of this process, as pm_journal_write makes it,
 * without the time line. */
static const char *header_of(const char *text, char *buf, size_t size)
{
	const char *t = strstr(text, "time ");
	const char *nl = t ? strchr(t, '\n') : NULL;

	snprintf(buf, size, "%.*s%s", t ? (int)(t - text) : 0, text,
		 nl ? nl + 1 : "");
	return buf;
}

static void test_write(struct pm_ctx *ctx)
{
	struct pm_journal j;
	struct pm_txn t;
	char want[2048], got[2048];

	reset();
	pm_txn_init(&t, ctx);
	pm_txn_add(&t, "/sys/a", "10", 0);
	pm_txn_add(&t, "/sys/b", "one\\word", 0);
	pm_txn_add(&t, "/sys/c", "s2idle", PM_W_CHOICE);
	pm_txn_add_known(&t, "/sys/d", "4", "4", PM_W_RESTORE);
	pm_txn_add(&t, "/sys/e", "5", 0);		/* skipped */
	pm_txn_add(&t, "/sys/d", "40", PM_W_NOREAD);	/* not known */
	pm_txn_add(&t, "/sys/e", "50", PM_W_NOREAD | PM_W_LATE);
	pm_txn_add_known(&t, "/sys/a", "1", "7", PM_W_NOUNDO);
	pm_journal_init(&j, ctx, "unit");
	is_int(pm_journal_write(&j, &t), 0, "a journal is written");
	ok(there("run/pmtools/journal"), "in /run/pmtools, made for it");
	ok(!there("run/pmtools/journal.new"), "renamed from journal.new");
	snprintf(want, sizeof(want),
		 "pmtools-journal 1\npid %ld\ntool unit\nboot -\n"
		 "w /sys/a 1\n"
		 "w /sys/b two\\040words\n"
		 "c /sys/c deep\n"
		 "s /sys/d 4\n"
		 "u /sys/d\n"
		 "end 5\n",
		 (long)getpid());
	is_str(header_of(get("run/pmtools/journal"), got, sizeof(got)), want,
	       "each write that may change a file, in order, escaped; not "
	       "the skipped, the late or the undone-with-another");
	{
		struct stat st;

		ok(stat(at("run/pmtools/journal"), &st) == 0 &&
			   (st.st_mode & 0777) == 0600,
		   "mode 0600");
	}
	/* A late write, once read, is in the next journal. */
	t.w[6].flags &= ~(unsigned)(PM_W_LATE | PM_W_NOREAD);
	t.w[6].old = "5";
	t.w[6].skip = false;
	is_int(pm_journal_write(&j, &t), 0, "written again");
	ok(strstr(get("run/pmtools/journal"), "w /sys/e 5\nend 6\n") != NULL,
	   "with the late write's old value");
	is_int(pm_journal_remove(&j), 0, "removed");
	ok(!there("run/pmtools/journal"), "gone");
	is_int(pm_journal_remove(&j), 0, "a second remove is nothing");
	pm_journal_close(&j);
	pm_txn_free(&t);
}

static void journal(const char *text)
{
	put("run/pmtools/journal", text);
	chmod(at("run/pmtools/journal"), 0600);
}

#define HEAD "pmtools-journal 1\npid 42\ntool opp-set\nboot -\ntime 1\n"

static void test_recover(struct pm_ctx *ctx)
{
	struct pm_recovery r;

	reset();
	is_int(pm_journal_recover(ctx, &r), 0, "no journal: 0");
	ok(!r.found, "nothing found");
	/* Killed after writing a and b (c, d not reached). */
	put("sys/a", "10\n");
	put("sys/b", "x\n");
	put("sys/d", "44\n");
	journal(HEAD "w /sys/a 1\nw /sys/b two\\040words\nc /sys/c deep\n"
		     "s /sys/gone 9\ns /sys/d 4\nend 5\n");
	put("run/pmtools/journal.new", "half");
	is_int(pm_journal_recover(ctx, &r), 0, "a journal is restored");
	ok(r.found && !r.bad && !r.earlier_boot, "found, parsed");
	is_int((int)r.pid, 42, "its writer's pid");
	is_str(r.tool, "opp-set", "and name");
	is_int(r.n, 5, "five files");
	is_int(r.changed, 3, "three read otherwise");
	is_int(r.restored, 3, "and were put back");
	is_int(r.failed, 0, "none failed");
	is_str(get("sys/a"), "1\n", "a is back");
	is_str(get("sys/b"), "two words\n", "b is back, unescaped");
	is_str(get("sys/c"), "s2idle [deep]\n", "c was not touched");
	is_str(get("sys/d"), "4\n", "the snapshot is back");
	ok(!r.f[2].changed && !strcmp(r.f[2].was, "deep"),
	   "a choice is compared by its bracketed word");
	ok(!r.f[3].changed && !r.f[3].err,
	   "a snapshot whose file is gone is nothing to do");
	ok(!there("run/pmtools/journal"), "the journal is removed");
	ok(!there("run/pmtools/journal.new"), "so is a half-made one");
	pm_recovery_free(&r);

	/* Reverse order: the same file twice ends at the first old value. */
	put("sys/a", "3\n");
	journal(HEAD "w /sys/a 1\nw /sys/a 2\nend 2\n");
	pm_journal_recover(ctx, &r);
	is_str(get("sys/a"), "1\n", "restored last write first");
	is_int(r.restored, 2, "both steps");
	pm_recovery_free(&r);

	/* A file that cannot be restored, an unknown old value. */
	reset();
	put("sys/a", "10\n");
	journal(HEAD "w /sys/a 1\nw /sys/missing 1\nu /sys/e\nend 3\n");
	pm_journal_recover(ctx, &r);
	is_int(r.failed, 2, "a missing file and an unknown value fail");
	is_int(r.f[1].err, ENOENT, "the missing one: ENOENT");
	is_int(r.f[2].err, ENODATA, "the unknown one: ENODATA");
	is_str(get("sys/a"), "1\n", "the rest is restored all the same");
	ok(!there("run/pmtools/journal"), "and the journal removed");
	pm_recovery_free(&r);

	/* A dry run compares only. */
	put("sys/a", "10\n");
	journal(HEAD "w /sys/a 1\nend 1\n");
	ctx->dry_run = true;
	pm_journal_recover(ctx, &r);
	ctx->dry_run = false;
	ok(r.f[0].changed && !r.f[0].restored, "dry run: would restore");
	is_str(get("sys/a"), "10\n", "nothing written");
	ok(there("run/pmtools/journal"), "the journal stays");
	pm_recovery_free(&r);
	/* A snapshot and a write of one file: the write restores it, so
	 * the snapshot has nothing left to do, in a dry run too. */
	journal(HEAD "s /sys/a 1\nw /sys/a 1\nw /sys/d 4\nend 3\n");
	ctx->dry_run = true;
	pm_journal_recover(ctx, &r);
	ctx->dry_run = false;
	is_int(r.changed, 1, "dry run: one file would be written");
	ok(r.f[1].changed && !r.f[0].changed,
	   "the write, not the snapshot it leaves nothing to");
	is_str(r.f[0].was, "1", "the snapshot would read the write's value");
	pm_recovery_free(&r);
	journal(HEAD "w /sys/a 2\nw /sys/a 7\nend 2\n");
	ctx->dry_run = true;
	pm_journal_recover(ctx, &r);
	ctx->dry_run = false;
	ok(r.changed == 2 && !strcmp(r.f[0].was, "7"),
	   "dry run: a file written twice, each step as a real run sees it");
	pm_recovery_free(&r);
	pm_journal_recover(ctx, &r);
	pm_recovery_free(&r);
}

static void test_boot(struct pm_ctx *ctx)
{
	struct pm_recovery r;

	reset();
	put("proc/sys/kernel/random/boot_id",
	    "0e1f9c7a-8b4d-4f0e-9a51-2c6d3b7e8f10\n");
	put("sys/a", "10\n");
	journal("pmtools-journal 1\npid 42\ntool pmctl\n"
		"boot 11111111-2222-3333-4444-555555555555\ntime 1\n"
		"w /sys/a 1\nend 1\n");
	pm_journal_recover(ctx, &r);
	ok(r.found && r.earlier_boot, "another boot id: an earlier boot");
	is_str(get("sys/a"), "10\n", "not restored");
	ok(!there("run/pmtools/journal"), "removed");
	pm_recovery_free(&r);

	journal("pmtools-journal 1\npid 42\ntool pmctl\n"
		"boot 11111111-2222-3333-4444-555555555555\ntime 1\n"
		"garbage\n");
	pm_journal_recover(ctx, &r);
	ok(r.earlier_boot && !r.bad,
	   "an earlier boot's journal is not read past its header");
	pm_recovery_free(&r);

	journal("pmtools-journal 1\npid 42\ntool pmctl\n"
		"boot 0e1f9c7a-8b4d-4f0e-9a51-2c6d3b7e8f10\ntime 1\n"
		"w /sys/a 1\nend 1\n");
	pm_journal_recover(ctx, &r);
	ok(!r.earlier_boot && r.restored == 1, "this boot's: restored");
	pm_recovery_free(&r);

	/* The writer could not read its boot id: restored. */
	put("sys/a", "10\n");
	journal(HEAD "w /sys/a 1\nend 1\n");
	pm_journal_recover(ctx, &r);
	ok(!r.earlier_boot && r.restored == 1, "an unknown boot: restored");
	pm_recovery_free(&r);
	{
		struct pm_journal j;
		struct pm_txn t;

		pm_txn_init(&t, ctx);
		pm_txn_add(&t, "/sys/a", "10", 0);
		pm_journal_init(&j, ctx, "unit");
		pm_journal_write(&j, &t);
		ok(strstr(get("run/pmtools/journal"),
			  "\nboot 0e1f9c7a-8b4d-4f0e-9a51-2c6d3b7e8f10\n") !=
			   NULL,
		   "the writer records this boot's id");
		pm_journal_remove(&j);
		pm_journal_close(&j);
		pm_txn_free(&t);
	}
	unlink(at("proc/sys/kernel/random/boot_id"));
}

static void test_bad(struct pm_ctx *ctx)
{
	static const struct {
		const char *text, *why;
	} cases[] = {
		{ "", "line 1: not a pmtools journal" },
		{ "hello\n", "line 1: not a pmtools journal" },
		{ "pmtools-journal 2\n",
		  "line 1: version 2, which this pmtools does not know (it "
		  "writes 1)" },
		{ "pmtools-journal x\n", "line 1: no version number" },
		{ "pmtools-journal 1\npid 0\n", "line 2: no 'pid N'" },
		{ "pmtools-journal 1\npid 4\ntool a b\n",
		  "line 3: no 'tool NAME'" },
		{ "pmtools-journal 1\npid 4\ntool x\nboot abc\n",
		  "line 4: no 'boot ID'" },
		{ "pmtools-journal 1\npid 4\ntool x\nboot -\ntime -1\n",
		  "line 5: no 'time SECONDS'" },
		{ HEAD "w /sys/a 1\n",
		  "line 7: no 'end N': the journal is cut short" },
		{ HEAD "w /sys/a 1\nend 1",
		  "line 7: no 'end N': the journal is cut short" },
		{ HEAD "w /sys/a 1\nend 2\n",
		  "line 7: 'end' does not count the records above" },
		{ HEAD "end 0\nw /sys/a 1\n", "line 6: text after 'end'" },
		{ HEAD "x /sys/a 1\nend 1\n", "line 6: not a record" },
		{ HEAD "w /etc/shadow 1\nend 1\n",
		  "line 6: not a path below /sys" },
		{ HEAD "w /sys/../etc/shadow 1\nend 1\n",
		  "line 6: not a path below /sys" },
		{ HEAD "w /sys/./a 1\nend 1\n",
		  "line 6: not a path below /sys" },
		{ HEAD "w /sys/a\nend 1\n", "line 6: no old value" },
		{ HEAD "w /sys/a 1 2\nend 1\n",
		  "line 6: more fields than a record has" },
		{ HEAD "w /sys/a \\400\nend 1\n", "line 6: no old value" },
		{ HEAD "w /sys/a \\000\nend 1\n", "line 6: no old value" },
		{ HEAD "w /sys/a a\tb\nend 1\n", "line 6: no old value" },
		{ HEAD "w /sys/a  1\nend 1\n", "line 6: no old value" },
	};
	struct pm_recovery r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		reset();
		put("sys/a", "10\n");
		journal(cases[i].text);
		is_int(pm_journal_recover(ctx, &r), 0, "case %zu: 0", i);
		ok(r.found && r.bad, "case %zu: does not parse", i);
		is_str(r.why, cases[i].why, "case %zu: says why", i);
		ok(r.n == 0 && !r.f, "case %zu: no records kept", i);
		is_str(get("sys/a"), "10\n", "case %zu: nothing restored", i);
		ok(there("run/pmtools/journal"), "case %zu: left in place", i);
		pm_recovery_free(&r);
	}
	/* Others could have written it. */
	reset();
	put("sys/a", "10\n");
	journal(HEAD "w /sys/a 1\nend 1\n");
	chmod(at("run/pmtools/journal"), 0666);
	pm_journal_recover(ctx, &r);
	ok(r.bad, "a journal others may write is not used");
	is_str(r.why, "it or its folder could be written by another user",
	       "and says why");
	is_str(get("sys/a"), "10\n", "nothing restored");
	chmod(at("run/pmtools/journal"), 0600);
	chmod(at("run/pmtools"), 0777);
	pm_journal_recover(ctx, &r);
	ok(r.bad, "nor one in a folder others may write");
	chmod(at("run/pmtools"), 0755);
	unlink(at("run/pmtools/journal"));
	if (symlink("/etc/passwd", at("run/pmtools/journal")) == 0) {
		pm_journal_recover(ctx, &r);
		ok(r.bad && !strcmp(r.why, "a symbolic link"),
		   "a symbolic link is not followed");
		unlink(at("run/pmtools/journal"));
	}
	pm_recovery_free(&r);
}

/* ---------------------------------------------------------------- signals */

static void test_signals(struct pm_ctx *ctx)
{
	struct sigaction sa;
	struct pm_stop s;
	struct pm_txn t;

	memset(&s, 0, sizeof(s));
	signal(SIGHUP, SIG_IGN);
	pm_stop_catch(&s);
	ok(pm_stop_caught() == 0, "nothing caught yet");
	raise(SIGTERM);
	is_int(pm_stop_caught(), SIGTERM, "SIGTERM only sets the flag");
	raise(SIGHUP);
	is_int(pm_stop_caught(), SIGTERM, "an ignored SIGHUP stays ignored");
	raise(SIGQUIT);
	is_int(pm_stop_caught(), SIGQUIT, "SIGQUIT is caught too");

	/* A caught signal stops an apply before its next write. */
	reset();
	pm_txn_init(&t, ctx);
	pm_txn_add(&t, "/sys/a", "10", 0);
	pm_txn_add(&t, "/sys/d", "40", 0);
	raise(SIGINT);
	is_int(pm_txn_apply(&t), -EINTR, "the apply stops: -EINTR");
	is_int(t.stopped, SIGINT, "t->stopped names the signal");
	is_int(t.failed, -1, "no write failed");
	is_str(get("sys/a"), "1\n", "nothing written");
	pm_txn_free(&t);

	pm_stop_release(&s);
	sigaction(SIGTERM, NULL, &sa);
	ok(sa.sa_handler == SIG_DFL, "released: SIGTERM is as it was");
	sigaction(SIGHUP, NULL, &sa);
	ok(sa.sa_handler == SIG_IGN, "and SIGHUP still ignored");
	signal(SIGHUP, SIG_DFL);
}

/* Held, a signal waits; at the release it takes its usual course. */
static void test_release(void)
{
	pid_t pid = fork();
	int st = 0;

	if (pid == 0) {
		struct pm_stop s;

		memset(&s, 0, sizeof(s));
		pm_stop_catch(&s);
		pm_stop_hold(&s);
		raise(SIGINT);
		if (pm_stop_caught())
			_exit(3);
		pm_stop_release(&s);
		_exit(0);
	}
	waitpid(pid, &st, 0);
	ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT,
	   "a signal held till the release ends the process then "
	   "(status %d)",
	   st);
}

/* A journal's whole text, malloc'd ("" when unreadable). */
static char *slurp(const char *rel)
{
	size_t cap = 1 << 20, n = 0;
	char *buf = malloc(cap);
	int fd = open(at(rel), O_RDONLY | O_CLOEXEC);
	ssize_t k;

	if (!buf)
		abort();
	while (fd >= 0 && n + 1 < cap &&
	       (k = read(fd, buf + n, cap - 1 - n)) > 0)
		n += (size_t)k;
	if (fd >= 0)
		close(fd);
	buf[n] = '\0';
	return buf;
}

/* An escaper of its own to check the journal's against: \ooo for a
 * space, a backslash and each byte outside '!'..'~'. */
static size_t esc(char *out, const char *s)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		n += (size_t)sprintf(out + n,
				     *p <= ' ' || *p > '~' || *p == '\\' ?
					     "\\%03o" :
					     "%c",
				     *p);
	return n;
}

/* A journal of thousands of records: made a block at a time, it is
 * the same text as made whole, escapes cut by no block's end. */
static void test_long(struct pm_ctx *ctx)
{
	enum { N = 2500 };
	char path[128], old[64], *want, *text;
	struct pm_journal j;
	struct pm_txn t;
	size_t n = 0;

	reset();
	want = malloc(1 << 20);
	if (!want)
		abort();
	pm_txn_init(&t, ctx);
	n += (size_t)sprintf(want, "pmtools-journal 1\npid %ld\ntool unit\n"
				   "boot -\n", (long)getpid());
	for (int i = 0; i < N; i++) {
		/* 4 to 11 escapes a record, at every offset of a block. */
		snprintf(path, sizeof(path), "/sys/devices/x %d/%.*s", i,
			 i % 7, "\\\\\\\\\\\\\\");
		snprintf(old, sizeof(old), "\377o ld\t%d", i);
		pm_txn_add_known(&t, path, old, "new", 0);
		n += (size_t)sprintf(want + n, "w ");
		n += esc(want + n, path);
		want[n++] = ' ';
		n += esc(want + n, old);
		want[n++] = '\n';
	}
	sprintf(want + n, "end %d\n", N);
	pm_journal_init(&j, ctx, "unit");
	is_int(pm_journal_write(&j, &t), 0, "a journal of %d records", N);
	text = slurp("run/pmtools/journal");
	ok(strlen(text) > 3 * 32768, "longer than a few blocks (%zu bytes)",
	   strlen(text));
	{
		const char *t0 = strstr(text, "time "), *nl;

		nl = t0 ? strchr(t0, '\n') : NULL;
		/* The text but for its time line. */
		if (nl)
			memmove((char *)t0, nl + 1, strlen(nl + 1) + 1);
	}
	ok(!strcmp(text, want), "every record, escaped as one escaper says");
	pm_journal_remove(&j);
	pm_journal_close(&j);
	pm_txn_free(&t);
	free(text);
	free(want);
}

/*
 * pm-suspend's journal: its own file beside the writers', and the sleep
 * files (PM_W_SELECTED) as 'o' records, which a plain file of one word
 * reads as that word (a fixture's mem_sleep, a kernel of one choice).
 */
static void test_sleep(struct pm_ctx *ctx)
{
	struct pm_journal j;
	struct pm_recovery r;
	struct pm_txn t;

	reset();
	put("sys/f", "deep\n");
	put("run/pmtools/journal", "the writers'");
	pm_txn_init(&t, ctx);
	pm_txn_add(&t, "/sys/f", "s2idle", PM_W_CHOICE | PM_W_SELECTED);
	pm_txn_add(&t, "/sys/a", "0", 0);
	pm_journal_init(&j, ctx, "pm-suspend");
	j.file = PM_SLEEP_JOURNAL;
	is_int(pm_journal_write(&j, &t), 0, "a sleep journal is written");
	ok(strstr(get("run/pmtools/sleep-journal"),
		  "o /sys/f deep\nw /sys/a 1\nend 2\n") != NULL,
	   "in its own file, the selected-word file an 'o' record");
	ok(!there("run/pmtools/sleep-journal.new"), "renamed from its .new");
	pm_journal_close(&j);
	pm_txn_free(&t);
	put("sys/f", "s2idle\n");
	put("sys/a", "0\n");
	is_int(pm_journal_recover_file(ctx, PM_SLEEP_JOURNAL, &r), 0,
	       "recovered");
	is_str(r.file, PM_SLEEP_JOURNAL, "naming its file");
	ok(r.found && r.restored == 2 && r.failed == 0, "both put back");
	is_str(get("sys/f"), "deep\n", "the plain word read and put back");
	is_str(get("sys/a"), "1\n", "and the value");
	ok(!there("run/pmtools/sleep-journal"), "the sleep journal removed");
	is_str(get("run/pmtools/journal"), "the writers'",
	       "the writers' journal not touched");
	pm_recovery_free(&r);
	/* A 'c' record reads brackets only: a plain word is not a choice. */
	put("sys/f", "s2idle\n");
	journal(HEAD "c /sys/f deep\nend 1\n");
	pm_journal_recover(ctx, &r);
	is_int(r.failed, 1, "a 'c' record on a plain word cannot restore it");
	pm_recovery_free(&r);
}

int main(void)
{
	struct pm_ctx ctx;
	char cmd[512];

	/* The signal tests start as from a terminal: a shell's background
	 * job begins with SIGINT and SIGQUIT ignored, which pm_stop rightly
	 * leaves ignored. */
	signal(SIGINT, SIG_DFL);
	signal(SIGQUIT, SIG_DFL);
	if (!mkdtemp(root)) {
		perror("mkdtemp");
		return 99;
	}
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p '%s/sys' '%s/run' '%s/proc/sys/kernel/random'",
		 root, root, root);
	if (system(cmd) != 0 || pm_ctx_open(&ctx, root) < 0)
		return 99;
	test_write(&ctx);
	test_long(&ctx);
	test_recover(&ctx);
	test_boot(&ctx);
	test_bad(&ctx);
	test_signals(&ctx);
	test_release();
	test_sleep(&ctx);
	pm_ctx_close(&ctx);
	if (tree_rm(root) != 0)
		diag("could not remove %s", root);
	return done_testing();
}
