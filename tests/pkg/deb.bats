#!/usr/bin/env bats
# shellcheck disable=SC2154,SC2016 # $bin, $top, bats' $status, $output from helpers.bash and run; sh -c, udev and dpkg-query text is not expanded here
# pmtools as a distribution ships it, from a copy of this tree:
#   - `make`, then `make install PREFIX=/usr` (the order Debian's tools
#     use): binaries and man pages that name /usr;
#   - `dpkg-buildpackage -us -uc -b` with dpkg-buildflags' flags, lintian
#     on the result, the package's fields and files;
#   - with PMTOOLS_PKG_CHROOT=1 (make check-pkg; root), the .deb installed
#     into a clean Debian 12 chroot (tests/pkg/mkchroot: debootstrap once,
#     then a cached tarball), where no service runs: what dpkg does with
#     pm-utils and the units, each tool run from the chroot with
#     --sysroot against a fixture, udev's own parser and matcher on the
#     rule, bash-completion on every name, remove and purge.  Without it
#     those tests are skipped.  make check-all sets it when run as root
#     (CI): the first debootstrap takes minutes, in the background.
# Needs dpkg-dev, debhelper and lintian; the chroot also debootstrap, zstd
# and root (make deps).  Nothing runs on this machine's /: the tools get
# PM_TEST_GUARD=1 and --sysroot, and every mount is made in a private
# mount namespace.

load ../cli/helpers

setup_file() {
	local t src tools=(dpkg-buildpackage dh lintian)
	[ "${PMTOOLS_PKG_CHROOT:-0}" = 1 ] && tools+=(debootstrap zstd unshare)
	for t in "${tools[@]}"; do
		command -v "$t" >/dev/null || {
			echo "# $t is missing (make deps)" >&3
			return 1
		}
	done
	[ "${PMTOOLS_PKG_CHROOT:-0}" != 1 ] || [ "$(id -u)" -eq 0 ] || {
		echo "# the chroot tests need root (chroot, mounts)" >&3
		return 1
	}
	w=$BATS_FILE_TMPDIR
	export W=$w
	export VERSION
	VERSION=$(sed -n 's/^VERSION *:= *//p' "$top/Makefile")
	src=$w/src/pmtools-$VERSION
	export SRC=$src
	mkdir -p "$src"
	# The tree as git has it, with the work tree's changes: no build/.
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
		cpio -0 -pdm --quiet "$src")
	# The chroot unpacks while the tree builds.
	local chroot_pid=
	if [ "${PMTOOLS_PKG_CHROOT:-0}" = 1 ]; then
		"$top/tests/pkg/mkchroot" "$w/root" >"$w/chroot.log" 2>&1 &
		chroot_pid=$!
	fi
	# make, then make install PREFIX=/usr (at -O1 without debug
	# information: what is tested is the paths, in half the time).
	(cd "$src" && export CFLAGS="-O1 -g0" && make -s -j2 all &&
		make -s install PREFIX=/usr DESTDIR="$w/inst") \
		>"$w/make.log" 2>&1
	echo $? >"$w/make.rc"
	# The package, as on a Debian 12 machine (the unit tests run in CI
	# already: nocheck).
	(cd "$src" && DEB_BUILD_OPTIONS="parallel=2 nocheck" dpkg-buildpackage -us -uc -b) \
		>"$w/deb.log" 2>&1
	echo $? >"$w/deb.rc"
	if [ -n "$chroot_pid" ]; then
		wait "$chroot_pid"
		echo $? >"$w/chroot.rc"
		cp "$w"/src/pmtools_*.deb "$w/root/tmp/" 2>/dev/null || true
	fi
}

setup() {
	load_libs
	w=$W
	c=$w/root
	deb=$(echo "$w"/src/pmtools_"$VERSION"_*.deb)
}

built() { [ "$(cat "$w/deb.rc")" = 0 ] || fail "dpkg-buildpackage failed: $(tail -n 30 "$w/deb.log")"; }
# rooted: the Debian 12 chroot is there; the test is skipped without
# PMTOOLS_PKG_CHROOT=1.
rooted() {
	[ "${PMTOOLS_PKG_CHROOT:-0}" = 1 ] || skip "the Debian 12 chroot: make check-pkg"
	[ "$(cat "$w/chroot.rc")" = 0 ] || fail "no chroot: $(tail -n 20 "$w/chroot.log")"
}

