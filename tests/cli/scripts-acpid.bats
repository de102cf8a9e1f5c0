#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $status, $output, $stderr come from helpers.bash and run
# The acpid rules and actions of scripts/acpid and the sleep hook of
# scripts/sleep.d: the lines acpi_listen prints, as one argument and as
# words, on fixture trees, with stub pm-suspend, opp-set, shutdown and
# logger first on PATH that only record their arguments (the real
# pm-suspend would suspend this machine).
# tests/run: not under ASan: its subject is the acpid scripts; the tools they call run under ASan in their own files

load helpers

acts=$top/scripts/acpid/actions
rules=$top/data/acpid/events
hook50=$top/scripts/sleep.d/50pmtools-opp

lid_close='button/lid LID close'
lid_open='button/lid LID open'
pbtn='button/power PBTN 00000080 00000000'
ac_off='ac_adapter ACPI0003:00 00000080 00000000'
ac_on='ac_adapter ACPI0003:00 00000080 00000001'
bat='battery PNP0C0A:00 00000080 00000001'

setup() {
	load_libs
	stubs=$BATS_TEST_TMPDIR/stubs
	calls=$BATS_TEST_TMPDIR/calls
	syslog=$BATS_TEST_TMPDIR/syslog
	mkdir -p "$stubs"
	# Each stub records "NAME ARGS" and exits $STUB_RC; pm-suspend --check
	# exits $STUB_CHECK.
	local t
	for t in pm-suspend opp-set shutdown; do
		cat >"$stubs/$t" <<EOF
#!/bin/sh
printf '%s\n' "$t \$*" >>'$calls'
for a; do [ "\$a" = --check ] && exit "\${STUB_CHECK:-0}"; done
exit "\${STUB_RC:-0}"
EOF
	done
	cat >"$stubs/logger" <<EOF
#!/bin/sh
printf '%s\n' "\$*" >>'$syslog'
EOF
	chmod 755 "$stubs"/*
	: >"$calls"
	: >"$syslog"
}

# act SCRIPT FX ARG...: run an action on FX with the stubs first on PATH.
act() {
	local s=$1 fx=$2
	shift 2
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$stubs:$PATH" "$acts/$s" "$@"
}

# both SCRIPT FX EVENT CALLS: the event as one argument, then as words:
# exit 0 both times and the stubs called as CALLS (lines) each time.
both() {
	local s=$1 fx=$2 ev=$3 want=$4 words
	act "$s" "$fx" "$ev"
	[ "$status" -eq 0 ] || fail "$s '$ev': exit $status: $stderr"
	[ "$(<"$calls")" = "$want" ] || fail "$s '$ev': calls: $(<"$calls"); want: $want"
	: >"$calls"
	read -ra words <<<"$ev"
	act "$s" "$fx" "${words[@]}"
	[ "$status" -eq 0 ] || fail "$s ${words[*]} (words): exit $status: $stderr"
	[ "$(<"$calls")" = "$want" ] || fail "$s ${words[*]} (words): calls: $(<"$calls"); want: $want"
	: >"$calls"
}

conf() { # FX TEXT
	mkdir -p "$1/etc/pm"
	printf '%b' "$2" >"$1/etc/pm/pmtools-acpid.conf"
}

connector() { # FX NAME STATUS
	mkdir -p "$1/sys/class/drm/$2"
	echo "$3" >"$1/sys/class/drm/$2/status"
}

# battery FX STATUS CAPACITY [AC-ONLINE]: BAT0 and ADP1 of hwp-laptop.
battery() {
	local b=$1/sys/class/power_supply/BAT0
	echo "$2" >"$b/status"
	echo "$3" >"$b/capacity"
	echo "${4:-0}" >"$1/sys/class/power_supply/ADP1/online"
}

logind() { # FX [logind.conf text]
	mkdir -p "$1/run/systemd/seats" "$1/etc/systemd"
	[ -z "${2:-}" ] || printf '%b' "$2" >"$1/etc/systemd/logind.conf"
}

@test "lid close suspends, lid open does nothing, one argument or words" {
	fresh -v fx hwp-laptop
	both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
	grep -q "^-t pmtools-acpid lid closed: pm-suspend$" "$syslog"
	both lid.sh "$fx" "$lid_open" ""
	# An internal panel, or an external port with nothing on it, does not count.
	connector "$fx" card0-eDP-1 connected
	connector "$fx" card0-HDMI-A-1 disconnected
	connector "$fx" card0-DP-1 unknown
	both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
}

@test "lid close with an external HDMI monitor connected does not suspend" {
	fresh -v fx hwp-laptop
	connector "$fx" card0-eDP-1 connected
	connector "$fx" card1-HDMI-A-1 connected
	both lid.sh "$fx" "$lid_close" ""
	grep -q "lid closed: not suspending, an external display is connected (HDMI-A-1)" "$syslog"
	for c in card0-LVDS-1 card0-DSI-1; do
		fresh -v fx hwp-laptop
		connector "$fx" "$c" connected
		both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
	done
}

@test "LID_SUSPEND=no in the config; unknown keys and bad values are logged and ignored" {
	fresh -v fx hwp-laptop
	conf "$fx" '# pmtools-acpid\n\nLID_SUSPEND=no\n'
	both lid.sh "$fx" "$lid_close" ""
	grep -q "lid closed: LID_SUSPEND=no in /etc/pm/pmtools-acpid.conf" "$syslog"
	conf "$fx" '  LID_SUSPEND = "no"  \nLID_MODE=deep\nLID_SUSPEND\n'
	both lid.sh "$fx" "$lid_close" ""
	grep -q "/etc/pm/pmtools-acpid.conf:2: unknown key 'LID_MODE' ignored" "$syslog"
	grep -q "/etc/pm/pmtools-acpid.conf:3: not KEY=value, ignored: LID_SUSPEND" "$syslog"
	conf "$fx" 'LID_SUSPEND=maybe\n'
	both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
	grep -q "/etc/pm/pmtools-acpid.conf:1: LID_SUSPEND 'maybe': yes or no; ignored" "$syslog"
	conf "$fx" 'LID_SUSPEND=yes'
	both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
}

@test "the old /proc/acpi/event lid line asks /proc/acpi/button/lid for the state" {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/proc/acpi/button/lid/LID0"
	echo "state:      closed" >"$fx/proc/acpi/button/lid/LID0/state"
	both lid.sh "$fx" "button/lid LID0 00000080 00000001" "pm-suspend --sysroot $fx"
	echo "state:      open" >"$fx/proc/acpi/button/lid/LID0/state"
	both lid.sh "$fx" "button/lid LID0 00000080 00000002" ""
}

@test "power button: POWER_ACTION suspend (default), hibernate, poweroff, ignore" {
	fresh -v fx hwp-laptop
	both power.sh "$fx" "$pbtn" "pm-suspend --sysroot $fx"
	conf "$fx" 'POWER_ACTION=hibernate\n'
	both power.sh "$fx" "$pbtn" "pm-suspend --sysroot $fx hibernate"
	conf "$fx" 'POWER_ACTION=poweroff\n'
	both power.sh "$fx" "$pbtn" "shutdown -h now"
	grep -q "power button: shutdown -h now" "$syslog"
	conf "$fx" 'POWER_ACTION=ignore\n'
	both power.sh "$fx" "$pbtn" ""
	grep -q "power button: POWER_ACTION=ignore" "$syslog"
	conf "$fx" 'POWER_ACTION=reboot\n'
	both power.sh "$fx" "$pbtn" "pm-suspend --sysroot $fx"
	grep -q "POWER_ACTION 'reboot': suspend, hibernate, poweroff or ignore; ignored" "$syslog"
	# The tool's failure is the action's status, and is logged.
	STUB_RC=1 act power.sh "$fx" "$pbtn"
	assert_failure 1
	grep -q "pm-suspend exited 1" "$syslog"
}

@test "AC plugged in or out runs opp-set --auto; its messages, and no point matching, are logged" {
	fresh -v fx hwp-laptop
	both ac.sh "$fx" "$ac_on" "opp-set --sysroot $fx --auto --wait=10"
	grep -q "AC plugged in (ACPI0003:00): opp-set --auto --wait=10" "$syslog"
	both ac.sh "$fx" "$ac_off" "opp-set --sysroot $fx --auto --wait=10"
	grep -q "AC unplugged (ACPI0003:00): opp-set --auto --wait=10" "$syslog"
	# No point holds: exit 3, opp-set's reason and what it means in the log.
	nm=$BATS_TEST_TMPDIR/nomatch
	mkdir -p "$nm"
	printf '#!/bin/sh\necho "opp-set: no operating point'"'"'s [match] holds now (AC online)" >&2\nexit 3\n' >"$nm/opp-set"
	chmod 755 "$nm/opp-set"
	: >"$syslog"
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$nm:$stubs:$PATH" "$acts/ac.sh" "$ac_on"
	assert_failure 3
	grep -qF "opp-set: no operating point's [match] holds now (AC online)" "$syslog"
	grep -q "AC plugged in (ACPI0003:00): no operating point holds now: the machine stays at the point it had" "$syslog"
	STUB_RC=4 act ac.sh "$fx" "$ac_off"
	assert_failure 4
	# Without PM_SYSROOT no --sysroot is passed.
	: >"$calls"
	run --separate-stderr env -u PM_SYSROOT PATH="$stubs:$PATH" "$acts/ac.sh" "$ac_on"
	assert_success
	[ "$(<"$calls")" = "opp-set --auto --wait=10" ]
}

@test "battery critical: hibernate when --check hibernate says yes, else suspend" {
	fresh -v fx hwp-laptop
	battery "$fx" Discharging 4
	both battery.sh "$fx" "$bat" "pm-suspend --sysroot $fx --check hibernate
pm-suspend --sysroot $fx hibernate"
	grep -q "battery critical (BAT0: 4% <= 5%, discharging): pm-suspend hibernate" "$syslog"
	STUB_CHECK=3 both battery.sh "$fx" "$bat" "pm-suspend --sysroot $fx --check hibernate
pm-suspend --sysroot $fx suspend"
	# At the threshold is critical; CRITICAL_PCT moves it.
	battery "$fx" Discharging 5
	both battery.sh "$fx" "$bat" "pm-suspend --sysroot $fx --check hibernate
pm-suspend --sysroot $fx hibernate"
	battery "$fx" Discharging 12
	conf "$fx" 'CRITICAL_PCT=12\n'
	both battery.sh "$fx" "$bat" "pm-suspend --sysroot $fx --check hibernate
pm-suspend --sysroot $fx hibernate"
	# A hibernation that fails falls back to a suspend.
	STUB_RC=1 act battery.sh "$fx" "$bat"
	[ "$(<"$calls")" = "pm-suspend --sysroot $fx --check hibernate
pm-suspend --sysroot $fx hibernate
pm-suspend --sysroot $fx suspend" ]
}

@test "battery critical from energy_now/energy_full without a capacity file" {
	fresh -v fx hwp-laptop
	battery "$fx" Discharging 65
	b=$fx/sys/class/power_supply/BAT0
	rm "$b/capacity"
	echo 2000000 >"$b/energy_now" # of 51240000: 3 %
	both battery.sh "$fx" "$bat" "pm-suspend --sysroot $fx --check hibernate
pm-suspend --sysroot $fx hibernate"
	echo 30000000 >"$b/energy_now"
	both battery.sh "$fx" "$bat" ""
}

@test "battery not critical, or charging, or full of AC, does nothing" {
	fresh -v fx hwp-laptop
	battery "$fx" Discharging 65
	both battery.sh "$fx" "$bat" ""
	battery "$fx" Charging 3 1
	both battery.sh "$fx" "$bat" ""
	battery "$fx" "Not charging" 3 1
	both battery.sh "$fx" "$bat" ""
	battery "$fx" Discharging 6
	both battery.sh "$fx" "$bat" ""
	# No battery at all.
	fresh -v fx amd-desktop
	both battery.sh "$fx" "$bat" ""
}

@test "systemd-logind in charge of the lid and the power key: nothing done, logged" {
	fresh -v fx hwp-laptop
	logind "$fx"
	both lid.sh "$fx" "$lid_close" ""
	grep -q "^-t pmtools-acpid lid closed: left to systemd-logind (HandleLidSwitch=suspend)$" "$syslog"
	both power.sh "$fx" "$pbtn" ""
	grep -q "power button: left to systemd-logind (HandlePowerKey=poweroff)" "$syslog"
	# logind does not handle AC and batteries.
	both ac.sh "$fx" "$ac_on" "opp-set --sysroot $fx --auto --wait=10"
	battery "$fx" Discharging 3
	both battery.sh "$fx" "$bat" "pm-suspend --sysroot $fx --check hibernate
pm-suspend --sysroot $fx hibernate"
}

@test "logind.conf and its drop-ins: ignore hands the key to us, the last assignment wins" {
	fresh -v fx hwp-laptop
	logind "$fx" '[Login]\n#HandleLidSwitch=suspend\nHandleLidSwitch=ignore\nHandlePowerKey = ignore\n'
	# On AC, HandleLidSwitchExternalPower unset follows HandleLidSwitch.
	both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
	both power.sh "$fx" "$pbtn" "pm-suspend --sysroot $fx"
	mkdir -p "$fx/etc/systemd/logind.conf.d" "$fx/usr/lib/systemd/logind.conf.d"
	printf '[Login]\nHandleLidSwitchExternalPower=suspend\n' >"$fx/etc/systemd/logind.conf.d/50-ac.conf"
	both lid.sh "$fx" "$lid_close" ""
	grep -q "left to systemd-logind (HandleLidSwitchExternalPower=suspend)" "$syslog"
	# On battery HandleLidSwitch (ignore) counts.
	battery "$fx" Discharging 65
	both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
	# A later drop-in wins; a key in another section does not count; an
	# empty assignment is the default (suspend); /etc hides /usr/lib.
	printf '[Login]\nHandleLidSwitch=lock\n' >"$fx/etc/systemd/logind.conf.d/60-lock.conf"
	both lid.sh "$fx" "$lid_close" ""
	grep -q "(HandleLidSwitch=lock)" "$syslog"
	printf '[Sleep]\nHandleLidSwitch=ignore\n' >"$fx/etc/systemd/logind.conf.d/70-sleep.conf"
	both lid.sh "$fx" "$lid_close" ""
	printf '[Login]\nHandleLidSwitch=ignore\n' >"$fx/usr/lib/systemd/logind.conf.d/80-ignore.conf"
	both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
	printf '[Login]\nHandleLidSwitch=\n' >"$fx/etc/systemd/logind.conf.d/80-ignore.conf"
	both lid.sh "$fx" "$lid_close" ""
	grep -q "(HandleLidSwitch=suspend)" "$syslog"
	# Docked (an external display): HandleLidSwitchDocked, ignore by default.
	connector "$fx" card0-DP-2 connected
	both lid.sh "$fx" "$lid_close" ""
	grep -q "an external display is connected (DP-2)" "$syslog"
	# Without /run/systemd/seats logind is not running: its files do not count.
	rm -r "$fx/run/systemd/seats" "$fx/sys/class/drm"
	both lid.sh "$fx" "$lid_close" "pm-suspend --sysroot $fx"
}

@test "a hostile event text and a hostile battery name stay inert" {
	fresh -v fx hwp-laptop
	m=$BATS_TEST_TMPDIR/pwned
	battery "$fx" Discharging 3
	# shellcheck disable=SC2086,SC2089,SC2090 # the words, as acpid's unquoted %e gives them
	for ev in "battery PNP0C0A:00\$(touch $m.1) 00000080 00000001; touch $m.2" \
		"battery \`touch $m.3\` 00000080 '\$(touch $m.4)'" \
		"button/lid LID close; touch $m.5 && \$(touch $m.6)"; do
		script=battery.sh
		case $ev in button/lid*) script=lid.sh ;; esac
		act "$script" "$fx" "$ev"
		assert_success
		act "$script" "$fx" $ev
		assert_success
	done
	for i in 1 2 3 4 5 6; do [ ! -e "$m.$i" ] || fail "the event text ran: $m.$i"; done
	# The battery's own events still acted: 2 x 2 times check + hibernate,
	# the lid's 2 times suspend.
	[ "$(grep -c -- '--check hibernate' "$calls")" -eq 4 ]
	# An event with a newline or other control bytes is refused as a whole.
	: >"$calls"
	act lid.sh "$fx" "button/lid LID close"$'\n'"touch $m.7"
	assert_success
	[ -z "$(<"$calls")" ] && [ ! -e "$m.7" ]
	grep -q "an event with control characters, ignored: button/lid LID close?touch" "$syslog"
	# A battery whose name holds $(...) and ; (a name has no /: the
	# marker is made in the current folder, should the name run).
	cd "$BATS_TEST_TMPDIR"
	fresh -v fx hwp-laptop
	rm "$fx/sys/class/power_supply/BAT0"
	b="$fx/sys/class/power_supply/BAT\$(touch pwned.8);x"
	mkdir -p "$b"
	echo Battery >"$b/type"
	echo Discharging >"$b/status"
	echo 2 >"$b/capacity"
	echo 0 >"$fx/sys/class/power_supply/ADP1/online"
	: >"$calls"
	STUB_CHECK=3 both battery.sh "$fx" "$bat" "pm-suspend --sysroot $fx --check hibernate
pm-suspend --sysroot $fx suspend"
	[ ! -e pwned.8 ]
	grep -qF "battery critical (BAT\$(touch pwned.8);x: 2% <= 5%, discharging)" "$syslog"
	# A config value with $(...) is a bad value, not code.
	conf "$fx" "POWER_ACTION=\$(touch $m.9)\nCRITICAL_PCT=5;touch $m.9\n"
	both power.sh "$fx" "$pbtn" "pm-suspend --sysroot $fx"
	[ ! -e "$m.9" ]
}

@test "an action given another kind of event, or no event, does nothing" {
	fresh -v fx hwp-laptop
	both lid.sh "$fx" "$pbtn" ""
	grep -q "lid: not a lid event, ignored: button/power PBTN 00000080 00000000" "$syslog"
	both power.sh "$fx" "$lid_close" ""
	both ac.sh "$fx" "$bat" ""
	both battery.sh "$fx" "$ac_on" ""
	act lid.sh "$fx"
	assert_failure 2
	[ -z "$(<"$calls")" ]
	# Without logger the messages go to stderr.
	nolog=$BATS_TEST_TMPDIR/nolog
	mkdir "$nolog"
	ln -s "$stubs/pm-suspend" "$nolog/pm-suspend"
	for t in dirname tr sort; do ln -s "$(type -P "$t")" "$nolog/$t"; done
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$nolog" "$acts/lid.sh" "$lid_close"
	assert_success
	[ "$stderr" = "pmtools-acpid: lid closed: pm-suspend" ]
	[ "$(<"$calls")" = "pm-suspend --sysroot $fx" ]
}

@test "the acpid rules: event= matches its own lines only; action= as acpid runs it" {
	declare -A want=([pmtools-lid]=lid.sh [pmtools-power]=power.sh [pmtools-ac]=ac.sh [pmtools-battery]=battery.sh)
	events=("$lid_close" "$lid_open" "$pbtn" "$ac_off" "$ac_on" "$bat")
	fresh -v fx hwp-laptop
	battery "$fx" Discharging 3
	for r in "${!want[@]}"; do
		f=$rules/$r
		[ "$(grep -c '^event=' "$f")" -eq 1 ] && [ "$(grep -c '^action=' "$f")" -eq 1 ]
		# Every line is a comment, event= or action= (acpid warns on others).
		! grep -qv '^#\|^event=\|^action=\|^$' "$f" || fail "$r: $(grep -v '^#\|^event=\|^action=\|^$' "$f")"
		re=$(sed -n 's/^event=//p' "$f")
		action=$(sed -n 's/^action=//p' "$f")
		[[ $action == "/etc/acpi/pmtools/${want[$r]} "* ]] || fail "$r: $action"
		for ev in "${events[@]}"; do
			if grep -Eq -- "$re" <<<"$ev"; then
				case $r:$ev in
				pmtools-lid:button/lid* | pmtools-power:button/power* | pmtools-ac:ac_adapter* | pmtools-battery:battery*) ;;
				*) fail "$r matches '$ev'" ;;
				esac
				# acpid: %e replaced as it is, then /bin/sh -c.
				cmd=${action//%e/$ev}
				cmd=${cmd//\/etc\/acpi\/pmtools\//$acts/}
				: >"$calls"
				run env PM_SYSROOT="$fx" PATH="$stubs:$PATH" /bin/sh -c "$cmd"
				assert_success
				case $ev in
				"$lid_close") [ "$(<"$calls")" = "pm-suspend --sysroot $fx" ] ;;
				"$lid_open") [ -z "$(<"$calls")" ] ;;
				"$pbtn") [ "$(<"$calls")" = "pm-suspend --sysroot $fx" ] ;;
				ac_adapter*) [ "$(<"$calls")" = "opp-set --sysroot $fx --auto --wait=10" ] ;;
				battery*) [ "$(tail -n 1 "$calls")" = "pm-suspend --sysroot $fx hibernate" ] ;;
				esac || fail "$r '$ev': $(<"$calls")"
			else
				case $r:$ev in
				pmtools-lid:button/lid* | pmtools-power:button/power* | pmtools-ac:ac_adapter* | pmtools-battery:battery*)
					fail "$r does not match '$ev'"
					;;
				esac
			fi
		done
	done
	# A key event of the same family is not a battery event.
	if grep -Eq "$(sed -n 's/^event=//p' "$rules/pmtools-battery")" <<<"button/battery BAT 00000080 00000000"; then
		fail "pmtools-battery matches the battery key"
	fi
	# What the quotes of action= stop at the shell acpid runs.
	m=$BATS_TEST_TMPDIR/pwned
	action=$(sed -n 's/^action=//p' "$rules/pmtools-battery")
	cmd=${action//%e/"battery \$(touch $m) \`touch $m\` 00000080 00000001"}
	cmd=${cmd//\/etc\/acpi\/pmtools\//$acts/}
	run env PM_SYSROOT="$fx" PATH="$stubs:$PATH" /bin/sh -c "$cmd"
	assert_success
	[ ! -e "$m" ]
}

# hook FX PHASE METHOD [PATH]: the sleep hook as pm-suspend runs it.
hook() {
	run --separate-stderr env PM_SYSROOT="$1" PATH="${4:-$bin:$PATH}" "$hook50" "$2" "$3"
}

govs() { cat "$1"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor | sort -u | paste -sd' '; }

@test "the sleep hook keeps the points going down and applies them again coming up" {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d"
	cp "$top"/data/opp.d/*.conf "$fx/etc/pm/opp.d/"
	"$bin/opp-set" --sysroot "$fx" -q performance
	[ "$(govs "$fx")" = performance ]
	before=$(tree_sum "$fx")
	hook "$fx" suspend suspend
	assert_success
	[ "$(<"$fx/run/pmtools/opp.sleep")" = performance ]
	# Going down nothing but the record changed.
	[ "$(tree_sum "$fx" | grep -v ' ./run/pmtools/opp.sleep$')" = "$before" ]
	# The resume reset the governors.
	for g in "$fx"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do echo powersave >"$g"; done
	hook "$fx" resume suspend
	assert_success
	[ "$(govs "$fx")" = performance ]
	[ "$(<"$fx/run/pmtools/opp.current")" = performance ]
	[ ! -e "$fx/run/pmtools/opp.sleep" ]
	# A resume without a record (a hook that failed going down): 254.
	hook "$fx" resume suspend
	assert_failure 254
	# Hibernate and thaw; several points held: all again, the last applied last.
	"$bin/opp-set" --sysroot "$fx" -q powersave
	hook "$fx" hibernate hibernate
	assert_success
	[ "$(<"$fx/run/pmtools/opp.sleep")" = $'powersave\nbalanced\nbattery-saver\ncool' ]
	for g in "$fx"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do echo performance >"$g"; done
	echo performance >"$fx/run/pmtools/opp.current"
	hook "$fx" thaw hibernate
	assert_success
	[ "$(govs "$fx")" = powersave ]
	[ "$(<"$fx/run/pmtools/opp.current")" = powersave ]
	# Other phases are not for this hook.
	hook "$fx" bogus suspend
	assert_failure 254
}

@test "the sleep hook is 254 without opp-set and at no point (custom)" {
	fresh -v fx hwp-laptop
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	for p in suspend resume hibernate thaw; do
		hook "$fx" "$p" suspend "$BATS_TEST_TMPDIR/empty"
		assert_failure 254
	done
	[ ! -e "$fx/run/pmtools/opp.sleep" ]
	# No point file fits the machine as it is: custom.
	mkdir -p "$fx/etc/pm/opp.d"
	printf '[cpufreq]\ngovernor = performance\n' >"$fx/etc/pm/opp.d/fast.conf"
	hook "$fx" suspend suspend
	assert_failure 254
	[[ $stderr == *"at no operating point (custom)"* ]]
	[ ! -e "$fx/run/pmtools/opp.sleep" ]
	hook "$fx" resume suspend
	assert_failure 254
	# A point that no longer applies coming up is a failure (1), logged.
	mkdir -p "$fx/run/pmtools"
	printf 'gone\n' >"$fx/run/pmtools/opp.sleep"
	hook "$fx" resume suspend
	assert_failure 1
	[[ $stderr == *"opp-set gone exited 2"* ]]
	# The record is data: names that are not point names are skipped.
	# shellcheck disable=SC2016 # a literal $(...)
	printf '../x\n$(touch %s)\n' "$BATS_TEST_TMPDIR/pwned" >"$fx/run/pmtools/opp.sleep"
	hook "$fx" resume suspend
	assert_failure 254
	[ ! -e "$BATS_TEST_TMPDIR/pwned" ]
	# The stubbed opp-set: the command lines.
	printf 'fast\nquiet\n' >"$fx/run/pmtools/opp.sleep"
	hook "$fx" resume suspend "$stubs:$PATH"
	assert_success
	[ "$(<"$calls")" = "opp-set --sysroot $fx --wait=10 quiet
opp-set --sysroot $fx --wait=10 fast" ]
}

@test "the sleep hook gives back the charge settings a firmware dropped, those of pmctl supply set too, at a point or none" {
	fresh -v fx hwp-laptop
	b=$fx/sys/class/power_supply/BAT0
	"$bin/pmctl" --sysroot "$fx" -q supply set BAT0 --charge-start 30 --charge-stop 70
	# At no point (custom): nothing to keep going down, yet the charge
	# settings come back up.
	hook "$fx" suspend suspend
	assert_failure 254
	echo 100 >"$b/charge_control_end_threshold"
	echo 0 >"$b/charge_control_start_threshold"
	hook "$fx" resume suspend
	assert_success
	[ "$(<"$b/charge_control_start_threshold") $(<"$b/charge_control_end_threshold")" = "30 70" ]
	[[ $stderr == *"charge_control_end_threshold reads 100, not the 70 applied last: the firmware dropped it; applying it again"* ]] || fail "$stderr"
	[ ! -e "$fx/run/pmtools/opp.current" ]
	# At a point: the point, then the charge settings; the point stays
	# the current one.
	mkdir -p "$fx/etc/pm/opp.d"
	cp "$top"/data/opp.d/*.conf "$fx/etc/pm/opp.d/"
	"$bin/opp-set" --sysroot "$fx" -q performance
	hook "$fx" suspend suspend
	assert_success
	for g in "$fx"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor; do echo powersave >"$g"; done
	echo 95 >"$b/charge_control_end_threshold"
	hook "$fx" resume suspend
	assert_success
	[ "$(govs "$fx")" = performance ]
	[ "$(<"$b/charge_control_end_threshold")" = 70 ]
	[ "$(<"$fx/run/pmtools/opp.current")" = performance ]
	# The stubbed opp-set: the command lines, as systemd-sleep's post.
	: >"$calls"
	run --separate-stderr env PM_SYSROOT="$fx" PATH="$stubs:$PATH" "$hook50" post suspend
	assert_success
	[ "$(<"$calls")" = "opp-set --sysroot $fx --wait=10 --reapply=charge" ] || fail "$(<"$calls")"
}

@test "the sleep hook in a pm-suspend cycle on a fixture (pm-suspend --sysroot)" {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d" "$fx/etc/pm/sleep.d" "$fx/var/log"
	cp "$top"/data/opp.d/*.conf "$fx/etc/pm/opp.d/"
	install -m 755 "$hook50" "$fx/etc/pm/sleep.d/50pmtools-opp"
	"$bin/opp-set" --sysroot "$fx" -q performance
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" deep
	assert_success
	log=$fx/var/log/pm-suspend.log
	grep -q "hook /etc/pm/sleep.d/50pmtools-opp suspend suspend: success (exit 0)" "$log"
	grep -q "hook /etc/pm/sleep.d/50pmtools-opp resume suspend: success (exit 0)" "$log"
	grep -qx "opp-set: already at performance" "$log"
	[ ! -e "$fx/run/pmtools/opp.sleep" ]
	[ "$(govs "$fx")" = performance ]
}
