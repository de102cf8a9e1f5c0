#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $so and bats' $stderr, $stderr_lines come from helpers.bash and run
# opp-set applying points: the example points on every fixture, re-apply,
# --dry-run and --diff, --show, includes, -s, the write order, refusals
# that change nothing, malformed files, and a failure at every write
# rolled back to a byte-identical tree.

load helpers

setup() {
	load_libs
}

# A private fixture with the example points in its /etc/pm/opp.d.
with_examples() { # FIXTURE [mkfixture options]
	local fx
	fresh -v fx "$@"
	mkdir -p "$fx/etc/pm/opp.d"
	cp "$top"/data/opp.d/*.conf "$fx/etc/pm/opp.d/"
	printf '%s\n' "$fx"
}

# A point file under the fixture's /etc/pm/opp.d.
point() { # FX NAME TEXT
	mkdir -p "$1/etc/pm/opp.d"
	printf '%b' "$3" >"$1/etc/pm/opp.d/$2.conf"
}

cf=sys/devices/system/cpu/cpufreq

@test "the example points apply on every fixture, and a second run writes nothing" {
	local machs=(laptop2006 hwp-laptop amd-desktop arm-biglittle server vm-haltpoll)
	local points=(performance balanced powersave battery-saver cool) i j k=0
	for i in "${!machs[@]}"; do
		for j in "${!points[@]}"; do
			m=${machs[i]} p=${points[j]}
			# Every machine and every point, not every pair of them.
			sampled $((i + j)) 3 || continue
			k=$((k + 1))
			# The sample's server has 16 CPUs: a copy of the whole one
			# (41 000 files) is most of a case's time.
			if [ "$m" = server ] && [ -z "${PM_TESTS_FULL:-}" ]; then
				fx=$(with_examples server --cpus 16)
			else
				fx=$(with_examples "$m")
			fi
			run --separate-stderr "$bin/opp-set" --sysroot "$fx" --diff "$p"
			[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "$m $p --diff: exit $status: $stderr"
			[ "$status" -eq 0 ] || continue
			plan=$output
			run --separate-stderr "$bin/opp-set" --sysroot "$fx" -J "$p"
			assert_success
			n=$(jq '.changed' <<<"$output")
			[ "$n" -eq "$(grep -c . <<<"$plan" || true)" ] || fail "$m $p: changed $n, diff: $plan"
			jq -e '[.writes[] | .ok and .read_back == .new] | all' <<<"$output"
			run --separate-stderr "$bin/opp-set" --sysroot "$fx" -J "$p"
			assert_success
			jq -e '.changed == 0 and .writes == []' <<<"$output"
			run --separate-stderr "$bin/opp-set" --sysroot "$fx" "$p"
			[ "$stderr" = "opp-set: already at $p" ]
			[ "$(<"$fx/run/pmtools/opp.current")" = "$p" ]
		done
	done
	sample_note "$k" $((${#machs[@]} * ${#points[@]})) "machines times points"
}

@test "--diff and -n print the plan and change nothing" {
	fx=$(with_examples arm-biglittle)
	before=$(tree_sum "$fx")
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --diff performance
	assert_success
	[ "${lines[0]}" = "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor: schedutil -> performance" ]
	[ "${lines[1]}" = "/sys/devices/system/cpu/cpufreq/policy4/scaling_governor: schedutil -> performance" ]
	[ "${#lines[@]}" -eq 2 ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n performance
	assert_success
	[ "${lines[0]}" = "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor = performance" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n -J performance
	jq -e '.name == "performance" and .dry_run and .changed == 2 and (.writes | length) == 2 and .writes[0].ok == null' <<<"$output"
	[ "$(tree_sum "$fx")" = "$before" ]
}

# A point that touches every section the hwp-laptop fixture offers.
full='[opp]\ndescription = everything\ninclude = balanced\n\n[cpufreq]\ngovernor = powersave\nepp = power\nmax = 2GHz\nboost = off\n\n[cpufreq cpus=0-1]\nepp = balance_power\n\n[intel_pstate]\nmax_perf_pct = 80\nmin_perf_pct = 20\n\n[cpuidle]\ngovernor = teo\ndisable = C10 C8\nmax_latency = 200\n\n[cpu]\nsmt = on\n\n[platform]\nprofile = low-power\n\n[runtime_pm]\npci = auto\n\n[sysfs]\n/sys/power/mem_sleep = deep\n'

@test "a point across every section: each write lands, in order, and reads back" {
	fx=$(with_examples hwp-laptop)
	point "$fx" full "$full"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -J full
	assert_success
	jq -e '.rolled_back == false and .changed > 30 and ([.writes[] | .ok] | all)' <<<"$output"
	# Order: intel_pstate before cpufreq, cpufreq before cpuidle, raw sysfs last.
	jq -e '[.writes[].path] | (index("/sys/devices/system/cpu/intel_pstate/max_perf_pct") < index("/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq"))
		and (index("/sys/devices/system/cpu/cpufreq/policy7/energy_performance_preference") < index("/sys/devices/system/cpu/cpuidle/current_governor"))
		and (.[-1] == "/sys/power/mem_sleep")' <<<"$output"
	[ "$(<"$fx/$cf/policy0/energy_performance_preference")" = balance_power ]
	[ "$(<"$fx/$cf/policy2/energy_performance_preference")" = power ]
	[ "$(<"$fx/$cf/policy3/scaling_max_freq")" = 2000000 ]
	[ "$(<"$fx/sys/devices/system/cpu/intel_pstate/no_turbo")" = 1 ]
	[ "$(<"$fx/sys/devices/system/cpu/cpu3/cpuidle/state5/disable")" = 1 ]
	[ "$(<"$fx/sys/devices/system/cpu/cpu3/cpuidle/state1/disable")" = 0 ]
	[ "$(<"$fx/sys/firmware/acpi/platform_profile")" = low-power ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" full
	assert_success
	[ "$stderr" = "opp-set: already at full" ]
}

@test "a failure at every write is rolled back: the tree is byte-identical" {
	fault_so
	fx=$(with_examples hwp-laptop)
	point "$fx" full "$full"
	run "$bin/opp-set" --sysroot "$fx" -n -J full
	n=$(jq '.writes | length' <<<"$output")
	[ "$n" -gt 30 ]
	before=$(tree_sum "$fx")
	for k in $(seq 1 "$n"); do
		run --separate-stderr env PM_FAULT_WRITE="*/sys/*=EIO@$k" LD_PRELOAD="$so" \
			"$bin/opp-set" --sysroot "$fx" full
		[ "$status" -eq 1 ] || [ "$k" -eq 1 ] || fail "write $k: exit $status: $stderr"
		[[ ${stderr_lines[0]} == "opp-set: cannot write "*"(EIO)" ]] || fail "write $k: $stderr"
		if [ "$k" -gt 1 ]; then
			[ "${stderr_lines[1]}" = "opp-set: restored the $((k - 1)) earlier write$([ "$k" -gt 2 ] && echo s): nothing was changed" ] ||
				fail "write $k: $stderr"
		fi
		[ "$(tree_sum "$fx")" = "$before" ] || fail "write $k: the tree changed"
	done
}

@test "a failed restore is named file by file" {
	fault_so
	fx=$(with_examples arm-biglittle)
	# The 2nd policy's write fails, then the restore of the 1st fails too.
	run --separate-stderr env PM_FAULT_WRITE="*/policy4/scaling_governor=EBUSY;*/policy0/scaling_governor=EIO@2" \
		LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$fx" performance
	assert_failure 1
	[[ ${stderr_lines[0]} == *"policy4/scaling_governor"*"(EBUSY)"* ]]
	[[ $stderr == *"could not restore /sys/devices/system/cpu/cpufreq/policy0/scaling_governor to 'schedutil'"* ]]
	[[ $stderr == *"1 of 1 earlier writes could not be restored"* ]]
}