# inroot CMD...: CMD in the chroot, with /proc mounted in a private mount
# namespace (the tools read /proc/self); PM_TEST_GUARD=1 comes along.
inroot() {
	unshare -m -- sh -c 'mount --make-rprivate / && mount -t proc proc "$0/proc" &&
		exec chroot "$0" "$@"' "$c" "$@"
}

# installed: pmtools installed in the chroot (once per file).
installed() {
	rooted
	built
	if [ ! -e "$w/installed" ]; then
		inroot dpkg -i "/tmp/${deb##*/}" >"$w/dpkg-i.log" 2>&1 || fail "dpkg -i: $(cat "$w/dpkg-i.log")"
		touch "$w/installed"
	fi
}

# fx: a fixture inside the chroot, as /tmp/fx-NAME; prints that path.
fx() {
	local name=$1
	if [ ! -d "$c/tmp/fx-$name" ]; then
		cp -a "$(fixture "$name")" "$c/tmp/fx-$name"
	fi
	printf '/tmp/fx-%s\n' "$name"
}

@test "make, then make install PREFIX=/usr: the binaries and the man pages name /usr" {
	[ "$(cat "$w/make.rc")" = 0 ] || fail "$(tail -n 30 "$w/make.log")"
	i=$w/inst
	run "$i/usr/sbin/opp-set" --help
	assert_success
	assert_output --partial "/usr/share/pmtools/opp.d"
	refute_output --partial "/usr/local"
	# No /usr/local in any binary: the stamp made make rebuild them.
	for b in "$i"/usr/bin/pmctl "$i"/usr/bin/cstate-stat "$i"/usr/sbin/pm-suspend "$i"/usr/sbin/opp-set; do
		! grep -q /usr/local/share/pmtools "$b" || fail "$b names /usr/local/share/pmtools"
	done
	run grep -rl '/usr/local/share\|/usr/local/s\?bin/' "$i/usr/share/man"
	assert_failure 1
	[ "$(readlink "$i/usr/bin/pm-is-supported")" = ../sbin/pm-suspend ]
	# Without a PREFIX that differs, make install rebuilds nothing.
	run make -C "$SRC" install PREFIX=/usr DESTDIR="$i"
	assert_success
	refute_output --partial " -c -o "
}

@test "dpkg-buildpackage: the environment's CPPFLAGS, CFLAGS and LDFLAGS reach every compile and link" {
	built
	local n_cc n_fpm n_fort
	n_cc=$(grep -c '^cc .* -c -o build/' "$w/deb.log")
	[ "$n_cc" -gt 40 ] || fail "only $n_cc compiles in the log"
	n_fpm=$(grep '^cc .* -c -o build/' "$w/deb.log" | grep -c -- "-ffile-prefix-map=$SRC=\.")
	[ "$n_fpm" = "$n_cc" ] || fail "-ffile-prefix-map in $n_fpm of $n_cc compiles"
	# _FORTIFY_SOURCE once per line: dpkg's, not ours beside it.
	n_fort=$(grep '^cc .* -c -o build/' "$w/deb.log" | grep -o -- '-D_FORTIFY_SOURCE=[0-9]' | wc -l)
	[ "$n_fort" = "$n_cc" ] || fail "$n_fort -D_FORTIFY_SOURCE for $n_cc compiles"
	grep '^cc .* -c -o build/' "$w/deb.log" | grep -q -- '-DPM_DATADIR=.\"/usr/share/pmtools\".'
	for t in pmctl cstate-stat pm-suspend opp-set; do
		grep -q "^cc -Wl,-z,relro -Wl,-z,now .* -o build/$t " "$w/deb.log" || fail "$t's link line"
	done
	# What they did to the binaries: PIE, full RELRO, the canary and the
	# fortified calls, and no build path in the debug information.
	x=$w/x
	dpkg-deb -x "$deb" "$x"
	for b in "$x"/usr/bin/pmctl "$x"/usr/sbin/opp-set; do
		readelf -h "$b" | grep -q 'Type: *DYN' || fail "$b is not PIE"
		readelf -lW "$b" | grep -q GNU_RELRO || fail "$b: no RELRO"
		readelf -dW "$b" | grep -q 'FLAGS.*BIND_NOW\|FLAGS_1.*NOW' || fail "$b: no BIND_NOW"
		readelf -sW --dyn-syms "$b" | grep -q __stack_chk_fail || fail "$b: no stack protector"
		readelf -sW --dyn-syms "$b" | grep -q '__[a-z]*_chk@' || fail "$b: no fortified call"
	done
	dbg=$(echo "$w"/src/pmtools-dbgsym_"$VERSION"_*.*deb)
	dpkg-deb -x "$dbg" "$w/dbg"
	! grep -rq "$SRC" "$w/dbg" || fail "the build path $SRC is in the debug information"
}

