# shellcheck shell=sh
# The hook folders of the pm-utils comparison, written below ROOT: the same
# names for pm-utils (in a private mount namespace) and for pm-suspend
# (--sysroot ROOT).  Each hook logs "NAME $1 $2" to ROOT/run/hooks.log
# (pm-utils runs with / as ROOT, its /run a private tmpfs).
# Usage: make_hooks ROOT [fail]
make_hooks() {
	_r=$1
	mkdir -p "$_r/etc/pm/sleep.d" "$_r/etc/pm/config.d" "$_r/etc/pm/power.d" \
		"$_r/usr/lib/pm-utils/sleep.d" "$_r/usr/lib/pm-utils/power.d" "$_r/run"
	_hook "$_r/etc/pm/sleep.d/10etc" 0
	_hook "$_r/etc/pm/sleep.d/30both" 0
	_hook "$_r/usr/lib/pm-utils/sleep.d/30both" 0 30both-lib
	_hook "$_r/etc/pm/sleep.d/50na" 254
	_hook "$_r/etc/pm/sleep.d/55noexec" 0
	chmod 644 "$_r/etc/pm/sleep.d/55noexec"
	_hook "$_r/usr/lib/pm-utils/sleep.d/00lib" 0
	_hook "$_r/usr/lib/pm-utils/sleep.d/Zupper" 0
	_hook "$_r/usr/lib/pm-utils/sleep.d/_under" 0
	_hook "$_r/usr/lib/pm-utils/sleep.d/a-lower" 0
	_hook "$_r/usr/lib/pm-utils/sleep.d/99backup~" 0
	_hook "$_r/usr/lib/pm-utils/sleep.d/.hidden" 0
	[ "${2:-}" != fail ] || _hook "$_r/etc/pm/sleep.d/45fail" 1
}

_hook() { # FILE STATUS [NAME]
	{
		echo '#!/bin/sh'
		echo "echo \"${3:-${1##*/}} \$1 \$2\" >>\"\${PM_SYSROOT:-}/run/hooks.log\""
		echo "exit $2"
	} >"$1"
	chmod 755 "$1"
}
