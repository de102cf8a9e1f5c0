#!/usr/bin/env bats
# shellcheck disable=SC2016 # hook bodies and jq filters are single-quoted on purpose
# shellcheck disable=SC2154 # $bin, $top and bats' $stderr come from helpers.bash and run
# Debian's own pm-utils hooks (the 10 of /usr/lib/pm-utils/sleep.d in the
# pm-utils package, fetched and unpacked at test time by
# tests/pmutils/fetch, never installed) run by pm-suspend with pmtools'
# functions file (scripts/pm-functions) as PM_FUNCTIONS, on a fixture tree,
# inside the private mount namespace of tests/pmutils/sandbox: /sys is the
# fixture's, /run and /var/log are tmpfs, and every command they could
# change this machine with is a stub that logs its call.  Skips loudly
# when the package cannot be had or no namespace can be made.
# tests/run: not under ASan: its subject is Debian's hooks over scripts/pm-functions; pm-suspend's hook runner runs under ASan in pm-suspend-cycle.bats

load helpers

setup_file() {
	local out
	if ! out=$("$BATS_TEST_DIRNAME/../pmutils/fetch" 2>&1); then
		echo "# SKIPPED LOUDLY: no Debian pm-utils package here: $out" >&3
		skip "no Debian pm-utils package: $out"
	fi
	export DEB=${out##*$'\n'}
	DATADIR=$("${PMTOOLS_BIN:-$BATS_TEST_DIRNAME/../../build}/pm-suspend" --help |
		sed -n 's|.*PM_FUNCTIONS=\(.*\)/pm-functions$|\1|p')
	export DATADIR
}

setup() {
	load_libs
	[ -n "$DATADIR" ] || fail "pm-suspend --help names no PM_FUNCTIONS"
}

# A laptop with Debian's hooks (and its video quirk database) in
# /usr/lib/pm-utils/sleep.d, and what they look at: an alx module, the
# modules of SUSPEND_MODULES in /proc/modules (one used by two others),
# cpu0 with a cpufreq folder of its own as before Linux 4.3 (governor
# powersave), DMI data of a ThinkPad X61, the folder of the video quirks
# they remember.  A probe hook
# of ours, 99zz-probe, runs last going down and first coming up: it keeps
# what the hooks saved and the governor in the middle of the sleep.
debfx() {
	local fx c
	fresh -v fx hwp-laptop
	mkdir -p "$fx/usr/lib/pm-utils" "$fx/etc/pm/sleep.d" "$fx/etc/pm/config.d" \
		"$fx/var/log" "$fx/var/cache/pm-utils" "$fx/sys/module/alx"
	cp -r "$DEB/usr/lib/pm-utils/sleep.d" "$DEB/usr/lib/pm-utils/video-quirks" \
		"$fx/usr/lib/pm-utils/"
	mkdir -p "$fx/sys/class/block/nvme0n1p3"
	echo 259:3 >"$fx/sys/class/block/nvme0n1p3/dev"
	cat >"$fx/proc/modules" <<'EOF'
alx 147456 0 - Live 0x0000000000000000
psmouse 217088 0 - Live 0x0000000000000000
snd_hda_codec 188416 2 snd_hda_intel,snd_hda_codec_realtek, Live 0x0000000000000000
snd_hda_intel 57344 0 - Live 0x0000000000000000
snd_hda_codec_realtek 167936 0 - Live 0x0000000000000000
EOF
	echo 'SUSPEND_MODULES="psmouse snd-hda-codec"' >"$fx/etc/pm/config.d/modules"
	# A ThinkPad X61, which pm-utils' quirk database knows.
	mkdir -p "$fx/sys/class/dmi/id"
	for kv in sys_vendor=LENOVO product_name=7673CTO "product_version=ThinkPad X61" \
		bios_vendor=LENOVO bios_version=7NETC1WW bios_date=03/04/2009 \
		board_vendor=LENOVO board_name=7673CTO board_version="Not Available"; do
		echo "${kv#*=}" >"$fx/sys/class/dmi/id/${kv%%=*}"
	done
	c=$fx/sys/devices/system/cpu/cpu0/cpufreq
	rm "$c"
	mkdir "$c"
	echo powersave >"$c/scaling_governor"
	echo "performance powersave" >"$c/scaling_available_governors"
	cat >"$fx/etc/pm/sleep.d/99zz-probe" <<'EOF'
#!/bin/sh
# Not Debian's: what the hooks before it left, in the middle of the sleep.
case $1 in
suspend | hibernate)
	{
		echo "governor $(cat /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor)"
		for f in "$STORAGEDIR"/*; do echo "${f##*/}: $(tr '\n' ' ' <"$f")"; done
		echo "cmdline $PM_CMDLINE"
	} >"$PM_SYSROOT/probe"
	;;
esac
exit 0
EOF
	chmod 755 "$fx/etc/pm/sleep.d/99zz-probe"
	printf '%s\n' "$fx"
}

# sb FX ARG...: pm-suspend --sysroot FX ARG... in the sandbox, run from the
# stubs' folder (the hooks get the binary's folder first on their PATH).
sb() {
	local fx=$1
	shift
	run --separate-stderr "$top/tests/pmutils/sandbox" "$fx" "$DATADIR" \
		"$top/scripts/pm-functions" -- sh -c \
		'cp "$0" "$PMTOOLS_STUBS/pm-suspend" && exec "$PMTOOLS_STUBS/pm-suspend" "$@"' \
		"$bin/pm-suspend" --sysroot "$fx" "$@"
	if [ "$status" -eq 77 ]; then
		echo "# SKIPPED LOUDLY: no private mount namespace: $stderr" >&3
		skip "$stderr"
	fi
}