@test "lintian: no error and no warning; every override says why" {
	built
	run lintian --pedantic --display-info --fail-on error,warning "$w"/src/pmtools_"$VERSION"_*.changes
	assert_success
	refute_output --regexp '^[EW]: '
	# An override that no longer matches is reported at info.
	refute_output --partial mismatched-override
	refute_output --partial unused-override
	# Each override line has a comment above it (a block of comment lines
	# for the overrides that follow it).
	awk '/^#/ { c = 1; next } /^$/ { c = 0; next } !c { print "no reason: " $0; bad = 1 } END { exit bad }' \
		"$top/debian/pmtools.lintian-overrides"
}

@test "the package: pm-utils' programs declared (Conflicts, Replaces, Provides); files where Debian 12 puts them" {
	built
	[ "$(dpkg-deb -f "$deb" Conflicts)" = pm-utils ]
	[ "$(dpkg-deb -f "$deb" Replaces)" = pm-utils ]
	[ "$(dpkg-deb -f "$deb" Provides)" = pm-utils ]
	dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|; s|/$||' | sort >"$w/files"
	for f in /lib/systemd/system/pmtools-auto.service /lib/systemd/system/pmtools-auto@.service \
		/lib/systemd/system/pmtools-auto-recheck.timer /lib/systemd/system/pmtools-auto-recheck.service \
		/lib/udev/rules.d/85-pmtools.rules /lib/systemd/system-sleep/pmtools-opp \
		/usr/lib/pm-utils/sleep.d/50pmtools-opp /usr/libexec/pmtools/auto-recheck \
		/usr/share/pmtools/opp.d/balanced.conf /etc/pm/opp.d /etc/bash_completion.d/pmtools \
		/usr/share/bash-completion/completions/pmtools /usr/share/man/man8/pmtools-textfile.8.gz \
		/usr/share/initramfs-tools/hooks/pmtools /usr/share/initramfs-tools/scripts/local-premount/pmtools-resume; do
		grep -qx "$f" "$w/files" || fail "$f is not in the package"
	done
	run grep -c '^/usr/local\|^/usr/lib/systemd/system/' "$w/files"
	[ "$output" = 0 ] || fail "files outside Debian 12's places"
	# /etc/pm/opp.d is empty: the machine's own points.
	run grep '^/etc/pm/opp.d/.' "$w/files"
	assert_failure 1
	# The files pmtools has in common with pm-utils (as Debian 12's
	# pm-utils lists them: installed in the clean chroot, else on this
	# machine by make deps) are its programs, their man pages and the
	# hook folder: hence the fields.
	local list=$c/var/lib/dpkg/info/pm-utils.list
	[ "${PMTOOLS_PKG_CHROOT:-0}" = 1 ] || list=/var/lib/dpkg/info/pm-utils.list
	[ -s "$list" ] || fail "no $list: pm-utils is not installed (make deps)"
	grep -v '/$' "$list" | sort >"$w/pmutils"
	comm -12 "$w/files" "$w/pmutils" | grep -v '^/usr/share/doc\|^/usr/share/man/man8$\|^/usr/lib/pm-utils$\|^/usr/lib/pm-utils/sleep.d$\|^/usr/sbin$\|^/usr/bin$\|^/usr/lib$\|^/usr/share/man$\|^/usr/share$\|^/usr$\|^/etc/pm$\|^/etc$' >"$w/common"
	for f in /usr/sbin/pm-suspend /usr/sbin/pm-hibernate /usr/sbin/pm-suspend-hybrid /usr/bin/pm-is-supported; do
		grep -qx "$f" "$w/common" || fail "$f is not shared with pm-utils: $(cat "$w/common")"
	done
	# The maintainer scripts enable the boot unit and the timer and start
	# only the timer: installing applies no point.
	dpkg-deb -e "$deb" "$w/ctl"
	grep -q "deb-systemd-helper enable 'pmtools-auto.service'" "$w/ctl/postinst" ||
		fail "the boot unit is not enabled: $(cat "$w/ctl/postinst")"
	grep -q "deb-systemd-helper enable 'pmtools-auto-recheck.timer'" "$w/ctl/postinst"
	grep -q "deb-systemd-invoke .*'pmtools-auto-recheck.timer'" "$w/ctl/postinst"
	run grep "deb-systemd-invoke .*pmtools-auto\(@\)\?\.service" "$w/ctl/postinst"
	assert_failure 1
	[ "$(cat "$w/ctl/conffiles")" = /etc/bash_completion.d/pmtools ]
	# The initramfs is rebuilt by initramfs-tools' trigger, not waited for.
	grep -qx 'activate-noawait update-initramfs' "$w/ctl/triggers" ||
		fail "no update-initramfs trigger: $(cat "$w/ctl/triggers" 2>&1)"
}

