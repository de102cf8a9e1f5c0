#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr, $stderr_lines come from helpers.bash and run
# pmctl freq set and pmctl boost on fixture copies: every write read back
# from the tree, every refusal leaves the tree byte-identical, rollback
# after a failed write (the fault shim), the lock, and non-root users.

load helpers

cf=sys/devices/system/cpu/cpufreq

setup_file() {
	for m in laptop2006 hwp-laptop amd-desktop arm-biglittle vm-haltpoll; do
		fixture "$m" >/dev/null &
	done
	wait
}

setup() {
	load_libs
}

@test "freq set --governor writes every policy and reads it back" {
	fresh -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq set --governor performance
	assert_success
	[ -z "$output" ]
	[ "$(<"$fx/$cf/policy0/scaling_governor")" = performance ]
	[ "$(<"$fx/$cf/policy4/scaling_governor")" = performance ]
	run "$bin/pmctl" --sysroot "$fx" freq -J
	jq -e '[.policies[].governor] == ["performance", "performance"]' <<<"$output"
}

@test "freq set: a governor name is matched without case, as the kernel does" {
	fresh -v fx laptop2006
	run "$bin/pmctl" --sysroot "$fx" freq set --governor PowerSave
	assert_success
	[ "$(<"$fx/$cf/policy0/scaling_governor")" = powersave ]
}

@test "freq set: a governor the driver does not offer is exit 3 with the choices" {
	fresh -v fx arm-biglittle
	refused 3 pmctl "$fx" freq set --governor ondemand
	[ "${stderr_lines[0]}" = "pmctl: cannot set governor 'ondemand' on policy0 (cpus 0-3): not available (available: userspace powersave performance schedutil)" ]
}

@test "freq set: bad values are exit 2 and change nothing" {
	fresh -v fx arm-biglittle
	bad_input pmctl "$fx" freq set --governor 'a b'
	bad_input pmctl "$fx" freq set --governor ''
	bad_input pmctl "$fx" freq set --governor waytoolonggovernorname
	bad_input pmctl "$fx" freq set --min abc
	bad_input pmctl "$fx" freq set --min -1
	bad_input pmctl "$fx" freq set --max 0
	bad_input pmctl "$fx" freq set --max 1.2.3GHz
	bad_input pmctl "$fx" freq set --max 99999999999999999999
	bad_input pmctl "$fx" freq set --epp 'x;y'
	bad_input pmctl "$fx" freq set
	bad_input pmctl "$fx" freq set extra --governor performance
	bad_input pmctl "$fx" freq set --governor performance --governor powersave
	bad_input pmctl "$fx" freq set --governor performance -c 99
	bad_input pmctl "$fx" freq set --governor performance --hold
}

@test "freq set: min above max, or outside the hardware range, is exit 2" {
	fresh -v fx arm-biglittle
	refused 2 pmctl "$fx" freq set --min 1.2GHz --max 1GHz
	[ "${stderr_lines[0]}" = "pmctl: --min 1.2 GHz is above --max 1 GHz" ]
	refused 2 pmctl "$fx" freq set --max 5GHz
	[ "${stderr_lines[0]}" = "pmctl: --max 5 GHz is outside the hardware range of policy0 (cpus 0-3): 408 MHz - 1.416 GHz" ]
	refused 2 pmctl "$fx" freq set --min 100MHz
}

@test "freq set: units (kHz bare, MHz, GHz with decimals) land as kHz" {
	fresh -v fx arm-biglittle
	run "$bin/pmctl" --sysroot "$fx" freq set -c 4 --min 600MHz --max 1.608GHz
	assert_success
	[ "$(<"$fx/$cf/policy4/scaling_min_freq")" = 600000 ]
	[ "$(<"$fx/$cf/policy4/scaling_max_freq")" = 1608000 ]
	run "$bin/pmctl" --sysroot "$fx" freq set -c 4 --min 816000
	assert_success
	[ "$(<"$fx/$cf/policy4/scaling_min_freq")" = 816000 ]
}

