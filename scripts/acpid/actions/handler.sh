#!/bin/sh
# pmtools acpid actions: what lid.sh, power.sh, ac.sh and battery.sh run.
#
#   handler.sh lid|power|ac|battery EVENT...
#
# EVENT is the event text as acpid passes it for %e: one argument
# ("button/lid LID close") or several words (an action= line with %e
# unquoted).  The text is data: it is split into words, compared and
# logged, never evaluated.  Installed in /etc/acpi/pmtools/ with the four
# actions; the rules are in /etc/acpi/events/pmtools-*.
#
#   lid      close: pm-suspend, unless an external display is connected or
#            LID_SUSPEND=no; open: nothing
#   power    POWER_ACTION: suspend (pm-suspend), hibernate (pm-suspend
#            hibernate), poweroff (shutdown -h now) or ignore
#   ac       plugged in or out: opp-set --auto (waiting up to 10 s for
#            another writer); its messages (the point it applied, or why
#            none holds) go to the log
#   battery  the batteries at or below CRITICAL_PCT and discharging:
#            pm-suspend hibernate when pm-suspend --check hibernate says
#            it can, else pm-suspend suspend
#
# The lid and the power button are left to systemd-logind when it runs
# (/run/systemd/seats exists) and its HandleLidSwitch* / HandlePowerKey
# is not "ignore" (logind.conf and logind.conf.d/*.conf): logind acts on
# them by default, and two handlers would sleep twice.
#
# Configuration: /etc/pm/pmtools-acpid.conf, KEY=value lines, read (never
# sourced):
#   LID_SUSPEND=yes|no                          default yes
#   POWER_ACTION=suspend|hibernate|poweroff|ignore   default suspend
#   CRITICAL_PCT=0..100                         default 5
# Unknown keys and bad values are logged and ignored.
#
# pm-suspend, opp-set and shutdown are found on PATH.  PM_SYSROOT, when
# set, is the root of every file read, and the tools get --sysroot.
# Messages go to syslog with logger -t pmtools-acpid (stderr without
# logger).  Exit status: 0 when nothing was to be done, else the status of
# the command run; 2 for a bad call.

set -u
IFS=' 	
'
export LC_ALL=C

tag=pmtools-acpid
root=${PM_SYSROOT:-}
conf=/etc/pm/pmtools-acpid.conf

LID_SUSPEND=yes
POWER_ACTION=suspend
CRITICAL_PCT=5

# log MESSAGE: one syslog line, control bytes shown as '?'.
log() {
	msg=$(printf '%s' "$1" | tr -c '[:print:]' '?')
	if command -v logger >/dev/null 2>&1; then
		logger -t "$tag" "$msg"
	else
		printf '%s: %s\n' "$tag" "$msg" >&2
	fi
}

