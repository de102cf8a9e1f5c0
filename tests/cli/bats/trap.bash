# shellcheck shell=bash
# Sourced by helpers.bash.  This folder holds the stand-ins for bats 1.8.2's
# own functions, and bats' stack traces leave it out as they leave out
# bats' own files.
# bats 1.8.2 runs its DEBUG trap before every command of a test, in
# every function and every subshell it runs (set -T), and the trap
# builds the command's stack trace each time: a third of a millisecond a
# command, and each fork of the test's shell twice as dear, since the
# child runs the trap too.  With that version, and no --trace:
#  - the trap fires only for the commands of the test's own function,
#    setup and teardown (their trace attribute, without set -T), and
#    keeps the raw frames (lines, functions, files) as one string;
#  - the ERR trap takes the frames of the command that failed, however
#    deep, from its own call stack, leaving out bats' files and this
#    folder as bats' DEBUG trap does;
#  - the trace is built from the frames only when bats reads it, for a
#    failure: the same trace and the same report.
# Reports that differ from bats' own: exit N inside a helper function
# names the test's line that called the helper (bats' names the exit);
# a failure inside a helper run by untraced is named where it happened
# (bats' names untraced's line), and one in a subshell ( ) of the test
# at the subshell's closing line (bats' at the last line setup ran).
# source.bats compares the failure reports of both traps on
# tests/fixtures/bats-trap.bats.
if [ "${BATS_VERSION:-}" = 1.8.2 ] && [ "${BATS_TRACE_LEVEL:-0}" -eq 0 ] &&
	[ -z "${PMTOOLS_BATS_TRAP:-}" ] && [ "${#BATS_DEBUG_EXCLUDE_PATHS[@]}" -le 2 ]; then
	_pm_fr='' _pm_fr_prev='' _pm_lean='' _pm_bats_dir=${BASH_SOURCE[0]%/*}
	bats_debug_trap() {
		# Its first run (bats' tracing has just set it): from now on the
		# trap runs in the test's own function, setup and teardown only,
		# not in the functions they call nor in their subshells.
		if [[ -z $_pm_lean ]]; then
			_pm_lean=1
			set +T
			local fn
			for fn in "${BATS_TEST_NAME:-}" setup teardown; do
				[[ -n $fn ]] && declare -F "$fn" >/dev/null && declare -ft "$fn"
			done
		fi
		# bats' own files ($BATS_ROOT/lib/ and libexec/, its default
		# exclusions: bats-assert and bats-support too) and an
		# interrupted or timed-out test record nothing, as in bats.
		# Nor do this folder's files, which stand in for bats' own.
		case ${1%/*} in "$BATS_ROOT"/lib/* | "$BATS_ROOT"/libexec/* | "$_pm_bats_dir") return 0 ;; esac
		[[ ${BATS_INTERRUPTED-NOTSET} == NOTSET && ${BATS_TIMED_OUT-NOTSET} == NOTSET ]] || return 0
		local IFS=$'\x1e'
		_pm_fr_prev=$_pm_fr
		_pm_fr="${BASH_LINENO[*]}"$'\x1f'"${FUNCNAME[*]}"$'\x1f'"${BASH_SOURCE[*]}"
	}
	# BATS_DEBUG_LAST_STACK_TRACE as bats_capture_stack_trace makes it,
	# from frames kept by the trap above (frame 0 the trap itself).
	_pm_trace() { # FRAMES
		local -a l f s
		local i fn file
		IFS=$'\x1e' read -r -a l <<<"${1%%$'\x1f'*}"
		local rest=${1#*$'\x1f'}
		IFS=$'\x1e' read -r -a f <<<"${rest%%$'\x1f'*}"
		IFS=$'\x1e' read -r -a s <<<"${rest#*$'\x1f'}"
		BATS_DEBUG_LAST_STACK_TRACE=()
		for ((i = 1; i < ${#f[@]}; i++)); do
			file=${s[i]:-$BATS_TEST_SOURCE}
			fn=${f[i]}
			BATS_DEBUG_LAST_STACK_TRACE+=("${l[i - 1]} $fn $file")
			case $fn in
			"${BATS_TEST_NAME-}" | setup | teardown | setup_file | teardown_file | setup_suite | teardown_suite)
				break
				;;
			esac
			if [[ ${s[i + 1]:-} == *bats-exec-file && $fn == source ]]; then
				break
			fi
		done
	}
	bats_error_trap() {
		bats_check_status_from_trap
		# A later run of the trap (an outer function's status): the
		# first one's trace stands, as in bats, whose DEBUG trap is off
		# from then on.
		[[ -z $BATS_DEBUG_LAST_STACK_TRACE_IS_VALID ]] || return 0
		local IFS=$'\x1e' k=1 n=${#FUNCNAME[@]}
		# The frames of the command that failed, from the innermost
		# one outside bats' files and this folder: the command bats'
		# DEBUG trap would have seen last.
		while ((k < n)); do
			case ${BASH_SOURCE[k]%/*} in
			"$BATS_ROOT"/lib/* | "$BATS_ROOT"/libexec/* | "$_pm_bats_dir") k=$((k + 1)) ;;
			*) break ;;
			esac
		done
		if ((k < n)); then
			local -a l=("${BASH_LINENO[@]:k-1}") f=("${FUNCNAME[0]}" "${FUNCNAME[@]:k}")
			local -a s=("${BASH_SOURCE[0]}" "${BASH_SOURCE[@]:k}")
			_pm_fr="${l[*]}"$'\x1f'"${f[*]}"$'\x1f'"${s[*]}"
		# The test's function itself returned non-zero: as bats, the
		# DEBUG trap's last record, unless that is its run for this
		# trap's own call (the same lines and files).
		elif [[ ${_pm_fr%%$'\x1f'*} == "${BASH_LINENO[*]}" &&
			${_pm_fr##*$'\x1f'} == "${BASH_SOURCE[*]}" ]]; then
			_pm_fr=$_pm_fr_prev
		fi
		_pm_trace "$_pm_fr"
		BATS_DEBUG_LAST_STACK_TRACE_IS_VALID=1
	}
	# bats times each test with two date(1) processes: bash has the clock.
	get_mills_since_epoch() {
		local t=${EPOCHREALTIME/[.,]/}
		printf '%d\n' "$((t / 1000))"
	}
	bats_get_failure_stack_trace() { # VAR
		if [[ -z ${BATS_DEBUG_LAST_STACK_TRACE_IS_VALID:-} ]]; then
			_pm_trace "$_pm_fr_prev"
		fi
		eval "$1"'=(${BATS_DEBUG_LAST_STACK_TRACE[@]+"${BATS_DEBUG_LAST_STACK_TRACE[@]}"})'
	}
fi
