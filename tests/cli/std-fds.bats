#!/usr/bin/env bats
# shellcheck disable=SC2016 # command bodies are single-quoted on purpose: they expand later
# shellcheck disable=SC2154 # $bin and bats' $status, $output, $stderr come from helpers.bash and run
# A tool started with fd 0, 1 or 2 closed (some acpid and init setups do
# it) holds each with /dev/null before it opens anything (issue 24
# section 4): no file it opens later becomes its stdin, stdout or stderr,
# a hook's input or the target of a message.  Each tool, each fd.

load helpers

setup() {
	load_libs
	t=$BATS_TEST_TMPDIR
}

# Every open of the tool itself (not its children, not the dynamic
# loader's libraries, not the sanitizer's /proc reads) that got fd 0, 1
# or 2: only /dev/null may.
low_fd_opens() { # FD TOOL ARG...
	local fd=$1
	shift
	case $fd in
	0) ASAN_OPTIONS=detect_leaks=0 strace -o "$t/trace" -e trace=open,openat,openat2 "$@" <&- >/dev/null 2>&1 ;;
	1) ASAN_OPTIONS=detect_leaks=0 strace -o "$t/trace" -e trace=open,openat,openat2 "$@" >&- 2>/dev/null ;;
	2) ASAN_OPTIONS=detect_leaks=0 strace -o "$t/trace" -e trace=open,openat,openat2 "$@" 2>&- >/dev/null ;;
	esac
	grep -E '\) = [012]$' "$t/trace" |
		grep -v -E '"[^"]*(\.so[.0-9]*|ld\.so\.cache|/proc/self/[a-z]+)"' |
		grep -v '"/dev/null"' || true
}

commands=(
	"pmctl -J"
	"pmctl -J freq set --governor performance"
	"cstate-stat -J -i 0.05 -n 1 -- true"
	"pm-suspend -n deep"
	"pm-suspend s2idle"
	"opp-set -J -s cpufreq.governor=powersave"
	"opp-set -s cpufreq.governor=bogus"
)

@test "fd 0, 1 or 2 closed at the start: every tool holds it with /dev/null before anything else" {
	command -v strace >/dev/null || skip "no strace"
	local c fd a
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/var/log"
	for c in "${commands[@]}"; do
		read -r -a a <<<"$c"
		for fd in 0 1 2; do
			run low_fd_opens "$fd" "$bin/${a[0]}" --sysroot "$fx" "${a[@]:1}"
			[ -z "$output" ] || fail "$c with fd $fd closed: opened on fd $fd: $output"
			# /dev/null came first, before any other open of the tool.
			grep -v -E '"[^"]*(\.so[.0-9]*|ld\.so\.cache|/proc/self/[a-z]+)"' "$t/trace" |
				grep -m1 -q '"/dev/null".* = '"$fd"'$' ||
				fail "$c with fd $fd closed: /dev/null is not the first open: $(head -n 8 "$t/trace")"
		done
	done
}

@test "a closed stdout is still a write error, a closed stderr loses messages but nothing else" {
	fresh -v fx hwp-laptop
	# The report cannot be written: exit 1, as on the closed fd.
	run bash -c '"$1" --sysroot "$2" -J >&-' _ "$bin/pmctl" "$fx"
	[ "$status" -eq 1 ] || fail "exit $status: $output"
	[[ $output == *"write error on standard output"* ]] || fail "$output"
	# A refused write with stderr closed: the message goes nowhere,
	# least of all into a file of the tree or the writers' lock.
	before=$(tree_sum "$fx")
	run bash -c '"$1" --sysroot "$2" -s cpufreq.governor=bogus 2>&-' _ "$bin/opp-set" "$fx"
	[ "$status" -ne 0 ] || fail "exit 0"
	[ "$(tree_sum "$fx")" = "$before" ] ||
		fail "the tree changed: a message went into a file"
	! grep -rq "opp-set:" "$fx" || fail "a message in $(grep -rl "opp-set:" "$fx")"
}

@test "a command run with stdin closed reads an empty input, not a file the tool opened" {
	fresh -v fx hwp-laptop
	run bash -c '"$1" --sysroot "$2" -q -o "$3" -- sh -c "cat; echo end" <&-' _ "$bin/cstate-stat" "$fx" "$t/report"
	assert_success
	assert_output end
	run bash -c '"$1" --sysroot "$2" latency 10 -- sh -c "cat; echo end" <&-' _ "$bin/pmctl" "$fx"
	assert_success
	assert_output end
}