@test "freq set: raising both limits writes max first, lowering writes min first" {
	fresh -v fx arm-biglittle
	printf '408000\n' >"$fx/$cf/policy4/scaling_min_freq"
	printf '600000\n' >"$fx/$cf/policy4/scaling_max_freq"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v freq set -c 4 --min 1.2GHz --max 1.8GHz
	assert_success
	[[ ${stderr_lines[1]} == *"policy4/scaling_max_freq: 600000 -> 1800000" ]]
	[[ ${stderr_lines[2]} == *"policy4/scaling_min_freq: 408000 -> 1200000" ]]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v freq set -c 4 --min 408MHz --max 600MHz
	assert_success
	[[ ${stderr_lines[1]} == *"policy4/scaling_min_freq: 1200000 -> 408000" ]]
	[[ ${stderr_lines[2]} == *"policy4/scaling_max_freq: 1800000 -> 600000" ]]
}

@test "freq set -c: only the policies of those CPUs, and the sharing CPUs are named" {
	fresh -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq set -c 5 --governor powersave
	assert_success
	[ "${stderr_lines[0]}" = "pmctl: policy4 (cpus 4-5) is shared: the change applies to cpus 4 too" ]
	[ "$(<"$fx/$cf/policy4/scaling_governor")" = powersave ]
	[ "$(<"$fx/$cf/policy0/scaling_governor")" = schedutil ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -q freq set -c 1 --governor powersave
	assert_success
	[ -z "$stderr" ]
}

@test "freq set: a policy whose CPUs are all offline is skipped with a note" {
	fresh -v fx arm-biglittle
	# As the kernel has it with CPUs 4 and 5 offline.
	: >"$fx/$cf/policy4/affected_cpus"
	echo 0-3 >"$fx/sys/devices/system/cpu/online"
	echo 0 >"$fx/sys/devices/system/cpu/cpu4/online"
	echo 0 >"$fx/sys/devices/system/cpu/cpu5/online"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq set --governor powersave
	assert_success
	[ "${stderr_lines[0]}" = "pmctl: policy4 (cpus 4-5): every CPU is offline, skipped" ]
	[ "$(<"$fx/$cf/policy4/scaling_governor")" = schedutil ]
	refused 3 pmctl "$fx" freq set -c 4-5 --governor powersave
}

@test "freq set -n prints each write and changes nothing" {
	fresh -v fx arm-biglittle
	before=$(tree_sum "$fx")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -n freq set --governor performance --max 1.2GHz
	assert_success
	assert_output "/$cf/policy0/scaling_governor = performance
/$cf/policy0/scaling_max_freq = 1200000
/$cf/policy4/scaling_governor = performance
/$cf/policy4/scaling_max_freq = 1200000"
	[ "$(tree_sum "$fx")" = "$before" ]
	[ ! -e "$fx/run/opp-set.lock" ]
}

@test "freq set --json reports every write" {
	fresh -v fx laptop2006
	run "$bin/pmctl" --sysroot "$fx" -J freq set --governor powersave
	assert_success
	# Two CPUs, a policy each.
	jq -e '.changed == 2 and .unchanged == 0 and .rolled_back == false and .dry_run == false' <<<"$output"
	jq -e '.writes[0] | .path == "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor" and .old == "ondemand" and .new == "powersave" and .read_back == "powersave" and .ok == true and .errno == null' <<<"$output"
	run "$bin/pmctl" --sysroot "$fx" -J freq set --governor powersave
	jq -e '.changed == 0 and .unchanged == 2 and .writes == []' <<<"$output"
	run "$bin/pmctl" --sysroot "$fx" -F kv freq set --governor ondemand
	assert_success
	eval "$output"
	# shellcheck disable=SC2154 # set by the eval
	[ "$changed" = 2 ] && [ "$write0_new" = ondemand ]
}

@test "freq set --epp: under the performance governor it is refused, with --governor powersave it works" {
	fresh -v fx hwp-laptop
	"$bin/pmctl" --sysroot "$fx" freq set --governor performance
	refused 2 pmctl "$fx" freq set --epp power
	[[ ${stderr_lines[0]} == *"under the performance governor the kernel refuses any EPP but performance (EBUSY); add --governor powersave" ]]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v freq set --governor powersave --epp power
	assert_success
	[[ ${stderr_lines[0]} == *"policy0/scaling_governor: performance -> powersave" ]]
	[[ ${stderr_lines[1]} == *"policy0/energy_performance_preference: "*" -> power" ]]
	for p in "$fx/$cf"/policy*; do
		[ "$(<"$p/energy_performance_preference")" = power ]
		[ "$(<"$p/scaling_governor")" = powersave ]
	done
}

@test "freq set --epp: names checked against the choices; raw numbers on intel_pstate only" {
	fresh -v fx hwp-laptop
	refused 3 pmctl "$fx" freq set --epp powersave
	[[ ${stderr_lines[0]} == *"not available (available: default performance balance_performance balance_power power)" ]]
	run "$bin/pmctl" --sysroot "$fx" freq set --epp 128
	assert_success
	[ "$(<"$fx/$cf/policy0/energy_performance_preference")" = 128 ]
	refused 2 pmctl "$fx" freq set --epp 256
	fresh -v fx amd-desktop
	refused 3 pmctl "$fx" freq set --epp 128
	[[ ${stderr_lines[0]} == *"the amd-pstate-epp driver takes names only"* ]]
	fresh -v fx laptop2006
	refused 3 pmctl "$fx" freq set --epp power
	[[ ${stderr_lines[0]} == *"the acpi-cpufreq driver offers no energy performance preference here" ]]
}

@test "freq set --speed needs the userspace governor, and switches only when asked" {
	fresh -v fx laptop2006
	refused 2 pmctl "$fx" freq set --speed 1GHz
	[ "${stderr_lines[0]}" = "pmctl: --speed needs the userspace governor: policy0 (cpus 0) runs ondemand (add --governor userspace)" ]
	run "$bin/pmctl" --sysroot "$fx" freq set --governor userspace --speed 1GHz
	assert_success
	[ "$(<"$fx/$cf/policy0/scaling_governor")" = userspace ]
	[ "$(<"$fx/$cf/policy0/scaling_setspeed")" = 1000000 ]
	refused 2 pmctl "$fx" freq set --speed 3GHz
}

@test "freq set: a value the kernel holds elsewhere is written and reported with the effective value" {
	fault_so
	fresh -v fx arm-biglittle
	# The shim lets the write pass without changing the file: the read
	# back then shows the value "the kernel" kept, as a thermal limit would.
	LD_PRELOAD=$so PM_FAULT_WRITE="*/policy0/scaling_max_freq=IGNORE" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" -c 0 -J freq set --max 1.2GHz
	assert_success
	[ "${stderr_lines[1]}" = "pmctl: policy0 (cpus 0-3): max 1.2 GHz written, the kernel holds 1.416 GHz (limited by thermal, firmware or other QoS requests, or the frequency table)" ]
	jq -e '.writes[0] | .new == "1200000" and .read_back == "1416000" and .ok' <<<"$output"
}

@test "freq set: a failed write restores every earlier one and says so (exit 1)" {
	fault_so
	fresh -v fx hwp-laptop
	before=$(tree_sum "$fx")
	LD_PRELOAD=$so PM_FAULT_WRITE="*/policy5/energy_performance_preference=EIO" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq set --epp balance_power
	assert_failure 1
	[ "${stderr_lines[0]}" = "pmctl: cannot set EPP 'balance_power' on policy5 (cpus 5): cannot write 'balance_power' to /$cf/policy5/energy_performance_preference: Input/output error (EIO)" ]
	[ "${stderr_lines[1]}" = "pmctl: restored the 5 earlier writes: nothing was changed" ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "freq set: a restore that fails is named, file by file" {
	fault_so
	fresh -v fx hwp-laptop
	LD_PRELOAD=$so PM_FAULT_WRITE="*/policy5/energy_performance_preference=EIO;*/policy2/energy_performance_preference=EROFS@2" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq set --epp balance_power
	assert_failure 1
	[ "${stderr_lines[1]}" = "pmctl: could not restore /$cf/policy2/energy_performance_preference to 'balance_performance': Read-only file system (EROFS)" ]
	[ "${stderr_lines[2]}" = "pmctl: 1 of 5 earlier writes could not be restored" ]
	[ "$(<"$fx/$cf/policy2/energy_performance_preference")" = balance_power ]
	[ "$(<"$fx/$cf/policy1/energy_performance_preference")" = balance_performance ]
}

@test "freq set: EBUSY on the first write is exit 4, nothing changed" {
	fault_so
	fresh -v fx arm-biglittle
	before=$(tree_sum "$fx")
	LD_PRELOAD=$so PM_FAULT_WRITE="*/policy0/scaling_governor=EBUSY" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq set --governor powersave
	assert_failure 4
	[[ ${stderr_lines[0]} == *"Device or resource busy (EBUSY)" ]]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "freq set: the writers' lock held by another is exit 4; --wait waits for it" {
	command -v flock >/dev/null || skip "flock(1) is missing"
	fresh -v fx laptop2006
	mkdir -p "$fx/run"
	hold_lock "$fx/run/opp-set.lock"
	refused 4 pmctl "$fx" freq set --governor powersave
	[[ ${stderr_lines[0]} == "pmctl: busy: /run/opp-set.lock is held"*"use --wait to wait for it" ]]
	refused 4 pmctl "$fx" --wait=0.1 freq set --governor powersave
	release_lock_after 0.3
	run "$bin/pmctl" --sysroot "$fx" --wait=60 freq set --governor powersave
	assert_success
	[ "$(<"$fx/$cf/policy0/scaling_governor")" = powersave ]
	wait
}

@test "freq set as a non-root user: one line, root is needed, nothing changed" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	d=$(nobody_copy laptop2006)
	nb=$(nobody_bin)
	before=$(tree_sum "$d")
	run --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$nb/pmctl" --sysroot "$d" freq set --governor powersave
	after=$(tree_sum "$d")
	rm -rf "$d" "$nb"
	assert_failure 1
	[ "$stderr" = "pmctl: root is needed to write /$cf/policy0/scaling_governor" ]
	[ "$after" = "$before" ]
}

@test "freq set without --sysroot under PM_TEST_GUARD is refused (exit 2)" {
	run --separate-stderr "$bin/pmctl" freq set --governor nosuchgov
	assert_failure 2
	[[ $stderr == *"PM_TEST_GUARD is set and the system root is the real /"* ]]
}

@test "freq set on a machine without cpufreq is exit 3" {
	fresh -v fx vm-haltpoll
	refused 3 pmctl "$fx" freq set --governor performance
}

@test "boost on|off: cpufreq/boost, intel_pstate/no_turbo inverted, per-policy with -c" {
	fresh -v fx arm-biglittle
	run "$bin/pmctl" --sysroot "$fx" boost on
	assert_success
	[ "$(<"$fx/$cf/boost")" = 1 ]
	run "$bin/pmctl" --sysroot "$fx" boost
	assert_output "boost: on (cpufreq/boost)"
	fresh -v fx hwp-laptop
	run "$bin/pmctl" --sysroot "$fx" boost off
	assert_success
	[ "$(<"$fx/sys/devices/system/cpu/intel_pstate/no_turbo")" = 1 ]
	run "$bin/pmctl" --sysroot "$fx" -J boost
	jq -e '.boost == false and .control == "intel_pstate/no_turbo"' <<<"$output"
	fresh -v fx amd-desktop
	run "$bin/pmctl" --sysroot "$fx" -c 2-3 boost off
	assert_success
	[ "$(<"$fx/$cf/policy2/boost")" = 0 ]
	[ "$(<"$fx/$cf/policy3/boost")" = 0 ]
	[ "$(<"$fx/$cf/policy0/boost")" = 1 ]
	run "$bin/pmctl" --sysroot "$fx" -J boost
	jq -e '[.policies[] | .boost] | map(if . then 1 else 0 end) | add == 14' <<<"$output"
}

@test "boost: refusals" {
	fresh -v fx laptop2006
	refused 3 pmctl "$fx" boost on
	[[ ${stderr_lines[0]} == *"no boost control on this machine"* ]]
	fresh -v fx arm-biglittle
	bad_input pmctl "$fx" boost maybe
	bad_input pmctl "$fx" boost on off
	bad_input pmctl "$fx" boost on --governor x
	refused 3 pmctl "$fx" -c 0 boost on
}

@test "boost on: turbo disabled by the firmware (EPERM) is said so" {
	fault_so
	fresh -v fx hwp-laptop
	printf '1\n' >"$fx/sys/devices/system/cpu/intel_pstate/no_turbo"
	LD_PRELOAD=$so PM_FAULT_WRITE="*/intel_pstate/no_turbo=EPERM" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" boost on
	assert_failure 1
	[[ ${stderr_lines[0]} == "pmctl: cannot turn boost on: the firmware has disabled turbo"* ]]
}
