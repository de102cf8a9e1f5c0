#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr come from helpers.bash and run
# pm-resume --check: images written by libpm's own writer (build/mksnapimg)
# into a swap area file below a sysroot, inspected without a change: a
# whole one, one with a flipped byte (its block named), another kernel's,
# a truncated one, a plain swap area, and paths that are no image.

load helpers

setup_file() {
	[ -x "$top/build/mksnapimg" ] ||
		{ echo "# build/mksnapimg is missing: make build/mksnapimg" >&3; return 1; }
}

setup() {
	load_libs
	fx=$BATS_TEST_TMPDIR/fx
	mkdir -p "$fx/proc/sys/kernel" "$fx/dev" "$BATS_TEST_TMPDIR/bin"
	echo 6.1.0-57-amd64 >"$fx/proc/sys/kernel/osrelease"
	ln -s "$bin/pm-suspend" "$BATS_TEST_TMPDIR/bin/pm-resume"
	resume=$BATS_TEST_TMPDIR/bin/pm-resume
}

# flip FILE OFFSET: one byte of FILE inverted.
flip() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059 # the format is the byte
	printf "\\$(printf %03o $((255 - b)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "--check: a whole image, human and JSON; a flipped byte names its block" {
	"$top/build/mksnapimg" "$fx/dev/vda" 3000 6.1.0-57-amd64
	sum=$(sha1sum <"$fx/dev/vda")
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda
	assert_success
	[ -z "$stderr" ]
	assert_line --index 0 "/dev/vda: pmtools hibernation image, version 2"
	assert_line --index 1 "  kernel   6.1.0-57-amd64 (running: 6.1.0-57-amd64)"
	assert_line --index 3 "  image    12288000 bytes, 3000 pages"
	assert_line --regexp '^  stored   [0-9]+ bytes in 47 blocks \([0-9.]+% of the image\)$'
	assert_line --index 5 "  mode     shutdown or reboot"
	assert_line --regexp '^  checked  47 of 47 blocks in [0-9.]+ s: good$'
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda --json
	assert_success
	jq -e '.image and .valid and .resumable and .error == null and
		.bad_block == null and .kernel == "6.1.0-57-amd64" and
		.this_kernel == "6.1.0-57-amd64" and .version == 2 and
		(.platform | not) and
		(.id | test("^[0-9a-f]{32}$")) and .image_bytes == 12288000 and
		.pages == 3000 and .blocks == 47 and .blocks_checked == 47 and
		.stored_bytes < .image_bytes / 2 and
		.ratio == ((.stored_bytes / .image_bytes * 10000 | round) / 10000)' <<<"$output"
	[ "$(sha1sum <"$fx/dev/vda")" = "$sum" ] || fail "--check changed the image"
	# The data pages are pages 1, 2, ... in block order: page 1 is in
	# block 0, the last data page (before two map pages and the header)
	# in block 46.
	flip "$fx/dev/vda" $((4096 + 100))
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda -J
	assert_failure 1
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "pm-resume: /dev/vda: block 0 of 47: checksum mismatch "* ]] || fail "$stderr"
	jq -e '.image and (.valid | not) and (.resumable | not) and
		.bad_block == 0 and .blocks_checked == 0 and
		(.error | startswith("block 0 of 47: "))' <<<"$output"
	flip "$fx/dev/vda" $((4096 + 100))
	pages=$(($(stat -c %s "$fx/dev/vda") / 4096))
	flip "$fx/dev/vda" $(((pages - 4) * 4096 + 5))
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda -q
	assert_failure 1
	[ -z "$stderr" ]
	assert_line --regexp '^  checked  46 of 47 blocks in [0-9.]+ s: block 46 of 47: checksum mismatch'
}