# trim TEXT: sets $r to TEXT without leading and trailing blanks.
trim() {
	r=$1
	r=${r#"${r%%[![:space:]]*}"}
	r=${r%"${r##*[![:space:]]}"}
}

# read_line FILE: sets $r to the first line of FILE; false when unreadable.
read_line() {
	r=
	[ -f "$1" ] && [ -r "$1" ] || return 1
	IFS= read -r r 2>/dev/null <"$1" || [ -n "$r" ]
}

# read_num FILE: sets $r to the unsigned decimal number in FILE.
read_num() {
	read_line "$1" || return 1
	trim "$r"
	case $r in '' | *[!0-9]*) return 1 ;; esac
	[ "${#r}" -le 18 ] || return 1
	r=${r#"${r%%[!0]*}"}
	r=${r:-0}
}

# run TOOL ARG...: a tool from PATH, with --sysroot when PM_SYSROOT is set.
run() {
	t=$1
	shift
	if ! command -v "$t" >/dev/null 2>&1; then
		log "$t is not on PATH ($PATH)"
		return 127
	fi
	if [ -n "$root" ]; then
		"$t" --sysroot "$root" "$@"
	else
		"$t" "$@"
	fi
}

# act WHY TOOL ARG...: log, run, log a failure; returns the tool's status.
act() {
	why=$1
	shift
	log "$why: $*"
	rc=0
	run "$@" || rc=$?
	[ "$rc" -eq 0 ] || log "$1 exited $rc"
	return "$rc"
}

read_conf() {
	f=$root$conf
	[ -e "$f" ] || return 0
	if [ ! -f "$f" ] || [ ! -r "$f" ]; then
		log "$conf: cannot be read: the defaults apply"
		return 0
	fi
	n=0
	while IFS= read -r line || [ -n "$line" ]; do
		n=$((n + 1))
		trim "$line"
		line=$r
		case $line in '' | '#'*) continue ;; esac
		case $line in
		*=*) ;;
		*)
			log "$conf:$n: not KEY=value, ignored: $line"
			continue
			;;
		esac
		trim "${line%%=*}"
		key=$r
		trim "${line#*=}"
		val=$r
		case $val in
		\"*\" | \'*\') [ "${#val}" -lt 2 ] || {
			val=${val#?}
			val=${val%?}
		} ;;
		esac
		case $key in
		LID_SUSPEND)
			case $val in
			yes | no) LID_SUSPEND=$val ;;
			*) log "$conf:$n: LID_SUSPEND '$val': yes or no; ignored" ;;
			esac
			;;
		POWER_ACTION)
			case $val in
			suspend | hibernate | poweroff | ignore) POWER_ACTION=$val ;;
			*) log "$conf:$n: POWER_ACTION '$val': suspend, hibernate, poweroff or ignore; ignored" ;;
			esac
			;;
		CRITICAL_PCT)
			case $val in
			[0-9] | [0-9][0-9] | 100) CRITICAL_PCT=${val#0} CRITICAL_PCT=${CRITICAL_PCT:-0} ;;
			*) log "$conf:$n: CRITICAL_PCT '$val': a percentage 0..100; ignored" ;;
			esac
			;;
		*) log "$conf:$n: unknown key '$key' ignored (known: LID_SUSPEND, POWER_ACTION, CRITICAL_PCT)" ;;
		esac
	done <"$f"
}

# ---------------------------------------------------------------- machine

# A connected display that is not the panel (eDP, LVDS, DSI).
external_display() {
	for s in "$root"/sys/class/drm/card*-*/status; do
		read_line "$s" || continue
		[ "$r" = connected ] || continue
		c=${s%/status}
		c=${c##*/}
		c=${c#card*-}
		case $c in
		eDP* | LVDS* | DSI* | "Embedded DisplayPort"*) continue ;;
		esac
		display=$c
		return 0
	done
	return 1
}

# Any Mains supply online.
ac_online() {
	for d in "$root"/sys/class/power_supply/*; do
		if ! read_line "$d/type" || [ "$r" != Mains ]; then continue; fi
		read_num "$d/online" && [ "$r" -ge 1 ] && return 0
	done
	return 1
}

# ---------------------------------------------------------------- logind

dirs='etc run usr/local/lib usr/lib'

# The logind configuration files in the order logind reads them: the
# first logind.conf found, then the drop-ins by name, /etc hiding /run
# hiding /usr/local/lib hiding /usr/lib.
logind_files() {
	for d in $dirs; do
		if [ -f "$root/$d/systemd/logind.conf" ]; then
			printf '%s\n' "$root/$d/systemd/logind.conf"
			break
		fi
	done
	for d in $dirs; do
		for f in "$root/$d/systemd/logind.conf.d/"*.conf; do
			[ -f "$f" ] && printf '%s\n' "${f##*/}"
		done
	done | sort -u | while IFS= read -r name; do
		for d in $dirs; do
			if [ -f "$root/$d/systemd/logind.conf.d/$name" ]; then
				printf '%s\n' "$root/$d/systemd/logind.conf.d/$name"
				break
			fi
		done
	done
}

