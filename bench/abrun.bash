# SPDX-License-Identifier: GPL-2.0-or-later
# build_abrun OUT: compile the alternating timer that every bench script
# uses into OUT (its C source is the here-document below; kept in a shell
# file because every file in bench/ is shellchecked by make lint).
build_abrun() { # OUT
	cc -O2 -Wall -Wextra -std=c11 -o "$1.tmp" -x c - <<'ABRUN_C'
// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * abrun: time two or more commands alternately, round by round, so that
 * a noisy machine (other builds, other tests) slows all of them alike.
 *
 *   abrun [-w WARMUP] [-r RUNS] [-p PREP] CMD_A... ::: CMD_B... [::: CMD_C...]
 *
 * A command may be a chain, CMD1... :+: CMD2...: its parts run one after
 * the other (each only if the one before exited 0) and are timed as one
 * run, as a user who needs two invocations for the work would run them.
 * Each round runs every command once; the order rotates from round to
 * round (A B, then B A, ...), so no command always goes first.  PREP, if
 * given, is run by /bin/sh -c before every run of every command and is
 * not timed (a reset of a fixture that the commands change).  A run is
 * the wall time from posix_spawnp() to waitpid(), CLOCK_MONOTONIC, with
 * standard input, output and error on /dev/null.
 *
 * Output, one line per command, in the order given:
 *   INDEX MEDIAN_MS Q1_MS Q3_MS MIN_MS MAX_MS FAILED RATIO_MEDIAN RATIO_Q1 RATIO_Q3
 * where RATIO is, round by round, this command's time over the LAST
 * command's time in the same round (the pair ratio), and FAILED counts
 * the runs that did not exit 0.  Nothing is asserted.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

enum { MAX_CMDS = 8, MAX_PARTS = 4, MAX_RUNS = 10000 };

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Run argv with stdio on /dev/null; the exit status, or -1. */
static int run(char **argv)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int st, rc, fd;

	posix_spawn_file_actions_init(&fa);
	for (fd = 0; fd <= 2; fd++)
		posix_spawn_file_actions_addopen(&fa, fd, "/dev/null", fd ? O_WRONLY : O_RDONLY, 0);
	rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc != 0) {
		fprintf(stderr, "abrun: %s: %s\n", argv[0], strerror(rc));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile (0..1) of n sorted values, linear between neighbours. */
static double quantile(const double *v, int n, double q)
{
	double pos = q * (n - 1);
	int i = (int)pos;

	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (pos - i) * (v[i + 1] - v[i]);
}

static int number(const char *s, int lo, int hi)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "abrun: bad number '%s' (%d..%d)\n", s, lo, hi);
		exit(2);
	}
	return (int)v;
}

static void usage(void)
{
	fprintf(stderr, "usage: abrun [-w WARMUP] [-r RUNS] [-p PREP] CMD... ::: CMD... [::: CMD...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	char **argvs[MAX_CMDS][MAX_PARTS + 1];
	int nparts[MAX_CMDS] = { 0 };
	static double t[MAX_CMDS][MAX_RUNS], sorted[MAX_RUNS], ratio[MAX_RUNS];
	int failed[MAX_CMDS] = { 0 };
	const char *prep = NULL;
	int warm = 3, runs = 20, ncmd = 0, opt, i, r, k;

	while ((opt = getopt(argc, argv, "+w:r:p:")) != -1) {
		switch (opt) {
		case 'w': warm = number(optarg, 0, 1000); break;
		case 'r': runs = number(optarg, 1, MAX_RUNS); break;
		case 'p': prep = optarg; break;
		default: usage();
		}
	}
	if (optind >= argc)
		usage();
	/* Split the rest at ":::" into commands and at ":+:" into the parts
	 * of a chain, in place. */
	argvs[ncmd][nparts[ncmd]++] = &argv[optind];
	ncmd++;
	for (i = optind; i < argc; i++) {
		int next = strcmp(argv[i], ":::") == 0, chain = strcmp(argv[i], ":+:") == 0;

		if (!next && !chain)
			continue;
		argv[i] = NULL;
		if (i + 1 >= argc || (next && ncmd == MAX_CMDS) || (chain && nparts[ncmd - 1] == MAX_PARTS))
			usage();
		if (next)
			ncmd++;
		argvs[ncmd - 1][nparts[ncmd - 1]++] = &argv[i + 1];
	}
	for (k = 0; k < ncmd; k++)
		for (i = 0; i < nparts[k]; i++)
			if (!argvs[k][i][0])
				usage();
	if (ncmd < 2)
		usage();

	for (r = -warm; r < runs; r++) {
		int round = r + warm;

		for (i = 0; i < ncmd; i++) {
			int c = (i + round) % ncmd;
			double t0;
			int rc;

			if (prep) {
				char *sh[] = { "/bin/sh", "-c", (char *)prep, NULL };

				if (run(sh) != 0) {
					fprintf(stderr, "abrun: the prepare command failed\n");
					return 1;
				}
			}
			t0 = now_ms();
			rc = 0;
			for (k = 0; k < nparts[c] && rc == 0; k++)
				rc = run(argvs[c][k]);
			if (r < 0)
				continue;
			t[c][r] = now_ms() - t0;
			if (rc != 0)
				failed[c]++;
		}
	}

	for (k = 0; k < ncmd; k++) {
		memcpy(sorted, t[k], sizeof(double) * (size_t)runs);
		qsort(sorted, (size_t)runs, sizeof(double), cmp);
		for (r = 0; r < runs; r++)
			ratio[r] = t[ncmd - 1][r] > 0 ? t[k][r] / t[ncmd - 1][r] : 0;
		qsort(ratio, (size_t)runs, sizeof(double), cmp);
		printf("%d %.3f %.3f %.3f %.3f %.3f %d %.3f %.3f %.3f\n", k,
		       quantile(sorted, runs, 0.5), quantile(sorted, runs, 0.25),
		       quantile(sorted, runs, 0.75), sorted[0], sorted[runs - 1], failed[k],
		       quantile(ratio, runs, 0.5), quantile(ratio, runs, 0.25),
		       quantile(ratio, runs, 0.75));
	}
	return 0;
}
ABRUN_C
	mv "$1.tmp" "$1"
}
