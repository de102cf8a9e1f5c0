#!/usr/bin/env bats
# shellcheck disable=SC2154,SC2016 # $top, $bin and bats' $output come from helpers.bash and run; sed and grep patterns of $(...) and ${...} are not expanded here
# pmtools' initramfs-tools boot script (scripts/initramfs/pmtools-resume,
# installed as scripts/local-premount/pmtools-resume) in a small initramfs
# root: busybox-static's sh and applets, Debian's own scripts/functions
# and scripts/local and conf/initramfs.conf (initramfs-tools-core, fetched
# by tests/pmutils/fetch, never installed), and a driver that is Debian's
# own /init from its exports to its noresume decision (conf.d, the kernel
# command line from a file in place of /proc/cmdline), then runs the
# script as run_scripts would.  pm-resume is a stub that records its
# arguments and acts a restore or a refusal; blkid a stub of a table
# (resolve_device asks blkid -l -t TAG -o device).  The devices are
# files: plain swap areas made by mkswap, and images written by libpm's
# own writer (build/mksnapimg), whose page 0 the script probes.  Run
# with chroot in a user namespace (unshare -r): nothing of this machine
# is read or written.

# tests/run: not under ASan: its subject is the initramfs-tools shell scripts under Debian's functions; pm-resume is a stub there

load helpers

setup_file() {
	local out
	if ! out=$("$top/tests/pmutils/fetch" initramfs-tools-core 2>&1); then
		echo "# SKIPPED LOUDLY: no Debian initramfs-tools-core here: $out" >&3
		skip "no initramfs-tools-core: $out"
	fi
	export ITC=${out##*$'\n'}
	for t in /bin/busybox mkswap unshare; do
		command -v "$t" >/dev/null || {
			echo "# $t is missing (make deps)" >&3
			return 1
		}
	done
	[ -x "$top/build/mksnapimg" ] ||
		{ echo "# build/mksnapimg is missing: make build/mksnapimg" >&3; return 1; }
	unshare -r true 2>/dev/null ||
		{ echo "# no user namespace (unshare -r) for the chroot" >&3; return 1; }
	# The images: one of libpm's writer, one plain swap area.
	export IMG=$BATS_FILE_TMPDIR/img SWAP=$BATS_FILE_TMPDIR/swap
	"$top/build/mksnapimg" "$IMG" 200 6.1.0-test >/dev/null
	truncate -s 4M "$SWAP"
	mkswap -U 0b9d6a1c-5f1e-4d2a-9c1b-000000000001 "$SWAP" >/dev/null 2>&1
	mkbase "$BATS_FILE_TMPDIR/base"
}

# mkbase DIR: the root every test gets a copy of.
mkbase() {
	local r=$1
	local s=$ITC/usr/share/initramfs-tools a
	mkdir -p "$r"/bin "$r"/sbin "$r"/usr/bin "$r"/usr/sbin "$r"/scripts/local-premount \
		"$r"/conf/conf.d "$r"/sys/power "$r"/dev "$r"/proc "$r"/run "$r"/log
	cp /bin/busybox "$r/bin/busybox"
	for a in $(/bin/busybox --list-full); do
		[ -e "$r/$a" ] || ln -s /bin/busybox "$r/$a"
	done
	cp "$s/scripts/functions" "$s/scripts/local" "$r/scripts/"
	cp "$ITC/etc/initramfs-tools/initramfs.conf" "$r/conf/initramfs.conf"
	cp "$top/scripts/initramfs/pmtools-resume" "$r/scripts/local-premount/"
	echo 0:0 >"$r/sys/power/resume"
	# The driver: Debian's /init from "Export relevant variables" to
	# the line before /run is mounted, then the script.
	{
		echo 'export PATH=/sbin:/usr/sbin:/bin:/usr/bin quiet=n'
		sed -n '/^# Export relevant variables/,/^mount -t tmpfs/p' "$s/init" | sed '$d'
		echo '/scripts/local-premount/pmtools-resume'
		echo 'echo "script: exit $?"'
	} >"$r/init"
	sed -i 's|\$(cat /proc/cmdline)|$(cat /cmdline)|' "$r/init"
	grep -q '^	resume=\${RESUME:-}' "$r/init" || {
		echo "# Debian's init has no resume=\${RESUME:-}" >&3
		return 1
	}
	# pm-resume: records its arguments; /stub says what it does.
	rm -f "$r/sbin/blkid"
	cat >"$r/usr/sbin/pm-resume" <<-'EOF'
		#!/bin/sh
		echo "$*" >>/log/pm-resume
		case $(cat /stub 2>/dev/null) in
		refuse)
			echo "pm-resume: $1: block 1 of 4: checksum mismatch (0x1c2d3e4f, stored 0x5a6b7c8d); the swap signature is put back, booting on" >&2
			exit 1 ;;
		esac
		exit 0
	EOF
	# blkid -l -t TAG -o device: the device of TAG in /blkid.tab.
	cat >"$r/sbin/blkid" <<-'EOF'
		#!/bin/sh
		echo "$*" >>/log/blkid
		[ "$1 $2 $4 $5" = "-l -t -o device" ] || exit 4
		while read -r tag dev; do
			[ "$tag" = "$3" ] && echo "$dev" && exit 0
		done </blkid.tab
		exit 2
	EOF
	chmod 755 "$r/usr/sbin/pm-resume" "$r/sbin/blkid"
	: >"$r/blkid.tab"
	cp "$IMG" "$r/dev/vda2"
	cp "$SWAP" "$r/dev/vdb"
}

