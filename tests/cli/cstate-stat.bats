#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $dumps and bats' $stderr come from helpers.bash and run
# cstate-stat: the since-boot report on every fixture, intervals, and the
# report over a command, with counters rewritten under it.
# tests/run: reads the corpus

load helpers

# The complete lines of FILE so far, in $nl, with no process: 0 while the
# redirection of the background job that writes it has not made it yet.
count_lines() { # FILE
	local c=''
	[ -f "$1" ] && { IFS= read -r -d '' c <"$1" || true; }
	c=${c//[!$'\n']/}
	nl=${#c}
}

# Wait until FILE has N complete lines, however loaded the machine.
lines_at_least() { # FILE N
	until count_lines "$1" && ((nl >= $2)); do sleep 0.02; done
}

setup() {
	load_libs
}

cpu_dir=sys/devices/system/cpu

@test "since boot: every fixture gives a valid report whose counters are the files'" {
	local m fx c d i n u t l want got
	for m in laptop2006 hwp-laptop amd-desktop arm-biglittle vm-haltpoll; do
		fixture -v fx "$m"
		run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c all
		[ "$status" -eq 0 ] || fail "$m: exit $status: $stderr"
		# "CPU STATE usage time latency", a line for each state of each
		# CPU: the report's in one jq, the files' read by bash itself.
		got=$(jq -r '.cpus[] | .cpu as $c | .cstates | to_entries[] |
			"\($c) \(.key) \(.value.usage) \(.value.time_us) \(.value.latency_us)"' <<<"$output")
		want=
		for c in $(jq '.cpus[].cpu' <<<"$output"); do
			d="$fx/$cpu_dir/cpu$c/cpuidle"
			n=0
			while [ -d "$d/state$n" ]; do n=$((n + 1)); done
			for ((i = 0; i < n; i++)); do
				read -r u <"$d/state$i/usage"
				read -r t <"$d/state$i/time"
				read -r l <"$d/state$i/latency"
				want+="$c $i $u $t $l"$'\n'
			done
		done
		[ -n "$got" ] || fail "$m: no C-states in the report"
		[ "$got" = "${want%$'\n'}" ] || fail "$m: the report's C-states are not the files': $(diff <(echo "$got") <(echo "$want"))"
	done
}

@test "since boot: share_pct is time over uptime" {
	fixture -v fx laptop2006
	up=$(cut -d' ' -f1 "$fx/proc/uptime")
	run "$bin/cstate-stat" --sysroot "$fx" -J -c 0 --cstates
	assert_success
	jq -e --argjson up "$up" '.cpus[0].cstates | all(.[];
		(.share_pct - (.time_us / ($up * 1e6) * 100)) | fabs < 0.01)' <<<"$output"
}

@test "since boot: -s sums usage and time over the CPUs" {
	fixture -v fx amd-desktop
	run "$bin/cstate-stat" --sysroot "$fx" -J -s
	assert_success
	want=$(cat "$fx"/$cpu_dir/cpu*/cpuidle/state1/usage | awk '{ s += $1 } END { printf "%.0f", s }')
	[ "$(jq '.summary.cstates[1].usage' <<<"$output")" = "$want" ]
	[ "$(jq '.summary.cpus' <<<"$output")" = 16 ]
}

@test "since boot: above 16 CPUs the human report shows the summary only" {
	fixture -v fx server --cpus 64
	run "$bin/cstate-stat" --sysroot "$fx" --cstates
	assert_success
	assert_output --partial " all "
	refute_output --regexp '^ +63 '
	run "$bin/cstate-stat" --sysroot "$fx" --cstates --per-cpu
	assert_output --regexp '(^|
) +63 '
}

@test "since boot: a driver without stats says so (intel_pstate)" {
	fixture -v fx hwp-laptop
	run "$bin/cstate-stat" --sysroot "$fx" --pstates -c 0
	assert_success
	assert_output --partial "no time-in-state statistics: intel_pstate keeps none"
	run "$bin/cstate-stat" --sysroot "$fx" --pstates -c 0 -J
	[ "$(jq -c '.cpus[0].pstates | [.driver, .time_in_state]' <<<"$output")" = '["intel_pstate",null]' ]
}

@test "since boot: time_in_state and its shares come from the stats" {
	fixture -v fx laptop2006
	p="$fx/$cpu_dir/cpufreq/policy0/stats"
	run "$bin/cstate-stat" --sysroot "$fx" --pstates -c 0 -J
	assert_success
	want=$(awk '{ printf "%s:%d ", $1, $2 * 10 }' "$p/time_in_state")
	got=$(jq -r '.cpus[0].pstates.time_in_state[] | "\(.khz):\(.time_ms)"' <<<"$output" | tr '\n' ' ')
	[ "$got" = "$want" ]
	jq -e '[.cpus[0].pstates.time_in_state[].share_pct] | add | . > 99.9 and . < 100.1' <<<"$output"
	[ "$(jq .cpus[0].pstates.total_trans <<<"$output")" = "$(<"$p/total_trans")" ]
}

@test "--trans-table prints the kernel's matrix" {
	fixture -v fx laptop2006
	run "$bin/cstate-stat" --sysroot "$fx" --pstates --trans-table -c 0 -J
	assert_success
	t="$fx/$cpu_dir/cpufreq/policy0/stats/trans_table"
	want=$(tail -n +3 "$t" | awk '{ $1 = ""; print }' | xargs | tr ' ' ,)
	got=$(jq -r '[.cpus[0].pstates.trans_table.counts[][]] | map(tostring) | join(",")' <<<"$output")
	[ "$got" = "$want" ]
	run "$bin/cstate-stat" --trans-table -i 1
	assert_failure 2
}

@test "over a command: the deltas are what the command changed" {
	fixture -v fx laptop2006
	s="$fx/$cpu_dir/cpu0/cpuidle/state2"
	u0=$(<"$s/usage") t0=$(<"$s/time")
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 0 -- \
		sh -c "sleep 0.2; echo $((u0 + 40)) >'$s/usage'; echo $((t0 + 150000)) >'$s/time'"
	assert_success
	jq -e '.period == "command" and .interval_s > 0.19' <<<"$output"
	st=$(jq -c '.cpus[0].cstates[2] | [.usage, .time_us]' <<<"$output")
	[ "$st" = "[40,150000]" ]
	# Residency and entries/s are the deltas over the measured interval.
	jq -e '.interval_s as $i | .cpus[0].cstates[2] |
		((.residency_pct - 150000 / ($i * 1e6) * 100) | fabs < 0.01) and
		((.entries_per_s - 40 / $i) | fabs < 0.1)' <<<"$output"
	# Untouched states moved by nothing.
	[ "$(jq '.cpus[0].cstates[1].usage' <<<"$output")" = 0 ]
}

@test "a counter that goes backwards is a reset, never a negative or huge delta" {
	fixture -v fx laptop2006
	s="$fx/$cpu_dir/cpu0/cpuidle/state3"
	run "$bin/cstate-stat" --sysroot "$fx" -J -c 0 -- \
		sh -c "echo 7 >'$s/usage'; echo 5000 >'$s/time'; sleep 0.2"
	assert_success
	# Counted from the reset: 7 entries and 5 ms in about 0.2 s.
	[ "$(jq -c '.cpus[0].cstates[3] | [.usage, .time_us]' <<<"$output")" = "[7,5000]" ]
	jq -e '.cpus[0].cstates[3].residency_pct | . > 0 and . < 3' <<<"$output"
}

@test "a CPU that goes offline during the run is online:false with nulls" {
	fixture -v fx vm-haltpoll
	run "$bin/cstate-stat" --sysroot "$fx" -J -c all -- \
		sh -c "echo 0-2 >'$fx/$cpu_dir/online'; echo 3 >'$fx/$cpu_dir/offline'; echo 0 >'$fx/$cpu_dir/cpu3/online'"
	assert_success
	[ "$(jq -c '.cpus[] | select(.cpu == 3) | [.online, .busy_pct, .cstates]' <<<"$output")" = '[false,null,[]]' ]
	[ "$(jq -c '.cpus[] | select(.cpu == 2) | .online' <<<"$output")" = true ]
}

@test "interval: a CPU that leaves and comes back is re-opened" {
	fixture -v fx vm-haltpoll
	on="$fx/$cpu_dir/online"
	out="$BATS_TEST_TMPDIR/samples"
	"$bin/cstate-stat" --sysroot "$fx" -J -c all -i 0.1 >"$out" &
	pid=$!
	# Each step waits for samples to be taken, however loaded the machine.
	lines_at_least "$out" 2
	echo 0,2-3 >"$on"
	count_lines "$out"
	lines_at_least "$out" $((nl + 2))
	echo 0-3 >"$on"
	echo 99999 >"$fx/$cpu_dir/cpu1/cpuidle/state1/usage"
	count_lines "$out"
	lines_at_least "$out" $((nl + 2))
	kill -INT "$pid"
	wait "$pid"
	output=$(jq -c 'select(.period == "sample")' "$out")
	# Some sample saw cpu1 offline, and a later one saw it back with numbers.
	off=$(jq -s 'map(.cpus[] | select(.cpu == 1) | .online) | index(false)' <<<"$output")
	back=$(jq -s 'map(.cpus[] | select(.cpu == 1) | .online) | rindex(true)' <<<"$output")
	[ "$off" != null ] && [ "$back" != null ] && [ "$back" -gt "$off" ]
	jq -s -e 'last | .cpus[] | select(.cpu == 1) | .cstates[1].residency_pct != null' <<<"$output"
}

@test "interval: JSON Lines, one object per sample with time and interval_s" {
	fixture -v fx arm-biglittle
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -i 0.1 -n 3
	assert_success
	[ "${#lines[@]}" -eq 3 ]
	for l in "${lines[@]}"; do
		# A late sample is followed by a shorter interval (the
		# deadlines are absolute): only the first is at least -i.
		jq -e '.time > 1e9 and .interval_s > 0 and .period == "sample" and (.cpus | length) == 6' <<<"$l"
	done
	jq -e '.interval_s >= 0.099' <<<"${lines[0]}"
}

@test "interval: no sample before its deadline, the measured interval is reported" {
	fixture -v fx laptop2006
	run "$bin/cstate-stat" --sysroot "$fx" -J -i 0.05 -n 20
	assert_success
	# The 20th deadline is 1 s after the first reading: the measured
	# intervals add up to at least that.  How little more they take on
	# an idle machine (the deadlines are absolute, the work does not
	# add up) is a figure of bench/cstate-stat, not a test: on a
	# loaded machine any bound fails.
	jq -s -e 'length == 20 and (map(.interval_s) | add) >= 0.999' <<<"$output"
	# Each interval is the one between its sample's and the previous
	# sample's times (ms in .time).
	jq -s -e '[range(1; length) as $k | .[$k].time - .[$k - 1].time - .[$k].interval_s | fabs < 0.01] | all' <<<"$output"
}

@test "interval: csv has a header and 19 columns per row, prom is exposition text" {
	fixture -v fx laptop2006
	run "$bin/cstate-stat" --sysroot "$fx" -F csv -i 0.1 -n 2 -s
	assert_success
	[ "${lines[0]}" = "time,interval_s,cpu,state,name,residency_pct,entries_per_s,busy_pct,avg_khz,wakeups_per_s,zone,watts,period,user_pct,system_pct,iowait_pct,irq_pct,steal_pct,idle_pct" ]
	awk -F, 'NF != 19 { exit 1 }' <<<"$output"
	grep -q '^[0-9.]*,0\.[0-9]*,all,' <<<"$output"
	run "$bin/cstate-stat" --sysroot "$fx" -F prom -i 0.1 -n 1 --wakeups
	assert_success
	grep -q '^# TYPE pm_cpuidle_state_residency_percent gauge$' <<<"$output"
	grep -Ev '^(# (HELP|TYPE) [a-z_][a-z0-9_]* .+|[a-z_][a-z0-9_]*(\{[a-z_]+="[^"]*"(,[a-z_]+="[^"]*")*\})? [0-9.eE+-]+|NaN)$' <<<"$output" && false
	true
}

@test "interval: csv has the time, the interval and --power's watts, as JSON has them" {
	fixture -v fx hwp-laptop
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -i 0.05 -n 1 --power -c 0 -F csv
	assert_success
	csv=$output
	# One row per RAPL zone, its CPU and state columns empty.
	for z in "$fx"/sys/class/powercap/intel-rapl:*; do
		n=$(<"$z/name")
		grep -qE "^[0-9]+\.?[0-9]*,0\.[0-9]+,,,$n,,,,,,${z##*/},[0-9.]+,sample,,,,,,\$" <<<"$csv" ||
			fail "no row for ${z##*/}: $csv"
	done
	[ "$(grep -c ',sample,' <<<"$csv")" -eq $((6 + 3)) ]
	# The interval and the time are the sample's, as in JSON.
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -i 0.05 -n 1 --power -c 0 -J
	jq -e '.interval_s > 0.04 and .interval_s < 5 and (.power | length) == 3' <<<"$output"
	awk -F, 'NR > 1 && ($1 < 1e9 || $2 <= 0.04 || $2 >= 5) { exit 1 }' <<<"$csv"
}

@test "interval: --output replaces the file each sample, atomically" {
	fixture -v fx laptop2006
	out="$BATS_TEST_TMPDIR/live.json"
	run "$bin/cstate-stat" --sysroot "$fx" -J -i 0.1 -n 3 -o "$out"
	assert_success
	assert_output ""
	[ "$(wc -l <"$out")" -eq 1 ]
	jq -e '.period == "sample"' "$out"
}

@test "SIGINT ends an endless run with a report of the whole run and exit 0" {
	fixture -v fx laptop2006
	out="$BATS_TEST_TMPDIR/run.jsonl"
	"$bin/cstate-stat" --sysroot "$fx" -J -i 0.1 >"$out" &
	pid=$!
	# Three samples: the handler is in place (before the first), and
	# the SIGINT cannot meet the SIG_IGN a background job starts with.
	lines_at_least "$out" 3
	kill -INT "$pid"
	wait "$pid"
	[ "$(tail -n 1 "$out" | jq -r .period)" = run ]
	tail -n 1 "$out" | jq -e '.interval_s > 0.25'
	[ "$(wc -l <"$out")" -ge 4 ]
}

@test "--wakeups: interrupts per second per CPU from /proc/interrupts, top sources named" {
	fixture -v fx laptop2006
	f="$fx/proc/interrupts"
	cp "$f" "$BATS_TEST_TMPDIR/irq"
	# Add 1000 interrupts on CPU0 to the LOC row during the run, in place
	# (the sampler keeps the file open, as it keeps procfs open).
	run "$bin/cstate-stat" --sysroot "$fx" -J --wakeups -- sh -c \
		"awk '\$1 == \"LOC:\" { \$2 += 1000 } { print }' '$BATS_TEST_TMPDIR/irq' >'$f.new' && cat '$f.new' >'$f'; sleep 0.2"
	assert_success
	jq -e '.interval_s as $i | (.cpus[0].wakeups_per_s - 1000 / $i | fabs) < 1 and .cpus[1].wakeups_per_s == 0' <<<"$output"
	[ "$(jq -r '.wakeups.top[0].irq' <<<"$output")" = LOC ]
}

@test "--wakeups: a CPU that goes offline or comes back leaves no bogus rate (/proc/interrupts lists online CPUs only)" {
	cp -a "$(fixture vm-haltpoll)" "$BATS_TEST_TMPDIR/fx"
	fx=$BATS_TEST_TMPDIR/fx
	f="$fx/proc/interrupts"
	sed 's/^  0:         47 /  0:        147 /' "$f" >"$BATS_TEST_TMPDIR/irq4"
	# CPU 3 goes offline: the kernel drops its column, and CPU 0 takes 100
	# timer interrupts.  Before the fix the rows' totals went down, which
	# counted as a reset: total_per_s was their whole count since boot
	# over the interval (about 150 000/s here).
	awk 'NR == 1 { sub(/CPU3 *$/, "") } NR > 1 && $5 ~ /^[0-9]+$/ { $0 = substr($0, 1, 37) substr($0, 49) } { print }' "$f" |
		sed 's/^  0:         47 /  0:        147 /' >"$BATS_TEST_TMPDIR/irq3"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c all --wakeups -- sh -c \
		"echo 0-2 >'$fx/$cpu_dir/online'; echo 3 >'$fx/$cpu_dir/offline'; echo 0 >'$fx/$cpu_dir/cpu3/online'; cat '$BATS_TEST_TMPDIR/irq3' >'$f'; sleep 0.2"
	assert_success
	jq -e '.interval_s as $i | (.cpus[0].wakeups_per_s - 100 / $i | fabs) < 1 and
		.cpus[1].wakeups_per_s == 0 and .cpus[2].wakeups_per_s == 0 and
		.cpus[3].online == false and .cpus[3].wakeups_per_s == null' <<<"$output"
	# The total is the CPUs' sum, and the rows count the CPUs listed at
	# both readings, cell by cell: the timer moved by 100 on CPU 0.
	jq -e '((.wakeups.total_per_s - ([.cpus[].wakeups_per_s // 0] | add)) | fabs) < 0.2' <<<"$output"
	jq -e '.interval_s as $i | .wakeups.top[0].irq == "0" and ((.wakeups.top[0].per_s - 100 / $i) | fabs) < 1' <<<"$output"
	# CPU 3 comes back with its column (its counts of the start): before
	# the fix the rows jumped by its count since boot.
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c all --wakeups -- sh -c \
		"echo 0-3 >'$fx/$cpu_dir/online'; : >'$fx/$cpu_dir/offline'; echo 1 >'$fx/$cpu_dir/cpu3/online'; cat '$BATS_TEST_TMPDIR/irq4' >'$f'; sleep 0.2"
	assert_success
	jq -e '.cpus[3].online == true and .cpus[3].wakeups_per_s == null and
		((.wakeups.total_per_s - ([.cpus[].wakeups_per_s // 0] | add)) | fabs) < 0.2 and
		.wakeups.total_per_s < 1000 and .wakeups.top == []' <<<"$output"
	# With the same CPUs at both readings the top sources are there.
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c all --wakeups -- sh -c \
		"sed 's/^  0:        147 /  0:        247 /' '$BATS_TEST_TMPDIR/irq4' >'$f.new' && cat '$f.new' >'$f'; sleep 0.2"
	assert_success
	jq -e '.wakeups.top[0].irq == "0" and ((.wakeups.total_per_s - .wakeups.top[0].per_s) | fabs) < 0.2' <<<"$output"
}

@test "interval: idle-state files replaced under an online CPU are opened again, the CPU not shown offline" {
	fault_so
	cp -a "$(fixture vm-haltpoll)" "$BATS_TEST_TMPDIR/fx"
	fx=$BATS_TEST_TMPDIR/fx
	# The second read of a kept fd fails with ENODEV, as sysfs does once
	# acpi_idle has removed and re-created the folder of a CPU coming
	# online.  Before the fix the CPU was shown offline in that sample.
	run --separate-stderr env PM_FAULT_READ="*/cpu1/cpuidle/state0/usage=ENODEV@2" LD_PRELOAD="$so" \
		"$bin/cstate-stat" --sysroot "$fx" -J -c all -i 0.1 -n 2
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	for l in "${lines[@]}"; do
		jq -e '.cpus[1].online == true and ([.cpus[1].cstates[] | .usage, .time_us] | all(. == 0))' <<<"$l"
	done
}

@test "--power: watts from energy_uj, a wrap of the counter handled" {
	fixture -v fx hwp-laptop
	z="$fx/sys/class/powercap/intel-rapl:0"
	max=$(<"$z/max_energy_range_uj")
	echo $((max - 1000000)) >"$z/energy_uj"
	# The counter wraps: 1 J before the top, 2 J after zero: 3 J in all.
	run "$bin/cstate-stat" --sysroot "$fx" -J --power -- sh -c "echo 2000000 >'$z/energy_uj'; sleep 0.2"
	assert_success
	jq -e '.power[] | select(.zone == "intel-rapl:0") | .energy_uj == 3000000' <<<"$output"
	jq -e '.interval_s as $i | .power[] | select(.zone == "intel-rapl:0") | (.watts - 3 / $i | fabs) < 0.001 * .watts' <<<"$output"
}

@test "--power as a non-root user: root-only energy_uj is said to be root-only" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	d=$(mktemp -d /tmp/pmtools-nobody.XXXXXX)
	chmod 755 "$d"
	nb=$(nobody_bin)
	cp -a "$(fixture hwp-laptop)/." "$d/"
	run --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$nb/cstate-stat" --sysroot "$d" -J --power -- true
	rm -rf "$d" "$nb"
	assert_success
	[[ "$stderr" == *"energy_uj is readable by root only"* ]]
	jq -e '.power[] | select(.zone == "intel-rapl:0") | .watts == null and .error == "readable by root only"' <<<"$output"
}

@test "the command's exit status is cstate-stat's, as with time(1)" {
	fixture -v fx vm-haltpoll
	run "$bin/cstate-stat" --sysroot "$fx" -J -- sh -c 'exit 7'
	assert_failure 7
	run -127 --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -- /nonexistent/cmd
	assert_failure 127
	[[ "$stderr" == *"cannot run '/nonexistent/cmd'"* ]]
	run "$bin/cstate-stat" --sysroot "$fx" -- "$fx/proc/uptime"
	assert_failure 126
	run "$bin/cstate-stat" --sysroot "$fx" -- sh -c 'kill -TERM $$'
	assert_failure 143
}

@test "bad arguments are exit 2 with one line" {
	for a in "-i 0" "-i -1" "-i abc" "-i 1x" "-i ''" "-n 0" "-n -3" "-n 1.5" \
		"-n 99999999999999999999" "-i 1 -n x" "-n 5" "--power" "--" \
		"-i 1 -- true" "-s --per-cpu" "-c 99999" "-c 3-1" "-c ," "-c ''" "-c 0-1000000" \
		"--cstates --trans-table" "--wait" "-c 999" "-F xml" "-J -F csv"; do
		run --separate-stderr bash -c "'$bin/cstate-stat' --sysroot '$(fixture vm-haltpoll)' $a"
		[ "$status" -eq 2 ] || fail "'$a': exit $status"
		[ "${#stderr_lines[@]}" -le 2 ] || fail "'$a': ${#stderr_lines[@]} lines"
	done
}

@test "the real /sys, read only: the states and counters are the kernel's" {
	d=/sys/devices/system/cpu/cpu0/cpuidle
	[ -d "$d/state0" ] || skip "this machine has no cpuidle"
	before=$(<"$d/state0/usage")
	run --separate-stderr "$bin/cstate-stat" -J -c 0 --cstates
	assert_success
	n=$(find "$d" -maxdepth 1 -name 'state*' | wc -l)
	[ "$(jq '.cpus[0].cstates | length' <<<"$output")" = "$n" ]
	for ((i = 0; i < n; i++)); do
		[ "$(jq -r ".cpus[0].cstates[$i].name" <<<"$output")" = "$(<"$d/state$i/name")" ]
		[ "$(jq -r ".cpus[0].cstates[$i].latency_us" <<<"$output")" = "$(<"$d/state$i/latency")" ]
	done
	[ "$(jq .cpus[0].cstates[0].usage <<<"$output")" -ge "$before" ]
	[ "$(jq -r .cpuidle.driver <<<"$output")" = "$(</sys/devices/system/cpu/cpuidle/current_driver)" ]
}

@test "the command gets PM_SYSROOT and cstate-stat's folder first on PATH" {
	fixture -v fx vm-haltpoll
	out="$BATS_TEST_TMPDIR/env"
	run "$bin/cstate-stat" --sysroot "$fx" -- sh -c "echo \"\$PM_SYSROOT\" >'$out'; echo \"\${PATH%%:*}\" >>'$out'"
	assert_success
	[ "$(sed -n 1p "$out")" = "$fx" ]
	[ "$(sed -n 2p "$out")" = "$bin" ]
}

@test "interval: counters rewritten between samples add up exactly over the run" {
	fixture -v fx laptop2006
	s="$fx/$cpu_dir/cpu1/cpuidle/state2"
	t0=$(<"$s/time") u0=$(<"$s/usage")
	out="$BATS_TEST_TMPDIR/samples"
	"$bin/cstate-stat" --sysroot "$fx" -J -c 1 -i 0.1 >"$out" &
	cs=$!
	# The first sample is printed after the first reading: the writes
	# start after it, however slowly a loaded machine starts either.
	while [ ! -s "$out" ]; do sleep 0.05; done
	(
		# In place and never shorter, so a reader never sees an empty file.
		for k in 1 2 3 4 5 6; do
			sleep 0.05
			echo $((t0 + k * 20000)) | dd of="$s/time" conv=notrunc status=none
			echo $((u0 + k * 3)) | dd of="$s/usage" conv=notrunc status=none
		done
	) &
	writer=$!
	# Sampled until the writer is done and one sample more has been
	# taken.
	wait "$writer"
	count_lines "$out"
	lines_at_least "$out" $((nl + 2))
	kill -INT "$cs"
	wait "$cs"
	output=$(jq -c 'select(.period == "sample")' "$out")
	# However the writes fell between samples, the deltas sum to the total.
	[ "$(jq -s 'map(.cpus[0].cstates[2].time_us) | add' <<<"$output")" = 120000 ]
	[ "$(jq -s 'map(.cpus[0].cstates[2].usage) | add' <<<"$output")" = 18 ]
	# And each sample's residency is its delta over its measured interval
	# (at most 100 %: a write may land more time than a short interval).
	jq -s -e 'all(.[]; .interval_s as $i | .cpus[0].cstates[2] |
		(.residency_pct - ([.time_us / ($i * 1e6) * 100, 100] | min) | fabs) < 0.01)' <<<"$output"
}
