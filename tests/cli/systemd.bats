#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $status, $output, $stderr come from helpers.bash and run
# What the systemd units run, on fixture trees (PM_SYSROOT): auto-recheck,
# which the timer of battery and thermal rules starts, and the resume
# hook as systemd-sleep calls it.  The units themselves are verified in
# install.bats, the udev rule by udev itself in tests/pkg.  Nothing here
# starts a unit.
# tests/run: not under ASan: its subject is the units' scripts; opp-set --auto runs under ASan in opp-set-apply.bats

load helpers

recheck=$top/scripts/systemd/auto-recheck
hook=$top/scripts/sleep.d/50pmtools-opp

setup() {
	load_libs
	calls=$BATS_TEST_TMPDIR/calls
	: >"$calls"
	# opp-set that records its arguments, then is the real one (or
	# exits $STUB_RC for an --auto that would write).
	wrap=$BATS_TEST_TMPDIR/opp-set
	cat >"$wrap" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >>'$calls'
case " \$* " in
*" --auto "*" -n "* | *" -n "*" --auto "*) ;;
*" --auto "*) [ -z "\${STUB_RC:-}" ] || exit "\$STUB_RC" ;;
esac
exec '$bin/opp-set' "\$@"
EOF
	chmod 755 "$wrap"
}

# points FX: a point for the mains, one for a low battery, no example.
points() {
	mkdir -p "$1/etc/pm/opp.d"
	printf '[cpufreq]\ngovernor = performance\n[match]\nac = online\n' >"$1/etc/pm/opp.d/fast.conf"
	printf '[cpufreq]\ngovernor = powersave\n[match]\nbattery_below = 30\npriority = 10\n' >"$1/etc/pm/opp.d/slow.conf"
}

# power FX AC-ONLINE BATTERY-PCT: hwp-laptop's ADP1 and BAT0 (mWh).
power() {
	local b=$1/sys/class/power_supply/BAT0 full
	echo "$2" >"$1/sys/class/power_supply/ADP1/online"
	read -r full <"$b/energy_full"
	echo $((full * $3 / 100)) >"$b/energy_now"
	echo "$3" >"$b/capacity"
}

rc() { run --separate-stderr env PM_SYSROOT="$1" "$recheck" "$wrap"; }

govs() { cat "$1"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor | sort -u | paste -sd' '; }

@test "auto-recheck does nothing where no point has a battery or thermal rule the machine can meet" {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d"
	# Only an AC rule (the udev rule's business) and a point with none.
	printf '[cpufreq]\ngovernor = performance\n[match]\nac = online\npriority = 3\n' >"$fx/etc/pm/opp.d/fast.conf"
	printf '[cpufreq]\ngovernor = powersave\n' >"$fx/etc/pm/opp.d/plain.conf"
	before=$(tree_sum "$fx")
	rc "$fx"
	assert_success
	[ -z "$output$stderr" ]
	[ "$(<"$calls")" = "--list -F kv" ]
	# A battery rule, but the only battery is a mouse's (scope Device).
	printf '[cpufreq]\ngovernor = powersave\n[match]\nbattery_below = 30\n' >"$fx/etc/pm/opp.d/slow.conf"
	echo Device >"$fx/sys/class/power_supply/BAT0/scope"
	: >"$calls"
	rc "$fx"
	assert_success
	[ "$(<"$calls")" = "--list -F kv" ]
	# A thermal rule and no thermal zone.
	printf '[cpufreq]\ngovernor = powersave\n[match]\nthermal_above = 80\n' >"$fx/etc/pm/opp.d/slow.conf"
	rm -r "$fx"/sys/class/thermal/thermal_zone*
	: >"$calls"
	rc "$fx"
	assert_success
	[ "$(<"$calls")" = "--list -F kv" ]
	# A point file with an error is left out, as --auto leaves it out.
	printf '[match]\nbattery_below = 30\nbogus\n' >"$fx/etc/pm/opp.d/broken.conf"
	rm "$fx/sys/class/power_supply/BAT0/scope"
	: >"$calls"
	rc "$fx"
	assert_success
	[ "$(<"$calls")" = "--list -F kv" ]
	[ ! -e "$fx/run/pmtools/auto.pick" ]
	# The rule and the battery: now it asks --auto.
	rm "$fx/etc/pm/opp.d/broken.conf"
	printf '[cpufreq]\ngovernor = powersave\n[match]\nbattery_below = 30\n' >"$fx/etc/pm/opp.d/slow.conf"
	: >"$calls"
	rc "$fx"
	assert_success
	[ "$(sed -n 2p "$calls")" = "--auto -n -F kv" ]
}

