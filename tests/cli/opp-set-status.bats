#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $so, $top and bats' $status, $output, $stderr come from helpers.bash and run
# opp-set switching a driver's status ([intel_pstate] and [amd_pstate]
# status): the switch first, a snapshot for the rollback before it, the
# rest planned on the policies the switch made.  The kernel's side of a
# switch (every policy re-created with the driver's defaults, the global
# limits reset) is played by a script the fault shim runs after each
# write of the status file (PM_FAULT_AFTER), so that a rollback that
# forgot the snapshot would leave the fixture changed.

load helpers

setup() {
	load_libs
}

cpu=/sys/devices/system/cpu
cf=$cpu/cpufreq

# The kernel's side of intel_pstate/status, as intel_pstate.c does it:
# the driver registered again in the new mode, each policy with its
# defaults (the default governor, the hardware limits, the EPP read at
# init), max_perf_pct 100, min_perf_pct the lowest, no_turbo 0.
kernel_switch() {
	cat >"$BATS_TEST_TMPDIR/switch" <<'EOF'
#!/bin/sh
root=${PM_FAULT_PATH%/sys/devices/system/cpu/intel_pstate/status}
c=$root/sys/devices/system/cpu
case $PM_FAULT_VALUE in
passive) drv=intel_cpufreq gov=schedutil govs="conservative ondemand userspace powersave performance schedutil" ;;
*) drv=intel_pstate gov=powersave govs="performance powersave" ;;
esac
for p in "$c"/cpufreq/policy*; do
	echo "$drv" >"$p/scaling_driver"
	echo "$govs" >"$p/scaling_available_governors"
	echo "$gov" >"$p/scaling_governor"
	cat "$p/cpuinfo_min_freq" >"$p/scaling_min_freq"
	cat "$p/cpuinfo_max_freq" >"$p/scaling_max_freq"
	echo balance_performance >"$p/energy_performance_preference"
done
echo 100 >"$c/intel_pstate/max_perf_pct"
echo 9 >"$c/intel_pstate/min_perf_pct"
echo 0 >"$c/intel_pstate/no_turbo"
EOF
	chmod 755 "$BATS_TEST_TMPDIR/switch"
	export PM_FAULT_AFTER="*/intel_pstate/status" PM_FAULT_AFTER_CMD="$BATS_TEST_TMPDIR/switch"
}

# The HWP laptop set away from every default the switch restores.
tuned() {
	local fx p
	fresh -v fx hwp-laptop
	for p in "$fx$cf"/policy*; do
		echo 1200000 >"$p/scaling_min_freq"
		echo 3000000 >"$p/scaling_max_freq"
		echo power >"$p/energy_performance_preference"
	done
	echo 40 >"$fx$cpu/intel_pstate/min_perf_pct"
	echo 90 >"$fx$cpu/intel_pstate/max_perf_pct"
	echo 1 >"$fx$cpu/intel_pstate/no_turbo"
	mkdir -p "$fx/etc/pm/opp.d"
	printf '%s\n' "$fx"
}

point() { # FX NAME TEXT
	printf '%b' "$3" >"$1/etc/pm/opp.d/$2.conf"
}

@test "status: switched first, the rest planned on the policies the switch made" {
	fault_so
	kernel_switch
	fx=$(tuned)
	point "$fx" pas '[intel_pstate]\nstatus = passive\n\n[cpufreq]\ngovernor = schedutil\nmax = 2GHz\n'
	# Before the switch the driver offers no schedutil: a dry run shows
	# the switch and says that the policies' writes come after it.
	run --separate-stderr env LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" -n pas
	assert_success
	[ "$output" = "$cpu/intel_pstate/status = passive" ]
	[ "$stderr" = "opp-set: pas: the driver's status switch recreates every cpufreq policy: the [cpufreq] and [intel_pstate] writes are planned after it, and not shown" ]
	[ "$(<"$fx$cpu/intel_pstate/status")" = active ]
	run --separate-stderr env LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" -J pas
	assert_success
	jq -e '.writes[0] | .path == "/sys/devices/system/cpu/intel_pstate/status" and .old == "active" and .new == "passive" and .ok' <<<"$output"
	# The policies read after the switch: schedutil is the default there
	# (nothing to write), max comes down from the hardware's 4.7 GHz.
	jq -e '[.writes[] | select(.path | endswith("scaling_governor"))] | length == 0' <<<"$output"
	# The 8 governors already right; the snapshot is not counted.
	jq -e '.changed == 9 and .unchanged == 8' <<<"$output"
	jq -e '[.writes[] | select(.path | endswith("scaling_max_freq")) | .old] | unique == ["4700000"]' <<<"$output"
	for p in "$fx$cf"/policy*; do
		[ "$(<"$p/scaling_governor")" = schedutil ]
		[ "$(<"$p/scaling_max_freq")" = 2000000 ]
	done
	run --separate-stderr env LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" pas
	assert_success
	[ "$stderr" = "opp-set: already at pas" ]
}

