#!/usr/bin/env bats
# shellcheck disable=SC2016 # hook bodies are single-quoted on purpose: they expand in the hook
# shellcheck disable=SC2154 # $bin, $so and bats' $stderr, $stderr_lines come from helpers.bash and run
# pm-suspend's cycle on fixture trees (plain files for /sys/power): hooks in
# the pm-utils contract, their safety rules, the config files, the lock,
# the wakeup_count handshake, the RTC alarm, every failure path with its
# restores, suspend-then-hibernate, pm_test, the report.

load helpers

setup() {
	load_libs
}

# A fresh hwp-laptop (s2idle selected, deep offered; resume device with
# room) with both hook folders and /var/log.  -v VAR as fixture's.
sleepfx() { # [-v VAR] [NAME]
	local _sf_var="" _sf
	[ "$1" != -v ] || { _sf_var=$2 && shift 2; }
	fresh -v _sf "${1:-hwp-laptop}"
	mkdir -p "$_sf/etc/pm/sleep.d" "$_sf/usr/lib/pm-utils/sleep.d" "$_sf/var/log" "$_sf/etc/pm/config.d"
	# The resume device names the active swap partition: hibernation is safe.
	if [ -f "$_sf/sys/power/resume" ] && [ -f "$_sf/proc/swaps" ] && [[ $(<"$_sf/proc/swaps") == *nvme0n1p3* ]]; then
		mkdir -p "$_sf/sys/class/block/nvme0n1p3"
		echo 259:3 >"$_sf/sys/class/block/nvme0n1p3/dev"
	fi
	put "$_sf_var" "$_sf"
}

# hook FX DIR NAME [EXIT [BODY]]: a hook that logs "NAME $1 $2 PM_MODE".
hook() {
	local f="$1$2/$3"
	{
		echo '#!/bin/sh'
		echo "echo \"$3 \$1 \$2 \$PM_MODE\" >>\"\$PM_SYSROOT/hooks.log\""
		[ -z "${5:-}" ] || echo "$5"
		echo "exit ${4:-0}"
	} >"$f"
	chmod 755 "$f"
}

# Plain files keep the last word written: give FX the kernel's lists again.
repower() {
	local f k
	fixture -v k "${2:-hwp-laptop}"
	for f in state mem_sleep disk pm_test; do
		cp "$k/sys/power/$f" "$1/sys/power/$f"
	done
}

hooklog() { cat "$1/hooks.log" 2>/dev/null; }

ps() { # FX ARG...: run pm-suspend on FX
	local fx=$1
	shift
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" "$@"
}

@test "the cycle: hooks merged by name (/etc wins), C order, reversed on resume" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10etc
	hook "$fx" /usr/lib/pm-utils/sleep.d 10etc 0 'echo "lib copy ran" >>"$PM_SYSROOT/hooks.log"'
	hook "$fx" /usr/lib/pm-utils/sleep.d 00lib
	hook "$fx" /usr/lib/pm-utils/sleep.d Zupper
	hook "$fx" /etc/pm/sleep.d _under
	hook "$fx" /etc/pm/sleep.d a-lower
	ps "$fx" deep
	assert_success
	[ -z "$output" ]
	diff - <(hooklog "$fx") <<'EOF'
00lib suspend suspend deep
10etc suspend suspend deep
Zupper suspend suspend deep
_under suspend suspend deep
a-lower suspend suspend deep
a-lower resume suspend deep
_under resume suspend deep
Zupper resume suspend deep
10etc resume suspend deep
00lib resume suspend deep
EOF
	[ "$(<"$fx/sys/power/state")" = mem ]
	# mem_sleep was s2idle: deep for the sleep, s2idle again after.
	[ "$(<"$fx/sys/power/mem_sleep")" = s2idle ]
}

@test "hook arguments of every mode (CLI.md table)" {
	for pair in "suspend:suspend suspend:resume suspend" "s2idle:suspend suspend:resume suspend" \
		"deep:suspend suspend:resume suspend" "hibernate:hibernate hibernate:thaw hibernate" \
		"hybrid:suspend suspend_hybrid:resume suspend_hybrid"; do
		IFS=: read -r mode down up <<<"$pair"
		sleepfx -v fx
		hook "$fx" /etc/pm/sleep.d 50rec
		ps "$fx" "$mode"
		[ "$status" -eq 0 ] || fail "$mode: $status $stderr"
		[ "$(hooklog "$fx")" = "50rec $down $mode"$'\n'"50rec $up $mode" ] || fail "$mode: $(hooklog "$fx")"
	done
}

@test "the writes of each mode, in order, and the restores (dry run)" {
	sleepfx -v fx
	before=$(tree_sum "$fx")
	hook "$fx" /etc/pm/sleep.d 10a
	ps "$fx" -n deep
	assert_success
	wc=$(<"$fx/sys/power/wakeup_count")
	diff - <(printf '%s\n' "${lines[@]}") <<EOF
hook /etc/pm/sleep.d/10a suspend suspend
/sys/power/mem_sleep = deep
/sys/power/wakeup_count = $wc
/sys/power/state = mem
hook /etc/pm/sleep.d/10a resume suspend
/sys/power/mem_sleep = s2idle
EOF
	ps "$fx" -n s2idle
	assert_success
	[ "${lines[*]}" = "hook /etc/pm/sleep.d/10a suspend suspend /sys/power/wakeup_count = $wc /sys/power/state = mem hook /etc/pm/sleep.d/10a resume suspend" ]
	ps "$fx" -n hibernate
	assert_success
	assert_line "/sys/power/state = disk"
	refute_line --partial "/sys/power/disk ="
	ps "$fx" -n hybrid
	assert_line "/sys/power/disk = suspend"
	assert_line "/sys/power/disk = platform"
	ps "$fx" -n --test devices deep
	assert_line "/sys/power/pm_test = devices"
	assert_line "/sys/power/pm_test = none"
	ps "$fx" -n --wake-after 90 deep
	assert_line "/sys/class/rtc/rtc0/wakealarm = $(($(<"$fx/sys/class/rtc/rtc0/since_epoch") + 90))"
	assert_line "/sys/class/rtc/rtc0/wakealarm = 0"
	rm "$fx/etc/pm/sleep.d/10a"
	[ "$(tree_sum "$fx")" = "$before" ] || fail "a dry run changed the tree"
	[ ! -e "$fx/hooks.log" ]
	# standby: state standby where offered, else mem_sleep shallow.
	echo "freeze standby mem" >"$fx/sys/power/state"
	ps "$fx" -n standby
	assert_line "/sys/power/state = standby"
	echo "s2idle shallow [deep]" >"$fx/sys/power/mem_sleep"
	echo "freeze mem" >"$fx/sys/power/state"
	ps "$fx" -n standby
	assert_line "/sys/power/mem_sleep = shallow"
	assert_line "/sys/power/mem_sleep = deep"
}

@test "hook exit 254, 253, 252 go on; any other status stops, skips the sleep, resumes the hooks that ran" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10na 254
	hook "$fx" /etc/pm/sleep.d 11nx 253
	hook "$fx" /etc/pm/sleep.d 12dx 252
	hook "$fx" /etc/pm/sleep.d 20fail 1
	hook "$fx" /etc/pm/sleep.d 30after
	state=$(<"$fx/sys/power/state")
	ps "$fx" -J deep
	assert_failure 1
	[ "${stderr_lines[0]}" = "pm-suspend: the hook /etc/pm/sleep.d/20fail failed: the sleep was skipped" ]
	diff - <(hooklog "$fx") <<'EOF'
10na suspend suspend deep
11nx suspend suspend deep
12dx suspend suspend deep
20fail suspend suspend deep
12dx resume suspend deep
11nx resume suspend deep
10na resume suspend deep
EOF
	[ "$(<"$fx/sys/power/state")" = "$state" ]
	[ "$(jq -r '[.hooks[] | "\(.phase):\(.status):\(.result)"] | join(" ")' <<<"$output")" = \
		"pre:254:not applicable pre:253:not executable pre:252:disabled pre:1:failed post:252:disabled post:253:not executable post:254:not applicable" ]
	[ "$(jq -r '.legs[0].entered' <<<"$output")" = false ]
	[ "$(jq -r '.status' <<<"$output")" = 1 ]
	grep -q "hook /etc/pm/sleep.d/20fail suspend suspend: failed (exit 1) in " "$fx/var/log/pm-suspend.log"
}

@test "a hook that hangs is killed with its process group after --hook-timeout" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10hang 0 '(sleep 60; echo orphan >>"$PM_SYSROOT/hooks.log") & sleep 60'
	start=$SECONDS
	ps "$fx" --hook-timeout 300ms deep
	assert_failure 1
	((SECONDS - start < 20))
	[[ $stderr == *"the hook /etc/pm/sleep.d/10hang suspend suspend took longer than 0 s: killed with its process group"* ]] ||
		[[ $stderr == *"took longer than"*"killed with its process group"* ]]
	[[ $stderr == *"pm-suspend: the hook /etc/pm/sleep.d/10hang failed: the sleep was skipped"* ]]
	# Nothing of its group lives on.
	if pgrep -f "sleep 60; echo orphan" >/dev/null; then fail "the hook's child lives on"; fi
	# HOOK_TIMEOUT in the config does the same; the option wins.
	echo "HOOK_TIMEOUT=200ms" >"$fx/etc/pm/pm-suspend.conf"
	ps "$fx" deep
	assert_failure 1
	[[ $stderr == *"took longer than"* ]]
}