setup() {
	load_libs
	r=$BATS_TEST_TMPDIR/root
	cp -a "$BATS_FILE_TMPDIR/base" "$r"
}

# boot CMDLINE: the driver with that kernel command line.
boot() {
	echo "$1" >"$r/cmdline"
	run unshare -r chroot "$r" /bin/busybox env -i /bin/sh /init
}

called() { cat "$r/log/pm-resume" 2>/dev/null; }

@test "resume=/dev/vda2 with a pmtools image: pm-resume /dev/vda2, logged" {
	boot "root=/dev/vda1 ro resume=/dev/vda2"
	assert_success
	[ "$(called)" = /dev/vda2 ] || fail "pm-resume got: $(called)"
	assert_line "script: exit 0"
	assert_output --partial "Begin: Resuming from the pmtools hibernation image on /dev/vda2 ... done."
}

@test "resume=UUID=: resolved by Debian's resolve_device (blkid -t), then pm-resume on the node" {
	echo "UUID=1c0ffee0-0000-4000-8000-00000000beef /dev/vda2" >"$r/blkid.tab"
	boot "root=/dev/vda1 resume=UUID=1c0ffee0-0000-4000-8000-00000000beef"
	assert_success
	[ "$(called)" = /dev/vda2 ] || fail "pm-resume got: $(called)"
	grep -qx -- "-l -t UUID=1c0ffee0-0000-4000-8000-00000000beef -o device" "$r/log/blkid"
}

@test "resume=MAJOR:MINOR: the node named by the device's uevent" {
	mkdir -p "$r/sys/dev/block/254:2"
	printf 'MAJOR=254\nMINOR=2\nDEVNAME=vda2\nDEVTYPE=partition\n' >"$r/sys/dev/block/254:2/uevent"
	boot "resume=254:2"
	assert_success
	[ "$(called)" = /dev/vda2 ] || fail "pm-resume got: $(called)"
}

@test "RESUME=UUID= of conf.d/resume, hidden by the image: the hook's other name of the device" {
	# What a pmtools image does to a real blkid: no type, no UUID.
	run blkid -p "$IMG"
	assert_failure 2
	run blkid -p -s UUID -o value "$SWAP"
	assert_output 0b9d6a1c-5f1e-4d2a-9c1b-000000000001
	echo "RESUME=UUID=0b9d6a1c-5f1e-4d2a-9c1b-000000000001" >"$r/conf/conf.d/resume"
	printf "PMTOOLS_RESUME_SPEC='UUID=0b9d6a1c-5f1e-4d2a-9c1b-000000000001'\nPMTOOLS_RESUME_ALT='PARTUUID=5e7a-02'\n" \
		>"$r/conf/pmtools-resume"
	echo "PARTUUID=5e7a-02 /dev/vda2" >"$r/blkid.tab"
	boot "root=/dev/vda1"
	assert_success
	[ "$(called)" = /dev/vda2 ] || fail "pm-resume got: $(called)"
}

@test "noresume, resume=none, no resume= at all, a resume_offset with no image there: pm-resume is not run" {
	for cmd in "resume=/dev/vda2 noresume" "resume=none" "root=/dev/vda1" \
		"resume=/dev/vda2 resume_offset=34816" "resume=/dev/vda2 resume_offset=x"; do
		boot "$cmd"
		assert_success
		assert_line "script: exit 0"
		[ -z "$(called)" ] || fail "$cmd: pm-resume got: $(called)"
	done
	# conf.d's RESUME with noresume on the command line.
	echo "RESUME=/dev/vda2" >"$r/conf/conf.d/resume"
	boot "noresume"
	[ -z "$(called)" ] || fail "noresume over conf.d: pm-resume got: $(called)"
	boot ""
	[ "$(called)" = /dev/vda2 ] || fail "conf.d's RESUME alone: pm-resume got: $(called)"
}