@test "includes: the included file first, this file wins; --show names the line of each" {
	fx=$(with_examples arm-biglittle)
	point "$fx" base '[opp]\ndescription = base\n[cpufreq]\ngovernor = powersave\nmax = 1GHz\n'
	point "$fx" top '[opp]\ninclude = base\ndescription = top\n[cpufreq]\ngovernor = performance\n'
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --show top -J
	assert_success
	jq -e '.name == "top" and .description == "top"' <<<"$output"
	jq -e '[.settings[] | select(.section == "cpufreq") | [.key, .value, .file, .line]] ==
		[["governor", "performance", "/etc/pm/opp.d/top.conf", 5], ["max", "1GHz", "/etc/pm/opp.d/base.conf", 5]]' <<<"$output"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --show top
	[[ $output == *$'# /etc/pm/opp.d/top.conf:5\ngovernor = performance\n'* ]]
	# It is a point file itself.
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/shown.conf"
	run "$bin/opp-set" --sysroot "$fx" -n -f "$BATS_TEST_TMPDIR/shown.conf"
	assert_success
	[[ $output == *"policy0/scaling_max_freq = 1000000"* ]]
	run "$bin/opp-set" --sysroot "$fx" -n top
	[[ $output == *"policy0/scaling_governor = performance"* ]]
	[[ $output == *"policy0/scaling_max_freq = 1000000"* ]]
}