@test "pm-is-supported from the package on a merged /usr: /bin/pm-is-supported is pm-is-supported" {
	built
	local m=$w/merged f
	f=$(fixture hwp-laptop)
	mkdir -p "$m/usr/bin" "$m/usr/sbin"
	ln -s usr/bin "$m/bin"
	ln -s usr/sbin "$m/sbin"
	dpkg-deb -x "$deb" "$m"
	[ "$(readlink "$m/bin")" = usr/bin ] || fail "dpkg-deb -x replaced the /bin link"
	for p in "$m/bin/pm-is-supported" "$m/usr/bin/pm-is-supported"; do
		run "$p" --sysroot "$f" --suspend
		assert_success
		# pm-is-supported's own options: --suspend is not pm-suspend's.
		run --separate-stderr "$p" --sysroot "$f" --bogus
		assert_failure 2
		[[ ${stderr_lines[0]} == "pm-is-supported: "* ]] || fail "$p: $stderr"
	done
}

@test "dpkg -i in a clean Debian 12 chroot replaces pm-utils, enables the boot unit and the timer, starts and applies nothing" {
	installed
	grep -q "Removing pm-utils" "$w/dpkg-i.log" || fail "$(cat "$w/dpkg-i.log")"
	run inroot dpkg-query -W -f '${Status}' pm-utils
	[[ $output != *"install ok installed"* ]] || fail "pm-utils is still installed"
	run inroot dpkg --audit
	assert_success
	[ -z "$output" ]
	[ -L "$c/etc/systemd/system/multi-user.target.wants/pmtools-auto.service" ]
	[ -L "$c/etc/systemd/system/multi-user.target.wants/pmtools-recover.service" ]
	[ -L "$c/etc/systemd/system/timers.target.wants/pmtools-auto-recheck.timer" ]
	# Started by nothing: no start in the maintainer scripts for the
	# boot unit, and nothing ran here (no /run/pmtools, no point).
	run grep -l 'deb-systemd-invoke.*start.*pmtools-\(auto\|recover\).service' "$c"/var/lib/dpkg/info/pmtools.*
	assert_failure
	[ ! -e "$c/run/pmtools" ]
	[ "$(cat "$c/var/lib/dpkg/info/pmtools.conffiles")" = /etc/bash_completion.d/pmtools ]
	[ -d "$c/etc/pm/opp.d" ]
	run inroot dpkg -V pmtools
	assert_success
}

