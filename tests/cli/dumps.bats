#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $dumps and bats' $stderr come from helpers.bash and run
# Every real machine's dump in shared/corpus/sysfs-dumps: the tools read
# them without a crash, print valid documents, and never invent a value.
# tests/run: reads the corpus

load helpers

setup_file() {
	export DUMPDIR="$BATS_FILE_TMPDIR/dumps"
	mkdir -p "$DUMPDIR"
	for f in "$dumps"/*.tar.*; do
		tar -xf "$f" -C "$DUMPDIR"
	done
}

setup() {
	load_libs
	mapfile -t names < <(dump_names)
	[ "${#names[@]}" -ge 20 ]
}

@test "pmctl status reads every dump (exit 0, no message)" {
	for n in "${names[@]}"; do
		run --separate-stderr "$bin/pmctl" --sysroot "$DUMPDIR/$n"
		[ "$status" -eq 0 ] || fail "$n: exit $status: $stderr"
		[ -z "$stderr" ] || fail "$n: stderr: $stderr"
		[[ "$output" == *"CPUs:"* ]] || fail "$n: no CPU line"
	done
}

@test "pmctl --json is valid JSON on every dump, with CLI.md's keys" {
	for n in "${names[@]}"; do
		run --separate-stderr "$bin/pmctl" --sysroot "$DUMPDIR/$n" -J
		[ "$status" -eq 0 ] || fail "$n: exit $status"
		jq -e '.cpufreq.policies and .cpus.online and has("cpuidle") and has("sleep")' \
			<<<"$output" >/dev/null || fail "$n: bad document"
	done
}

@test "pmctl freq --json: every policy has the CLI.md keys" {
	for n in "${names[@]}"; do
		d="$DUMPDIR/$n"
		run --separate-stderr "$bin/pmctl" --sysroot "$d" freq -J
		if [ "$status" -eq 3 ]; then
			# Only when the dump really has no cpufreq.
			[ -z "$(ls "$d/sys/devices/system/cpu/cpufreq" 2>/dev/null)" ] &&
				! ls -d "$d"/sys/devices/system/cpu/cpu*/cpufreq >/dev/null 2>&1 ||
				fail "$n: exit 3 but cpufreq exists"
			continue
		fi
		[ "$status" -eq 0 ] || fail "$n: exit $status: $stderr"
		jq -e '.policies | length > 0 and all(.[];
			has("policy") and (.cpus | type == "array") and has("driver") and
			has("affected_cpus") and has("governor") and has("min_khz") and
			has("max_khz") and has("cpuinfo_min_khz") and has("cpuinfo_max_khz") and
			has("cur_khz") and (.available_governors | type == "array") and has("epp"))' \
			<<<"$output" >/dev/null || fail "$n: policy keys"
	done
}

@test "cpufreq policies of the dumps match their files" {
	for n in x86_64-epyc_7451 x86_64-64cpu-linux6.2 arm-A510-A710-A715-X3; do
		d="$DUMPDIR/$n/sys/devices/system/cpu/cpufreq"
		run "$bin/pmctl" --sysroot "$DUMPDIR/$n" freq -J
		assert_success
		for p in "$d"/policy*; do
			id=${p##*policy}
			want_gov=$(cat "$p/scaling_governor")
			want_max=$(cat "$p/scaling_max_freq")
			want_cpus=$(tr ' ' '\n' <"$p/related_cpus" | jq -sc .)
			got=$(jq -c --argjson id "$id" '.policies[] | select(.policy == $id) | [.governor, .max_khz, .cpus]' <<<"$output")
			[ "$got" = "[\"$want_gov\",$want_max,$want_cpus]" ] ||
				fail "$n policy$id: got $got"
		done
	done
}

@test "old per-CPU cpufreq folders (no policyN) are read as policies" {
	run "$bin/pmctl" --sysroot "$DUMPDIR/x86_64-dell_e4310" freq -J
	assert_success
	jq -e '.policies | length > 0 and all(.[]; .driver != null)' <<<"$output"
}

@test "an empty attribute is null, never 0" {
	d="$BATS_TEST_TMPDIR/epyc"
	cp -a "$DUMPDIR/x86_64-epyc_7451" "$d"
	p="$d/sys/devices/system/cpu/cpufreq/policy0"
	: >"$p/cpuinfo_cur_freq"
	: >"$p/scaling_min_freq"
	: >"$d/sys/devices/system/cpu/cpu0/cpuidle/state1/usage"
	run "$bin/pmctl" --sysroot "$d" freq -J -c 0
	assert_success
	[ "$(jq -c '.policies[0] | [.cpuinfo_cur_khz, .min_khz]' <<<"$output")" = '[null,null]' ]
	run "$bin/cstate-stat" --sysroot "$d" -J -c 0
	assert_success
	[ "$(jq -c '.cpus[0].cstates[1].usage' <<<"$output")" = null ]
}

@test "a root-only file read by a non-root user is null, never 0" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	d=$(mktemp -d /tmp/pmtools-nobody.XXXXXX)
	chmod 755 "$d"
	nb=$(nobody_bin)
	cp -a "$DUMPDIR/x86_64-epyc_7451/." "$d/"
	f="$d/sys/devices/system/cpu/cpufreq/policy0/cpuinfo_cur_freq"
	[ "$(stat -c %a "$f")" = 400 ]
	run setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$nb/pmctl" --sysroot "$d" freq -J -c 0
	rm -rf "$d" "$nb"
	assert_success
	[ "$(jq -c '.policies[0].cpuinfo_cur_khz' <<<"$output")" = null ]
	[ "$(jq -c '.policies[0].cur_khz' <<<"$output")" != null ]
}

