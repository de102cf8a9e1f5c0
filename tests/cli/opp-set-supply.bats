#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $so and bats' $stderr, $stderr_lines come from helpers.bash and run
# A battery's charge thresholds and charge behaviour as state: pmctl supply
# shows them with the battery's health and cycles; a point sets them in
# [supply NAME], planned, read back and undone like the rest; what was
# applied is recorded, and opp-set --reapply gives back what a firmware
# dropped.  On hwp-laptop (BAT0: thresholds 75-80 %, behaviour auto,
# energy_full 51.24 of 57 Wh, 112 cycles) and laptop2006 (charge_* only).

load helpers

setup() {
	load_libs
}

bat=sys/class/power_supply/BAT0

# hwp-laptop with the example points and a point desk (balanced, BAT0
# charging from 40 % to 60 %, inhibit-charge).
supfx() {
	local fx
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d"
	cp "$top"/data/opp.d/*.conf "$fx/etc/pm/opp.d/"
	point "$fx" desk '[opp]\ninclude = balanced\n[supply BAT0]\ncharge_start = 40\ncharge_stop = 60\ncharge_behaviour = inhibit-charge\n'
	printf '%s\n' "$fx"
}

point() { # FX NAME TEXT
	printf '%b' "$3" >"$1/etc/pm/opp.d/$2.conf"
}

# The battery's three files: "START STOP BEHAVIOUR".
charge() {
	printf '%s %s %s' "$(cat "$1/$bat/charge_control_start_threshold")" \
		"$(cat "$1/$bat/charge_control_end_threshold")" "$(cat "$1/$bat/charge_behaviour")"
}

# A plain file keeps the word written: give the behaviour its brackets
# back, as the kernel shows it.
kernelize() {
	local b l=' auto inhibit-charge force-discharge '
	b=$(cat "$1/$bat/charge_behaviour")
	case $b in
	\[*) ;;
	*)
		l=${l/ $b / [$b] }
		l=${l# }
		printf '%s\n' "${l% }" >"$1/$bat/charge_behaviour"
		;;
	esac
}

@test "pmctl supply: the thresholds, the charge behaviour, the health and the cycles" {
	fixture -v fx hwp-laptop
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" supply
	assert_success
	[ "${lines[3]}" = "             health 90%, 112 cycles, charges from 75% to 80%, charge behaviour auto" ] || fail "$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" supply -J
	jq -e '.power_supply[] | select(.name == "BAT0") | .charge_start_pct == 75 and .charge_stop_pct == 80 and
		.charge_behaviour == {"available": ["auto", "inhibit-charge", "force-discharge"], "current": "auto"} and
		.energy_full_design_uwh == 57000000 and .charge_full_design_uah == null and .health_pct == 89.9 and
		.cycle_count == 112' <<<"$output"
	# The adapter has none of them: nulls, and no second line.
	jq -e '.power_supply[] | select(.name == "ADP1") | [.charge_start_pct, .charge_behaviour, .health_pct, .cycle_count] == [null, null, null, null]' <<<"$output"
	# A battery in mAh: the health from charge_full / charge_full_design.
	fixture -v fx laptop2006
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" supply -J
	jq -e '.power_supply[] | select(.name == "BAT0") | .health_pct == 79.3 and .charge_full_design_uah == 5200000 and
		.cycle_count == 0 and .charge_start_pct == null and .charge_behaviour == null' <<<"$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" supply
	[[ $output == *"health 79%, 0 cycles"* ]] || fail "$output"
	[[ $output != *"charges from"* ]]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" status -F prom
	grep -qx 'pm_power_supply_health_ratio{supply="BAT0"} 0.7934615384615384' <<<"$output"
}

@test "[supply NAME]: planned with the rest, read back, the stop moved up first when the start passes it" {
	fx=$(supfx)
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --diff desk
	assert_success
	[ "$(grep power_supply <<<"$output")" = "/sys/class/power_supply/BAT0/charge_control_start_threshold: 75 -> 40
/sys/class/power_supply/BAT0/charge_control_end_threshold: 80 -> 60
/sys/class/power_supply/BAT0/charge_behaviour: auto -> inhibit-charge" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -J desk
	assert_success
	jq -e '.name == "desk" and .rolled_back == false and ([.writes[] | select(.path | contains("BAT0"))] | length) == 3' <<<"$output"
	[ "$(charge "$fx")" = "40 60 inhibit-charge" ]
	# From 40-60 to 85-95: 85 is not below the old stop, so the stop first.
	point "$fx" full '[supply BAT0]\ncharge_start = 85\ncharge_stop = 95\n'
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n full
	assert_success
	[ "$output" = "/sys/class/power_supply/BAT0/charge_control_end_threshold = 95
/sys/class/power_supply/BAT0/charge_control_start_threshold = 85" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" full
	assert_success
	[ "$(charge "$fx")" = "85 95 inhibit-charge" ]
	# Already there: nothing written.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -J full
	jq -e '.changed == 0' <<<"$output"
	# -s takes it too.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -s supply:BAT0.charge_start=50
	assert_success
	[ "$(charge "$fx")" = "50 95 inhibit-charge" ]
}

@test "[supply NAME]: what this machine cannot take is refused before any write" {
	fx=$(supfx)
	cases=(
		"2|[supply BAT0]\ncharge_start = 80\ncharge_stop = 60\n|x.conf:2: [supply BAT0]: charge_start 80% is not below charge_stop 60%"
		"2|[supply BAT0]\ncharge_start = 85\n|x.conf:2: [supply BAT0]: BAT0 would end with start 85% not below stop 80%"
		"2|[supply BAT0]\ncharge_stop = 101\n|x.conf:2: [supply] charge_stop: '101' is not a percentage from 0 to 100"
		"2|[supply BAT0]\ncharge_speed = 1\n|x.conf:2: unknown key in [supply] (keys: charge_start, charge_stop, charge_behaviour)"
		"2|[supply]\ncharge_stop = 80\n|x.conf:2: [supply]: expected [supply NAME] (a name of /sys/class/power_supply, such as BAT0)"
		"2|[supply ../../etc]\ncharge_stop = 80\n|x.conf:2: [supply ../../etc]: expected [supply NAME] (a name of /sys/class/power_supply, such as BAT0)"
		"3|[supply BAT9]\ncharge_stop = 80\n|x.conf:2: [supply BAT9]: no power supply 'BAT9' here (pmctl supply lists them)"
		"3|[supply ADP1]\ncharge_stop = 80\n|x.conf:2: [supply ADP1] charge_stop: ADP1 has no charge_control_end_threshold (its driver offers no charge thresholds)"
		"3|[supply BAT0]\ncharge_behaviour = trickle\n|x.conf:2: [supply BAT0] charge_behaviour: 'trickle' is not offered by BAT0 (choices: [auto] inhibit-charge force-discharge)"
	)
	for c in "${cases[@]}"; do
		IFS='|' read -r code text msg <<<"$c"
		point "$fx" x "$text"
		refused "$code" opp-set "$fx" x
		[ "${stderr_lines[0]}" = "opp-set: /etc/pm/opp.d/$msg" ] || fail "$text: ${stderr_lines[0]}"
	done
}

@test "[supply NAME]: a failed write undoes the thresholds already written" {
	fault_so
	fx=$(supfx)
	# (The plain file of the behaviour keeps the old word written back.)
	run --separate-stderr env PM_FAULT_WRITE="*/charge_behaviour=EIO@1" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$fx" desk
	assert_failure 1
	[[ $stderr == *"charge_behaviour"*"EIO"* ]] || fail "$stderr"
	[ "$(charge "$fx")" = "75 80 [auto] inhibit-charge force-discharge" ] ||
		[ "$(charge "$fx")" = "75 80 auto" ] || fail "$(charge "$fx")"
	[ ! -e "$fx/var/lib/pmtools/supply.applied" ]
}

