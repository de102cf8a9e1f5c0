#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr come from helpers.bash and run
# pmctl's read-only views: idle, cpu, sleep, supply, thermal, devfreq, profile.

load helpers

setup() {
	load_libs
}

@test "each view's JSON is the same section as pmctl status --json" {
	for m in laptop2006 hwp-laptop arm-biglittle; do
		fixture -v fx "$m"
		all=$("$bin/pmctl" --sysroot "$fx" -J)
		for pair in idle:cpuidle cpu:cpus sleep:sleep supply:power_supply \
			thermal:thermal devfreq:devfreq profile:platform_profile; do
			cmd=${pair%%:*} key=${pair##*:}
			run --separate-stderr "$bin/pmctl" --sysroot "$fx" "$cmd" -J
			if [ "$status" -eq 3 ]; then
				# Not offered: the status section is empty or null.
				jq -e --arg k "$key" '.[$k] == null or .[$k] == []' <<<"$all" >/dev/null ||
					fail "$m $cmd: exit 3 but status has $key"
				continue
			fi
			[ "$status" -eq 0 ] || fail "$m $cmd: exit $status: $stderr"
			[ "$(jq -c --arg k "$key" '.[$k]' <<<"$output")" = "$(jq -c --arg k "$key" '.[$k]' <<<"$all")" ] ||
				fail "$m $cmd: differs from status"
		done
	done
}

@test "idle: the states and how many CPUs have each disabled" {
	fx="$BATS_TEST_TMPDIR/fx"
	cp -a "$(fixture hwp-laptop)" "$fx"
	echo 1 >"$fx/sys/devices/system/cpu/cpu2/cpuidle/state3/disable"
	echo 1 >"$fx/sys/devices/system/cpu/cpu5/cpuidle/state3/disable"
	run "$bin/pmctl" --sysroot "$fx" idle
	assert_success
	assert_output --regexp "  3 C6 +170 +500 +2/8  MWAIT 0x20"
	run "$bin/pmctl" --sysroot "$fx" idle -J
	[ "$(jq '.cpuidle.states[3].disabled_cpus' <<<"$output")" = 2 ]
	[ "$(jq -r '.cpuidle.driver' <<<"$output")" = "$(<"$fx/sys/devices/system/cpu/cpuidle/current_driver")" ]
}

@test "cpu: range lists, SMT and the CPUs without an online file" {
	fixture -v fx vm-haltpoll
	run "$bin/pmctl" --sysroot "$fx" cpu
	assert_success
	assert_line "present   0-3"
	assert_line "offline   none"
	assert_line --partial "fixed     0 "
	run "$bin/pmctl" --sysroot "$fx" cpu -J
	[ "$(jq -c '.cpus | [.online, .offline]' <<<"$output")" = '[[0,1,2,3],[]]' ]
}

@test "sleep: states, choices with the current one, and the last failure" {
	fx="$BATS_TEST_TMPDIR/fx"
	cp -a "$(fixture laptop2006)" "$fx"
	p="$fx/sys/power/suspend_stats"
	echo 0000:00:1d.0 >"$p/last_failed_dev"
	echo -16 >"$p/last_failed_errno"
	echo suspend >"$p/last_failed_step"
	run "$bin/pmctl" --sysroot "$fx" sleep
	assert_success
	assert_line "states      $(<"$fx/sys/power/state")"
	assert_line --partial "device 0000:00:1d.0 -16 (EBUSY) at step suspend"
	run "$bin/pmctl" --sysroot "$fx" sleep -J
	jq -e '.sleep.mem_sleep.current == "deep" and .sleep.last_failed_errno == -16 and
		.sleep.disk.current == "platform" and (.sleep.states | index("mem"))' <<<"$output"
}

@test "a view the machine lacks is exit 3 with a reason" {
	fixture -v fx vm-haltpoll
	for c in supply thermal devfreq profile; do
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" "$c"
		[ "$status" -eq 3 ] || fail "$c: exit $status"
		[[ "$stderr" == "pmctl: no "* ]] || fail "$c: $stderr"
	done
}

@test "thermal and devfreq read their files" {
	fixture -v fx arm-biglittle
	run "$bin/pmctl" --sysroot "$fx" devfreq -J
	assert_success
	for d in "$fx"/sys/class/devfreq/*; do
		n=${d##*/}
		want="$(<"$d/cur_freq") $(<"$d/governor")"
		got=$(jq -r --arg n "$n" '.devfreq[] | select(.name == $n) | "\(.cur_hz) \(.governor)"' <<<"$output")
		[ "$got" = "$want" ] || fail "$n: $got"
	done
	run "$bin/pmctl" --sysroot "$fx" thermal -J
	assert_success
	z=$(jq -r '.thermal[0].zone' <<<"$output")
	[ "$(jq '.thermal[0].temp_mc' <<<"$output")" = "$(<"$fx/sys/class/thermal/thermal_zone$z/temp")" ]
}

@test "views take no arguments but show, and no -c" {
	fixture -v fx laptop2006
	for c in idle cpu sleep supply thermal devfreq profile; do
		# profile NAME sets a profile: there, one word is a name.
		run "$bin/pmctl" --sysroot "$fx" "$c" bogus extra
		[ "$status" -eq 2 ] || fail "$c bogus: exit $status"
		run "$bin/pmctl" --sysroot "$fx" "$c" -c 0
		[ "$status" -eq 2 ] || fail "$c -c: exit $status"
	done
	run "$bin/pmctl" --sysroot "$fx" idle show
	assert_success
}