@test "mkinitramfs in the Debian 12 root: pm-resume with its libraries runs from the initramfs; the boot script is there, before Debian's resume" {
	installed
	# dpkg -i ran initramfs-tools' trigger.
	grep -q "Processing triggers for initramfs-tools" "$w/dpkg-i.log" || fail "$(cat "$w/dpkg-i.log")"
	# The least a kernel version needs for mkinitramfs: its modules
	# folder (empty: no module is copied; depmod makes its indexes) and
	# its config's compression (zstd is only recommended: gzip).
	local k=6.1.0-pmtools-test x=$c/tmp/initrd root
	mkdir -p "$c/lib/modules/$k" "$c/boot"
	for f in modules.order modules.builtin modules.builtin.modinfo; do
		: >"$c/lib/modules/$k/$f"
	done
	printf 'CONFIG_RD_GZIP=y\nCONFIG_RD_ZSTD=y\n' >"$c/boot/config-$k"
	run inroot mkinitramfs -o /tmp/initrd.img "$k"
	assert_success
	run inroot lsinitramfs /tmp/initrd.img
	assert_success
	assert_line usr/sbin/pm-resume
	assert_line usr/sbin/pm-suspend
	assert_line --regexp '^usr/lib/x86_64-linux-gnu/libzstd\.so\.1'
	assert_line scripts/local-premount/pmtools-resume
	assert_line scripts/local-premount/resume
	# run_scripts' order (tsort of the prereqs): pmtools-resume first.
	rm -rf "$x"
	run inroot unmkinitramfs /tmp/initrd.img /tmp/initrd
	assert_success
	root=$x
	[ -d "$x/main" ] && root=$x/main
	run grep -n '^/scripts/local-premount/' "$root/scripts/local-premount/ORDER"
	assert_line --index 0 '1:/scripts/local-premount/pmtools-resume "$@"'
	assert_line --index 1 '3:/scripts/local-premount/resume "$@"'
	[ "$(readlink -f "$root/usr/sbin/pm-resume")" = "$(readlink -f "$root/usr/sbin/pm-suspend")" ]
	# pm-resume runs in the initramfs's own root with the libraries
	# copy_exec put there: a file with no image is named so, exit 3.
	head -c 8192 /dev/zero >"$root/noimage"
	run chroot "$root" /usr/sbin/pm-resume --check /noimage
	[ "$status" -eq 3 ] || fail "exit $status: $output"
	assert_output --partial "no image"
	run chroot "$root" /usr/sbin/pm-resume --version
	assert_success
	# The script passes Debian's own syntax check (set_initlist: sh -n)
	# with the initramfs's sh.
	run chroot "$root" /bin/sh -n /scripts/local-premount/pmtools-resume
	assert_success
	# No resume device of the hook's to record here (no swap in a chroot).
	[ ! -e "$root/conf/pmtools-resume" ]
	# The script in the initramfs's own root (klibc's sh and tools, no
	# busybox: debootstrap installs no Recommends), with its /proc and a
	# /sys/power/resume, as /init exports resume=: on a device whose
	# page 0 ends in pmtools' signature and holds nothing else, the real
	# pm-resume refuses it, and the script warns and exits 0; on a plain
	# swap area it runs nothing and says nothing.
	[ ! -e "$root/bin/busybox" ] && [ ! -e "$root/usr/bin/busybox" ] ||
		echo "# busybox is in the initramfs: the script ran with it" >&3
	mkdir -p "$root/sys/power" "$root/dev" "$root/run" "$root/proc"
	: >"$root/sys/power/resume"
	head -c 65536 /dev/zero >"$root/dev/vda"
	printf PMTOOLSIMG | dd of="$root/dev/vda" bs=1 seek=4086 conv=notrunc status=none
	initrd_script() {
		unshare -m -- sh -c 'mount --make-rprivate / && mount -t proc proc "$0/proc" &&
			exec env -i PATH=/sbin:/usr/sbin:/bin:/usr/bin resume=/dev/vda \
			resume_offset= quiet=n ROOTDELAY= \
			chroot "$0" /bin/sh /scripts/local-premount/pmtools-resume' "$root"
	}
	run initrd_script
	assert_success
	assert_line --partial "Begin: Resuming from the pmtools hibernation image on /dev/vda ... done."
	assert_line --regexp '^Warning: pm-resume: /dev/vda: .*; the swap signature is put back, booting on$'
	[ "$(dd if="$root/dev/vda" bs=1 skip=4086 count=10 status=none)" != PMTOOLSIMG ] ||
		fail "the signature is still there"
	mkswap "$root/dev/vda" >/dev/null 2>&1
	run initrd_script
	assert_success
	[ -z "$output" ] || fail "$output"
}

@test "the installed units pass systemd-analyze verify in the Debian 12 root" {
	command -v systemd-analyze >/dev/null || skip "no systemd-analyze"
	installed
	run systemd-analyze verify --man=no --root="$c" /lib/systemd/system/pmtools-auto.service \
		/lib/systemd/system/pmtools-recover.service \
		/lib/systemd/system/pmtools-auto@7.service /lib/systemd/system/pmtools-auto-recheck.service \
		/lib/systemd/system/pmtools-auto-recheck.timer
	assert_success
	[ -z "$output" ] || fail "$output"
}

