# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Bash completion for pmtools: pmctl, pm-suspend (with pm-hibernate,
# pm-suspend-hybrid and pm-is-supported), opp-set and cstate-stat; and
# pmtools-textfile, whose one argument is a folder.
#
# The words come from the tools' --help and the CLI contract (CLI.md,
# opp.conf(5)); the machine's choices are read from the files below the
# system root: the --sysroot DIR of the line being completed, else
# $PM_SYSROOT, else /.  Those are cpufreq governors and EPP names, idle
# states and cpuidle governors, platform profiles, devfreq devices, power
# supplies, sleep modes, pm_test levels, RTCs and operating points.
#
# Completion never runs a tool, nor any other program: only builtins,
# compgen, and `read` of small sysfs files.  The shell's glob options are
# set for the run and put back afterwards.

# The points' folders besides $SYSROOT/etc/pm/opp.d: the installed
# examples (DATADIR), real paths never put under the system root.  make
# install replaces the line with its DATADIR.
_pmtools_opp_dirs=(/usr/local/share/pmtools/opp.d /usr/share/pmtools/opp.d)

# ---------------------------------------------------------------- the line

# _pmtools_split TEXT: split TEXT into words as the shell would, with the
# quotes and backslashes removed, into _pmt_sw.  _pmt_sopen is 1 when TEXT
# ends inside a word (which is then the last of _pmt_sw) and _pmt_scut the
# length of the part of that word that readline keeps when it completes:
# up to its last unquoted COMP_WORDBREAKS character (= and : in
# particular), which the replies must leave out.
_pmtools_split() {
	local text=$1 c q="" w="" open=0 cut=0 i breaks
	breaks=${COMP_WORDBREAKS-$' \t\n"\'@><=;|&(:'}
	_pmt_sw=()
	for ((i = 0; i < ${#text}; i++)); do
		c=${text:i:1}
		if [[ $q == "'" ]]; then
			if [[ $c == "'" ]]; then q=""; else w+=$c; fi
		elif [[ $q == '"' ]]; then
			if [[ $c == '"' ]]; then
				q=""
			elif [[ $c == \\ && ${text:i+1:1} == [\$\`\"\\] ]]; then
				w+=${text:i+1:1}
				i=$((i + 1))
			else
				w+=$c
			fi
		else
			case $c in
			"'" | '"') q=$c open=1 ;;
			' ' | $'\t' | $'\n')
				if ((open)); then _pmt_sw+=("$w"); fi
				w="" open=0 cut=0
				;;
			\\)
				w+=${text:i+1:1}
				i=$((i + 1))
				open=1
				;;
			*)
				w+=$c
				open=1
				if [[ $breaks == *"$c"* ]]; then cut=${#w}; fi
				;;
			esac
		fi
	done
	if ((open)); then _pmt_sw+=("$w"); fi
	_pmt_sopen=$open
	_pmt_scut=$cut
}

# _pmtools_line CMD: the words before the one being completed (_pmt_words,
# from the command name on), that word (_pmt_cur, without quotes), its
# _pmt_cut, and the words after the cursor (_pmt_tail).  A PM_SYSROOT=DIR
# assignment before the command goes to _pmt_envroot.
_pmtools_line() {
	local name=${1##*/} i w
	_pmt_words=() _pmt_cur="" _pmt_cut=0 _pmt_tail=()
	if [[ -n ${COMP_LINE-} ]]; then
		_pmtools_split "${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}"
		_pmt_words=("${_pmt_sw[@]}")
		if ((_pmt_sopen)); then
			_pmt_cur=${_pmt_words[${#_pmt_words[@]} - 1]}
			unset '_pmt_words[${#_pmt_words[@]}-1]'
			_pmt_cut=$_pmt_scut
		fi
		_pmtools_split "${COMP_LINE:${COMP_POINT:-${#COMP_LINE}}}"
		_pmt_tail=("${_pmt_sw[@]}")
		# The rest of the word under the cursor is not a word of its own.
		if ((${#_pmt_tail[@]})) && [[ ${COMP_LINE:${COMP_POINT:-0}:1} != [[:space:]] ]]; then
			_pmt_tail=("${_pmt_tail[@]:1}")
		fi
	else
		_pmt_words=("${COMP_WORDS[@]:0:COMP_CWORD}")
		_pmt_cur=${COMP_WORDS[COMP_CWORD]-}
	fi
	# Leading assignments (PM_SYSROOT=/x pmctl ...): not the command.
	_pmt_envroot=${PM_SYSROOT-}
	for ((i = 0; i < ${#_pmt_words[@]}; i++)); do
		w=${_pmt_words[i]}
		if [[ $w == "$1" || $w == "$name" || $w == */"$name" ]]; then
			break
		elif [[ $w == PM_SYSROOT=* ]]; then
			_pmt_envroot=${w#PM_SYSROOT=}
		elif [[ $w != [A-Za-z_]*=* ]]; then
			break
		fi
	done
	((i < ${#_pmt_words[@]})) || i=0
	_pmt_words=("${_pmt_words[@]:i}")
}

# _pmtools_long WORD: the long option WORD (--gov, --governor=x) stands
# for, as getopt_long resolves a unique abbreviation, into _pmt_lo.
_pmtools_long() {
	local n=${1%%=*} x m=""
	for x in "${_pmt_all[@]}"; do
		if [[ $x == "$n" ]]; then
			_pmt_lo=$n
			return
		fi
		if [[ $x == "$n"* ]]; then
			if [[ -n $m ]]; then
				_pmt_lo=$n
				return
			fi
			m=$x
		fi
	done
	_pmt_lo=${m:-$n}
}

# _pmtools_takes OPT: whether the long option OPT takes a value.
_pmtools_takes() {
	local x
	for x in "${_pmt_argl[@]}"; do
		[[ $x == "$1" ]] && return 0
	done
	return 1
}

# _pmtools_scan ORDER: walk the words after the command name as the
# tool's getopt does (ORDER +: options end at the first operand; -:
# options anywhere).  Needs _pmt_shortarg (the short letters that take a
# value), _pmt_argl and _pmt_all (long options with a value, and all).
# Sets _pmt_pos (operands before "--"), _pmt_dd (1 after "--"), _pmt_after
# (the words after "--"), _pmt_seen (" -x --long " given), _pmt_pend (the
# option whose value the current word is) and _pmt_root (the system root).
_pmtools_scan() {
	local order=$1 w i j ch stop=0 root="" pend=""
	_pmt_pos=() _pmt_after=() _pmt_dd=0 _pmt_seen=" " _pmt_pend=""
	for ((i = 1; i < ${#_pmt_words[@]}; i++)); do
		w=${_pmt_words[i]}
		if [[ -n $_pmt_pend ]]; then
			[[ $_pmt_pend == --sysroot ]] && root=$w
			_pmt_pend=""
		elif ((_pmt_dd)); then
			_pmt_after+=("$w")
		elif ((stop)); then
			_pmt_pos+=("$w")
		elif [[ $w == -- ]]; then
			_pmt_dd=1
		elif [[ $w == --?* ]]; then
			_pmtools_long "$w"
			_pmt_seen+="$_pmt_lo "
			if [[ $w == *=* ]]; then
				[[ $_pmt_lo == --sysroot ]] && root=${w#*=}
			elif _pmtools_takes "$_pmt_lo"; then
				_pmt_pend=$_pmt_lo
			fi
		elif [[ $w == -?* ]]; then
			for ((j = 1; j < ${#w}; j++)); do
				ch=${w:j:1}
				_pmt_seen+="-$ch "
				if [[ $_pmt_shortarg == *"$ch"* ]]; then
					((j == ${#w} - 1)) && _pmt_pend=-$ch
					break
				fi
			done
		else
			_pmt_pos+=("$w")
			[[ $order == + ]] && stop=1
		fi
	done
	# A --sysroot after the cursor counts too.
	for w in "${_pmt_tail[@]}"; do
		if [[ -n $pend ]]; then
			root=$w pend=""
		elif [[ $w == -- ]]; then
			break
		elif [[ $w == --?* ]]; then
			_pmtools_long "$w"
			if [[ $_pmt_lo == --sysroot ]]; then
				if [[ $w == *=* ]]; then root=${w#*=}; else pend=1; fi
			fi
		fi
	done
	[[ -n $root ]] || root=$_pmt_envroot
	[[ $root == \~/* ]] && root=$HOME/${root#\~/}
	while [[ $root == */ ]]; do root=${root%/}; done
	_pmt_root=$root
}

# --------------------------------------------------------------- replies

# _pmtools_add WORD...: reply with the words that begin with the current
# word (each after _pmt_pfx, the part of the current word before the value
# being completed: -F of -Fjs, --format= of --format=js).
_pmtools_add() {
	local c
	for c; do
		c=$_pmt_pfx$c
		[[ $c == "$_pmt_cur"* ]] || continue
		COMPREPLY+=("${c:_pmt_cut}")
		# Blanks and other specials: let readline quote the reply.
		if [[ $c == *[!A-Za-z0-9._:=,/+@%^-]* ]]; then
			_pmtools_compopt -o filenames
		fi
		# A key=, section. or folder/ goes on: no space after it.
		if [[ $c == *[=.:/] ]]; then
			_pmtools_compopt -o nospace
		fi
	done
	return 0
}

# _pmtools_compopt OPTION...: compopt for this completion (it fails when
# no completion runs, as in the tests).
_pmtools_compopt() {
	compopt "$@" 2>/dev/null || true
}

# _pmtools_push WORD...: add to the candidates _pmt_c, once each.
_pmtools_push() {
	local w
	for w; do
		[[ -n $w && -z ${_pmt_have[$w]-} ]] || continue
		_pmt_have[$w]=1
		_pmt_c+=("$w")
	done
	return 0
}

# _pmtools_offer: reply with the candidates, and start a new list.
_pmtools_offer() {
	_pmtools_add "${_pmt_c[@]}"
	_pmt_c=()
	_pmt_have=()
}

# _pmtools_line1 FILE: the first line of FILE in _pmt_l ("" when it
# cannot be read).
_pmtools_line1() {
	_pmt_l=""
	[[ -f $1 && -r $1 ]] || return 1
	IFS= read -r _pmt_l 2>/dev/null <"$1"
	[[ -n $_pmt_l ]]
}

# _pmtools_words FILE...: the blank-separated words of each FILE's first
# line ([selected] brackets removed) as candidates.
_pmtools_words() {
	local f a
	for f; do
		_pmtools_line1 "$f" || continue
		_pmt_l=${_pmt_l//[\[\]]/}
		read -ra a <<<"$_pmt_l"
		_pmtools_push "${a[@]}"
	done
	return 0
}

# _pmtools_has FILE WORD: whether WORD is one of the words of FILE.
_pmtools_has() {
	_pmtools_line1 "$1" || return 1
	_pmt_l=${_pmt_l//[\[\]]/}
	[[ " ${_pmt_l//$'\t'/ } " == *" $2 "* ]]
}

# _pmtools_names GLOB-RESULT...: the last part of each path as candidates.
_pmtools_names() {
	local f
	for f; do
		[[ -e $f ]] && _pmtools_push "${f##*/}"
	done
	return 0
}

# _pmtools_files [-d]: files (or with -d folders) for the value being
# completed, whose text is the current word after _pmt_pfx.
_pmtools_files() {
	local v=${_pmt_cur:${#_pmt_pfx}} f
	_pmtools_compopt -o filenames
	if [[ ${1-} == -d ]]; then
		while IFS= read -r f; do _pmtools_push "$f"; done < <(compgen -d -- "$v")
	else
		while IFS= read -r f; do _pmtools_push "$f"; done < <(compgen -f -- "$v")
	fi
	_pmtools_offer
}

# _pmtools_commands: the command names for "-- COMMAND", and then files.
_pmtools_commands() {
	local v=${_pmt_cur:${#_pmt_pfx}} f
	if ((${#_pmt_after[@]})); then
		_pmtools_files
		return
	fi
	while IFS= read -r f; do _pmtools_push "$f"; done < <(compgen -c -- "$v")
	_pmtools_offer
}

# ------------------------------------------------------- the machine

_pmtools_cpu=/sys/devices/system/cpu

# cpufreq governors of every policy.
_pmtools_governors() {
	_pmtools_words "$_pmt_root$_pmtools_cpu"/cpufreq/policy*/scaling_available_governors
}

# EPP names of every policy.
_pmtools_epps() {
	_pmtools_words "$_pmt_root$_pmtools_cpu"/cpufreq/policy*/energy_performance_available_preferences
}

# The names of the idle states of every CPU (a name may hold a blank).
_pmtools_states() {
	local f
	for f in "$_pmt_root$_pmtools_cpu"/cpu[0-9]*/cpuidle/state[0-9]*/name; do
		_pmtools_line1 "$f" && _pmtools_push "$_pmt_l"
	done
	return 0
}

_pmtools_idle_governors() {
	_pmtools_words "$_pmt_root$_pmtools_cpu"/cpuidle/available_governors
}

# The platform profiles that can be set: the choices but custom, which
# the kernel only shows.
_pmtools_profiles() {
	local a w
	_pmtools_line1 "$_pmt_root"/sys/firmware/acpi/platform_profile_choices || return 0
	read -ra a <<<"${_pmt_l//[\[\]]/}"
	for w in "${a[@]}"; do
		[[ $w == custom ]] || _pmtools_push "$w"
	done
	return 0
}

_pmtools_devfreqs() {
	_pmtools_names "$_pmt_root"/sys/class/devfreq/*
}

# The governors of devfreq device NAME, or of every device.
_pmtools_devfreq_governors() {
	if [[ -n ${1-} && $1 != */* && -d $_pmt_root/sys/class/devfreq/$1 ]]; then
		_pmtools_words "$_pmt_root/sys/class/devfreq/$1/available_governors"
	else
		_pmtools_words "$_pmt_root"/sys/class/devfreq/*/available_governors
	fi
}

# The batteries (supply set takes one): the supplies of type Battery.
_pmtools_batteries() {
	local d
	for d in "$_pmt_root"/sys/class/power_supply/*; do
		_pmtools_line1 "$d/type" && [[ $_pmt_l == Battery ]] && _pmtools_push "${d##*/}"
	done
	return 0
}

# The charge_behaviour choices of supply NAME, or of every supply.
_pmtools_behaviours() {
	if [[ -n ${1-} && $1 != */* && -d $_pmt_root/sys/class/power_supply/$1 ]]; then
		_pmtools_words "$_pmt_root/sys/class/power_supply/$1/charge_behaviour"
	else
		_pmtools_words "$_pmt_root"/sys/class/power_supply/*/charge_behaviour
	fi
}

# CPUs that can be hot-plugged and are offline (WANT 0) or online (1).
_pmtools_hotplug() {
	local f
	for f in "$_pmt_root$_pmtools_cpu"/cpu[0-9]*/online; do
		if ! _pmtools_line1 "$f" || [[ $_pmt_l != "$1" ]]; then continue; fi
		f=${f%/online}
		_pmtools_push "${f##*/cpu}"
	done
	return 0
}

# Subsystems for "device show": the buses and classes.
_pmtools_subsystems() {
	_pmtools_names "$_pmt_root"/sys/bus/* "$_pmt_root"/sys/class/*
}

# Device paths below /sys (under the system root) for "device".
_pmtools_devpaths() {
	local v=${_pmt_cur:${#_pmt_pfx}} d
	if [[ $v != /* ]]; then
		_pmtools_push /sys/devices/ /sys/class/ /sys/bus/
		return 0
	fi
	for d in "$_pmt_root$v"*/; do
		d=${d%/}
		[[ -d $d ]] && _pmtools_push "${d#"$_pmt_root"}/"
	done
	return 0
}

# The sleep modes this machine offers (pm-suspend's checks of
# /sys/power/state, mem_sleep and disk); all of them when there is no
# state file to tell.
_pmtools_modes() {
	local p=$_pmt_root/sys/power mem=0 disk=0 sus=0
	if ! _pmtools_line1 "$p/state"; then
		_pmtools_push suspend s2idle standby deep hibernate hybrid suspend-then-hibernate
		return 0
	fi
	_pmtools_has "$p/state" mem && mem=1
	_pmtools_has "$p/state" disk && disk=1
	((mem)) && sus=1 && _pmtools_push suspend
	if _pmtools_has "$p/state" freeze || { ((mem)) && _pmtools_has "$p/mem_sleep" s2idle; }; then
		_pmtools_push s2idle
	fi
	if _pmtools_has "$p/state" standby || { ((mem)) && _pmtools_has "$p/mem_sleep" shallow; }; then
		_pmtools_push standby
	fi
	((mem)) && _pmtools_has "$p/mem_sleep" deep && _pmtools_push deep
	if ((disk)); then
		_pmtools_push hibernate
		_pmtools_has "$p/disk" suspend && _pmtools_push hybrid
		((sus)) && _pmtools_push suspend-then-hibernate
	fi
	return 0
}

# pm_test levels but none.
_pmtools_test_levels() {
	local a w
	_pmtools_line1 "$_pmt_root"/sys/power/pm_test || return 0
	read -ra a <<<"${_pmt_l//[\[\]]/}"
	for w in "${a[@]}"; do
		[[ $w == none ]] || _pmtools_push "$w"
	done
	return 0
}

_pmtools_rtcs() {
	_pmtools_names "$_pmt_root"/sys/class/rtc/*
}

# Operating point names: $SYSROOT/etc/pm/opp.d, then the installed
# examples; a name is letters, digits, _ - and ., not first a dot, at most
# 63 characters (opp.conf(5)).
_pmtools_points() {
	local d f n
	for d in "$_pmt_root"/etc/pm/opp.d "${_pmtools_opp_dirs[@]}"; do
		for f in "$d"/*.conf; do
		[[ -f $f ]] || continue
		n=${f##*/}
		n=${n%.conf}
		[[ $n == [A-Za-z0-9_-]* && $n != *[!A-Za-z0-9_.-]* && ${#n} -le 63 ]] || continue
		_pmtools_push "$n"
		done
	done
	return 0
}

# ------------------------------------------------------------ shared

# _pmtools_opts WORD...: reply with the options (the current word begins
# with -).
_pmtools_opts() {
	_pmtools_push "$@"
	_pmtools_offer
}

# _pmtools_value OPT FORMATS: complete the value of OPT common to the
# tools; 1 when OPT is the tool's own.
_pmtools_value() {
	case $1 in
	--sysroot) _pmtools_files -d ;;
	-o | --output | --config | -f | --file | --save | --timeline) _pmtools_files ;;
	-F | --format)
		local a
		read -ra a <<<"$2"
		_pmtools_opts "${a[@]}"
		;;
	-c | --cpu) _pmtools_opts all online ;;
	*) return 1 ;;
	esac
	return 0
}

# _pmtools_optval: when the current word holds an option's value (-Fjs,
# --format=js), set _pmt_pend to the option and _pmt_pfx to what comes
# before the value; 1 when it does not.
_pmtools_optval() {
	local w=$_pmt_cur j ch
	if [[ $w == --?*=* ]]; then
		_pmtools_long "$w"
		_pmt_pend=$_pmt_lo
		_pmt_pfx=${w%%=*}=
		return 0
	fi
	[[ $w == -[!-]?* ]] || return 1
	for ((j = 1; j < ${#w} - 1; j++)); do
		ch=${w:j:1}
		if [[ $_pmt_shortarg == *"$ch"* ]]; then
			_pmt_pend=-$ch
			_pmt_pfx=${w:0:j+1}
			return 0
		fi
	done
	return 1
}

# _pmtools_main WORKER CMD: the state of one completion, the glob options
# it needs (nullglob on; failglob, dotglob and noglob off, put back after),
# then WORKER.
_pmtools_main() {
	local _pmt_words=() _pmt_cur="" _pmt_cut=0 _pmt_tail=() _pmt_sw=()
	local _pmt_sopen=0 _pmt_scut=0 _pmt_envroot="" _pmt_root="" _pmt_lo=""
	local _pmt_pos=() _pmt_after=() _pmt_dd=0 _pmt_seen="" _pmt_pend=""
	local _pmt_pfx="" _pmt_c=() _pmt_l="" _pmt_shortarg="" _pmt_argl=() _pmt_all=()
	local -A _pmt_have=()
	local restore=""
	shopt -q nullglob || restore+=n
	shopt -q failglob && restore+=f
	shopt -q dotglob && restore+=d
	[[ $- == *f* ]] && restore+=F
	shopt -s nullglob
	shopt -u failglob dotglob
	set +f
	COMPREPLY=()
	# A failure must not end a shell run with set -e: errexit is off in
	# the words' parsing and in WORKER.
	_pmtools_line "$2" || true
	"$1" "$2" || true
	[[ $restore == *n* ]] && shopt -u nullglob
	[[ $restore == *f* ]] && shopt -s failglob
	[[ $restore == *d* ]] && shopt -s dotglob
	[[ $restore == *F* ]] && set -f
	return 0
}

# _pmtools_spec SHORTARG LONGARG LONGFLAGS: the tool's getopt options.
_pmtools_spec() {
	_pmt_shortarg=$1
	read -ra _pmt_argl <<<"$2"
	read -ra _pmt_all <<<"$2 $3"
}

# ------------------------------------------------------------- pmctl

_pmtools_pmctl() {
	local cmd verb n out="-F --format -J --json -o --output" wr="-n --dry-run --wait"
	local common="-q --quiet -v --verbose -h --help --sysroot" opts
	_pmtools_spec Fco \
		"--cpu --format --output --sysroot --governor --min --max --speed --epp --charge-start --charge-stop --charge-behaviour --runtime --wakeup" \
		"--help --version --json --quiet --verbose --dry-run --wait --hold --redact"
	_pmtools_scan -
	cmd=${_pmt_pos[0]-}
	verb=${_pmt_pos[1]-}
	n=$((${#_pmt_pos[@]} - 1))
	if [[ -z $_pmt_pend ]] && ! ((_pmt_dd)); then _pmtools_optval || true; fi

	if [[ -n $_pmt_pend ]]; then
		local formats="human json kv"
		[[ -z $cmd || $cmd == status ]] && formats+=" prom"
		_pmtools_value "$_pmt_pend" "$formats" && return
		case $_pmt_pend in
		--governor)
			if [[ $cmd == devfreq ]]; then
				_pmtools_devfreq_governors "${_pmt_pos[2]-}"
			else
				_pmtools_governors
			fi
			;;
		--epp) _pmtools_epps ;;
		--runtime) _pmtools_push auto on ;;
		--wakeup) _pmtools_push enabled disabled ;;
		--charge-behaviour) _pmtools_behaviours "${_pmt_pos[2]-}" ;;
		esac
		_pmtools_offer
		return
	fi
	if ((_pmt_dd)); then
		[[ $cmd == latency ]] && _pmtools_commands
		return
	fi

	if [[ $_pmt_cur == -* ]]; then
		case $cmd in
		"") opts="-c --cpu $wr $out --redact -V --version" ;;
		status | sleep | thermal | domains | powercap | tune) opts=$out ;;
		freq)
			opts="-c --cpu $out"
			[[ $verb == show ]] || opts+=" $wr --governor --min --max --speed --epp"
			;;
		boost)
			opts="-c --cpu $out"
			[[ $verb == show ]] || opts+=" $wr"
			;;
		idle)
			case $verb in
			show) opts=$out ;;
			governor) opts="$out $wr" ;;
			*) opts="-c --cpu $out $wr" ;;
			esac
			;;
		cpu | smt)
			opts=$out
			[[ $verb == show ]] || opts+=" $wr"
			;;
		latency) opts="--hold -n --dry-run" ;;
		supply) opts="$out $wr --charge-start --charge-stop --charge-behaviour" ;;
		devfreq)
			opts=$out
			[[ $verb == show ]] || opts+=" $wr --governor --min --max"
			;;
		profile) opts="$out $wr" ;;
		device)
			opts=$out
			[[ -n $verb && $verb != set ]] || opts+=" $wr --runtime --wakeup"
			;;
		dump) opts="-o --output --redact" ;;
		recover) opts="$out $wr" ;;
		*) opts="" ;;
		esac
		local a
		read -ra a <<<"$opts $common"
		_pmtools_opts "${a[@]}"
		return
	fi

	if [[ -z $cmd ]]; then
		_pmtools_push status freq boost idle cpu smt latency sleep supply \
			thermal devfreq domains powercap profile device tune dump \
			recover
		_pmtools_offer
		return
	fi
	case $cmd in
	freq) ((n == 0)) && _pmtools_push show set ;;
	boost | smt) ((n == 0)) && _pmtools_push show on off ;;
	idle)
		if ((n == 0)); then
			_pmtools_push show disable enable limit governor
		elif [[ $verb == disable || $verb == enable ]]; then
			# STATE...: each name once.
			local s
			for s in "${_pmt_pos[@]:2}"; do
				[[ -n $s ]] && _pmt_have[$s]=1
			done
			[[ $verb == enable ]] && _pmtools_push all
			_pmtools_states
		elif [[ $verb == governor ]] && ((n == 1)); then
			_pmtools_idle_governors
		fi
		;;
	cpu)
		if ((n == 0)); then
			_pmtools_push show online offline
		elif ((n == 1)) && [[ $verb == online ]]; then
			_pmtools_hotplug 0
		elif ((n == 1)) && [[ $verb == offline ]]; then
			_pmtools_hotplug 1
		fi
		;;
	supply)
		if ((n == 0)); then
			_pmtools_push set
		elif ((n == 1)) && [[ $verb == set ]]; then
			_pmtools_batteries
		fi
		;;
	devfreq)
		if ((n == 0)); then
			_pmtools_push show set
		elif ((n == 1)) && [[ $verb == set ]]; then
			_pmtools_devfreqs
		fi
		;;
	domains | powercap | tune) ((n == 0)) && _pmtools_push show ;;
	profile) ((n == 0)) && _pmtools_profiles ;;
	device)
		if [[ $verb == set ]]; then
			_pmtools_devpaths
		else
			((n == 0)) && _pmtools_push show set
			[[ $_pmt_cur == /* ]] || _pmtools_subsystems
			_pmtools_devpaths
		fi
		;;
	esac
	_pmtools_offer
}

_pmctl() {
	_pmtools_main _pmtools_pmctl "$1"
}

# -------------------------------------------------------- pm-suspend

_pmtools_pm_suspend() {
	local name=${1##*/} a
	_pmtools_spec Fco \
		"--wake-after --wake-at --rtc --test --hook-timeout --hibernate-delay --budget --timeline --config --format --output --sysroot --cpu" \
		"--check --suspend --hibernate --suspend-hybrid --diagnose --timings --userspace --history --no-hooks --force --dry-run --wait --help --version --json --quiet --verbose"
	_pmtools_scan -
	if [[ -z $_pmt_pend ]] && ! ((_pmt_dd)); then _pmtools_optval || true; fi
	if [[ -n $_pmt_pend ]]; then
		a="human json kv"
		[[ $_pmt_seen == *" --history "* ]] && a+=" prom"
		_pmtools_value "$_pmt_pend" "$a" && return
		case $_pmt_pend in
		--rtc) _pmtools_rtcs ;;
		--test) _pmtools_test_levels ;;
		esac
		_pmtools_offer
		return
	fi
	if [[ $_pmt_cur == -* ]] && ! ((_pmt_dd)); then
		if [[ $name == pm-is-supported ]]; then
			a=(--suspend --hibernate --suspend-hybrid -q --quiet -v --verbose
				--config --sysroot -h --help -V --version)
		else
			a=(--check --wake-after --wake-at --rtc --test --diagnose --timings --budget --timeline --history --no-hooks
				--hook-timeout --hibernate-delay --userspace --force --config -n --dry-run --wait
				-J --json -F --format -o --output --sysroot -q --quiet -v --verbose
				-h --help -V --version)
		fi
		_pmtools_opts "${a[@]}"
		return
	fi
	# pm-hibernate and pm-suspend-hybrid name their mode; pm-is-supported
	# takes it as an option; --history takes none.
	if [[ $name != pm-hibernate && $name != pm-suspend-hybrid && $name != pm-is-supported ]] &&
		[[ $_pmt_seen != *" --history "* ]] &&
		((${#_pmt_pos[@]} + ${#_pmt_after[@]} == 0)); then
		_pmtools_modes
		if ((${#_pmt_c[@]})); then
			local before=${#COMPREPLY[@]}
			local -a offered=("${_pmt_c[@]}")
			_pmtools_offer
			# The aliases, for a word that only they begin.
			if ((${#COMPREPLY[@]} == before)); then
				for a in "${offered[@]}"; do
					[[ $a == s2idle ]] && _pmtools_push freeze
					[[ $a == standby ]] && _pmtools_push shallow
				done
			fi
		fi
	fi
	_pmtools_offer
}

_pm_suspend() {
	_pmtools_main _pmtools_pm_suspend "$1"
}

# ----------------------------------------------------------- opp-set

# The settings of -s SECTION[:ARG].KEY=VALUE (opp.conf(5); opp.include is
# refused, [match] is for --auto): the keys, then the values of the keys
# that have a list.
_pmtools_opp_setting() {
	local v=${_pmt_cur:${#_pmt_pfx}} key val sect kname arg base="" d w
	if [[ $v != *=* ]]; then
		_pmtools_push cpufreq.governor= cpufreq.min= cpufreq.max= cpufreq.speed= \
			cpufreq.epp= cpufreq.boost= cpufreq: \
			cpuidle.governor= cpuidle.disable= cpuidle.max_latency= \
			cpu.online= cpu.smt= sysfs./sys/
		[[ $v == runtime_pm.* ]] || _pmtools_push runtime_pm.
		[[ -d $_pmt_root$_pmtools_cpu/intel_pstate ]] &&
			_pmtools_push intel_pstate.min_perf_pct= intel_pstate.max_perf_pct= \
				intel_pstate.no_turbo= intel_pstate.status=
		[[ -d $_pmt_root$_pmtools_cpu/amd_pstate ]] && _pmtools_push amd_pstate.status=
		[[ -e $_pmt_root/sys/firmware/acpi/platform_profile ]] && _pmtools_push platform.profile=
		# The device tunables this machine has (pmctl tune).
		[[ -d $_pmt_root/sys/bus/usb/devices ]] &&
			_pmtools_push usb.autosuspend= usb.autosuspend_delay_ms= usb.exclude=
		for d in "$_pmt_root"/sys/class/scsi_host/*/link_power_management_policy; do
			[[ -e $d ]] && _pmtools_push sata.link_power= && break
		done
		[[ -e $_pmt_root/sys/module/pcie_aspm/parameters/policy ]] && _pmtools_push pcie.aspm=
		[[ -d $_pmt_root/sys/module/snd_hda_intel/parameters ]] &&
			_pmtools_push audio.power_save= audio.power_save_controller=
		for w in kernel.nmi_watchdog vm.dirty_writeback_centisecs vm.laptop_mode; do
			[[ -e $_pmt_root/proc/sys/${w/./\/} ]] && _pmtools_push "sysctl.$w="
		done
		# A wireless interface (whether nl80211 gives its power save is
		# not asked here).
		for d in "$_pmt_root"/sys/class/net/*/phy80211; do
			[[ -e $d ]] && _pmtools_push wifi.power_save= && break
		done
		for d in "$_pmt_root"/sys/class/power_supply/*; do
			[[ -e $d/charge_control_end_threshold || -e $d/charge_behaviour ]] || continue
			d=${d##*/}
			_pmtools_push "supply:$d.charge_start=" "supply:$d.charge_stop=" \
				"supply:$d.charge_behaviour="
		done
		for d in "$_pmt_root"/sys/class/devfreq/*; do
			[[ -e $d ]] || continue
			d=${d##*/}
			_pmtools_push "devfreq:$d.governor=" "devfreq:$d.min=" "devfreq:$d.max="
		done
		if [[ $v == runtime_pm.* ]]; then
			for d in "$_pmt_root"/sys/bus/*; do
				[[ -e $d ]] && _pmtools_push "runtime_pm.${d##*/}="
			done
			_pmtools_push runtime_pm./sys/devices/
		fi
		_pmtools_offer
		return
	fi
	key=${v%%=*}
	val=${v#*=}
	sect=${key%%[.:]*}
	if [[ $key == *:* ]]; then
		kname=${key##*.}
		arg=${key#*:}
		arg=${arg%.*}
	else
		kname=${key#*.}
		arg=""
	fi
	local -a words=()
	case $sect.$kname in
	cpufreq.governor) _pmtools_governors ;;
	cpufreq.epp) _pmtools_epps ;;
	cpufreq.boost | intel_pstate.no_turbo) _pmtools_push on off ;;
	intel_pstate.status) _pmtools_push active passive off ;;
	amd_pstate.status) _pmtools_push active passive guided disable ;;
	cpuidle.governor) _pmtools_idle_governors ;;
	cpuidle.disable)
		# A list: complete its last name, each name once.
		if [[ $val == *,* ]]; then
			base=${val%,*},
			local -a given
			IFS=, read -ra given <<<"$base"
			for w in "${given[@]}"; do
				[[ -n $w ]] && _pmt_have[$w]=1
			done
		fi
		_pmtools_states
		;;
	cpu.smt | wifi.power_save) _pmtools_push on off ;;
	cpu.online) _pmtools_push all ;;
	devfreq.governor) _pmtools_devfreq_governors "$arg" ;;
	platform.profile) _pmtools_profiles ;;
	runtime_pm.*) _pmtools_push auto on ;;
	supply.charge_behaviour)
		# The choices of the file, brackets off.
		local list
		list=$(cat "$_pmt_root/sys/class/power_supply/$arg/charge_behaviour" 2>/dev/null)
		list=${list//[\[\]]/}
		read -ra words <<<"$list"
		_pmtools_push "${words[@]}"
		;;
	esac
	words=("${_pmt_c[@]}")
	_pmt_c=()
	_pmt_have=()
	# The value's words: a blank or a comma would not read back.
	for w in "${words[@]}"; do
		[[ $w == *[[:space:],]* ]] && continue
		_pmtools_push "$key=$base$w"
	done
	_pmtools_offer
}

_pmtools_opp_set() {
	local a
	_pmtools_spec fsFco "--file --set --show --diff --save --device --format --output --sysroot --cpu" \
		"--dry-run --list --current --auto --reapply --auto-tune --wait --help --version --json --quiet --verbose"
	_pmtools_scan +
	if [[ -z $_pmt_pend ]] && ! ((_pmt_dd)) && ! ((${#_pmt_pos[@]})); then _pmtools_optval || true; fi
	if [[ -n $_pmt_pend ]]; then
		_pmtools_value "$_pmt_pend" "human json kv" && return
		case $_pmt_pend in
		-s | --set)
			_pmtools_opp_setting
			return
			;;
		--show | --diff) _pmtools_points ;;
		--device) _pmtools_devpaths ;;
		esac
		_pmtools_offer
		return
	fi
	if [[ $_pmt_cur == -* ]] && ! ((_pmt_dd)) && ! ((${#_pmt_pos[@]})); then
		a=(-f --file -s --set -n --dry-run --diff --show --list --current --save
			--auto --reapply --device --auto-tune --wait -F --format -J --json -o --output --sysroot
			-q --quiet -v --verbose -h --help -V --version)
		_pmtools_opts "${a[@]}"
		return
	fi
	# NAME: one, and not beside -f, -s or the other modes.
	if ((${#_pmt_pos[@]} + ${#_pmt_after[@]} == 0)); then
		for a in -f --file -s --set --list --show --diff --current --save --auto --reapply --auto-tune; do
			[[ $_pmt_seen == *" $a "* ]] && return
		done
		_pmtools_points
	fi
	_pmtools_offer
}

_opp_set() {
	_pmtools_main _pmtools_opp_set "$1"
}

# ------------------------------------------------------- cstate-stat

_pmtools_cstate_stat() {
	local a
	_pmtools_spec inFco "--interval --count --cpu --format --output --sysroot" \
		"--summary --per-cpu --cstates --pstates --wakeups --power --trans-table --wait --help --version --json --quiet --verbose"
	_pmtools_scan +
	if ((_pmt_dd)); then
		_pmtools_commands
		return
	fi
	[[ -n $_pmt_pend ]] || _pmtools_optval || true
	if [[ -n $_pmt_pend ]]; then
		_pmtools_value "$_pmt_pend" "human json kv csv prom" || true
		return 0
	fi
	if [[ $_pmt_cur == -* ]]; then
		a=(-i --interval -n --count -c --cpu --cstates --pstates --wakeups --power
			--trans-table -s --summary --per-cpu -F --format -J --json -o --output
			--sysroot -q --quiet -v --verbose -h --help -V --version)
		_pmtools_opts "${a[@]}"
	fi
}

_cstate_stat() {
	_pmtools_main _pmtools_cstate_stat "$1"
}

# pm-resume: pm-suspend by that name, its own options.
_pmtools_pm_resume() {
	_pmtools_spec Fo "--check --format --offset --output --sysroot" \
		"--help --version --json --quiet --verbose"
	_pmtools_scan -
	[[ -n $_pmt_pend ]] || _pmtools_optval || true
	if [[ $_pmt_pend == --check ]]; then
		_pmtools_files
		return 0
	fi
	if [[ $_pmt_pend == --offset ]]; then
		return 0	# a page number: nothing to offer
	fi
	if [[ -n $_pmt_pend ]]; then
		_pmtools_value "$_pmt_pend" "human json" || true
		return 0
	fi
	if [[ $_pmt_cur == -* ]]; then
		_pmtools_opts --check --offset -F --format -J --json -o --output --sysroot \
			-q --quiet -v --verbose -h --help -V --version
	fi
}

_pm_resume() {
	_pmtools_main _pmtools_pm_resume "$1"
}

complete -F _pmctl pmctl
complete -F _pm_suspend pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported
complete -F _opp_set opp-set
complete -F _cstate_stat cstate-stat
complete -F _pm_resume pm-resume
complete -d pmtools-textfile
