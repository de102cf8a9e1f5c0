# SPDX-License-Identifier: GPL-2.0-or-later
# What bench/pmctl and bench/opp-set share: the packages, the work folder,
# the cached server fixture of $cpus CPUs ($tree, only ever copied), fresh
# copies, the bind mount over /sys/devices/system/cpu for cpupower, and the
# measurements (median wall time, syscalls, peak RSS).  Sourced with $top,
# $runs and $cpus set.
# shellcheck disable=SC2154 # top, runs and cpus are the sourcing script's
: "${top:?}" "${runs:?}" "${cpus:?}"
need=()
command -v cpupower >/dev/null || need+=(linux-cpupower)
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v strace >/dev/null || need+=(strace)
[ -x /usr/bin/time ] || need+=(time)
if [ ${#need[@]} -gt 0 ]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
make -s -C "$top" all >/dev/null
# pmctl may write below --sysroot, never to the real root.
export PM_TEST_GUARD=1
if [ -d /dev/shm ]; then work=/dev/shm/pmtools-bench; else work="$top/build/bench"; fi
mkdir -p "$work"
# cpupower runs "modprobe msr" when /dev/cpu/N/msr is missing: no module
# is loaded on the host for a benchmark.
mkdir -p "$work/nomodprobe"
ln -sf /bin/false "$work/nomodprobe/modprobe"
PATH="$work/nomodprobe:$PATH"

# The cached tree; it is only ever copied.
tree="$work/server-$cpus"
cpu=sys/devices/system/cpu
if [ ! -e "$tree/$cpu/.pmtools-fixture" ]; then
	rm -rf "$tree"
	"$top/tests/fixtures/mkfixture" server --cpus "$cpus" "$tree" >/dev/null
	: >"$tree/$cpu/.pmtools-fixture"
fi
copies=$(mktemp -d "$work/run.XXXXXX")
trap 'rm -rf "$copies"' EXIT

# A fresh copy of the tree for one measurement.
fresh() {
	local d
	d=$(mktemp -d "$copies/tree.XXXXXX")
	cp -a "$tree/." "$d/"
	[ -e "$d/$cpu/.pmtools-fixture" ] || { echo "bench/pmctl: bad copy $d" >&2; exit 1; }
	echo "$d"
}

# Run a command with the tree over /sys/devices/system/cpu.
in_tree() {
	local tree=$1
	shift
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare -m bash -c 'mount --bind "$0/sys/devices/system/cpu" /sys/devices/system/cpu &&
		[ -e /sys/devices/system/cpu/.pmtools-fixture ] && exec "$@"' "$tree" "$@"
}

# a / b with the given decimals.
div() { awk -v a="$1" -v b="$2" -v p="${3:-2}" 'BEGIN { if (b > 0) printf "%.*f", p, a / b; else print "-" }'; }

# "met" when a / b reaches the goal g.
goal() { awk -v a="$1" -v b="$2" -v g="$3" 'BEGIN { if (b > 0 && a / b >= g) print "met"; else print "NOT met" }'; }

# Median wall time in ms of a command over $runs runs (hyperfine, warm-up 3).
median_ms() {
	local tree=$1
	shift
	in_tree "$tree" hyperfine -N -w 3 -r "$runs" --export-json /dev/stdout "$*" 2>/dev/null |
		awk -F: '/"median"/ { gsub(/[ ,]/, "", $2); printf "%.1f", $2 * 1000; exit }'
}

# The same with an untimed reset of every policy to governor $2 before
# each run (warm-ups included).
median_ms_reset() {
	local tree=$1 gov=$2
	shift 2
	in_tree "$tree" hyperfine -N -w 3 -r "$runs" --export-json /dev/stdout \
		--prepare "bash -c 'for f in \"\$1\"/$cpu/cpufreq/policy*/scaling_governor; do echo \"\$2\" >\"\$f\"; done' reset $tree $gov" \
		"$*" 2>/dev/null |
		awk -F: '/"median"/ { gsub(/[ ,]/, "", $2); printf "%.1f", $2 * 1000; exit }'
}

# Total syscalls of a command (strace -c -f).
syscalls() {
	local tree=$1 out
	shift
	out=$(mktemp)
	in_tree "$tree" strace -f -c -o "$out" "$@" >/dev/null 2>&1 || true
	awk '$NF == "total" { print $4; exit }' "$out"
	rm -f "$out"
}

# Peak RSS in kB of a command (GNU time -f %M).
peak_kb() {
	local tree=$1 out
	shift
	out=$(mktemp)
	in_tree "$tree" /usr/bin/time -f %M -o "$out" "$@" >/dev/null 2>&1 || true
	tail -n 1 "$out"
	rm -f "$out"
}


# The same with an untimed shell command PREP before each run.
median_ms_prep() {
	local tree=$1 prep=$2
	shift 2
	in_tree "$tree" hyperfine -N -w 3 -r "$runs" --export-json /dev/stdout \
		--prepare "$prep" "$*" 2>/dev/null |
		awk -F: '/"median"/ { gsub(/[ ,]/, "", $2); printf "%.1f", $2 * 1000; exit }'
}
