# Shared set-up for the bats tests: where the binaries are, fixture and
# dump trees in a temporary folder, and tree snapshots for "unchanged".
# shellcheck shell=bash
bats_require_minimum_version 1.5.0

# Their files directly: each library's load.bash finds them with a
# $(dirname ...), a fork and an exec per file, 15 per test in all.
load_libs() {
	local f
	if [ -f /usr/lib/bats/bats-support/src/output.bash ] &&
		[ -f /usr/lib/bats/bats-assert/src/assert.bash ]; then
		for f in /usr/lib/bats/bats-support/src/{output,error,lang}.bash \
			/usr/lib/bats/bats-assert/src/*.bash; do
			# shellcheck disable=SC1090 # the libraries' own files
			source "$f"
		done
	else
		load '/usr/lib/bats/bats-support/load'
		load '/usr/lib/bats/bats-assert/load'
	fi
}

# Sourced again for every test: no fork for what the path says already.
if [[ $BATS_TEST_DIRNAME == /*/tests/cli ]]; then
	top=${BATS_TEST_DIRNAME%/tests/cli}
else
	top="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
fi
bin="${PMTOOLS_BIN:-$top/build}"
dumps="${PMTOOLS_DUMPS:-$top/../shared/corpus/sysfs-dumps}"
# tests/cli/bats/env.bash made mkdir a builtin for bats' own folders;
# the builtin's -m leaves the mode to the umask, so the tests get mkdir(1).
enable -d mkdir 2>/dev/null || true
export PM_TEST_GUARD=1
export LC_ALL=C
unset PM_SYSROOT NO_COLOR
# The files the tests make get the modes root's usual umask gives: as
# root the tools refuse configuration that group or others may write.
umask 022

pmctl() { "$bin/pmctl" "$@"; }
cstate_stat() { "$bin/cstate-stat" "$@"; }
pm_suspend() { "$bin/pm-suspend" "$@"; }
opp_set() { "$bin/opp-set" "$@"; }