# logind_get KEY: sets $v to the last value of KEY in [Login], "" if none
# (an empty assignment puts the default back, as in logind).
logind_get() {
	v=
	files=$(logind_files)
	while IFS= read -r f; do
		if [ -z "$f" ] || [ ! -r "$f" ]; then continue; fi
		sect=
		while IFS= read -r line || [ -n "$line" ]; do
			trim "$line"
			case $r in
			'' | '#'* | ';'*) ;;
			'['*']') sect=$r ;;
			*=*)
				[ "$sect" = "[Login]" ] || continue
				l=$r
				trim "${l%%=*}"
				[ "$r" = "$1" ] || continue
				trim "${l#*=}"
				v=$r
				;;
			esac
		done <"$f"
	done <<EOF
$files
EOF
}

# logind_handles lid|power: true (and $v its action) when logind runs and
# acts on the key itself.
logind_handles() {
	[ -d "$root/run/systemd/seats" ] || return 1
	case $1 in
	lid)
		if external_display; then
			# logind counts the machine as docked.
			logind_get HandleLidSwitchDocked
			v=${v:-ignore}
			key=HandleLidSwitchDocked
		else
			logind_get HandleLidSwitch
			v=${v:-suspend}
			key=HandleLidSwitch
			if ac_online; then
				a=$v
				logind_get HandleLidSwitchExternalPower
				if [ -n "$v" ]; then key=HandleLidSwitchExternalPower; else v=$a; fi
			fi
		fi
		;;
	power)
		logind_get HandlePowerKey
		v=${v:-poweroff}
		key=HandlePowerKey
		;;
	esac
	[ "$v" != ignore ]
}

# ---------------------------------------------------------------- events

