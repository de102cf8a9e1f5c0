# shellcheck shell=bash
# BASH_ENV of the bats pool (tests/run): every bash that starts reads it
# first.  In bats' own processes (bats-exec-file, and bats-exec-test,
# which runs one test), mkdir and rm become bash's loadable builtins
# (Debian's bash-builtins): bats makes and removes each test's folders
# with them, a fork and an exec each time otherwise.  rm stays for the
# tests, whose rm -r and -f mean the same; helpers.bash unloads mkdir,
# whose -m leaves the mode to the umask as mkdir(1)'s does not.
# A test's own process drops BASH_ENV, so that nothing it runs sees it.
case $0 in
*/bats-exec-file | */bats-exec-test)
	for _pm_b in mkdir rm; do
		[ -f "/usr/lib/bash/$_pm_b" ] && enable -f "/usr/lib/bash/$_pm_b" "$_pm_b" 2>/dev/null
	done
	unset _pm_b
	case $0 in
	*/bats-exec-test)
		unset BASH_ENV
		# bats times each test with $(date +%s%N): the same number
		# from bash's clock, without date's process (669 a run).
		date() {
			if [ "$#" = 1 ] && [ "$1" = +%s%N ]; then
				printf '%s000\n' "${EPOCHREALTIME//[.,]/}"
			else
				command date "$@"
			fi
		}
		;;
	esac
	;;
esac