@test "a hook's environment is clean: fixed PATH, PM_MODE, PM_CMDLINE, PM_SYSROOT, stdin /dev/null" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10env 0 'env | sort >"$PM_SYSROOT/env.$1"; if read -r x; then echo "stdin: $x" >>"$PM_SYSROOT/env.$1"; fi'
	run --separate-stderr env FOO=bar LD_LIBRARY_PATH=/nonexistent "$bin/pm-suspend" --sysroot "$fx" --hook-timeout 10 deep <<<"typed"
	assert_success
	e=$fx/env.suspend
	grep -qx "PM_MODE=deep" "$e"
	grep -qx "PM_SYSROOT=$fx" "$e"
	grep -qx "PM_CMDLINE=--sysroot $fx --hook-timeout 10 deep" "$e"
	grep -qx "PATH=$(cd "$bin" && pwd -P):/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$e"
	if grep -q "^FOO=\|^LD_\|^stdin:" "$e"; then fail "$(<"$e")"; fi
}

@test "a pm-utils hook gets what pm-utils' hooks read: PM_FUNCTIONS, NA NX DX, STORAGEDIR, PM_LOGFILE, the config" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10env 0 'env | sort >"$PM_SYSROOT/env.$1"; ls -ld "$STORAGEDIR" >"$PM_SYSROOT/dir.$1"; cat "$STORAGEDIR/parameters" >"$PM_SYSROOT/par.$1"'
	printf 'SUSPEND_MODULES=e1000e\nTEMPORARY_CPUFREQ_GOVERNOR=powersave\n' >"$fx/etc/pm/pm-suspend.conf"
	printf 'SUSPEND_MODULES="$SUSPEND_MODULES snd-hda-intel"\nQUIRK_S3_BIOS=true\n' >"$fx/etc/pm/config.d/local"
	run --separate-stderr env QUIRK_S3_BIOS=true PM_FUNCTIONS=/tmp/x NA=1 "$bin/pm-suspend" --sysroot "$fx" deep
	assert_success
	[[ $stderr == *"ignored: QUIRK_S3_BIOS"* ]]
	functions=$("$bin/pm-suspend" --help | sed -n 's/.*PM_FUNCTIONS=//p')
	[[ $functions == /*/pm-functions ]]
	for phase in suspend resume; do
		e=$fx/env.$phase
		for want in "PM_FUNCTIONS=$functions" NA=254 NX=253 DX=252 \
			"PM_UTILS_LIBDIR=$fx/usr/lib/pm-utils" "PM_UTILS_ETCDIR=$fx/etc/pm" \
			"STORAGEDIR=$fx/run/pm-utils/pm-suspend/storage" \
			"PM_LOGFILE=$fx/var/log/pm-suspend.log" \
			"SUSPEND_MODULES=e1000e snd-hda-intel" TEMPORARY_CPUFREQ_GOVERNOR=powersave; do
			grep -qxF "$want" "$e" || fail "$phase: no $want in $(<"$e")"
		done
		# Nothing else: no quirk, no systemd variable.
		[ "$(grep -cv '^\(PATH\|PM_MODE\|PM_CMDLINE\|PM_SYSROOT\|LANG\|PWD\|SHLVL\|_\)=' "$e")" -eq 10 ] || fail "$(<"$e")"
		[[ $(<"$fx/dir.$phase") == "drwx------ "*" root root "* ]]
		[ "$(<"$fx/par.$phase")" = $'--sysroot\n'"$fx"$'\ndeep' ]
	done
	# The defaults: no modules, performance.
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10env 0 'env >"$PM_SYSROOT/env.$1"'
	ps "$fx" deep
	grep -qx "SUSPEND_MODULES=" "$fx/env.suspend"
	grep -qx "TEMPORARY_CPUFREQ_GOVERNOR=performance" "$fx/env.suspend"
}

@test "STORAGEDIR is made anew for each sleep: what the last one left is gone, a link there is not followed" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10st 0 'case $1 in suspend) ls -A "$STORAGEDIR" >"$PM_SYSROOT/seen"; echo x >"$STORAGEDIR/state:a"; mkdir -p "$STORAGEDIR/sub/dir"; : >"$STORAGEDIR/sub/dir/f";; resume) cat "$STORAGEDIR/state:a" >"$PM_SYSROOT/back";; esac'
	ps "$fx" deep
	assert_success
	[ "$(<"$fx/seen")" = parameters ]
	[ "$(<"$fx/back")" = x ]
	# The state is left for a look until the next sleep, which empties it.
	[ -f "$fx/run/pm-utils/pm-suspend/storage/state:a" ]
	repower "$fx"
	ps "$fx" deep
	assert_success
	[ "$(<"$fx/seen")" = parameters ]
	# A link in place of the folder: removed, never followed.
	mkdir -p "$BATS_TEST_TMPDIR/outside"
	: >"$BATS_TEST_TMPDIR/outside/keep"
	rm -rf "$fx/run/pm-utils/pm-suspend/storage"
	ln -s "$BATS_TEST_TMPDIR/outside" "$fx/run/pm-utils/pm-suspend/storage"
	repower "$fx"
	ps "$fx" deep
	assert_success
	[ -f "$BATS_TEST_TMPDIR/outside/keep" ]
	[ -d "$fx/run/pm-utils/pm-suspend/storage" ] && [ ! -L "$fx/run/pm-utils/pm-suspend/storage" ]
	# A folder on the way that others may write: no hook runs, no sleep.
	chmod 777 "$fx/run/pm-utils"
	repower "$fx"
	rm -f "$fx/hooks.log"
	ps "$fx" deep
	assert_failure 1
	[[ $stderr == *"cannot make the hooks' STORAGEDIR"*"/run/pm-utils"*"writable by group or others"* ]] || fail "$stderr"
	[ ! -e "$fx/hooks.log" ]
	[ "$(<"$fx/sys/power/state")" != mem ]
}

@test "pm-utils' inhibit, disablehook and parameters: the files a hook leaves in STORAGEDIR" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10par 0 'if [ "$1" = suspend ]; then printf "%s\n" --quirk-none --quirk-test >>"$STORAGEDIR/parameters"; echo x >"$STORAGEDIR/parameters.new"; fi; echo "cmd $PM_CMDLINE" >>"$PM_SYSROOT/hooks.log"'
	hook "$fx" /etc/pm/sleep.d 20off 0 'if [ "$1" = suspend ]; then echo 20off >"$STORAGEDIR/disable_hook:40x"; fi'
	hook "$fx" /etc/pm/sleep.d 30cmd 0 'echo "cmd $PM_CMDLINE" >>"$PM_SYSROOT/hooks.log"'
	hook "$fx" /etc/pm/sleep.d 40x
	ps "$fx" -J deep
	assert_success
	diff - <(hooklog "$fx") <<EOF
10par suspend suspend deep
cmd --sysroot $fx -J deep
20off suspend suspend deep
30cmd suspend suspend deep
cmd --sysroot $fx -J deep --quirk-none --quirk-test
30cmd resume suspend deep
cmd --sysroot $fx -J deep --quirk-none --quirk-test
20off resume suspend deep
10par resume suspend deep
cmd --sysroot $fx -J deep --quirk-none --quirk-test
EOF
	[ "$(jq -r '[.hooks[] | select(.path | endswith("40x")) | .result] | join(",")' <<<"$output")" = disabled,disabled ]
	grep -q "hook /etc/pm/sleep.d/40x suspend suspend: disabled by disablehook" "$fx/var/log/pm-suspend.log"
	# inhibit: the hooks after it do not run, the sleep is skipped, the
	# inhibiting hook and those before it come up.
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a
	hook "$fx" /etc/pm/sleep.d 20inh 0 'if [ "$1" = suspend ]; then echo "a backup is running" >"$STORAGEDIR/inhibit"; fi'
	hook "$fx" /etc/pm/sleep.d 30b
	ps "$fx" deep
	assert_failure 1
	[[ $stderr == *"the hook /etc/pm/sleep.d/20inh inhibited the sleep (a backup is running): the sleep was skipped"* ]] || fail "$stderr"
	[ "$(hooklog "$fx")" = $'10a suspend suspend deep\n20inh suspend suspend deep\n20inh resume suspend deep\n10a resume suspend deep' ]
	[ "$(<"$fx/sys/power/state")" != mem ]
}

@test "hook output and a line per hook go to /var/log/pm-suspend.log" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10talk 0 'echo "out of $1"; echo "err of $1" >&2'
	ps "$fx" deep
	assert_success
	[ -z "$output" ]
	log=$fx/var/log/pm-suspend.log
	grep -qx "out of suspend" "$log"
	grep -qx "err of resume" "$log"
	grep -Eq '^[0-9T:+-]+ pm-suspend\[[0-9]+\]: hook /etc/pm/sleep.d/10talk suspend suspend: success \(exit 0\) in [0-9.]+ s$' "$log"
	grep -Eq 'hook /etc/pm/sleep.d/10talk resume suspend: success \(exit 0\)' "$log"
	grep -q "deep: writing 'mem' to /sys/power/state" "$log"
}

@test "as root, a hook or folder that others could change is refused, not run" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10ok
	hook "$fx" /etc/pm/sleep.d 20world
	chmod o+w "$fx/etc/pm/sleep.d/20world"
	hook "$fx" /etc/pm/sleep.d 30group
	chmod g+w "$fx/etc/pm/sleep.d/30group"
	hook "$fx" /etc/pm/sleep.d 40nobody
	chown nobody "$fx/etc/pm/sleep.d/40nobody"
	ps "$fx" deep
	assert_success
	[ "$(hooklog "$fx")" = $'10ok suspend suspend deep\n10ok resume suspend deep' ]
	[[ $stderr == *"pm-suspend: refusing to run the hook /etc/pm/sleep.d/20world: it is not owned by root or is writable by group or others (mode 0757, uid 0)"* ]]
	[[ $stderr == *"refusing to run the hook /etc/pm/sleep.d/30group"* ]]
	[[ $stderr == *"refusing to run the hook /etc/pm/sleep.d/40nobody"*"uid 65534)"* ]]
	# A folder writable by others: none of its hooks run.
	sleepfx -v fx
	hook "$fx" /usr/lib/pm-utils/sleep.d 10lib
	chmod 777 "$fx/usr/lib/pm-utils/sleep.d"
	ps "$fx" deep
	assert_success
	[ -z "$(hooklog "$fx")" ]
	[[ $stderr == *"refusing to run the hook /usr/lib/pm-utils/sleep.d/10lib: its folder /usr/lib/pm-utils/sleep.d is not owned by root or is writable by group or others"* ]]
}

@test "dot files, *~ backups and folders are not hooks; no execute bit is 253, not executable" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d .hidden
	hook "$fx" /etc/pm/sleep.d 10edit~
	mkdir "$fx/etc/pm/sleep.d/20dir"
	hook "$fx" /etc/pm/sleep.d 30noexec
	chmod 644 "$fx/etc/pm/sleep.d/30noexec"
	hook "$fx" /etc/pm/sleep.d 40ok
	ps "$fx" -J deep
	assert_success
	[ "$(hooklog "$fx")" = $'40ok suspend suspend deep\n40ok resume suspend deep' ]
	[ "$(jq -r '[.hooks[] | select(.phase == "pre") | "\(.path)=\(.status)"] | join(" ")' <<<"$output")" = \
		"/etc/pm/sleep.d/30noexec=253 /etc/pm/sleep.d/40ok=0" ]
}

@test "a hook linked outside the system root is refused" {
	sleepfx -v fx
	out=$BATS_TEST_TMPDIR/outside
	printf '#!/bin/sh\necho outside >>"%s"\n' "$BATS_TEST_TMPDIR/ran" >"$out"
	chmod 755 "$out"
	ln -s "$out" "$fx/etc/pm/sleep.d/10out"
	ln -s ../../../../"$out" "$fx/etc/pm/sleep.d/11rel"
	ps "$fx" deep
	assert_success
	[ ! -e "$BATS_TEST_TMPDIR/ran" ]
	[[ $stderr == *"refusing to run the hook /etc/pm/sleep.d/10out"* ]]
	[[ $stderr == *"refusing to run the hook /etc/pm/sleep.d/11rel"* ]]
}

@test "HOOK_BLACKLIST from /etc/pm/config.d (never sourced) and pm-suspend.conf disables hooks" {
	sleepfx -v fx
	for h in 10a 20b 30c 40d; do hook "$fx" /etc/pm/sleep.d "$h"; done
	cat >"$fx/etc/pm/config.d/50local" <<EOF
# pm-utils shell configuration
HOOK_BLACKLIST="10a"
export HOOK_BLACKLIST="\$HOOK_BLACKLIST 20b"
SLEEP_MODULE=kernel
touch $BATS_TEST_TMPDIR/sourced
\$(touch $BATS_TEST_TMPDIR/sourced2)
EOF
	echo 'HOOK_BLACKLIST="30c"' >"$fx/etc/pm/pm-suspend.conf"
	ps "$fx" -J deep
	assert_success
	[ "$(hooklog "$fx")" = $'40d suspend suspend deep\n40d resume suspend deep' ]
	[ "$(jq -r '[.hooks[] | select(.phase == "pre") | .result] | join(",")' <<<"$output")" = "disabled,disabled,disabled,success" ]
	[ ! -e "$BATS_TEST_TMPDIR/sourced" ] && [ ! -e "$BATS_TEST_TMPDIR/sourced2" ]
	[ "${stderr_lines[0]}" = "pm-suspend: /etc/pm/config.d is shell configuration for pm-utils, never sourced here: only HOOK_BLACKLIST, SUSPEND_MODULES and TEMPORARY_CPUFREQ_GOVERNOR are used; ignored: SLEEP_MODULE (shell-code)" ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	grep -q "hook /etc/pm/sleep.d/10a suspend suspend: disabled by HOOK_BLACKLIST" "$fx/var/log/pm-suspend.log"
}

@test "--no-hooks runs none" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a
	ps "$fx" --no-hooks deep
	assert_success
	[ ! -e "$fx/hooks.log" ]
	[ "$(<"$fx/sys/power/state")" = mem ]
}

@test "systemd system-sleep hooks get SYSTEMD_SLEEP_ACTION (each leg of suspend-then-hibernate its own), not pm-utils' variables" {
	for m in deep:suspend hibernate:hibernate hybrid:hybrid-sleep; do
		sleepfx -v fx
		mkdir -p "$fx/etc/systemd/system-sleep"
		hook "$fx" /etc/systemd/system-sleep sd 0 'echo "$SYSTEMD_SLEEP_ACTION ${PM_FUNCTIONS-none} ${STORAGEDIR-none} ${NA-none}" >>"$PM_SYSROOT/hooks.log"'
		hook "$fx" /etc/pm/sleep.d 10pm 0 'echo "${SYSTEMD_SLEEP_ACTION-none}" >>"$PM_SYSROOT/hooks.log"'
		echo "SYSTEMD_SLEEP_HOOKS=yes" >"$fx/etc/pm/pm-suspend.conf"
		ps "$fx" "${m%%:*}"
		assert_success
		[ "$(grep -c "^${m#*:} none none none$" "$fx/hooks.log")" -eq 2 ] || fail "$m: $(hooklog "$fx")"
		[ "$(grep -c "^none$" "$fx/hooks.log")" -eq 2 ] || fail "$m: $(hooklog "$fx")"
	done
	sleepfx -v fx
	mkdir -p "$fx/usr/lib/systemd/system-sleep"
	hook "$fx" /usr/lib/systemd/system-sleep sd 0 'r=$PM_SYSROOT/sys/class/rtc/rtc0; if [ "$1/$SYSTEMD_SLEEP_ACTION" = post/suspend ]; then cat $r/wakealarm >$r/since_epoch; fi; echo "$SYSTEMD_SLEEP_ACTION" >>"$PM_SYSROOT/hooks.log"'
	printf 'SYSTEMD_SLEEP_HOOKS=yes\nHIBERNATE_DELAY=1h\n' >"$fx/etc/pm/pm-suspend.conf"
	ps "$fx" suspend-then-hibernate
	assert_success
	diff - <(hooklog "$fx") <<'EOF'
sd pre suspend-then-hibernate suspend
suspend
sd post suspend-then-hibernate suspend
suspend
sd pre suspend-then-hibernate hibernate
hibernate
sd post suspend-then-hibernate hibernate
hibernate
EOF
}

@test "systemd system-sleep hooks run with pre|post VERB when SYSTEMD_SLEEP_HOOKS=yes" {
	sleepfx -v fx
	mkdir -p "$fx/usr/lib/systemd/system-sleep"
	hook "$fx" /etc/pm/sleep.d 10pm
	hook "$fx" /usr/lib/systemd/system-sleep sd
	ps "$fx" deep
	assert_success
	[ "$(hooklog "$fx")" = $'10pm suspend suspend deep\n10pm resume suspend deep' ]
	sleepfx -v fx
	mkdir -p "$fx/usr/lib/systemd/system-sleep"
	hook "$fx" /etc/pm/sleep.d 10pm
	hook "$fx" /usr/lib/systemd/system-sleep sd
	echo "SYSTEMD_SLEEP_HOOKS=yes" >"$fx/etc/pm/pm-suspend.conf"
	ps "$fx" hibernate
	assert_success
	diff - <(hooklog "$fx") <<'EOF'
10pm hibernate hibernate hibernate
sd pre hibernate hibernate
sd post hibernate hibernate
10pm thaw hibernate hibernate
EOF
}

@test "pm-suspend.conf: unknown keys and bad values are exit 2 with FILE:LINE, nothing run" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a
	c=$fx/etc/pm/pm-suspend.conf
	while IFS='|' read -r text msg; do
		printf '# comment\n\n%s\n' "$text" >"$c"
		bad=$(tree_sum "$fx")
		ps "$fx" deep
		[ "$status" -eq 2 ] || fail "$text: $status"
		[ "${stderr_lines[0]}" = "pm-suspend: /etc/pm/pm-suspend.conf:3: $msg" ] || fail "$text: $stderr"
		[ "$(tree_sum "$fx")" = "$bad" ]
		[ ! -e "$fx/hooks.log" ]
	done <<'EOF'
SLEEP_MODE=deep|unknown key (known: HOOK_TIMEOUT, HIBERNATE_MODE, HIBERNATE_DELAY, SYSTEMD_SLEEP_HOOKS, RTC, HOOK_BLACKLIST, SUSPEND_MODULES, TEMPORARY_CPUFREQ_GOVERNOR, HIBERNATE_METHOD)
HOOK_TIMEOUT=soon|HOOK_TIMEOUT: not a duration above 0 (30, 500ms, 2min, 1h)
HOOK_TIMEOUT=0|HOOK_TIMEOUT: not a duration above 0 (30, 500ms, 2min, 1h)
HIBERNATE_DELAY=-5|HIBERNATE_DELAY: not a duration above 0 (30, 500ms, 2min, 1h)
HIBERNATE_MODE=suspend|HIBERNATE_MODE 'suspend': choose platform, shutdown or reboot
SYSTEMD_SLEEP_HOOKS=maybe|SYSTEMD_SLEEP_HOOKS 'maybe': yes or no
RTC=../rtc0|RTC '../rtc0': an RTC name such as rtc0
SUSPEND_MODULES=e1000e ../x|SUSPEND_MODULES: '../x' is not a module name
SUSPEND_MODULES=$(reboot)|SUSPEND_MODULES: '$(reboot)' is not a module name
TEMPORARY_CPUFREQ_GOVERNOR=a b|TEMPORARY_CPUFREQ_GOVERNOR 'a b': a governor name such as performance
EOF
	printf '[main]\nRTC=rtc0\n' >"$c"
	ps "$fx" deep
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-suspend: /etc/pm/pm-suspend.conf:2: a [section] header: pm-suspend.conf has KEY=value lines only" ]
	rm "$c"
	printf 'HIBERNATE_DELAY=500ms\n' >"$c"
	ps "$fx" -n suspend-then-hibernate
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-suspend: /etc/pm/pm-suspend.conf:1: HIBERNATE_DELAY: at least 1 s (the RTC counts seconds)" ]
	# A disk mode the kernel does not offer is exit 3.
	printf 'HIBERNATE_MODE=reboot\n' >"$c"
	echo "[platform] shutdown" >"$fx/sys/power/disk"
	ps "$fx" -n hibernate
	assert_failure 3
	[ "${stderr_lines[0]}" = "pm-suspend: hibernate: hibernation mode 'reboot' is not offered (disk: [platform] shutdown)" ]
	printf 'HIBERNATE_MODE=platform\n' >"$c"
	echo "[shutdown] reboot" >"$fx/sys/power/disk"
	ps "$fx" -n hibernate
	assert_failure 3
	[ "${stderr_lines[0]}" = "pm-suspend: HIBERNATE_MODE=platform is not offered (disk: [shutdown] reboot)" ]
	ps "$fx" --check hibernate
	assert_failure 3
	[ "${stderr_lines[0]}" = "pm-suspend: HIBERNATE_MODE=platform is not offered (disk: [shutdown] reboot)" ]
	ps "$fx" --check -q hibernate
	assert_failure 3
	[ -z "$stderr" ]
	# RTC=: the last line wins, --rtc over both.
	printf 'RTC=rtc5\nRTC=rtc0\n' >"$c"
	ps "$fx" -n --wake-after 60 deep
	assert_success
	ps "$fx" -n --rtc rtc3 --wake-after 60 deep
	assert_failure 3
	rm "$c"
	repower "$fx"
	# --config FILE is read instead, never prefixed; a missing one is exit 2.
	printf 'HIBERNATE_MODE=shutdown\n' >"$BATS_TEST_TMPDIR/my.conf"
	ps "$fx" --config "$BATS_TEST_TMPDIR/my.conf" -n hibernate
	assert_success
	assert_line "/sys/power/disk = shutdown"
	ps "$fx" --config "$BATS_TEST_TMPDIR/none.conf" -n deep
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-suspend: $BATS_TEST_TMPDIR/none.conf: No such file or directory" ]
}

@test "the lock: a second pm-suspend is exit 4 naming the holder; --wait waits" {
	sleepfx -v fx
	mkdir -p "$fx/run"
	hook "$fx" /etc/pm/sleep.d 10a
	echo "4242 pm-suspend" >"$fx/run/pm-suspend.lock"
	hold_lock "$fx/run/pm-suspend.lock"
	before=$(tree_sum "$fx")
	ps "$fx" deep
	assert_failure 4
	[ "${stderr_lines[0]}" = "pm-suspend: another sleep is in progress (4242 pm-suspend holds /run/pm-suspend.lock); --wait waits for it" ]
	ps "$fx" --wait=0.5 deep
	assert_failure 4
	[ "$(tree_sum "$fx")" = "$before" ]
	[ ! -e "$fx/hooks.log" ]
	release_lock_after 0.3
	ps "$fx" --wait deep
	assert_success
	wait "$lock_holder"
	[ -s "$fx/hooks.log" ]
}

@test "a wakeup event during preparation (wakeup_count refused): no sleep, resume hooks, restores, exit 1" {
	fault_so
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a
	state=$(<"$fx/sys/power/state")
	ms=$(<"$fx/sys/power/mem_sleep")
	run --separate-stderr env PM_FAULT_WRITE="*/sys/power/wakeup_count=EINVAL" LD_PRELOAD="$so" \
		"$bin/pm-suspend" --sysroot "$fx" deep
	assert_failure 1
	wc=$(<"$fx/sys/power/wakeup_count")
	[ "${stderr_lines[0]}" = "pm-suspend: wakeup event during preparation: the kernel refused the wakeup count $wc (EINVAL), so the sleep was skipped" ]
	[ "$(hooklog "$fx")" = $'10a suspend suspend deep\n10a resume suspend deep' ]
	[ "$(<"$fx/sys/power/state")" = "$state" ]
	# mem_sleep went to deep and back to the selected s2idle.
	[ "$(<"$fx/sys/power/mem_sleep")" = s2idle ] || [ "$ms" = "$(<"$fx/sys/power/mem_sleep")" ]
}

@test "the state write refused (EBUSY): the kernel's reason from suspend_stats, hooks resumed, exit 1" {
	fault_so
	sleepfx -v fx
	# The kernel counts the failure while the state write fails: a hook
	# plays that part on the plain files.
	hook "$fx" /etc/pm/sleep.d 10a 0 'if [ "$1" = suspend ]; then s=$PM_SYSROOT/sys/power/suspend_stats; echo 1 >$s/fail; echo 1 >$s/failed_suspend; echo 0000:00:14.0 >$s/last_failed_dev; echo -16 >$s/last_failed_errno; echo suspend >$s/last_failed_step; fi'
	run --separate-stderr env PM_FAULT_WRITE="*/sys/power/state=EBUSY" LD_PRELOAD="$so" \
		"$bin/pm-suspend" --sysroot "$fx" -J deep
	assert_failure 1
	[ "${stderr_lines[0]}" = "pm-suspend: cannot write 'mem' to /sys/power/state: Device or resource busy (EBUSY); device 0000:00:14.0 failed to suspend: -16 (EBUSY)" ]
	[ "$(hooklog "$fx")" = $'10a suspend suspend deep\n10a resume suspend deep' ]
	[ "$(<"$fx/sys/power/mem_sleep")" = s2idle ]
	[ "$(jq -c '.legs[0] | [.entered, .errno, .failure, .last_failed.dev, .last_failed.errno, .suspend_stats.fail, .suspend_stats.failed_suspend]' <<<"$output")" = \
		'[false,"EBUSY","device 0000:00:14.0 failed to suspend: -16 (EBUSY)","0000:00:14.0",-16,1,1]' ]
}

@test "a failed write at each step names file and errno, and restores mem_sleep, disk, pm_test and the alarm" {
	fault_so
	local -A want_sel was
	# The selections a run must leave (a plain file holds the word
	# written back) or the bytes it had, read once from a fresh copy.
	sleepfx -v ref
	for x in mem_sleep disk pm_test; do
		IFS= read -r was[$x] <"$ref/sys/power/$x" || true
		want_sel[$x]=$(sed -E 's/.*\[([^]]*)\].*/\1/' "$ref/sys/power/$x")
	done
	errnos=(EIO EINVAL EACCES EPERM ENODEV ENOSPC EAGAIN)
	steps=("mem_sleep:deep" "pm_test:deep" "wakealarm:deep" "wakeup_count:deep" "state:deep" "disk:hybrid" "state:hybrid")
	n=0 all=0
	for i in "${!steps[@]}"; do
		spec=${steps[i]}
		f=${spec%%:*} mode=${spec##*:}
		# pm_test runs do not sleep, so take no alarm; the others do.
		opts=(--wake-after 60)
		[ "$f" != pm_test ] || opts=(--test core)
		if [ "$mode" = deep ]; then want=$'10a suspend suspend deep\n10a resume suspend deep'
		else want=$'10a suspend suspend_hybrid hybrid\n10a resume suspend_hybrid hybrid'
		fi
		for j in "${!errnos[@]}"; do
			e=${errnos[j]}
			all=$((all + 1))
			sampled $((i + j)) 3 || continue
			sleepfx -v fx
			hook "$fx" /etc/pm/sleep.d 10a
			run --separate-stderr env PM_FAULT_WRITE="*/$f=$e" LD_PRELOAD="$so" \
				"$bin/pm-suspend" --sysroot "$fx" "${opts[@]}" "$mode"
			[ "$status" -eq 1 ] || fail "$f $e: exit $status: $stderr"
			[[ ${stderr_lines[0]} == *"/$f"*"($e)"* ]] ||
				[[ $f$e == wakeup_countEINVAL && ${stderr_lines[0]} == *"wakeup event during preparation"* ]] ||
				fail "$f $e: $stderr"
			[ "$(<"$fx/hooks.log")" = "$want" ] || fail "$f $e: hooks $(hooklog "$fx")"
			# The selections are back.
			for x in mem_sleep disk pm_test; do
				IFS= read -r got <"$fx/sys/power/$x" || true
				[ "$got" = "${want_sel[$x]}" ] || [ "$got" = "${was[$x]}" ] ||
					fail "$f $e: $x is '$got', want '${want_sel[$x]}'"
			done
			a=
			IFS= read -r a <"$fx/sys/class/rtc/rtc0/wakealarm" || true
			[ -z "$a" ] || [ "$a" = 0 ] || fail "$f $e: the alarm is left at $a"
			n=$((n + 1))
			rm -rf "$fx"
		done
	done
	echo "# $n of $all fault scenarios" >&3
	[ "$all" -eq 49 ]
}

@test "a value the kernel does not keep (read back otherwise) skips the sleep, puts back the earlier files, exit 1" {
	fault_so
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a
	# The kernel keeps s2idle whatever is written: played after the write.
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/mem_sleep" \
		PM_FAULT_AFTER_CMD='[ "$PM_FAULT_VALUE" != deep ] || echo s2idle >"$PM_FAULT_PATH"' \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$fx" --test core deep
	assert_failure 1
	[ "${stderr_lines[0]}" = "pm-suspend: cannot write 'deep' to /sys/power/mem_sleep: Input/output error (EIO); the kernel did not keep it: it reads 's2idle'" ] || fail "$stderr"
	[ "$(<"$fx/sys/power/pm_test")" = none ]
	[ "$(<"$fx/sys/power/mem_sleep")" = s2idle ]
	[ "$(<"$fx/sys/power/state")" = "$(cat "$(fixture hwp-laptop)/sys/power/state")" ]
	[ "$(hooklog "$fx")" = $'10a suspend suspend deep\n10a resume suspend deep' ]
}

@test "a value that cannot be restored after the sleep is named, exit 1" {
	fault_so
	sleepfx -v fx
	run --separate-stderr env PM_FAULT_WRITE="*/sys/power/mem_sleep=EIO@2" LD_PRELOAD="$so" \
		"$bin/pm-suspend" --sysroot "$fx" deep
	assert_failure 1
	[[ $stderr == *"pm-suspend: could not restore /sys/power/mem_sleep to 's2idle': cannot write 's2idle' to /sys/power/mem_sleep: Input/output error (EIO)"* ]]
	[ "$(<"$fx/sys/power/state")" = mem ]
}

@test "RTC: --wake-after sets since_epoch + N and clears it after; --wake-at @EPOCH and ISO 8601" {
	sleepfx -v fx
	now=$(<"$fx/sys/class/rtc/rtc0/since_epoch")
	hook "$fx" /etc/pm/sleep.d 10a 0 '[ "$1" = resume ] && cat "$PM_SYSROOT/sys/class/rtc/rtc0/wakealarm" >>"$PM_SYSROOT/hooks.log"'
	ps "$fx" -J --wake-after 10min deep
	assert_success
	[ "$(jq -r '.legs[0].alarm' <<<"$output")" = $((now + 600)) ]
	[ "$(sed -n 3p "$fx/hooks.log")" = $((now + 600)) ]
	[ "$(<"$fx/sys/class/rtc/rtc0/wakealarm")" = 0 ]
	repower "$fx"
	at=$(($(date +%s) + 3600))
	ps "$fx" -n --wake-at "@$at" deep
	assert_line "/sys/class/rtc/rtc0/wakealarm = $at"
	iso=$(date -u -d "@$at" +%Y-%m-%dT%H:%M:%SZ)
	ps "$fx" -n --wake-at "$iso" deep
	assert_line "/sys/class/rtc/rtc0/wakealarm = $at"
	iso=$(TZ=UTC-2 date -d "@$at" +%Y-%m-%dT%H:%M:%S+02:00)
	ps "$fx" -n --wake-at "$iso" deep
	assert_line "/sys/class/rtc/rtc0/wakealarm = $at"
	# Local time without an offset, in the caller's zone.
	loc=$(TZ=UTC+5 date -d "@$at" '+%Y-%m-%d %H:%M:%S')
	run --separate-stderr env TZ=UTC+5 "$bin/pm-suspend" --sysroot "$fx" -n --wake-at "$loc" deep
	assert_line "/sys/class/rtc/rtc0/wakealarm = $at"
	# An RTC in local time (/etc/adjtime LOCAL): the alarm is in its terms.
	printf '0.0 0 0.0\n0\nLOCAL\n' >"$fx/etc/adjtime"
	run --separate-stderr env TZ=UTC-3 "$bin/pm-suspend" --sysroot "$fx" -n --wake-at "@$at" deep
	assert_line "/sys/class/rtc/rtc0/wakealarm = $((at + 3 * 3600))"
}

@test "RTC: an alarm already set is exit 4 (someone else's), --force replaces it; wakeup disabled warns" {
	sleepfx -v fx
	now=$(<"$fx/sys/class/rtc/rtc0/since_epoch")
	echo $((now + 5000)) >"$fx/sys/class/rtc/rtc0/wakealarm"
	hook "$fx" /etc/pm/sleep.d 10a
	before=$(tree_sum "$fx")
	ps "$fx" --wake-after 60 deep
	assert_failure 4
	[ "${stderr_lines[0]}" = "pm-suspend: the RTC rtc0 already has an alarm set (at $((now + 5000)), RTC seconds): someone else's wake-up time; --force replaces it" ]
	[ "$(tree_sum "$fx")" = "$before" ]
	ps "$fx" -n --force --wake-after 60 deep
	assert_success
	[ "${stderr_lines[0]}" = "pm-suspend: replacing the RTC alarm set for $((now + 5000)) (--force)" ]
	assert_line "/sys/class/rtc/rtc0/wakealarm = 0"
	assert_line "/sys/class/rtc/rtc0/wakealarm = $((now + 60))"
	# An alarm in the past is no one's.
	echo $((now - 10)) >"$fx/sys/class/rtc/rtc0/wakealarm"
	ps "$fx" -n --wake-after 60 deep
	assert_success
	echo disabled >"$fx/sys/devices/platform/rtc_cmos/power/wakeup"
	ps "$fx" -n --wake-after 60 deep
	assert_success
	[ "${stderr_lines[0]}" = "pm-suspend: the RTC alarm may not wake the machine: /sys/class/rtc/rtc0/device/power/wakeup is disabled" ]
	ps "$fx" -n --rtc rtc7 --wake-after 60 deep
	assert_failure 3
	[ "${stderr_lines[0]}" = "pm-suspend: no RTC alarm to wake up with: /sys/class/rtc/rtc7/wakealarm: No such file or directory" ]
}

@test "bad wake times and durations are exit 2" {
	sleepfx -v fx
	for a in "--wake-after 0" "--wake-after -5" "--wake-after soon" "--wake-after 5days" "--wake-after 400d" \
		"--wake-at @0" "--wake-at @1" "--wake-at yesterday" "--wake-at 2026-13-01T00:00" "--wake-at 2030-01-01T25:00" \
		"--wake-at 2030-01-01" "--wake-at 2030-01-01T10:00+25:00" "--wake-at 2030-01-01T10:00Q" \
		"--hook-timeout 0" "--hook-timeout x" "--hibernate-delay 0" "--rtc ../rtc0" "--rtc rtc0/x" "--test bogus" \
		"--wake-after 60 --wake-at @9999999999" "--test core --diagnose" "-o $BATS_TEST_TMPDIR/r.json" "-F csv" "-c 0"; do
		# shellcheck disable=SC2086
		bad_input pm-suspend "$fx" $a deep
	done
	bad_input pm-suspend "$fx" -n -J deep
	[ "${stderr_lines[0]}" = "pm-suspend: --dry-run prints the writes and hooks, not a report: drop --json" ]
	bad_input pm-suspend "$fx" --wake-after 60 suspend-then-hibernate
	bad_input pm-suspend "$fx" --test core suspend-then-hibernate
}

@test "hibernation refused without a safe resume device (exit 3); --force goes on and says so" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a
	echo 0:0 >"$fx/sys/power/resume"
	before=$(tree_sum "$fx")
	for m in hibernate hybrid suspend-then-hibernate; do
		ps "$fx" "$m"
		assert_failure 3
		[ "${stderr_lines[0]}" = "pm-suspend: $m refused: no resume device: /sys/power/resume is 0:0, so the image could never be restored (set resume= on the kernel command line); hibernating now would lose the session (--force skips this check)" ] ||
			fail "$m: $stderr"
	done
	[ "$(tree_sum "$fx")" = "$before" ]
	ps "$fx" --force hibernate
	assert_success
	[[ ${stderr_lines[0]} == "pm-suspend: hibernating without the safety check (--force): no resume device"* ]]
	[ "$(<"$fx/sys/power/state")" = disk ]
}

@test "a mode the kernel does not offer is exit 3 naming what it offers, nothing run" {
	sleepfx -v fx vm-haltpoll
	hook "$fx" /etc/pm/sleep.d 10a
	before=$(tree_sum "$fx")
	ps "$fx" deep
	assert_failure 3
	[ "${stderr_lines[0]}" = "pm-suspend: deep: deep sleep (S3) is not offered (state: freeze; mem_sleep: none)" ]
	ps "$fx" hibernate
	assert_failure 3
	[ "$(tree_sum "$fx")" = "$before" ]
	ps "$fx" s2idle
	assert_success
	[ "$(<"$fx/sys/power/state")" = freeze ]
}

@test "--test LEVEL writes pm_test and restores none; a level not offered is exit 3" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a 0 'cat "$PM_SYSROOT/sys/power/pm_test" >>"$PM_SYSROOT/hooks.log"'
	ps "$fx" --test platform deep
	assert_success
	[ "$(<"$fx/sys/power/pm_test")" = none ]
	[ "$(<"$fx/sys/power/state")" = mem ]
	repower "$fx"
	echo "[none] freezer devices" >"$fx/sys/power/pm_test"
	ps "$fx" --test core deep
	assert_failure 3
	[ "${stderr_lines[0]}" = "pm-suspend: --test core is not offered (pm_test: [none] freezer devices)" ]
	rm "$fx/sys/power/pm_test"
	ps "$fx" --test devices deep
	assert_failure 3
	[ "${stderr_lines[0]}" = "pm-suspend: --test: /sys/power/pm_test is not offered (the kernel needs CONFIG_PM_DEBUG)" ]
}

