#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $stderr, $lines come from helpers.bash and run
# opp-set and governor tunables ([cpufreq] GOVERNOR.TUNABLE = N): where
# the files are (global cpufreq/GOV, or policyN/GOV), a governor that
# starts in the same point, fallbacks, conservative's threshold order,
# conflicts, --save and -f, and every malformed value refused with the
# file and line.  The real kernel's side (the folder appearing, the
# defaults, a rollback that restarts a governor) is in tests/e2e (cpupm).
# tests/run: reads the corpus

load helpers

setup() {
	load_libs
}

cf=sys/devices/system/cpu/cpufreq

# A private copy of a real machine's dump.
dump_copy() { # NAME
	local d
	d=$(mktemp -d "$BATS_TEST_TMPDIR/dump.XXXXXX")
	cp -a "$(dump "$1")/." "$d/"
	printf '%s\n' "$d"
}

point() { # FILE TEXT
	printf '%b' "$2" >"$1"
}

@test "global ondemand tunables (armv7): applied, read back, a second run writes nothing" {
	d=$(dump_copy armv7)
	[ "$(<"$d/$cf/ondemand/up_threshold")" = 95 ]
	point "$BATS_TEST_TMPDIR/od.conf" '[cpufreq]\ngovernor = ondemand\nondemand.up_threshold = 80\nondemand.sampling_down_factor = 010\n'
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -f "$BATS_TEST_TMPDIR/od.conf"
	assert_success
	[ "$output" = "/sys/devices/system/cpu/cpufreq/ondemand/up_threshold = 80
/sys/devices/system/cpu/cpufreq/ondemand/sampling_down_factor = 10" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -J -f "$BATS_TEST_TMPDIR/od.conf"
	assert_success
	jq -e '.changed == 2 and ([.writes[] | .ok and .read_back == .new] | all)' <<<"$output"
	jq -e '[.writes[].old] == ["95", "1"]' <<<"$output"
	[ "$(<"$d/$cf/ondemand/up_threshold")" = 80 ]
	# 010 is written as the kernel prints it: 10.
	[ "$(<"$d/$cf/ondemand/sampling_down_factor")" = 10 ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$BATS_TEST_TMPDIR/od.conf"
	assert_success
	[ "$stderr" = "opp-set: already at od" ]
}

@test "per-policy schedutil tunables (Apple M1): each policy its own, with [cpufreq cpus=LIST]" {
	d=$(dump_copy aarch64_Apple_Icestorm-M1-Pro)
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n \
		-s cpufreq.schedutil.rate_limit_us=500 -s 'cpufreq:2-5.schedutil.rate_limit_us=2000'
	assert_success
	[ "$output" = "/sys/devices/system/cpu/cpufreq/policy0/schedutil/rate_limit_us = 500
/sys/devices/system/cpu/cpufreq/policy2/schedutil/rate_limit_us = 2000
/sys/devices/system/cpu/cpufreq/policy5/schedutil/rate_limit_us = 2000" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" \
		-s cpufreq.schedutil.rate_limit_us=500 -s 'cpufreq:2-5.schedutil.rate_limit_us=2000'
	assert_success
	[ "$(cat "$d/$cf/policy0/schedutil/rate_limit_us" "$d/$cf/policy2/schedutil/rate_limit_us" "$d/$cf/policy5/schedutil/rate_limit_us" | tr '\n' ' ')" = "500 2000 2000 " ]
}

@test "global tunables cannot differ between policies: exit 3, nothing written" {
	fresh -v d server --cpus 4
	[ -f "$d/$cf/schedutil/rate_limit_us" ]
	before=$(tree_sum "$d")
	run --separate-stderr "$bin/opp-set" --sysroot "$d" \
		-s 'cpufreq:0-1.schedutil.rate_limit_us=500' -s 'cpufreq:2-3.schedutil.rate_limit_us=900'
	[ "$status" -eq 3 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ $stderr == *"schedutil tunables are global on this machine (acpi-cpufreq)"*"900"*"500"* ]] || fail "$stderr"
	[ "$(tree_sum "$d")" = "$before" ]
	# The same value for all is one write.
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n \
		-s 'cpufreq:0-1.schedutil.rate_limit_us=500' -s 'cpufreq:2-3.schedutil.rate_limit_us=500'
	assert_success
	[ "$output" = "/sys/devices/system/cpu/cpufreq/schedutil/rate_limit_us = 500" ]
}

@test "the governor the tunables belong to: a fallback not taken is left, another governor is exit 2, none set is exit 3" {
	fresh -v d server --cpus 4
	before=$(tree_sum "$d")
	# schedutil|ondemand: schedutil is offered, so ondemand's are not for here.
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -s 'cpufreq.governor=schedutil|ondemand' \
		-s cpufreq.ondemand.up_threshold=70 -s cpufreq.schedutil.rate_limit_us=400
	assert_success
	[ "$output" = "/sys/devices/system/cpu/cpufreq/schedutil/rate_limit_us = 400" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -s cpufreq.governor=performance -s cpufreq.ondemand.up_threshold=70
	[ "$status" -eq 2 ]
	[ "$stderr" = "opp-set: -s cpufreq.ondemand.up_threshold=70: [cpufreq] ondemand.up_threshold: policy0 (cpus 0-1) gets governor performance, not ondemand" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -s cpufreq.ondemand.up_threshold=70
	[ "$status" -eq 3 ]
	[ "$stderr" = "opp-set: -s cpufreq.ondemand.up_threshold=70: [cpufreq] ondemand.up_threshold: policy0 (cpus 0-1) runs governor schedutil, not ondemand, and the point does not set governor" ]
	[ "$(tree_sum "$d")" = "$before" ]
}

@test "a governor that starts in the point: its tunables come after every governor write, read just before" {
	fresh -v d server --cpus 4
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -s cpufreq.governor=ondemand \
		-s cpufreq.ondemand.up_threshold=70
	assert_success
	[ "$output" = "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor = ondemand
/sys/devices/system/cpu/cpufreq/policy2/scaling_governor = ondemand
/sys/devices/system/cpu/cpufreq/ondemand/up_threshold = 70" ]
	# A fixture is plain files: the folder never appears.  That is the
	# failure of a governor that did not bring its tunables: rolled back.
	before=$(tree_sum "$d")
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -s cpufreq.governor=ondemand \
		-s cpufreq.ondemand.up_threshold=70
	[ "$status" -eq 1 ]
	[ "${stderr_lines[0]}" = "opp-set: /sys/devices/system/cpu/cpufreq/ondemand/up_threshold: No such file or directory (ENOENT) (a governor's tunable: the governor started, but the file did not appear)" ]
	[ "${stderr_lines[1]}" = "opp-set: restored the 2 earlier writes: nothing was changed" ]
	[ "$(tree_sum "$d")" = "$before" ]
	# The folder there (as the kernel makes it): the write lands.
	mkdir "$d/$cf/ondemand"
	echo 80 >"$d/$cf/ondemand/up_threshold"
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -J -s cpufreq.governor=ondemand \
		-s cpufreq.ondemand.up_threshold=70
	assert_success
	jq -e '.changed == 3 and .writes[2].old == "80" and .writes[2].read_back == "70"' <<<"$output"
}

@test "conservative: the window moves without down ever reaching up" {
	fresh -v d server --cpus 4
	mkdir "$d/$cf/conservative"
	echo 80 >"$d/$cf/conservative/up_threshold"
	echo 20 >"$d/$cf/conservative/down_threshold"
	for p in "$d/$cf"/policy*; do echo conservative >"$p/scaling_governor"; done
	# Down to 15/10: down_threshold first.
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -s cpufreq.conservative.up_threshold=15 \
		-s cpufreq.conservative.down_threshold=10
	assert_success
	[ "$output" = "/sys/devices/system/cpu/cpufreq/conservative/down_threshold = 10
/sys/devices/system/cpu/cpufreq/conservative/up_threshold = 15" ]
	# Up to 95/90: up_threshold first.
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -s cpufreq.conservative.up_threshold=95 \
		-s cpufreq.conservative.down_threshold=90
	assert_success
	[ "$output" = "/sys/devices/system/cpu/cpufreq/conservative/up_threshold = 95
/sys/devices/system/cpu/cpufreq/conservative/down_threshold = 90" ]
	before=$(tree_sum "$d")
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -s cpufreq.conservative.up_threshold=15
	[ "$status" -eq 2 ]
	[ "$stderr" = "opp-set: -s cpufreq.conservative.up_threshold=15: [cpufreq] conservative.up_threshold 15 is not above down_threshold 20 (set conservative.down_threshold too)" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -s cpufreq.conservative.down_threshold=85
	[ "$status" -eq 2 ]
	[[ $stderr == *"down_threshold 85 is not below up_threshold 80 (set conservative.up_threshold too)" ]] || fail "$stderr"
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -s cpufreq.conservative.up_threshold=50 \
		-s cpufreq.conservative.down_threshold=50
	[ "$status" -eq 2 ]
	[[ $stderr == *"down_threshold 50 is not below up_threshold 50" ]] || fail "$stderr"
	[ "$(tree_sum "$d")" = "$before" ]
}

@test "--save keeps the running governor's tunables, and -f of it restores them" {
	d=$(dump_copy armv7)
	run --separate-stderr "$bin/opp-set" --sysroot "$d" --save "$BATS_TEST_TMPDIR/s.conf"
	assert_success
	grep -qx 'ondemand.up_threshold = 95' "$BATS_TEST_TMPDIR/s.conf"
	grep -qx 'ondemand.sampling_rate = 100000' "$BATS_TEST_TMPDIR/s.conf"
	# /sys only: run/pmtools/opp.current names the point applied last.
	before=$(tree_sum "$d/sys")
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -s cpufreq.ondemand.up_threshold=60 \
		-s cpufreq.ondemand.powersave_bias=100
	assert_success
	[ "$(tree_sum "$d/sys")" != "$before" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$BATS_TEST_TMPDIR/s.conf"
	assert_success
	[ "$(tree_sum "$d/sys")" = "$before" ]
}

@test "malformed tunables are exit 2 with the file and line, nothing written" {
	d=$(dump_copy armv7)
	before=$(tree_sum "$d")
	n=0
	while IFS='|' read -r line want; do
		point "$BATS_TEST_TMPDIR/bad.conf" "[cpufreq]\n$line\n"
		run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$BATS_TEST_TMPDIR/bad.conf"
		[ "$status" -eq 2 ] || fail "'$line': exit $status ($stderr)"
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "'$line': ${#stderr_lines[@]} lines: $stderr"
		[[ $stderr == "opp-set: $BATS_TEST_TMPDIR/bad.conf:2: "*"$want"* ]] || fail "'$line': $stderr"
		n=$((n + 1))
	done <<'EOF'
ondemand.up_threshold = 0|'0' is not a whole number from 1 to 100
ondemand.up_threshold = 101|'101' is not a whole number from 1 to 100
ondemand.up_threshold = -5|'-5' is not a whole number from 1 to 100
ondemand.up_threshold = 80%|'80%' is not a whole number from 1 to 100
ondemand.up_threshold = 99999999999999999999|is not a whole number from 1 to 100
ondemand.up_threshold =|is not a whole number from 1 to 100
ondemand.io_is_busy = 2|'2' is not 0 or 1
ondemand.ignore_nice_load = yes|'yes' is not 0 or 1
ondemand.powersave_bias = 1001|from 0 to 1000
ondemand.sampling_down_factor = 100001|from 1 to 100000
ondemand.sampling_rate = 0|from 1 to 4294967295
ondemand.sampling_rate = 4294967296|from 1 to 4294967295
ondemand.sampling_rate = 10ms|'10ms' is not a whole number
conservative.sampling_down_factor = 11|from 1 to 10
conservative.freq_step = 101|from 0 to 100
conservative.down_threshold = 0|from 1 to 100
schedutil.rate_limit_us = 1.5|'1.5' is not a whole number
ondemand.bogus = 1|ondemand has no tunable 'bogus' (tunables: sampling_rate, up_threshold, sampling_down_factor, ignore_nice_load, io_is_busy, powersave_bias)
ondemand. = 1|ondemand has no tunable ''
interactive.hispeed_freq = 1|'interactive' is not a governor whose tunables opp-set knows
.up_threshold = 1|'' is not a governor whose tunables opp-set knows
performance.x = 1|'performance' is not a governor whose tunables opp-set knows
EOF
	echo "# $n malformed tunables" >&3
	[ "$(tree_sum "$d")" = "$before" ]
}
