#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $status, $output come from helpers.bash and run
# Installed as a distribution installs (make install-data, which builds
# nothing, with Debian 12's folders): every path from the Makefile's
# variables, in the man pages, the completion, the units and the udev
# rule; the units pass systemd-analyze verify with the binaries in
# place; the completion answers to every installed name.  The binaries'
# own paths and the make-then-install order are in tests/pkg (they need
# a build of their own).
# tests/run: not under ASan: it checks what make install puts where

load helpers

# The folders debian/rules gives make.
deb_dirs=(PREFIX=/usr LIBEXECDIR=/usr/libexec/pmtools UNITDIR=/lib/systemd/system
	SLEEPHOOKDIR=/lib/systemd/system-sleep UDEVRULESDIR=/lib/udev/rules.d
	PMUTILS_SLEEPDIR=/usr/lib/pm-utils/sleep.d COMPATCOMPDIR=/etc/bash_completion.d)

setup() {
	load_libs
	d=$BATS_TEST_TMPDIR/dest
}

# data DESTDIR VAR=VALUE...: make install-data into DESTDIR.
data() {
	local dest=$1
	shift
	run make -s -C "$top" install-data DESTDIR="$dest" "$@"
	assert_success
}

@test "install-data with Debian's folders: every file where its variable says, no placeholder left" {
	data "$d" "${deb_dirs[@]}"
	for f in "$top"/data/systemd/*.in; do
		f=${f##*/}
		[ -f "$d/lib/systemd/system/${f%.in}" ] || fail "${f%.in}"
	done
	[ -f "$d/lib/udev/rules.d/85-pmtools.rules" ]
	[ -x "$d/lib/systemd/system-sleep/pmtools-opp" ]
	[ -x "$d/usr/lib/pm-utils/sleep.d/50pmtools-opp" ]
	[ -x "$d/usr/libexec/pmtools/auto-recheck" ]
	[ -x "$d/usr/sbin/pmtools-textfile" ]
	[ -f "$d/usr/share/pmtools/opp.d/balanced.conf" ]
	[ -f "$d/etc/bash_completion.d/pmtools" ]
	# Where initramfs-tools reads them; the hook copies the installed
	# pm-resume.
	[ -x "$d/usr/share/initramfs-tools/hooks/pmtools" ]
	[ -x "$d/usr/share/initramfs-tools/scripts/local-premount/pmtools-resume" ]
	grep -qx 'pmresume=/usr/sbin/pm-resume' "$d/usr/share/initramfs-tools/hooks/pmtools"
	# Nothing is left under /usr/local, and nothing has a placeholder.
	[ ! -e "$d/usr/local" ]
	run grep -rlE '@[A-Z]+@' "$d"
	assert_failure 1
	# The paths the units, the rule and the completion name.
	grep -qx 'ExecStart=/usr/sbin/opp-set --reapply --wait=30' "$d/lib/systemd/system/pmtools-auto.service"
	# The units that may apply a [supply] point can write its record.
	for u in pmtools-auto.service pmtools-auto@.service pmtools-auto-recheck.service; do
		grep -qx 'StateDirectory=pmtools' "$d/lib/systemd/system/$u" || fail "$u: no StateDirectory"
	done
	grep -qx 'ExecStart=/usr/libexec/pmtools/auto-recheck /usr/sbin/opp-set' \
		"$d/lib/systemd/system/pmtools-auto-recheck.service"
	# shellcheck disable=SC2016 # udev's $env{}, not the shell's
	grep -q 'RUN+="/bin/systemctl --no-block start pmtools-auto@$env{SEQNUM}.service"' \
		"$d/lib/udev/rules.d/85-pmtools.rules"
	grep -qx '_pmtools_opp_dirs=(/usr/share/pmtools/opp.d)' "$d/usr/share/bash-completion/completions/pmtools"
	grep -q '^\[ -r /usr/share/bash-completion/completions/pmtools \] || return 0$' "$d/etc/bash_completion.d/pmtools"
	# Another DATADIR and SYSTEMCTL reach the same files.
	data "$BATS_TEST_TMPDIR/o" PREFIX=/opt/pm DATADIR=/srv/pm-data SYSTEMCTL=/usr/bin/systemctl
	grep -qx '_pmtools_opp_dirs=(/srv/pm-data/opp.d)' "$BATS_TEST_TMPDIR/o/opt/pm/share/bash-completion/completions/pmtools"
	grep -q 'RUN+="/usr/bin/systemctl ' "$BATS_TEST_TMPDIR/o/opt/pm/lib/udev/rules.d/85-pmtools.rules"
	[ -f "$BATS_TEST_TMPDIR/o/srv/pm-data/opp.d/balanced.conf" ]
	grep -q '/srv/pm\\-data/opp.d' "$BATS_TEST_TMPDIR/o/opt/pm/share/man/man5/opp.conf.5"
}

