#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $status, $stderr come from helpers.bash and run
# -o/--output and --save onto every kind of file (issue 24 section 5): a
# regular file or a new name is replaced atomically; a symlink is followed
# and the file it names is replaced in its own folder, the link kept; a
# character or block device, a FIFO and a socket are written, never
# replaced; a folder (or a link to one) and a loop of links are refused
# with exit 2 before any work.  Every command that takes -o or --save,
# every kind of target.  Device nodes are made with mknod in the test's
# folder, never under the real /dev.

load helpers

setup() {
	load_libs
	export t=$BATS_TEST_TMPDIR bin
}

# The table (attack.bash) runs in a bash of their own.
attack() {
	run bash "$BATS_TEST_DIRNAME/attack.bash" "$@"
	grep '^#' <<<"$output" >&3 || true
	[ "$status" -eq 0 ] || fail "$output"
}

@test "-o and --save onto every kind of target, for every command that takes them" {
	cp -a "$(fixture hwp-laptop)" "$t/fx"
	mkdir -p "$t/fx/etc/pm/sleep.d" "$t/fx/var/log"
	attack output_targets
}

@test "a FIFO gets the whole document, a device its bytes, as the file would" {
	fixture -v fx hwp-laptop
	"$bin/pmctl" --sysroot "$fx" -J -o "$t/plain"
	mkfifo "$t/fifo"
	timeout 30 cat "$t/fifo" >"$t/got" &
	run "$bin/pmctl" --sysroot "$fx" -J -o "$t/fifo"
	assert_success
	wait
	cmp "$t/plain" "$t/got"
	# As a probe opens no FIFO, a setter's reader gets one document.
	fresh -v fx hwp-laptop
	timeout 30 cat "$t/fifo" >"$t/got2" &
	run "$bin/opp-set" --sysroot "$fx" -J -o "$t/fifo" -s cpufreq.governor=performance
	assert_success
	wait
	jq -e '.changed >= 1' "$t/got2"
}
