#!/usr/bin/env bats
# shellcheck disable=SC2016 # hook bodies are single-quoted on purpose: they expand in the hook
# shellcheck disable=SC2154 # $bin, $so, $top and bats' $status, $stderr come from helpers.bash and run
# shellcheck disable=SC2030,SC2031 # pids is set in setup and the test alike: each test is one process
# Writers at once on one tree: opp-set against opp-set, pmctl and --auto
# (/run/opp-set.lock), pm-suspend against pm-suspend (/run/pm-suspend.lock),
# a holder killed with SIGKILL, stale and hostile lock files.  No test
# trusts timing: the holder is stopped mid-work (the fault shim's PAUSE,
# or a hook that waits) until the test lets it go, and the waiters are
# seen blocked on the lock in /proc/locks before it does.  A lock that
# does not lock fails each test: the others would not be waiters, would
# change the tree the holder is half way through, or would not be exit 4.

load helpers

setup() {
	load_libs
	t=$BATS_TEST_TMPDIR
	pids=()
}

teardown() {
	local p
	# Whatever is still paused goes on, then anything left is stopped.
	rm -f "$t"/pause*
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
}

cf=sys/devices/system/cpu/cpufreq

# hwp-laptop cut to 4 CPUs: four policies of one CPU each (intel_pstate,
# governors performance and powersave, limits 400 MHz - 4.7 GHz).
fx4() {
	local d="$BATS_FILE_TMPDIR/hwp4" desc="$BATS_FILE_TMPDIR/hwp4.desc" f
	if [ ! -d "$d" ]; then
		sed -e 's/^cpus 8 /cpus 4 /' -e 's/ on=[4-7]$/ on=0/' \
			"$top/tests/fixtures/machines/hwp-laptop.desc" >"$desc"
		"$top/tests/fixtures/mkfixture" "$desc" "$d" >/dev/null
	fi
	f=$(mktemp -d "$t/fx.XXXXXX")
	cp -a "$d/." "$f/"
	printf '%s\n' "$f"
}

# Two points that set the same attributes of every policy to different
# values: after both, in either order, the tree is exactly the last one's.
points() {
	printf '[cpufreq]\ngovernor = performance\nmin = 1GHz\nmax = 4GHz\n' >"$t/a.conf"
	printf '[cpufreq]\ngovernor = powersave\nmin = 800MHz\nmax = 2GHz\n' >"$t/b.conf"
}

# alone FX FILE: the tree FX would be after `opp-set -f FILE` alone.
alone() {
	local c
	c=$(mktemp -d "$t/alone.XXXXXX")
	cp -a "$1/." "$c/"
	"$bin/opp-set" --sysroot "$c" -q -f "$2"
	tree_sum "$c"
	rm -rf "$c"
}

# The values a point sets, policy by policy, for messages.
limits() {
	local p
	for p in "$1/$cf"/policy*; do
		printf '%s %s %s %s\n' "${p##*/}" "$(<"$p/scaling_governor")" \
			"$(<"$p/scaling_min_freq")" "$(<"$p/scaling_max_freq")"
	done
}

# bg NAME CMD...: CMD in the background, its status in $t/NAME.rc and
# its stderr in $t/NAME.err.
bg() {
	local n=$1
	shift
	(
		rc=0
		"$@" >"$t/$n.out" 2>"$t/$n.err" || rc=$?
		echo "$rc" >"$t/$n.rc"
	) 3>&- &
	pids+=($!)
}

# The status of background run NAME (it must have ended).
rc() { cat "$t/$1.rc"; }

# until_file FILE: wait (20 s at most) until FILE has something in it.
until_file() {
	local i
	for i in $(seq 200); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	fail "$1 never came: the holder did not reach its pause"
}

# The processes blocked in flock(2) on FILE, from /proc/locks ("->" lines).
waiters() {
	local ino
	ino=$(stat -c %i "$1")
	grep -c -- "-> FLOCK .*:$ino " /proc/locks || true
}

# The pid holding the flock on FILE.
holder() {
	local ino
	ino=$(stat -c %i "$1")
	grep -- " FLOCK .*:$ino " /proc/locks | grep -v -- '->' | awk '{ print $5 }'
}

