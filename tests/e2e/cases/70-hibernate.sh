#!/bin/sh
# hibernate: a real hibernation to a virtio swap disk with disk = reboot
# (HIBERNATE_MODE=reboot), and its resume: the host boots a second QEMU on
# the same disk, whose init writes the disk to /sys/power/resume; the first
# boot's memory comes back and this script carries on after pm-suspend.
#@ modules: virtio_pci virtio_blk
#@ swap: 256M
#@ boots: 2
#@ timeout: 90
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

load_modules && wait_disk || exit 0

if [ "$E2E_BOOT" -ne 1 ]; then
	# The resuming boot: this write restores the first boot and does not
	# return; when it does, there was no image.
	note "boot $E2E_BOOT: resuming from /dev/vda ($(cat /sys/block/vda/dev))"
	cat /sys/block/vda/dev >/sys/power/resume
	fail "boot $E2E_BOOT: resume from /dev/vda" \
		"the kernel found no image and booted on ($(dmesg | grep -iE 'hibernat|image|resume' | tail -n 3 | tr '\n' ' '))"
	exit 0
fi

expect 0 "mkswap /dev/vda" mkswap /dev/vda
expect 0 "swapon /dev/vda" swapon /dev/vda
cat /sys/block/vda/dev >/sys/power/resume
eq "resume is the swap disk" "$(cat /sys/power/resume)" "$(cat /sys/block/vda/dev)"
printf 'HIBERNATE_MODE=reboot\n' >/etc/pm/pm-suspend.conf
install_hooks
disk0=$(selected /sys/power/disk)
# The restored kernel says so in its own log only with debug messages on.
echo 1 >/sys/power/pm_debug_messages
marker="e2e-$(cat /proc/sys/kernel/random/uuid)"
echo "$marker" >/tmp/marker
expect 0 "--check hibernate with a swap disk as resume device: exit 0" \
	pm-suspend --check hibernate
note "hibernating to /dev/vda, RTC at $(cat /sys/class/rtc/rtc0/since_epoch)"
read -r t0 _ </proc/uptime
echo "E2E hibernating"
expect 0 "hibernate (disk = reboot), then resume in a second boot: exit 0" \
	pm-suspend hibernate --json
read -r t1 _ </proc/uptime
# Beside hibernate_user's, the same measure of pmtools' own writer.
note "back; pm-suspend took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }') s of this boot's clock"
cp "$OUT" /tmp/report.json
note "back, RTC at $(cat /sys/class/rtc/rtc0/since_epoch)"
dmesg | grep -iE 'hibernat|image|restor|snapshot' | tail -n 12 |
	while IFS= read -r l; do note "dmesg: $l"; done
eq "the kernel restored the image ('Hibernation image restored successfully')" \
	"$(dmesg_count "Hibernation image restored successfully")" 1
eq "the tmpfs marker survived" "$(cat /tmp/marker 2>&1)" "$marker"
hooks_are "hooks down with 'hibernate hibernate', up with 'thaw hibernate'" \
	"hibernate hibernate" "thaw hibernate"
eq "disk back to $disk0" "$(selected /sys/power/disk)" "$disk0"
jqall /tmp/report.json <<'JQ'
the report: mode hibernate, state disk, disk reboot, entered
.mode == "hibernate" and .legs[0].state == "disk" and .legs[0].disk == "reboot" and .legs[0].entered
JQ
swapoff /dev/vda
