#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $output, $stderr come from helpers.bash and run
# cstate-stat where there is no cpuidle or cpufreq (cloud VMs, s390,
# RISC-V, LoongArch: issue 18 section 1), on the corpus dumps and on the
# real / of this machine (read only); the counters that wrap, step back
# or outrun the clock (18 section 4, 24 section 3); CPUs with different
# idle states, and 256 CPUs (18 section 3).
# tests/run: reads the corpus

load helpers

setup() {
	load_libs
}

cpu_dir=sys/devices/system/cpu

# The dumps that have neither cpuidle states nor cpufreq (14 of 24).
vm_dumps=(loongarch-kvm_on_loongson_3c6000 loongarch-loongson_3a5000_hv ppc-qemu
	ppc64-POWER7 ppc64-POWER7-64cpu rv64-linux rv64-milkvpioneer rv64-visionfive2
	s390-kvm s390-lpar s390-lpar-drawer s390-nested-virt s390-zvm sparc64)

# A kernel range list as one number a line.
expand() {
	local part a b
	IFS=, read -ra parts <<<"$1"
	for part in "${parts[@]}"; do
		a=${part%-*} b=${part#*-}
		seq "$a" "$b"
	done
}

# /proc/stat, /proc/interrupts and /proc/uptime for the online CPUs of a
# tree, as a kernel of that machine would have them (the dumps have
# sysfs and cpuinfo only): cpuN has steal 200+N and idle 8000+100N.
add_proc() { # DIR
	local d=$1 c cpus
	cpus=$(expand "$(<"$d/$cpu_dir/online")")
	mkdir -p "$d/proc"
	{
		echo "cpu  0 0 0 0 0 0 0 0 0 0"
		for c in $cpus; do
			echo "cpu$c $((1000 + c)) 10 500 $((8000 + 100 * c)) 50 5 5 $((200 + c)) 0 0"
		done
		echo "intr 0"
	} >"$d/proc/stat"
	{
		printf '          '
		for c in $cpus; do printf ' %10s' "CPU$c"; done
		printf '\n'
		printf ' 11:'
		for c in $cpus; do printf ' %10d' $((100 * c + 7)); done
		printf '   GIC   11 Level     arch_timer\n'
		printf 'IPI0:'
		for c in $cpus; do printf ' %10d' $((3 + c)); done
		printf '   Rescheduling interrupts\n'
		echo "Err:          0"
	} >"$d/proc/interrupts"
	# Longer than the s390 dumps' idle times.
	echo "600000.00 7000.00" >"$d/proc/uptime"
}

# Each CPU's busy, user, system, iowait, irq, steal and idle shares from
# a /proc/stat file, as JSON lines {"cpu": N, "busy": ...}.
want_cputime() { # STATFILE
	awk '/^cpu[0-9]/ {
		n = substr($1, 4); t = $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9
		printf "{\"cpu\":%d,\"busy\":%.6f,\"user\":%.6f,\"system\":%.6f,\"iowait\":%.6f,\"irq\":%.6f,\"steal\":%.6f,\"idle\":%.6f}\n",
			n, (t - $5 - $6) * 100 / t, ($2 + $3) * 100 / t, $4 * 100 / t, $6 * 100 / t,
			($7 + $8) * 100 / t, $9 * 100 / t, $5 * 100 / t }' "$1"
}

# The JSON's shares against the file's, to the printed two decimals.
same_cputime() { # JSON STATFILE [TOLERANCE]
	local tol=${3:-0.006}
	jq -n -e --argjson tol "$tol" --slurpfile want <(want_cputime "$2") --argjson got "$1" '
		[$want[] as $w | $got.cpus[] | select(.online and .cpu == $w.cpu) |
			[(.busy_pct - $w.busy), (.user_pct - $w.user), (.system_pct - $w.system),
			 (.iowait_pct - $w.iowait), (.irq_pct - $w.irq), (.steal_pct - $w.steal),
			 (.idle_pct - $w.idle)] | map(fabs) | max] |
		length > 0 and max <= $tol' >/dev/null
}

