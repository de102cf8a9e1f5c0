# shellcheck shell=sh
# Helpers of the e2e case scripts (POSIX sh, busybox), sourced as /e2e/lib.sh.
# Every check prints one line the host counts:
#   E2E ok CASE: WHAT
#   E2E not ok CASE: WHAT: WHY
#   E2E skip CASE: WHAT: WHY      (only when the kernel lacks the feature)
# and "E2E # ..." lines, which the host shows for a failed case.

E2E_CASE=${E2E_CASE:-unknown}
OUT=/tmp/e2e.out
ERR=/tmp/e2e.err
RC=0
HOOKLOG=/tmp/hooks.log

note() {
	printf 'E2E # %s\n' "$*"
}

pass() {
	printf 'E2E ok %s: %s\n' "$E2E_CASE" "$1"
}

# fail WHAT WHY
fail() {
	printf 'E2E not ok %s: %s: %s\n' "$E2E_CASE" "$1" "$2"
}

# skip WHAT WHY
skip() {
	printf 'E2E skip %s: %s: %s\n' "$E2E_CASE" "$1" "$2"
}

# Show a file as note lines, at most 40 of them.
show() {
	[ -s "$2" ] || return 0
	head -n 40 "$2" | while IFS= read -r line; do
		printf 'E2E #   %s| %s\n' "$1" "$line"
	done
}

# run CMD...: run a command with its output in $OUT and $ERR, status in $RC.
run() {
	note "\$ $*"
	read -r _t0 _ </proc/uptime
	"$@" >"$OUT" 2>"$ERR"
	RC=$?
	read -r _t1 _ </proc/uptime
	note "  exit $RC in $(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.2f", b - a }') s (at $_t1 s)"
	show out "$OUT"
	show err "$ERR"
}

# expect STATUS WHAT CMD...: run CMD, which must exit STATUS.
expect() {
	_want=$1
	_what=$2
	shift 2
	run "$@"
	if [ "$RC" -eq "$_want" ]; then
		pass "$_what"
		return 0
	fi
	fail "$_what" "exit $RC, expected $_want ($(head -c 300 "$ERR" | tr '\n' ' '))"
	return 1
}

# eq WHAT GOT WANTED
eq() {
	if [ "$2" = "$3" ]; then
		pass "$1"
		return 0
	fi
	fail "$1" "got '$2', expected '$3'"
	return 1
}

# grepf WHAT PATTERN FILE: an extended regular expression found in FILE.
grepf() {
	if grep -Eq -- "$2" "$3"; then
		pass "$1"
		return 0
	fi
	fail "$1" "no /$2/ in $(basename "$3"): $(head -c 300 "$3" | tr '\n' ' ')"
	return 1
}

# jqck WHAT FILE FILTER: the jq filter is true for the JSON in FILE.
jqck() {
	if jq -e "$3" "$2" >/dev/null 2>&1; then
		pass "$1"
		return 0
	fi
	fail "$1" "jq '$3' is not true for: $(jq -c . "$2" 2>&1 | head -c 600)"
	return 1
}

# jqall FILE: checks read from stdin as pairs of lines, WHAT then a jq
# FILTER, all run by one jq (which takes about a second to start under TCG).
jqall() {
	_prog=
	_n=0
	: >/tmp/jqall.what
	while IFS= read -r _what && IFS= read -r _filter; do
		printf '%s\n' "$_what" >>/tmp/jqall.what
		_prog="$_prog${_prog:+, }(try (($_filter) | if . == true then \"true\" else \"false: \" + tojson end) catch (\"error: \" + tostring))"
		_n=$((_n + 1))
	done
	jq -r "$_prog" "$1" >/tmp/jqall.out 2>/tmp/jqall.err
	_i=1
	while [ "$_i" -le "$_n" ]; do
		_what=$(sed -n "${_i}p" /tmp/jqall.what)
		_got=$(sed -n "${_i}p" /tmp/jqall.out)
		case "$_got" in
		true) pass "$_what" ;;
		"") fail "$_what" "jq: $(head -c 300 /tmp/jqall.err) on $(jq -c . "$1" 2>&1 | head -c 400)" ;;
		*) fail "$_what" "$(printf '%s' "$_got" | head -c 300) for $(jq -c . "$1" 2>&1 | head -c 400)" ;;
		esac
		_i=$((_i + 1))
	done
}