@test "the man pages installed with PREFIX=/usr name /usr, not /usr/local" {
	data "$d" "${deb_dirs[@]}"
	# The one /usr/local left is the PATH pm-suspend gives hooks.
	run grep -rn '/usr/local' "$d/usr/share/man"
	[ "${#lines[@]}" -eq 1 ] || fail "$output"
	[[ $output == *'man8/pm-suspend.8:'*'/usr/local/sbin:/usr/local/bin:/usr/sbin'* ]] || fail "$output"
	grep -q '^\.IB /usr/share/pmtools/opp.d/ NAME .conf$' "$d/usr/share/man/man5/opp.conf.5"
	grep -q '^\.I /lib/systemd/system/pmtools\\-auto.service' "$d/usr/share/man/man7/pmtools.7" ||
		grep -q '^\.IR /lib/systemd/system/pmtools\\-auto.service' "$d/usr/share/man/man7/pmtools.7"
	grep -q '/lib/systemd/system\\-sleep/pmtools\\-opp' "$d/usr/share/man/man7/pmtools.7"
	grep -q '/usr/libexec/pmtools/auto\\-recheck' "$d/usr/share/man/man7/pmtools.7"
	grep -q '/lib/udev/rules.d/85\\-pmtools.rules' "$d/usr/share/man/man7/pmtools.7"
	grep -q 'root /usr/bin/cstate\\-stat ' "$d/usr/share/man/man8/cstate-stat.8"
	if command -v mandoc >/dev/null; then
		for m in "$d"/usr/share/man/man*/*; do
			run mandoc -Tlint -W warning "$m"
			[ -z "$output" ] || fail "$m: $output"
		done
	fi
}

@test "the installed units pass systemd-analyze verify with the binaries in place, and say nothing" {
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze"
	local u units=()
	data "$d" "${deb_dirs[@]}"
	install -D -m 0755 "$bin/opp-set" "$d/usr/sbin/opp-set"
	install -D -m 0755 "$bin/pmctl" "$d/usr/bin/pmctl"
	# The targets and units of systemd that ours are ordered against.
	cp -an /lib/systemd/system/. "$d/lib/systemd/system/"
	for u in "$top"/data/systemd/*.in; do
		u=${u##*/}
		u=${u%.in}
		# A template is verified as an instance of it.
		units+=("/lib/systemd/system/${u/@./@42.}")
	done
	run systemd-analyze verify --man=no --root="$d" "${units[@]}"
	assert_success
	[ -z "$output" ] || fail "$output"
	# Each Documentation= page is installed.
	for m in $(sed -n 's/^Documentation=//p' "$d"/lib/systemd/system/pmtools-* | tr ' ' '\n' | sort -u); do
		m=${m#man:}
		s=${m##*(}
		s=${s%)}
		[ -f "$d/usr/share/man/man$s/${m%(*}.$s" ] || fail "Documentation=man:$m is not installed"
	done
	# The check has teeth: a unit whose program is missing fails.
	rm "$d/usr/sbin/opp-set"
	run systemd-analyze verify --man=no --root="$d" /lib/systemd/system/pmtools-auto.service
	assert_failure
	[[ $output == *"/usr/sbin/opp-set is not executable"* ]] || fail "$output"
}

