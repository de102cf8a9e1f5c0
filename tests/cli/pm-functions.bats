#!/usr/bin/env bats
# shellcheck disable=SC2016 # the scripts are single-quoted on purpose: they expand in the shell under test
# shellcheck disable=SC2154 # $top and bats' $output, $status come from helpers.bash and run
# scripts/pm-functions, pmtools' functions file for pm-utils' hooks, sourced
# as a hook sources ${PM_FUNCTIONS}, by each shell a hook may be written for
# (dash, bash, busybox ash), with STORAGEDIR and PM_SYSROOT in a temporary
# folder and the commands that act on the machine (modprobe, systemctl,
# invoke-rc.d, dbus-send) stubs first on PATH that log their calls.
# busybox's shell runs its own applets before PATH (its modprobe is real):
# it is left out of the tests that call those commands.
# tests/run: not under ASan: its subject is a shell functions file

load helpers

setup() {
	load_libs
	root=$BATS_TEST_TMPDIR/root
	store=$root/run/pm-utils/pm-suspend/storage
	stubs=$BATS_TEST_TMPDIR/stubs
	mkdir -p "$store" "$stubs" "$root/proc" "$root/sys/class/power_supply"
	for n in modprobe systemctl invoke-rc.d dbus-send; do
		printf '#!/bin/sh\necho "%s $*" >>"%s/calls"\n[ "%s $1" != "dbus-send --fail" ]\n' \
			"$n" "$BATS_TEST_TMPDIR" "$n" >"$stubs/$n"
		chmod 755 "$stubs/$n"
	done
	shells=()
	for sh in dash bash "busybox sh"; do
		command -v "${sh%% *}" >/dev/null && shells+=("$sh")
	done
}

# src SHELL SCRIPT: SCRIPT after sourcing the file, as a hook of pm-suspend
# has it (the stubs first on PATH).
src() {
	local sh=$1
	shift
	rm -f "$BATS_TEST_TMPDIR/calls"
	# shellcheck disable=SC2086 # "busybox sh" is two words
	run env -i PATH="$stubs:/usr/bin:/bin" PM_SYSROOT="$root" STORAGEDIR="$store" \
		NA=254 NX=253 DX=252 PM_FUNCTIONS="$top/scripts/pm-functions" \
		$sh -c '. "$PM_FUNCTIONS" || exit 9; '"$1"
}

calls() { cat "$BATS_TEST_TMPDIR/calls" 2>/dev/null; }

@test "sourcing it defines the contract's functions, exports nothing, writes nothing, and works under set -u" {
	for sh in "${shells[@]}"; do
		src "$sh" 'set -u; for f in savestate restorestate state_exists command_exists log inhibit inhibited disablehook modunload modreload stopservice restartservice get_power_status is_set try_lock spin_lock release_lock add_parameters remove_parameters get_parameters has_parameter dbus_send; do command -v "$f" >/dev/null || echo "missing $f"; done'
		assert_success
		refute_output --partial missing
		# The environment it was given, nothing more.
		# shellcheck disable=SC2086 # "busybox sh" is two words
		run env -i PATH=/usr/bin:/bin STORAGEDIR="$store" $sh -c 'env | sort >"$1.a"; . "$2"; env | sort >"$1.b"; cmp "$1.a" "$1.b"' \
			sh "$BATS_TEST_TMPDIR/env" "$top/scripts/pm-functions"
		assert_success
		[ -z "$(ls -A "$store")" ] || fail "$sh: $(ls -A "$store")"
	done
	# Without pm-suspend's variables (set -u) it still loads.
	run env -i PATH=/usr/bin:/bin dash -c 'set -u; . "$1"; echo "$NA $STORAGEDIR $TEMPORARY_CPUFREQ_GOVERNOR"' sh "$top/scripts/pm-functions"
	assert_success
	assert_output "254 /run/pm-utils/pm-suspend/storage performance"
}

