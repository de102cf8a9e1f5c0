# SPDX-License-Identifier: GPL-2.0-or-later
# What the bench scripts share: the packages, the work folder, the cached
# server fixtures (only ever copied or read), fresh copies, the bind mount
# over /sys/devices/system/cpu for cpupower, and the measurements:
# alternating A/B wall time (abrun, bench/abrun.bash), syscalls and forks (strace
# -c -f), instructions (valgrind --tool=callgrind) and peak RSS (GNU time).
# Sourced with $top and $runs set; with $cpus set, $tree is that fixture.
# shellcheck disable=SC2154 # top and runs are the sourcing script's
: "${top:?}" "${runs:?}"

# Debian packages the benchmarks need, installed when missing: "need_pkg
# COMMAND PACKAGE ...", then "install_needed".
need=()
need_pkg() {
	local c=$1
	shift
	command -v "$c" >/dev/null 2>&1 || need+=("$@")
}
install_needed() {
	if [ ${#need[@]} -gt 0 ]; then
		echo "bench: apt-get install ${need[*]}" >&2
		# A fresh machine may have no package lists yet: update once and retry.
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null 2>&1 || {
			apt-get update -qq >/dev/null
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
		}
	fi
	need=()
}
need_pkg cpupower linux-cpupower
need_pkg strace strace
need_pkg cc build-essential
[ -x /usr/bin/time ] || need+=(time)
install_needed
# make bench built them already; a rebuild that fails (a shared tree with
# someone's edit half done) falls back to the binaries there are.
if ! make -s -C "$top" all >/dev/null 2>&1; then
	[ -x "$top/build/pmctl" ] || { echo "bench: make all failed" >&2; exit 1; }
	echo "bench: WARNING: make all failed; measuring the binaries already in build/" >&2
fi
# The tools may write below --sysroot, never to the real root.
export PM_TEST_GUARD=1
if [ -d /dev/shm ]; then work=/dev/shm/pmtools-bench; else work="$top/build/bench"; fi
mkdir -p "$work"
# Each script's rows of the issue's table, for bench/summary.
rows="$work/rows"
mkdir -p "$rows"
# cpupower runs "modprobe msr" when /dev/cpu/N/msr is missing: no module
# is loaded on the host for a benchmark.
mkdir -p "$work/nomodprobe"
ln -sf /bin/false "$work/nomodprobe/modprobe"
PATH="$work/nomodprobe:$PATH"
cpu=sys/devices/system/cpu

# The alternating timer (bench/abrun.bash), rebuilt when its source changed.
# shellcheck source=bench/abrun.bash
. "$top/bench/abrun.bash"
abrun="$work/abrun"
if [ ! -x "$abrun" ] || [ "$top/bench/abrun.bash" -nt "$abrun" ]; then build_abrun "$abrun"; fi

# The cached server fixture of N CPUs and 8 idle states (acpi-cpufreq
# policies of 2 CPUs with stats); its path on stdout.  Only ever copied
# or read.
fixture() {
	local n=$1 t="$work/server-$1"
	if [ ! -e "$t/$cpu/.pmtools-fixture" ]; then
		rm -rf "$t"
		"$top/tests/fixtures/mkfixture" --cpus "$n" --states 8 server "$t" >/dev/null
		: >"$t/$cpu/.pmtools-fixture"
	fi
	echo "$t"
}
if [ -n "${cpus:-}" ]; then tree=$(fixture "$cpus"); fi

copies=$(mktemp -d "$work/run.XXXXXX")
trap 'rm -rf "$copies"' EXIT

# A fresh copy of the tree ($1, default $tree) for one measurement.
fresh() {
	local d src=${1:-$tree}
	d=$(mktemp -d "$copies/tree.XXXXXX")
	cp -a "$src/." "$d/"
	[ -e "$d/$cpu/.pmtools-fixture" ] || { echo "bench: bad copy $d" >&2; exit 1; }
	echo "$d"
}

# Run a command with the tree over /sys/devices/system/cpu and the tree's
# /proc/stat over /proc/stat (glibc counts the CPUs of sysconf(3) there:
# cpufreq-info analyzes that many), in a private mount namespace; the
# mount is checked by the fixture's sentinel.
in_tree() {
	local tree=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m --propagation private bash -c 'mount --bind "$0/sys/devices/system/cpu" /sys/devices/system/cpu &&
		mount --bind "$0/proc/stat" /proc/stat &&
		[ -e /sys/devices/system/cpu/.pmtools-fixture ] && exec "$@"' "$tree" "$@"
}

# a / b with the given decimals.
div() { awk -v a="$1" -v b="$2" -v p="${3:-2}" 'BEGIN { if (b > 0) printf "%.*f", p, a / b; else print "-" }'; }

# "met" when a / b reaches the goal g.
goal() { awk -v a="$1" -v b="$2" -v g="$3" 'BEGIN { if (b > 0 && a / b >= g) print "met"; else print "NOT met" }'; }

# "met" when a <= b.
at_most() { awk -v a="$1" -v b="$2" 'BEGIN { if (a != "" && b != "" && a + 0 <= b + 0) print "met"; else print "NOT met" }'; }

# Alternating timing in the tree: ab TREE [-p PREP] CMD_A... ::: CMD_B...
# ($runs runs after 3 warm-ups, the order rotating every round).  Sets
# the arrays ab_med, ab_q1, ab_q3, ab_min, ab_max, ab_fail, ab_ratio,
# ab_rq1, ab_rq3 by command index (ratio: this command over the last one,
# round by round, then the median and quartiles of those ratios).
# shellcheck disable=SC2034 # the arrays are the caller's
ab() {
	local tree=$1 i m q1 q3 mn mx f r rq1 rq3
	shift
	ab_med=() ab_q1=() ab_q3=() ab_min=() ab_max=() ab_fail=() ab_ratio=() ab_rq1=() ab_rq3=()
	while read -r i m q1 q3 mn mx f r rq1 rq3; do
		ab_med[i]=$(printf '%.1f' "$m") ab_q1[i]=$(printf '%.1f' "$q1") ab_q3[i]=$(printf '%.1f' "$q3")
		ab_min[i]=$mn ab_max[i]=$mx ab_fail[i]=$f
		ab_ratio[i]=$(printf '%.2f' "$r") ab_rq1[i]=$(printf '%.2f' "$rq1") ab_rq3[i]=$(printf '%.2f' "$rq3")
	done < <(in_tree "$tree" "$abrun" -w 3 -r "$runs" "$@")
	[ ${#ab_med[@]} -gt 0 ] || { echo "bench: abrun failed: $*" >&2; exit 1; }
	for i in "${!ab_fail[@]}"; do
		[ "${ab_fail[i]}" = 0 ] || echo "bench: WARNING: command $i of '$*' failed ${ab_fail[i]} times" >&2
	done
	return 0
}

# "median (q1-q3)" of command I of the last ab.
spread() { printf '%s ms (%s-%s)' "${ab_med[$1]}" "${ab_q1[$1]}" "${ab_q3[$1]}"; }

# Total syscalls of a command (strace -c -f).
syscalls() {
	local tree=$1 out
	shift
	out=$(mktemp)
	in_tree "$tree" strace -f -c -o "$out" "$@" >/dev/null 2>&1 || true
	awk '$NF == "total" { print $4; exit }' "$out"
	rm -f "$out"
}

# Peak RSS in kB of a command (GNU time -v, "Maximum resident set size").
peak_kb() {
	local tree=$1 out
	shift
	out=$(mktemp)
	in_tree "$tree" /usr/bin/time -v -o "$out" "$@" >/dev/null 2>&1 || true
	awk -F': ' '/Maximum resident set size/ { print $2 }' "$out"
	rm -f "$out"
}

# Instructions executed (callgrind's total Ir) of a command, children
# included: deterministic, unlike the wall time.
instr() {
	local tree=$1 out
	shift
	out=$(mktemp -d)
	in_tree "$tree" valgrind --tool=callgrind --trace-children=yes -q \
		--callgrind-out-file="$out/cg.%p" "$@" >/dev/null 2>&1 || true
	cat "$out"/cg.* 2>/dev/null | awk '/^summary:/ { s += $2 } END { print s + 0 }'
	rm -rf "$out"
}

# cpufrequtils' cpufreq-info, unpacked (never installed: the package's
# init scripts set governors and load modules on the host at install and
# boot).  Sets the array cpufreq_info to the command line that runs it.
# shellcheck disable=SC2034 # cpufreq_info is the caller's
cpufreq_info=()
# shellcheck disable=SC2034 # cpufreq_info is the caller's
use_cpufrequtils() {
	local d="$work/cpufrequtils" deb ldso
	if [ ! -x "$d/usr/bin/cpufreq-info" ]; then
		rm -rf "$d" "$work/debs"
		mkdir -p "$d" "$work/debs"
		(cd "$work/debs" && { apt-get download -qq cpufrequtils libcpufreq0 >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null && apt-get download -qq cpufrequtils libcpufreq0 >/dev/null 2>&1; }; }) ||
			{ echo "bench: cannot download cpufrequtils" >&2; return 1; }
		for deb in "$work"/debs/*.deb; do dpkg-deb -x "$deb" "$d"; done
	fi
	ldso=$(find /lib64 /lib/x86_64-linux-gnu /lib -maxdepth 1 -name 'ld-linux*.so.*' 2>/dev/null | head -n 1)
	[ -n "$ldso" ] || { echo "bench: no dynamic loader found" >&2; return 1; }
	cpufreq_info=("$ldso" --library-path "$d/usr/lib" "$d/usr/bin/cpufreq-info")
}
