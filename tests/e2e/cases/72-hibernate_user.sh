#!/bin/sh
# hibernate_user: a real hibernation through pmtools' own image writer
# (pm-suspend hibernate --userspace) to a virtio swap disk, and its
# resume by pm-resume, which the second boot runs before anything else
# through pmtools' initramfs-tools boot script (local-premount/
# pmtools-resume, with Debian's scripts/functions, as Debian's /init runs
# it: resume= exported); the first boot's memory comes back and this
# script carries on.
#@ modules: virtio_pci virtio_blk
#@ initramfs-tools: yes
#@ swap: 256M
#@ boots: 2
#@ timeout: 200
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

ln -s /usr/bin/pm-suspend /tmp/pm-resume
load_modules && wait_disk || exit 0

if [ "$E2E_BOOT" -ne 1 ]; then
	# The resuming boot: the boot script finds pmtools' signature on
	# /dev/vda and runs pm-resume, which restores the first boot and does
	# not return; when it does, it refused the image or the kernel did.
	note "boot $E2E_BOOT: local-premount/pmtools-resume, resume=/dev/vda at $(cut -d' ' -f1 /proc/uptime) s"
	ln -s /usr/bin/pm-suspend /usr/sbin/pm-resume
	env resume=/dev/vda resume_offset= quiet=n ROOTDELAY= \
		/scripts/local-premount/pmtools-resume >/tmp/resume.out 2>&1
	rc=$?
	fail "boot $E2E_BOOT: the boot script's pm-resume /dev/vda restores the first boot" \
		"it returned $rc: $(cat /tmp/resume.out /run/initramfs/pmtools-resume.log 2>&1 | tr '\n' ' ' | head -c 400)"
	exit 0
fi

printf 'HIBERNATE_MODE=reboot\nHIBERNATE_METHOD=userspace\n' >/etc/pm/pm-suspend.conf
install_hooks
marker="e2e-$(cat /proc/sys/kernel/random/uuid)"
echo "$marker" >/tmp/marker
cat /sys/block/vda/dev >/sys/power/resume

# A failure before the power-off, in the real kernel: a swap area of
# 8 MiB has too few pages for the image (--force skips the safety check
# that would refuse it first).  All undone, the system goes on.
expect 0 "mkswap /dev/vda 8192 (8 MiB)" mkswap /dev/vda 8192
expect 0 "swapon the small swap" swapon /dev/vda
expect 1 "--userspace with too little swap: exit 1" pm-suspend hibernate --force
grepf "it names the step, the ioctl and ENOSPC" \
	'writing the image to /dev/vda: .*SNAPSHOT_ALLOC_SWAP_PAGE on /dev/snapshot: ENOSPC' "$ERR"
hooks_are "the failed try ran the hooks down and up" \
	"hibernate hibernate" "thaw hibernate"
eq "the marker is intact after the failed try" "$(cat /tmp/marker 2>&1)" "$marker"
eq "page 0 is still a swap area" \
	"$(dd if=/dev/vda bs=1 skip=4086 count=10 2>/dev/null)" SWAPSPACE2
swapoff /dev/vda

expect 0 "mkswap /dev/vda" mkswap /dev/vda
expect 0 "swapon /dev/vda" swapon /dev/vda
# A process that counts, to go on counting after the resume.
(
	n=0
	while :; do
		n=$((n + 1))
		echo "$n" >/tmp/count
		sleep 0.2
	done
) &
counter=$!
sleep 1
c0=$(cat /tmp/count)
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
sleep 1
c1=$(cat /tmp/count)
if kill -0 "$counter" 2>/dev/null && [ "$c1" -gt "$c0" ]; then
	pass "the counting process goes on ($c0 before, $c1 after)"
else
	fail "the counting process goes on" "$c0 before, $c1 after"
fi
kill "$counter"
hooks_are "hooks down with 'hibernate hibernate', up with 'thaw hibernate'" \
	"hibernate hibernate" "thaw hibernate"
# The page cache of /dev/vda is the snapshot's: read the disk.
sync
echo 3 >/proc/sys/vm/drop_caches
eq "the swap signature is back (pm-resume put it back before the restore)" \
	"$(dd if=/dev/vda bs=1 skip=4086 count=10 2>/dev/null)" SWAPSPACE2
note "image: $(jq -c '.legs[0].image' /tmp/report.json)"
jqall /tmp/report.json <<'JQ'
the report: mode hibernate, state disk, disk reboot, entered, no error
.mode == "hibernate" and .legs[0].state == "disk" and .legs[0].disk == "reboot" and .legs[0].entered and .legs[0].error == null
the image is smaller than the kernel's snapshot (ratio under 1), with a write time
.legs[0].image.stored_bytes < .legs[0].image.image_bytes and .legs[0].image.ratio < 1 and .legs[0].image.write_s > 0
JQ
swapoff /dev/vda