@test "--check refuses: another kernel's, truncated, no image, no path" {
	"$top/build/mksnapimg" "$fx/dev/vda" 40 6.1.0-58-amd64
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda -J
	assert_failure 3
	[ "$stderr" = "pm-resume: /dev/vda: image of kernel 6.1.0-58-amd64, this is 6.1.0-57-amd64" ]
	jq -e '.valid and (.resumable | not) and .blocks_checked == 1' <<<"$output"
	truncate -s $((4096 * 3)) "$fx/dev/vda"
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda
	assert_failure 1
	[[ $stderr == "pm-resume: /dev/vda: "*"(truncated image?)" ]] || fail "$stderr"
	head -c 8192 /dev/zero >"$fx/dev/vdb"
	printf SWAPSPACE2 | dd of="$fx/dev/vdb" bs=1 seek=4086 conv=notrunc status=none
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vdb
	assert_failure 3
	[ "$stderr" = "pm-resume: /dev/vdb: no image: a plain swap signature" ]
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vdc
	assert_failure 3
	[ "$stderr" = "pm-resume: cannot open /dev/vdc: No such file or directory (ENOENT)" ]
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev
	assert_failure 1
	[[ $stderr == *"(ENXIO); a folder, not a block device or a file" ]] || fail "$stderr"
	run --separate-stderr "$resume" --sysroot "$fx" --check dev/vda
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-resume: --check 'dev/vda': an absolute path (/dev/vda2, /var/tmp/image)" ]
	run --separate-stderr "$resume" --sysroot "$fx" --check
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-resume: option '--check' needs a value" ]
	# Without --check, a resume: from the kernel's resume device.
	run --separate-stderr "$resume" --sysroot "$fx"
	assert_failure 3
	[ "$stderr" = "pm-resume: no resume device: /sys/power/resume: No such file or directory (ENOENT)" ]
}

# A hwp-laptop whose resume device (259:3, nvme0n1p3) is a swap area in
# a file, and /dev/snapshot a plain file: every ioctl is ENOTTY.
userfx() {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/sys/dev/block/259:3" "$fx/dev" "$fx/var/log" \
		"$fx/sys/class/block/nvme0n1p3"
	echo 259:3 >"$fx/sys/class/block/nvme0n1p3/dev"
	printf 'MAJOR=259\nMINOR=3\nDEVNAME=nvme0n1p3\nDEVTYPE=partition\n' \
		>"$fx/sys/dev/block/259:3/uevent"
	head -c 65536 /dev/zero >"$fx/dev/nvme0n1p3"
	printf SWAPSPACE2 | dd of="$fx/dev/nvme0n1p3" bs=1 seek=4086 conv=notrunc status=none
	: >"$fx/dev/snapshot"
	# shellcheck disable=SC2016 # expanded by the hook
	printf '#!/bin/sh\necho "10a $1 $2" >>"$PM_SYSROOT/hooks.log"\n' >"$fx/etc/pm/sleep.d/10a"
	chmod 755 "$fx/etc/pm/sleep.d/10a"
}

@test "pm-hibernate --userspace: a refused ioctl is exit 1 naming it, all undone" {
	userfx
	disk=$(<"$fx/sys/power/disk")
	swap=$(sha1sum <"$fx/dev/nvme0n1p3")
	ln -s "$bin/pm-suspend" "$BATS_TEST_TMPDIR/bin/pm-hibernate"
	run --separate-stderr "$BATS_TEST_TMPDIR/bin/pm-hibernate" --sysroot "$fx" --userspace --json
	assert_failure 1
	msg="user-space hibernation: the swap area: SNAPSHOT_SET_SWAP_AREA on /dev/snapshot: Inappropriate ioctl for device (ENOTTY)"
	[[ $stderr == *"$msg"* ]] || fail "$stderr"
	jq -e --arg m "$msg" '.legs[0].error == $m and .legs[0].entered == false and
		.legs[0].image == null' <<<"$output"
	[ "$(<"$fx/hooks.log")" = $'10a hibernate hibernate\n10a thaw hibernate' ]
	[ "$(<"$fx/sys/power/disk")" = "$disk" ]
	[ "$(sha1sum <"$fx/dev/nvme0n1p3")" = "$swap" ]
	# The same through pm-suspend.conf; and --userspace takes hibernation only.
	echo HIBERNATE_METHOD=userspace >"$fx/etc/pm/pm-suspend.conf"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" hibernate
	assert_failure 1
	[[ $stderr == *"$msg"* ]] || fail "$stderr"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" --userspace deep
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-suspend: --userspace writes a hibernation image: it takes hibernate or suspend-then-hibernate, without --test or --diagnose" ]
}