# Each of Debian's 10 hooks ran in PHASE with exit 0 or 254.
debian_ran() { # PHASE
	jq -e --arg p "$1" '[.hooks[] | select(.phase == $p and
		(.path | startswith("/usr/lib/pm-utils/sleep.d/")))] |
		length == 10 and all(.status == 0 or .status == 254)' <<<"$output" ||
		fail "$1: $(jq -c --arg p "$1" '[.hooks[] | select(.phase == $p) | [.path, .status]]' <<<"$output")"
}

@test "Debian's 10 pm-utils hooks under pm-suspend: each exits 0 or 254 and the sleep happens" {
	fx=$(debfx)
	sb "$fx" --json deep
	[ "$status" -eq 0 ] || fail "exit $status: $stderr $(tail -n 30 "$fx/var/log/pm-suspend.log")"
	debian_ran pre
	debian_ran post
	[ "$(<"$fx/sys/power/state")" = mem ]
	jq -e '.legs[0].entered == true' <<<"$output"
	# 95led has no /proc/acpi/ibm/led and 90clock no NEED_CLOCK_SYNC: $NA.
	jq -e '[.hooks[] | select(.path | endswith("/95led") or endswith("/90clock")) | .status] == [254, 254, 254, 254]' <<<"$output"
	# No function or variable of the functions file is missing.
	funcs=$(sed -n 's/^\([a-z_]*\)() [({]$/\1/p' "$top/scripts/pm-functions" | paste -sd'|')
	[ -n "$funcs" ]
	! grep -E "(^|: )(\.|$funcs): .*not found" "$fx/var/log/pm-suspend.log" || fail "a function is missing"
}

@test "Debian's hooks keep their state in STORAGEDIR from the suspend pass to the resume pass, and put it back" {
	fx=$(debfx)
	sb "$fx" deep
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	p=$fx/probe
	# 94cpufreq: the governor saved, performance for the sleep, put back.
	grep -qx "governor performance" "$p" || fail "$(<"$p")"
	grep -qx "state:cpu0_governor: powersave " "$p" || fail "$(<"$p")"
	[ "$(<"$fx/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")" = powersave ]
	# 50unload_alx and 75modules (SUSPEND_MODULES from config.d): the
	# users of a module first, each loaded again coming up.
	for m in alx psmouse snd_hda_codec snd_hda_codec_realtek snd_hda_intel; do
		grep -qx "module:$m: " "$p" || fail "module:$m: $(<"$p")"
	done
	diff - <(grep '^modprobe' "$fx/STUBS.log") <<'EOF'
modprobe -r alx
modprobe -r psmouse
modprobe -r snd_hda_codec_realtek
modprobe -r snd_hda_intel
modprobe -r snd_hda_codec
modprobe alx
modprobe psmouse
modprobe snd_hda_codec
modprobe snd_hda_codec_realtek
modprobe snd_hda_intel
EOF
	# 98video-quirk-db-handler finds the X61's quirks in the database and
	# adds them to the parameters; 99video, after it, gets them in
	# PM_CMDLINE: S3 BIOS and S3 mode are acpi_video_flags 1 + 2.
	grep -q "^cmdline .* --quirk-s3-bios --quirk-s3-mode$" "$p" || fail "$(<"$p")"
	grep -qx "sysctl -w kernel.acpi_video_flags=3" "$fx/STUBS.log"
	# 99video: the console it left (fgconsole: 1) is the one it goes back to.
	grep -qx "state:console: 1 " "$p"
	[ "$(grep -E '^(chvt|deallocvt)' "$fx/STUBS.log")" = $'chvt 63\nchvt 1\ndeallocvt 63' ]
	# 98video-quirk-db-handler: the quirks it saved are those it records
	# as the last known working ones, coming up.
	grep -q "^state:video_quirks: .*--quirk-s3-bios --quirk-s3-mode $" "$p"
	q=$fx/var/cache/pm-utils/last_known_working.quirkdb
	grep -qx "match system.hardware.product compare_eq 7673CTO" "$q"
	grep -qx "addquirk --quirk-s3-bios" "$q"
	grep -qx "addquirk --quirk-s3-mode" "$q"
	# 00powersave: pm-powersave (a stub) false going down, then again.
	[ "$(grep '^pm-powersave' "$fx/STUBS.log")" = $'pm-powersave false\npm-powersave ' ]
}

@test "Debian's hooks on hibernate: thaw comes up; 000kernel-change's refusal skips the hibernation" {
	fx=$(debfx)
	sb "$fx" --json hibernate
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	debian_ran pre
	debian_ran post
	jq -e '[.hooks[] | select(.phase == "post") | .args | join(" ")] | unique == ["thaw hibernate"]' <<<"$output"
	[ "$(<"$fx/sys/power/state")" = disk ]
	[ "$(<"$fx/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")" = powersave ]
	# A kernel update left /var/run/do-not-hibernate: the hook says no.
	fx=$(debfx)
	echo '#!/bin/sh
: >/run/do-not-hibernate' >"$fx/etc/pm/sleep.d/000a-update"
	chmod 755 "$fx/etc/pm/sleep.d/000a-update"
	sb "$fx" hibernate
	[ "$status" -eq 1 ]
	[[ $stderr == *"the hook /usr/lib/pm-utils/sleep.d/000kernel-change failed: the sleep was skipped"* ]] || fail "$stderr"
	[ "$(<"$fx/sys/power/state")" = "freeze mem disk" ]
	grep -q "kernel update inhibits hibernate" "$fx/var/log/pm-suspend.log"
}