promtool_ok() { # FILE
	command -v promtool >/dev/null || skip "promtool is missing (Debian package prometheus)"
	promtool check metrics <"$1" || fail "promtool: $(cat "$1")"
}

# A cloud VM: cpuidle driver none, no cpufreq (the real cloud case).
none_vm() {
	local d
	fresh -v d vm-haltpoll
	echo none >"$d/$cpu_dir/cpuidle/current_driver"
	rm -rf "$d"/$cpu_dir/cpu*/cpuidle
	printf '%s\n' "$d"
}

# ------------------------------------------------------------ the real /

@test "the real /: since boot, busy, steal and the rest are /proc/stat's" {
	[ -r /proc/stat ] || skip "no /proc/stat"
	run --separate-stderr "$bin/cstate-stat" -J --wakeups
	assert_success
	# Since boot the shares move slowly: a tenth of a point between reads.
	same_cputime "$output" /proc/stat 0.1 || fail "not /proc/stat's: $output"
	jq -e '[.cpus[] | select(.online) | .busy_pct, .steal_pct, .idle_pct] |
		all(. >= 0 and . <= 100)' <<<"$output"
	jq -e '[.cpus[] | select(.online) | .wakeups_per_s] | all(. != null and . >= 0)' <<<"$output"
	jq -e '.wakeups.top | length > 0' <<<"$output"
	if grep -qw hypervisor /proc/cpuinfo; then
		jq -e '.hypervisor.source | length > 0' <<<"$output"
		run "$bin/cstate-stat"
		assert_output --partial "it owns the C- and P-states"
	fi
}

@test "the real /: intervals, a command and every format, shares within 0..100" {
	[ -r /proc/stat ] || skip "no /proc/stat"
	run --separate-stderr "$bin/cstate-stat" -J --wakeups -i 0.2 -n 2
	assert_success
	[ "${#lines[@]}" -eq 2 ]
	for l in "${lines[@]}"; do
		jq -e '[.cpus[] | select(.online) | (.busy_pct, .user_pct, .system_pct,
			.iowait_pct, .irq_pct, .steal_pct, .idle_pct)] | all(. != null and . >= 0 and . <= 100)' <<<"$l"
		jq -e '[.cpus[] | select(.online) | .wakeups_per_s] | all(. != null and . >= 0 and . < 1e7)' <<<"$l"
		jq -e '.anomalies | type == "object"' <<<"$l"
	done
	run --separate-stderr "$bin/cstate-stat" -J -- sleep 0.2
	assert_success
	jq -e '.period == "command" and ([.cpus[] | select(.online) | .busy_pct] | all(. != null))' <<<"$output"
	for f in human kv csv; do
		run --separate-stderr "$bin/cstate-stat" -F "$f"
		assert_success
		run --separate-stderr "$bin/cstate-stat" -F "$f" -i 0.1 -n 1
		assert_success
	done
	"$bin/cstate-stat" -F prom --wakeups >"$BATS_TEST_TMPDIR/boot.prom"
	promtool_ok "$BATS_TEST_TMPDIR/boot.prom"
	"$bin/cstate-stat" -F prom --wakeups -i 0.1 -n 1 >"$BATS_TEST_TMPDIR/iv.prom"
	promtool_ok "$BATS_TEST_TMPDIR/iv.prom"
	"$bin/cstate-stat" -F prom --wakeups -i 0.1 -n 2 -o "$BATS_TEST_TMPDIR/iv2.prom"
	promtool_ok "$BATS_TEST_TMPDIR/iv2.prom"
}

# ------------------------------------------------------------ VMs

