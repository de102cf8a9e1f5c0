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
