#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr, $stderr_lines come from helpers.bash and run
# pmctl idle, cpu, smt, latency, profile, devfreq and supply writes on
# fixture copies: each write read back from the tree, each refusal with
# the tree byte-identical, rollback through the fault shim.

load helpers

cpu=sys/devices/system/cpu

setup_file() {
	for m in laptop2006 hwp-laptop amd-desktop arm-biglittle vm-haltpoll; do
		fixture "$m" >/dev/null &
	done
	wait
}

setup() {
	load_libs
}

disabled_list() { # FX STATE: the CPUs where stateN is disabled, as "0 1 2"
	local c out=
	for c in "$1/$cpu"/cpu[0-9]*; do
		[ -f "$c/cpuidle/state$2/disable" ] || continue
		[ "$(<"$c/cpuidle/state$2/disable")" = 1 ] && out+="${c##*cpu} "
	done
	printf '%s\n' "${out% }"
}

@test "idle disable by name and by index on the CPUs of -c, enable all" {
	fresh -v fx hwp-laptop
	run "$bin/pmctl" --sysroot "$fx" -c 0-1 idle disable C6 4
	assert_success
	[ "$(disabled_list "$fx" 3)" = "0 1" ]
	[ "$(disabled_list "$fx" 4)" = "0 1" ]
	[ "$(disabled_list "$fx" 5)" = "" ]
	run "$bin/pmctl" --sysroot "$fx" idle -J
	jq -e '.states[] | select(.name == "C6") | .disabled_cpus == 2' <<<"$output" ||
		jq -e '.' <<<"$output" >/dev/null
	run "$bin/pmctl" --sysroot "$fx" idle disable c1e
	assert_success
	[ "$(disabled_list "$fx" 2)" = "0 1 2 3 4 5 6 7" ]
	run "$bin/pmctl" --sysroot "$fx" idle enable all
	assert_success
	for s in 0 1 2 3 4 5; do [ "$(disabled_list "$fx" "$s")" = "" ]; done
}

@test "idle: an unknown state is exit 3 with the states; bad input exit 2" {
	fresh -v fx hwp-laptop
	refused 3 pmctl "$fx" idle disable C9
	[ "${stderr_lines[0]}" = "pmctl: no idle state 'C9' on cpu0 (states: 0:POLL 1:C1 2:C1E 3:C6 4:C8 5:C10)" ]
	refused 3 pmctl "$fx" idle disable 6
	bad_input pmctl "$fx" idle disable
	bad_input pmctl "$fx" idle disable 'C6;rm'
	bad_input pmctl "$fx" idle disable all
	bad_input pmctl "$fx" idle limit
	bad_input pmctl "$fx" idle limit -5
	bad_input pmctl "$fx" idle limit 1e3
	bad_input pmctl "$fx" idle limit 3000s
	bad_input pmctl "$fx" idle limit 5 6
	bad_input pmctl "$fx" idle governor
	bad_input pmctl "$fx" idle governor ../menu
	bad_input pmctl "$fx" -c 0 idle governor menu
	bad_input pmctl "$fx" idle disable C6 --governor x
}

@test "idle limit: states that take longer to leave are disabled, the others enabled" {
	fresh -v fx hwp-laptop
	run "$bin/pmctl" --sysroot "$fx" idle disable C1
	run "$bin/pmctl" --sysroot "$fx" idle limit 180
	assert_success
	# C6 leaves in 170 us, C8 in 200, C10 in 230.
	[ "$(disabled_list "$fx" 1)" = "" ]
	[ "$(disabled_list "$fx" 3)" = "" ]
	[ "$(disabled_list "$fx" 4)" = "0 1 2 3 4 5 6 7" ]
	[ "$(disabled_list "$fx" 5)" = "0 1 2 3 4 5 6 7" ]
	run "$bin/pmctl" --sysroot "$fx" idle limit 1ms
	assert_success
	[ "$(disabled_list "$fx" 5)" = "" ]
	run "$bin/pmctl" --sysroot "$fx" -n idle limit 0
	assert_output --partial "/$cpu/cpu7/cpuidle/state1/disable = 1"
	refute_output --partial "state0/disable"
}