# The exhaustive loops (every write times every errno, every fixture or
# dump, every row of a table) run whole when PM_TESTS_FULL is set: CI's
# normal build (make check-all) and make check FULL=1.  make check, and
# the ASan build in CI, run a sample: one case in N, where the case's
# number I (from 0) is a multiple of N.  A cross product numbers its cases
# so that the sample still meets every value of each side (write k with
# errno j is case k + j), and each loop says how many of how many it ran.
# sampled I N: is case I in this run?
sampled() { # I N
	[ -n "${PM_TESTS_FULL:-}" ] || (($1 % $2 == 0))
}
# sample_list [-N] VAR ITEM...: VAR is the items of this run's sample,
# one in N (2), from an offset that moves with the test's number: the
# tests of a file that loop over the same machines meet all of them
# together.
sample_list() { # [-N] VAR ITEM...
	local _sl_n=2
	[[ $1 != -[0-9]* ]] || { _sl_n=${1#-}; shift; }
	local -n _sl_out=$1
	local _sl_name=$1
	local _sl_i
	shift
	_sl_out=()
	for ((_sl_i = 1; _sl_i <= $#; _sl_i++)); do
		sampled $((_sl_i + BATS_TEST_NUMBER)) "$_sl_n" && _sl_out+=("${!_sl_i}")
	done
	sample_note "${#_sl_out[@]}" "$#" "${_sl_name//_/ }"
}
# sample_note RAN ALL WHAT: a "# " line for the TAP output when the loop
# was sampled.
sample_note() { # RAN ALL WHAT
	[ "$1" -eq "$2" ] || echo "# $3: $1 of $2 cases (a sample: PM_TESTS_FULL=1 for all)" >&3
}

# Build fixture machine NAME [mkfixture options] into DEST, a new folder.
# Under tests/run, PMTOOLS_FX_CACHE is a folder of the run that holds one
# build of each machine and option set, made by the first file that asks:
# the others get a copy (mkfixture's output is a pure function of the
# description and the options, and a copy costs a twentieth of a build).
# A description given as a path (a test's own) is built every time.
mkfx() { # NAME DEST [mkfixture options]
	local name=$1 dest=$2 c=${PMTOOLS_FX_CACHE:-} k t
	shift 2
	if [ -z "$c" ] || [[ $name == */* ]]; then
		"$top/tests/fixtures/mkfixture" "$@" "$name" "$dest" >/dev/null
		return
	fi
	printf -v k '%s_' "$name" "$@"
	k=${k//[^A-Za-z0-9.-]/_}
	if [ ! -d "$c/$k" ]; then
		t=$(mktemp -d "$c/.new.XXXXXX") || return
		if ! "$top/tests/fixtures/mkfixture" "$@" "$name" "$t/fx" >/dev/null; then
			rm -rf "$t"
			return 1
		fi
		# Another file may have built it meanwhile: either is right.
		mv -T "$t/fx" "$c/$k" 2>/dev/null || true
		rm -rf "$t"
	fi
	copy_tree "$c/$k" "$dest"
}

# Copy what is in tree SRC into DEST (made when missing), as
# cp -a SRC/. DEST/ does: build/fxcopy (make check builds it) makes
# half of cp's system calls, for the 1 600 copies of a run.
fxcopy="$top/build/fxcopy"
copy_tree() { # SRC DEST
	if [ -x "$fxcopy" ]; then
		xrun "$fxcopy" "$1" "$2"
	else
		mkdir -p "$2" && cp -a "$1/." "$2/"
	fi
}

# put VAR VALUE: VALUE into VAR (as printf -v), or printed when VAR is
# empty.  A helper that takes -v VAR answers with it: VAR=$(helper ...)
# would fork the test's shell (about 6 ms).
put() {
	if [ -n "$1" ]; then printf -v "$1" '%s' "$2"; else printf '%s\n' "$2"; fi
}

# Build fixture machine NAME once per test file into $BATS_FILE_TMPDIR,
# and print its path (-v VAR: into VAR).
fixture() { # [-v VAR] NAME [mkfixture options]
	local _fx_var=
	[ "$1" != -v ] || { _fx_var=$2 && shift 2; }
	local _fx_dest="$BATS_FILE_TMPDIR/fx-$1" _fx_name=$1
	shift
	if [ ! -d "$_fx_dest" ]; then
		mkfx "$_fx_name" "$_fx_dest" "$@"
	fi
	put "$_fx_var" "$_fx_dest"
}

# Unpack real machine dump NAME once per test file.
dump() {
	local name=$1 dest="$BATS_FILE_TMPDIR/dumps"
	if [ ! -d "$dest/$name" ]; then
		mkdir -p "$dest"
		local f
		for f in "$dumps/$name".tar.*; do
			tar -xf "$f" -C "$dest"
		done
	fi
	printf '%s\n' "$dest/$name"
}

dump_names() {
	local f n
	for f in "$dumps"/*.tar.*; do
		n=${f##*/}
		printf '%s\n' "${n%%.tar.*}"
	done
}

# A listing of every file with its content hash, for "the tree is unchanged".
# The writers' lock files hold the last holder's pid: not machine state.
# build/treesum (make check builds it) does it in one process; a bats file
# run by hand without it gets the same listing from four.
treesum="$top/build/treesum"
tree_sum() {
	if [ -x "$treesum" ]; then
		xrun "$treesum" "$1"
	else
		(cd "$1" && find . -type f ! -path './run/*.lock' -print0 | sort -z |
			xargs -0 sha1sum)
	fi
}

# Every path with its type, size, modification time, mode and link
# target: any write changes it, and it costs a quarter of tree_sum (no
# file is read).
tree_stat() {
	if [ -x "$treesum" ]; then
		xrun "$treesum" --stat "$1"
	else
		(cd "$1" && find . ! -path './run/*.lock' \( -type d -printf '%p d %m\n' -o \
			-printf '%p %y %s %T@ %m %l\n' \) | sort)
	fi
}

# tree_sum (or with --stat first, tree_stat) of DIR into FILE, and "is
# DIR still as FILE says?" (exit 1 and the lines that differ on stderr
# when not): one process each where [ "$(tree_sum DIR)" = "$before" ]
# takes a subshell too.
tree_save() { # [--stat] DIR FILE
	local f=tree_sum
	[ "$1" != --stat ] || { f=tree_stat; shift; }
	"$f" "$1" >"$2"
}
tree_same() { # [--stat] DIR FILE
	local f=tree_sum o=()
	[ "$1" != --stat ] || { f=tree_stat; o=(--stat); shift; }
	if [ -x "$treesum" ]; then
		xrun "$treesum" "${o[@]}" --same "$2" "$1"
	else
		diff "$2" <("$f" "$1") >&2
	fi
}

# bats' DEBUG trap, cheaper, and its run without a fork of the shell
# (bats/trap.bash and bats/run.bash beside this file).
# shellcheck source=tests/cli/bats/trap.bash
source "${BASH_SOURCE[0]%/*}/bats/trap.bash"
# shellcheck source=tests/cli/bats/run.bash
source "${BASH_SOURCE[0]%/*}/bats/run.bash"

# bats' own DEBUG trap runs before every command of a test, in every
# function it calls (about half a millisecond a command, most of the
# cost of a loop over hundreds of cases).  bats/trap.bash keeps it to
# the test's own function, so this matters where that stand-in is off
# (PMTOOLS_BATS_TRAP=1, another bats): untraced runs FUNCTION ARG...
# without the trap.  A failure inside is reported where it happened,
# with the function's own message (source.bats checks that the trap put
# back is the one bats set).
untraced() { # FUNCTION ARG...
	local rc
	trap - DEBUG
	"$@"
	rc=$?
	trap 'bats_debug_trap "$BASH_SOURCE"' DEBUG
	return "$rc"
}

# A refusal after the arguments parsed: exit CODE, nothing on stdout, one
# line on stderr naming the tool, and the tree untouched.
# shellcheck disable=SC2154 # status, output and stderr* are set by run
refused() { # CODE TOOL FX ARG...
	local code=$1 tool=$2 fx=$3 before=$BATS_TEST_TMPDIR/refused.sum
	shift 3
	tree_save "$fx" "$before"
	run --separate-stderr "$bin/$tool" --sysroot "$fx" "$@"
	[ "$status" -eq "$code" ] || fail "exit $status, want $code; stderr: $stderr"
	[ -z "$output" ] || fail "stdout is not empty: $output"
	[ "${#stderr_lines[@]}" -ge 1 ] || fail "no message"
	[[ ${stderr_lines[0]} == "$tool: "* ]] || fail "message: ${stderr_lines[0]}"
	tree_same "$fx" "$before" || fail "the tree changed"
}

# The fault shim (tests/fault) into $so, or skip the test: not with the
# ASan build.  Called directly, not in $(...), so that skip ends the test.
fault_so() {
	[ -f "$top/build/fault.so" ] || skip "no build/fault.so (make build/fault.so)"
	case $bin in *asan*) skip "the fault shim cannot run under ASan" ;; esac
	# shellcheck disable=SC2034 # read by the calling test
	so="$top/build/fault.so"
}

# A world-readable copy of the binaries, for tests that drop to nobody
# (the checkout may sit below a folder that nobody cannot enter).
nobody_bin() {
	local d
	d=$(mktemp -d /tmp/pmtools-bin.XXXXXX)
	chmod 755 "$d"
	cp "$bin/pmctl" "$bin/cstate-stat" "$bin/pm-suspend" "$bin/opp-set" "$d/"
	chmod 755 "$d"/*
	printf '%s\n' "$d"
}

# Bad input: exit 2, nothing on stdout, the message and the Try line (one
# line each, control bytes escaped), and the tree untouched.
# shellcheck disable=SC2154 # status, output and stderr* are set by run
bad_input() { # TOOL FX ARG...
	local tool=$1 fx=$2 before=$BATS_TEST_TMPDIR/bad_input.sum
	shift 2
	tree_save "$fx" "$before"
	run --separate-stderr "$bin/$tool" --sysroot "$fx" "$@"
	[ "$status" -eq 2 ] || fail "exit $status, want 2; stderr: $stderr"
	[ -z "$output" ] || fail "stdout is not empty: $output"
	if [ "${#stderr_lines[@]}" -lt 1 ] || [ "${#stderr_lines[@]}" -gt 2 ]; then
		fail "want the message and the Try line, got ${#stderr_lines[@]} lines: $stderr"
	fi
	[[ ${stderr_lines[0]} == "$tool: "* ]] || fail "message: ${stderr_lines[0]}"
	[ "${stderr_lines[${#stderr_lines[@]} - 1]}" = "Try '$tool --help' for more information." ] ||
		fail "no Try line: $stderr"
	# (LC_ALL=C: every byte below 32, and 127)
	[[ ${stderr//$'\n'/} != *[[:cntrl:]]* ]] || fail "raw control bytes on stderr: $stderr"
	tree_same "$fx" "$before" || fail "the tree changed"
}

# A private copy of fixture NAME for a test that writes to it; -v VAR as
# fixture's.
fresh() { # [-v VAR] NAME [mkfixture options]
	local _fr_var="" _fr_src _fr_d
	[ "$1" != -v ] || { _fr_var=$2 && shift 2; }
	fixture -v _fr_src "$@"
	# A new name without mktemp's fork: the copy makes the folder.
	_fr_d=$BATS_TEST_TMPDIR/fx.$BASHPID.$RANDOM
	while [ -e "$_fr_d" ]; do _fr_d=$BATS_TEST_TMPDIR/fx.$BASHPID.$RANDOM; done
	copy_tree "$_fr_src" "$_fr_d"
	put "$_fr_var" "$_fr_d"
}

# A copy of a fixture that the nobody user can enter.
nobody_copy() { # NAME
	local d
	d=$(mktemp -d /tmp/pmtools-nobody.XXXXXX)
	chmod 755 "$d"
	copy_tree "$(fixture "$1")" "$d"
	printf '%s\n' "$d"
}

# Hold lock file FILE with flock(1) until release_lock (or release_lock_after
# SEC): returns once the lock is held, however loaded the machine, so that
# a test never depends on a holder's sleep outlasting its checks.
# shellcheck disable=SC2016 # expanded by the holder's shell
hold_lock() { # FILE
	local r="$BATS_TEST_TMPDIR/lock-release"
	rm -f "$r" "$r.held"
	flock "$1" sh -c 'touch "$1.held"; while [ ! -e "$1" ]; do sleep 0.02; done' \
		sh "$r" 3>&- &
	# shellcheck disable=SC2034 # read by the calling test
	lock_holder=$!
	while [ ! -e "$r.held" ]; do sleep 0.02; done
}
release_lock() { touch "$BATS_TEST_TMPDIR/lock-release"; }
release_lock_after() { # SEC
	(
		sleep "$1"
		release_lock
	) 3>&- &
}
