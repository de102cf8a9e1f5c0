#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top come from helpers.bash
# The documents stay true to the binaries: every option a tool's --help
# lists (pmctl: every subcommand's too) is in its man page, every option
# the man page's OPTIONS section defines is in --help; the man pages are
# lint-clean; make install puts exactly the documented files in DESTDIR
# and make uninstall removes exactly those.
# tests/run: not under ASan: it compares documents with --help

load helpers

setup() {
	load_libs
}

help_opts() { # TOOL: the options --help names
	local t=$1 s
	{
		"$bin/$t" --help
		if [ "$t" = pmctl ]; then
			for s in status freq "freq set" boost idle cpu smt latency device "device set" supply \
				"supply set" thermal profile devfreq "devfreq set" domains powercap sleep dump; do
				# shellcheck disable=SC2086 # a subcommand of two words
				"$bin/pmctl" $s --help 2>/dev/null || true
			done
		fi
	} | grep -oE '(^|[][ ,|=(])--?[a-zA-Z][a-zA-Z0-9-]*' | sed -E 's/^[][ ,|=(]//' | sort -u
}
man_text() { sed -E 's/\\-/-/g; s/\\f[BIRP]//g; s/\\&//g' "$1"; }
# The options the OPTIONS section defines: the item line after each .TP.
man_defined() {
	man_text "$1" | awk '/^\.SH/ { on = ($2 ~ /OPTIONS/) } on && item { print } { item = on && /^\.TP/ }' |
		grep -oE '(^|[ "])--?[a-zA-Z][a-zA-Z0-9-]*' | sed -E 's/^[ "]//' | sort -u
}

@test "every --help option is in the man page, and every option the man page defines is in --help" {
	for t in pmctl pm-suspend opp-set cstate-stat; do
		m=$top/man/$t.8
		[ -f "$m" ] || fail "no $m"
		h=$(help_opts "$t")
		[ "$(wc -l <<<"$h")" -ge 8 ] || fail "$t: only $(wc -l <<<"$h") options found in --help"
		# The page's text once; grep's line anchors are the newlines
		# around a line, which [^a-zA-Z0-9-] matches here.
		mt=$(man_text "$m")
		for o in $h; do
			re="(^|[^a-zA-Z0-9-])$o([^a-zA-Z0-9-]|$)"
			[[ $mt =~ $re ]] || fail "$t: $o is not in $m"
		done
		d=$(man_defined "$m")
		[ -n "$d" ] || fail "$t: no option defined in OPTIONS"
		extra=$(comm -13 <(printf '%s\n' "$h") <(printf '%s\n' "$d"))
		[ -z "$extra" ] || fail "$t: the man page defines what --help does not name: $extra"
	done
}

@test "pm-suspend's config keys are the ones pm-suspend.conf(5) documents" {
	for k in HOOK_TIMEOUT HIBERNATE_MODE HIBERNATE_DELAY SYSTEMD_SLEEP_HOOKS RTC HOOK_BLACKLIST \
		SUSPEND_MODULES TEMPORARY_CPUFREQ_GOVERNOR HIBERNATE_METHOD; do
		man_text "$top/man/pm-suspend.conf.5" | grep -q "\b$k\b" || fail "$k is not in pm-suspend.conf.5"
	done
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm"
	echo "NO_SUCH_KEY=1" >"$fx/etc/pm/pm-suspend.conf"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" -n
	assert_failure 2
	known=$(sed -n 's/.*(known: \(.*\))$/\1/p' <<<"${stderr_lines[0]}" | tr -d ,)
	[ "$known" = "HOOK_TIMEOUT HIBERNATE_MODE HIBERNATE_DELAY SYSTEMD_SLEEP_HOOKS RTC HOOK_BLACKLIST SUSPEND_MODULES TEMPORARY_CPUFREQ_GOVERNOR HIBERNATE_METHOD" ] || fail "$known"
}