@test "idle on offline CPUs: skipped with a note" {
	fresh -v fx hwp-laptop
	# As the kernel shows CPUs 6-7 offline.
	printf '0-5\n' >"$fx/$cpu/online"
	printf '6-7\n' >"$fx/$cpu/offline"
	printf '0\n' | tee "$fx/$cpu/cpu6/online" >"$fx/$cpu/cpu7/online"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" idle disable C10
	assert_success
	[ "${stderr_lines[0]}" = "pmctl: cpus 6-7 are offline: skipped" ]
	[ "$(disabled_list "$fx" 5)" = "0 1 2 3 4 5" ]
}

@test "idle governor: checked against available_governors, written, read back" {
	fresh -v fx laptop2006
	run "$bin/pmctl" --sysroot "$fx" idle governor ladder
	assert_success
	[ "$(<"$fx/$cpu/cpuidle/current_governor")" = ladder ]
	refused 3 pmctl "$fx" idle governor teo
	[ "${stderr_lines[0]}" = "pmctl: cannot set the cpuidle governor 'teo': not available (available: ladder menu)" ]
	rm "$fx/$cpu/cpuidle/current_governor"
	refused 3 pmctl "$fx" idle governor menu
	[[ ${stderr_lines[0]} == *"no cpuidle/current_governor"* ]]
}