# until_waiters FILE N: wait (20 s at most) until N processes wait for FILE.
until_waiters() {
	local i
	for i in $(seq 200); do
		[ "$(waiters "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "want $2 processes blocked on $1, have $(waiters "$1"): $(</proc/locks)"
}

# The processes other than its holder that have FILE open: --wait=SEC
# polls with flock(LOCK_NB) on an fd it keeps, so it is not in /proc/locks.
pollers() {
	local real h
	real=$(realpath "$1")
	h=$(holder "$1")
	find /proc/[0-9]*/fd -maxdepth 1 -lname "$real" 2>/dev/null |
		cut -d/ -f3 | sort -u | grep -vx "${h:-none}" | grep -c . || true
}

# until_pollers FILE N: wait (20 s at most) until N others have FILE open.
until_pollers() {
	local i
	for i in $(seq 200); do
		[ "$(pollers "$1")" -ge "$2" ] && return 0
		sleep 0.1
	done
	fail "want $2 processes waiting for $1, have $(pollers "$1")"
}

# The fault shim for the paused holder.  It cannot run under ASan: there
# the holder is the normal build's opp-set or pmctl, and the binaries
# under test are the others.
shim_holder() {
	[ -f "$top/build/fault.so" ] || skip "no build/fault.so (make build/fault.so)"
	so=$top/build/fault.so
	hbin=$bin
	case $bin in *asan*) hbin=$top/build ;; esac
	[ -x "$hbin/opp-set" ] || skip "no $hbin/opp-set (make)"
}

# paused NAME TOOL ARG...: TOOL from $hbin in the background under the
# shim, stopped before its 2nd write below /sys until $t/pause goes:
# it holds the lock with one write made.
paused() {
	local n=$1 tool=$2
	shift 2
	rm -f "$t/pause"
	bg "$n" env PM_FAULT_WRITE='*/sys/*=PAUSE@2:write' PM_FAULT_PAUSE="$t/pause" \
		LD_PRELOAD="$so" "$hbin/$tool" "$@"
	until_file "$t/pause"
}

@test "opp-set: four more with --wait while one holds the lock mid-point: each waits its turn, all exit 0, the tree ends at one point" {
	shim_holder
	fx=$(fx4)
	points
	start=$(tree_sum "$fx")
	want_a=$(alone "$fx" "$t/a.conf")
	want_b=$(alone "$fx" "$t/b.conf")
	[ "$want_a" != "$want_b" ] && [ "$want_a" != "$start" ] && [ "$want_b" != "$start" ]
	paused h opp-set --sysroot "$fx" -f "$t/a.conf"
	lock=$fx/run/opp-set.lock
	[ "$(holder "$lock")" = "$(<"$t/pause")" ]
	mid=$(tree_sum "$fx")
	# Half way: what a writer that does not wait would find.
	[ "$mid" != "$start" ] && [ "$mid" != "$want_a" ]
	for i in 1 2 3 4; do
		f=$t/a.conf
		[ $((i % 2)) -eq 1 ] && f=$t/b.conf
		bg "w$i" "$bin/opp-set" --sysroot "$fx" --wait -f "$f"
	done
	# --wait=SEC polls rather than blocks: alive, and nothing written.
	bg p "$bin/opp-set" --sysroot "$fx" --wait=60 -f "$t/b.conf"
	until_waiters "$lock" 4
	until_pollers "$lock" 5
	[ ! -e "$t/p.rc" ] || fail "--wait=60 ended while the lock is held: $(<"$t/p.err")"
	[ "$(tree_sum "$fx")" = "$mid" ] || fail "a waiter wrote while the lock was held: $(limits "$fx")"
	rm "$t/pause"
	wait "${pids[@]}"
	for n in h w1 w2 w3 w4 p; do
		[ "$(rc "$n")" -eq 0 ] || fail "$n: exit $(rc "$n"): $(<"$t/$n.err")"
	done
	end=$(tree_sum "$fx")
	[ "$end" = "$want_a" ] || [ "$end" = "$want_b" ] || fail "a mix of the points: $(limits "$fx")"
	# Serialized: each run after the holder planned from the one before it.
	n=$(cat "$t"/w?.err "$t/p.err" | grep -c "^opp-set: at [ab]: " || true)
	m=$(cat "$t"/w?.err "$t/p.err" | grep -c "^opp-set: already at [ab]$" || true)
	[ $((n + m)) -eq 5 ] || fail "$(cat "$t"/w?.err "$t/p.err")"
}

