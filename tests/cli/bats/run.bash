# shellcheck shell=bash
# Sourced by helpers.bash.
# bats' run forks the test's shell twice for a command (the command
# substitution, then the command), and mktemp once more for
# --separate-stderr.  On the test machines a fork of that shell costs
# about 5 ms of CPU, most of make check's time.  With bats 1.8.2 (whose
# run this follows, flag by flag) and build/spawn.so (tests/tools/spawn.c,
# a bash builtin that runs a program with posix_spawn), run starts an
# external command with no fork of the shell.  A function or a builtin,
# or a program that cannot be started (a script without "#!"), goes the
# way bats runs it.  It goes with trap.bash's DEBUG trap (which leaves this
# folder out of the stack traces as bats' trap leaves out bats' own run):
# PMTOOLS_BATS_TRAP=1 keeps bats' own run too, and PMTOOLS_BATS_RUN=1 only
# bats' run.  source.bats runs tests/fixtures/bats-run.bats all three ways
# and wants the same results.
# shellcheck disable=SC2034,SC2154 # output, lines... are for the tests; $top is helpers.bash's
if [ -n "${_pm_bats_dir:-}" ] && [ -z "${PMTOOLS_BATS_RUN:-}" ] &&
	[ -f "$top/build/spawn.so" ] && enable -f "$top/build/spawn.so" spawn 2>/dev/null; then
	_pm_run_n=0
	# The programs the tests run most from their own shell become
	# spawn.so's builtins of the same names, which run the program
	# without a fork of the shell: each saves about 4 ms a run.  Only
	# those on PATH (command -v still tells whether one is installed);
	# type -P still gives the program's path.
	_pm_ext=()
	for _pm_n in awk basename cat chmod chown cmp comm cp cut diff dirname \
		find grep gzip head jq ln ls mkdir mkfifo mktemp mv promtool \
		readlink rmdir sed seq sort stat tail tar touch tr uniq wc xargs; do
		spawn -q "$_pm_n" && _pm_ext+=("$_pm_n")
	done
	[ ${#_pm_ext[@]} -eq 0 ] || enable -f "$top/build/spawn.so" "${_pm_ext[@]}" 2>/dev/null || true
	unset _pm_n _pm_ext
	# xrun PROGRAM ARG...: run a program (a path) as the shell would,
	# without a fork of it.
	xrun() {
		unset SPAWN_ERRNO
		spawn -- "$@" && return 0
		local rc=$?
		[[ $rc -eq 254 && -n ${SPAWN_ERRNO:-} ]] || return "$rc"
		"$@"
	}
	# xout [-m] VAR PROGRAM ARG...: VAR=$(PROGRAM ARG...) (-m: 2>&1
	# inside), the status the program's, without a fork of the shell.
	xout() {
		local -a _xo_m=()
		[ "$1" != -m ] || { _xo_m=(-m) && shift; }
		unset SPAWN_ERRNO
		spawn -o "$1" "${_xo_m[@]}" -- "${@:2}" && return 0
		local _xo_rc=$?
		[[ $_xo_rc -eq 254 && -n ${SPAWN_ERRNO:-} ]] || return "$_xo_rc"
		_pm_xout "${_xo_m[@]}" "$@"
	}
	run() { # [!|-N] [--keep-empty-lines] [--separate-stderr] [--] COMMAND...
		trap bats_interrupt_trap_in_run INT
		local expected_rc='' keep_empty_lines='' output_case=merged has_flags=''
		while [[ $# -gt 0 ]] && [[ $1 == -* || $1 == '!' ]]; do
			has_flags=1
			case "$1" in
			'!') expected_rc=-1 ;;
			-[0-9]*)
				expected_rc=${1#-}
				if [[ $expected_rc =~ [^0-9] ]]; then
					printf "Usage error: run: '-NNN' requires numeric NNN (got: %s)\n" "$expected_rc" >&2
					return 1
				elif [[ $expected_rc -gt 255 ]]; then
					printf "Usage error: run: '-NNN': NNN must be <= 255 (got: %d)\n" "$expected_rc" >&2
					return 1
				fi
				;;
			--keep-empty-lines) keep_empty_lines=1 ;;
			--separate-stderr) output_case=separate ;;
			--)
				shift
				break
				;;
			*)
				printf "Usage error: unknown flag '%s'" "$1" >&2
				return 1
				;;
			esac
			shift
		done
		if [[ -n $has_flags ]]; then
			bats_warn_minimum_guaranteed_version "Using flags on \`run\`" 1.5.0
		fi
		local bats_run_separate_stderr_file='' pre_command=bats_merge_stdout_and_stderr
		local -a how=(-m)
		if [[ $output_case == separate ]]; then
			bats_run_separate_stderr_file=$BATS_TEST_TMPDIR/separate-stderr-pm$((++_pm_run_n))
			: >"$bats_run_separate_stderr_file"
			pre_command=bats_redirect_stderr_into_file
			how=(-e "$bats_run_separate_stderr_file")
		fi
		[[ -z $keep_empty_lines ]] || how+=(-k)
		local origFlags="$-" started=''
		set +eET
		if spawn -q "$1"; then
			unset SPAWN_ERRNO
			spawn -o output "${how[@]}" -- "$@" && status=0 || status=$?
			[[ $status -eq 254 && -n ${SPAWN_ERRNO:-} ]] || started=1
		fi
		if [[ -z $started ]]; then
			if [[ $keep_empty_lines ]]; then
				output="$(
					"$pre_command" "$@"
					status=$?
					printf .
					exit $status
				)" && status=0 || status=$?
				output="${output%.}"
			else
				output="$("$pre_command" "$@")" && status=0 || status=$?
			fi
		fi
		bats_separate_lines lines output
		if [[ "$output_case" == separate ]]; then
			read -d '' -r stderr <"$bats_run_separate_stderr_file" || true
			bats_separate_lines stderr_lines stderr
		fi
		BATS_RUN_COMMAND="${*}"
		set "-$origFlags"
		if [[ ${BATS_VERBOSE_RUN:-} ]]; then
			printf "%s\n" "$output"
		fi
		if [[ -n "$expected_rc" ]]; then
			if [[ "$expected_rc" = "-1" ]]; then
				if [[ "$status" -eq 0 ]]; then
					BATS_ERROR_SUFFIX=", expected nonzero exit code!"
					return 1
				fi
			elif [ "$status" -ne "$expected_rc" ]; then
				BATS_ERROR_SUFFIX=", expected exit code $expected_rc, got $status"
				return 1
			fi
		elif [[ "$status" -eq 127 ]]; then
			bats_generate_warning 1 "$BATS_RUN_COMMAND"
		fi
		trap bats_interrupt_trap INT
	}
fi
# xout's way with a fork, for a program spawn cannot start.
_pm_xout() { # [-m] VAR PROGRAM ARG...
	local _xo_o _xo_rc=0 _xo_merge=
	[ "$1" != -m ] || { _xo_merge=1 && shift; }
	if [ -n "$_xo_merge" ]; then
		_xo_o=$("${@:2}" 2>&1) || _xo_rc=$?
	else
		_xo_o=$("${@:2}") || _xo_rc=$?
	fi
	printf -v "$1" '%s' "$_xo_o"
	return "$_xo_rc"
}
# Without spawn.so: xrun is the plain call, xout the command substitution.
if ! declare -F xrun >/dev/null; then
	xrun() { "$@"; }
	xout() { _pm_xout "$@"; }
fi
