#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $so, $top, $fault_* and bats' $status, $stderr come from helpers.bash, the fault suite and run
# shellcheck disable=SC2016 # scripts and commands are single-quoted on purpose: they expand later
# shellcheck disable=SC2030,SC2031 # each test is one process: what paused sets is the test's
# Signals in the middle of a write (issue 24): the fault shim's PAUSE
# stops a setter at its Kth write below /sys, the test sends it a signal
# there and lets it go (the loops over every write are
# tests/fault/signal-loop, a plain script: bats is slow at loops).
#  - SIGINT, SIGTERM, SIGHUP, SIGQUIT at every write of a point across
#    every section (opp-set) and of every pmctl setter: the writes stop,
#    are rolled back, one line says so, exit 1, the tree byte-identical;
#    a signal during the rollback does not stop it;
#  - SIGKILL at every write, then the next run (pmctl recover, or the
#    point again): the tree byte-identical to before, or to the whole
#    point; the journal it reads, one that does not parse, one of an
#    earlier boot;
#  - a report that cannot be written: before the writes, nothing
#    changed; after them, the changes kept and said, the point recorded.
# Bounded for CI: PM_SIGNALS_MAX write positions of each run (default
# 6), spread from the first write to the last, one signal at each in
# turn; the SIGKILL loop over the pmctl setters is skipped.
# PM_SIGNALS_FULL=1 (make check-signals) tries every write position:
# SIGTERM at each and the other three in turn (each at every third
# write), SIGKILL at each for every setter; PM_SIGNALS_ALL=1 sends all
# four signals at every position tried.

load helpers
load ../fault/suite

setup() {
	load_libs
	fault_setup
	t=$BATS_TEST_TMPDIR
	bgpid=
	# A pause without a fork: read(1) on a FIFO no one writes.
	mkfifo "$t/never"
	exec 5<>"$t/never"
	# The kernel shows mem_sleep as a choice, "s2idle [deep]", whatever
	# was written: a rollback reads it back so.  The shim makes the
	# fixture's plain file do the same after each write.
	printf '%s\n' '#!/bin/sh' \
		'l=; for w in s2idle deep; do if [ "$w" = "$PM_FAULT_VALUE" ]; then l="$l [$w]"; else l="$l $w"; fi; done' \
		'echo "${l# }" >"$PM_FAULT_PATH"' >"$t/mem_sleep"
	chmod +x "$t/mem_sleep"
	export PM_FAULT_AFTER="*/sys/power/mem_sleep" PM_FAULT_AFTER_CMD="$t/mem_sleep"
}

# A hundredth of a second.
tick() { read -r -t 0.01 -u 5 || true; }

teardown() {
	rm -f "${fault_tmp:?}"/pause
	if [ -n "$bgpid" ]; then
		kill -KILL "$bgpid" 2>/dev/null || true
		wait "$bgpid" 2>/dev/null || true
	fi
	exec 5<&-
	fault_teardown
}

cpu=/sys/devices/system/cpu
cf=$cpu/cpufreq
dev=/sys/devices/pci0000:00
journal=/run/pmtools/journal