# The selection between brackets of a sysfs choice file ("s2idle [deep]").
selected() {
	sed -n 's/.*\[\([^]]*\)\].*/\1/p' "$1"
}

# How many kernel log lines match a fixed string.
dmesg_count() {
	dmesg | grep -cF -- "$1"
}

# Wait until the RTC's second ticks: an alarm of "now + N" then fires
# N s from here, not anything from N - 1 to N s.
rtc_tick() {
	_s0=$(cat /sys/class/rtc/rtc0/since_epoch)
	while [ "$(cat /sys/class/rtc/rtc0/since_epoch)" = "$_s0" ]; do
		:
	done
}

stat_of() {
	cat "/sys/power/suspend_stats/$1"
}

# Load the modules the host put in /lib/modules, in dependency order.
# wait_disk: the virtio disk /dev/vda, which appears a moment after
# virtio_blk is loaded, waited for up to 5 s; 1 and a failure without it.
wait_disk() {
	_i=0
	while [ ! -b /dev/vda ] && [ "$_i" -lt 50 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	[ -b /dev/vda ] && return 0
	fail "boot $E2E_BOOT: the virtio disk" "no /dev/vda after 5 s"
	return 1
}

load_modules() {
	[ -s /e2e/modules ] || return 0
	_bad=
	while read -r _m; do
		insmod "/lib/modules/$_m.ko" 2>"$ERR" || {
			_bad="$_bad $_m($(head -n 1 "$ERR"))"
		}
	done </e2e/modules
	if [ -n "$_bad" ]; then
		fail "insmod" "failed:$_bad"
		return 1
	fi
	note "modules loaded: $(tr '\n' ' ' </e2e/modules)"
	return 0
}

# Two sleep hooks that record their arguments: the order down and up
# tells whether pm-suspend runs them in name order and back in reverse.
install_hooks() {
	mkdir -p /etc/pm/sleep.d
	for _h in 10-rec-a 20-rec-b; do
		cat >"/etc/pm/sleep.d/$_h" <<EOF
#!/bin/sh
echo "$_h \$1 \$2" >>$HOOKLOG
EOF
		chmod 755 "/etc/pm/sleep.d/$_h"
	done
	: >"$HOOKLOG"
}

# hooks_are WHAT DOWN UP: the recording hooks ran down with the words DOWN
# ("suspend suspend") and up with UP, in order a b, then b a.
hooks_are() {
	_got=$(tr '\n' ',' <"$HOOKLOG")
	eq "$1" "$_got" "10-rec-a $2,20-rec-b $2,20-rec-b $3,10-rec-a $3,"
	: >"$HOOKLOG"
}

# counter_start: a shell loop that counts in /tmp/count five times a
# second, in the background (its pid in _counter); a second later, the
# count then in _c0.
counter_start() {
	(
		_n=0
		while :; do
			_n=$((_n + 1))
			echo "$_n" >/tmp/count
			sleep 0.2
		done
	) &
	_counter=$!
	sleep 1
	_c0=$(cat /tmp/count)
}

# counter_check WHAT: a second on, the loop of counter_start is alive and
# has counted on (after a resume, or a hibernation undone); stops it.
counter_check() {
	sleep 1
	_c1=$(cat /tmp/count)
	if kill -0 "$_counter" 2>/dev/null && [ "$_c1" -gt "$_c0" ]; then
		pass "$1 ($_c0 before, $_c1 after)"
	else
		fail "$1" "$_c0 before, $_c1 after"
	fi
	kill "$_counter"
}

# param NAME DEFAULT: the value of e2e.NAME=VALUE on the kernel command
# line, where tests/e2e/run puts a case's "#@ params:", else DEFAULT.
param() {
	_v=$2
	read -r _cmdline </proc/cmdline
	for _w in $_cmdline; do
		case "$_w" in
		"e2e.$1="*) _v=${_w#*=} ;;
		esac
	done
	printf '%s\n' "$_v"
}

# The tracefs folder, found as pm-suspend finds it: /sys/kernel/tracing,
# else debugfs' tracing (the guest mounts debugfs only).
tracefs_dir() {
	for _d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
		if [ -e "$_d/trace" ]; then
			printf '%s\n' "$_d"
			return 0
		fi
	done
	return 1
}

# trace_state FILE: the tracing files pm-suspend --timings writes and puts
# back (lib/trace.c: tracing_on, current_tracer, the three power events'
# enable files, and pm_print_times where tracefs is missing), with the
# files that show them (set_event, events/power/enable), each named and
# copied as it reads.  The trace file itself is left out: pm-suspend
# clears it by design, and nothing can put its old text back.
trace_state() {
	_d=$(tracefs_dir) || _d=/nonexistent
	for _f in "$_d/tracing_on" "$_d/current_tracer" "$_d/set_event" \
		"$_d/events/power/enable" \
		"$_d/events/power/suspend_resume/enable" \
		"$_d/events/power/device_pm_callback_start/enable" \
		"$_d/events/power/device_pm_callback_end/enable" \
		/sys/power/pm_print_times; do
		printf '== %s\n' "$_f"
		cat "$_f" 2>&1
	done >"$1"
}

# dmesg_phases: the kernel's device times of a sleep, from the kernel log
# on standard input, as "PHASE MS" lines,
# the phase named as in pm-suspend's --timings report, from the lines
# "PM: <what> of devices complete after <ms> msecs" that dpm_show_time()
# prints with /sys/power/pm_debug_messages = 1.  "start suspend" is
# dpm_suspend_start(), which is dpm_prepare and dpm_suspend together.
dmesg_phases() {
	sed -n 's/.*PM: \(.*\) of devices complete after \([0-9.]*\) msecs.*/\1:\2/p' |
		while IFS=: read -r _what _ms; do
			case $_what in
			"start suspend") _p=dpm_prepare+dpm_suspend ;;
			suspend) _p=dpm_suspend ;;
			"late suspend") _p=dpm_suspend_late ;;
			"noirq suspend") _p=dpm_suspend_noirq ;;
			"noirq resume") _p=dpm_resume_noirq ;;
			"early resume") _p=dpm_resume_early ;;
			resume) _p=dpm_resume ;;
			*) _p="unknown($_what)" ;;
			esac
			printf '%s %s\n' "$_p" "$_ms"
		done
}

