#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $dumps and bats' $stderr come from helpers.bash and run
# The options and behaviour every tool shares (CLI.md, "Shared by all four").
# tests/run: reads the corpus

load helpers

setup() {
	load_libs
}

tools=(pmctl cstate-stat pm-suspend opp-set)

@test "--help prints usage on stdout and exits 0, for every tool" {
	for t in "${tools[@]}"; do
		run --separate-stderr "$bin/$t" --help
		assert_success
		assert_output --partial "Usage: $t"
		[ -z "$stderr" ]
	done
}

@test "-h is --help" {
	for t in "${tools[@]}"; do
		run "$bin/$t" -h
		assert_success
		assert_output --partial "Usage:"
	done
}

@test "--version prints 'TOOL (pmtools) X.Y.Z'" {
	for t in "${tools[@]}"; do
		run "$bin/$t" --version
		assert_success
		assert_output --regexp "^$t \(pmtools\) [0-9]+\.[0-9]+\.[0-9]+$"
		run "$bin/$t" -V
		assert_output --regexp "^$t \(pmtools\) "
	done
}

@test "a bad long option: one message, the Try line, exit 2" {
	for t in "${tools[@]}"; do
		run --separate-stderr "$bin/$t" --no-such-option
		assert_failure 2
		[ -z "$output" ]
		[ "${stderr_lines[0]}" = "$t: unrecognized option '--no-such-option'" ]
		[ "${stderr_lines[1]}" = "Try '$t --help' for more information." ]
	done
}

@test "a bad short option: exit 2 with the Try line" {
	for t in "${tools[@]}"; do
		run --separate-stderr "$bin/$t" -Z
		assert_failure 2
		[ "${stderr_lines[0]}" = "$t: invalid option -- 'Z'" ]
		[ "${stderr_lines[1]}" = "Try '$t --help' for more information." ]
	done
}

@test "an option missing its value is exit 2" {
	run --separate-stderr "$bin/pmctl" --format
	assert_failure 2
	[ "${stderr_lines[0]}" = "pmctl: option '--format' needs a value" ]
	run --separate-stderr "$bin/cstate-stat" -c
	assert_failure 2
}

@test "a write error on stdout is exit 1 with a message" {
	for t in "${tools[@]}"; do
		run --separate-stderr "$bin/$t" --help
		run --separate-stderr bash -c "'$bin/$t' --help >/dev/full"
		assert_failure 1
		[[ "$stderr" == *"$t: write error on standard output"* ]]
	done
}

@test "a closed pipe is exit 1, not a signal death" {
	fixture -v fx server
	# Far more than a pipe buffer, so the writer sees the reader go.
	run bash -c "'$bin/cstate-stat' --sysroot '$fx' -J | head -c 10 >/dev/null; echo \${PIPESTATUS[0]}"
	assert_output 1
}

@test "an unknown --format is exit 2 naming the choices" {
	run --separate-stderr "$bin/pmctl" --format yaml
	assert_failure 2
	[[ "${stderr_lines[0]}" == *"unknown format 'yaml'"* ]]
	[[ "${stderr_lines[0]}" == *"json"* ]]
}

@test "--json and a different --format conflict" {
	run "$bin/cstate-stat" --json --format csv
	assert_failure 2
	assert_output --partial "conflicts"
	run "$bin/cstate-stat" -F csv -J
	assert_failure 2
}

@test "a format the command does not offer is exit 2" {
	run --separate-stderr "$bin/pmctl" --format csv
	assert_failure 2
	[[ "$stderr" == *"no csv output"* ]]
	run "$bin/opp-set" --list --format prom
	assert_failure 2
}

@test "--sysroot that does not exist is exit 2 naming it" {
	for t in pmctl cstate-stat; do
		run --separate-stderr "$bin/$t" --sysroot /nonexistent/root
		assert_failure 2
		[[ "$stderr" == *"/nonexistent/root"* ]]
	done
	run "$bin/pm-suspend" --check --sysroot /nonexistent/root
	assert_failure 2
}