@test "the man pages are mandoc -Tlint clean" {
	command -v mandoc >/dev/null || skip "no mandoc"
	for m in "$top"/man/*.[578]; do
		run mandoc -Tlint -W warning "$m"
		[ -z "$output" ] || fail "$m: $output"
	done
}

@test "make install puts the tools, links, man pages, examples and units in DESTDIR; uninstall removes exactly them" {
	d=$BATS_TEST_TMPDIR/dest
	# The PREFIX the tests' binaries were built with: another one would
	# rebuild build/ under the running tests (tests/pkg installs with
	# PREFIX=/usr from a copy of the tree).
	p=/usr/local
	run make -s -C "$top" install DESTDIR="$d"
	assert_success
	[ -x "$d$p/bin/pmctl" ] && [ -x "$d$p/bin/cstate-stat" ]
	[ -x "$d$p/sbin/pm-suspend" ] && [ -x "$d$p/sbin/opp-set" ]
	for n in pm-hibernate pm-suspend-hybrid pm-resume; do
		[ "$(readlink "$d$p/sbin/$n")" = pm-suspend ] || fail "$n"
	done
	[ "$(readlink "$d$p/bin/pm-is-supported")" = ../sbin/pm-suspend ]
	for m in "$top"/man/*.[578]; do
		s=${m##*.}
		[ -f "$d$p/share/man/man$s/${m##*/}" ] || fail "${m##*/} not installed"
	done
	for n in pm-hibernate pm-suspend-hybrid pm-is-supported pm-resume; do
		[ "$(readlink "$d$p/share/man/man8/$n.8")" = pm-suspend.8 ] || fail "$n.8"
	done
	for f in "$top"/data/opp.d/*.conf; do
		[ -f "$d$p/share/pmtools/opp.d/${f##*/}" ] || fail "${f##*/}"
	done
	for f in acpid/events/pmtools-lid acpid/actions/lid.sh acpid/actions/handler.sh sleep.d/50pmtools-opp cron/pmtools.cron pm-functions; do
		[ -f "$d$p/share/pmtools/$f" ] || fail "$f not installed"
	done
	[ -x "$d$p/sbin/pmtools-textfile" ]
	for f in "$top"/data/systemd/*.in; do
		f=${f##*/}
		[ -f "$d$p/lib/systemd/system/${f%.in}" ] || fail "${f%.in} not installed"
	done
	[ -f "$d$p/lib/udev/rules.d/85-pmtools.rules" ]
	# Devices plugged in: the installed opp-set, run directly on bind.
	grep -q '^ACTION=="bind", .*RUN+="'"$p"'/sbin/opp-set --reapply --device /sys%p ' "$d$p/lib/udev/rules.d/85-pmtools.rules"
	if grep -nE '@[A-Z_]+@' "$d$p/lib/udev/rules.d/85-pmtools.rules"; then fail "@NAME@ left"; fi
	[ -x "$d$p/lib/systemd/system-sleep/pmtools-opp" ]
	[ -x "$d$p/libexec/pmtools/auto-recheck" ]
	[ -x "$d$p/share/initramfs-tools/scripts/local-premount/pmtools-resume" ]
	grep -qx "pmresume=$p/sbin/pm-resume" "$d$p/share/initramfs-tools/hooks/pmtools"
	# Completion for every installed name (COMPATCOMPDIR unset: links).
	[ -f "$d$p/share/bash-completion/completions/pmtools" ]
	for n in pmctl opp-set cstate-stat pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported pmtools-textfile pm-resume; do
		[ "$(readlink "$d$p/share/bash-completion/completions/$n")" = pmtools ] || fail "completion $n"
	done
	# Nothing under /etc: examples go to share, configuration is the admin's.
	[ ! -e "$d/etc" ]
	# The installed pm-is-supported works by its name.
	run "$d$p/bin/pm-is-supported" --sysroot "$(fixture laptop2006)" --suspend
	assert_success
	run make -s -C "$top" uninstall DESTDIR="$d"
	assert_success
	left=$(find "$d" ! -type d)
	[ -z "$left" ] || fail "left after uninstall: $left"
}