# phase_checks WHAT PHASES: jqall's pairs (WHAT, filter) that hold each
# phase of the report's first leg present, over 0, and within a factor
# of 4 (plus 10 ms) of the kernel's time in PHASES (dmesg_phases' lines);
# A+B is the sum of two phases.  A failing filter gives both times.  The
# kernel times its log with ktime_get() and the trace with the trace
# clock; under TCG on a loaded host the two drift far apart (CI runs:
# 25.7 against 32.1 ms, 38.1 against 21.6), so only a missing phase, a
# wrong phase or a wrong unit fails.
phase_checks() {
	while read -r _p _ms; do
		_sel=$(printf '%s' "$_p" | sed 's/\([^+][^+]*\)/.name == "\1"/g; s/+/ or /g')
		_n=$(printf '%s' "$_p" | awk -F+ '{ print NF }')
		printf '%s\n' "$1: $_p took $_ms ms in the kernel's log; the report has it, over 0 and within a factor of 4"
		printf '%s\n' "[.legs[0].timings.phases[] | select($_sel) | .time_s * 1000] as \$g | (\$g | add // 0) as \$t | if (\$g | length) == $_n and \$t > 0 and \$t <= 4 * $_ms + 10 and 4 * \$t + 10 >= $_ms then true else {report_ms: \$g, kernel_ms: $_ms} end"
	done <"$2"
}