@test "each tool runs from the chroot with --sysroot against a fixture" {
	installed
	local f
	f=$(fx hwp-laptop)
	run inroot pmctl --sysroot "$f" status
	assert_success
	assert_output --partial "intel_pstate"
	run inroot pmctl --sysroot "$f" freq -J
	assert_success
	run inroot cstate-stat --sysroot "$f" -J
	assert_success
	assert_output --partial '"cstates"'
	# The examples are the installed ones, in /usr/share/pmtools.
	run inroot opp-set --sysroot "$f" --list -F kv
	assert_success
	assert_line "point0_file='/usr/share/pmtools/opp.d/balanced.conf'"
	assert_line "point0_installed='true'"
	run inroot opp-set --sysroot "$f" performance
	assert_success
	[ "$(cat "$c$f"/sys/devices/system/cpu/cpufreq/policy*/scaling_governor | sort -u)" = performance ]
	run inroot opp-set --sysroot "$f" --current
	assert_success
	assert_line performance
	run inroot pm-suspend --sysroot "$f" -n deep
	assert_success
	assert_output --partial "/sys/power/state = mem"
	run inroot pm-suspend --sysroot "$f" --check deep
	assert_success
	# -n and --force: the fixture's swap is not a resume device.
	run inroot pm-hibernate --sysroot "$f" -n --force
	assert_success
	assert_output --partial "/sys/power/state = disk"
	run inroot pm-suspend-hybrid --sysroot "$f" --check
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "exit $status: $output"
	run inroot pm-is-supported --sysroot "$f" --suspend
	assert_success
	mkdir -p "$c/tmp/prom"
	run inroot env PM_SYSROOT="$f" pmtools-textfile /tmp/prom
	assert_success
	[ -s "$c/tmp/prom/pmtools-status.prom" ] && [ -s "$c/tmp/prom/pmtools-cstate.prom" ]
	# What the timer and systemd-sleep run.
	run inroot env PM_SYSROOT="$f" /usr/libexec/pmtools/auto-recheck /usr/sbin/opp-set
	assert_success
	run inroot env PM_SYSROOT="$f" /lib/systemd/system-sleep/pmtools-opp pre suspend
	assert_success
	[ "$(head -n 1 "$c$f/run/pmtools/opp.sleep")" = performance ]
	run inroot env PM_SYSROOT="$f" /lib/systemd/system-sleep/pmtools-opp post suspend
	assert_success
	[ ! -e "$c$f/run/pmtools/opp.sleep" ]
	# The chroot's own root was not written: there is no /run/pmtools.
	[ ! -e "$c/run/pmtools" ]
}

@test "pm-is-supported on merged /usr: as /bin, /usr/bin and from PATH, it is pm-is-supported" {
	installed
	local f
	f=$(fx hwp-laptop)
	[ "$(readlink "$c/bin")" = usr/bin ] || fail "the chroot's /bin is not merged"
	for p in /bin/pm-is-supported /usr/bin/pm-is-supported; do
		run inroot "$p" --sysroot "$f" --suspend
		assert_success
		# pm-is-supported's own options: --suspend is not pm-suspend's.
		run --separate-stderr inroot "$p" --sysroot "$f" --bogus
		assert_failure 2
		[[ ${stderr_lines[0]} == "pm-is-supported: "* ]] || fail "$p: $stderr"
	done
	for path in /bin /usr/bin /usr/sbin:/usr/bin /usr/local/bin:/usr/bin:/bin; do
		run --separate-stderr inroot env PATH="$path" pm-is-supported --sysroot "$f" --bogus
		[[ ${stderr_lines[0]} == "pm-is-supported: "* ]] || fail "PATH=$path: $stderr"
	done
}