@test "--diagnose walks the levels (three for s2idle) and names the first that fails" {
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a
	ps "$fx" -n --diagnose deep
	assert_success
	[ "$(grep -c '^/sys/power/pm_test = ' <<<"$output")" -eq 10 ]
	[ "$(grep '^/sys/power/pm_test = [a-z]*$' <<<"$output" | grep -v none | cut -d' ' -f3 | paste -sd' ')" = "freezer devices platform processors core" ]
	refute_line --partial "hook "
	ps "$fx" -n --diagnose s2idle
	[ "$(grep '^/sys/power/pm_test = ' <<<"$output" | grep -v none | cut -d' ' -f3 | paste -sd' ')" = "freezer devices platform" ]
	fault_so
	run --separate-stderr env PM_FAULT_WRITE="*/sys/power/state=EBUSY@3" LD_PRELOAD="$so" \
		"$bin/pm-suspend" --sysroot "$fx" --diagnose deep
	assert_failure 1
	[ "${stderr_lines[0]}" = "pm-suspend: pm_test freezer: passed" ]
	[ "${stderr_lines[1]}" = "pm-suspend: pm_test devices: passed" ]
	[[ ${stderr_lines[2]} == "pm-suspend: pm_test platform: failed: cannot write 'mem' to /sys/power/state: Device or resource busy (EBUSY)" ]]
	[ "$(<"$fx/sys/power/pm_test")" = none ]
	[ ! -e "$fx/hooks.log" ]
	# No level to run (s2idle stops at platform): exit 3, nothing touched.
	echo "[none] processors core" >"$fx/sys/power/pm_test"
	before=$(tree_sum "$fx")
	ps "$fx" -J --diagnose s2idle
	assert_failure 3
	[ "$stderr" = "pm-suspend: --diagnose: no pm_test level is offered for s2idle (pm_test: [none] processors core)" ] || fail "$stderr"
	[ -z "$output" ]
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "suspend-then-hibernate: hibernates after a wake by its alarm, stays up after any other wake" {
	sleepfx -v fx
	now=$(<"$fx/sys/class/rtc/rtc0/since_epoch")
	hook "$fx" /etc/pm/sleep.d 10a
	ps "$fx" -J --hibernate-delay 30min suspend-then-hibernate
	assert_success
	[ "$(jq -c '[.legs | length, .[0].alarm, .[0].alarm_woke]' <<<"$output")" = "[1,$((now + 1800)),false]" ]
	[ "$(hooklog "$fx")" = $'10a suspend suspend suspend\n10a resume suspend suspend' ]
	# The alarm fires: the RTC reads the alarm time on the way up.
	sleepfx -v fx
	hook "$fx" /etc/pm/sleep.d 10a 0 'r=$PM_SYSROOT/sys/class/rtc/rtc0; [ "$1" = resume ] && cat $r/wakealarm >$r/since_epoch'
	echo "HIBERNATE_DELAY=1h" >"$fx/etc/pm/pm-suspend.conf"
	ps "$fx" -J suspend-then-hibernate
	assert_success
	[ "$(jq -c '[.legs | length, .[0].alarm, .[0].alarm_woke, .[1].mode, .[1].entered]' <<<"$output")" = "[2,$((now + 3600)),true,\"hibernate\",true]" ]
	diff - <(hooklog "$fx") <<'EOF'
10a suspend suspend suspend
10a resume suspend suspend
10a hibernate hibernate hibernate
10a thaw hibernate hibernate
EOF
	[ "$(<"$fx/sys/power/state")" = disk ]
}

@test "the report: wake IRQ with its name, wakeup sources that moved, suspend_stats deltas" {
	sleepfx -v fx
	echo 123 >"$fx/sys/power/pm_wakeup_irq"
	srcs=("$fx"/sys/class/wakeup/*)
	[ -e "${srcs[0]}" ] || skip "no wakeup source in the fixture"
	src=${srcs[0]##*/}
	name=$(<"$fx/sys/class/wakeup/$src/name")
	hook "$fx" /etc/pm/sleep.d 10a 0 'if [ "$1" = resume ]; then d=$PM_SYSROOT/sys/class/wakeup/'"$src"'; echo $(($(cat $d/wakeup_count) + 2)) >$d/wakeup_count; s=$PM_SYSROOT/sys/power/suspend_stats; echo $(($(cat $s/success) + 1)) >$s/success; fi'
	ps "$fx" -J deep
	assert_success
	# The counts are read when the sleep returns, before the resume hooks:
	# this hook's bump is seen by the next cycle.
	repower "$fx"
	ps "$fx" -J -v deep
	assert_success
	[ "$(jq -c '.legs[0].wake | [.irq, .irq_name]' <<<"$output")" = '[123,"xhci_hcd"]' ]
	[ "$(jq -c '.legs[0].suspend_stats.success' <<<"$output")" = 1 ]
	[[ $stderr == *"woken by IRQ 123 (xhci_hcd)"* ]]
	[ "$(jq -r '.legs[0] | [.prepare_s, .kernel_s, .asleep_s, .resume_s] | map(type) | join(",")' <<<"$output")" = number,number,number,number ]
	[ "$(jq -r '.mode, .dry_run, .test' <<<"$output" | paste -sd,)" = "deep,false,null" ]
	: "$name"
}

@test "SIGTERM before the state write aborts: resume hooks, restores, exit 1, no sleep" {
	sleepfx -v fx
	state=$(<"$fx/sys/power/state")
	hook "$fx" /etc/pm/sleep.d 10term 0 '[ "$1" = suspend ] && kill -TERM $PPID'
	hook "$fx" /etc/pm/sleep.d 20later
	ps "$fx" deep
	assert_failure 1
	[ "${stderr_lines[0]}" = "pm-suspend: interrupted by SIGTERM before the sleep: nothing was entered" ]
	[ "$(hooklog "$fx")" = $'10term suspend suspend deep\n10term resume suspend deep' ]
	[ "$(<"$fx/sys/power/state")" = "$state" ]
}

@test "a user who is not root is told so, exit 1, nothing run" {
	d=$(nobody_bin)
	fx=$(nobody_copy hwp-laptop)
	mkdir -p "$fx/etc/pm/sleep.d"
	hook "$fx" /etc/pm/sleep.d 10a
	run --separate-stderr runuser -u nobody -- "$d/pm-suspend" --sysroot "$fx" deep
	rm -rf "$d"
	assert_failure 1
	[ "${stderr_lines[0]}" = "pm-suspend: root is needed to write /sys/power/state" ]
	[ ! -e "$fx/hooks.log" ]
	rm -rf "$fx"
}

@test "PM_TEST_GUARD=1 refuses the real root before any hook runs" {
	fault_so
	# Belt and braces: should the guard fail, the shim fails every write.
	run --separate-stderr env PM_FAULT_WRITE="/sys/*=EIO" LD_PRELOAD="$so" \
		"$bin/pm-suspend" --no-hooks deep
	[ "$status" -eq 2 ] || [ "$status" -eq 3 ] || fail "exit $status: $stderr"
	[ "$status" -eq 3 ] || [[ $stderr == *"PM_TEST_GUARD"* ]]
}

@test "when logind manages sleep, pm-suspend says it bypasses its inhibitors" {
	sleepfx -v fx
	mkdir -p "$fx/run/systemd/system" "$fx/run/systemd/seats"
	ps "$fx" -n hibernate
	assert_success
	[ "${stderr_lines[0]}" = "pm-suspend: systemd-logind manages sleep on this machine: pm-suspend bypasses its inhibitors (systemctl hibernate honours them)" ]
	ps "$fx" -q -n deep
	[ -z "$stderr" ]
}

@test "RTC: --wake-after counts from when the alarm is set, after the hooks; a --wake-at the hooks outlived skips the sleep" {
	sleepfx -v fx
	now=$(<"$fx/sys/class/rtc/rtc0/since_epoch")
	# A hook that takes 100 s of RTC time.
	hook "$fx" /etc/pm/sleep.d 10slow 0 '[ "$1" = suspend ] && echo '"$((now + 100))"' >"$PM_SYSROOT/sys/class/rtc/rtc0/since_epoch"'
	ps "$fx" -J --wake-after 60 deep
	assert_success
	[ "$(jq -r '.legs[0].alarm' <<<"$output")" = $((now + 160)) ]
	# An absolute time that passed while the hooks ran: no sleep, exit 1.
	repower "$fx"
	at=$(($(date +%s) + 3600))
	state=$(<"$fx/sys/power/state")
	hook "$fx" /etc/pm/sleep.d 10slow 0 '[ "$1" = suspend ] && echo '"$((at + 10))"' >"$PM_SYSROOT/sys/class/rtc/rtc0/since_epoch"'
	ps "$fx" --wake-at "@$at" deep
	assert_failure 1
	[ "${stderr_lines[0]}" = "pm-suspend: the wake-up time ($at, RTC seconds) passed before the alarm could be set (during the hooks and the sync): the sleep was skipped" ]
	[ "$(<"$fx/sys/power/state")" = "$state" ]
	[ "$(tail -1 "$fx/hooks.log")" = "10slow resume suspend deep" ]
}

# A tracefs folder as the kernel offers it, with someone's settings.
tracefs() {
	local t=$1/sys/kernel/tracing e
	mkdir -p "$t"
	echo 0 >"$t/tracing_on"
	echo function >"$t/current_tracer"
	echo '7 (expanded: 1408)' >"$t/buffer_size_kb"
	echo 'old trace' >"$t/trace"
	for e in suspend_resume device_pm_callback_start device_pm_callback_end; do
		mkdir -p "$t/events/power/$e"
		echo 0 >"$t/events/power/$e/enable"
	done
}

# ACPI FPDT's S3 records (drivers/acpi/acpi_fpdt.c) of an earlier sleep;
# FPDT_CMD is the firmware recording the next one.
fpdt() { # FX
	local f=$1/sys/firmware/acpi/fpdt
	mkdir -p "$f/resume" "$f/suspend"
	echo 2 >"$f/resume/resume_count"
	echo 300000000 >"$f/resume/resume_prev_ns"
	echo 300000000 >"$f/resume/resume_avg_ns"
	echo 1000000 >"$f/suspend/suspend_start_ns"
	echo 2000000 >"$f/suspend/suspend_end_ns"
	FPDT_CMD="echo 3 >$f/resume/resume_count; echo 250000000 >$f/resume/resume_prev_ns; echo 4000000 >$f/suspend/suspend_start_ns; echo 6500000 >$f/suspend/suspend_end_ns"
}

# The kernel under the state write: the tracing as it was then, and the
# recorded trace in the buffer.  Exported for `run env`.
kernel_traces() { # FX TRACE
	local t=$1/sys/kernel/tracing
	KT_CMD="cat $t/tracing_on $t/current_tracer $t/buffer_size_kb $t/events/power/*/enable >$1/during; cp $2 $t/trace"
}

@test "--timings: the trace of the sleep read and reported, every tracing file put back as found" {
	fault_so
	sleepfx -v fx
	tracefs "$fx"
	before=$(cd "$fx/sys/kernel/tracing" && grep -r . --exclude=trace | sort)
	kernel_traces "$fx" "$BATS_TEST_DIRNAME/../fixtures/traces/s3.trace"
	fpdt "$fx"
	# And a SIGTERM during the sleep: handled after the resume.
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/state" PM_FAULT_AFTER_CMD="$KT_CMD; $FPDT_CMD; kill -TERM \$PPID" \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$fx" --timings --budget 50ms deep
	assert_success
	[ "$stderr" = "pm-suspend: a signal arrived during the sleep: handled after the resume" ] || fail "$stderr"
	# During the sleep: on, nop, the buffer as it was, the three events on.
	[ "$(paste -sd' ' "$fx/during")" = "1 nop 7 (expanded: 1408) 1 1 1" ] || fail "$(<"$fx/during")"
	[ "$(cd "$fx/sys/kernel/tracing" && grep -r . --exclude=trace | sort)" = "$before" ] || fail "not put back"
	diff - <(printf '%s\n' "${lines[@]}") <<'OUT'
pm-suspend: deep: kernel suspend 57.790 ms, asleep 300.000 ms, resume 92.400 ms
pm-suspend: firmware (ACPI FPDT): suspend 2.500 ms, resume 250.000 ms (73 % of the resume, the kernel's with it)
pm-suspend: suspend phases: suspend_enter 21.170 ms sync_filesystems 8.651 ms freeze_processes 12.367 ms dpm_prepare 0.600 ms dpm_suspend 30.190 ms dpm_suspend_late 2.190 ms dpm_suspend_noirq 1.190 ms syscore_suspend 0.100 ms
pm-suspend: resume phases: syscore_resume 0.100 ms dpm_resume_noirq 1.200 ms dpm_resume 80.200 ms dpm_complete 0.200 ms resume_console 0.100 ms thaw_processes 10.000 ms
pm-suspend: slowest suspend callbacks:
  e1000e 0000:00:19.0 (dpm_suspend) 30.000 ms, parent pci0000:00
  i915 0000:00:02.0 (dpm_suspend_late) 2.000 ms, parent pci0000:00
  pcieport 0000:00:1c.0 (dpm_suspend_noirq) 1.000 ms, parent pci0000:00
  snd_hda_intel 0000:00:1b.0 (dpm_suspend) 0.180 ms, parent pci0000:00
  platform Fixed MDIO bus.0 (dpm_suspend) 0.010 ms, parent platform
pm-suspend: slowest resume callbacks:
  e1000e 0000:00:19.0 (dpm_resume) 80.000 ms, parent pci0000:00
  i915 0000:00:02.0 (dpm_resume) 40.000 ms, parent pci0000:00
  pcieport 0000:00:1c.0 (dpm_resume_noirq) 1.000 ms, parent pci0000:00
  e1000e 0000:00:19.0 (dpm_complete) 0.010 ms, parent pci0000:00
pm-suspend: resume 92.400 ms, over the budget of 50.000 ms by:
  e1000e 0000:00:19.0 (dpm_resume) 80.000 ms
OUT
}

@test "--timings -J: a failing callback named from the trace, the tracing put back after the refused sleep" {
	fault_so
	sleepfx -v fx
	tracefs "$fx"
	before=$(cd "$fx/sys/kernel/tracing" && grep -r . --exclude=trace | sort)
	kernel_traces "$fx" "$BATS_TEST_DIRNAME/../fuzz/seeds/trace/failing"
	# The kernel traces the failing callback, then refuses the state write.
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/wakeup_count" PM_FAULT_AFTER_CMD="$KT_CMD" \
		PM_FAULT_WRITE="*/sys/power/state=EBUSY" LD_PRELOAD="$so" \
		"$bin/pm-suspend" --sysroot "$fx" --timings -J deep
	assert_failure 1
	[ "$(cd "$fx/sys/kernel/tracing" && grep -r . --exclude=trace | sort)" = "$before" ] || fail "not put back"
	t=$(jq -c '.legs[0].timings' <<<"$output")
	[ "$(jq -c '[.source, .suspend_s, .failed[0].driver, .failed[0].device, .failed[0].phase, .failed[0].error, .trace.unparsed]' <<<"$t")" = \
		'["tracefs",null,"xhci_hcd","0000:00:14.0","dpm_suspend",-16,0]' ] || fail "$t"
	[ "$(jq -c '[.phases[] | [.name, .direction, .time_s]]' <<<"$t")" = \
		'[["dpm_suspend","suspend",0.0042],["dpm_resume","resume",0.0001]]' ] || fail "$t"
	# --diagnose names that callback with the level that failed (a new
	# tree: in a fixture, mem_sleep put back is the plain word s2idle).
	sleepfx -v fx
	tracefs "$fx"
	kernel_traces "$fx" "$BATS_TEST_DIRNAME/../fuzz/seeds/trace/failing"
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/wakeup_count" PM_FAULT_AFTER_CMD="$KT_CMD" \
		PM_FAULT_WRITE="*/sys/power/state=EBUSY" LD_PRELOAD="$so" \
		"$bin/pm-suspend" --sysroot "$fx" --timings --diagnose deep
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[ "${stderr_lines[0]}" = "pm-suspend: pm_test freezer: failed: cannot write 'mem' to /sys/power/state: Device or resource busy (EBUSY); xhci_hcd 0000:00:14.0 failed in dpm_suspend (suspend): -16 (EBUSY)" ] ||
		fail "$stderr"
	[ "$(cd "$fx/sys/kernel/tracing" && grep -r . --exclude=trace | sort)" = "$before" ] || fail "not put back"
}

@test "--timings without tracefs: pm_print_times on for the sleep, put back, and said; -F kv" {
	fault_so
	sleepfx -v fx
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/state" \
		PM_FAULT_AFTER_CMD="cat $fx/sys/power/pm_print_times >$fx/during" \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$fx" --timings deep
	assert_success
	[ "$(<"$fx/during")" = 1 ]
	[ "$(<"$fx/sys/power/pm_print_times")" = 0 ]
	[ "$output" = "pm-suspend: timings: no tracefs with the power events: the kernel logs each device's time (pm_print_times), no detail here" ]
	# The report as kv lines: the JSON's paths joined by _, a null empty;
	# FPDT's records not moved by this sleep: not its.
	repower "$fx"
	fpdt "$fx"
	ps "$fx" --timings -F kv deep
	assert_success
	assert_line "leg0_timings_source='pm_print_times'"
	assert_line "leg0_timings_resume_s=''"
	assert_line "leg0_timings_firmware_this_sleep='false'"
	assert_line "leg0_timings_firmware_resume_s='0.3'"
	assert_line "leg0_timings_firmware_resume_share=''"
	[ "$(<"$fx/sys/power/pm_print_times")" = 0 ]
}

@test "-J without --timings: traced where tracefs offers it; elsewhere the report as before, pm_print_times untouched" {
	fault_so
	sleepfx -v fx
	tracefs "$fx"
	before=$(cd "$fx/sys/kernel/tracing" && grep -r . --exclude=trace | sort)
	kernel_traces "$fx" "$BATS_TEST_DIRNAME/../fixtures/traces/s3.trace"
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/state" PM_FAULT_AFTER_CMD="$KT_CMD" \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$fx" -J deep
	assert_success
	[ "$(paste -sd' ' "$fx/during")" = "1 nop 7 (expanded: 1408) 1 1 1" ] || fail "$(<"$fx/during")"
	[ "$(cd "$fx/sys/kernel/tracing" && grep -r . --exclude=trace | sort)" = "$before" ] || fail "not put back"
	[ "$(jq -c '.legs[0].timings | [.source, .note, .resume_s, .slowest_resume[0].driver, .trace.unparsed]' <<<"$output")" = \
		'["tracefs",null,0.0924,"e1000e",0]' ] || fail "$output"
	# No tracefs: no timings, no pm_print_times, every key as before.
	rm -r "$fx/sys/kernel/tracing"
	repower "$fx"
	keys=$(jq -c '[paths | map(tostring) | join(".")]' <<<"$output")
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/state" \
		PM_FAULT_AFTER_CMD="cat $fx/sys/power/pm_print_times >$fx/during" \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$fx" -J deep
	assert_success
	[ "$(<"$fx/during")" = 0 ] || fail "pm_print_times written"
	[ "$(jq -c '.legs[0].timings' <<<"$output")" = null ] || fail "$output"
	[ "$(jq -c '[paths | map(tostring) | join(".") | select(startswith("legs.0.timings.") | not)]' <<<"$output")" = \
		"$(jq -c '[.[] | select(startswith("legs.0.timings.") | not)]' <<<"$keys")" ] || fail "keys differ"
}

# killed FX: pm-suspend --timings deep SIGKILLed in its sleep, the files
# as it left them checked, its journal there.
killed() {
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/state" PM_FAULT_AFTER_CMD="$KT_CMD; kill -KILL \$PPID" \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$1" --timings deep
	assert_failure 137
	[ "$(cat "$1/sys/power/mem_sleep")" = deep ]
	[ "$(cat "$1/sys/kernel/tracing/tracing_on")" = 1 ]
	grep -qx 'tool pm-suspend' "$1/run/pmtools/sleep-journal" || fail "no journal"
}

@test "SIGKILL in the sleep: pmctl recover, or the next pm-suspend, puts tracing and mem_sleep back from the sleep's journal" {
	fault_so
	sleepfx -v fx
	tracefs "$fx"
	cp -r "$fx/sys/kernel/tracing" "$BATS_TEST_TMPDIR/before"
	[ "$(<"$fx/sys/power/mem_sleep")" = "[s2idle] deep" ]
	kernel_traces "$fx" "$BATS_TEST_DIRNAME/../fixtures/traces/s3.trace"
	said="died mid-apply: restored the 6 files it had changed (/run/pmtools/sleep-journal)"
	killed "$fx"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" recover
	assert_success
	[[ $stderr == "pmctl: pm-suspend (pid "[0-9]*") $said" ]] || fail "$stderr"
	[ ! -e "$fx/run/pmtools/sleep-journal" ] || fail "journal left"
	[ "$(<"$fx/sys/power/mem_sleep")" = s2idle ]
	diff -r --exclude=trace "$BATS_TEST_TMPDIR/before" "$fx/sys/kernel/tracing" || fail "tracing not put back"
	# The next sleep, without tracing: the journal first, then its own.
	repower "$fx"
	killed "$fx"
	ps "$fx" deep
	assert_success
	[[ $stderr == "pm-suspend: pm-suspend (pid "[0-9]*") $said" ]] || fail "$stderr"
	[ ! -e "$fx/run/pmtools/sleep-journal" ] || fail "journal left"
	[ "$(<"$fx/sys/power/mem_sleep")" = s2idle ]
	diff -r --exclude=trace "$BATS_TEST_TMPDIR/before" "$fx/sys/kernel/tracing" || fail "tracing not put back"
	grep -q "died in its sleep: 6 files restored, 0 not" "$fx/var/log/pm-suspend.log" || fail "not logged"
}

# qemu-s3.trace: the trace of a real S3 cycle of tests/e2e's guest
# (Debian's 6.1 kernel), and qemu-s3.dmesg the kernel's own device times
# of that cycle (pm_debug_messages).
@test "--timings on a real S3 trace: every line parsed, each device phase within 10 % (or 2 ms) of the kernel's log" {
	fault_so
	sleepfx -v fx
	tracefs "$fx"
	tr=$BATS_TEST_DIRNAME/../fixtures/traces
	kernel_traces "$fx" "$tr/qemu-s3.trace"
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/state" PM_FAULT_AFTER_CMD="$KT_CMD" \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$fx" --timings -J deep
	assert_success
	t=$(jq -c '.legs[0].timings' <<<"$output")
	[ "$(jq -c '[.trace.lines, .trace.events, .trace.unparsed, .trace.unmatched, .failed]' <<<"$t")" = '[1074,1062,0,0,null]' ] || fail "$t"
	[ "$(jq -c '.slowest_resume[0] | [.driver, .device, .parent, .phase]' <<<"$t")" = \
		'["pci","0000:00:01.1","pci0000:00","dpm_resume_noirq"]' ] || fail "$t"
	n=0
	while IFS=: read -r what ms; do
		case $what in
		suspend) p=dpm_suspend ;; "late suspend") p=dpm_suspend_late ;;
		"noirq suspend") p=dpm_suspend_noirq ;; "noirq resume") p=dpm_resume_noirq ;;
		"early resume") p=dpm_resume_early ;; resume) p=dpm_resume ;; *) continue ;;
		esac
		got=$(jq --arg p "$p" '.phases[] | select(.name == $p) | .time_s * 1000' <<<"$t")
		awk -v g="$got" -v k="$ms" 'BEGIN { d = g - k; if (d < 0) d = -d; exit !(d <= 2 || d <= k / 10) }' ||
			fail "$p: $got ms in the trace, $ms ms in the kernel's log"
		n=$((n + 1))
	done < <(sed -n 's/.*PM: \(.*\) of devices complete after \([0-9.]*\) msecs/\1:\2/p' "$tr/qemu-s3.dmesg")
	[ "$n" -eq 6 ]
}

