#!/bin/sh
# hibernate_user_eio: the disk fails a write of the image.  The host's
# QEMU puts blkdebug under the virtio disk, which fails with EIO every
# write that covers sector 8: page 1 of the swap area, the first swap
# page the kernel hands out, so the first data page of the image.  The
# write reaches the page cache; the kernel reports the device's error
# at the fsync that must come before the signature: pm-suspend frees
# the swap pages and the snapshot, thaws, runs the hooks up and exits 1
# naming the step and EIO; the signature never reaches the disk, the
# marker and a counting process go on, the swap area is usable.
#@ modules: virtio_pci virtio_blk
#@ swap: 64M
#@ write-error: 8
#@ timeout: 150
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

ln -s /usr/bin/pm-suspend /tmp/pm-resume
load_modules && wait_disk || exit 0
printf 'HIBERNATE_MODE=reboot\nHIBERNATE_METHOD=userspace\n' >/etc/pm/pm-suspend.conf
install_hooks
marker="e2e-$(cat /proc/sys/kernel/random/uuid)"
echo "$marker" >/tmp/marker
expect 0 "mkswap /dev/vda (page 0 only: the failing sector is not in it)" mkswap /dev/vda
expect 0 "swapon /dev/vda" swapon /dev/vda
cat /sys/block/vda/dev >/sys/power/resume
counter_start
used0=$(awk '$1 == "/dev/vda" { print $4 }' /proc/swaps)
d0=$(dmesg_count 'I/O error, dev vda')
r0=$(dmesg_count 'Restarting tasks')

expect 1 "hibernate --userspace onto a disk that fails the image's write: exit 1" \
	pm-suspend hibernate --json
cp "$OUT" /tmp/report.json
show stderr "$ERR"
grepf "stderr names the step, the fsync before the signature and EIO" \
	'writing the image to /dev/vda: the image before its signature: fsync: Input/output error \(EIO\)' "$ERR"
jqall /tmp/report.json <<'JQ'
the report: hibernate, not entered, the error with its errno
.mode == "hibernate" and (.legs[0].entered | not) and (.legs[0].error | test("writing the image to /dev/vda: .*EIO"))
JQ
dmesg >/tmp/dmesg.txt
grepf "the kernel's own line: the write error at sector 8 of vda" \
	'I/O error, dev vda, sector 8 op 0x1:\(WRITE\)' /tmp/dmesg.txt
d1=$(dmesg_count 'I/O error, dev vda')
note "the kernel logged $((d1 - d0)) I/O errors of vda"
eq "and the kernel's thaw: one more 'Restarting tasks'" \
	"$(dmesg_count 'Restarting tasks')" "$((r0 + 1))"
hooks_are "the failed try ran the hooks down and up" \
	"hibernate hibernate" "thaw hibernate"
eq "the marker is intact" "$(cat /tmp/marker 2>&1)" "$marker"
counter_check "the counting process goes on"
# What is on the disk, not in the page cache.
sync
echo 3 >/proc/sys/vm/drop_caches
eq "page 0 is still a swap area: no signature reached the disk" \
	"$(dd if=/dev/vda bs=1 skip=4086 count=10 2>/dev/null)" SWAPSPACE2
expect 3 "pm-resume --check: no image on the disk, exit 3" \
	/tmp/pm-resume --check /dev/vda
grepf "the swap area is in use, as before" '^/dev/vda ' /proc/swaps
# The kernel counts the pages it handed out for the image as used swap
# until they are given back (SNAPSHOT_FREE_SWAP_PAGES, or the close of
# /dev/snapshot).
eq "its swap pages given back: used KiB as before the try" \
	"$(awk '$1 == "/dev/vda" { print $4 }' /proc/swaps)" "$used0"
expect 0 "swapoff /dev/vda" swapoff /dev/vda
expect 0 "swapon /dev/vda: the swap area is usable" swapon /dev/vda
swapoff /dev/vda
