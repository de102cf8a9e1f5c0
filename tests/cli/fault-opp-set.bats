#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $so and bats' $status, $stderr come from helpers.bash and run
# opp-set under the fault shim (tests/fault): a point across every section
# on a 4-CPU fixture, failed at every write position with every errno of
# issue 7 and a short write (exit 1, or 4 for EBUSY on the first write;
# the file and errno named; the tree byte-identical); unreadable
# attributes before planning; and the write order of issue 6 from the
# shim's log.
# tests/run: not under ASan: every test needs the fault shim, which cannot run under ASan (fault_so skips it)

load helpers
load ../fault/suite

setup() {
	load_libs
	fault_setup
}

teardown() {
	fault_teardown
}

cpu=/sys/devices/system/cpu
cf=$cpu/cpufreq

@test "a point across every section: a failure at every write, every errno" {
	fault_so
	fault_loop opp-set "$(opp_fixture)" full
	echo "# $fault_n of $fault_all fault scenarios (opp-set)" >&3
	[ "$fault_all" -ge 200 ]
}

@test "a failure after earlier writes says what was restored; EBUSY first is exit 4" {
	fault_so
	fx=$(opp_fixture)
	before=$(tree_sum "$fx")
	run --separate-stderr env PM_FAULT_WRITE="*/sys/*=EINVAL@5:write" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$fx" full
	assert_failure 1
	[ "${stderr_lines[1]}" = "opp-set: restored the 4 earlier writes: nothing was changed" ]
	run --separate-stderr env PM_FAULT_WRITE="*/sys/*=EBUSY@1:write" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$fx" full
	assert_failure 4
	[[ ${stderr_lines[0]} == "opp-set: "*"$cpu/intel_pstate/status"*"(EBUSY)"* ]]
	# A short write of the profile: the profile itself is put back too.
	run --separate-stderr env PM_FAULT_WRITE="*/platform_profile=SHORT@1:write" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$fx" -J full
	assert_failure 1
	jq -e '[.writes[] | select(.path == "/sys/firmware/acpi/platform_profile")][0] | .ok == false and .restored' <<<"$output"
	[ "$(tree_sum "$fx")" = "$before" ]
}

# Files the point reads through libpm's models (idle states, the cpuidle
# governor, boost, the profile, runtime PM) and a raw [sysfs] file:
# unreadable, each is exit 1 naming it and the errno, never "not
# offered" (exit 3) nor taken for the value wanted.
opp_read_models=("*/cpuidle/state*/disable" "*/cpuidle/current_governor"
	"*/intel_pstate/no_turbo" "*/platform_profile" "*/power/control" "*/sys/power/mem_sleep")

@test "a failed read of an attribute before planning: exit 1 naming it, nothing written" {
	fault_so
	fx=$(opp_fixture)
	fault_reads 1 EIO opp-set "$fx" steady
	fault_reads 1 EACCES opp-set "$fx" steady
	echo "# $fault_n read fault scenarios (opp-set)" >&3
	[ "$fault_n" -ge 20 ]
}

@test "after the status switch and cpu3 online: an unreadable file of theirs is exit 1 naming it, both undone" {
	fault_so
	fx=$(opp_fixture)
	tree_save "$fx" "$fault_tmp/before"
	n=0
	for x in "$cf/policy0/scaling_governor" "$cf/policy2/scaling_max_freq" \
		"$cf/policy1/energy_performance_preference" "$cpu/intel_pstate/max_perf_pct" \
		"$cf/policy3/scaling_min_freq" "$cpu/cpu3/cpuidle/state5/disable"; do
		fault_run PM_FAULT_READ="*$x=EIO" opp-set "$fx" full
		[ "$status" -eq 1 ] || fail "$x: exit $status: $stderr"
		[[ ${stderr_lines[0]} == "opp-set: "*"$x"*"(EIO)"* ]] || fail "$x: $stderr"
		[[ ${stderr_lines[1]} == "opp-set: restored the 2 earlier writes: nothing was changed" ]] || fail "$x: $stderr"
		tree_same "$fx" "$fault_tmp/before" || fail "$x: the tree changed"
		n=$((n + 1))
	done
	echo "# $n read fault scenarios after the switch (opp-set)" >&3
}

@test "unreadable idle states, cpuidle governor, no_turbo, profile, runtime PM, [sysfs] files fail too" {
	fault_so
	fx=$(opp_fixture)
	tree_save "$fx" "$fault_tmp/before"
	for x in "${opp_read_models[@]}"; do
		for e in EIO EACCES; do
			fault_run PM_FAULT_READ="$x=$e" opp-set "$fx" steady
			[ "$status" -eq 1 ] || fail "$x $e: exit $status: $stderr"
			[[ $stderr == "opp-set: /etc/pm/opp.d/steady.conf:"*": cannot read "*"($e)" ]] || fail "$x $e: $stderr"
			tree_same "$fx" "$fault_tmp/before" || fail "$x $e: the tree changed"
		done
	done
}

@test "the write order of issue 6, from the shim's log" {
	fault_so
	fx=$(opp_fixture)
	mapfile -t w < <(fault_writes "$fx" opp-set full | cut -f1)
	at() { # PATH: its position in the log, or fail
		local i
		for i in "${!w[@]}"; do
			[ "${w[i]}" != "$1" ] || {
				echo "$i"
				return 0
			}
		done
		fail "no write of $1 in: ${w[*]}"
	}
	before() { # A B: A is written before B
		local a b
		a=$(at "$1") && b=$(at "$2") || return 1
		[ "$a" -lt "$b" ] || fail "$1 (write $((a + 1))) is not before $2 (write $((b + 1)))"
	}
	# The driver's status first (it recreates the policies), then the
	# CPUs online, before everything of theirs.
	[ "${w[0]}" = "$cpu/intel_pstate/status" ] || fail "first write: ${w[0]}"
	[ "${w[1]}" = "$cpu/cpu3/online" ] || fail "second write: ${w[1]}"
	# Governor before EPP, on every policy written.
	for p in 0 1 2; do
		before "$cf/policy$p/scaling_governor" "$cf/policy$p/energy_performance_preference"
	done
	# Raising a range: max first; lowering: min first.
	before "$cf/policy0/scaling_max_freq" "$cf/policy0/scaling_min_freq"
	before "$cf/policy1/scaling_max_freq" "$cf/policy1/scaling_min_freq"
	before "$cf/policy2/scaling_min_freq" "$cf/policy2/scaling_max_freq"
	before "$cpu/intel_pstate/max_perf_pct" "$cpu/intel_pstate/min_perf_pct"
	# Every limit and EPP of a policy after its governor, raw sysfs last.
	before "$cf/policy0/scaling_governor" "$cf/policy0/scaling_max_freq"
	[ "${w[-1]}" = /sys/power/mem_sleep ]
	# The CPU brought online: its policy and idle states after it.
	before "$cpu/cpu3/online" "$cf/policy3/scaling_governor"
	before "$cpu/cpu3/online" "$cpu/cpu3/cpuidle/state5/disable"
}

@test "a CPU the point brings online gets its policy and idle states too" {
	fault_so
	fx=$(opp_fixture)
	mapfile -t w < <(fault_writes "$fx" opp-set full | cut -f1)
	[[ " ${w[*]} " == *" $cf/policy3/scaling_governor "* ]] || fail "policy3 not written: ${w[*]}"
	[[ " ${w[*]} " == *" $cpu/cpu3/cpuidle/state5/disable "* ]] || fail "cpu3's C10 not written: ${w[*]}"
	[ "$(<"$fx$cf/policy3/scaling_governor")" = powersave ]
}
