#!/usr/bin/env bats
# shellcheck disable=SC2016 # scanner bodies are single-quoted on purpose
# shellcheck disable=SC2154 # $top and bats' $status, $stderr, $lines come from helpers.bash and run
# The source and the tests' own tools: no system() or popen(), every fd
# close-on-exec, signal handlers that only set a flag, libpm's layering
# (source scans, each checked on a planted offence too); build/treesum,
# treesum --same, build/fxcopy, untraced, and bats-trap.bash and
# bats/run.bash against bats' own.  What the tools do at run time with
# fds, hooks and privileges is hygiene.bats.
# tests/run: not under ASan: its subject is the source tree and the test tools; no pmtools binary runs

load helpers

setup() {
	load_libs
	t=$BATS_TEST_TMPDIR
}

# The source scan: every call that makes an fd, with its arguments
# (across lines, comments dropped), against the rule for its kind.
# Prints each offence as FILE:LINE: CALL: WHY and the count of calls
# checked on stderr; exit 1 when there is an offence.
fd_scan() {
	perl -e '
	use strict; use warnings;
	my ($bad, $n) = (0, 0);
	sub args {	# the text between the "(" at $i and its ")"
		my ($s, $i) = @_; my $d = 0; my $j = $i;
		for (; $j < length $s; $j++) {
			my $c = substr($s, $j, 1);
			$d++ if $c eq "("; $d-- if $c eq ")";
			last if $d == 0;
		}
		return substr($s, $i + 1, $j - $i - 1);
	}
	for my $f (@ARGV) {
		open(my $fh, "<", $f) or die "$f: $!";
		local $/; my $s = <$fh>; close $fh;
		# Comments out, lines kept.
		$s =~ s{/\*.*?\*/}{ (my $c = $&) =~ s/[^\n]//g; $c }gse;
		$s =~ s{//[^\n]*}{}g;
		# No call in a string or a character: their parentheses go.
		$s =~ s{"(?:[^"\\\n]|\\.)*"}{ (my $x = $&) =~ tr/()/[]/; $x }ge;
		$s =~ s{\x27(?:[^\x27\\\n]|\\.)\x27}{0}g;
		while ($s =~ /(?<![\w.>])(system|popen|open|openat|creat|pipe|pipe2|dup|dup2|dup3|socket|socketpair|accept|accept4|fopen|freopen|mkstemp|mkostemp|tmpfile|memfd_create|epoll_create|epoll_create1|inotify_init|inotify_init1|eventfd|signalfd|timerfd_create|fcntl|open_confined)\s*\(/g) {
			my ($call, $at) = ($1, $-[0]);
			my $a = args($s, $+[0] - 1);
			my $line = 1 + (substr($s, 0, $at) =~ tr/\n//);
			# A definition or prototype, not a call.
			next if substr($s, 0, $at) =~ /\b(?:int|void|FILE\s*\*|pid_t)\s*$/;
			my $why;
			if ($call =~ /^(system|popen|creat|pipe|dup|accept|mkstemp|tmpfile|epoll_create|inotify_init)$/) {
				$why = "not allowed: no close-on-exec form (use the *_CLOEXEC variant)";
				$why = "not allowed: runs a shell" if $call =~ /^(system|popen)$/;
			} elsif ($call =~ /^(open|openat|open_confined|pipe2|dup3|mkostemp|memfd_create|epoll_create1|inotify_init1|eventfd|signalfd|timerfd_create)$/) {
				# libpm opens through open_confined with the callers flags,
				# each of which has O_CLOEXEC (checked at the calls).
				next if $f =~ m{lib/path\.c$} && $call eq "openat" && $a eq "dirfd, path, flags, mode";
				$why = "no O_CLOEXEC" unless $a =~ /\b(O|MFD|EPOLL|IN|EFD|SFD|TFD)_CLOEXEC\b/;
			} elsif ($call =~ /^(socket|socketpair|accept4)$/) {
				$why = "no SOCK_CLOEXEC" unless $a =~ /\bSOCK_CLOEXEC\b/;
			} elsif ($call =~ /^(fopen|freopen)$/) {
				$why = "mode without e" unless $a =~ /,\s*"[^"]*e[^"]*"/;
			} elsif ($call eq "fcntl") {
				$why = "F_DUPFD without _CLOEXEC" if $a =~ /\bF_DUPFD\b/;
			} elsif ($call eq "dup2") {
				# Only onto a child s 0, 1 and 2, which are meant to stay.
				$why = "dup2 onto an fd other than 0, 1, 2" unless $a =~ /,\s*(0|1|2|STD(IN|OUT|ERR)_FILENO)\s*$/;
			}
			$n++;
			next unless $why;
			$a =~ s/\s+/ /g;
			print "$f:$line: $call($a): $why\n";
			$bad = 1;
		}
	}
	print STDERR "$n calls checked\n";
	exit $bad;
	' "$@"
}

@test "the source: no system() or popen(), and every fd lib/ and cmd/ make is close-on-exec" {
	cd "$top"
	run --separate-stderr fd_scan lib/*.c cmd/*/*.c
	[ "$status" -eq 0 ] || fail "$output"
	n=${stderr%% *}
	[ "$n" -ge 10 ] || fail "only $n calls found: the scan is blind"
	# The scan catches what it must: one offence of each kind.
	cat >"$t/bad.c" <<'EOF'
int f(void)
{
	int fd = open("/x",
		      O_RDONLY);
	FILE *f = fopen("/y", "r");
	pipe(p);
	system("ls");
	popen("ls", "r");
	dup2(fd, 7);
	fcntl(fd, F_DUPFD, 3);
	socket(AF_UNIX, SOCK_STREAM, 0);
	/* open(commented, O_RDONLY) is not a call */
	warn("system(nor) this in a string", ')');
	fd = openat(d, "z", O_RDONLY | O_CLOEXEC);
	return fd;
}
EOF
	run --separate-stderr fd_scan "$t/bad.c"
	assert_failure 1
	[ "${#lines[@]}" -eq 8 ] || fail "$output"
	[[ ${lines[0]} == "$t/bad.c:3: open("* ]]
	[[ ${lines[1]} == *":5: fopen("*"mode without e" ]]
	[[ $output == *":6: pipe(p): not allowed"* ]]
	[[ $output == *":7: system("*"runs a shell"* ]]
	[[ $output == *":9: dup2(fd, 7): dup2 onto"* ]]
	[[ $output == *":10: fcntl("*"F_DUPFD without"* ]]
	[[ $output == *":11: socket("*"no SOCK_CLOEXEC"* ]]
}

# Signal handlers: each function given to sigaction or signal must only
# assign constants or its argument to volatile sig_atomic_t variables.
sig_scan() {
	perl -e '
	use strict; use warnings;
	my (%src, %handler, %flag);
	my $n = 0;
	for my $f (@ARGV) {
		open(my $fh, "<", $f) or die "$f: $!";
		local $/; my $s = <$fh>; close $fh;
		$s =~ s{/\*.*?\*/}{}gs; $s =~ s{//[^\n]*}{}g;
		$src{$f} = $s;
		$flag{$1} = 1 while $s =~ /\bvolatile\s+sig_atomic_t\s+(\w+)/g;
		$handler{"$f:$1"} = 1 while $s =~ /\bsa_(?:handler|sigaction)\s*=\s*(\w+)/g;
		$handler{"$f:$1"} = 1 while $s =~ /\bsignal\s*\(\s*\w+\s*,\s*(\w+)\s*\)/g;
	}
	my $bad = 0;
	for my $k (sort keys %handler) {
		my ($f, $h) = $k =~ /^(.*):(\w+)$/;
		next if $h =~ /^SIG_(IGN|DFL)$/;
		my $s = $src{$f};
		unless ($s =~ /\bvoid\s+\Q$h\E\s*\(\s*int\s+(\w+)\s*\)\s*\{([^{}]*)\}/) {
			print "$f: $h: no definition found\n"; $bad = 1; next;
		}
		my ($arg, $body) = ($1, $2);
		for my $st (grep { /\S/ } split /;/, $body) {
			$st =~ s/^\s+|\s+$//g;
			next if $st eq "(void)$arg";
			if ($st =~ /^(\w+)\s*=\s*(\w+)$/ && $flag{$1} && ($2 eq $arg || $2 =~ /^\d+$/)) {
				next;
			}
			print "$f: $h: not a flag assignment: $st\n";
			$bad = 1;
		}
		$n++;
	}
	print STDERR "$n handlers checked\n";
	exit $bad;
	' "$@"
}

@test "the source: every signal handler in lib/ and cmd/ only sets a volatile sig_atomic_t flag" {
	cd "$top"
	run --separate-stderr sig_scan lib/*.c lib/*.h cmd/*/*.c cmd/*/*.h
	[ "$status" -eq 0 ] || fail "$output"
	n=${stderr%% *}
	[ "$n" -ge 2 ] || fail "only $n handlers found: the scan is blind"
	cat >"$t/bad.c" <<'EOF'
static int plain;
static volatile sig_atomic_t ok_flag;
static void h1(int sig)
{
	ok_flag = sig;
	printf("caught\n");
}
static void h2(int s)
{
	plain = 1;
}
static void h3(int sig)
{
	(void)sig;
	ok_flag = 1;
}
void set(void)
{
	sa.sa_handler = h1;
	signal(SIGTERM, h2);
	signal(SIGHUP, h3);
	signal(SIGPIPE, SIG_IGN);
}
EOF
	run --separate-stderr sig_scan "$t/bad.c"
	assert_failure 1
	[ "$output" = "$t/bad.c: h1: not a flag assignment: printf(\"caught\\n\")
$t/bad.c: h2: not a flag assignment: plain = 1" ] || fail "$output"
	[ "$stderr" = "3 handlers checked" ]
}

# layer_scan DIR: libpm's layering in DIR/lib.  Every header but pm.h
# includes only headers that pm.h (the umbrella, in layer order) lists
# before it; no lib/*.c includes pm.h; below the tool layer (tool.c,
# writer.c and the planners fset.c, plan.c, cpuplan.c, idleplan.c,
# devplan.c, tuneplan.c) nothing exits or writes to stderr.  One line per breach,
# exit 1.
layer_scan() {
	local dir=$1 h inc bad=0 i=0 line
	local -A pos=()
	local -a cs=()
	# The umbrella's order: a header may include only those before it.
	while IFS= read -r line; do
		[[ $line =~ ^#include\ \"(.*)\"$ ]] && pos[${BASH_REMATCH[1]}]=$((i++))
	done <"$dir/lib/pm.h"
	for h in "$dir"/lib/*.h; do
		[ "${h##*/}" = pm.h ] && continue
		while IFS= read -r line; do
			[[ $line =~ ^#include\ \"(.*)\"$ ]] || continue
			inc=${BASH_REMATCH[1]}
			# (a header the umbrella does not list may include any it does)
			if [ -z "${pos[$inc]:-}" ] || [ "${pos[$inc]}" -ge "${pos[${h##*/}]:-999999}" ]; then
				echo "${h##*/}: includes $inc, not a layer below it"
				bad=1
			fi
		done <"$h"
	done
	for h in "$dir"/lib/*.c; do
		case ${h##*/} in tool.c | writer.c | fset.c | plan.c | cpuplan.c | idleplan.c | devplan.c | tuneplan.c) ;; *) cs+=("$h") ;; esac
	done
	(cd "$dir/lib" && grep -l '^#include "pm.h"' ./*.c) | sed 's|^\./||; s|$|: includes pm.h|' | grep . && bad=1
	(cd "$dir/lib" && grep -HnE '(^|[^_[:alnum:]])(exit|pm_die|pm_warn|pm_note|pm_usage_error)[[:space:]]*\(|\bstderr\b' \
		"${cs[@]##*/}") | grep . && bad=1
	return "$bad"
}

@test "the source: libpm's headers each include only the layers below; only the tool layer exits or writes to stderr" {
	run layer_scan "$top"
	[ "$status" -eq 0 ] || fail "$output"
	# The scan sees a breach of each kind.
	mkdir -p "$t/x/lib"
	cp "$top"/lib/*.h "$top"/lib/*.c "$t/x/lib/"
	printf '#include "tool.h"\n' >>"$t/x/lib/core.h"
	printf '#include "pm.h"\n' >>"$t/x/lib/thermal.c"
	printf 'static void f(void) { exit(1); }\n' >>"$t/x/lib/cpu.c"
	run layer_scan "$t/x"
	assert_failure 1
	[ "${lines[0]}" = "core.h: includes tool.h, not a layer below it" ] || fail "$output"
	[[ "$output" == *"thermal.c: includes pm.h"* ]] || fail "$output"
	[[ "$output" == *"cpu.c:"*"exit(1)"* ]] || fail "$output"
	[ "${#lines[@]}" -eq 3 ] || fail "$output"
}
@test "the tests' tree listing (build/treesum) sees every change the find | sha1sum pipeline saw, and the same files" {
	[ -x "$treesum" ] || skip "no build/treesum (make build/treesum)"
	fresh -v fx hwp-laptop
	mkdir -p "$fx/run/pmtools/x"
	echo 1 >"$fx/run/pmtools.lock"
	echo 1 >"$fx/run/pmtools/x/a.lock"
	a=$("$treesum" "$fx")
	# The same files in the same order as the pipeline it replaces.
	[ "$(cut -c19- <<<"$a")" = "$(cd "$fx" && find . -type f ! -path './run/*.lock' -print0 |
		sort -z | xargs -0 sha1sum | cut -c43-)" ]
	# A lock file's content is not machine state.
	echo 2 >"$fx/run/pmtools.lock"
	[ "$("$treesum" "$fx")" = "$a" ]
	# One byte changed, same size and time: a new listing, naming the file.
	f=$fx/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq
	t=$(stat -c %y "$f")
	v=$(<"$f")
	printf '%s\n' "${v%?}$(((${v: -1} + 1) % 10))" >"$f"
	touch -d "$t" "$f"
	b=$("$treesum" "$fx")
	d=$(diff <(printf '%s\n' "$a") <(printf '%s\n' "$b") | grep '^>')
	[[ $d == "> "*" ./sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq" ]] || fail "$d"
	# A file made or removed, an empty one too.
	: >"$fx/sys/new"
	[ "$("$treesum" "$fx")" != "$b" ]
	rm "$fx/sys/new" "$f"
	[ "$("$treesum" "$fx")" != "$b" ]
	# --stat: a mode or a time changed, a folder made.
	s=$("$treesum" --stat "$fx")
	chmod 600 "$fx/sys/power/state"
	[ "$("$treesum" --stat "$fx")" != "$s" ]
	s=$("$treesum" --stat "$fx")
	touch "$fx/sys/power/state"
	[ "$("$treesum" --stat "$fx")" != "$s" ]
	s=$("$treesum" --stat "$fx")
	mkdir "$fx/sys/power/newdir"
	[ "$("$treesum" --stat "$fx")" != "$s" ]
}

@test "tree_same (treesum --same) passes on the same tree and names each line that differs" {
	[ -x "$treesum" ] || skip "no build/treesum (make build/treesum)"
	fresh -v fx hwp-laptop
	l=$BATS_TEST_TMPDIR/list
	tree_save "$fx" "$l"
	[ "$(<"$l")" = "$(tree_sum "$fx")" ]
	run --separate-stderr tree_same "$fx" "$l"
	assert_success
	[ -z "$stderr" ]
	# A changed file: its old line and its new one; a new file; a
	# removed file.
	echo changed >"$fx/sys/power/pm_async"
	: >"$fx/sys/power/zz_new"
	rm "$fx/sys/power/wakeup_count"
	run --separate-stderr tree_same "$fx" "$l"
	assert_failure 1
	[ "${#stderr_lines[@]}" -eq 4 ] || fail "$stderr"
	[[ $stderr == *"- "*" ./sys/power/pm_async"* ]] || fail "$stderr"
	[[ $stderr == *"+ "*" ./sys/power/pm_async"* ]] || fail "$stderr"
	[[ $stderr == *"+ "*" ./sys/power/zz_new"* ]] || fail "$stderr"
	[[ $stderr == *"- "*" ./sys/power/wakeup_count"* ]] || fail "$stderr"
	# --stat: a mode changed.
	tree_save --stat "$fx" "$l"
	run tree_same --stat "$fx" "$l"
	assert_success
	chmod 600 "$fx/sys/power/state"
	run tree_same --stat "$fx" "$l"
	assert_failure 1
	# A listing that cannot be read is an error of its own (2).
	run tree_same "$fx" "$BATS_TEST_TMPDIR/none"
	assert_failure 2
}

@test "untraced puts back the DEBUG trap bats set" {
	want=$(trap -p DEBUG)
	[ -n "$want" ]
	f() { [ -z "$(trap -p DEBUG)" ]; }
	untraced f
	[ "$(trap -p DEBUG)" = "$want" ]
}

@test "bats-trap.bash: the same failure reports as bats' own DEBUG trap" {
	[ "${BATS_VERSION:-}" = 1.8.2 ] || skip "bats-trap.bash is for bats 1.8.2 (this is ${BATS_VERSION:-unknown})"
	f=$top/tests/fixtures/bats-trap.bats
	# bats itself, in a clean environment: none of this run's BATS_*
	# settings (its -f), nor the PATH bats gives a test (its libexec).
	run env -i PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C "$BATS_ROOT/bin/bats" "$f"
	lean=$output
	run env -i PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C PMTOOLS_BATS_TRAP=1 "$BATS_ROOT/bin/bats" "$f"
	[ "$output" = "$lean" ] || fail "$(diff <(echo "$output") <(echo "$lean"))"
	[[ $lean == *"(from function \`g' in file "*"bats-trap.bats, line 18,"* ]] || fail "$lean"
	[[ $lean == *"(from function \`k' in file "*"bats-trap.bats, line 25,"* ]] || fail "$lean"
	[ "$(grep -c '^not ok' <<<"$lean")" -eq 9 ] || fail "$lean"
}

@test "bats/run.bash: run without a fork, and the same results as bats' own run" {
	[ "${BATS_VERSION:-}" = 1.8.2 ] || skip "bats/run.bash is for bats 1.8.2 (this is ${BATS_VERSION:-unknown})"
	[ -f "$top/build/spawn.so" ] || skip "no build/spawn.so (Debian's bash-builtins is missing)"
	# The command's parent is this test's shell: no subshell between.
	run sh -c 'echo "$PPID"'
	[ "$output" = "$BASHPID" ] || fail "run forked: the parent is $output, the test is $BASHPID"
	f=$top/tests/fixtures/bats-run.bats
	d=$BATS_TEST_TMPDIR
	for how in spawn:: bats-run:1: bats-both:1:1; do
		IFS=: read -r name r t <<<"$how"
		env -i PATH=/usr/local/bin:/usr/bin:/bin LC_ALL=C RUN_LOG="$d/$name.log" \
			PMTOOLS_BATS_RUN="$r" PMTOOLS_BATS_TRAP="$t" "$BATS_ROOT/bin/bats" "$f" >"$d/$name.tap" 2>&1 ||
			[ $? -eq 1 ] # three tests fail on purpose
		# What differs by nature: the test's folder, and where bats'
		# warning says run is.
		sed -i 's|/tmp/bats-run-[A-Za-z0-9]*/|TMP/|g' "$d/$name.log"
		sed -i "/(from function \`run' in file /d" "$d/$name.tap"
	done
	for name in bats-run bats-both; do
		diff "$d/spawn.tap" "$d/$name.tap" >&2 || fail "the reports differ ($name)"
		diff "$d/spawn.log" "$d/$name.log" >&2 || fail "run's variables differ ($name)"
	done
	[ "$(grep -c '^not ok' "$d/spawn.tap")" -eq 3 ] || fail "$(<"$d/spawn.tap")"
	[ "$(grep -c '^== ' "$d/spawn.log")" -eq 20 ] || fail "$(grep '^== ' "$d/spawn.log")"
}

# What xrun, xout and the spawning builtins answer, one line each: the
# same with spawn.so as with the forks they stand for.
spawn_api() {
	local v rc
	printf 'count %s\n' "$(grep -c x <<<$'x\ny\nx')"
	grep -q z <<<x && echo "grep found z" || echo "grep -q: $?"
	(PATH=/nonexistent grep x /dev/null 2>/dev/null) && echo found || echo "no grep on PATH: $?"
	printf 'path %s\n' "$(type -P grep)"
	xrun sh -c 'kill -TERM $$' && echo "no signal" || echo "xrun, killed: $?"
	xrun sh -c 'exit 3' || echo "xrun: $?"
	rc=0 && xout v sh -c 'printf "out\n\n"; exit 3' || rc=$?
	echo "xout: [$v] $rc"
	rc=0 && xout -m v ls /nonexistent || rc=$?
	echo "xout -m: [${v%%:*}] $rc"
	xout v printf '%s\n\n' builtin && echo "xout, a builtin: [$v]"
	api_fn() { printf 'function %s\n' "$1"; return 4; }
	rc=0 && xout v api_fn x || rc=$?
	echo "xout, a function: [$v] $rc"
}

@test "spawn.so's builtins, xrun and xout: what the plain shell gives, without its forks" {
	[ -f "$top/build/spawn.so" ] || skip "no build/spawn.so (Debian's bash-builtins is missing)"
	[ -z "${PMTOOLS_BATS_RUN:-}" ] || skip "PMTOOLS_BATS_RUN=1: bats' run, no spawn.so"
	# run.bash enables the builtins that spawn.c defines, all of them.
	local -a c r
	mapfile -t c < <(grep -o 'EXT([a-z]*)' "$top/tests/tools/spawn.c" | grep -v 'EXT(n)' | sed 's/EXT(\(.*\))/\1/' | sort)
	mapfile -t r < <(sed -n '/for _pm_n in/,/; do$/p' "$top/tests/cli/bats/run.bash" |
		sed 's/.*for _pm_n in//; s/; do$//; s/\\$//' | tr -s ' \t' '\n' | sed '/^$/d' | sort)
	[ "${#c[@]}" -ge 30 ] && [ "${c[*]}" = "${r[*]}" ] || fail "spawn.c: ${c[*]}; run.bash: ${r[*]}"
	[ "$(type -t grep)" = builtin ] || fail "grep is $(type -t grep)"
	[ "$(command -v grep)" = grep ]
	# The same answers here and in a shell with the plain forks.
	spawn_api >"$BATS_TEST_TMPDIR/spawn" 2>&1
	PMTOOLS_BATS_RUN=1 bash -c "top=$top _pm_bats_dir=1; source $top/tests/cli/bats/run.bash
		$(declare -f spawn_api); spawn_api" 2>&1 |
		grep -vx '.*Terminated' >"$BATS_TEST_TMPDIR/fork" # bash's word on the killed child
	diff "$BATS_TEST_TMPDIR/fork" "$BATS_TEST_TMPDIR/spawn" >&2 || fail "spawn.so answers otherwise"
	diff - "$BATS_TEST_TMPDIR/spawn" <<OUT
count 2
grep -q: 1
no grep on PATH: 127
path $(type -P grep)
xrun, killed: 143
xrun: 3
xout: [out] 3
xout -m: [ls] 2
xout, a builtin: [builtin]
xout, a function: [function x] 4
OUT
}

@test "the tests' tree copy (build/fxcopy) makes what cp -a makes, modes and links included, and refuses what it cannot copy" {
	[ -x "$fxcopy" ] || skip "no build/fxcopy (make build/fxcopy)"
	t=$BATS_TEST_TMPDIR
	fixture -v src hwp-laptop
	# A folder without write permission, an empty file, a write-only one.
	mkdir -p "$t/src/ro/sub"
	cp -a "$src/." "$t/src/"
	echo x >"$t/src/ro/sub/f"
	chmod 555 "$t/src/ro"
	: >"$t/src/empty"
	echo w >"$t/src/wo" && chmod 200 "$t/src/wo"
	ln -s ../no/such "$t/src/dangling"
	chmod 750 "$t/src"
	cp -a "$t/src/." "$t/cp/"
	"$fxcopy" "$t/src" "$t/fx"
	listing() { (cd "$1" && find . -printf '%p %y %m %s %l\n' | sort); }
	[ "$(listing "$t/fx")" = "$(listing "$t/cp")" ] ||
		fail "$(diff <(listing "$t/cp") <(listing "$t/fx") | head -n 5)"
	[ "$("$treesum" "$t/fx")" = "$("$treesum" "$t/cp")" ]
	# Into a folder that is there: its mode becomes the source's.
	mkdir -m 700 "$t/into"
	"$fxcopy" "$t/src" "$t/into"
	[ "$(listing "$t/into")" = "$(listing "$t/cp")" ]
	# A FIFO or a hard-linked file: exit 1, named.
	mkfifo "$t/src/sys/fifo"
	run --separate-stderr "$fxcopy" "$t/src" "$t/fx2"
	assert_failure 1
	[ "$stderr" = "fxcopy: $t/src/sys/fifo: not a directory, a regular file or a symbolic link" ] || fail "$stderr"
	rm "$t/src/sys/fifo"
	ln "$t/src/empty" "$t/src/sys/hard"
	run --separate-stderr "$fxcopy" "$t/src" "$t/fx3"
	assert_failure 1
	[[ $stderr == "fxcopy: $t/src/"*": a hard-linked file (a copy would not be one)" ]] || fail "$stderr"
	run "$fxcopy" "$t/src"
	assert_failure 2
}
