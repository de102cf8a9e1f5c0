#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $output, $stderr come from helpers.bash and run
# Names from sysfs are data, not terminal commands (issue 24 section 7):
# in the tree of tests/fixtures/mkhostile.sh, a battery folder named with
# an OSC title sequence and a clear-screen, idle state names, thermal
# types, governors, profile choices, a devfreq device and an EPP holding
# escape sequences, C1 controls and bytes that are not UTF-8.  Every
# tool, in every format it offers, prints them in
# their text form (\x1b, \n), never raw; JSON keeps them whole; Prometheus
# label values stay valid UTF-8 (section 8).

load helpers

ESC=$'\e'
OSC="${ESC}]0;pwned"$'\a'
CLR="${ESC}[2J${ESC}[H"
C1=$'\xc2\x9b2J'
BAT="BAT${OSC}${CLR}"

setup_file() {
	export HOSTILE="$BATS_FILE_TMPDIR/hostile"
	"$top/tests/fixtures/mkhostile.sh" "$HOSTILE"
}

setup() {
	load_libs
}

# The bytes of each FILE are inert on a terminal: UTF-8, no control
# character but newline and tab (no ESC, BEL, DEL, no C1 such as U+009B).
# One python for many files: the file's first line names what made it.
inert() { # FILE...
	python3 - "$@" <<-'EOF'
	import sys
	bad = 0
	for path in sys.argv[1:]:
	    b = open(path, "rb").read()
	    what, _, b = b.partition(b"\n")
	    what = what.decode(errors="replace")
	    try:
	        s = b.decode("utf-8")
	    except UnicodeDecodeError as e:
	        print("%s: not UTF-8 at byte %d: %r" % (what, e.start,
	              b[max(0, e.start - 20):e.start + 20]))
	        bad = 1
	        continue
	    for i, c in enumerate(s):
	        o = ord(c)
	        if (o < 0x20 and c not in "\n\t") or 0x7f <= o <= 0x9f:
	            print("%s: control U+%04X at %d: %r" % (what, o, i,
	                  s[max(0, i - 20):i + 20]))
	            bad = 1
	            break
	sys.exit(bad)
	EOF
}

# Run a tool on the hostile tree; its stdout and stderr go to two files
# for inert (check_all).
check_run() { # WHAT TOOL ARG...
	local what=$1 tool=$2 n=0
	shift 2
	# The next free number, without find | wc's processes.
	while [ -e "$BATS_TEST_TMPDIR/o.$n" ]; do n=$((n + 1)); done
	{
		printf '%s (stdout)\n' "$what" >"$BATS_TEST_TMPDIR/o.$n"
		printf '%s (stderr)\n' "$what" >"$BATS_TEST_TMPDIR/e.$n"
		"$bin/$tool" --sysroot "$HOSTILE" "$@" </dev/null \
			>>"$BATS_TEST_TMPDIR/o.$n" 2>>"$BATS_TEST_TMPDIR/e.$n"
	} || true
}

check_all() {
	local out
	out=$(inert "$BATS_TEST_TMPDIR"/[oe].*) || fail "$out"
}

# One file holding WHAT and the contents of FILE, for inert.
as_checked() { # WHAT FILE
	local f=$BATS_TEST_TMPDIR/x.$RANDOM
	{ printf '%s\n' "$1"; cat "$2"; } >"$f"
	printf '%s\n' "$f"
}

@test "the hostile tree holds what it should (the test can fail)" {
	[ -L "$HOSTILE/sys/class/power_supply/$BAT" ]
	run ! inert "$(as_checked name "$HOSTILE/sys/devices/system/cpu/cpu0/cpuidle/state3/name")"
	run ! inert "$(as_checked type "$HOSTILE/sys/class/thermal/thermal_zone1/type")"
	run ! inert "$(as_checked model "$HOSTILE/sys/class/power_supply/$BAT/model_name")"
	run ! inert "$(as_checked C1 <(printf 'menu%s\n' "$C1"))"
}

@test "pmctl: every read command, every format: no raw control byte" {
	local c f
	for c in status freq idle cpu sleep supply thermal devfreq profile \
		device powercap domains boost smt; do
		for f in human json kv csv prom; do
			check_run "pmctl $c -F $f" pmctl "$c" -F "$f"
		done
	done
	check_all
	# The names did reach the outputs, as text.
	run "$bin/pmctl" --sysroot "$HOSTILE" status
	assert_output --partial 'BAT\x1b]0;pwned\x07\x1b[2J\x1b[H'
	assert_output --partial 'x86_pkg\x1b]0;pwned\x07temp'
	assert_output --partial 'acpi\xff\xfetz'
	assert_output --partial 'menu\xc2\x9b2J'
	assert_output --partial 'power\x1b[2J\x1b[Hsave'
	run "$bin/pmctl" --sysroot "$HOSTILE" idle
	assert_output --partial 'C6\x1b[2J\x1b[H'
	run "$bin/pmctl" --sysroot "$HOSTILE" profile
	assert_output --partial 'bal\x1b[2J\x1b[Hanced'
	run "$bin/pmctl" --sysroot "$HOSTILE" devfreq
	assert_output --partial 'gpu\x1b]0;pwned\x07'
	assert_output --partial 'simple\x1b[2J\x1b[Hondemand'
}