@test "pm-resume: a whole image goes to /dev/snapshot, the signature back first; a bad one is refused" {
	userfx
	dev=$fx/dev/nvme0n1p3
	"$top/build/mksnapimg" "$dev" 200 6.1.0-57-amd64 "$BATS_TEST_TMPDIR/raw"
	echo 6.1.0-57-amd64 >"$fx/proc/sys/kernel/osrelease"
	# /dev/snapshot is a plain file here: it takes the pages, then the
	# first ioctl (SNAPSHOT_FREEZE) is ENOTTY.
	run --separate-stderr "$resume" --sysroot "$fx"
	assert_failure 1
	[ "$stderr" = "pm-resume: /dev/nvme0n1p3: freezing user space: SNAPSHOT_FREEZE on /dev/snapshot: Inappropriate ioctl for device (ENOTTY); the swap signature is put back, booting on" ]
	cmp "$fx/dev/snapshot" "$BATS_TEST_TMPDIR/raw"
	[ "$(dd if="$dev" bs=1 skip=4086 count=10 status=none)" = SWAPSPACE2 ]
	# Never the same image twice: the signature is gone, nothing to do.
	: >"$fx/dev/snapshot"
	run --separate-stderr "$resume" --sysroot "$fx" /dev/nvme0n1p3 -v
	assert_success
	[ "$stderr" = "pm-resume: /dev/nvme0n1p3: no image: a plain swap signature" ]
	[ ! -s "$fx/dev/snapshot" ]
	# A flipped byte in block 1: refused by name, the swap usable again.
	"$top/build/mksnapimg" "$dev" 200 6.1.0-57-amd64
	flip "$dev" $((4096 * 30))
	run --separate-stderr "$resume" --sysroot "$fx"
	assert_failure 1
	[[ $stderr == "pm-resume: /dev/nvme0n1p3: block 1 of 4: checksum mismatch "*"; the swap signature is put back, booting on" ]] || fail "$stderr"
	[ "$(dd if="$dev" bs=1 skip=4086 count=10 status=none)" = SWAPSPACE2 ]
	# Made in the platform mode: restored in it, whose ioctl is refused
	# here before a page goes to the kernel.
	"$top/build/mksnapimg" -p "$dev" 20 6.1.0-57-amd64
	: >"$fx/dev/snapshot"
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/nvme0n1p3 -J
	assert_success
	jq -e '.platform == true and .valid' <<<"$output"
	run --separate-stderr "$resume" --sysroot "$fx"
	assert_failure 1
	[ "$stderr" = "pm-resume: /dev/nvme0n1p3: the platform mode: SNAPSHOT_PLATFORM_SUPPORT on /dev/snapshot: Inappropriate ioctl for device (ENOTTY); the swap signature is put back, booting on" ]
	[ ! -s "$fx/dev/snapshot" ]
	# A swap file: its swap header, and so the signature, at its
	# resume_offset on the device; page 0 is the file system's.
	"$top/build/mksnapimg" -o 16 "$dev" 200 6.1.0-57-amd64 "$BATS_TEST_TMPDIR/raw"
	zero=$(head -c 4096 "$dev" | sha1sum)
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/nvme0n1p3
	assert_failure 3
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/nvme0n1p3 --offset 16 -J
	assert_success
	jq -e '.valid and .pages == 200' <<<"$output"
	echo 16 >"$fx/sys/power/resume_offset"
	: >"$fx/dev/snapshot"
	run --separate-stderr "$resume" --sysroot "$fx"
	assert_failure 1
	[[ $stderr == *"freezing user space: SNAPSHOT_FREEZE on /dev/snapshot: "*"; the swap signature is put back, booting on" ]] || fail "$stderr"
	cmp "$fx/dev/snapshot" "$BATS_TEST_TMPDIR/raw"
	[ "$(dd if="$dev" bs=1 skip=$((16 * 4096 + 4086)) count=10 status=none)" = SWAPSPACE2 ]
	[ "$(head -c 4096 "$dev" | sha1sum)" = "$zero" ] || fail "page 0 was written"
	echo 0 >"$fx/sys/power/resume_offset"
	run --separate-stderr "$resume" --sysroot "$fx" /dev/nvme0n1p3 --offset x
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-resume: --offset 'x': a page number (a swap file's resume_offset)" ]
	# Another kernel's: refused before a page goes to the kernel.
	"$top/build/mksnapimg" "$dev" 20 6.1.0-58-amd64
	: >"$fx/dev/snapshot"
	run --separate-stderr "$resume" --sysroot "$fx"
	assert_failure 1
	[ "$stderr" = "pm-resume: /dev/nvme0n1p3: image of kernel 6.1.0-58-amd64, this is 6.1.0-57-amd64; the swap signature is put back, booting on" ]
	[ ! -s "$fx/dev/snapshot" ]
	# The real root under PM_TEST_GUARD: refused before anything is opened.
	run --separate-stderr "$resume" /dev/pmtools-test-no-such-device
	assert_failure 1
	[[ $stderr == *"PM_TEST_GUARD is set and the system root is the real /"* ]] || fail "$stderr"
}
