#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $status, $output come from helpers.bash and run
# Bash completion (scripts/completion/pmtools.bash): every option, command
# and verb that the tools' --help names (read from --help here, so that the
# two cannot drift apart), and the machine's choices read from fixture
# trees given with --sysroot.  Completion runs no program at all.
# tests/run: not under ASan: bash completion runs no program but --help

load helpers

comp_file=$top/scripts/completion/pmtools.bash

setup_file() {
	local m
	for m in hwp-laptop arm-biglittle vm-haltpoll amd-desktop; do
		fixture "$m" >/dev/null &
	done
	wait
	for m in hwp-laptop arm-biglittle vm-haltpoll amd-desktop; do
		[ -d "$(fixture "$m")/sys" ] || {
			echo "# fixture $m did not build" >&3
			return 1
		}
	done
}

setup() {
	load_libs
	# shellcheck source=/dev/null # linted on its own
	source "$comp_file"
	fixture -v hwp hwp-laptop
	fixture -v arm arm-biglittle
	fixture -v vm vm-haltpoll
}

# ------------------------------------------------------------ helpers

# comp_set WORD... LAST: the completion variables for the line WORD...
# LAST, as bash sets them when the cursor is after LAST (the raw text, quotes
# and all): COMP_LINE, COMP_POINT, and COMP_WORDS split at blanks and at =
# and : as bash splits them.  The tool is the first WORD that is not an
# assignment; its completion function goes to $fn.
comp_set() {
	local line="" i w q rest piece=""
	local -a words=()
	fn=""
	for ((i = 1; i < $#; i++)); do
		w=${!i}
		printf -v q '%q' "$w"
		line+="$q "
		if [ -z "$fn" ] && [[ $w != *=* ]]; then
			case ${w##*/} in
			pmctl) fn=_pmctl ;;
			pm-suspend | pm-hibernate | pm-suspend-hybrid | pm-is-supported) fn=_pm_suspend ;;
			opp-set) fn=_opp_set ;;
			cstate-stat) fn=_cstate_stat ;;
			pm-resume) fn=_pm_resume ;;
			esac
			tool=$w
		fi
	done
	line+=${!#}
	COMP_LINE=$line
	COMP_POINT=${#line}
	rest=$line
	while [ -n "$rest" ]; do
		case ${rest:0:1} in
		' ')
			[ -n "$piece" ] && words+=("$piece")
			piece=""
			;;
		'=' | ':')
			[ -n "$piece" ] && words+=("$piece")
			words+=("${rest:0:1}")
			piece=""
			;;
		*) piece+=${rest:0:1} ;;
		esac
		rest=${rest:1}
	done
	if [ -n "$piece" ]; then words+=("$piece"); else words+=(""); fi
	COMP_WORDS=("${words[@]}")
	COMP_CWORD=$((${#words[@]} - 1))
	COMPREPLY=()
}

# comp TOOL WORD... LAST: complete LAST after TOOL WORD... (see comp_set);
# the replies, sorted, one a line, in $got.
comp() {
	local fn tool
	comp_set "$@"
	call_comp "$fn" "$tool" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	untraced sorted got "${COMPREPLY[@]}"
}

# call_comp FUNCTION ARG...: call a completion function without bats'
# DEBUG trap, which runs on every command and makes the function's
# character-by-character parsing of the line a hundred times slower.  Not
# in a condition: a command that fails inside the function ends the test
# (errexit), as it would end a shell run with set -e.
call_comp() {
	untraced "$@"
}

# In what follows a WORD argument may hold several words, one a line
# ("$(...)" of a list), so that a name with a blank stays one word.

# sorted VAR WORD...: the words, empty ones left out, sorted and unique
# as LC_ALL=C sort -u makes them, one a line, into VAR.  A few dozen (a
# completion's replies) are sorted here: three processes a comparison
# were most of this file's time.
sorted() {
	local -n _sorted_out=$1
	local -a in=() s=()
	local all w k
	shift
	printf -v all '%s\n' "$@"
	IFS=$'\n' read -d '' -r -a in <<<"$all" || true
	if [ "${#in[@]}" -gt 64 ]; then
		_sorted_out=$(printf '%s\n' "${in[@]}" | LC_ALL=C sort -u)
		return
	fi
	for w in "${in[@]}"; do
		for ((k = 0; k < ${#s[@]}; k++)); do
			[[ ${s[k]} < "$w" ]] || break
		done
		[[ $k -lt ${#s[@]} && ${s[k]} == "$w" ]] && continue
		s=("${s[@]:0:k}" "$w" "${s[@]:k}")
	done
	printf -v _sorted_out '%s\n' "${s[@]}"
	_sorted_out=${_sorted_out%$'\n'}
}

# lines WORD...: the words sorted, one a line (what $got is compared with).
lines() {
	local l
	untraced sorted l "$@"
	printf '%s\n' "$l"
}

# expect WORD...: the replies are exactly these words.
expect() {
	local want
	untraced sorted want "$@"
	[ "$got" = "$want" ] || fail "$(printf 'replies:\n%s\nwant:\n%s' "$got" "$want")"
}

# offers WORD...: each word is among the replies.
offers() {
	local w all missing=""
	local -A have=()
	local -a want=()
	while IFS= read -r w; do have[x$w]=1; done <<<"$got"
	untraced sorted all "$@"
	IFS=$'\n' read -d '' -r -a want <<<"$all" || true
	for w in "${want[@]}"; do
		[ -n "${have[x$w]:-}" ] || missing+=" $w"
	done
	[ -z "$missing" ] || fail "not offered:$missing; replies: $(tr '\n' ' ' <<<"$got")"
}

# within FILE-OF-WORDS: every reply is one of those words.
within() {
	local extra
	extra=$(comm -23 <(printf '%s\n' "$got") <(LC_ALL=C sort -u "$1"))
	[ -z "$extra" ] || fail "offered but not in --help: $(tr '\n' ' ' <<<"$extra")"
}

# help_opts: the options (-x, --long) that the text on stdin names, as
# grep -oE '(^|[^[:alnum:]_-])--?[[:alpha:]][[:alnum:]-]*' finds them,
# sorted and unique: in the shell, where grep | sed | sort took three
# processes a call.
help_opts() {
	local line rest out re='(^|[^[:alnum:]_-])(--?[[:alpha:]][[:alnum:]-]*)'
	local -a found=()
	while IFS= read -r line || [ -n "$line" ]; do
		rest=$line
		while [[ $rest =~ $re ]]; do
			found+=("${BASH_REMATCH[2]}")
			rest=${rest#*"${BASH_REMATCH[0]}"}
		done
	done
	[ ${#found[@]} -gt 0 ] || return 0
	untraced sorted out "${found[@]}"
	printf '%s\n' "$out"
}

# section NAME: the lines of a --help from "NAME:" to the next blank line,
# the first without its "NAME:".
section() {
	local h="$1:" line on=
	while IFS= read -r line; do
		if [[ $line == "$h"* ]]; then
			on=1
			printf '%s\n' "${line#*:}"
		elif [ -n "$on" ]; then
			[ -n "$line" ] || return 0
			printf '%s\n' "$line"
		fi
	done
}

# words_of FILE...: the words of the files, [selected] brackets removed.
words_of() { cat "$@" 2>/dev/null | tr -d '[]' | tr -s '[:blank:]' '\n' | sed '/^$/d' | LC_ALL=C sort -u; }

# names DIR...: the names in the folders.
names() {
	local d
	for d; do (cd "$d" && printf '%s\n' *); done
}

# fmt_words SPEC: the words of "human, json or kv", one a line.
fmt_words() { sed -E 's/\([^)]*\)//g; s/ +$//; s/,? or |, /\n/g' <<<"$1"; }

# modes_of_help: the sleep modes of pm-suspend --help, one a line.
modes_of_help() {
	pm_suspend --help | section Modes | sed -E 's/\([^)]*\)//g' | tr -s ', ' '\n' | sed '/^$/d'
}

# A tree whose kernel offers every sleep mode.
all_modes_tree() {
	local d
	fresh -v d hwp-laptop
	echo 'freeze standby mem disk' >"$d/sys/power/state"
	echo 's2idle shallow [deep]' >"$d/sys/power/mem_sleep"
	echo '[platform] shutdown reboot suspend test_resume' >"$d/sys/power/disk"
	printf '%s\n' "$d"
}

# ------------------------------------------------------------ the file

@test "completion: the eight names are bound to their functions" {
	local n
	for n in pmctl pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported opp-set cstate-stat pm-resume; do
		run complete -p "$n"
		assert_success
	done
	[ "$(complete -p pmctl)" = "complete -F _pmctl pmctl" ]
	[ "$(complete -p pm-hibernate)" = "complete -F _pm_suspend pm-hibernate" ]
	[ "$(complete -p pm-is-supported)" = "complete -F _pm_suspend pm-is-supported" ]
	[ "$(complete -p opp-set)" = "complete -F _opp_set opp-set" ]
	[ "$(complete -p cstate-stat)" = "complete -F _cstate_stat cstate-stat" ]
	[ "$(complete -p pm-resume)" = "complete -F _pm_resume pm-resume" ]
}

# ------------------------------------------------------------ pmctl

@test "pmctl: '-' offers every option of --help's Options, '--' the long ones, nothing else" {
	local want
	want=$(pmctl --help | section Options | help_opts)
	[ -n "$want" ]
	comp pmctl -
	# shellcheck disable=SC2086 # one option a word
	offers "$want"
	within <(printf '%s\n' "$want")
	comp pmctl --
	expect "$(grep -- '^--' <<<"$want")"
}

@test "pmctl: the commands are those of --help's Commands" {
	local want
	want=$(pmctl --help | section Commands | awk 'NF { print $1 }' | LC_ALL=C sort -u)
	[ "$(wc -l <<<"$want")" -ge 16 ]
	comp pmctl ""
	# shellcheck disable=SC2086
	expect "$want"
	comp pmctl --sysroot "$hwp" -n d
	expect "$(grep '^d' <<<"$want")"
}

@test "pmctl: 'pmctl CMD -' offers every option of 'pmctl CMD --help', and only options of the help" {
	local cmd want allowed global
	allowed=$(mktemp "$BATS_TEST_TMPDIR/allowed.XXXXXX")
	local -a cmds
	# shellcheck disable=SC2046 # one command name a word
	sample_list cmds $(pmctl --help | section Commands | awk 'NF { print $1 }' | sort -u)
	global=$(pmctl --help | section Options | help_opts)
	for cmd in "${cmds[@]}"; do
		want=$(pmctl "$cmd" --help | help_opts)
		printf '%s\n' "$want" "$global" >"$allowed"
		comp pmctl "$cmd" -
		# shellcheck disable=SC2086
		[ -z "$want" ] || offers "$want" || fail "pmctl $cmd"
		within "$allowed" || fail "pmctl $cmd"
	done
}

@test "pmctl: the options on a --help Commands line are offered on that command line" {
	local line cmdtext opts w n=0
	local -a words
	while IFS= read -r line; do
		opts=$(help_opts <<<"$line")
		[ -n "$opts" ] || continue
		# "  freq set              --governor G": the words before the gap;
		# a placeholder (NAME, PATH...) becomes x, an alternative its first.
		cmdtext=$(sed -E 's/^ +//; s/  +.*//' <<<"$line")
		words=()
		for w in $cmdtext; do
			case $w in
			\[*) ;;
			*[A-Z]*) words+=(x) ;;
			*) words+=("${w%%|*}") ;;
			esac
		done
		comp pmctl "${words[@]}" -
		# shellcheck disable=SC2086
		offers "$opts" || fail "pmctl ${words[*]}"
		n=$((n + 1))
	done < <(pmctl --help | section Commands)
	[ "$n" -ge 4 ]
}

@test "pmctl: the verbs of each subcommand's usage lines" {
	local cmd want
	for cmd in $(pmctl --help | section Commands | awk 'NF { print $1 }' | sort -u); do
		# "pmctl [options] boost [show|on|off]" -> show on off
		want=$(pmctl "$cmd" --help | sed -nE "s/^(Usage:)? *pmctl \[options\] $cmd +([^ ]+).*/\2/p" |
			tr -d '[].' | tr '|' '\n' | grep -xE '[a-z]+' | LC_ALL=C sort -u || true)
		comp pmctl --sysroot "$hwp" "$cmd" ""
		case $cmd in
		device | profile) offers "$want" ;; # and the subsystems, paths, profiles
		*) expect "$want" || fail "pmctl $cmd" ;;
		esac
	done
	comp pmctl --sysroot "$hwp" idle ""
	expect show disable enable limit governor
	comp pmctl --sysroot "$hwp" cpu ""
	expect show online offline
}

@test "pmctl: -F offers the formats of --help (status also prom)" {
	local spec want
	spec=$(pmctl --help | grep -E '^ +-F, --format FMT' | sed -E 's/.*FMT +//')
	want=$(fmt_words "$spec")
	[ "$want" ] && [[ $spec == *"(status: also prom)"* ]]
	comp pmctl freq -F ""
	expect "$want"
	comp pmctl status --format ""
	expect "$want" prom
	comp pmctl --format=j
	expect json
	comp pmctl -Fk
	expect -Fkv
}

@test "pmctl: --governor after freq set: hwp-laptop's performance powersave" {
	comp pmctl --sysroot "$hwp" freq set --governor ""
	expect performance powersave
	expect "$(words_of "$hwp"/sys/devices/system/cpu/cpufreq/policy*/scaling_available_governors)"
	comp pmctl --sysroot "$hwp" freq set -c all --governor p
	expect performance powersave
}

@test "pmctl: arm-biglittle's governors differ; --governor=, --gov, before the command" {
	local want
	want=$(words_of "$arm"/sys/devices/system/cpu/cpufreq/policy*/scaling_available_governors)
	[ "$want" != "$(lines performance powersave)" ]
	comp pmctl --sysroot "$arm" freq set --governor ""
	expect "$want"
	offers schedutil userspace
	comp pmctl --sysroot "$arm" freq set --governor=s
	expect schedutil
	comp pmctl --sysroot "$arm" freq set --gov ""
	expect "$want"
	comp pmctl --sysroot "$arm" --governor ""
	expect "$want"
}

@test "pmctl: devfreq set: arm-biglittle's devices and each one's governors; none on hwp-laptop" {
	comp pmctl --sysroot "$arm" devfreq set ""
	expect dmc ff9a0000.gpu
	expect "$(names "$arm/sys/class/devfreq")"
	comp pmctl --sysroot "$arm" devfreq set dmc --governor ""
	expect "$(words_of "$arm/sys/class/devfreq/dmc/available_governors")"
	offers simple_ondemand
	comp pmctl --sysroot "$arm" devfreq set ff9a0000.gpu --governor=simple
	expect simple_ondemand
	comp pmctl --sysroot "$hwp" devfreq set ""
	expect
}

@test "pmctl: --epp offers energy_performance_available_preferences" {
	comp pmctl --sysroot "$hwp" freq set --epp ""
	expect "$(words_of "$hwp"/sys/devices/system/cpu/cpufreq/policy*/energy_performance_available_preferences)"
	offers balance_performance balance_power power
	comp pmctl --sysroot "$arm" freq set --epp ""
	expect
}

@test "pmctl: idle disable|enable: the state names, each once, enable also all" {
	local want
	want=$(cat "$hwp"/sys/devices/system/cpu/cpu*/cpuidle/state*/name | LC_ALL=C sort -u)
	comp pmctl --sysroot "$hwp" idle disable ""
	expect "$want"
	comp pmctl --sysroot "$hwp" idle disable C6 C1 ""
	expect "$(grep -vx -e C6 -e C1 <<<"$want")"
	comp pmctl --sysroot "$hwp" idle enable ""
	expect "$want" all
	comp pmctl --sysroot "$hwp" idle enable -c 0-3 C1
	expect C1 C1E C10
	comp pmctl --sysroot "$arm" idle disable ""
	expect "$(cat "$arm"/sys/devices/system/cpu/cpu*/cpuidle/state*/name | LC_ALL=C sort -u)"
	comp pmctl --sysroot "$hwp" idle limit ""
	expect
}

@test "pmctl: an idle state name with a blank (vm-haltpoll's 'haltpoll idle')" {
	comp pmctl --sysroot "$vm" idle disable ""
	expect POLL "haltpoll idle"
	comp pmctl --sysroot "$vm" idle disable 'haltpoll\ i'
	expect "haltpoll idle"
	comp pmctl --sysroot "$vm" idle disable "'haltpoll"
	expect "haltpoll idle"
	comp pmctl --sysroot "$vm" idle disable "haltpoll idle" ""
	expect POLL
}

@test "pmctl: idle governor offers the cpuidle governors of each machine" {
	comp pmctl --sysroot "$hwp" idle governor ""
	expect "$(words_of "$hwp/sys/devices/system/cpu/cpuidle/available_governors")"
	comp pmctl --sysroot "$vm" idle governor ""
	expect haltpoll ladder menu
	comp pmctl --sysroot "$arm" idle governor ""
	expect menu teo
	comp pmctl --sysroot "$vm" idle governor menu ""
	expect
}

@test "pmctl: profile offers platform_profile_choices but custom; none without a profile" {
	local d
	comp pmctl --sysroot "$hwp" profile ""
	expect "$(words_of "$hwp/sys/firmware/acpi/platform_profile_choices")"
	fresh -v d hwp-laptop
	echo 'low-power balanced performance custom' >"$d/sys/firmware/acpi/platform_profile_choices"
	comp pmctl --sysroot "$d" profile ""
	expect low-power balanced performance
	comp pmctl --sysroot "$arm" profile ""
	expect
	comp pmctl --sysroot "$hwp" profile balanced ""
	expect
}

@test "pmctl: supply set offers the batteries, --charge-behaviour their choices" {
	comp pmctl --sysroot "$hwp" supply ""
	expect set
	comp pmctl --sysroot "$hwp" supply set ""
	expect BAT0
	comp pmctl --sysroot "$hwp" supply set BAT0 --charge-behaviour ""
	expect "$(words_of "$hwp/sys/class/power_supply/BAT0/charge_behaviour")"
	comp pmctl --sysroot "$arm" supply set ""
	expect
}

@test "pmctl: cpu online offers the offline CPUs, cpu offline the online hot-pluggable ones" {
	local d
	fresh -v d hwp-laptop
	echo 0 >"$d/sys/devices/system/cpu/cpu3/online"
	echo 0 >"$d/sys/devices/system/cpu/cpu5/online"
	comp pmctl --sysroot "$d" cpu online ""
	expect 3 5
	comp pmctl --sysroot "$d" cpu offline ""
	expect 1 2 4 6 7
	comp pmctl --sysroot "$d" cpu offline 2 ""
	expect
}

@test "pmctl: device offers show, set, the subsystems and paths below the sysroot" {
	comp pmctl --sysroot "$hwp" device ""
	offers show set "$(names "$hwp/sys/bus" "$hwp/sys/class")" /sys/devices/
	comp pmctl --sysroot "$hwp" device set /sys/devices/pl
	expect /sys/devices/platform/
	comp pmctl --sysroot "$hwp" device set /sys/devices/platform/ ""
	expect /sys/devices/ /sys/class/ /sys/bus/
	comp pmctl --sysroot "$hwp" device show p
	expect "$(names "$hwp/sys/bus" "$hwp/sys/class" | grep '^p')"
	comp pmctl --sysroot "$hwp" device set /sys/devices/x --runtime ""
	expect auto on
	comp pmctl --sysroot "$hwp" device set /sys/devices/x --wakeup ""
	expect enabled disabled
}

@test "pmctl: the sysroot is --sysroot on the line, else \$PM_SYSROOT, else /" {
	local govs_arm govs_hwp
	govs_arm=$(words_of "$arm"/sys/devices/system/cpu/cpufreq/policy*/scaling_available_governors)
	govs_hwp=$(words_of "$hwp"/sys/devices/system/cpu/cpufreq/policy*/scaling_available_governors)
	PM_SYSROOT=$arm comp pmctl freq set --governor ""
	expect "$govs_arm"
	PM_SYSROOT=$arm comp pmctl --sysroot "$hwp" freq set --governor ""
	expect "$govs_hwp"
	PM_SYSROOT=$arm comp pmctl --sysroot="$hwp/" freq set --governor ""
	expect "$govs_hwp"
	# The last --sysroot wins, as in the tools; one after the cursor counts.
	comp pmctl --sysroot "$arm" --sysroot "$hwp" freq set --governor ""
	expect "$govs_hwp"
	COMP_LINE="pmctl freq set --governor  --sysroot $arm"
	COMP_POINT=26
	COMP_WORDS=(pmctl freq set --governor "" --sysroot "$arm")
	COMP_CWORD=4
	COMPREPLY=()
	call_comp _pmctl pmctl "" --governor
	[ "$(lines "${COMPREPLY[@]}")" = "$govs_arm" ]
	# PM_SYSROOT=DIR before the command, and the real root otherwise.
	comp PM_SYSROOT="$arm" pmctl freq set --governor ""
	expect "$govs_arm"
	comp pmctl --sysroot /nonexistent freq set --governor ""
	expect
}

@test "files after -o, --output, -f, --config and --save; folders after --sysroot" {
	local d=$BATS_TEST_TMPDIR/files
	mkdir -p "$d/sub.d"
	: >"$d/report.json"
	: >"$d/point.conf"
	cd "$d"
	comp pmctl -o r
	expect report.json
	comp pmctl freq --output=r
	expect report.json
	comp cstate-stat -or
	expect -oreport.json
	comp pm-suspend --config p
	expect point.conf
	comp opp-set -f p
	expect point.conf
	comp opp-set --save p
	expect point.conf
	comp opp-set -f ""
	expect point.conf report.json sub.d
	comp pmctl --sysroot ""
	expect sub.d
	comp opp-set --sysroot=s
	expect sub.d
}

@test "commands after 'pmctl latency US --' and 'cstate-stat --'" {
	local d=$BATS_TEST_TMPDIR/path
	mkdir -p "$d"
	printf '#!/bin/sh\n' >"$d/pmtools-test-cmd"
	chmod +x "$d/pmtools-test-cmd"
	PATH=$d:$PATH comp pmctl latency 10 -- pmtools-test
	expect pmtools-test-cmd
	PATH=$d:$PATH comp cstate-stat -i 1 -- pmtools-test
	expect pmtools-test-cmd
	comp pmctl latency 10 -
	expect --hold -n --dry-run -q --quiet -v --verbose -h --help --sysroot
	comp pmctl freq -- ""
	expect
}

# ------------------------------------------------------- pm-suspend

@test "pm-suspend: '-' offers every option of --help's Options, and only those" {
	local want
	want=$(pm_suspend --help | section Options | help_opts)
	[ "$(wc -l <<<"$want")" -ge 25 ]
	comp pm-suspend -
	expect "$want"
	comp pm-suspend deep --
	expect "$(grep -- '^--' <<<"$want")"
	comp pm-hibernate -
	expect "$want"
}

@test "pm-suspend: the modes each fixture offers (vm-haltpoll: only freeze, so s2idle)" {
	comp pm-suspend --sysroot "$hwp" ""
	expect suspend s2idle deep hibernate hybrid suspend-then-hibernate
	comp pm-suspend --sysroot "$arm" ""
	expect suspend s2idle deep
	comp pm-suspend --sysroot "$vm" ""
	expect s2idle
	[ "$(<"$vm/sys/power/state")" = freeze ]
	comp pm-suspend --sysroot "$vm" f
	expect freeze
	comp pm-suspend --sysroot "$hwp" s
	expect suspend s2idle suspend-then-hibernate
	comp pm-suspend --sysroot "$hwp" deep ""
	expect
	comp pm-suspend --sysroot "$hwp" -n --no-hooks ""
	offers deep
}

@test "pm-suspend: a kernel that offers everything gets --help's Modes, aliases for their prefix" {
	local d want
	d=$(all_modes_tree)
	want=$(modes_of_help)
	[ "$(wc -l <<<"$want")" -eq 7 ]
	comp pm-suspend --sysroot "$d" ""
	expect "$want"
	comp pm-suspend --sysroot "$d" sh
	expect shallow
	comp pm-suspend --sysroot "$d" fr
	expect freeze
	# The aliases are those that --help puts in parentheses.
	[ "$(pm_suspend --help | section Modes | grep -oE '\([a-z]+\)' | tr -d '()' | grep -vx default | LC_ALL=C sort)" = "$(lines freeze shallow)" ]
}

@test "pm-suspend: every mode that --check accepts on a fixture is offered" {
	local fx m modes n=0
	modes=$(modes_of_help)
	for fx in "$hwp" "$arm" "$vm" "$(all_modes_tree)"; do
		comp pm-suspend --sysroot "$fx" ""
		for m in $modes; do
			if pm_suspend --sysroot "$fx" -q --check "$m"; then
				offers "$m" || fail "$fx: $m"
				n=$((n + 1))
			fi
		done
	done
	[ "$n" -ge 4 ]
}

@test "pm-suspend: --test offers the pm_test levels, --rtc the RTCs, -F the --help formats" {
	local level
	comp pm-suspend --sysroot "$hwp" --test ""
	expect "$(words_of "$hwp/sys/power/pm_test" | grep -vx none)"
	for level in $got; do
		pm_suspend --help | grep -A1 -- '--test LEVEL' | grep -qw "$level"
	done
	comp pm-suspend --sysroot "$hwp" --test=f
	expect freezer
	comp pm-suspend --sysroot "$hwp" --rtc ""
	expect "$(names "$hwp/sys/class/rtc")"
	comp pm-suspend --sysroot "$hwp" -F ""
	expect human json kv
	pm_suspend --help | grep -E '^ +-F, --format FMT +human \(default\), json or kv \(--history: also prom\)$'
	# --history also writes prom, and takes no mode.
	comp pm-suspend --history -F ""
	expect human json kv prom
	comp pm-suspend --sysroot "$hwp" --history ""
	expect
}

@test "pm-hibernate and pm-suspend-hybrid take no mode; pm-is-supported its usage options" {
	local want
	comp pm-hibernate --sysroot "$hwp" ""
	expect
	comp pm-suspend-hybrid --sysroot "$hwp" ""
	expect
	want=$(pm_suspend --help | grep -E '^ +pm-is-supported ' | help_opts)
	[ "$want" = "$(lines --hibernate --suspend --suspend-hybrid)" ]
	comp pm-is-supported --
	offers "$want"
	within <(printf '%s\n' "$want"; pm_suspend --help | section Options | help_opts)
	comp pm-is-supported --sysroot "$hwp" ""
	expect
}

@test "pm-resume: '-' offers every option of its --help's Options, and only those" {
	local want
	ln -s "$bin/pm-suspend" "$BATS_TEST_TMPDIR/pm-resume"
	want=$("$BATS_TEST_TMPDIR/pm-resume" --help | section Options | help_opts)
	[ "$(wc -l <<<"$want")" -ge 10 ]
	comp pm-resume -
	expect "$want"
	comp pm-resume --offset ""
	expect
}

# ----------------------------------------------------------- opp-set

@test "opp-set: '-' offers every option of --help's Options, and only those" {
	local want
	want=$(opp_set --help | section Options | help_opts)
	[ "$(wc -l <<<"$want")" -ge 20 ]
	comp opp-set -
	expect "$want"
	comp opp-set --
	expect "$(grep -- '^--' <<<"$want")"
	comp opp-set -F ""
	expect "$(fmt_words "$(opp_set --help | grep -E '^ +-F, --format FMT' | sed -E 's/.*FMT +//')")"
}

@test "opp-set: point names from \$SYSROOT/etc/pm/opp.d and the installed examples" {
	local d want f n
	fresh -v d hwp-laptop
	mkdir -p "$d/etc/pm/opp.d"
	for n in office travel.v2 .hidden 'bad name' performance; do
		: >"$d/etc/pm/opp.d/$n.conf"
	done
	: >"$d/etc/pm/opp.d/README"
	want=$(lines office travel.v2 performance)
	for f in /usr/local/share/pmtools/opp.d/*.conf /usr/share/pmtools/opp.d/*.conf; do
		[ -f "$f" ] || continue
		n=${f##*/}
		n=${n%.conf}
		[[ $n == .* || $n == *[!A-Za-z0-9_.-]* ]] || want+=$'\n'$n
	done
	comp opp-set --sysroot "$d" ""
	expect "$want"
	comp opp-set --sysroot "$d" --show ""
	expect "$want"
	comp opp-set --sysroot "$d" --diff=o
	expect office
	comp opp-set --sysroot "$d" -n t
	expect travel.v2
	comp opp-set --sysroot "$d" office ""
	expect
	comp opp-set --sysroot "$d" -f x ""
	expect
	comp opp-set --sysroot "$d" --list ""
	expect
	# --device: the device paths below the sysroot, as pmctl device's.
	comp opp-set --sysroot "$d" --reapply --device /sys/devices/pl
	expect /sys/devices/platform/
}

@test "opp-set -s: every section.key of opp.conf(5) that the machine has" {
	local keys want d
	# .SS [section] ... .BI "key = " lines (not [opp], [match], whose -s
	# use is refused or ignored, nor [runtime_pm] and [sysfs], whose keys
	# are buses and paths).
	keys=$(awk '/^\.SH/ { s = "" } /^\.SS \[/ { s = $2; gsub(/[][]/, "", s) }
		s != "" && s !~ /^(opp|match|runtime_pm|sysfs)$/ && match($0, /^\.B[IR] "[a-z_]+ = /) {
			k = substr($0, RSTART + 5, RLENGTH - 5); sub(/ = $/, "", k); print s "." k }' \
		"$top/man/opp.conf.5" | LC_ALL=C sort -u)
	[ "$(wc -l <<<"$keys")" -ge 18 ]
	comp opp-set --sysroot "$hwp" -s ""
	offers "$(grep -vE '^(devfreq|amd_pstate|supply|sata|pcie|audio|sysctl|wifi)\.' <<<"$keys" | sed 's/$/=/')" runtime_pm. sysfs./sys/
	# [supply NAME]: the batteries with charge control (hwp-laptop's BAT0).
	want=$(grep '^supply\.' <<<"$keys" | sed 's/^supply\.//')
	[ "$(wc -l <<<"$want")" -eq 3 ]
	offers "$(for k in $want; do printf 'supply:BAT0.%s=\n' "$k"; done)"
	# The device tunables where the machine has them (tune-laptop).
	comp opp-set --sysroot "$(fixture tune-laptop)" -s ""
	offers "$(grep -E '^(sata|pcie|audio)\.' <<<"$keys" | sed 's/$/=/')" sysctl.kernel.nmi_watchdog= \
		sysctl.vm.dirty_writeback_centisecs= sysctl.vm.laptop_mode=
	# [wifi] where a wireless interface is (phy80211), with on and off.
	[[ $got != *wifi.* ]] || fail "tune-laptop has no wireless interface"
	fresh -v d tune-laptop
	mkdir -p "$d/sys/class/net/wlan0/phy80211"
	comp opp-set --sysroot "$d" -s ""
	offers "$(grep -E '^wifi\.' <<<"$keys" | sed 's/$/=/')"
	comp opp-set --sysroot "$d" -s wifi.power_save=
	expect on off
	comp opp-set --sysroot "$arm" --set ""
	want=$(grep '^devfreq\.' <<<"$keys" | sed 's/^devfreq\.//')
	offers "$(for k in $want; do printf 'devfreq:dmc.%s=\ndevfreq:ff9a0000.gpu.%s=\n' "$k" "$k"; done)"
	# What the machine lacks is not offered.
	if grep -E '^(intel_pstate|amd_pstate|platform)\.' <<<"$got"; then
		fail "arm-biglittle has no intel_pstate, amd_pstate or platform profile"
	fi
	comp opp-set --sysroot "$(fixture amd-desktop)" -s a
	expect amd_pstate.status=
	comp opp-set --sysroot "$hwp" -s runtime_pm.
	offers "$(names "$hwp/sys/bus" | sed 's/^/runtime_pm./; s/$/=/')" runtime_pm./sys/devices/
}

@test "opp-set -s: the values of the keys that have a list" {
	comp opp-set --sysroot "$arm" -s cpufreq.governor=
	expect "$(words_of "$arm"/sys/devices/system/cpu/cpufreq/policy*/scaling_available_governors)"
	comp opp-set --sysroot "$arm" -s cpufreq:4-5.governor=s
	expect schedutil
	comp opp-set --sysroot "$arm" -s devfreq:ff9a0000.gpu.governor=simple
	expect simple_ondemand
	comp opp-set --sysroot "$hwp" -s cpufreq.epp=balance_
	expect balance_performance balance_power
	comp opp-set --sysroot "$hwp" -s platform.profile=
	expect low-power balanced performance
	comp opp-set --sysroot "$hwp" -s cpuidle.disable=C6,C
	expect C6,C1 C6,C1E C6,C8 C6,C10
	comp opp-set --sysroot "$hwp" -s cpu.smt=
	expect on off
	comp opp-set --sysroot "$hwp" -s intel_pstate.status=
	expect active passive off
	comp opp-set --sysroot "$hwp" -s runtime_pm.pci=
	expect auto on
	comp opp-set --sysroot "$hwp" -s cpufreq.max=
	expect
}

# ------------------------------------------------------- cstate-stat

@test "cstate-stat: the options, formats and CPU words of --help" {
	local want spec
	want=$(cstate_stat --help | section Options | help_opts)
	[ "$(wc -l <<<"$want")" -ge 25 ]
	comp cstate-stat -
	expect "$want"
	comp cstate-stat --
	expect "$(grep -- '^--' <<<"$want")"
	spec=$(cstate_stat --help | grep -E '^ +-F, --format FMT' | sed -E 's/.*FMT +//')
	comp cstate-stat -F ""
	expect "$(fmt_words "$spec")"
	offers csv prom
	comp cstate-stat -c ""
	expect all online
	[[ $(cstate_stat --help | grep -E '^ +-c, --cpu LIST') == *"all or online"* ]]
	comp cstate-stat -i 1 -n ""
	expect
}

# ----------------------------------------------------------- safety

@test "no completion runs a program, and the tree is unchanged" {
	local stubs=$BATS_TEST_TMPDIR/stubs log=$BATS_TEST_TMPDIR/ran errs=$BATS_TEST_TMPDIR/errs
	local d before n=0 line last fn tool
	local -a w
	fresh -v d hwp-laptop
	mkdir -p "$d/etc/pm/opp.d" "$stubs"
	: >"$d/etc/pm/opp.d/office.conf"
	before=$(tree_sum "$d")
	# Every tool and the usual helpers, as stubs that only note the call.
	for n in pmctl pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported opp-set \
		cstate-stat cat ls find grep sed awk sort tr head cut tee dd cp mv rm touch mkdir \
		readlink basename dirname sh bash; do
		printf '#!/bin/sh\necho %s >>%s\n' "$n" "$log" >"$stubs/$n"
		chmod +x "$stubs/$n"
	done
	: >"$log"
	(
		PATH=$stubs
		hash -r
		for line in "pmctl " "pmctl -" "pmctl freq set --governor " "pmctl freq set --epp " \
			"pmctl idle disable " "pmctl idle enable " "pmctl idle governor " "pmctl profile " \
			"pmctl supply set " "pmctl supply set BAT0 --charge-behaviour " "pmctl cpu online " \
			"pmctl cpu offline " "pmctl device " "pmctl device set /sys/devices/" "pmctl status -F " \
			"pmctl devfreq set " "pmctl dump -" "pmctl -o " "pmctl --sysroot " "pmctl latency 1 -- " \
			"pm-suspend " "pm-suspend -" "pm-suspend --test " "pm-suspend --rtc " \
			"pm-is-supported -" "pm-hibernate -" "opp-set " "opp-set -s " "opp-set -s cpufreq.governor=" \
			"opp-set -s devfreq:x.governor=" "opp-set --show " "opp-set -f " "cstate-stat -" \
			"cstate-stat -F " "cstate-stat -- "; do
			n=$((n + 1))
			sampled "$n" 2 || continue
			read -ra w <<<"$line"
			last=""
			if [[ $line != *" " ]]; then
				last=${w[${#w[@]} - 1]}
				unset 'w[${#w[@]}-1]'
			fi
			# The words as typed, and with the fixture as the system root.
			comp_set "${w[@]}" "$last"
			call_comp "$fn" "$tool" "$last" ""
			comp_set "${w[0]}" --sysroot "$d" "${w[@]:1}" "$last"
			call_comp "$fn" "$tool" "$last" ""
		done
		[ "$n" -ge 30 ]
	) 2>"$errs"
	[ ! -s "$log" ] || fail "ran: $(tr '\n' ' ' <"$log")"
	[ ! -s "$errs" ] || fail "stderr: $(<"$errs")"
	[ "$(tree_sum "$d")" = "$before" ] || fail "the tree changed"
}

@test "the shell's glob options are put back" {
	local before after
	shopt -s failglob dotglob
	shopt -u nullglob
	set -f
	before=$(shopt -p nullglob failglob dotglob; echo "$-")
	comp pmctl --sysroot "$hwp" idle disable ""
	offers C6
	comp opp-set --sysroot "$hwp" --show ""
	after=$(shopt -p nullglob failglob dotglob; echo "$-")
	set +f
	shopt -u failglob dotglob
	[ "$before" = "$after" ]
}

@test "without COMP_LINE the words of COMP_WORDS are used" {
	unset COMP_LINE COMP_POINT
	COMP_WORDS=(pmctl --sysroot "$arm" freq set --governor s)
	COMP_CWORD=6
	COMPREPLY=()
	call_comp _pmctl pmctl s --governor
	[ "${COMPREPLY[*]}" = schedutil ]
	COMP_WORDS=(pm-suspend --sysroot "$vm" "")
	COMP_CWORD=3
	COMPREPLY=()
	call_comp _pm_suspend pm-suspend "" "$vm"
	[ "${COMPREPLY[*]}" = s2idle ]
}