@test "a swap file: resume_offset is its header's page, where the signature is; pm-resume --offset" {
	"$top/build/mksnapimg" -o 5 "$r/dev/vdc" 20 6.1.0-test >/dev/null
	boot "resume=/dev/vdc resume_offset=5"
	assert_success
	assert_line "script: exit 0"
	[ "$(called)" = "--offset 5 /dev/vdc" ] || fail "pm-resume got: $(called)"
	# Page 0 of the device is the file system's: not looked at.
	: >"$r/log/pm-resume"
	boot "resume=/dev/vda2 resume_offset=5"
	[ -z "$(called)" ] || fail "pm-resume got: $(called)"
}

@test "a plain swap area or the kernel's own image: no pmtools image, pm-resume not run, nothing said" {
	boot "resume=/dev/vdb"
	assert_success
	[ -z "$(called)" ] || fail "pm-resume got: $(called)"
	refute_output --partial pmtools
	# The kernel's image: S1SUSPEND where the swap signature was.
	printf S1SUSPEND | dd of="$r/dev/vdb" bs=1 seek=4086 conv=notrunc status=none
	boot "resume=/dev/vdb"
	[ -z "$(called)" ] || fail "pm-resume got: $(called)"
}

@test "pm-resume refuses the image: its reason is a warning, the boot goes on" {
	echo refuse >"$r/stub"
	boot "resume=/dev/vda2"
	assert_success
	assert_line "script: exit 0"
	[ "$(called)" = /dev/vda2 ]
	assert_line "Warning: pm-resume: /dev/vda2: block 1 of 4: checksum mismatch (0x1c2d3e4f, stored 0x5a6b7c8d); the swap signature is put back, booting on"
	# Kept for the booted system in /run/initramfs.
	grep -q "checksum mismatch" "$r/run/initramfs/pmtools-resume.log"
}

@test "a resume device that does not come: a warning after the wait, no pm-resume, the boot goes on" {
	sed -i 's/^\tslumber=30$/\tslumber=1/' "$r/scripts/local-premount/pmtools-resume"
	grep -q '^	slumber=1$' "$r/scripts/local-premount/pmtools-resume" ||
		fail "the wait's length is not slumber=30 in the script"
	boot "resume=UUID=0b9d6a1c-5f1e-4d2a-9c1b-00000000dead"
	assert_success
	assert_line "script: exit 0"
	assert_output --partial "Warning: pmtools: no resume device UUID=0b9d6a1c-5f1e-4d2a-9c1b-00000000dead after 1 s"
	[ -z "$(called)" ]
}

@test "prereqs: the script and the hook answer as run_scripts and the hooks' ordering ask" {
	run sh "$top/scripts/initramfs/pmtools-resume" prereqs
	assert_success
	assert_output ""
	run sh "$top/scripts/initramfs/hook.in" prereqs
	assert_success
	assert_output resume
	# Debian's sh -n, as set_initlist checks every script.
	sh -n "$top/scripts/initramfs/pmtools-resume"
	sh -n "$top/scripts/initramfs/hook.in"
}

