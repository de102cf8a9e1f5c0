#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top, $dumps and bats' $output, $lines come from helpers.bash and run
# The reference checker (tests/refcheck/refcheck, Python sharing no code
# with libpm) compares every value that each read command prints as
# JSON, pmctl status, freq, idle, cpu, sleep, supply, thermal, devfreq,
# profile, device, powercap and cstate-stat since boot, with the raw
# files of every corpus dump and every fixture machine, and of this
# machine's own /sys, read live (issue 18, Proof).
# The mismatches that others' open work owns are in
# tests/refcheck/xfail.tsv, each naming its issue item.
# tests/run: not under ASan: its subject is the values, which both builds print alike; pmctl (status, --json, freq), cstate-stat in every format and opp-set --save run on every dump under ASan in dumps.bats and roundtrip.bats
# tests/run: reads the corpus

load helpers

setup_file() {
	# 30 trees of small files: on tmpfs when there is one (the 256-CPU
	# server alone is 42 000 files; mkfixture's README).
	ROOTS=$(mktemp -d /dev/shm/pmtools-refcheck.XXXXXX 2>/dev/null) ||
		ROOTS="$BATS_FILE_TMPDIR/roots"
	export ROOTS
	mkdir -p "$ROOTS"
	local m f
	for m in $("$top/tests/fixtures/mkfixture" --list); do
		mkfx "$m" "$ROOTS/$m" &
	done
	for f in "$dumps"/*.tar.*; do
		tar -xf "$f" -C "$ROOTS" &
	done
	# Names that must come out of JSON whole (escaped, not lost).
	"$top/tests/fixtures/mkhostile.sh" "$ROOTS/hostile" &
	# A battery that gives only its charge, current and voltage: the
	# capacity, the power and the time left are derived (issue 18 §6).
	derived_supply "$ROOTS/derived-supply" &
	wait
}

derived_supply() { # DEST
	mkfx hwp-laptop "$1"
	chmod -R u+w "$1"
	local b
	b=$(realpath "$1/sys/class/power_supply/BAT0")
	rm -f "$b"/capacity "$b"/power_now "$b"/energy_*
	echo 2100000 >"$b/charge_now"
	echo 3300000 >"$b/charge_full"
	echo 1234567 >"$b/current_now"
	echo Discharging >"$b/status"
}

teardown_file() {
	case $ROOTS in
	/dev/shm/pmtools-refcheck.*) rm -rf "$ROOTS" ;;
	esac
}

setup() {
	load_libs
}

@test "every read command's JSON is the raw files', on every dump and fixture" {
	local all=() roots=() i n
	for i in "$ROOTS"/*; do [ ! -d "$i" ] || all+=("$i"); done
	[ "${#all[@]}" -ge 32 ] || fail "only ${#all[@]} roots"
	for i in "${!all[@]}"; do
		sampled "$i" 3 && roots+=("${all[i]}")
	done
	n=${#roots[@]}
	sample_note "$n" "${#all[@]}" roots
	run "$top/tests/refcheck/refcheck" --bin "$bin" \
		--xfail "$top/tests/refcheck/xfail.tsv" "${roots[@]}"
	[ "$status" -eq 0 ] || fail "$output"
	[[ ${lines[${#lines[@]} - 1]} == "refcheck: $n roots, "* ]] || fail "$output"
}

@test "every read command's JSON is this machine's own /sys, read live" {
	run "$top/tests/refcheck/refcheck" --bin "$bin" /
	[ "$status" -eq 0 ] || fail "$output"
	assert_line --regexp '^refcheck: 1 roots, [1-9][0-9]* values compared, 0 mismatches'
}

# A pmctl that prints one value wrong (sed EXPR), and cstate-stat as it is.
liar() { # DIR [EXPR]
	local expr=${2-'s/"temp_mc": 52000/"temp_mc": 52001/'}
	mkdir -p "$1"
	cat >"$1/pmctl" <<-EOF
	#!/bin/bash
	set -o pipefail
	"$bin/pmctl" "\$@" | sed '$expr'
	EOF
	chmod +x "$1/pmctl"
	ln -s "$bin/cstate-stat" "$1/cstate-stat"
}

@test "the checker finds a wrong value on the live root too" {
	run "$bin/pmctl" device -J
	[[ $output == *'"control": "auto"'* ]] ||
		skip "no device under runtime PM control here"
	liar "$BATS_TEST_TMPDIR/liar" 's/"control": "auto"/"control": "Auto"/'
	run "$top/tests/refcheck/refcheck" --bin "$BATS_TEST_TMPDIR/liar" /
	[ "$status" -eq 1 ] || fail "$output"
	assert_output --regexp '/: pmctl device: \.devices\[path=[^]]*\]\.control: got "Auto", want "auto"'
}

@test "the checker finds a wrong value, and names it" {
	liar "$BATS_TEST_TMPDIR/liar"
	run "$top/tests/refcheck/refcheck" --bin "$BATS_TEST_TMPDIR/liar" \
		"$ROOTS/hwp-laptop"
	[ "$status" -eq 1 ] || fail "$output"
	assert_output --partial "hwp-laptop: pmctl thermal: .thermal[zone=0].temp_mc: got 52001, want 52000"
	assert_output --partial "hwp-laptop: pmctl status: .thermal[zone=0].temp_mc: got 52001, want 52000"
}

@test "an expected failure that matches nothing any more is an error" {
	local x=$BATS_TEST_TMPDIR/xfail.tsv
	printf 'hwp-laptop\tpmctl *\t\\.thermal.*\tissue 0 §0\tgone\n' >"$x"
	run "$top/tests/refcheck/refcheck" --bin "$bin" --xfail "$x" \
		"$ROOTS/hwp-laptop"
	[ "$status" -eq 1 ] || fail "$output"
	assert_output --partial "$x:1: passes now (issue 0 §0): remove the entry"
	# And one that matches is counted, not reported.
	liar "$BATS_TEST_TMPDIR/liar"
	run "$top/tests/refcheck/refcheck" --bin "$BATS_TEST_TMPDIR/liar" \
		--xfail "$x" "$ROOTS/hwp-laptop"
	[ "$status" -eq 0 ] || fail "$output"
	assert_output --partial "0 mismatches, 2 expected (1 entries)"
}

@test "every expected failure names an issue item" {
	local line
	while IFS= read -r line; do
		[[ -z $line || $line == "#"* ]] && continue
		IFS=$'\t' read -r -a f <<<"$line"
		[ "${#f[@]}" -eq 5 ] || fail "not 5 fields: $line"
		[[ ${f[3]} == "issue "[0-9]*" §"[0-9]* ]] || fail "no issue item: $line"
	done <"$top/tests/refcheck/xfail.tsv"
}