@test "pmctl: an error naming a hostile name is inert too" {
	check_run "idle disable" pmctl -n idle disable "C6${CLR}x"
	check_run "supply set" pmctl -n supply set "${BAT}x" --charge-stop 80
	check_run "profile" pmctl -n profile "bal${CLR}anced"
	check_run "devfreq set" pmctl -n devfreq set "gpu${OSC}" --governor x
	check_all
}

@test "cstate-stat: since boot and over intervals, every format" {
	local f
	for f in human json kv csv prom; do
		check_run "cstate-stat -F $f" cstate-stat -F "$f" --trans-table
		check_run "cstate-stat -s -F $f" cstate-stat -s -F "$f"
		check_run "cstate-stat -i -F $f" cstate-stat -i 0.02 -n 2 \
			--wakeups --power -F "$f"
	done
	check_all
	run "$bin/cstate-stat" --sysroot "$HOSTILE"
	assert_output --partial 'C6\x1b[2J\x1b[H'
}

@test "opp-set, pm-suspend and pmctl latency: what they print is inert" {
	check_run "opp-set --current" opp-set --current
	check_run "opp-set --list" opp-set --list
	check_run "opp-set --save" opp-set --save "$BATS_TEST_TMPDIR/saved.conf"
	check_run "opp-set -n" opp-set -n -s "cpufreq.governor=performance"
	check_run "opp-set -n -J" opp-set -n -J -s "cpufreq.governor=performance"
	check_run "opp-set --diff" opp-set --diff powersave
	check_run "pm-suspend --check" pm-suspend --check
	check_run "pm-suspend -n" pm-suspend -n
	# A hook named with an escape sequence, in pm-suspend's dry run.
	printf '#!/bin/sh\nexit 0\n' >"$HOSTILE/etc/pm/sleep.d/10x${CLR}"
	chmod 755 "$HOSTILE/etc/pm/sleep.d/10x${CLR}"
	check_run "pm-suspend -n, a hook" pm-suspend -n
	grep -qF '10x\x1b[2J\x1b[H suspend suspend' "$BATS_TEST_TMPDIR"/o.*
	rm "$HOSTILE/etc/pm/sleep.d/10x${CLR}"
	check_run "pmctl latency -n" pmctl -n latency 20 -- "true${CLR}"
	check_all
}

@test "JSON keeps the names whole: control bytes escaped, not lost" {
	run --separate-stderr "$bin/pmctl" --sysroot "$HOSTILE" status -J
	assert_success
	jq -e --arg b "$BAT" '.power_supply | map(.name) | index($b) != null' <<<"$output"
	jq -e --arg g "power${CLR}save" '.cpufreq.policies[0].governor == $g' <<<"$output"
	jq -e '.thermal[1].type == "acpi\ufffd\ufffdtz"' <<<"$output"
	# U+009B, a C1 control, escaped as \u009b.
	grep -qF 'menu\u009b2J' <<<"$output"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$HOSTILE" -J
	jq -e --arg n "C6${CLR}" '.cpus[0].cstates[3].name == $n' <<<"$output"
}

@test "kv stays inert and evaluates to the names' text" {
	run --separate-stderr "$bin/pmctl" --sysroot "$HOSTILE" supply -F kv
	assert_success
	v=$(eval "$output"; printf '%s' "$supply1_name")
	[ "$v" = 'BAT\x1b]0;pwned\x07\x1b[2J\x1b[H' ] || fail "got: $v"
}

@test "Prometheus: every label value valid UTF-8, and promtool agrees" {
	local f=$BATS_TEST_TMPDIR/h.prom
	run --separate-stderr "$bin/pmctl" --sysroot "$HOSTILE" status -F prom
	assert_success
	printf '%s\n' "$output" >"$f"
	promtool check metrics <"$f" || fail "$(<"$f")"
	grep -qF 'supply="BAT\\x1b]0;pwned\\x07\\x1b[2J\\x1b[H"' "$f"
	grep -qF 'model="Model\\xff\\xfe\\xc2\\x9b2J"' "$f"
	grep -qF 'type="acpi\\xff\\xfetz"' "$f"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$HOSTILE" -F prom
	assert_success
	printf '%s\n' "$output" >"$f"
	promtool check metrics <"$f" || fail "$(<"$f")"
	grep -qF 'state="C6\\x1b[2J\\x1b[H"' "$f"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$HOSTILE" -i 0.02 -n 2 -F prom
	assert_success
	printf '%s\n' "$output" >"$f"
	promtool check metrics <"$f" || fail "$(<"$f")"
}