# hook ENV...: the hook (scripts/initramfs/hook.in, as make install
# writes it) in the root with Debian's hook-functions and
# scripts/functions, DESTDIR /dest; /dev/vda2 and /dev/dm-0 are a block
# device of this machine bound there (only looked at: blkid is the stub).
# copy_file needs GNU realpath, readlink, cp and ln, and the hook runs
# under Debian's /bin/sh, dash (mkinitramfs runs on a Debian system, not
# in busybox, whose sh runs its own realpath): this machine's, in /sbin.
hook() {
	local s=$ITC/usr/share/initramfs-tools blk p lib
	blk=$(find /dev -maxdepth 1 -type b | head -n 1)
	[ -n "$blk" ] || skip "no block device node to bind"
	for p in realpath readlink cp ln dash; do
		p=$(type -P "$p")
		cp "$p" "$r/sbin/"
		for lib in $(ldd "$p" | awk '/=> \// { print $3 } /^\t\// { print $1 }'); do
			[ -e "$r$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$r$lib"
		done
	done
	mkdir -p "$r/usr/share/initramfs-tools/scripts" "$r/dest/conf/conf.d" \
		"$r/sys/class/block/dm-0/dm"
	cp "$s/hook-functions" "$r/usr/share/initramfs-tools/"
	cp "$s/scripts/functions" "$r/usr/share/initramfs-tools/scripts/"
	sed 's|@SBINDIR@|/usr/sbin|g' "$top/scripts/initramfs/hook.in" >"$r/hook"
	echo swap-lv >"$r/sys/class/block/dm-0/dm/name"
	: >"$r/dev/dm-0"
	# blkid -p -s PART_ENTRY_UUID -o value DEV: from /partuuid.tab.
	cat >"$r/sbin/blkid" <<-'EOF2'
		#!/bin/sh
		echo "$*" >>/log/blkid
		if [ "$1 $2 $3 $4 $5" = "-p -s PART_ENTRY_UUID -o value" ]; then
			while read -r dev uuid; do
				[ "$dev" = "$6" ] && echo "$uuid" && exit 0
			done </partuuid.tab
			exit 2
		fi
		[ "$1 $2 $4 $5" = "-l -t -o device" ] || exit 4
		while read -r tag dev; do
			[ "$tag" = "$3" ] && echo "$dev" && exit 0
		done </blkid.tab
		exit 2
	EOF2
	: >>"$r/partuuid.tab"
	run unshare -r -m sh -c 'mount --bind "$1" "$2/dev/vda2" && mount --bind "$1" "$2/dev/dm-0" &&
		shift 2 && exec chroot "$0" /bin/busybox env -i PATH=/sbin:/usr/sbin:/bin:/usr/bin \
		DESTDIR=/dest verbose=n "$@" /sbin/dash /hook' "$r" "$blk" "$r" "$@"
}

@test "the hook: pm-resume copied; for RESUME=UUID= the device's PARTUUID, or its device-mapper name, in /conf/pmtools-resume" {
	echo "UUID=0b9d6a1c-5f1e-4d2a-9c1b-000000000001 /dev/vda2" >"$r/blkid.tab"
	echo "/dev/vda2 5e7a0000-02" >"$r/partuuid.tab"
	hook RESUME=UUID=0b9d6a1c-5f1e-4d2a-9c1b-000000000001
	assert_success
	[ -x "$r/dest/usr/sbin/pm-resume" ] || fail "no pm-resume in DESTDIR: $output"
	[ "$(cat "$r/dest/conf/pmtools-resume")" = "$(printf "%s\n" \
		"PMTOOLS_RESUME_SPEC='UUID=0b9d6a1c-5f1e-4d2a-9c1b-000000000001'" \
		"PMTOOLS_RESUME_ALT='PARTUUID=5e7a0000-02'")" ] || fail "$(cat "$r/dest/conf/pmtools-resume")"
	# What the script then reads in the initramfs: the conf file, sourced.
	cp "$r/dest/conf/pmtools-resume" "$r/conf/pmtools-resume"
	echo "PARTUUID=5e7a0000-02 /dev/vda2" >"$r/blkid.tab"
	boot "resume=UUID=0b9d6a1c-5f1e-4d2a-9c1b-000000000001"
	[ "$(called)" = /dev/vda2 ] || fail "pm-resume got: $(called)"
	# Debian's resume hook's own choice (RESUME=auto), a device-mapper
	# swap: its /dev/mapper name; a quote in a label stays one.
	rm -f "$r/dest/conf/pmtools-resume"
	printf '%s\n' "RESUME=LABEL=it\\'s" >"$r/dest/conf/conf.d/zz-resume-auto"
	echo "LABEL=it's /dev/dm-0" >"$r/blkid.tab"
	hook RESUME=auto
	assert_success
	# shellcheck disable=SC1091 # the hook's output
	[ "$(. "$r/dest/conf/pmtools-resume" && echo "$PMTOOLS_RESUME_SPEC|$PMTOOLS_RESUME_ALT")" = "LABEL=it's|/dev/mapper/swap-lv" ] ||
		fail "$(cat "$r/dest/conf/pmtools-resume")"
	# A RESUME by path, or none: nothing to record.
	rm -f "$r/dest/conf/pmtools-resume" "$r/dest/conf/conf.d/zz-resume-auto"
	for spec in /dev/vda2 none ""; do
		hook RESUME="$spec"
		assert_success
		[ ! -e "$r/dest/conf/pmtools-resume" ] || fail "RESUME=$spec: $(cat "$r/dest/conf/pmtools-resume")"
	done
}