@test "a VM with cpuidle driver none and no cpufreq: CPU time, steal, wakeups, exit 0" {
	d=$(none_vm)
	run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -J --wakeups
	assert_success
	same_cputime "$output" "$d/proc/stat" || fail "not /proc/stat's: $output"
	jq -e '[.cpus[].steal_pct] | all(. > 0)' <<<"$output"
	jq -e '.hypervisor.source == "cpuinfo flag hypervisor"' <<<"$output"
	up=$(cut -d' ' -f1 "$d/proc/uptime")
	n=$(awk '$1 == "LOC:" { print $2 }' "$d/proc/interrupts")
	jq -e --argjson up "$up" '.wakeups.top | map(.irq) | index("LOC") != null' <<<"$output"
	jq -e --argjson up "$up" --argjson n "$n" \
		'[.wakeups.top[] | select(.irq == "LOC")][0] | ((.per_s - ($n + 138850 + 167700 + 196550) / $up) | fabs) < 0.1' <<<"$output"
	for f in human kv csv prom; do
		run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -F "$f"
		assert_success
	done
	run --separate-stderr "$bin/cstate-stat" --sysroot "$d" --wakeups -i 0.1 -n 2
	assert_success
	assert_output --partial "STEAL%"
	# Over a command that ran 0.2 s: 5 ticks of user and 5 of steal each.
	awk '/^cpu[0-9]/ { $2 += 5; $9 += 5; $5 += 10 } { print }' "$d/proc/stat" >"$BATS_TEST_TMPDIR/stat"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -J -- sh -c "sleep 0.2; cat '$BATS_TEST_TMPDIR/stat' >'$d/proc/stat'"
	assert_success
	jq -e '[.cpus[] | .busy_pct == 50 and .steal_pct == 25 and .user_pct == 25] | all' <<<"$output"
}

@test "a VM: the hypervisor owns the C- and P-states, said once, and by pmctl status" {
	d=$(none_vm)
	run --separate-stderr "$bin/cstate-stat" --sysroot "$d"
	assert_success
	[ "$(grep -c 'it owns the C- and P-states' <<<"$output")" -eq 1 ]
	assert_line --index 0 "hypervisor: present (cpuinfo flag hypervisor): it owns the C- and P-states"
	run --separate-stderr "$bin/pmctl" --sysroot "$d" status
	assert_success
	assert_line "CPU idle:       none: the hypervisor owns the C- and P-states (cpuinfo flag hypervisor)"
	refute_line "CPU idle:       none, governor haltpoll"
	run --separate-stderr "$bin/pmctl" --sysroot "$d" status -J
	jq -e '.hypervisor.source == "cpuinfo flag hypervisor"' <<<"$output"
	# DMI names it.
	mkdir -p "$d/sys/class/dmi/id"
	echo QEMU >"$d/sys/class/dmi/id/sys_vendor"
	echo "Standard PC (Q35 + ICH9, 2009)" >"$d/sys/class/dmi/id/product_name"
	run "$bin/cstate-stat" --sysroot "$d" -J
	jq -e '.hypervisor == {"name": "QEMU", "source": "DMI"}' <<<"$output"
	run "$bin/pmctl" --sysroot "$d" status
	assert_line "CPU idle:       none: the hypervisor QEMU owns the C- and P-states (DMI)"
	# A laptop has no such line.
	run "$bin/cstate-stat" --sysroot "$(fixture laptop2006)"
	refute_output --partial "hypervisor"
}

@test "--cstates or --pstates alone on a VM is exit 3, naming the hypervisor" {
	d=$(none_vm)
	refused 3 cstate-stat "$d" --cstates
	[[ "$stderr" == *"no idle states on this machine"*"the hypervisor owns the C-states" ]]
	refused 3 cstate-stat "$d" --pstates -i 1
	[[ "$stderr" == *"no cpufreq policies on this machine"* ]]
}

@test "the textfile job on a VM: both files, valid, silent, exit 0" {
	d=$(none_vm)
	out=$BATS_TEST_TMPDIR/tf
	mkdir "$out"
	run --separate-stderr env PATH="$bin:$PATH" PM_SYSROOT="$d" "$top/scripts/cron/pmtools-textfile" "$out"
	assert_success
	[ -z "$output" ] && [ -z "$stderr" ]
	promtool_ok "$out/pmtools-cstate.prom"
	grep -q '^pm_cpu_time_seconds_total{cpu="0",mode="steal"} ' "$out/pmtools-cstate.prom"
}