@test "auto-recheck applies --auto only when its pick changes: a point chosen by hand stays" {
	fresh -v fx hwp-laptop
	points "$fx"
	power "$fx" 0 50
	"$bin/opp-set" --sysroot "$fx" -q fast
	before=$(tree_sum "$fx")
	# The first check records what --auto picks (nothing holds: -).
	rc "$fx"
	assert_success
	[ "$(<"$fx/run/pmtools/auto.pick")" = - ]
	[ "$(tree_sum "$fx" | grep -v auto.pick)" = "$before" ]
	# Unchanged: nothing written, nothing said; the hand-picked point stays.
	rc "$fx"
	assert_success
	[ -z "$output$stderr" ]
	[ "$(govs "$fx")" = performance ]
	run grep -c -- '--auto --wait' "$calls"
	[ "$output" = 0 ]
	# The battery drains past the rule: --auto, once.
	power "$fx" 0 20
	rc "$fx"
	assert_success
	[ "$(govs "$fx")" = powersave ]
	[ "$(<"$fx/run/pmtools/auto.pick")" = slow ]
	[ "$(<"$fx/run/pmtools/opp.current")" = slow ]
	# Why --auto picked it, then what it did.
	[[ $stderr == "opp-set: --auto: slow (priority "*$'\n'"opp-set: at slow: "* ]] || fail "$stderr"
	"$bin/opp-set" --sysroot "$fx" -q fast
	rc "$fx"
	assert_success
	[ -z "$stderr" ]
	[ "$(govs "$fx")" = performance ]
	# Under systemd, the change is logged at notice, a failure at err.
	power "$fx" 0 90
	run --separate-stderr env PM_SYSROOT="$fx" JOURNAL_STREAM=8:9 "$recheck" "$wrap"
	assert_failure 3
	[[ $stderr == "<3>opp-set: no operating point's [match] holds now"* ]] || fail "$stderr"
	[ "$(<"$fx/run/pmtools/auto.pick")" = - ]
	# Logged once: the next check is silent.
	rc "$fx"
	assert_success
	[ -z "$stderr" ]
	"$bin/opp-set" --sysroot "$fx" -q slow
	power "$fx" 1 90
	run --separate-stderr env PM_SYSROOT="$fx" JOURNAL_STREAM=8:9 "$recheck" "$wrap"
	assert_success
	[[ $stderr == "<5>opp-set: --auto: fast "*$'\n'"<5>opp-set: at fast: "* ]] || fail "$stderr"
}

@test "auto-recheck: a point applied already by another run is not logged; a failure is tried again" {
	fresh -v fx hwp-laptop
	points "$fx"
	power "$fx" 1 50
	rc "$fx"
	[ "$(<"$fx/run/pmtools/auto.pick")" = fast ]
	# An AC event's run applied slow before the check saw the change.
	power "$fx" 0 20
	"$bin/opp-set" --sysroot "$fx" -q --auto
	rc "$fx"
	assert_success
	[ -z "$stderr" ]
	[ "$(<"$fx/run/pmtools/auto.pick")" = slow ]
	# Busy (exit 4): said, and the pick is not recorded.
	power "$fx" 1 50
	STUB_RC=4 rc "$fx"
	assert_failure 4
	[ "$stderr" = "opp-set --auto exited 4" ]
	[ "$(<"$fx/run/pmtools/auto.pick")" = slow ]
	rc "$fx"
	assert_success
	[ "$(<"$fx/run/pmtools/auto.pick")" = fast ]
	[ "$(govs "$fx")" = performance ]
}

@test "the resume hook as systemd-sleep runs it: pre keeps the points, post applies them, not applicable is 0" {
	fresh -v fx hwp-laptop
	points "$fx"
	"$bin/opp-set" --sysroot "$fx" -q fast
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$bin:$PATH" "$hook" pre suspend
	assert_success
	[ "$(head -n 1 "$fx/run/pmtools/opp.sleep")" = fast ]
	for g in "$fx"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do echo powersave >"$g"; done
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$bin:$PATH" "$hook" post suspend
	assert_success
	[ "$(govs "$fx")" = performance ]
	[ ! -e "$fx/run/pmtools/opp.sleep" ]
	# Nothing recorded, no opp-set, an unknown phase: 0 for systemd-sleep,
	# which logs any other status as a failure; 254 for pm-utils' callers.
	for v in hibernate hybrid-sleep suspend-then-hibernate; do
		run --separate-stderr env PM_SYSROOT="$fx" PATH="$bin:$PATH" "$hook" post "$v"
		assert_success
	done
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$BATS_TEST_TMPDIR/empty" /bin/sh "$hook" pre suspend
	assert_success
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$bin:$PATH" "$hook" bogus suspend
	assert_failure 254
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$bin:$PATH" "$hook" resume suspend
	assert_failure 254
}
