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
	local n d p gov max cpus want got
	for n in x86_64-epyc_7451 x86_64-64cpu-linux6.2 arm-A510-A710-A715-X3; do
		d="$DUMPDIR/$n/sys/devices/system/cpu/cpufreq"
		run "$bin/pmctl" --sysroot "$DUMPDIR/$n" freq -J
		assert_success
		# "POLICY governor max CPUS", a line per policy: the report's in
		# one jq, the files' read by bash itself; both in policy order.
		got=$(jq -r '.policies[] | "\(.policy) \(.governor) \(.max_khz) \(.cpus | map(tostring) | join(","))"' <<<"$output" | sort -n)
		want=
		for p in "$d"/policy*; do
			read -r gov <"$p/scaling_governor"
			read -r max <"$p/scaling_max_freq"
			read -r cpus <"$p/related_cpus"
			want+="${p##*policy} $gov $max ${cpus// /,}"$'\n'
		done
		want=$(sort -n <<<"${want%$'\n'}")
		[ -n "$got" ] || fail "$n: no policies in the report"
		[ "$got" = "$want" ] || fail "$n: the report's policies are not the files': $(diff <(echo "$got") <(echo "$want"))"
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
	# On tmpfs where there is one: the dump is 15 800 files.
	d=$(mktemp -d "$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo /tmp)/pmtools-nobody.XXXXXX")
	chmod 755 "$d"
	nb=$(nobody_bin)
	copy_tree "$DUMPDIR/x86_64-epyc_7451" "$d"
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
	sample_list -3 dumps_run "${names[@]}"
	for n in "${dumps_run[@]}"; do
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
	local n d s i f v line want got
	sample_list -3 dumps_run "${names[@]}"
	for n in "${dumps_run[@]}"; do
		d="$DUMPDIR/$n"
		s="$d/sys/devices/system/cpu/cpu0/cpuidle"
		[ -d "$s/state0" ] || continue
		run "$bin/cstate-stat" --sysroot "$d" -J -c 0 --cstates
		assert_success
		# "STATE usage time latency name", a line per state: the
		# report's in one jq, the files' read by bash itself (an empty
		# or missing counter is null).
		got=$(jq -r '.cpus[0].cstates | to_entries[] | "\(.key) \(.value.usage) \(.value.time_us) \(.value.latency_us) \(.value.name)"' <<<"$output")
		want=
		for ((i = 0; ; i++)); do
			[ -d "$s/state$i" ] || break
			line=$i
			for f in usage time latency; do
				v=null
				[ -s "$s/state$i/$f" ] && IFS= read -r v <"$s/state$i/$f"
				line+=" $v"
			done
			IFS= read -r v <"$s/state$i/name"
			want+="$line $v"$'\n'
		done
		[ "$(find "$s" -maxdepth 1 -name 'state*' | wc -l)" = "$i" ] || fail "$n: the dump's states are not state0 to state$((i - 1))"
		[ "$got" = "${want%$'\n'}" ] || fail "$n: the report's states are not the files': $(diff <(echo "$got") <(echo "$want"))"
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
	sample_list -3 dumps_run "${names[@]}"
	for n in "${dumps_run[@]}"; do
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
