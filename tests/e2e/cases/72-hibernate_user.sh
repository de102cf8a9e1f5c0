#!/bin/sh
# hibernate_user: a real hibernation through pmtools' own image writer
# (pm-suspend hibernate --userspace) to a swap file on an ext2 file
# system on the virtio disk, as laptops have it, and its resume by
# pm-resume, which the second boot runs before anything else through
# pmtools' initramfs-tools boot script (local-premount/pmtools-resume,
# with Debian's scripts/functions, as Debian's /init runs it: resume=
# and resume_offset= exported); the first boot's memory comes back and
# this script carries on.  The swap file's header page is at
# resume_offset on the disk: the image's signature goes there, and the
# file system's own first pages are never written.
#@ modules: virtio_pci virtio_blk crc32c_generic ext4
#@ programs: filefrag
#@ initramfs-tools: yes
#@ swap: 256M
#@ boots: 2
#@ timeout: 200
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

# The disk's last page (outside the file system) carries the swap
# file's page from boot 1 to boot 2, which must not mount anything.
LAST=65535
ln -s /usr/bin/pm-suspend /tmp/pm-resume
load_modules && wait_disk || exit 0

if [ "$E2E_BOOT" -ne 1 ]; then
	# The resuming boot: the boot script finds pmtools' signature at
	# resume_offset on /dev/vda and runs pm-resume --offset, which
	# restores the first boot and does not return; when it does, it
	# refused the image or the kernel did.
	off=$(dd if=/dev/vda bs=4096 skip="$LAST" count=1 2>/dev/null | tr -dc 0-9)
	note "boot $E2E_BOOT: local-premount/pmtools-resume, resume=/dev/vda resume_offset=$off at $(cut -d' ' -f1 /proc/uptime) s"
	ln -s /usr/bin/pm-suspend /usr/sbin/pm-resume
	env resume=/dev/vda resume_offset="$off" quiet=n ROOTDELAY= \
		/scripts/local-premount/pmtools-resume >/tmp/resume.out 2>&1
	rc=$?
	fail "boot $E2E_BOOT: the boot script's pm-resume --offset $off /dev/vda restores the first boot" \
		"it returned $rc: $(cat /tmp/resume.out /run/initramfs/pmtools-resume.log 2>&1 | tr '\n' ' ' | head -c 400)"
	exit 0
fi

# swapfile NAME MIB: a swap file of MIB MiB in /mnt, swapped on, and
# made the resume device at its first page as Debian's filefrag sees
# it (FIEMAP): sets off.
swapfile() {
	expect 0 "a swap file /mnt/$1 of $2 MiB" dd if=/dev/zero of="/mnt/$1" bs=1048576 count="$2"
	chmod 600 "/mnt/$1"
	expect 0 "mkswap /mnt/$1" mkswap "/mnt/$1"
	expect 0 "swapon /mnt/$1" swapon "/mnt/$1"
	off=$(filefrag -v "/mnt/$1" | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4 }')
	note "filefrag: /mnt/$1 starts at page $off of /dev/vda"
	echo "$off" >/sys/power/resume_offset
}

# sig_at PAGE: the last 10 bytes of the disk's page PAGE.
sig_at() {
	dd if=/dev/vda bs=1 skip=$(($1 * 4096 + 4086)) count=10 2>/dev/null
}

printf 'HIBERNATE_MODE=reboot\nHIBERNATE_METHOD=userspace\n' >/etc/pm/pm-suspend.conf
install_hooks
marker="e2e-$(cat /proc/sys/kernel/random/uuid)"
echo "$marker" >/tmp/marker
expect 0 "mke2fs -b 4096 /dev/vda: 64 MiB of the disk" mke2fs -q -b 4096 /dev/vda 65536
mkdir -p /mnt
expect 0 "mount the ext2 file system" mount -t ext4 /dev/vda /mnt
cat /sys/block/vda/dev >/sys/power/resume

# A failure before the power-off, in the real kernel: a swap file of
# 8 MiB has too few pages for the image (--force skips the safety check
# that would refuse it first).  All undone, the system goes on.
swapfile small 8
expect 1 "--userspace with too little swap: exit 1" pm-suspend hibernate --force
grepf "it names the step, the ioctl and ENOSPC" \
	'writing the image to /dev/vda: .*SNAPSHOT_ALLOC_SWAP_PAGE on /dev/snapshot: ENOSPC' "$ERR"
hooks_are "the failed try ran the hooks down and up" \
	"hibernate hibernate" "thaw hibernate"
eq "the marker is intact after the failed try" "$(cat /tmp/marker 2>&1)" "$marker"
eq "the swap file's header page is still a swap area" "$(sig_at "$off")" SWAPSPACE2
swapoff /mnt/small
rm /mnt/small

swapfile swapfile 40
expect 0 "--check: the swap file passes the safety check at filefrag's page" \
	pm-suspend --check hibernate
printf '%s\n' "$off" | dd of=/dev/vda bs=4096 seek="$LAST" conv=notrunc 2>/dev/null
# A process that counts, to go on counting after the resume.
counter_start
read -r t0 _ </proc/uptime
echo "E2E hibernating"
expect 0 "hibernate --userspace (disk = reboot), resumed by pm-resume in a second boot: exit 0" \
	pm-suspend hibernate --json
read -r t1 _ </proc/uptime
cp "$OUT" /tmp/report.json
note "back; pm-suspend took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s of this boot's clock"
dmesg | grep -iE 'hibernat|image|restor|snapshot|freez' | tail -n 12 |
	while IFS= read -r l; do note "dmesg: $l"; done
eq "the tmpfs marker survived" "$(cat /tmp/marker 2>&1)" "$marker"
counter_check "the counting process goes on"
hooks_are "hooks down with 'hibernate hibernate', up with 'thaw hibernate'" \
	"hibernate hibernate" "thaw hibernate"
# The page cache of /dev/vda is the snapshot's: read the disk.
sync
echo 3 >/proc/sys/vm/drop_caches
eq "the swap signature is back at resume_offset (pm-resume put it back before the restore)" \
	"$(sig_at "$off")" SWAPSPACE2
eq "the disk's page 0, the file system's, has no signature" \
	"$(sig_at 0 | tr -d '\0')" ""
note "image: $(jq -c '.legs[0].image' /tmp/report.json)"
jqall /tmp/report.json <<'JQ'
the report: mode hibernate, state disk, disk reboot, entered, no error
.mode == "hibernate" and .legs[0].state == "disk" and .legs[0].disk == "reboot" and .legs[0].entered and .legs[0].error == null
the image is smaller than the kernel's snapshot (ratio under 1), with a write time
.legs[0].image.stored_bytes < .legs[0].image.image_bytes and .legs[0].image.ratio < 1 and .legs[0].image.write_s > 0
JQ
swapoff /mnt/swapfile