@test "include cycles, missing includes and paths are refused with the file and line" {
	fx=$(with_examples arm-biglittle)
	point "$fx" a '[opp]\ninclude = b\n'
	point "$fx" b '[opp]\ninclude = a\n'
	refused 2 opp-set "$fx" a
	[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/b.conf:2: include cycle: a includes itself" ]
	point "$fx" c '[opp]\ninclude = nosuch\n'
	refused 2 opp-set "$fx" c
	[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/c.conf:2: [opp] include: "* ]] ||
		[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/c.conf:2: no operating point 'nosuch'"* ]]
	point "$fx" d '[opp]\ninclude = ../x\n'
	refused 2 opp-set "$fx" d
	[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/d.conf:2: [opp] include: invalid point name '../x'"* ]]
}

@test "-s settings: a point of their own, with ARG for cpus and devfreq names" {
	fresh -v fx arm-biglittle
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -J -s cpufreq.governor=powersave -s 'cpufreq:4-5.max=1.2GHz'
	assert_success
	jq -e '.name == "custom" and .changed == 3' <<<"$output"
	[ "$(<"$fx/$cf/policy4/scaling_max_freq")" = 1200000 ]
	[ "$(<"$fx/$cf/policy0/scaling_governor")" = powersave ]
	bad_input opp-set "$fx" -s cpufreq.governor
	bad_input opp-set "$fx" -s nosuch.key=1
	bad_input opp-set "$fx" -s opp.include=x
}

@test "what this machine does not offer is exit 3 and changes nothing" {
	fx=$(with_examples arm-biglittle)
	point "$fx" g '[cpufreq]\ngovernor = nosuch|other\n'
	refused 3 opp-set "$fx" g
	[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/g.conf:2: [cpufreq] governor: none of 'nosuch|other' is available on policy0 (cpus 0-3) (available: userspace powersave performance schedutil)" ]
	point "$fx" e '[cpufreq]\ngovernor = powersave\nepp = power\n'
	refused 3 opp-set "$fx" e
	[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/e.conf:3: cannot set EPP on policy0"* ]]
	point "$fx" r '[cpufreq]\nmax = 9GHz\n'
	refused 2 opp-set "$fx" r
	[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/r.conf:2: max 9 GHz is outside the hardware range of policy0"* ]]
	point "$fx" d '[devfreq nosuch.gpu]\nmax = 400MHz\n'
	refused 3 opp-set "$fx" d
	point "$fx" p '[platform]\nprofile = quiet\n'
	refused 3 opp-set "$fx" p
	point "$fx" s '[intel_pstate]\nmax_perf_pct = 50\n'
	refused 3 opp-set "$fx" s
	point "$fx" c '[cpu]\nonline = 0-99\n'
	refused 3 opp-set "$fx" c
	point "$fx" i '[cpuidle]\ndisable = C99\n'
	refused 3 opp-set "$fx" i
}

@test "EPP under the performance governor is refused unless the point switches to powersave" {
	fx=$(with_examples hwp-laptop)
	point "$fx" bad '[cpufreq]\ngovernor = performance\nepp = power\n'
	refused 2 opp-set "$fx" bad
	[[ ${stderr_lines[0]} == *"bad.conf:3: cannot set EPP 'power' on policy0 (cpus 0): under the performance governor"*"add governor = powersave" ]]
}

@test "cpu online: CPUs come online first and go offline last" {
	fresh -v fx arm-biglittle
	echo 0 >"$fx/sys/devices/system/cpu/cpu5/online"
	echo 0-4 >"$fx/sys/devices/system/cpu/online"
	point "$fx" o '[cpu]\nonline = 0-3,5\n[cpufreq]\ngovernor = powersave\n'
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n o
	assert_success
	[ "${lines[0]}" = "/sys/devices/system/cpu/cpu5/online = 1" ]
	[ "${lines[-1]}" = "/sys/devices/system/cpu/cpu4/online = 0" ]
	# cpu5's policy is planned once it is online: -n says it is not shown.
	[ "$stderr" = "opp-set: cpus 5 are offline now: the writes to their policies and idle states are planned once the point brings them online, and not shown" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -J o
	assert_success
	jq -e '[.writes[].path] | index("/sys/devices/system/cpu/cpu5/online") == 0' <<<"$output"
	jq -e '[.writes[].path] | index("/sys/devices/system/cpu/cpufreq/policy4/scaling_governor") > 0' <<<"$output"
	jq -e '.writes[-1].path == "/sys/devices/system/cpu/cpu4/online"' <<<"$output"
}

@test "cpu online: a CPU that failed to come up is exit 1 before any write, as in pmctl" {
	fresh -v fx arm-biglittle
	# Offline for the kernel, 1 in its file: a write of 1 does nothing.
	echo 0-4 >"$fx/sys/devices/system/cpu/online"
	echo 5 >"$fx/sys/devices/system/cpu/offline"
	point "$fx" o '[cpu]\nonline = all\n'
	before=$(tree_sum "$fx")
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" o
	assert_failure 1
	[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/o.conf:2: [cpu] online: cpu5 is offline though /sys/devices/system/cpu/cpu5/online reads 1: the kernel failed to bring it up"* ]] || fail "$stderr"
	[ "$(tree_sum "$fx")" = "$before" ]
}

# 40+ malformed files: exit 2 with the file and line, nothing written.
@test "malformed point files are exit 2 with the file and line, and nothing is written" {
	fx=$(with_examples hwp-laptop)
	bad=(
		'[cpufreq\ngovernor = x\n'
		'[]\n'
		'governor = powersave\n'
		'[nosuch]\nx = 1\n'
		'[cpufreq]\nnosuch = 1\n'
		'[cpufreq]\ngovernor\n'
		'[cpufreq]\n= powersave\n'
		'[cpufreq]\ngovernor = \n'
		'[cpufreq]\ngovernor = a b\n'
		'[cpufreq]\ngovernor = |powersave\n'
		'[cpufreq]\ngovernor = powersave|\n'
		'[cpufreq]\ngovernor = a||b\n'
		'[cpufreq]\ngovernor = abcdefghijklmnopq\n'
		'[cpufreq]\nmin = fast\n'
		'[cpufreq]\nmin = 0\n'
		'[cpufreq]\nmax = -1GHz\n'
		'[cpufreq]\nmax = 1.0000001Hz\n'
		'[cpufreq]\nspeed = 12 parsecs\n'
		'[cpufreq]\nepp = 256\n'
		'[cpufreq]\nepp = a/b\n'
		'[cpufreq]\nboost = maybe\n'
		'[cpufreq]\nmin = 2GHz\nmax = 1GHz\n'
		'[cpufreq cpus=x]\ngovernor = powersave\n'
		'[cpufreq 0-3]\ngovernor = powersave\n'
		'[cpufreq]\nondemand.up_threshold = 800\n'
		'[intel_pstate]\nmin_perf_pct = 101\n'
		'[intel_pstate]\nmax_perf_pct = -5\n'
		'[intel_pstate]\nno_turbo = 2\n'
		'[intel_pstate]\nstatus = turbo\n'
		'[intel_pstate]\nmin_perf_pct = 90\nmax_perf_pct = 10\n'
		'[amd_pstate]\nstatus = fast\n'
		'[cpuidle]\ngovernor = a/b\n'
		'[cpuidle]\nmax_latency = soon\n'
		'[cpuidle]\ndisable = C1/x\n'
		'[cpu]\nonline = 3-1\n'
		'[cpu]\nsmt = forceoff\n'
		'[devfreq]\nmax = 1GHz\n'
		'[devfreq a/b]\nmax = 1GHz\n'
		'[devfreq gpu]\nmax = lots\n'
		'[platform x]\nprofile = quiet\n'
		'[platform]\nprofile = \n'
		'[runtime_pm]\n/etc/passwd = auto\n'
		'[runtime_pm]\npci = sometimes\n'
		'[runtime_pm]\n/sys/devices/../../etc = auto\n'
		'[sysfs]\n/etc/passwd = x\n'
		'[sysfs]\n/sys/../etc/passwd = x\n'
		'[sysfs]\nsys/power/state = mem\n'
		'[sysfs]\n/sys/power/./state = mem\n'
		'[match]\nac = maybe\n'
		'[match]\nbattery_below = 200\n'
		'[match]\nthermal_above = hot\n'
		'[match]\npriority = high\n'
		'[opp]\ninclude = \n'
		'[opp]\nnosuch = 1\n'
		'[cpufreq]\ngovernor = power\001save\n'
	)
	[ "${#bad[@]}" -ge 40 ]
	k=0
	for i in "${!bad[@]}"; do
		sampled "$i" 3 || continue
		k=$((k + 1))
		point "$fx" bad "${bad[$i]}"
		tree_save "$fx" "$BATS_TEST_TMPDIR/before"
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" bad
		[ "$status" -eq 2 ] || fail "case $i (${bad[$i]}): exit $status: $stderr"
		[ -z "$output" ] || fail "case $i: stdout $output"
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "case $i: $stderr"
		[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/bad.conf"* ]] || fail "case $i: ${stderr_lines[0]}"
		tree_same "$fx" "$BATS_TEST_TMPDIR/before" || fail "case $i: the tree changed"
	done
	sample_note "$k" "${#bad[@]}" "malformed points"
}

@test "the lock: a held /run/opp-set.lock is exit 4, and pmctl shares it" {
	fx=$(with_examples arm-biglittle)
	mkdir -p "$fx/run"
	exec {l}>"$fx/run/opp-set.lock"
	flock "$l"
	refused 4 opp-set "$fx" performance
	[[ ${stderr_lines[0]} == "opp-set: busy: /run/opp-set.lock is held"* ]]
	refused 4 pmctl "$fx" freq set --governor performance
	exec {l}>&-
	run "$bin/opp-set" --sysroot "$fx" performance
	assert_success
}

@test "--save writes a point that -f restores byte for byte" {
	sample_list machines_run laptop2006 hwp-laptop amd-desktop arm-biglittle server vm-haltpoll
	for m in "${machines_run[@]}"; do
		fx=$(with_examples "$m")
		point "$fx" t '[cpufreq]\ngovernor = performance|ondemand\n[cpuidle]\nmax_latency = 100\n'
		before=$(tree_sum "$fx")
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" --save "$BATS_TEST_TMPDIR/$m.conf"
		assert_success
		[ -z "$output" ]
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" t
		[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "$m: exit $status: $stderr"
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" -f "$BATS_TEST_TMPDIR/$m.conf"
		assert_success
		# The record of what was applied is not the machine's state.
		rm -rf "$fx/run/pmtools" "$fx/var/lib/pmtools"
		[ "$(tree_sum "$fx")" = "$before" ] || fail "$m: not restored"
	done
	# The saved file is itself a valid point: --save refuses formats.
	bad_input opp-set "$fx" --save "$BATS_TEST_TMPDIR/x.conf" -J
	bad_input opp-set "$fx" --save ''
}

@test "--save keeps the online CPUs, and -f brings them back" {
	fx=$(with_examples arm-biglittle)
	"$bin/opp-set" --sysroot "$fx" --save "$BATS_TEST_TMPDIR/s.conf"
	grep -qx 'online = 0-5' "$BATS_TEST_TMPDIR/s.conf"
	# As the kernel has it after CPU 5 went offline.
	echo 0 >"$fx/sys/devices/system/cpu/cpu5/online"
	echo 0-4 >"$fx/sys/devices/system/cpu/online"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n -f "$BATS_TEST_TMPDIR/s.conf"
	assert_success
	[ "${lines[0]}" = "/sys/devices/system/cpu/cpu5/online = 1" ]
}

@test "--current: the points whose settings all hold, the last applied first, or custom" {
	fx=$(with_examples arm-biglittle)
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --current
	assert_success
	[ "$output" = balanced ]
	"$bin/opp-set" --sysroot "$fx" -q powersave
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --current -J
	jq -e '.current == ["powersave", "battery-saver", "cool"] and .last_applied == "powersave" and .custom == false' <<<"$output"
	"$bin/pmctl" --sysroot "$fx" -q freq set -c 0 --governor performance
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --current
	[ "$output" = custom ]
}

@test "--auto: the highest-priority [match] that holds, with hysteresis, the default when nothing else holds" {
	fx=$(with_examples hwp-laptop)
	ps=$fx/sys/class/power_supply
	point "$fx" normal '[opp]\ninclude = balanced\n[match]\nac = offline\nbattery_above = 30\npriority = 5\n'
	full=$(<"$ps/BAT0/energy_full")
	level() { echo $((full * $1 / 100)) >"$ps/BAT0/energy_now"; }
	# On AC: only the default, balanced, holds.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --auto -J
	assert_success
	jq -e '.name == "balanced"' <<<"$output"
	[[ ${stderr_lines[0]} == "opp-set: --auto: balanced (priority -100): AC online, battery "*", hottest zone 52.0 C, no CPU pressure (PSI)" ]] || fail "$stderr"
	echo 0 >"$ps/ADP1/online"
	level 20
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --auto -J
	assert_success
	jq -e '.name == "battery-saver"' <<<"$output"
	# 33 %: above 30, but battery-saver stays within its 5 % margin.
	level 33
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --auto -J
	jq -e '.name == "battery-saver" and .changed == 0' <<<"$output"
	level 40
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --auto -J
	jq -e '.name == "normal"' <<<"$output"
	[ "$(<"$fx/run/pmtools/opp.current")" = normal ]
	# Without a default, no point holding is exit 3, said and not hidden.
	rm "$fx/etc/pm/opp.d/balanced.conf" "$fx/etc/pm/opp.d/normal.conf"
	echo 1 >"$ps/ADP1/online"
	refused 3 opp-set "$fx" --auto
	[ "${stderr_lines[0]}" = "opp-set: no operating point's [match] holds now (AC online, battery 40 %, hottest zone 52.0 C, no CPU pressure (PSI)): nothing was applied; a point whose [match] has only a priority is the default (opp.conf(5))" ]
	LC_ALL=C grep -q '^[[:print:]]*$' <<<"$stderr" || fail "not plain ASCII for a log: $stderr"
}

@test "--auto with the shipped examples: every state of AC, battery, temperature and CPU pressure has a point" {
	fx=$(with_examples hwp-laptop)
	fixture -v hw hwp-laptop
	ps=$fx/sys/class/power_supply
	full=$(<"$ps/BAT0/energy_full")
	mkdir -p "$fx/proc/pressure"
	for psi in none 3.00 95.00; do
		rm -f "$fx/proc/pressure/cpu"
		[ "$psi" = none ] || printf 'some avg10=%s avg60=1.00 avg300=1.00 total=1\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' "$psi" >"$fx/proc/pressure/cpu"
		for ac in online offline absent; do
			for bat in none 10 50 90; do
				for temp in none 40 90; do
					rm -rf "$fx/sys/class/power_supply"
					cp -a "$hw/sys/class/power_supply" "$fx/sys/class/"
					case $ac in
					online) echo 1 >"$ps/ADP1/online" ;;
					offline) echo 0 >"$ps/ADP1/online" ;;
					absent) rm -r "$ps/ADP1" ;;
					esac
					if [ "$bat" = none ]; then rm -r "$ps/BAT0"; else echo $((full * bat / 100)) >"$ps/BAT0/energy_now"; fi
					for z in "$fx"/sys/class/thermal/thermal_zone*; do
						if [ "$temp" = none ]; then rm -f "$z/temp"; else echo $((temp * 1000)) >"$z/temp"; fi
					done
					want=balanced
					[ "$ac" != offline ] || [ "$bat" = none ] || [ "$bat" -ge 30 ] || want=battery-saver
					[ "$temp" != 90 ] || want=cool
					run --separate-stderr "$bin/opp-set" --sysroot "$fx" --auto -n
					[ "$status" -eq 0 ] || fail "psi $psi, AC $ac, battery $bat, $temp C: exit $status: $stderr"
					[[ ${stderr_lines[0]} == "opp-set: --auto: $want "* ]] || fail "psi $psi, AC $ac, battery $bat, $temp C: want $want: $stderr"
				done
			done
		done
	done
}

@test "--auto round trip with the shipped examples: unplugged battery-saver, plugged balanced, hot cool and back" {
	fx=$(with_examples hwp-laptop)
	ps=$fx/sys/class/power_supply
	full=$(<"$ps/BAT0/energy_full")
	zone=$fx/sys/class/thermal/thermal_zone0/temp
	auto() { # WANT: --auto applies WANT, recorded as current
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" --auto -J
		[ "$status" -eq 0 ] || fail "want $1: exit $status: $stderr"
		jq -e --arg p "$1" '.name == $p and .rolled_back == false' <<<"$output" || fail "want $1: $output $stderr"
		[ "$(<"$fx/run/pmtools/opp.current")" = "$1" ]
	}
	auto balanced
	echo 0 >"$ps/ADP1/online"
	echo Discharging >"$ps/BAT0/status"
	echo $((full * 20 / 100)) >"$ps/BAT0/energy_now"
	auto battery-saver
	echo 1 >"$ps/ADP1/online"
	auto balanced
	# Hot: above 85 C, then within the 2 C margin, then cooler.
	echo 86000 >"$zone"
	auto cool
	echo 84000 >"$zone"
	auto cool
	echo 82000 >"$zone"
	auto balanced
	# Hot on battery: the cooler point wins, then battery-saver again.
	echo 0 >"$ps/ADP1/online"
	echo 90000 >"$zone"
	auto cool
	echo 50000 >"$zone"
	auto battery-saver
}

@test "--auto: a CPU pressure rule (PSI avg10 of /proc/pressure/cpu), with its margin; no PSI holds no such rule" {
	fx=$(with_examples hwp-laptop)
	point "$fx" busy '[opp]\ninclude = performance\n[match]\nac = online\ncpu_pressure_above = 50\npriority = 5\n'
	point "$fx" idle '[opp]\ninclude = powersave\n[match]\ncpu_pressure_below = 1\npriority = 1\n'
	mkdir -p "$fx/proc/pressure"
	pressure() {
		printf 'some avg10=%s avg60=0.00 avg300=0.00 total=12345\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' "$1" >"$fx/proc/pressure/cpu"
	}
	pick() { # WANT
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" --auto -J
		[ "$status" -eq 0 ] || fail "want $1: exit $status: $stderr"
		jq -e --arg p "$1" '.name == $p' <<<"$output" || fail "want $1: $output $stderr"
	}
	pressure 70.00
	pick busy
	[[ $stderr == *"CPU pressure 70.0 %"* ]]
	# Within 5 points of 50 the current point stays; below, balanced.
	pressure 46.00
	pick busy
	pressure 40.00
	pick balanced
	pressure 0.50
	pick idle
	# No PSI (CONFIG_PSI off), or a file that is not the kernel's: no
	# pressure rule holds, and nothing fails.
	rm "$fx/proc/pressure/cpu"
	pick balanced
	[[ $stderr == *"no CPU pressure (PSI)"* ]]
	echo "some avg10=junk" >"$fx/proc/pressure/cpu"
	pick balanced
	# A bad value is a bad point file.
	point "$fx" bad '[match]\ncpu_pressure_above = 101\n'
	refused 2 opp-set "$fx" --show bad
	[[ ${stderr_lines[0]} == *"bad.conf:2: [match] cpu_pressure_above: '101' is not a percentage from 0 to 100" ]] || fail "$stderr"
}

@test "[sysfs] on a choice file: the bracketed value is the old one, and a rollback puts it back" {
	fault_so
	fx=$(with_examples hwp-laptop)
	point "$fx" m '[sysfs]\n/sys/power/mem_sleep = deep\n[platform]\nprofile = low-power\n'
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --diff m
	[ "${lines[1]}" = "/sys/power/mem_sleep: s2idle -> deep" ]
	before=$(tree_sum "$fx")
	# The profile is written first; the mem_sleep write fails.
	run --separate-stderr env PM_FAULT_WRITE="*/sys/power/mem_sleep=EINVAL@1" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$fx" m
	assert_failure 1
	[ "${stderr_lines[1]}" = "opp-set: restored the 1 earlier write: nothing was changed" ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "a file set twice in a point: the later setting wins, written once" {
	fx=$(with_examples hwp-laptop)
	dev=/sys/devices/pci0000:00/0000:00:1c.0/0000:02:00.0
	[ -e "$fx$dev/power/control" ] || skip "the fixture moved its NVMe device"
	point "$fx" r "[runtime_pm]\npci = auto\n$dev = on\n"
	run "$bin/opp-set" --sysroot "$fx" -n -J r
	assert_success
	jq -e --arg p "$dev/power/control" '[.writes[] | select(.path == $p)] | length <= 1' <<<"$output"
	run "$bin/opp-set" --sysroot "$fx" r
	assert_success
	[ "$(<"$fx$dev/power/control")" = on ]
}

@test "-s: more than 32 settings in one run" {
	fresh -v fx arm-biglittle
	args=()
	for i in $(seq 1 40); do args+=(-s "cpufreq.max=$((1000 + i))MHz"); done
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n "${args[@]}"
	assert_success
	[[ $output == *"policy0/scaling_max_freq = 1040000"* ]]
}

@test "[devfreq NAME]: checked against the device's governors and frequencies, min never above max" {
	fx=$(with_examples arm-biglittle)
	df=sys/class/devfreq/ff9a0000.gpu
	point "$fx" g '[devfreq ff9a0000.gpu]\ngovernor = simple_ondemand\nmin = 400MHz\nmax = 666MHz\n'
	run "$bin/opp-set" --sysroot "$fx" g
	assert_success
	[ "$(<"$fx/$df/max_freq")" = 666000000 ]
	[ "$(<"$fx/$df/min_freq")" = 400000000 ]
	[ "$(<"$fx/$df/governor")" = simple_ondemand ]
	point "$fx" r '[devfreq ff9a0000.gpu]\nmax = 2GHz\n'
	refused 2 opp-set "$fx" r
	[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/r.conf:2: max 2 GHz is outside the range of ff9a0000.gpu: 200 MHz - 800 MHz" ]
	point "$fx" n '[devfreq ff9a0000.gpu]\ngovernor = nosuch\n'
	refused 3 opp-set "$fx" n
	[[ ${stderr_lines[0]} == "opp-set: /etc/pm/opp.d/n.conf:2: cannot set governor 'nosuch' on ff9a0000.gpu: not available"* ]]
	point "$fx" o '[devfreq ff9a0000.gpu]\nmin = 800MHz\nmax = 200MHz\n'
	refused 2 opp-set "$fx" o
	[[ ${stderr_lines[0]} == *"[devfreq ff9a0000.gpu] min 800 MHz is above max 200 MHz" ]]
}

@test "[runtime_pm] of a bus with no devices is exit 3 (no qsort of nothing: UBSan)" {
	fresh -v fx laptop2006
	mkdir -p "$fx/sys/bus/usb/devices" "$fx/etc/pm/opp.d"
	point "$fx" r '[runtime_pm]\nusb = auto\n'
	refused 3 opp-set "$fx" --diff r
	[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/r.conf:2: [runtime_pm] usb: no device of the bus has runtime PM" ]
}