@test "an empty --sysroot is exit 2" {
	run "$bin/pmctl" --sysroot ''
	assert_failure 2
}

@test "PM_SYSROOT does what --sysroot does; the option wins" {
	fixture -v fx vm-haltpoll
	PM_SYSROOT="$fx" run "$bin/cstate-stat" -J
	assert_success
	[ "$(jq -r .cpuidle.driver <<<"$output")" = haltpoll ]
	fixture -v fx2 laptop2006
	PM_SYSROOT="$fx" run "$bin/cstate-stat" --sysroot "$fx2" -J
	[ "$(jq -r .cpuidle.driver <<<"$output")" = acpi_idle ]
}

@test "--output writes the file atomically and prints nothing" {
	fixture -v fx laptop2006
	out="$BATS_TEST_TMPDIR/report.json"
	echo old >"$out"
	run "$bin/cstate-stat" --sysroot "$fx" -J -o "$out"
	assert_success
	assert_output ""
	jq -e . "$out" >/dev/null
	# No temporary file is left behind.
	[ "$(find "$BATS_TEST_TMPDIR" -name '.report.json.*' | wc -l)" -eq 0 ]
	[ "$(stat -c %a "$out")" = 644 ]
}

@test "--output into a folder that does not exist is exit 1 naming it" {
	fixture -v fx laptop2006
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -o /nonexistent/dir/x.json -J
	assert_failure 1
	[[ "$stderr" == *"/nonexistent/dir/x.json"* ]]
}

@test "extra arguments are exit 2" {
	run "$bin/cstate-stat" extra
	assert_failure 2
	run "$bin/pmctl" status extra
	assert_failure 2
	run "$bin/pmctl" no-such-command
	assert_failure 2
	assert_output --partial "unknown command 'no-such-command'"
	run "$bin/opp-set" --list extra
	assert_failure 2
}

@test "options may come after the pmctl subcommand" {
	fixture -v fx laptop2006
	run "$bin/pmctl" freq --sysroot "$fx" -J
	assert_success
	jq -e '.policies | length == 2' <<<"$output"
}

@test "pmctl SUBCOMMAND --help is that subcommand's help" {
	run "$bin/pmctl" freq --help
	assert_success
	assert_output --partial "Usage: pmctl [options] freq"
	run "$bin/pmctl" status -h
	assert_success
	assert_output --partial "Usage: pmctl [options] status"
}

@test "the test guard is on in this suite" {
	[ "$PM_TEST_GUARD" = 1 ]
}

@test "symlinks in a sysroot cannot leave it (absolute links, .., below a folder)" {
	fx="$BATS_TEST_TMPDIR/escape"
	cp -a "$(fixture laptop2006)" "$fx"
	outside="$BATS_TEST_TMPDIR/outside"
	mkdir -p "$outside/state0"
	echo ESCAPED >"$outside/state0/name"
	s="$fx/sys/devices/system/cpu/cpu0/cpuidle"
	rm -rf "$s/state0"
	ln -s "$outside/state0" "$s/state0"
	rm -rf "$fx/sys/class/power_supply/BAT0"
	ln -s ../../../../outside "$fx/sys/class/power_supply/BAT0"
	run "$bin/cstate-stat" --sysroot "$fx" -J -c 0 --cstates
	refute_output --partial ESCAPED
	run "$bin/pmctl" --sysroot "$fx" -J
	refute_output --partial ESCAPED
	# The host's /sys through an absolute link is not the host's either.
	rm -rf "$fx/sys/devices/system/cpu/cpuidle"
	ln -s /sys/devices/system/cpu/cpuidle "$fx/sys/devices/system/cpu/cpuidle"
	run "$bin/cstate-stat" --sysroot "$fx" -J -c 0 --cstates
	[ "$(jq -r .cpuidle.driver <<<"$output")" != "$(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)" ]
}