@test "cstate-stat reads every dump: exit 0, or 3 when it has nothing to report" {
	for n in "${names[@]}"; do
		d="$DUMPDIR/$n"
		run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -J
		if [ "$status" -eq 3 ]; then
			# No idle states, no cpufreq, no s390 idle times, no /proc/stat.
			[ ! -d "$d/sys/devices/system/cpu/cpuidle" ] ||
				[ "$(cat "$d/sys/devices/system/cpu/cpuidle/current_driver" 2>/dev/null)" = none ] ||
				fail "$n: exit 3 but cpuidle exists"
			[ ! -e "$d/proc/stat" ] || fail "$n: exit 3 with a /proc/stat"
			! compgen -G "$d/sys/devices/system/cpu/cpu*/idle_time_us" >/dev/null ||
				fail "$n: exit 3 with s390 idle statistics"
			continue
		fi
		[ "$status" -eq 0 ] || fail "$n: exit $status: $stderr"
		jq -e '.cpus | type == "array"' <<<"$output" >/dev/null || fail "$n: bad JSON"
	done
}

@test "cstate-stat reports exactly the states and counters in each dump" {
	for n in "${names[@]}"; do
		d="$DUMPDIR/$n"
		s="$d/sys/devices/system/cpu/cpu0/cpuidle"
		[ -d "$s/state0" ] || continue
		run "$bin/cstate-stat" --sysroot "$d" -J -c 0 --cstates
		assert_success
		want=$(find "$s" -maxdepth 1 -name 'state*' | wc -l)
		got=$(jq '.cpus[0].cstates | length' <<<"$output")
		[ "$got" = "$want" ] || fail "$n: $got states, dump has $want"
		for ((i = 0; i < want; i++)); do
			for key in usage:usage time:time_us latency:latency_us; do
				file=${key%%:*} k=${key##*:}
				if [ -s "$s/state$i/$file" ]; then
					w=$(cat "$s/state$i/$file")
				else
					w=null
				fi
				g=$(jq ".cpus[0].cstates[$i].$k" <<<"$output")
				[ "$g" = "$w" ] || fail "$n state$i $file: got $g want $w"
			done
			w=$(cat "$s/state$i/name")
			g=$(jq -r ".cpus[0].cstates[$i].name" <<<"$output")
			[ "$g" = "$w" ] || fail "$n state$i name: $g"
		done
	done
}

@test "a dump without residency or disable files gives null, not 0" {
	d="$DUMPDIR/x86_64-64cpu"
	[ ! -e "$d/sys/devices/system/cpu/cpu0/cpuidle/state1/residency" ]
	run "$bin/cstate-stat" --sysroot "$d" -J -c 0
	assert_success
	[ "$(jq -c '.cpus[0].cstates[1] | [.residency_us, .disabled, .above]' <<<"$output")" = '[null,null,null]' ]
}

@test "without /proc/uptime the share since boot is null, not a guess" {
	d="$DUMPDIR/x86_64-epyc_7451"
	[ ! -e "$d/proc/uptime" ]
	run "$bin/cstate-stat" --sysroot "$d" -J -c 0
	assert_success
	[ "$(jq -c '.cpus[0].cstates[1].share_pct' <<<"$output")" = null ]
	[ "$(jq -c '.uptime_s' <<<"$output")" = null ]
}

@test "every output format of cstate-stat is well formed on every dump" {
	for n in "${names[@]}"; do
		d="$DUMPDIR/$n"
		run "$bin/cstate-stat" --sysroot "$d" -F csv
		[ "$status" -eq 3 ] && continue
		[ "$status" -eq 0 ] || fail "$n csv: exit $status"
		# Every row has the header's 11 columns (no field has a comma here).
		awk -F, 'NF != 11 { bad = 1 } END { exit bad }' <<<"$output" ||
			fail "$n: csv column count"
		run "$bin/cstate-stat" --sysroot "$d" -F prom
		[ "$status" -eq 0 ] || fail "$n prom: exit $status"
		grep -Ev '^(# (HELP|TYPE) [a-z_][a-z0-9_]* .+|[a-z_][a-z0-9_]*(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.eE+-]+|)$' <<<"$output" &&
			fail "$n: a line is not Prometheus text"
		run "$bin/cstate-stat" --sysroot "$d" -F kv
		[ "$status" -eq 0 ] || fail "$n kv: exit $status"
		grep -Ev "^[a-z0-9_]+='[^']*'$" <<<"$output" && fail "$n: a kv line is not key='value'"
		true
	done
}

@test "pm-suspend --check on a dump without /sys/power is exit 3 with a reason" {
	run --separate-stderr "$bin/pm-suspend" --check --sysroot "$DUMPDIR/x86_64-epyc_7451"
	assert_failure 3
	[[ "$stderr" == *"no /sys/power"* ]]
}