@test "the udev rule, by udev itself (udevadm test in the chroot): a supply's change queues one instance; nothing else does" {
	installed
	# sd-device refuses a /sys that is not sysfs, and this machine has no
	# power supply: the rule is also tested as a copy that matches the
	# subsystem of cpu0 (read-only here), with POWER_SUPPLY_SCOPE and a
	# sequence number (udev will not set SEQNUM) set by earlier rules.
	r=$w/rules
	mkdir -p "$r"
	cp "$c/lib/udev/rules.d/85-pmtools.rules" "$r/"
	sed -e 's/SUBSYSTEM=="power_supply"/SUBSYSTEM=="cpu"/' \
		-e 's/\$env{SEQNUM}/$env{PMT_SEQ}/' "$r/85-pmtools.rules" >"$r/86-cpu.rules"
	utest() { # ACTION SCOPE SYSTEMD
		printf 'ENV{PMT_SEQ}="4242"\n%s\n' "${2:+ENV{POWER_SUPPLY_SCOPE\}=\"$2\"}" >"$r/10-env.rules"
		unshare -m -- sh -c '
			c=$0 r=$1 sd=$2 act=$3
			mount --make-rprivate / &&
			mount --bind /sys "$c/sys" && mount -o remount,bind,ro "$c/sys" &&
			mount -t tmpfs tmpfs "$c/run" && mount -t tmpfs tmpfs "$c/dev" &&
			mount --bind "$r" "$c/usr/lib/udev/rules.d" &&
			mount -t tmpfs tmpfs "$c/etc/udev/rules.d" || exit 99
			[ "$sd" = yes ] && mkdir -p "$c/run/systemd/system"
			exec chroot "$c" udevadm test --action="$act" /devices/system/cpu/cpu0' \
			"$c" "$r" "$3" "$1" 2>&1
	}
	run utest change "" yes
	assert_success
	# The rule file parses: udev says nothing about it but that it read it.
	run grep -v '^Reading rules file' <<<"$output"
	refute_output --partial 85-pmtools.rules
	run utest change "" yes
	assert_line "run: '/bin/systemctl --no-block start pmtools-auto@4242.service'"
	[ "$(grep -c "^run: " <<<"$output")" = 1 ] || fail "$output"
	run utest change System yes
	assert_line "run: '/bin/systemctl --no-block start pmtools-auto@4242.service'"
	for args in "add '' yes" "remove '' yes" "change Device yes" "change '' no"; do
		eval "run utest $args"
		assert_success
		refute_output --partial "run: "
	done
}

@test "bash-completion in the chroot completes every installed name with pmtools' completion" {
	installed
	# A new shell: bash-completion starts, reads /etc/bash_completion.d.
	run inroot bash -c '
		. /usr/share/bash-completion/bash_completion
		complete -p pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported
		COMP_WORDS=(pm-hibernate --wake-a) COMP_CWORD=1 COMP_LINE="pm-hibernate --wake-a" COMP_POINT=21
		_pmtools_pm_utils_names pm-hibernate --wake-a pm-hibernate
		printf "reply %s\n" "${COMPREPLY[@]}"
		complete -p pm-is-supported
		for n in pmctl cstate-stat opp-set pmtools-textfile; do
			__load_completion "$n"
			complete -p "$n"
		done'
	assert_success
	# bash-completion's own pm-utils completion (_pm_action) is not used.
	for n in pm-suspend pm-hibernate pm-suspend-hybrid pm-is-supported; do
		assert_line "complete -F _pmtools_pm_utils_names $n"
	done
	assert_line "reply --wake-after"
	# Once loaded, pmtools' completion answers to them directly.
	assert_line "complete -F _pm_suspend pm-is-supported"
	assert_line "complete -F _pmctl pmctl"
	assert_line "complete -F _cstate_stat cstate-stat"
	assert_line "complete -F _opp_set opp-set"
	assert_line "complete -d pmtools-textfile"
}

@test "remove keeps the machine's points; purge takes the package's files, links and conffile away" {
	installed
	printf '[cpufreq]\ngovernor = powersave\n' >"$c/etc/pm/opp.d/mine.conf"
	run inroot dpkg -r pmtools
	assert_success
	[ -f "$c/etc/pm/opp.d/mine.conf" ]
	[ ! -e "$c/usr/sbin/opp-set" ] && [ ! -e "$c/lib/udev/rules.d/85-pmtools.rules" ]
	run inroot dpkg -P pmtools
	assert_success
	[ -f "$c/etc/pm/opp.d/mine.conf" ]
	[ ! -e "$c/etc/bash_completion.d/pmtools" ]
	[ ! -e "$c/etc/systemd/system/multi-user.target.wants/pmtools-auto.service" ]
	[ ! -e "$c/etc/systemd/system/timers.target.wants/pmtools-auto-recheck.timer" ]
	run inroot dpkg -S pmtools
	assert_failure
	rm -f "$w/installed"
}