@test "the units: the boot unit and the timer are enabled by [Install], the event and timer services are not" {
	data "$d" "${deb_dirs[@]}"
	s=$d/lib/systemd/system
	grep -qx 'WantedBy=multi-user.target' "$s/pmtools-auto.service"
	grep -qx 'WantedBy=timers.target' "$s/pmtools-auto-recheck.timer"
	grep -qx 'Type=oneshot' "$s/pmtools-auto.service"
	grep -qx 'Type=oneshot' "$s/pmtools-auto@.service"
	# Not RemainAfterExit: every start must run opp-set again.
	run grep -l RemainAfterExit "$s/pmtools-auto.service" "$s/pmtools-auto@.service" "$s/pmtools-auto-recheck.service"
	assert_failure
	for u in pmtools-auto@.service pmtools-auto-recheck.service; do
		run grep -q '^\[Install\]' "$s/$u"
		assert_failure
	done
}

@test "the completion answers to every installed name; COMPATCOMPDIR claims pm-utils' four names" {
	local n
	data "$d" "${deb_dirs[@]}"
	c=$d/usr/share/bash-completion/completions
	# Every name installed in bin and sbin has a completion file.
	# (install-data puts pmtools-textfile in sbin; install-bin the rest.)
	for n in "$d"/usr/sbin/* pmctl cstate-stat opp-set; do
		n=${n##*/}
		case $n in pm-suspend | pm-hibernate | pm-suspend-hybrid | pm-is-supported) continue ;; esac
		[ -e "$c/$n" ] || fail "no completion for $n"
	done
	# bash-completion's own pm-* files are not replaced in its folder.
	for n in pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported; do
		[ ! -e "$c/$n" ] || fail "$c/$n"
	done
	# The compat file, read at bash-completion's start, claims the four
	# names and loads the completion on first use.
	run bash -c '
		complete -F _fake_pm_utils pm-hibernate pm-is-supported
		. "$1/etc/bash_completion.d/pmtools" 2>/dev/null
		complete -p pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported' _ "$d"
	# The test system has no /usr/share/.../pmtools: the file stands aside.
	[[ $output == *"complete -F _fake_pm_utils pm-hibernate"* ]] || fail "$output"
	mkdir -p "$BATS_TEST_TMPDIR/o"
	data "$BATS_TEST_TMPDIR/o" "${deb_dirs[@]}" COMPDIR="$d/usr/share/bash-completion/completions"
	run bash -c '
		. "$1/etc/bash_completion.d/pmtools"
		complete -p pm-hibernate
		COMP_WORDS=(pm-hibernate --wake-a) COMP_CWORD=1 COMP_LINE="pm-hibernate --wake-a" COMP_POINT=21
		_pmtools_pm_utils_names pm-hibernate --wake-a pm-hibernate
		printf "reply %s\n" "${COMPREPLY[@]}"
		complete -p pm-hibernate pm-is-supported pmtools-textfile 2>&1' _ "$BATS_TEST_TMPDIR/o"
	assert_success
	assert_line "complete -F _pmtools_pm_utils_names pm-hibernate"
	assert_line "reply --wake-after"
	assert_line "complete -F _pm_suspend pm-hibernate"
	assert_line "complete -F _pm_suspend pm-is-supported"
	# The rest come from COMPDIR's links, loaded by name.
	run bash -c '. "$1"/pmtools-textfile; complete -p pmtools-textfile pmctl' _ "$c"
	assert_line "complete -d pmtools-textfile"
	assert_line "complete -F _pmctl pmctl"
}

@test "pmtools-recover.service runs pmctl recover at boot, before pmtools-auto.service" {
	data "$d" "${deb_dirs[@]}"
	u=$d/lib/systemd/system/pmtools-recover.service
	grep -qx 'ExecStart=/usr/bin/pmctl recover --wait=30' "$u"
	grep -qx 'Before=pmtools-auto.service' "$u"
	grep -qx 'WantedBy=multi-user.target' "$u"
	# The command the unit runs exists and takes its options.
	run "$bin/pmctl" recover --help
	assert_success
	run "$bin/pmctl" --sysroot "$(fresh hwp-laptop)" recover --wait=30
	assert_success
}