@test "the textfile job where nothing can be exported: silent, exit 0, no stale file" {
	d=$(dump ppc64-POWER7)
	out=$BATS_TEST_TMPDIR/tf
	mkdir "$out"
	echo "pm_stale 1" >"$out/pmtools-cstate.prom"
	run --separate-stderr env PATH="$bin:$PATH" PM_SYSROOT="$d" "$top/scripts/cron/pmtools-textfile" "$out"
	assert_success
	[ -z "$output" ] && [ -z "$stderr" ] || fail "not silent: $output $stderr"
	[ ! -e "$out/pmtools-cstate.prom" ]
	[ -s "$out/pmtools-status.prom" ]
}

# ------------------------------------------------------------ the dumps

@test "the 14 dumps without cpuidle or cpufreq: exit 3 only where nothing can be reported" {
	for n in "${vm_dumps[@]}"; do
		d=$(dump "$n")
		[ ! -e "$d/proc/stat" ] || fail "$n has a /proc/stat now: the test needs another"
		run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -J
		case $n in
		s390-*)
			[ "$status" -eq 0 ] || fail "$n: exit $status: $stderr"
			jq -e '[.cpus[] | select(.online) | .s390_idle] | any(. != null)' <<<"$output" >/dev/null ||
				fail "$n: no s390 idle statistics"
			;;
		*)
			[ "$status" -eq 3 ] || fail "$n: exit $status"
			[[ "$stderr" == "cstate-stat: nothing to report on this machine"* ]] || fail "$n: $stderr"
			;;
		esac
	done
}

@test "the 14 dumps with the /proc files of their kernel: every format, every CPU's own values" {
	k=0
	for i in "${!vm_dumps[@]}"; do
		sampled "$i" 3 || continue
		k=$((k + 1))
		n=${vm_dumps[i]}
		d=$BATS_TEST_TMPDIR/$n
		copy_tree "$(dump "$n")" "$d"
		add_proc "$d"
		run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -J --wakeups
		[ "$status" -eq 0 ] || fail "$n: exit $status: $stderr"
		if [[ $n == s390-* ]]; then
			# s390's idle time is the idle figure there.
			jq -e '[.cpus[] | select(.online and .s390_idle != null) |
				.idle_source == "s390_idle" and ((.busy_pct + .idle_pct - 100) | fabs) < 0.01] | all' <<<"$output" >/dev/null ||
				fail "$n: s390 idle"
		else
			same_cputime "$output" "$d/proc/stat" || fail "$n: not /proc/stat's"
		fi
		jq -e '[.cpus[] | select(.online) | .wakeups_per_s] | all(. != null)' <<<"$output" >/dev/null ||
			fail "$n: wakeups"
		for f in human kv csv; do
			run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -F "$f" --wakeups
			[ "$status" -eq 0 ] || fail "$n $f: exit $status: $stderr"
		done
		"$bin/cstate-stat" --sysroot "$d" -F prom --wakeups >"$BATS_TEST_TMPDIR/$n.prom" || fail "$n prom"
		promtool_ok "$BATS_TEST_TMPDIR/$n.prom"
		run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -J --wakeups -- true
		[ "$status" -eq 0 ] || fail "$n --: exit $status: $stderr"
	done
	sample_note "$k" "${#vm_dumps[@]}" dumps
}

