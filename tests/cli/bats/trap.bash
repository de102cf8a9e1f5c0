# shellcheck shell=bash
# Sourced by helpers.bash.  This folder holds the stand-ins for bats 1.8.2's
# own functions, and bats' stack traces leave it out as they leave out
# bats' own files.
# bats 1.8.2 runs its DEBUG trap before every command of a test, and the
# trap builds the command's stack trace each time (a third of a
# millisecond: about a fifth of the CPU time of make check).  With that
# version, and no --trace, the trap below keeps the raw frames (lines,
# functions, files) as one string and the trace is built from them only
# when bats reads it, for a failure: the same trace and the same report.
# source.bats compares the failure reports of both traps.
if [ "${BATS_VERSION:-}" = 1.8.2 ] && [ "${BATS_TRACE_LEVEL:-0}" -eq 0 ] &&
	[ -z "${PMTOOLS_BATS_TRAP:-}" ] && [ "${#BATS_DEBUG_EXCLUDE_PATHS[@]}" -le 2 ]; then
	_pm_fr='' _pm_fr_prev='' _pm_bats_dir=${BASH_SOURCE[0]%/*}
	bats_debug_trap() {
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
		# As bats: when the last record has the lines and files of this
		# trap's own call, it is the DEBUG trap's run for the trap, and
		# the command that failed is the record before.
		local IFS=$'\x1e'
		if [[ ${_pm_fr%%$'\x1f'*} == "${BASH_LINENO[*]}" &&
			${_pm_fr##*$'\x1f'} == "${BASH_SOURCE[*]}" &&
			-z $BATS_DEBUG_LAST_STACK_TRACE_IS_VALID ]]; then
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