# prepare TOOL ARG...: a clean run of TOOL on a copy of $fx gives the
# writes ($writes, $n) and the tree it leaves ($ref, its listing in
# $ref.sum); $orig is $fx as it is (its listing in $orig.sum).
prepare() {
	local tool=$1
	shift
	orig=$(mktemp -d "$fault_tmp/orig.XXXXXX")
	ref=$(mktemp -d "$fault_tmp/ref.XXXXXX")
	cp -a "$fx/." "$orig/"
	cp -a "$fx/." "$ref/"
	mapfile -t writes < <(fault_writes "$ref" "$tool" "$@")
	n=${#writes[@]}
	[ "$n" -ge 1 ] || fail "$tool $*: no write in a clean run"
	tree_save "$orig" "$orig.sum"
	tree_save "$ref" "$ref.sum"
}

# paused K SIG TOOL ARG...: TOOL on $fx, with every signal's default
# action (bash starts a background job with SIGINT and SIGQUIT ignored),
# stopped by the shim before its Kth write below /sys, sent SIG there,
# then let go (the write goes through, unless SIG is KILL).  Its status
# in $st, its pid in $spid.
paused() {
	local k=$1 sig=$2 tool=$3 pf=$fault_tmp/pause i
	shift 3
	rm -f "$pf"
	env --default-signal PM_FAULT_WRITE="*/sys/*=PAUSE@$k:write${extra_rule:-}" \
		PM_FAULT_PAUSE="$pf" LD_PRELOAD="$so" "$bin/$tool" --sysroot "$fx" "$@" \
		>"$fault_tmp/out" 2>"$fault_tmp/err" 3>&- &
	spid=$!
	for ((i = 0; i < 3000; i++)); do
		[ -s "$pf" ] && break
		kill -0 "$spid" 2>/dev/null || break
		tick
	done
	if [ ! -s "$pf" ]; then
		wait "$spid" || true
		fail "$tool $* never reached write $k: $(<"$fault_tmp/err")"
	fi
	kill -s "$sig" "$spid"
	rm -f "$pf"
	st=0
	wait "$spid" || st=$?
}

# same_as TREE: is $fx byte-identical to TREE ($orig or $ref)?
same_as() { tree_same "$fx" "$1.sum"; }

# Back to $orig after a scenario.
reset_fx() {
	fault_reset "$fx" "$orig" "${writes[@]}"
}

# loop MODE FX TOOL ARG...: tests/fault/signal-loop (a signal at each
# write position tried; see there), its copies on tmpfs.  $max_pos: the
# positions tried unless PM_SIGNALS_FULL=1 (0: every write); make
# check's sample (no PM_TESTS_FULL) tries 3 of them.
loop() {
	local max=${max_pos:-${PM_SIGNALS_MAX:-6}}
	[ -n "${PM_TESTS_FULL:-}" ] || [ -n "${max_pos:-}${PM_SIGNALS_MAX:-}" ] || max=3
	[ -z "${PM_SIGNALS_FULL:-}" ] || max=0
	run --separate-stderr env TMPDIR="$fault_tmp" FAULT_SO="$so" \
		SIGNAL_MAX="$max" "$top/tests/fault/signal-loop" "$@"
	echo "# ${*:3}: ${output##*$'\n'}" >&3
	[ "$status" -eq 0 ] || fail "$output$stderr"
}

@test "opp-set, a point across every section: a stop signal at 6 writes (3 in a sample; every write: PM_SIGNALS_FULL=1) is rolled back, said in one line, exit 1" {
	fault_so
	loop stop "$(opp_fixture)" opp-set full
}

@test "opp-set: SIGKILL at 6 writes (3 in a sample; every write: PM_SIGNALS_FULL=1), then pmctl recover (the tree as before) or the point again (the whole point)" {
	fault_so
	loop kill "$(opp_fixture)" opp-set full
}

@test "opp-set: SIGKILL while the journal is being made: nothing to undo, nothing left" {
	fault_so
	fx=$(opp_fixture)
	prepare opp-set full
	extra_rule=";*/run/pmtools/journal.new=PAUSE@1:write" paused 99 KILL opp-set full
	[ "$st" -eq 137 ]
	[ -e "$fx/run/pmtools/journal.new" ] && [ ! -e "$fx$journal" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover
	assert_success
	[ -z "$stderr" ]
	same_as "$orig" || fail "not as before"
}

@test "a signal during the rollback does not stop it; SIGKILL during it is finished by the next run" {
	fault_so
	fx=$(opp_fixture)
	prepare opp-set full
	pf=$fault_tmp/pause
	for sig in INT KILL; do
		# The shim stops write 5, then the first write after it: the
		# first of the rollback.
		rm -f "$pf"
		env --default-signal PM_FAULT_WRITE="*/sys/*=PAUSE@5:write;*/sys/*=PAUSE@5:write" \
			PM_FAULT_PAUSE="$pf" LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" full \
			2>"$t/err" 3>&- &
		bgpid=$!
		until [ -s "$pf" ]; do tick; done
		kill -TERM "$bgpid"
		rm "$pf"
		until [ -s "$pf" ]; do tick; done
		# Write 6 is the rollback's first: write 5's file put back.
		grep -q . "$fx$journal"
		kill -s "$sig" "$bgpid"
		rm "$pf"
		st=0
		wait "$bgpid" || st=$?
		bgpid=
		if [ "$sig" = INT ]; then
			[ "$st" -eq 1 ] || fail "exit $st: $(<"$t/err")"
			[ "$(<"$t/err")" = "opp-set: stopped by SIGTERM: restored the 5 earlier writes: nothing was changed" ] ||
				fail "$(<"$t/err")"
		else
			[ "$st" -eq 137 ]
			run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover
			assert_success
			# Killed before the rollback's first write: 5 left.
			[[ $stderr == "pmctl: opp-set (pid "*") died mid-apply: restored the 5 files it had changed ($journal)" ]] ||
				fail "$stderr"
		fi
		same_as "$orig" || fail "SIG$sig in the rollback: the tree changed"
	done
}

@test "a signal ignored when the setter started (nohup) stays ignored: the point is applied whole" {
	fault_so
	fx=$(opp_fixture)
	prepare opp-set full
	pf=$fault_tmp/pause
	env --default-signal --ignore-signal=HUP PM_FAULT_WRITE="*/sys/*=PAUSE@3:write" \
		PM_FAULT_PAUSE="$pf" LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" -q full 3>&- &
	bgpid=$!
	until [ -s "$pf" ]; do tick; done
	kill -HUP "$bgpid"
	rm "$pf"
	wait "$bgpid"
	bgpid=
	same_as "$ref" || fail "not the whole point"
}

@test "before the first write a signal acts as usual: waiting for the lock, SIGTERM ends opp-set, nothing written, no journal" {
	command -v flock >/dev/null || skip "flock(1) is missing"
	fx=$(opp_fixture)
	before=$(tree_sum "$fx")
	lock=$fx/run/opp-set.lock
	mkdir -p "$fx/run"
	hold_lock "$lock"
	env --default-signal "$bin/opp-set" --sysroot "$fx" --wait full 2>"$t/err" 3>&- &
	w=$!
	ino=$(stat -c %i "$lock")
	# Blocked in flock(2): a "->" line of /proc/locks.
	until grep -q -- "-> FLOCK .*:$ino " /proc/locks; do sleep 0.02; done
	kill -TERM "$w"
	st=0
	wait "$w" || st=$?
	[ "$st" -eq 143 ] || fail "exit $st: $(<"$t/err")"
	[ ! -s "$t/err" ]
	release_lock
	wait "$lock_holder"
	[ "$(tree_sum "$fx")" = "$before" ]
	[ ! -e "$fx$journal" ]
}

# pmctl's setters on the 4-CPU fixture: one line each, the arguments
# after "pmctl --sysroot FX".
pmctl_setters=(
	"freq set --governor powersave --min 1.2GHz --max 3GHz --epp power"
	"boost off"
	"idle disable C8 C10"
	"idle limit 100"
	"idle governor teo"
	"cpu offline 1-3"
	"smt off"
	"profile low-power"
	"supply set BAT0 --charge-start 40 --charge-stop 70"
	"device set $dev/0000:00:14.3 $dev/0000:00:14.0/usb1 --runtime auto --wakeup enabled"
)

@test "every pmctl setter (half in a sample): a stop signal at up to 6 writes (3 in a sample; every write: PM_SIGNALS_FULL=1) is rolled back, said in one line, exit 1" {
	fault_so
	local line
	local -a args pmctl_setters_run
	sample_list pmctl_setters_run "${pmctl_setters[@]}"
	for line in "${pmctl_setters_run[@]}"; do
		read -ra args <<<"$line"
		loop stop "$(fault_fresh)" pmctl "${args[@]}"
	done
	fx=$(mktemp -d "$fault_tmp/arm.XXXXXX")
	cp -a "$(fixture arm-biglittle)/." "$fx/"
	loop stop "$fx" pmctl devfreq set ff9a0000.gpu --governor powersave --min 200MHz --max 400MHz
}

@test "every pmctl setter: SIGKILL at every write, then pmctl recover or the setter again (PM_SIGNALS_FULL=1 only)" {
	[ -n "${PM_SIGNALS_FULL:-}" ] || skip "make check-signals runs it"
	fault_so
	local line
	local -a args
	for line in "${pmctl_setters[@]}"; do
		read -ra args <<<"$line"
		loop kill "$(fault_fresh)" pmctl "${args[@]}"
	done
}

@test "pmctl setters: SIGKILL at the middle write, then any setter restores the journal first" {
	fault_so
	local line k gov
	local -a args
	for line in "freq set --governor powersave --min 1.2GHz --max 3GHz" "idle limit 100" "cpu offline 1-3"; do
		read -ra args <<<"$line"
		fx=$(fault_fresh)
		prepare pmctl "${args[@]}"
		k=$(((n + 1) / 2))
		paused "$k" KILL pmctl "${args[@]}"
		[ "$st" -eq 137 ]
		# A setter with nothing to change of its own.
		gov=$(<"$fx$cpu/cpuidle/current_governor")
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" idle governor "$gov"
		assert_success
		[[ $stderr == "pmctl: pmctl (pid $spid) died mid-apply: restored the $((k - 1)) file"*" it had changed ($journal)" ]] ||
			fail "$line: $stderr"
		same_as "$orig" || fail "$line: not as before"
	done
	# -q: the recovery is not said.
	paused 2 KILL pmctl freq set --max 3GHz
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -q idle governor "$gov"
	assert_success
	[ -z "$stderr" ]
	same_as "$orig"
}

# The kernel's online list as the cpuN/online files say after a killed
# writer: writing them updates it on a machine, not in a fixture, where
# a CPU whose file reads 1 but is not listed looks like one that failed
# to come up (which the setters refuse to "bring online").
sync_online() { # FX
	local f c list=0
	for f in "$1"/sys/devices/system/cpu/cpu[0-9]*/online; do
		c=${f%/online}
		c=${c##*/cpu}
		[ "$c" != 0 ] && [ "$(<"$f")" = 1 ] && list+=",$c"
	done
	echo "$list" >"$1/sys/devices/system/cpu/online"
}

# ------------------------------------------------------------- the journal

@test "the journal: written before the first write, synced, 0600, with the writer, the boot id and the old values" {
	fault_so
	fx=$(opp_fixture)
	mkdir -p "$fx/proc/sys/kernel/random"
	echo 0e1f9c7a-8b4d-4f0e-9a51-2c6d3b7e8f10 >"$fx/proc/sys/kernel/random/boot_id"
	prepare opp-set full
	log=$fault_tmp/log
	PM_FAULT_LOG=$log PM_FAULT_PAUSE=$fault_tmp/pause PM_FAULT_WRITE="*/sys/*=PAUSE@3:write" LD_PRELOAD=$so \
		"$bin/opp-set" --sysroot "$fx" full 2>/dev/null 3>&- &
	bgpid=$!
	until [ -s "$fault_tmp/pause" ]; do tick; done
	[ "$(stat -c %a "$fx$journal")" = 600 ]
	mapfile -t j <"$fx$journal"
	[ "${j[0]}" = "pmtools-journal 1" ]
	[ "${j[1]}" = "pid $bgpid" ]
	[ "${j[2]}" = "tool opp-set" ]
	[ "${j[3]}" = "boot 0e1f9c7a-8b4d-4f0e-9a51-2c6d3b7e8f10" ]
	[[ ${j[4]} =~ ^time\ [0-9]+$ ]]
	[ "${j[-1]}" = "end $((${#j[@]} - 6))" ]
	# Written again for the second stage: the first stage's writes (the
	# status switch, cpu3 online), after the snapshot of what the switch
	# resets, then the rest; the choice file by its bracketed word.
	for r in "s $cf/policy0/scaling_governor performance" "w $cpu/intel_pstate/status active" \
		"w $cpu/cpu3/online 0" "w $cf/policy3/scaling_governor performance" "c /sys/power/mem_sleep s2idle"; do
		grep -qFx "$r" "$fx$journal" || fail "no '$r' in $(<"$fx$journal")"
	done
	[ "$(grep -c '^[wcsu] ' "$fx$journal")" -eq $((${#j[@]} - 6)) ]
	kill -9 "$bgpid"
	rm "$fault_tmp/pause"
	wait "$bgpid" || true
	bgpid=
	sync_online "$fx"
	# The first /sys write comes after the journal is in place.
	first=$(grep -n "	$fx/sys/" "$log" | head -n 1 | cut -d: -f1)
	jn=$(grep -n "	$fx/run/pmtools/journal.new	" "$log" | head -n 1 | cut -d: -f1)
	[ -n "$jn" ] && [ "$jn" -lt "$first" ]
	# A cut journal is not restored: named, nothing written, exit 1.
	sed -i '$d' "$fx$journal"
	mid=$(tree_sum "$fx")
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" full
	assert_failure 1
	[ "$stderr" = "opp-set: $journal: line ${#j[@]}: no 'end N': the journal is cut short: it is not restored, and nothing is written while it is there (remove it once the files it names are checked); nothing was changed" ] ||
		fail "$stderr"
	[ "$(tree_sum "$fx")" = "$mid" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" idle governor teo
	assert_failure 1
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover
	assert_failure 1
	[ "$(tree_sum "$fx")" = "$mid" ]
	# A dry run takes no lock and reads no journal.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n full
	assert_success
}

@test "a journal from an earlier boot is removed, not restored; the next run goes on" {
	fault_so
	fx=$(opp_fixture)
	mkdir -p "$fx/proc/sys/kernel/random"
	echo 0e1f9c7a-8b4d-4f0e-9a51-2c6d3b7e8f10 >"$fx/proc/sys/kernel/random/boot_id"
	prepare opp-set full
	paused 9 KILL opp-set full
	sync_online "$fx"
	echo 5b5b5b5b-8b4d-4f0e-9a51-2c6d3b7e8f10 >"$fx/proc/sys/kernel/random/boot_id"
	mid=$(tree_sum "$fx")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover -n -J
	assert_success
	[ "$(jq -c '[.found, .earlier_boot, .changed, .pid]' <<<"$output")" = "[true,true,0,$spid]" ]
	[ "$(tree_sum "$fx")" = "$mid" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" full
	assert_success
	[ "${stderr_lines[0]}" = "opp-set: $journal: left by opp-set (pid $spid) in an earlier boot: not restored, the kernel started afresh; removed" ]
	[ ! -e "$fx$journal" ]
}

@test "pmctl recover: -n prints what it would write; -J reports each file; no journal is exit 0" {
	fault_so
	fx=$(opp_fixture)
	prepare opp-set full
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover
	assert_success
	[ -z "$output$stderr" ]
	paused 4 KILL opp-set full
	mid=$(tree_sum "$fx")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover -n
	assert_success
	[ "${#lines[@]}" -eq 3 ] || fail "${#lines[@]} lines: $output"
	[ "${lines[0]}" = "${writes[2]%%$'\t'*} = $(cat "$orig${writes[2]%%$'\t'*}")" ]
	[ "$stderr" = "pmctl: opp-set (pid $spid) died mid-apply: 3 files would be restored ($journal)" ]
	[ "$(tree_sum "$fx")" = "$mid" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover -J -v
	assert_success
	[ "$(jq -c '[.found, .changed, .restored, .not_restored, .tool]' <<<"$output")" = '[true,3,3,0,"opp-set"]' ]
	[ "$(jq -r '[.files[] | select(.changed)][0].path' <<<"$output")" = "${writes[2]%%$'\t'*}" ]
	[ "${#stderr_lines[@]}" -eq 4 ]
	same_as "$orig"
}

# ------------------------------------------------------------- the report

@test "a report that cannot be written: found before the writes (stdout closed, /dev/full), nothing changed" {
	fx=$(opp_fixture)
	before=$(tree_sum "$fx")
	run --separate-stderr bash -c '"$0" --sysroot "$1" -J full >/dev/full' "$bin/opp-set" "$fx"
	assert_failure 1
	[ "$stderr" = "opp-set: cannot write the report to standard output: No space left on device (ENOSPC); nothing was changed" ]
	run --separate-stderr bash -c '"$0" --sysroot "$1" -F kv idle disable C8 >/dev/full' "$bin/pmctl" "$fx"
	assert_failure 1
	[ "$stderr" = "pmctl: cannot write the report to standard output: No space left on device (ENOSPC); nothing was changed" ]
	run --separate-stderr bash -c '"$0" --sysroot "$1" -J full >&-' "$bin/opp-set" "$fx"
	assert_failure 1
	[ "$stderr" = "opp-set: cannot write the report to standard output: Bad file descriptor (EBADF); nothing was changed" ]
	[ "$(tree_sum "$fx")" = "$before" ]
	# Human output of a real write prints nothing: /dev/full is no matter.
	run --separate-stderr bash -c '"$0" --sysroot "$1" -q full >/dev/full' "$bin/opp-set" "$fx"
	assert_success
}

@test "a report that fails after the writes (the reader gone, the -o folder gone): exit 1, the changes said kept, the point recorded" {
	fault_so
	fx=$(opp_fixture)
	prepare opp-set full
	pf=$fault_tmp/pause
	mkfifo "$t/fifo"
	env PM_FAULT_WRITE="*/sys/*=PAUSE@$n:write" PM_FAULT_PAUSE="$pf" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$fx" -J full >"$t/fifo" 2>"$t/err" 3>&- &
	bgpid=$!
	exec 4<"$t/fifo"
	until [ -s "$pf" ]; do tick; done
	exec 4<&-
	rm "$pf"
	st=0
	wait "$bgpid" || st=$?
	bgpid=
	[ "$st" -eq 1 ] || fail "exit $st: $(<"$t/err")"
	[ "$(<"$t/err")" = "opp-set: cannot write the report to standard output: Broken pipe (EPIPE); $n changes were made and kept" ] ||
		fail "$(<"$t/err")"
	same_as "$ref" || fail "not the whole point"
	[ "$(<"$fx/run/pmtools/opp.current")" = full ]
	reset_fx

	# -o: checked before the writes, its folder removed during them.
	mkdir "$t/out"
	env PM_FAULT_WRITE="*/sys/*=PAUSE@2:write" PM_FAULT_PAUSE="$pf" LD_PRELOAD="$so" \
		"$bin/pmctl" --sysroot "$fx" -q -o "$t/out/r.json" -J idle limit 100 2>"$t/err" 3>&- &
	bgpid=$!
	until [ -s "$pf" ]; do tick; done
	rmdir "$t/out"
	rm "$pf"
	st=0
	wait "$bgpid" || st=$?
	bgpid=
	[ "$st" -eq 1 ] || fail "exit $st: $(<"$t/err")"
	[[ $(<"$t/err") == "pmctl: cannot write the report to $t/out/r.json: No such file or directory (ENOENT); "*" changes were made and kept" ]] ||
		fail "$(<"$t/err")"
}

@test "a report to a full disk after the writes: exit 1, the changes said kept" {
	command -v unshare >/dev/null || skip "unshare(1) is missing"
	fx=$(opp_fixture)
	mnt=$t/full
	mkdir "$mnt"
	run --separate-stderr unshare -m sh -c '
		mount -t tmpfs -o size=16k tmpfs "$1" || exit 77
		dd if=/dev/zero of="$1/fill" bs=4k 2>/dev/null
		"$2" --sysroot "$3" -o "$1/report.json" -J full' sh "$mnt" "$bin/opp-set" "$fx"
	[ "$status" -ne 77 ] || skip "cannot mount a tmpfs here"
	assert_failure 1
	[[ $stderr == "opp-set: cannot write the report to $mnt/report.json: No space left on device (ENOSPC); "*" changes were made and kept" ]] ||
		fail "$stderr"
	[ "$(<"$fx/run/pmtools/opp.current")" = full ]
}

@test "a journal as a killed writer leaves it (no shim: the ASan build runs this too) is restored by the next setter, each file read back" {
	fx=$(fault_fresh)
	before=$(tree_sum "$fx")
	mkdir -p "$fx/run/pmtools"
	# policy1's max half way through a point; a device's control after it.
	[ "$(<"$fx$dev/0000:00:14.3/power/control")" = auto ]
	echo 2000000 >"$fx$cf/policy1/scaling_max_freq"
	echo on >"$fx$dev/0000:00:14.3/power/control"
	printf '%s\n' 'pmtools-journal 1' 'pid 4242' 'tool opp-set' 'boot -' 'time 1718000000' \
		"w $cf/policy0/scaling_max_freq 4700000" "w $cf/policy1/scaling_max_freq 4700000" \
		"w $dev/0000:00:14.3/power/control auto" "c /sys/power/mem_sleep s2idle" 'end 4' >"$fx$journal"
	chmod 600 "$fx$journal"
	gov=$(<"$fx$cpu/cpuidle/current_governor")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v idle governor "$gov"
	assert_success
	[ "${stderr_lines[0]}" = "pmctl: restored $dev/0000:00:14.3/power/control: on -> auto" ] || fail "$stderr"
	[ "${stderr_lines[1]}" = "pmctl: restored $cf/policy1/scaling_max_freq: 2000000 -> 4700000" ] || fail "$stderr"
	[ "${stderr_lines[2]}" = "pmctl: opp-set (pid 4242) died mid-apply: restored the 2 files it had changed ($journal)" ] ||
		fail "$stderr"
	[ "$(tree_sum "$fx")" = "$before" ]
	# A file that cannot be put back is named; the journal goes all the
	# same, and the setter goes on (recover alone says exit 1).
	printf '%s\n' 'pmtools-journal 1' 'pid 4242' 'tool pmctl' 'boot -' 'time 1' \
		"w $cf/policy9/scaling_max_freq 1" 'end 1' >"$fx$journal"
	chmod 600 "$fx$journal"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover
	assert_failure 1
	[ "${stderr_lines[0]}" = "pmctl: could not restore $cf/policy9/scaling_max_freq to '1': No such file or directory (ENOENT)" ] ||
		fail "$stderr"
	[ "${stderr_lines[1]}" = "pmctl: pmctl (pid 4242) died mid-apply: restored 0 files, 1 could not be restored ($journal)" ] ||
		fail "$stderr"
	[ ! -e "$fx$journal" ]
	[ "$(tree_sum "$fx")" = "$before" ]
	# One that others could have written is not used.
	printf '%s\n' 'pmtools-journal 1' 'pid 4242' 'tool pmctl' 'boot -' 'time 1' \
		"w $cf/policy0/scaling_max_freq 1" 'end 1' >"$fx$journal"
	chmod 666 "$fx$journal"
	mid=$(tree_sum "$fx")
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -s cpufreq.max=3GHz
	assert_failure 1
	[ "$stderr" = "opp-set: $journal: it or its folder could be written by another user: it is not restored, and nothing is written while it is there (remove it once the files it names are checked); nothing was changed" ] ||
		fail "$stderr"
	[ "$(tree_sum "$fx")" = "$mid" ]
}