@test "a failure after the switch: the switch undone, then every policy and limit as it was" {
	fault_so
	kernel_switch
	fx=$(tuned)
	point "$fx" pas '[intel_pstate]\nstatus = passive\nmax_perf_pct = 80\n\n[cpufreq]\ngovernor = performance\n\n[platform]\nprofile = low-power\n'
	before=$(tree_sum "$fx/sys")
	log="$BATS_TEST_TMPDIR/log"
	run --separate-stderr env PM_FAULT_WRITE="*/platform_profile=EIO:write" PM_FAULT_LOG="$log" \
		LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" pas
	assert_failure 1
	[[ ${stderr_lines[0]} == "opp-set: cannot write 'low-power' to /sys/firmware/acpi/platform_profile"*"(EIO)" ]] || fail "$stderr"
	[[ ${stderr_lines[1]} == "opp-set: restored the "*" earlier writes: nothing was changed" ]] || fail "$stderr"
	# The kernel reset everything when the switch was undone: only the
	# snapshot puts min, max, EPP and the global limits back.
	[ "$(tree_sum "$fx/sys")" = "$before" ] || fail "the tree changed"
	# In that order: the status back to active first, then the globals
	# (no_turbo before the limits it clamps), then the policies.
	mapfile -t w < <(awk -F'\t' -v r="$fx" 'index($2, r) == 1 { print substr($2, length(r) + 1) "=" $3 }' "$log")
	k=$(printf '%s\n' "${w[@]}" | grep -n "^$cpu/intel_pstate/status=active" | cut -d: -f1)
	[ -n "$k" ] || fail "no undo of the status: ${w[*]}"
	rest=$(printf '%s\n' "${w[@]}" | tail -n +"$((k + 1))" | cut -d= -f1)
	[ "$(head -n 3 <<<"$rest")" = "$cpu/intel_pstate/no_turbo
$cpu/intel_pstate/max_perf_pct
$cpu/intel_pstate/min_perf_pct" ] || fail "after the status: $rest"
	grep -qx "$cf/policy0/energy_performance_preference" <<<"$rest"
	grep -qx "$cf/policy7/scaling_min_freq" <<<"$rest"
}

@test "a governor the new mode does not offer: exit 3 after the switch, undone" {
	fault_so
	kernel_switch
	fx=$(tuned)
	point "$fx" pas '[intel_pstate]\nstatus = passive\n\n[cpufreq]\ngovernor = nosuch\n'
	before=$(tree_sum "$fx/sys")
	run --separate-stderr env LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" pas
	assert_failure 3
	[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/pas.conf:5: [cpufreq] governor: none of 'nosuch' is available on policy0 (cpus 0)"* ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "opp-set: restored the 1 earlier write: nothing was changed" ]
	[ "$(tree_sum "$fx/sys")" = "$before" ]
	[ ! -e "$fx/run/pmtools/opp.current" ]
}

@test "an error after the switch whose undo fails too: exit 1, naming the file left changed" {
	fault_so
	fx=$(tuned)
	point "$fx" pas '[intel_pstate]\nstatus = passive\n\n[cpufreq]\ngovernor = nosuch\n'
	run --separate-stderr env PM_FAULT_WRITE="*/intel_pstate/status=EIO@2:write" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$fx" pas
	assert_failure 1
	[[ ${stderr_lines[0]} == *"none of 'nosuch' is available"* ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "opp-set: could not restore $cpu/intel_pstate/status to 'active': Input/output error (EIO)" ]
	[ "${stderr_lines[2]}" = "opp-set: 1 of 1 earlier writes could not be restored" ]
	[ "$(<"$fx$cpu/intel_pstate/status")" = passive ]
}

@test "--save with the status, a switch away, and -f puts the machine back" {
	fault_so
	kernel_switch
	fx=$(tuned)
	before=$(tree_sum "$fx/sys")
	env LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" --save "$BATS_TEST_TMPDIR/s.conf"
	grep -qx 'status = active' "$BATS_TEST_TMPDIR/s.conf"
	env LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" -q -s intel_pstate.status=passive -s cpufreq.governor=ondemand
	[ "$(<"$fx$cf/policy3/scaling_governor")" = ondemand ]
	[ "$(tree_sum "$fx/sys")" != "$before" ]
	run --separate-stderr env LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" -f "$BATS_TEST_TMPDIR/s.conf"
	assert_success
	[ "$(tree_sum "$fx/sys")" = "$before" ]
}

@test "status the driver runs already: nothing written; missing or unreadable: exit 3 or 1" {
	fx=$(tuned)
	point "$fx" same '[intel_pstate]\nstatus = active\n'
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" same
	assert_success
	[ "$stderr" = "opp-set: already at same" ]
	point "$fx" amd '[amd_pstate]\nstatus = passive\n'
	refused 3 opp-set "$fx" amd
	[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/amd.conf:2: [amd_pstate] status: not offered here ($cpu/amd_pstate/status is missing; amd_pstate has it since Linux 6.3)" ]
	fault_so
	point "$fx" pas '[intel_pstate]\nstatus = passive\n'
	before=$(tree_sum "$fx")
	run --separate-stderr env PM_FAULT_READ="*/intel_pstate/status=EIO" LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" pas
	assert_failure 1
	[ "$stderr" = "opp-set: /etc/pm/opp.d/pas.conf:2: [intel_pstate] status: cannot read $cpu/intel_pstate/status: Input/output error (EIO)" ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "status = off with settings only a running driver takes: exit 2, nothing written" {
	fx=$(tuned)
	point "$fx" o1 '[intel_pstate]\nstatus = off\n[cpufreq]\ngovernor = powersave\n'
	refused 2 opp-set "$fx" o1
	[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/o1.conf:4: [cpufreq] governor: no cpufreq driver would be left to set it: /etc/pm/opp.d/o1.conf:2: [intel_pstate] status = off stops intel_pstate" ]
	point "$fx" o2 '[intel_pstate]\nstatus = off\nno_turbo = on\n'
	refused 2 opp-set "$fx" o2
	[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/o2.conf:3: [intel_pstate] no_turbo: intel_pstate would not run to take it: /etc/pm/opp.d/o2.conf:2: [intel_pstate] status = off" ]
}

@test "intel_pstate off under HWP: the kernel's EBUSY is exit 4, with the reason" {
	fault_so
	fx=$(tuned)
	point "$fx" off '[intel_pstate]\nstatus = off\n'
	before=$(tree_sum "$fx")
	run --separate-stderr env PM_FAULT_WRITE="*/intel_pstate/status=EBUSY:write" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$fx" off
	assert_failure 4
	[ "$stderr" = "opp-set: cannot write 'off' to $cpu/intel_pstate/status: Device or resource busy (EBUSY) (intel_pstate cannot be turned off while HWP is active)" ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "amd_pstate: the status switched where the kernel has the file" {
	fresh -v fx amd-desktop
	mkdir -p "$fx/etc/pm/opp.d"
	point "$fx" g '[amd_pstate]\nstatus = guided\n'
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -J g
	assert_success
	jq -e '.changed == 1 and .writes[0].path == "/sys/devices/system/cpu/amd_pstate/status" and .writes[0].old == "active"' <<<"$output"
	[ "$(<"$fx$cpu/amd_pstate/status")" = guided ]
}

@test "[platform] profile: one planner with pmctl profile: custom, not offered, missing, unreadable" {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d"
	for c in "custom|'custom' is what the kernel shows when handlers disagree; it cannot be set" \
		"quiet|'quiet' is not offered (choices: low-power balanced performance)"; do
		printf '[platform]\nprofile = %s\n' "${c%%|*}" >"$fx/etc/pm/opp.d/x.conf"
		refused 3 opp-set "$fx" x
		[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/x.conf:2: [platform] profile: ${c#*|}" ] || fail "$stderr"
		refused 3 pmctl "$fx" profile "${c%%|*}"
		[ "${stderr_lines[0]}" = "pmctl: profile: ${c#*|}" ] || fail "$stderr"
	done
	printf '[platform]\nprofile = performance\n' >"$fx/etc/pm/opp.d/x.conf"
	mv "$fx/sys/firmware/acpi/platform_profile" "$fx/pp"
	rm -r "$fx/sys/class/platform-profile"
	refused 3 opp-set "$fx" x
	[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/x.conf:2: [platform] profile: no platform profile on this machine (/sys/firmware/acpi/platform_profile is missing)" ] || fail "$stderr"
	refused 3 pmctl "$fx" profile performance
	[ "${stderr_lines[0]}" = "pmctl: profile: no platform profile on this machine (/sys/firmware/acpi/platform_profile is missing)" ] || fail "$stderr"
	# A directory where the file should be: it cannot be read (EISDIR).
	mkdir "$fx/sys/firmware/acpi/platform_profile"
	refused 1 opp-set "$fx" x
	[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/x.conf:2: [platform] profile: cannot read /sys/firmware/acpi/platform_profile: "* ]] || fail "$stderr"
	refused 1 pmctl "$fx" profile performance
	[[ ${stderr_lines[0]} == "pmctl: profile: cannot read /sys/firmware/acpi/platform_profile: "* ]] || fail "$stderr"
}