# bound_devices: the devices sysfs binds to a driver, as a JSON array of
# [device, driver] pairs (one ls: each fork counts under TCG).
bound_devices() {
	# shellcheck disable=SC2012 # sysfs names are plain; one ls reads all
	printf '[%s]\n' "$(ls -l /sys/bus/*/devices/*/driver 2>/dev/null |
		sed -n 's|.*/devices/\([^/]*\)/driver -> .*/\([^/]*\)$|["\1","\2"]|p' |
		tr '\n' , | sed 's/,$//')"
}

# timings_before: ready the tracing for a cycle with --timings.  It is set
# off the defaults first, so that putting it back is seen: tracing_on 0,
# one of the three power events already on, and another (cpu_frequency:
# no cpufreq driver here fires it) on beside them.  Then the state is
# recorded, and pm_debug_messages = 1 makes the kernel log its own
# device times.
timings_before() {
	TRACING=$(tracefs_dir)
	echo 0 >"$TRACING/tracing_on"
	echo 1 >"$TRACING/events/power/device_pm_callback_end/enable"
	echo 1 >"$TRACING/events/power/cpu_frequency/enable"
	trace_state /tmp/trace.before
	_dbg0=$(cat /sys/power/pm_debug_messages)
	echo 1 >/sys/power/pm_debug_messages
	_lines0=$(dmesg | wc -l)
}

# timings_after WHAT: right after the cycle: pm_debug_messages put
# back, the tracing state checked against the one before, the defaults
# put back; the kernel's device times of the cycle in /tmp/phases, and in
# /tmp/timings.jq jqall's checks of the report against them (and that it
# names real devices with their drivers), for the case to run with its
# own.
timings_after() {
	echo "$_dbg0" >/sys/power/pm_debug_messages
	trace_state /tmp/trace.after
	eq "$1: the tracing files are as before, byte for byte" \
		"$(cmp /tmp/trace.before /tmp/trace.after 2>&1)" "" ||
		{ show before /tmp/trace.before; show after /tmp/trace.after; }
	echo 1 >"$TRACING/tracing_on"
	echo 0 >"$TRACING/events/power/enable"
	dmesg | tail -n +"$((_lines0 + 1))" | dmesg_phases >/tmp/phases
	note "the kernel's device times (ms): $(tr '\n' ' ' </tmp/phases)"
	_bound=$(bound_devices)
	{
		cat <<EOF
$1: traced in tracefs, every line parsed and matched, no callback failed
.legs[0].timings | .source == "tracefs" and .trace.unparsed == 0 and .trace.unmatched == 0 and .failed == null
$1: the 10 slowest callbacks each way, each with a device and its driver (none only for a root device: parent none)
.legs[0].timings | [.slowest_suspend, .slowest_resume] | all(.[]; length == 10 and all(.[]; (.device | length) > 0 and ((.driver | type) == "string" and (.driver | length) > 0 or .driver == null and .parent == "none")))
$1: a slowest device is one the guest's sysfs binds to that driver
$_bound as \$b | [.legs[0].timings | (.slowest_suspend + .slowest_resume)[] | [.device, .driver] | select(. as \$x | \$b | index([\$x]))] | length > 0
$1: no slowest device has another driver than sysfs binds it to
$_bound as \$b | [.legs[0].timings | (.slowest_suspend + .slowest_resume)[] | [.device, .driver] | select(. as \$x | any(\$b[]; .[0] == \$x[0] and .[1] != \$x[1]))] | if length == 0 then true else . end
EOF
		phase_checks "$1" /tmp/phases
	} >/tmp/timings.jq
}