@test "savestate, restorestate, state_exists: from stdin or an argument; a name with / is refused" {
	for sh in "${shells[@]}"; do
		rm -f "$store"/*
		src "$sh" 'savestate gov powersave && printf "a\nb\n" | savestate lines && savestate empty "" &&
			state_exists gov && ! state_exists other && restorestate gov && restorestate lines &&
			restorestate empty && echo end; savestate ../x y; echo "rc $?"; state_exists ../x; echo "rc $?"'
		assert_success
		assert_output "$(printf 'powersave\na\nb\n\nend\n%s\nrc 1\nrc 1' "sh: invalid name for STORAGEDIR: '../x'")" ||
			[[ $output == *"invalid name for STORAGEDIR: '../x'"*"rc 1"*"rc 1" ]] || fail "$sh: $output"
		[ "$(<"$store/state:gov")" = powersave ]
		[ ! -e "$root/run/pm-utils/pm-suspend/x" ]
	done
}

@test "modunload: the modules using one first, the last listed first, each remembered; modreload loads them again" {
	cat >"$root/proc/modules" <<'EOF'
snd_hda_codec 188416 2 snd_hda_intel,snd_hda_codec_realtek, Live 0x0000000000000000
snd_hda_intel 57344 0 - Live 0x0000000000000000
snd_hda_codec_realtek 167936 0 - Live 0x0000000000000000
psmouse 217088 0 - Live 0x0000000000000000
EOF
	for sh in dash bash; do
		rm -f "$store"/*
		src "$sh" 'modunload snd-hda-codec && modunload psmouse && modunload notloaded && echo ok; ls "$STORAGEDIR"; modreload'
		assert_success
		assert_output $'ok\nmodule:psmouse\nmodule:snd_hda_codec\nmodule:snd_hda_codec_realtek\nmodule:snd_hda_intel'
		[ "$(calls)" = "$(printf '%s\n' "modprobe -r snd_hda_codec_realtek" "modprobe -r snd_hda_intel" \
			"modprobe -r snd_hda_codec" "modprobe -r psmouse" "modprobe psmouse" "modprobe snd_hda_codec" \
			"modprobe snd_hda_codec_realtek" "modprobe snd_hda_intel")" ] || fail "$sh: $(calls)"
	done
	# A module that will not unload: 1, and nothing remembered.
	printf '#!/bin/sh\necho "modprobe $*" >>"%s/calls"\nexit 1\n' "$BATS_TEST_TMPDIR" >"$stubs/modprobe"
	rm -f "$store"/*
	src dash 'modunload psmouse; echo "rc $?"'
	assert_output $'modunload: cannot unload psmouse\nrc 1'
	[ -z "$(ls -A "$store")" ]
}

@test "stopservice and restartservice: systemd's running service, an init.d one, one that does not run" {
	mkdir -p "$root/run/systemd/system"
	src dash 'stopservice cups && restartservice cups && restartservice never && ls "$STORAGEDIR"'
	assert_success
	[ "$(calls)" = $'systemctl --quiet is-active cups\nsystemctl stop cups\nsystemctl start cups' ]
	rm -r "$root/run/systemd"
	mkdir -p "$root/etc/init.d"
	printf '#!/bin/sh\n[ "$1" = status ] && exit %s\necho "init.d $*" >>"%s/calls"\n' 0 "$BATS_TEST_TMPDIR" >"$root/etc/init.d/lpd"
	printf '#!/bin/sh\n[ "$1" = status ] && exit %s\necho "init.d $*" >>"%s/calls"\n' 3 "$BATS_TEST_TMPDIR" >"$root/etc/init.d/idle"
	chmod 755 "$root/etc/init.d/"*
	src dash 'stopservice lpd && stopservice idle && ls "$STORAGEDIR" && restartservice lpd && restartservice idle'
	assert_success
	assert_output "service:lpd"
	[ "$(calls)" = $'invoke-rc.d lpd stop\ninvoke-rc.d lpd start' ]
}

@test "get_power_status: ac, battery, or error with status 1" {
	ps=$root/sys/class/power_supply
	mkdir -p "$ps/AC" "$ps/BAT0"
	echo Mains >"$ps/AC/type"
	echo Battery >"$ps/BAT0/type"
	echo 1 >"$ps/AC/online"
	for sh in "${shells[@]}"; do
		src "$sh" 'get_power_status'
		assert_success
		assert_output ac
	done
	echo 0 >"$ps/AC/online"
	src dash 'get_power_status'
	assert_output battery
	rm -r "$ps/AC"
	echo Discharging >"$ps/BAT0/status"
	src dash 'get_power_status'
	assert_output battery
	rm -r "$ps/BAT0"
	src dash 'get_power_status'
	assert_failure 1
	assert_output error
}

@test "the parameter list: add (once each, at the end), remove, has, all; each change leaves parameters.new" {
	printf -- '--sysroot\n/x\ndeep\n' >"$store/parameters"
	for sh in "${shells[@]}"; do
		printf -- '--sysroot\n/x\ndeep\n' >"$store/parameters"
		rm -f "$store/parameters.new"
		src "$sh" 'add_parameters --quirk-a --quirk-b && add_parameters --quirk-a && remove_parameters deep &&
			has_parameter --quirk-b && ! has_parameter deep && get_parameters | tr "\n" " "'
		assert_success
		assert_output "--sysroot /x --quirk-b --quirk-a "
		[ -f "$store/parameters.new" ]
		src "$sh" 'remove_parameters all; get_parameters | wc -l'
		assert_output 0
	done
}

@test "is_set, command_exists, log, inhibit, disablehook, dbus_send" {
	for sh in "${shells[@]}"; do
		rm -f "$store"/*
		src "$sh" 'for v in true yes on 1 TRUE YES ON false no off 0 "" maybe; do is_set "$v"; printf "%s " "$?"; done; is_set; echo "$?"
			command_exists savestate && command_exists ls && ! command_exists no-such-cmd && echo commands
			log -n "a b"; log c
			inhibited || echo free; inhibit a backup; inhibited && cat "$STORAGEDIR/inhibit"
			disablehook /etc/pm/sleep.d/55x "not here"; cat "$STORAGEDIR/disable_hook:55x"
			[ "$0" = "busybox sh" ] || { dbus_send --ok; echo "dbus $?"; dbus_send --fail; echo "dbus $?"; }'
		assert_success
		assert_output "$(printf '%s\n' "0 0 0 0 0 0 0 1 1 1 1 2 2 2" commands "a bc" free "a backup" "not here" "dbus 0" "dbus 254")" ||
			fail "$sh: $output"
	done
}

@test "try_lock, spin_lock, release_lock: one holder at a time, in /run/pm-utils/locks under the root" {
	command -v flock >/dev/null || skip "no flock"
	src dash 'try_lock x && echo got && (try_lock x || echo busy) && release_lock x && try_lock x && echo again'
	assert_success
	assert_output $'got\nbusy\nagain'
	[ -d "$root/run/pm-utils/locks" ]
	# Only the last part of the name counts: never a file outside.
	src dash 'try_lock ../../etc/lockname && release_lock ../lockname && echo released'
	assert_output released
	[ ! -e "$root/etc/lockname" ]
}