@test "opp-set: without --wait the others are exit 4 at once and change nothing; --wait=SEC gives up with 4" {
	shim_holder
	fx=$(fx4)
	points
	want_a=$(alone "$fx" "$t/a.conf")
	paused h opp-set --sysroot "$fx" -f "$t/a.conf"
	hpid=$(<"$t/pause")
	mid=$(tree_sum "$fx")
	for i in 1 2 3; do
		bg "l$i" timeout 20 "$bin/opp-set" --sysroot "$fx" -f "$t/b.conf"
	done
	for i in 1 2 3; do wait "${pids[$i]}"; done
	for i in 1 2 3; do
		[ "$(rc "l$i")" -eq 4 ] || fail "l$i: exit $(rc "l$i"): $(<"$t/l$i.err")"
		[ "$(<"$t/l$i.err")" = "opp-set: busy: /run/opp-set.lock is held by pid $hpid opp-set (another pmctl or opp-set is writing); use --wait to wait for it" ] ||
			fail "l$i: $(<"$t/l$i.err")"
	done
	# It gives up by itself (4), not at timeout's 124: no bound on the
	# clock, which a loaded machine would break.
	run --separate-stderr timeout 120 "$bin/opp-set" --sysroot "$fx" --wait=0.5 -f "$t/b.conf"
	assert_failure 4
	[ "$(tree_sum "$fx")" = "$mid" ] || fail "a loser wrote: $(limits "$fx")"
	rm "$t/pause"
	wait "${pids[0]}"
	[ "$(rc h)" -eq 0 ] || fail "holder: $(<"$t/h.err")"
	[ "$(tree_sum "$fx")" = "$want_a" ] || fail "not at a: $(limits "$fx")"
}