@test "s390: idle_count and idle_time_us of every CPU, and their share of the uptime" {
	for n in s390-kvm s390-lpar s390-lpar-drawer s390-nested-virt s390-zvm; do
		d=$(dump "$n")
		run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -J -c all
		assert_success
		# Every CPU's pair from one jq, not one jq a CPU.
		declare -A got=()
		while read -r c u t; do
			[ -z "${got[$c]+x}" ] || fail "$n: cpu$c twice in the report"
			got[$c]="$u $t"
		done < <(jq -r '.cpus[] | "\(.cpu) \(.s390_idle.usage) \(.s390_idle.time_us)"' <<<"$output")
		for f in "$d/$cpu_dir"/cpu[0-9]*/idle_time_us; do
			c=${f%/idle_time_us}
			c=${c##*/cpu}
			[ -f "$d/$cpu_dir/cpu$c/online" ] && [ "$(<"$d/$cpu_dir/cpu$c/online")" = 1 ] || continue
			want="$(<"$d/$cpu_dir/cpu$c/idle_count") $(<"$f")"
			[ "${got[$c]-}" = "$want" ] || fail "$n cpu$c: ${got[$c]-none}, want $want"
		done
		unset got
	done
	d=$BATS_TEST_TMPDIR/zvm
	copy_tree "$(dump s390-zvm)" "$d"
	echo "600000.00 1.00" >"$d/proc/uptime"
	run "$bin/cstate-stat" --sysroot "$d" -J
	t=$(<"$d/$cpu_dir/cpu1/idle_time_us")
	jq -e --argjson t "$t" '.cpus[1].s390_idle.share_pct - $t / 600000e6 * 100 | fabs < 0.006' <<<"$output"
	jq -e '.hypervisor == {"name": "z/VM 6.1.0", "source": "/proc/sysinfo"}' <<<"$output"
	run "$bin/cstate-stat" --sysroot "$(dump s390-lpar)" -J
	jq -e '.hypervisor.name == "PR/SM (LPAR)"' <<<"$output"
}

@test "s390 over a command: the idle residency and entries from idle_time_us and idle_count" {
	# s390-lpar's cpu0 is a standby CPU, offline and without the files.
	for n in s390-kvm s390-lpar; do
		d=$BATS_TEST_TMPDIR/$n
		copy_tree "$(dump "$n")" "$d"
		add_proc "$d"
		f=$d/$cpu_dir/cpu1
		t0=$(<"$f/idle_time_us") c0=$(<"$f/idle_count")
		run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -J -c all -- sh -c \
			"sleep 0.3; echo $((t0 + 150000)) >'$f/idle_time_us'; echo $((c0 + 30)) >'$f/idle_count'"
		assert_success
		jq -e '.interval_s as $i | .cpus[] | select(.cpu == 1) |
			.s390_idle.time_us == 150000 and .s390_idle.usage == 30 and
			((.s390_idle.residency_pct - 15 / $i) | fabs) < 0.01 and .idle_source == "s390_idle" and
			((.busy_pct + .idle_pct - 100) | fabs) < 0.01' <<<"$output" || fail "$n: $output"
	done
}

# ------------------------------------------------------------ counters

@test "a cpuidle time 1000 us back (not a reset): residency 0, not 70 215 %, and counted" {
	fresh -v fx laptop2006
	s=$fx/$cpu_dir/cpu0/cpuidle/state2
	t=$(<"$s/time")
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 0 -v -- sh -c "echo $((t - 1000)) >'$s/time'; sleep 0.2"
	assert_success
	jq -e '.cpus[0].cstates[2] | .residency_pct == 0 and .time_us == 0' <<<"$output"
	jq -e '.anomalies.step_back == 1' <<<"$output"
	[[ "$stderr" == *"cpu0 state2 time went back by 1000"*"not a reset"* ]] || fail "-v: $stderr"
	# The human report says so too.
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -c 0 -- sh -c "echo $((t - 2000)) >'$s/time'"
	assert_output --partial "counters: 1 step_back"
}

@test "a cpuidle time and usage 1 back: no 1 564 082 %, no 601 570 333 entries/s" {
	fresh -v fx laptop2006
	s=$fx/$cpu_dir/cpu0/cpuidle/state1
	t=$(<"$s/time") u=$(<"$s/usage")
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 0 -- sh -c "echo $((t - 1)) >'$s/time'; echo $((u - 1)) >'$s/usage'; sleep 0.1"
	assert_success
	jq -e '.cpus[0].cstates[1] | .residency_pct == 0 and .entries_per_s == 0' <<<"$output"
	jq -e '.anomalies.step_back == 2' <<<"$output"
}

@test "/proc/stat iowait or idle one tick back under a busy CPU: 100 % busy, not 0.0" {
	fresh -v fx vm-haltpoll
	f=$fx/proc/stat
	# cpu1: user + 10 ticks (0.1 s) in 0.2 s, iowait - 1.
	awk '$1 == "cpu1" { $2 += 10; $6 -= 1 } { print }' "$f" >"$BATS_TEST_TMPDIR/stat"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 1 -- sh -c "sleep 0.2; cat '$BATS_TEST_TMPDIR/stat' >'$f'"
	assert_success
	jq -e '.cpus[0] | .busy_pct == 100 and .user_pct == 100 and .iowait_pct == 0' <<<"$output"
	jq -e '.anomalies.step_back == 1' <<<"$output"
	# idle one tick back instead (issue 24).
	cp "$BATS_TEST_TMPDIR/stat" "$BATS_TEST_TMPDIR/stat0"
	awk '$1 == "cpu1" { $2 += 10; $5 -= 1 } { print }' "$BATS_TEST_TMPDIR/stat0" >"$BATS_TEST_TMPDIR/stat"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 1 -- sh -c "sleep 0.2; cat '$BATS_TEST_TMPDIR/stat' >'$f'"
	jq -e '.cpus[0] | .busy_pct == 100 and .idle_pct == 0' <<<"$output"
}

@test "an interrupt count wrapping 4294967290 -> 3: +9, not 901 112/s" {
	fresh -v fx vm-haltpoll
	f=$fx/proc/interrupts
	sed -i 's/^  1:          0          9 /  1:          0 4294967290 /' "$f"
	sed 's/^  1:          0 4294967290 /  1:          0          3 /' "$f" >"$BATS_TEST_TMPDIR/irq"
	grep -q '^  1:          0          3 ' "$BATS_TEST_TMPDIR/irq"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 1 --wakeups -- sh -c \
		"sleep 0.2; cat '$BATS_TEST_TMPDIR/irq' >'$f'"
	assert_success
	jq -e '.interval_s as $i | ((.cpus[0].wakeups_per_s - 9 / $i) | fabs) < 0.1' <<<"$output"
	jq -e '.interval_s as $i | .wakeups.top[0] | .irq == "1" and ((.per_s - 9 / $i) | fabs) < 0.1' <<<"$output"
	jq -e '.anomalies.wrap == 1' <<<"$output"
	# Only that cell: CPU 0's count of the same row is its own.
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 0-1 --wakeups -- sh -c "sleep 0.1"
	jq -e '[.cpus[].wakeups_per_s] == [0, 0]' <<<"$output"
}

@test "since boot, a state time longer than the uptime: unknown, not 10 000 000 %" {
	fresh -v fx laptop2006
	up=$(cut -d' ' -f1 "$fx/proc/uptime")
	s=$fx/$cpu_dir/cpu0/cpuidle/state1
	awk -v u="$up" 'BEGIN { printf "%.0f\n", u * 1e6 * 100000 }' >"$s/time"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 0
	assert_success
	jq -e '.cpus[0].cstates[1].share_pct == null and .anomalies.over_uptime == 1' <<<"$output"
	jq -e '[.cpus[0].cstates[].share_pct | select(. != null)] | all(. >= 0 and . <= 100)' <<<"$output"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -c 0 --cstates
	assert_success
	refute_output --partial "10000000"
	assert_output --partial "counters: 1 over_uptime"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -c 0 --cstates -v
	[[ "$stderr" == *"cpu0 state1 time"*"more than the"*"since boot"* ]] || fail "-v: $stderr"
}

@test "a malformed time_in_state line is said to be malformed, naming the line" {
	fresh -v fx laptop2006
	p=$fx/$cpu_dir/cpufreq/policy0/stats
	rm -f "$p/total_trans"
	printf '1833000 100\n1333000 12x\n1000000 300\n' >"$p/time_in_state"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" --pstates -c 0
	assert_success
	assert_output --partial "line 2 of /sys/devices/system/cpu/cpufreq/policy0/stats/time_in_state is malformed"
	refute_output --partial "keeps none"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" --pstates -c 0 -J
	jq -e '.cpus[0].pstates | .time_in_state == null and .time_in_state_bad_line == 2' <<<"$output"
	jq -e '.anomalies.malformed == 1' <<<"$output"
}

@test "the kernel's unknown values: latency 4294967295 and a counter at 2^64-1 are -, null" {
	fresh -v fx laptop2006
	s=$fx/$cpu_dir/cpu0/cpuidle/state3
	echo 4294967295 >"$s/latency"
	echo 18446744073709551615 >"$s/usage"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 0 --cstates
	assert_success
	jq -e '.cpus[0].cstates[3] | .latency_us == null and .usage == null' <<<"$output"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -c 0 --cstates
	refute_output --partial 4294967295
	refute_output --partial 18446744073709551615
	grep -E '^ +0 +3 C3 +- ' <<<"$output"
	# Read mid-run: unknown, and counted.
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -c 0 -i 0.1 -n 1
	jq -e '.cpus[0].cstates[3].usage == null and .anomalies.unknown >= 1' <<<"$output"
}

# ------------------------------------------------------------ big and mixed

@test "CPUs with different idle states are grouped, each with its own states (Arm phone)" {
	d=$(dump arm-A510-A710-A715-X3)
	run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -s --cstates
	assert_success
	grep -Eq '^ *0-2 +1 silver-c4 +1300 +6700 ' <<<"$output" || fail "$output"
	grep -Eq '^ *3-6 +1 gold-c4 +1900 +8136 ' <<<"$output" || fail "$output"
	grep -Eq '^ *7 +1 gold-plus-c4 +1850 +7480 ' <<<"$output" || fail "$output"
	refute_output --regexp 'all +1 silver-c4'
	run --separate-stderr "$bin/cstate-stat" --sysroot "$d" -s --cstates -J
	jq -e '[.summary.groups[] | [.cpus, .cstates[1].name]] ==
		[[[0,1,2], "silver-c4"], [[3,4,5,6], "gold-c4"], [[7], "gold-plus-c4"]]' <<<"$output"
	jq -e '.summary.cstates[1].name == null and .summary.cstates[0].name == "WFI"' <<<"$output"
	# Usage summed per group is the files'.
	want=$(cat "$d"/$cpu_dir/cpu[3-6]/cpuidle/state1/usage | awk '{ s += $1 } END { print s }')
	jq -e --argjson w "$want" '.summary.groups[1].cstates[1].usage == $w' <<<"$output"
}

@test "256 CPUs: the human report since boot fits a screen, JSON keeps every row" {
	base=/dev/shm
	[ -d "$base" ] && [ -w "$base" ] || base=$BATS_FILE_TMPDIR
	fx=$(mktemp -d "$base/pmtools-256.XXXXXX")
	rmdir "$fx"
	mkfx server "$fx"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx"
	n=${#lines[@]}
	human=$output
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J
	json=$output
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" --pstates -J -c 0-3
	rm -rf "$fx"
	[ "$n" -le 40 ] || fail "$n lines (779 before)"
	grep -Eq '^128 policies \(cpus 0-255\): acpi-cpufreq, schedutil' <<<"$human" || fail "$human"
	[ "$(jq '.cpus | length' <<<"$json")" -eq 256 ]
	[ "$(jq '[.cpus[].pstates.time_in_state | length] | add' <<<"$json")" -eq 1280 ]
}