# --timeline draws the real S3 trace; headless Chromium renders it once.
@test "--timeline: the real S3 trace drawn, one bar per callback, names escaped, every bar painted" {
	fault_so
	sleepfx -v fx
	tracefs "$fx"
	hook "$fx" /etc/pm/sleep.d 10net
	tr=$BATS_TEST_TMPDIR/hostile.trace
	# A device name that is markup: shown, never read as markup.
	sed 's|rtc_cmos 00:04,|rtc_cmos 00:04</title><script>alert(1)</script>\&amp;"'"'"',|' \
		"$BATS_TEST_DIRNAME/../fixtures/traces/qemu-s3.trace" >"$tr"
	kernel_traces "$fx" "$tr"
	fpdt "$fx"
	page=$BATS_TEST_TMPDIR/cycle.html
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/state" PM_FAULT_AFTER_CMD="$KT_CMD; $FPDT_CMD" \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$fx" --timeline "$page" deep
	assert_success
	# --timeline is --timings: the report too.
	assert_line "pm-suspend: deep: kernel suspend 87.414 ms, asleep 1.771 ms, resume 81.451 ms"
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '.cycle.html.*')" ] || fail "temporary file left"
	! grep -q '<script' "$page" || fail "markup from the trace in the page"
	! grep -Eq '(src|href)=|url\(|<link|@import' "$page" || fail "the page reaches out"
	grep -q '>serial 00:03 (dpm_suspend) 0.835 ms</text>' "$page" || fail "the slowest is not labelled"
	grep -q "The firmware (ACPI FPDT): suspend 2.500 ms, resume 250.000 ms (75 % of the resume, the kernel&#39;s with it).</p>" "$page" ||
		fail "no firmware in the page"
	command -v chromium >/dev/null || skip "chromium is not installed (Debian package chromium): the page is not rendered"
	h=0
	while read -r x; do h=$((h + x)); done < <(grep -o '<svg [^>]*height="[0-9]*"' "$page" | sed 's/.*height="//; s/"//')
	HOME=$BATS_TEST_TMPDIR chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--force-color-profile=srgb --user-data-dir="$BATS_TEST_TMPDIR/chromium" \
		--window-size=1120,$((h + 300)) --screenshot="$BATS_TEST_TMPDIR/shot.png" "file://$page" 2>/dev/null ||
		fail "chromium could not render the page"
	run python3 "$BATS_TEST_DIRNAME/../tools/timeline-check.py" "$page" "$tr" "$BATS_TEST_TMPDIR/shot.png" \
		'#c0392b' '#1f77b4' '#2ca02c'
	assert_success
	diff - <(printf '%s\n' "${lines[@]:0:5}") <<'OUT'
wellformed
callbacks 512
narrow 0
devices 218
missing 0
OUT
	# Each colour: the pixels the page's bars paint, all on the screen.
	for l in "${lines[@]:5}"; do
		read -r _ c want got <<<"$l"
		[ "$want" -gt 1000 ] && [ "$got" = "$want" ] || fail "$c: $want pixels painted, $got on the screen"
	done
	[ "${#lines[@]}" -eq 8 ]
}