@test "opp-set and pmctl setters share the writers' lock, either way round" {
	shim_holder
	fx=$(fx4)
	points
	# opp-set holds it: pmctl is exit 4, or waits and comes after.
	paused h opp-set --sysroot "$fx" -f "$t/a.conf"
	hpid=$(<"$t/pause")
	lock=$fx/run/opp-set.lock
	mid=$(tree_sum "$fx")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq set --governor powersave
	assert_failure 4
	[ "$stderr" = "pmctl: busy: /run/opp-set.lock is held by pid $hpid opp-set (another pmctl or opp-set is writing); use --wait to wait for it" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" idle governor teo
	assert_failure 4
	bg s "$bin/pmctl" --sysroot "$fx" --wait freq set --governor powersave
	until_waiters "$lock" 1
	[ "$(tree_sum "$fx")" = "$mid" ]
	rm "$t/pause"
	wait "${pids[@]}"
	[ "$(rc h)" -eq 0 ] && [ "$(rc s)" -eq 0 ] || fail "$(cat "$t/h.err" "$t/s.err")"
	# pmctl came second: its governor over a's limits, on every policy.
	[ "$(limits "$fx")" = "$(printf 'policy%s powersave 1000000 4000000\n' 0 1 2 3)" ] ||
		fail "$(limits "$fx")"

	# pmctl holds it: opp-set is exit 4, or waits and comes after.
	fx=$(fx4)
	want_b=$(alone "$fx" "$t/b.conf")
	pids=()
	paused h2 pmctl --sysroot "$fx" freq set --governor performance --max 3GHz
	hpid=$(<"$t/pause")
	mid=$(tree_sum "$fx")
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -f "$t/b.conf"
	assert_failure 4
	[ "$stderr" = "opp-set: busy: /run/opp-set.lock is held by pid $hpid pmctl (another pmctl or opp-set is writing); use --wait to wait for it" ]
	bg o "$bin/opp-set" --sysroot "$fx" --wait -f "$t/b.conf"
	until_waiters "$fx/run/opp-set.lock" 1
	[ "$(tree_sum "$fx")" = "$mid" ]
	rm "$t/pause"
	wait "${pids[@]}"
	[ "$(rc h2)" -eq 0 ] && [ "$(rc o)" -eq 0 ] || fail "$(cat "$t/h2.err" "$t/o.err")"
	[ "$(tree_sum "$fx")" = "$want_b" ] || fail "not at b: $(limits "$fx")"
}

@test "opp-set killed with SIGKILL mid-point: the kernel drops the lock, a waiter goes on, the next run takes it at once" {
	shim_holder
	fx=$(fx4)
	points
	want_b=$(alone "$fx" "$t/b.conf")
	lock=$fx/run/opp-set.lock
	paused h opp-set --sysroot "$fx" -f "$t/a.conf"
	hpid=$(<"$t/pause")
	bg w "$bin/opp-set" --sysroot "$fx" --wait -f "$t/b.conf"
	until_waiters "$lock" 1
	kill -KILL "$hpid"
	# The waiter gets the lock the moment the holder's fd is gone.
	wait "${pids[1]}"
	[ "$(rc w)" -eq 0 ] || fail "waiter: exit $(rc w): $(<"$t/w.err")"
	wait "${pids[0]}" || true
	[ "$(rc h)" -eq 137 ] || fail "holder: exit $(rc h)"
	[ "$(tree_sum "$fx")" = "$want_b" ] || fail "not at b: $(limits "$fx")"
	# Again with no one waiting: the dead holder's pid stays in the file
	# (stale), and the next run without --wait is not busy.
	paused h2 opp-set --sysroot "$fx" -f "$t/a.conf"
	hpid=$(<"$t/pause")
	kill -KILL "$hpid"
	wait "${pids[2]}" || true
	[ "$(<"$lock")" = "$hpid opp-set" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -f "$t/b.conf"
	assert_success
	[ "$(tree_sum "$fx")" = "$want_b" ] || fail "not at b: $(limits "$fx")"
	flock -n "$lock" true
}

# A hwp-laptop for pm-suspend with both hook folders, /var/log, and the
# hook 10pause, which stops the first cycle going down (once) until
# $t/pause goes, with pm-suspend's pid in $t/pause; 20rec logs each call.
sleepfx() {
	local fx
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/usr/lib/pm-utils/sleep.d" "$fx/var/log" "$fx/run"
	cat >"$fx/etc/pm/sleep.d/10pause" <<EOF
#!/bin/sh
[ "\$1" = suspend ] || exit 0
[ -e '$t/paused-once' ] && exit 0
: >'$t/paused-once'
echo "\$PPID" >'$t/pause'
while [ -e '$t/pause' ]; do sleep 0.05; done
EOF
	printf '#!/bin/sh\necho "$PPID $1 $2" >>"$PM_SYSROOT/hooks.log"\n' >"$fx/etc/pm/sleep.d/20rec"
	chmod 755 "$fx"/etc/pm/sleep.d/*
	printf '%s\n' "$fx"
}

# The calls of 20rec without their pids: whole cycles one after another?
cycles() { cut -d' ' -f2- "$1/hooks.log" | paste -sd' '; }

@test "pm-suspend: three more while one is in its hooks are exit 4 and run nothing; with --wait each cycle is whole, one after another" {
	fx=$(sleepfx)
	lock=$fx/run/pm-suspend.lock
	bg h "$bin/pm-suspend" --sysroot "$fx" s2idle
	until_file "$t/pause"
	hpid=$(<"$t/pause")
	[ "$(holder "$lock")" = "$hpid" ]
	mid=$(tree_sum "$fx")
	for i in 1 2 3; do
		bg "l$i" timeout 20 "$bin/pm-suspend" --sysroot "$fx" s2idle
	done
	for i in 1 2 3; do wait "${pids[$i]}"; done
	for i in 1 2 3; do
		[ "$(rc "l$i")" -eq 4 ] || fail "l$i: exit $(rc "l$i"): $(<"$t/l$i.err")"
		[ "$(<"$t/l$i.err")" = "pm-suspend: another sleep is in progress ($hpid pm-suspend holds /run/pm-suspend.lock); --wait waits for it" ] ||
			fail "l$i: $(<"$t/l$i.err")"
	done
	[ "$(tree_sum "$fx")" = "$mid" ] || fail "a loser changed the tree"
	for i in 1 2 3; do
		bg "w$i" "$bin/pm-suspend" --sysroot "$fx" --wait s2idle
	done
	until_waiters "$lock" 3
	[ "$(tree_sum "$fx")" = "$mid" ] || fail "a waiter changed the tree"
	[ ! -e "$fx/hooks.log" ]
	rm "$t/pause"
	wait "${pids[@]}"
	for n in h w1 w2 w3; do
		[ "$(rc "$n")" -eq 0 ] || fail "$n: exit $(rc "$n"): $(<"$t/$n.err")"
	done
	[ "$(cycles "$fx")" = "$(printf 'suspend suspend resume suspend %.0s' 1 2 3 4 | sed 's/ $//')" ] ||
		fail "cycles interleaved: $(<"$fx/hooks.log")"
	# Each cycle's two calls come from one pm-suspend.
	[ "$(awk '{ print $1 }' "$fx/hooks.log" | uniq -c | awk '{ print $1 }' | sort -u)" = 2 ] ||
		fail "$(<"$fx/hooks.log")"
}

@test "pm-suspend killed with SIGKILL in a hook: the lock goes with it, not to the hook; the next run sleeps at once" {
	fx=$(sleepfx)
	lock=$fx/run/pm-suspend.lock
	bg h "$bin/pm-suspend" --sysroot "$fx" s2idle
	until_file "$t/pause"
	hpid=$(<"$t/pause")
	bg w "$bin/pm-suspend" --sysroot "$fx" --wait --no-hooks s2idle
	until_waiters "$lock" 1
	kill -KILL "$hpid"
	wait "${pids[1]}"
	[ "$(rc w)" -eq 0 ] || fail "waiter: exit $(rc w): $(<"$t/w.err")"
	wait "${pids[0]}" || true
	[ "$(rc h)" -eq 137 ]
	# The hook lives on, paused: it holds no copy of the lock's fd.
	[ -e "$t/pause" ]
	[ -z "$(holder "$lock")" ] || fail "held by $(holder "$lock") after the holder died"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" s2idle
	assert_success
	[ "$(cycles "$fx")" = "suspend suspend resume suspend" ]
	[ "$(<"$lock")" != "$hpid pm-suspend" ]
	rm "$t/pause"
}

@test "a stale lock file blocks no one; a lock path that is a symlink is not followed" {
	fx=$(sleepfx)
	: >"$t/paused-once"
	points
	printf '99999 opp-set\n' >"$fx/run/opp-set.lock"
	printf '99999 pm-suspend\n' >"$fx/run/pm-suspend.lock"
	chown nobody "$fx"/run/*.lock
	chmod 600 "$fx"/run/*.lock
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -f "$t/b.conf"
	assert_success
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" s2idle
	assert_success
	[[ $(<"$fx/run/opp-set.lock") != 99999* ]]
	for l in opp-set pm-suspend; do
		rm "$fx/run/$l.lock"
		echo keep >"$fx/target"
		ln -s ../target "$fx/run/$l.lock"
	done
	before=$(tree_sum "$fx")
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -f "$t/a.conf"
	assert_failure 1
	[ "$stderr" = "opp-set: cannot take the lock: /run/opp-set.lock: Too many levels of symbolic links (ELOOP)" ]
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" s2idle
	assert_failure 1
	[ "$stderr" = "pm-suspend: cannot take the lock: /run/pm-suspend.lock: Too many levels of symbolic links (ELOOP)" ]
	[ "$(<"$fx/target")" = keep ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "pm-suspend's lock and the writers' lock are apart: opp-set runs while a sleep is in its hooks, and the other way round" {
	shim_holder
	fx=$(sleepfx)
	points
	# The resume hook 50pmtools-opp runs opp-set under pm-suspend: the
	# sleep's lock must not stop it.
	bg h "$bin/pm-suspend" --sysroot "$fx" s2idle
	until_file "$t/pause"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -f "$t/a.conf"
	assert_success
	rm "$t/pause"
	wait "${pids[0]}"
	[ "$(rc h)" -eq 0 ] || fail "$(<"$t/h.err")"
	pids=()
	paused o opp-set --sysroot "$fx" -f "$t/b.conf"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" --no-hooks s2idle
	assert_success
	rm "$t/pause"
	wait "${pids[0]}"
	[ "$(rc o)" -eq 0 ] || fail "$(<"$t/o.err")"
}

# hwp-laptop with the example points and "ac" (performance on AC): on AC,
# --auto picks ac; unplugged at 20 %, battery-saver.
autofx() {
	local fx
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d"
	cp "$top"/data/opp.d/*.conf "$fx/etc/pm/opp.d/"
	printf '[opp]\ninclude = performance\n[match]\nac = online\npriority = 1\n' >"$fx/etc/pm/opp.d/ac.conf"
	printf '%s\n' "$fx"
}

# unplug FX: AC offline, the battery at 20 %, discharging.
unplug() {
	local ps=$1/sys/class/power_supply full
	echo 0 >"$ps/ADP1/online"
	full=$(<"$ps/BAT0/energy_full")
	echo $((full * 20 / 100)) >"$ps/BAT0/energy_now"
	echo Discharging >"$ps/BAT0/status"
}

# The tree of a copy of FX after `opp-set ARG...` alone.
alone_name() {
	local c
	c=$(mktemp -d "$t/alone.XXXXXX")
	cp -a "$1/." "$c/"
	"$bin/opp-set" --sysroot "$c" -q "${@:2}"
	tree_sum "$c"
	rm -rf "$c"
}

@test "opp-set --auto at once (AC and battery events together): each reads the supply under the lock; the tree ends at the point the last state matches" {
	shim_holder
	fx=$(autofx)
	start=$(mktemp -d "$t/start.XXXXXX")
	cp -a "$fx/." "$start/"
	unplug "$start"
	# (--auto alone picks battery-saver there, and records it as --auto's.)
	want=$(alone_name "$start" --auto)
	# The first event's run picks ac (on AC) and is stopped mid-point.
	paused h opp-set --sysroot "$fx" --auto
	for i in 1 2; do
		bg "w$i" "$bin/opp-set" --sysroot "$fx" --auto --wait
	done
	until_waiters "$fx/run/opp-set.lock" 2
	# Now the supply changes, as the events said: runs that picked their
	# point before taking the lock would apply ac.
	unplug "$fx"
	rm "$t/pause"
	wait "${pids[@]}"
	for n in h w1 w2; do
		[ "$(rc "$n")" -eq 0 ] || fail "$n: exit $(rc "$n"): $(<"$t/$n.err")"
	done
	[ "$(<"$fx/run/pmtools/opp.current")" = battery-saver ]
	[ "$(tree_sum "$fx")" = "$want" ] || fail "$(limits "$fx")"
}

@test "the acpid AC action waits for a writer that holds the lock, then applies what the supply says now" {
	shim_holder
	fx=$(autofx)
	stubs=$t/stubs
	mkdir -p "$stubs"
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s"\n' "$t/syslog" >"$stubs/logger"
	chmod 755 "$stubs/logger"
	paused h opp-set --sysroot "$fx" --auto
	unplug "$fx"
	bg ac env PM_SYSROOT="$fx" PATH="$stubs:$bin:$PATH" \
		"$top/scripts/acpid/actions/ac.sh" 'ac_adapter ACPI0003:00 00000080 00000000'
	# Its opp-set --auto --wait=10 has the lock open, polling for it.
	until_pollers "$fx/run/opp-set.lock" 1
	[ ! -e "$t/ac.rc" ] || fail "ac.sh ended while the lock is held: $(cat "$t/ac.err" "$t/syslog")"
	rm "$t/pause"
	wait "${pids[@]}"
	[ "$(rc h)" -eq 0 ] || fail "holder: $(<"$t/h.err")"
	[ "$(rc ac)" -eq 0 ] || fail "ac.sh: exit $(rc ac): $(cat "$t/ac.err" "$t/syslog")"
	[ "$(<"$fx/run/pmtools/opp.current")" = battery-saver ]
}
