#!/usr/bin/env bats
# shellcheck disable=SC2016 # hook and command bodies are single-quoted on purpose: they expand later
# shellcheck disable=SC2154 # $bin, $top and bats' $status, $stderr, $stderr_lines come from helpers.bash and run
# Privilege and hygiene: as root, configuration others could change is
# refused; as nobody, one line says root is needed; at run time a hook or
# a command finds only fds 0, 1 and 2 open; a hook's environment exactly
# the documented one.  The source scans (no system() or popen(), every fd
# close-on-exec, signal handlers that only set a flag, the layering) are
# source.bats.

load helpers

setup() {
	load_libs
	t=$BATS_TEST_TMPDIR
}

as_root() {
	[ "$(id -u)" -eq 0 ] || skip "the checks are made as root only"
}

# A private hwp-laptop with the example points in /etc/pm/opp.d.
with_examples() {
	local fx
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d"
	cp "$top"/data/opp.d/*.conf "$fx/etc/pm/opp.d/"
	printf '%s\n' "$fx"
}

unsafe='refusing to read it as root: it is not owned by root or is writable by group or others'
unsafe_dir='refusing to read it as root: its folder is not owned by root or is writable by group or others without the sticky bit'

# refused_conf TOOL FX WANT ARG...: exit 2, one line WANT, nothing changed.
refused_conf() {
	local tool=$1 fx=$2 want=$3
	shift 3
	refused 2 "$tool" "$fx" "$@"
	[ "${#stderr_lines[@]}" -eq 1 ] || fail "more than one line: $stderr"
	[ "${stderr_lines[0]}" = "$want" ] || fail "message: ${stderr_lines[0]}; want: $want"
}

@test "as root, a point file or folder others could change is refused: exit 2, the file, its mode and owner, nothing written" {
	as_root
	fx=$(with_examples)
	d=$fx/etc/pm/opp.d
	chmod g+w "$d/performance.conf"
	refused_conf opp-set "$fx" "opp-set: /etc/pm/opp.d/performance.conf: $unsafe (mode 0664, uid 0)" performance
	chmod g-w,o+w "$d/performance.conf"
	refused_conf opp-set "$fx" "opp-set: /etc/pm/opp.d/performance.conf: $unsafe (mode 0646, uid 0)" performance
	chmod o-w "$d/performance.conf"
	chown nobody "$d/performance.conf"
	refused_conf opp-set "$fx" "opp-set: /etc/pm/opp.d/performance.conf: $unsafe (mode 0644, uid 65534)" performance
	# --diff and -n read it too; --list says why it cannot.
	refused_conf opp-set "$fx" "opp-set: /etc/pm/opp.d/performance.conf: $unsafe (mode 0644, uid 65534)" --diff performance
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list
	assert_success
	[[ $output == *"performance"*"$unsafe (mode 0644, uid 65534)"* ]] || fail "$output"
	# --current and --auto leave it out, and say so.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --current
	assert_success
	[[ $stderr == *"opp-set: /etc/pm/opp.d/performance.conf: $unsafe (mode 0644, uid 65534)"* ]] || fail "$stderr"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n --auto
	[[ $stderr == *"opp-set: /etc/pm/opp.d/performance.conf: $unsafe (mode 0644, uid 65534) (left out)"* ]] || fail "$stderr"
	chown root "$d/performance.conf"
	# An included file: the same, naming it.
	printf '[opp]\ninclude = performance\n' >"$d/top.conf"
	chmod 666 "$d/performance.conf"
	refused_conf opp-set "$fx" "opp-set: /etc/pm/opp.d/performance.conf: $unsafe (mode 0666, uid 0)" top
	chmod 644 "$d/performance.conf"
	# The folder: others may swap the file in it.
	chmod 777 "$d"
	refused_conf opp-set "$fx" "opp-set: /etc/pm/opp.d/performance.conf: $unsafe_dir (mode 0777, uid 0)" performance
	chmod 775 "$d"
	refused_conf opp-set "$fx" "opp-set: /etc/pm/opp.d/performance.conf: $unsafe_dir (mode 0775, uid 0)" performance
	chmod 755 "$d"
	chown nobody "$d"
	refused_conf opp-set "$fx" "opp-set: /etc/pm/opp.d/performance.conf: $unsafe_dir (mode 0755, uid 65534)" performance
	chown root "$d"
	# Sticky, as /tmp: others cannot swap root's files there.
	chmod 1777 "$d"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" performance
	assert_success
	[ "$(<"$fx/sys/devices/system/cpu/cpufreq/policy0/scaling_governor")" = performance ]
	chmod 755 "$d"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" powersave
	assert_success
}

@test "as root, -f FILE: root's file in /tmp, 0644 or mktemp's 0600, is read; nobody's or a writable one is refused" {
	as_root
	fresh -v fx hwp-laptop
	f=$(mktemp /tmp/pmtools-hyg.XXXXXX)
	d=$(mktemp -d /tmp/pmtools-hyg.XXXXXX)
	printf '[cpufreq]\ngovernor = performance\n' >"$f"
	cp "$f" "$d/p.conf"
	[ "$(stat -c %a "$f")" = 600 ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n -f "$f"
	assert_success
	chmod 644 "$f"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n -f "$f"
	assert_success
	chmod 664 "$f"
	refused_conf opp-set "$fx" "opp-set: $f: $unsafe (mode 0664, uid 0)" -f "$f"
	chmod 644 "$f"
	chown nobody "$f"
	refused_conf opp-set "$fx" "opp-set: $f: $unsafe (mode 0644, uid 65534)" -f "$f"
	chmod 777 "$d"
	refused_conf opp-set "$fx" "opp-set: $d/p.conf: $unsafe_dir (mode 0777, uid 0)" -f "$d/p.conf"
	rm -rf "$f" "$d"
	# What --save writes, -f reads.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --save "$t/saved.conf"
	assert_success
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -f "$t/saved.conf"
	assert_success
}

@test "as root, pm-suspend.conf, --config and /etc/pm/config.d files others could change are refused: exit 2, no hook run" {
	as_root
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/etc/pm/config.d" "$fx/var/log"
	printf '#!/bin/sh\necho "$1" >>"$PM_SYSROOT/hooks.log"\n' >"$fx/etc/pm/sleep.d/10a"
	chmod 755 "$fx/etc/pm/sleep.d/10a"
	c=$fx/etc/pm/pm-suspend.conf
	echo 'HOOK_TIMEOUT=10' >"$c"
	chmod 664 "$c"
	refused_conf pm-suspend "$fx" "pm-suspend: /etc/pm/pm-suspend.conf: $unsafe (mode 0664, uid 0)" deep
	chmod 644 "$c"
	chown nobody "$c"
	refused_conf pm-suspend "$fx" "pm-suspend: /etc/pm/pm-suspend.conf: $unsafe (mode 0644, uid 65534)" -n deep
	chown root "$c"
	chmod 757 "$fx/etc/pm"
	refused_conf pm-suspend "$fx" "pm-suspend: /etc/pm/pm-suspend.conf: $unsafe_dir (mode 0757, uid 0)" deep
	chmod 755 "$fx/etc/pm"
	echo 'HOOK_BLACKLIST="10a"' >"$fx/etc/pm/config.d/50x"
	chmod 666 "$fx/etc/pm/config.d/50x"
	refused_conf pm-suspend "$fx" "pm-suspend: /etc/pm/config.d/50x: $unsafe (mode 0666, uid 0)" deep
	rm "$fx/etc/pm/config.d/50x"
	cp "$c" "$t/my.conf"
	chmod 606 "$t/my.conf"
	refused_conf pm-suspend "$fx" "pm-suspend: $t/my.conf: $unsafe (mode 0606, uid 0)" --config "$t/my.conf" deep
	[ ! -e "$fx/hooks.log" ]
	chmod 600 "$t/my.conf"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" --config "$t/my.conf" deep
	assert_success
	[ "$(<"$fx/hooks.log")" = $'suspend\nresume' ]
}

@test "as another user nothing is refused for its owner or mode: the checks are root's" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	as_root
	d=$(nobody_copy hwp-laptop)
	nb=$(nobody_bin)
	mkdir -p "$d/etc/pm/opp.d"
	printf '[cpufreq]\ngovernor = performance\n' >"$d/etc/pm/opp.d/p.conf"
	echo 'HOOK_TIMEOUT=10' >"$d/etc/pm/pm-suspend.conf"
	chmod 666 "$d/etc/pm/opp.d/p.conf" "$d/etc/pm/pm-suspend.conf"
	chmod 777 "$d/etc/pm/opp.d"
	o=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$nb/opp-set" --sysroot "$d" -n p 2>&1) || true
	s=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$nb/pm-suspend" --sysroot "$d" -n s2idle 2>&1) || true
	rm -rf "$d" "$nb"
	[[ $o == "/sys/devices/system/cpu/cpufreq/policy0/scaling_governor = performance"* ]] || fail "opp-set: $o"
	[[ $s == *"/sys/power/state = mem"* ]] || fail "pm-suspend: $s"
}

@test "opp-set as nobody: one line, root is needed to write PATH, exit 1, nothing changed" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	d=$(nobody_copy hwp-laptop)
	nb=$(nobody_bin)
	mkdir -p "$d/etc/pm/opp.d"
	cp "$top"/data/opp.d/*.conf "$d/etc/pm/opp.d/"
	printf '[cpufreq]\nmax = 2GHz\n' >"$d/etc/pm/p.conf"
	before=$(tree_sum "$d")
	fails=
	p=/sys/devices/system/cpu/cpufreq/policy0
	while read -r want args; do
		# shellcheck disable=SC2086 # the words of each case
		out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups "$nb/opp-set" --sysroot "$d" $args 2>&1) && rc=0 || rc=$?
		[ "$rc" -eq 1 ] || fails+="$args: exit $rc; "
		[ "$out" = "opp-set: root is needed to write $want" ] || fails+="$args: $out; "
	done <<EOF
$p/scaling_governor performance
$p/scaling_governor --wait performance
$p/scaling_max_freq -f $d/etc/pm/p.conf
$p/scaling_governor -s cpufreq.governor=performance
EOF
	after=$(tree_sum "$d")
	rm -rf "$d" "$nb"
	[ -z "$fails" ] || fail "$fails"
	[ "$after" = "$before" ]
}


# A folder of hooks for pm-suspend on a fresh hwp-laptop.
sleepfx() {
	local fx
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/var/log" "$fx/usr/lib/systemd/system-sleep"
	printf '%s\n' "$fx"
}

# Run ARG... with only fds 0, 1 and 2 open.
std_only() {
	bash -c 'for f in /proc/$$/fd/*; do n=${f##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done; exec "$@"' std_only "$@"
}

@test "hooks get fds 0, 1 and 2 only, not what pm-suspend inherited nor its own" {
	fx=$(sleepfx)
	# ls lists /proc/self/fd through an fd of its own: 3 when 3 is free.
	printf '#!/bin/sh\nls /proc/self/fd | paste -sd" " >"$PM_SYSROOT/fds.$(basename "$0").$1"\n' >"$fx/etc/pm/sleep.d/10fds"
	cp "$fx/etc/pm/sleep.d/10fds" "$fx/usr/lib/systemd/system-sleep/sd"
	chmod 755 "$fx/etc/pm/sleep.d/10fds" "$fx/usr/lib/systemd/system-sleep/sd"
	echo SYSTEMD_SLEEP_HOOKS=yes >"$fx/etc/pm/pm-suspend.conf"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" s2idle 7>"$t/seven" 9</dev/null 12<>"$t/twelve"
	assert_success
	for f in 10fds.suspend 10fds.resume sd.pre sd.post; do
		[ "$(<"$fx/fds.$f")" = "0 1 2 3" ] || fail "$f: open fds $(<"$fx/fds.$f")"
	done
}

@test "a command run by cstate-stat or pmctl latency gets none of the tool's fds" {
	fresh -v fx hwp-laptop
	list='ls /proc/self/fd | paste -sd" " >"$0"'
	run --separate-stderr std_only "$bin/cstate-stat" --sysroot "$fx" -J -o "$t/report.json" -- sh -c "$list" "$t/cs"
	assert_success
	[ "$(<"$t/cs")" = "0 1 2 3" ] || fail "cstate-stat -- CMD: open fds $(<"$t/cs")"
	run --separate-stderr std_only "$bin/cstate-stat" --sysroot "$fx" --wakeups --power -- sh -c "$list" "$t/cs2"
	assert_success
	[ "$(<"$t/cs2")" = "0 1 2 3" ] || fail "cstate-stat --wakeups --power -- CMD: open fds $(<"$t/cs2")"
	run --separate-stderr std_only "$bin/pmctl" --sysroot "$fx" latency 10 -- sh -c "$list" "$t/lat"
	assert_success
	[ "$(<"$t/lat")" = "0 1 2 3" ] || fail "pmctl latency -- CMD: open fds $(<"$t/lat")"
}

@test "a hook's environment is exactly the documented one, whatever the caller's (LD_PRELOAD, BASH_ENV, ENV, IFS)" {
	fx=$(sleepfx)
	printf '#!/bin/sh\ntr "\\000" "\\n" </proc/$$/environ | sort >"$PM_SYSROOT/env.$1"\n' >"$fx/etc/pm/sleep.d/10env"
	# bash reads BASH_ENV before a script: it must not be there to read.
	printf 'touch %s/bash_env_ran\n' "$t" >"$t/evil.sh"
	printf '#!/bin/bash\n:\n' >"$fx/etc/pm/sleep.d/20bash"
	chmod 755 "$fx"/etc/pm/sleep.d/*
	run --separate-stderr env LD_PRELOAD=/nonexistent/x.so LD_LIBRARY_PATH=/nonexistent BASH_ENV="$t/evil.sh" \
		ENV="$t/evil.sh" IFS=/ PS4='$(touch x)' SHELLOPTS=xtrace CDPATH=/ TMPDIR=/nonexistent LANG=de_DE.UTF-8 \
		LC_ALL=de_DE.UTF-8 PM_DEBUG=1 HOME=/nonexistent "$bin/pm-suspend" --sysroot "$fx" s2idle
	assert_success
	functions=$("$bin/pm-suspend" --help | sed -n 's/.*PM_FUNCTIONS=//p')
	want="DX=252
LANG=C
NA=254
NX=253
PATH=$(cd "$bin" && pwd -P):/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
PM_CMDLINE=--sysroot $fx s2idle
PM_FUNCTIONS=$functions
PM_LOGFILE=$fx/var/log/pm-suspend.log
PM_MODE=s2idle
PM_SYSROOT=$fx
PM_UTILS_ETCDIR=$fx/etc/pm
PM_UTILS_LIBDIR=$fx/usr/lib/pm-utils
STORAGEDIR=$fx/run/pm-utils/pm-suspend/storage
SUSPEND_MODULES=
TEMPORARY_CPUFREQ_GOVERNOR=performance"
	for p in suspend resume; do
		[ "$(<"$fx/env.$p")" = "$want" ] || fail "$p: $(<"$fx/env.$p")"
	done
	[ ! -e "$t/bash_env_ran" ]
}

