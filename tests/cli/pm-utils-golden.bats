#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr come from helpers.bash and run
# pm-suspend against Debian's pm-utils: the same hook folders
# (tests/pmutils/hooks.sh) give the same hooks, in the same order, with the
# same arguments as the golden file recorded from pm-utils in a private
# mount namespace (tests/pmutils/record); and, where such a namespace can be
# made here, pm-utils run live gives that golden file again.
# tests/run: not under ASan: its subject is the hooks' order and arguments against pm-utils'; pm-suspend's hook runner runs under ASan in pm-suspend-cycle.bats

load helpers

golden=$top/tests/cli/golden/pm-utils-hooks.txt

setup() {
	load_libs
	# shellcheck source=tests/pmutils/hooks.sh
	. "$top/tests/pmutils/hooks.sh"
}

section() { # SCENARIO: the golden hook lines of SCENARIO
	awk -v s="$1" '/^== / { on = ($2 == s); next } on' "$golden"
}
golden_state() { awk -v s="$1" '$1 == "==" && $2 == s { $1 = $2 = ""; sub(/^  /, ""); print }' "$golden"; }

ours() { # SCENARIO: run pm-suspend under the name pm-utils uses, on $fx
	local d name=pm-suspend
	fresh -v fx hwp-laptop
	mkdir -p "$fx/sys/class/block/nvme0n1p3"
	echo 259:3 >"$fx/sys/class/block/nvme0n1p3/dev"
	printf 'freeze mem disk\n' >"$fx/sys/power/state"
	printf 's2idle [deep]\n' >"$fx/sys/power/mem_sleep"
	if [ "$1" = fail ]; then make_hooks "$fx" fail; else make_hooks "$fx"; fi
	[ "$1" != hibernate ] || name=pm-hibernate
	[ "$1" != suspend-hybrid ] || name=pm-suspend-hybrid
	d=$BATS_TEST_TMPDIR/bin
	mkdir -p "$d"
	ln -sf "$bin/pm-suspend" "$d/$name"
	run --separate-stderr "$d/$name" --sysroot "$fx"
}

@test "the golden file has the four scenarios" {
	for s in suspend hibernate suspend-hybrid fail; do
		[ "$(section "$s" | wc -l)" -ge 7 ] || fail "$s"
	done
}

@test "the same hooks as pm-utils, in its order, with its arguments: suspend, hibernate, suspend-hybrid" {
	for s in suspend hibernate suspend-hybrid; do
		ours "$s"
		[ "$status" -eq 0 ] || fail "$s: exit $status: $stderr"
		diff <(section "$s") "$fx/run/hooks.log" || fail "$s differs from pm-utils"
		[ "$(<"$fx/sys/power/state")" = "$(golden_state "$s")" ] || fail "$s: state"
	done
}

@test "a failing hook: the same forward pass, resume pass and skipped sleep as pm-utils" {
	ours fail
	[ "$status" -eq 1 ]
	diff <(section fail) "$fx/run/hooks.log"
	[ "$(<"$fx/sys/power/state")" = "$(golden_state fail)" ]
}

@test "live: pm-utils in a private mount namespace still gives the golden file" {
	run --separate-stderr "$top/tests/pmutils/record"
	if [ "$status" -eq 77 ]; then
		echo "# SKIPPED LOUDLY: no live pm-utils comparison here: $stderr" >&3
		skip "$stderr"
	fi
	[ "$status" -eq 0 ] || fail "record: exit $status: $stderr"
	diff <(grep -v '^#' "$golden") <(grep -v '^#' <<<"$output")
}