@test "what was applied is recorded (opp-set, pmctl supply set); --save writes [supply NAME] and -f puts it back" {
	fx=$(supfx)
	rec=$fx/var/lib/pmtools/supply.applied
	"$bin/opp-set" --sysroot "$fx" -q desk
	[ "$(grep -v '^#' "$rec")" = "BAT0 charge_control_start_threshold 40
BAT0 charge_control_end_threshold 60
BAT0 charge_behaviour inhibit-charge" ]
	# A point without [supply] leaves the record as it is.
	"$bin/opp-set" --sysroot "$fx" -q powersave
	[ "$(grep -vc '^#' "$rec")" -eq 3 ]
	"$bin/pmctl" --sysroot "$fx" -q supply set BAT0 --charge-stop 70
	grep -qx "BAT0 charge_control_end_threshold 70" "$rec"
	[ "$(grep -vc '^#' "$rec")" -eq 3 ]
	# --save, then -f on a battery that was changed since.
	kernelize "$fx"
	"$bin/opp-set" --sysroot "$fx" --save "$BATS_TEST_TMPDIR/saved.conf"
	grep -A3 -x '\[supply BAT0\]' "$BATS_TEST_TMPDIR/saved.conf" >"$BATS_TEST_TMPDIR/part"
	[ "$(<"$BATS_TEST_TMPDIR/part")" = "[supply BAT0]
charge_start = 40
charge_stop = 70
charge_behaviour = inhibit-charge" ]
	"$bin/pmctl" --sysroot "$fx" -q supply set BAT0 --charge-start 20 --charge-stop 90 --charge-behaviour auto
	kernelize "$fx"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -f "$BATS_TEST_TMPDIR/saved.conf"
	[ "$status" -eq 0 ] || fail "$stderr"
	[ "$(charge "$fx")" = "40 70 inhibit-charge" ]
}

@test "--reapply: the same named point again, and each charge setting a firmware dropped is named and given back" {
	fx=$(supfx)
	"$bin/opp-set" --sysroot "$fx" -q desk
	[ "$(<"$fx/run/pmtools/opp.how")" = name ]
	kernelize "$fx"
	# Nothing dropped: nothing to say, nothing written.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply -J
	assert_success
	jq -e '.name == "desk" and .changed == 0' <<<"$output"
	[ "$stderr" = "opp-set: already at desk" ] || fail "$stderr"
	# The firmware forgot them over a resume.
	echo 0 >"$fx/$bat/charge_control_start_threshold"
	echo 100 >"$fx/$bat/charge_control_end_threshold"
	echo "[auto] inhibit-charge force-discharge" >"$fx/$bat/charge_behaviour"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply -J
	assert_success
	[ "${stderr_lines[0]}" = "opp-set: /sys/class/power_supply/BAT0/charge_control_start_threshold reads 0, not the 40 applied last: the firmware dropped it" ]
	[ "${stderr_lines[1]}" = "opp-set: /sys/class/power_supply/BAT0/charge_control_end_threshold reads 100, not the 60 applied last: the firmware dropped it" ]
	[ "${stderr_lines[2]}" = "opp-set: /sys/class/power_supply/BAT0/charge_behaviour reads auto, not the inhibit-charge applied last: the firmware dropped it" ]
	jq -e '.name == "desk" and .changed == 3' <<<"$output"
	[ "$(charge "$fx")" = "40 60 inhibit-charge" ]
	[ "$(<"$fx/run/pmtools/opp.current")" = desk ]
}

@test "--reapply after --auto (or at boot): --auto's pick now, with the recorded charge settings the point does not set" {
	fx=$(supfx)
	ps=$fx/sys/class/power_supply
	# At boot /run is empty: --auto (balanced on AC).
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply -J
	assert_success
	jq -e '.name == "balanced"' <<<"$output"
	[ "$(<"$fx/run/pmtools/opp.how")" = auto ]
	# desk sets the thresholds; then --auto applied a point without them.
	"$bin/opp-set" --sysroot "$fx" -q desk
	"$bin/opp-set" --sysroot "$fx" -q --auto
	kernelize "$fx"
	echo 0 >"$ps/ADP1/online"
	echo $(($(<"$ps/BAT0/energy_full") / 5)) >"$ps/BAT0/energy_now"
	echo 100 >"$fx/$bat/charge_control_end_threshold"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply -J
	assert_success
	jq -e '.name == "battery-saver"' <<<"$output"
	[ "${stderr_lines[1]}" = "opp-set: /sys/class/power_supply/BAT0/charge_control_end_threshold reads 100, not the 60 applied last: the firmware dropped it; applying it again" ] || fail "$stderr"
	[ "$(charge "$fx")" = "40 60 [inhibit-charge] auto force-discharge" ] || [ "$(cut -d' ' -f1,2 <<<"$(charge "$fx")")" = "40 60" ] || fail "$(charge "$fx")"
	# A battery taken out: said, left out, not a failure.
	rm -r "${fx:?}/$bat"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply
	assert_success
	[[ $stderr == *"supply.applied:3: /sys/class/power_supply/BAT0/charge_control_start_threshold is not here now: its charge_start is left out"* ]] || fail "$stderr"
}

@test "--reapply after -f FILE applies the file again; after -s only the recorded charge settings" {
	fx=$(supfx)
	printf '[cpufreq]\ngovernor = performance\n' >"$BATS_TEST_TMPDIR/perf.conf"
	(cd "$BATS_TEST_TMPDIR" && "$bin/opp-set" --sysroot "$fx" -q -f perf.conf)
	[ "$(<"$fx/run/pmtools/opp.how")" = "file $BATS_TEST_TMPDIR/perf.conf" ]
	for g in "$fx"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do echo powersave >"$g"; done
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply
	assert_success
	[ "$(cat "$fx"/sys/devices/system/cpu/cpufreq/policy0/scaling_governor)" = performance ]
	"$bin/opp-set" --sysroot "$fx" -q desk
	"$bin/opp-set" --sysroot "$fx" -q -s cpufreq.governor=powersave
	[ "$(<"$fx/run/pmtools/opp.how")" = set ]
	echo 99 >"$fx/$bat/charge_control_end_threshold"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply
	assert_success
	[[ $stderr == *"the last point was given with -s: only the recorded charge settings are applied again"* ]]
	[ "$(<"$fx/$bat/charge_control_end_threshold")" = 60 ]
	# --reapply is a mode of its own.
	bad_input opp-set "$fx" --reapply --auto
	bad_input opp-set "$fx" --reapply desk
}

@test "--reapply: a record edited by hand keeps only charge settings, and the last line of a file counts" {
	fx=$(supfx)
	rec=$fx/var/lib/pmtools/supply.applied
	"$bin/opp-set" --sysroot "$fx" -q powersave
	mkdir -p "${rec%/*}"
	printf '%s\n' 'BAT0 charge_control_end_threshold 90' 'garbage' \
		'BAT0 charge_control_start_threshold 101' 'BAT0 charge_control_start_threshold -5' \
		'BAT0 charge_control_start_threshold 30 extra' '../x charge_control_end_threshold 50' \
		'BAT0 energy_now 1' 'BAT0 charge_control_end_threshold 85' >"$rec"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply
	assert_success
	[ "$stderr" = "opp-set: /sys/class/power_supply/BAT0/charge_control_end_threshold reads 80, not the 85 applied last: the firmware dropped it; applying it again
opp-set: at powersave: 1 change" ] || fail "$stderr"
	[ "$(charge "$fx")" = "75 85 auto" ] || [ "$(charge "$fx")" = "75 85 [auto] inhibit-charge force-discharge" ] ||
		fail "$(charge "$fx")"
	# Written again, the record keeps one line of it.
	"$bin/pmctl" --sysroot "$fx" -q supply set BAT0 --charge-start 20
	[ "$(grep -v '^#' "$rec")" = "BAT0 charge_control_end_threshold 85
BAT0 charge_control_start_threshold 20" ] || fail "$(<"$rec")"
}

@test "--reapply=charge: only the recorded charge settings, the current point left as it is" {
	fx=$(supfx)
	# Nothing recorded: said, nothing written, no point recorded.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply=charge
	assert_success
	[ "$stderr" = "opp-set: no charge settings recorded in /var/lib/pmtools/supply.applied: nothing to give back" ] || fail "$stderr"
	[ ! -e "$fx/run/pmtools/opp.current" ]
	# pmctl supply set records them; a point is applied after it.
	"$bin/pmctl" --sysroot "$fx" -q supply set BAT0 --charge-start 30 --charge-stop 70
	"$bin/opp-set" --sysroot "$fx" -q powersave
	kernelize "$fx"
	echo 100 >"$fx/$bat/charge_control_end_threshold"
	for g in "$fx"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do echo performance >"$g"; done
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --reapply=charge -J
	assert_success
	[ "${stderr_lines[0]}" = "opp-set: /sys/class/power_supply/BAT0/charge_control_end_threshold reads 100, not the 70 applied last: the firmware dropped it; applying it again" ] || fail "$stderr"
	[ "${stderr_lines[1]}" = "opp-set: charge settings: 1 given back" ] || fail "$stderr"
	jq -e '.changed == 1' <<<"$output"
	[ "$(cut -d' ' -f1,2 <<<"$(charge "$fx")")" = "30 70" ] || fail "$(charge "$fx")"
	# The governor is the point's business, not this mode's.
	[ "$(cat "$fx"/sys/devices/system/cpu/cpufreq/policy0/scaling_governor)" = performance ]
	[ "$(<"$fx/run/pmtools/opp.current")" = powersave ]
	[ "$(<"$fx/run/pmtools/opp.how")" = name ]
	bad_input opp-set "$fx" --reapply=all
	bad_input opp-set "$fx" --reapply=charge desk
}