lid() {
	# acpi_listen: "button/lid LID close"; the old /proc/acpi/event form
	# has numbers there instead: ask the button.
	state=$ev_code
	case $state in
	open | close) ;;
	*)
		state=
		for s in "$root"/proc/acpi/button/lid/*/state; do
			read_line "$s" || continue
			case $r in
			*closed*) state=close ;;
			*open*) state=open ;;
			esac
			break
		done
		;;
	esac
	case $state in
	close) ;;
	open) return 0 ;;
	*)
		log "lid: cannot tell open from closed: $event"
		return 0
		;;
	esac
	if logind_handles lid; then
		log "lid closed: left to systemd-logind ($key=$v)"
		return 0
	fi
	if [ "$LID_SUSPEND" = no ]; then
		log "lid closed: LID_SUSPEND=no in $conf"
		return 0
	fi
	if external_display; then
		log "lid closed: not suspending, an external display is connected ($display)"
		return 0
	fi
	act "lid closed" pm-suspend
}

power() {
	if logind_handles power; then
		log "power button: left to systemd-logind ($key=$v)"
		return 0
	fi
	case $POWER_ACTION in
	suspend) act "power button" pm-suspend ;;
	hibernate) act "power button" pm-suspend hibernate ;;
	poweroff)
		if ! sd=$(command -v shutdown); then
			log "power button: shutdown is not on PATH ($PATH)"
			return 127
		fi
		if [ "${PM_TEST_GUARD:-0}" != 0 ]; then
			case $sd in
			/bin/* | /sbin/* | /usr/bin/* | /usr/sbin/* | /usr/local/bin/* | /usr/local/sbin/* | /lib/* | /usr/lib/*)
				log "power button: PM_TEST_GUARD is set: refusing to run $sd"
				return 2
				;;
			esac
		fi
		log "power button: shutdown -h now"
		rc=0
		"$sd" -h now || rc=$?
		[ "$rc" -eq 0 ] || log "shutdown exited $rc"
		return "$rc"
		;;
	ignore) log "power button: POWER_ACTION=ignore" ;;
	esac
}

ac() {
	case $ev_value in
	*1) what="AC plugged in" ;;
	*0) what="AC unplugged" ;;
	*) what="AC adapter event" ;;
	esac
	what="$what ($ev_device)"
	rc=0
	log "$what: opp-set --auto --wait=10"
	# Events come in bursts (unplugged, then the battery's status): wait
	# for a run that holds the writers' lock rather than be exit 4, since
	# it may have read the supply before this event changed it.
	out=$(run opp-set --auto --wait=10 2>&1 >/dev/null) || rc=$?
	printf '%s\n' "$out" | while IFS= read -r line; do
		[ -z "$line" ] || log "$line"
	done
	case $rc in
	0) ;;
	3) log "$what: no operating point holds now: the machine stays at the point it had (a point whose [match] has only a priority is the default)" ;;
	*) log "opp-set exited $rc" ;;
	esac
	return "$rc"
}

battery() {
	nb=0 dis=0 chg=0 eok=1 esum=0 efull=0 psum=0 pct=0 names=
	for d in "$root"/sys/class/power_supply/*; do
		if ! read_line "$d/type" || [ "$r" != Battery ]; then continue; fi
		if read_num "$d/present" && [ "$r" -eq 0 ]; then continue; fi
		read_line "$d/status" || r=
		case $r in
		Discharging) dis=1 ;;
		Charging) chg=1 ;;
		esac
		if read_num "$d/energy_now" && en=$r && read_num "$d/energy_full" && [ "$r" -gt 0 ]; then
			esum=$((esum + en)) efull=$((efull + r))
			p=$((en * 100 / r))
		else
			eok=0
			p=
			if read_num "$d/charge_now" && cn=$r && read_num "$d/charge_full" && [ "$r" -gt 0 ]; then
				p=$((cn * 100 / r))
			fi
		fi
		if read_num "$d/capacity" && [ "$r" -le 100 ]; then p=$r; fi
		[ -n "$p" ] || continue
		nb=$((nb + 1)) psum=$((psum + p)) pct=$p
		names="$names ${d##*/}"
	done
	if [ "$nb" -eq 0 ]; then
		log "battery event: no battery with a charge level: $event"
		return 0
	fi
	# One battery: its capacity.  Several: their combined energy, or else
	# the mean of their levels.
	if [ "$nb" -eq 1 ]; then
		low=$((pct <= CRITICAL_PCT))
	elif [ "$eok" -eq 1 ]; then
		pct=$((esum * 100 / efull))
		low=$((esum * 100 <= CRITICAL_PCT * efull))
	else
		pct=$((psum / nb))
		low=$((psum <= CRITICAL_PCT * nb))
	fi
	if [ "$low" -eq 0 ] || [ "$dis" -eq 0 ] || [ "$chg" -eq 1 ]; then
		return 0
	fi
	why="battery critical (${names# }: $pct% <= $CRITICAL_PCT%, discharging)"
	if ! command -v pm-suspend >/dev/null 2>&1; then
		log "$why: pm-suspend is not on PATH ($PATH)"
		return 127
	fi
	rc=0
	reason=$(run pm-suspend --check hibernate 2>&1 >/dev/null) || rc=$?
	if [ "$rc" -ne 0 ]; then
		log "$why: no hibernation here (${reason:-pm-suspend --check exited $rc})"
		act "$why" pm-suspend suspend
		return
	fi
	rc=0
	act "$why" pm-suspend hibernate || rc=$?
	# 4: another sleep is on its way.  Any other failure: at least suspend.
	if [ "$rc" -eq 0 ] || [ "$rc" -eq 4 ]; then
		return "$rc"
	fi
	act "hibernation failed" pm-suspend suspend
}

# ---------------------------------------------------------------- main

if [ "$#" -lt 2 ]; then
	log "usage: handler.sh lid|power|ac|battery EVENT..."
	exit 2
fi
kind=$1
shift
IFS=' '
event="$*"
IFS=' 	
'
case $event in
*[![:print:]]*)
	log "$kind: an event with control characters, ignored: $event"
	exit 0
	;;
esac
read -r ev_class ev_device ev_code ev_value _ <<EOF
$event
EOF
case $kind:$ev_class in
lid:button/lid | power:button/power | ac:ac_adapter | battery:battery) ;;
lid:* | power:* | ac:* | battery:*)
	log "$kind: not a $kind event, ignored: $event"
	exit 0
	;;
*)
	log "usage: handler.sh lid|power|ac|battery EVENT..."
	exit 2
	;;
esac
read_conf
"$kind"