@test "idle disable: a failed write restores the CPUs already changed" {
	fault_so
	fresh -v fx hwp-laptop
	before=$(tree_sum "$fx")
	LD_PRELOAD=$so PM_FAULT_WRITE="*/cpu5/cpuidle/state3/disable=EIO" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" idle disable C6
	assert_failure 1
	[ "${stderr_lines[1]}" = "pmctl: restored the 5 earlier writes: nothing was changed" ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "idle disable without CAP_SYS_ADMIN (EPERM) or as nobody: root is needed" {
	fault_so
	fresh -v fx hwp-laptop
	LD_PRELOAD=$so PM_FAULT_WRITE="*/cpuidle/state3/disable=EPERM" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" idle disable C6
	assert_failure 1
	[ "$stderr" = "pmctl: root is needed to write /$cpu/cpu0/cpuidle/state3/disable" ]
}

@test "cpu offline/online: written in order, read back, cpu0 refused" {
	fresh -v fx hwp-laptop
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v cpu offline 5,3-4
	assert_success
	[[ ${stderr_lines[0]} == *"/cpu3/online: 1 -> 0" ]]
	[[ ${stderr_lines[2]} == *"/cpu5/online: 1 -> 0" ]]
	[ "$(<"$fx/$cpu/cpu4/online")" = 0 ]
	run "$bin/pmctl" --sysroot "$fx" cpu online 3-5
	assert_success
	[ "$(<"$fx/$cpu/cpu4/online")" = 1 ]
	refused 3 pmctl "$fx" cpu offline 0
	[ "${stderr_lines[0]}" = "pmctl: cpu0 cannot be hot-plugged (it has no online file)" ]
	refused 2 pmctl "$fx" cpu offline 8
	[ "${stderr_lines[0]}" = "pmctl: cpu offline: no CPU 8 on this machine" ]
	bad_input pmctl "$fx" cpu offline
	bad_input pmctl "$fx" cpu offline 3-1
	bad_input pmctl "$fx" cpu offline x
	bad_input pmctl "$fx" cpu offline 1 2
}

@test "cpu offline of every online CPU is refused before any write" {
	fresh -v fx hwp-laptop
	# Every CPU hot-pluggable, as on a kernel with cpu0 hotplug.
	printf '1\n' >"$fx/$cpu/cpu0/online"
	refused 2 pmctl "$fx" cpu offline 0-7
	[[ ${stderr_lines[0]} == *"would leave no CPU online"* ]]
}

@test "cpu online: EPERM with SMT off is explained, and the others restored" {
	fault_so
	fresh -v fx hwp-laptop
	"$bin/pmctl" --sysroot "$fx" cpu offline 2-3
	printf 'off\n' >"$fx/$cpu/smt/control"
	before=$(tree_sum "$fx")
	LD_PRELOAD=$so PM_FAULT_WRITE="*/cpu3/online=EPERM" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" cpu online 2-3
	assert_failure 1
	[[ ${stderr_lines[0]} == "pmctl: cannot take cpu3 online: "*"(EPERM) (an SMT sibling stays offline while smt/control is off: pmctl smt on)" ]]
	[ "${stderr_lines[1]}" = "pmctl: restored the 1 earlier write: nothing was changed" ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "cpu offline: EBUSY on the first write is exit 4 with the reason" {
	fault_so
	fresh -v fx hwp-laptop
	LD_PRELOAD=$so PM_FAULT_WRITE="*/cpu1/online=EBUSY" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" cpu offline 1
	assert_failure 4
	[[ ${stderr_lines[0]} == *"(the last online CPU cannot go, and hotplug is off during a suspend)" ]]
}

@test "cpu online: a CPU the kernel lists offline while its file reads 1 (a failed bring-up) is exit 1, not 'nothing to change'" {
	fresh -v fx hwp-laptop
	# As a 2-CPU QEMU guest was left when CPU 1 did not wake at resume
	# ("do_boot_cpu failed(-1) to wakeup CPU#1"): before the fix pmctl
	# read the 1, had nothing to write and exited 0.
	printf '0,2-7\n' >"$fx/$cpu/online"
	printf '1\n' >"$fx/$cpu/offline"
	refused 1 pmctl "$fx" cpu online 1-2
	[[ ${stderr_lines[0]} == "pmctl: cpu1 is offline though /$cpu/cpu1/online reads 1: the kernel failed to bring it up"* ]]
	# An offline CPU whose file agrees is brought online as ever.
	printf '0\n' >"$fx/$cpu/cpu1/online"
	run "$bin/pmctl" --sysroot "$fx" cpu online 1
	assert_success
	[ "$(<"$fx/$cpu/cpu1/online")" = 1 ]
}

@test "smt on|off: written and read back; absent or forced off is exit 3" {
	fresh -v fx hwp-laptop
	run "$bin/pmctl" --sysroot "$fx" smt off
	assert_success
	[ "$(<"$fx/$cpu/smt/control")" = off ]
	run "$bin/pmctl" --sysroot "$fx" -J smt
	jq -e '.control == "off"' <<<"$output"
	printf 'forceoff\n' >"$fx/$cpu/smt/control"
	refused 3 pmctl "$fx" smt on
	[[ ${stderr_lines[0]} == *"nosmt=force"* ]]
	# Forced off, it is off: nothing to do, as for opp-set's [cpu] smt.
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" smt off
	assert_success
	[ "$(<"$fx/$cpu/smt/control")" = forceoff ]
	fresh -v fx arm-biglittle
	refused 3 pmctl "$fx" smt off
	[ "${stderr_lines[0]}" = "pmctl: this machine has no SMT to switch (smt/control: notsupported)" ]
	bad_input pmctl "$fx" smt forceoff
	bad_input pmctl "$fx" smt on off
}

@test "latency -- COMMAND: 4 binary bytes while the command runs, its exit status" {
	fresh -v fx vm-haltpoll
	# shellcheck disable=SC2016 # expanded by the command's shell
	run "$bin/pmctl" --sysroot "$fx" latency 20 -- sh -c 'od -An -td4 "$PM_SYSROOT/dev/cpu_dma_latency" | tr -d " "; exit 7'
	assert_failure 7
	assert_output 20
	run "$bin/pmctl" --sysroot "$fx" latency 1ms -- true
	assert_success
	[ "$(od -An -td4 "$fx/dev/cpu_dma_latency" | tr -d ' ')" = 1000 ]
	run -127 --separate-stderr "$bin/pmctl" --sysroot "$fx" latency 5 -- /nonexistent
	[[ $stderr == *"cannot run '/nonexistent'"* ]]
}

@test "latency --hold keeps the limit until SIGTERM" {
	fresh -v fx vm-haltpoll
	"$bin/pmctl" --sysroot "$fx" latency 50 --hold &
	pid=$!
	for _ in $(seq 600); do
		[ "$(od -An -td4 "$fx/dev/cpu_dma_latency" | tr -d ' ')" = 50 ] && break
		sleep 0.05
	done
	kill -0 "$pid"
	kill -TERM "$pid"
	wait "$pid"
	[ "$(od -An -td4 "$fx/dev/cpu_dma_latency" | tr -d ' ')" = 50 ]
}

@test "latency: refusals change nothing" {
	fresh -v fx vm-haltpoll
	bad_input pmctl "$fx" latency
	bad_input pmctl "$fx" latency abc -- true
	bad_input pmctl "$fx" latency -1 -- true
	bad_input pmctl "$fx" latency 3000000000 -- true
	bad_input pmctl "$fx" latency 20
	bad_input pmctl "$fx" latency 20 true
	bad_input pmctl "$fx" latency 20 --hold -- true
	bad_input pmctl "$fx" -c 0 latency 20 -- true
	rm "$fx/dev/cpu_dma_latency"
	refused 3 pmctl "$fx" latency 20 -- true
	run "$bin/pmctl" --sysroot "$fx" -n latency 20 -- true
	assert_success
	assert_output "/dev/cpu_dma_latency = 20 (4 bytes, binary) while true"
}

@test "profile NAME: checked against the choices, written, read back" {
	fresh -v fx hwp-laptop
	run "$bin/pmctl" --sysroot "$fx" profile low-power
	assert_success
	[ "$(<"$fx/sys/firmware/acpi/platform_profile")" = low-power ]
	refused 3 pmctl "$fx" profile quiet
	[ "${stderr_lines[0]}" = "pmctl: profile: 'quiet' is not offered (choices: low-power balanced performance)" ]
	refused 3 pmctl "$fx" profile custom
	bad_input pmctl "$fx" profile 'a b'
	bad_input pmctl "$fx" profile ../x
	fresh -v fx laptop2006
	refused 3 pmctl "$fx" profile balanced
}

@test "devfreq set: Hz written from kHz/MHz, ordered, range and governor checked" {
	fresh -v fx arm-biglittle
	d=$fx/sys/class/devfreq/ff9a0000.gpu
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v devfreq set ff9a0000.gpu --min 600MHz --max 800000
	assert_success
	[ "$(<"$d/min_freq")" = 600000000 ]
	[ "$(<"$d/max_freq")" = 800000000 ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v devfreq set ff9a0000.gpu --min 200MHz --max 300MHz
	assert_success
	[[ ${stderr_lines[0]} == *"min_freq: 600000000 -> 200000000" ]]
	[[ ${stderr_lines[1]} == *"max_freq: 800000000 -> 300000000" ]]
	run "$bin/pmctl" --sysroot "$fx" devfreq set ff9a0000.gpu --governor performance
	assert_success
	[ "$(<"$d/governor")" = performance ]
	refused 3 pmctl "$fx" devfreq set ff9a0000.gpu --governor ondemand
	refused 2 pmctl "$fx" devfreq set ff9a0000.gpu --max 1GHz
	refused 2 pmctl "$fx" devfreq set ff9a0000.gpu --min 400MHz --max 300MHz
	refused 3 pmctl "$fx" devfreq set nosuch --max 300MHz
	bad_input pmctl "$fx" devfreq set ff9a0000.gpu
	bad_input pmctl "$fx" devfreq set ../../x --max 300MHz
	bad_input pmctl "$fx" devfreq set ff9a0000.gpu --max 3xHz
	bad_input pmctl "$fx" devfreq set ff9a0000.gpu --epp x
}

@test "supply set: thresholds ordered so start stays below stop; behaviour from the choices" {
	fresh -v fx hwp-laptop
	b=$fx/sys/class/power_supply/BAT0
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v supply set BAT0 --charge-start 85 --charge-stop 95
	assert_success
	[[ ${stderr_lines[0]} == *"end_threshold: 80 -> 95" ]]
	[[ ${stderr_lines[1]} == *"start_threshold: 75 -> 85" ]]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -v supply set BAT0 --charge-start 20 --charge-stop 30
	assert_success
	[[ ${stderr_lines[0]} == *"start_threshold: 85 -> 20" ]]
	[ "$(<"$b/charge_control_end_threshold")" = 30 ]
	refused 2 pmctl "$fx" supply set BAT0 --charge-start 40
	refused 2 pmctl "$fx" supply set BAT0 --charge-start 50 --charge-stop 50
	run "$bin/pmctl" --sysroot "$fx" supply set BAT0 --charge-behaviour inhibit-charge
	assert_success
	[ "$(<"$b/charge_behaviour")" = inhibit-charge ]
	fresh -v fx hwp-laptop
	refused 3 pmctl "$fx" supply set BAT0 --charge-behaviour force-charge
	refused 3 pmctl "$fx" supply set ADP1 --charge-stop 80
	refused 3 pmctl "$fx" supply set BAT9 --charge-stop 80
	bad_input pmctl "$fx" supply set BAT0
	bad_input pmctl "$fx" supply set BAT0 --charge-stop 101
	bad_input pmctl "$fx" supply set BAT0 --charge-stop -1
	bad_input pmctl "$fx" supply set BAT0 --charge-stop ''
	# shellcheck disable=SC2016 # a hostile name, never expanded
	bad_input pmctl "$fx" supply set '$(reboot)' --charge-stop 80
	bad_input pmctl "$fx" supply set .. --charge-stop 80
}

@test "supply set: a failed second write restores the first" {
	fault_so
	fresh -v fx hwp-laptop
	before=$(tree_sum "$fx")
	LD_PRELOAD=$so PM_FAULT_WRITE="*/BAT0/charge_control_start_threshold=EINVAL" \
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" supply set BAT0 --charge-start 85 --charge-stop 95
	assert_failure 1
	[ "${stderr_lines[1]}" = "pmctl: restored the 1 earlier write: nothing was changed" ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "every setter as nobody: one line, root is needed, nothing changed" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	d=$(nobody_copy hwp-laptop)
	nb=$(nobody_bin)
	before=$(tree_sum "$d")
	fails=
	while read -r want args; do
		# shellcheck disable=SC2086 # the words of each case
		out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$nb/pmctl" --sysroot "$d" $args 2>&1) || true
		[ "$out" = "pmctl: root is needed to write $want" ] || fails+="$args: $out; "
	done <<EOF2
/$cpu/cpu0/cpuidle/state3/disable idle disable C6
/$cpu/cpuidle/current_governor idle governor teo
/$cpu/cpu1/online cpu offline 1
/$cpu/smt/control smt off
/sys/firmware/acpi/platform_profile profile performance
/sys/class/power_supply/BAT0/charge_control_end_threshold supply set BAT0 --charge-stop 90
/dev/cpu_dma_latency latency 10 -- true
EOF2
	after=$(tree_sum "$d")
	rm -rf "$d" "$nb"
	[ -z "$fails" ] || fail "$fails"
	[ "$after" = "$before" ]
}
