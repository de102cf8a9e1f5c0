#!/bin/sh
# suspend_then_hibernate: a real S3 leg woken by pm-suspend's own RTC alarm
# after --hibernate-delay, then the hibernate leg to a virtio swap disk
# (disk = reboot), resumed by a second QEMU boot on the same disk.
#@ modules: virtio_pci virtio_blk
#@ swap: 256M
#@ boots: 2
#@ timeout: 120
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

load_modules && wait_disk || exit 0
if [ "$E2E_BOOT" -ne 1 ]; then
	note "boot $E2E_BOOT: resuming from /dev/vda ($(cat /sys/block/vda/dev))"
	cat /sys/block/vda/dev >/sys/power/resume
	fail "boot $E2E_BOOT: resume from /dev/vda" \
		"the kernel found no image and booted on ($(dmesg | grep -iE 'hibernat|image|resume' | tail -n 3 | tr '\n' ' '))"
	exit 0
fi

mkswap /dev/vda >/dev/null && swapon /dev/vda
cat /sys/block/vda/dev >/sys/power/resume
printf 'HIBERNATE_MODE=reboot\n' >/etc/pm/pm-suspend.conf
install_hooks
echo 1 >/sys/power/pm_debug_messages
S3_LOG="Waking up from system sleep state S3"
woke0=$(dmesg_count "$S3_LOG")
marker="e2e-$(cat /proc/sys/kernel/random/uuid)"
echo "$marker" >/tmp/marker
expect 0 "--check suspend-then-hibernate: exit 0" pm-suspend --check suspend-then-hibernate
rtc_tick
expect 0 "suspend-then-hibernate --hibernate-delay 5: exit 0" \
	pm-suspend suspend-then-hibernate --hibernate-delay 5 --json
cp "$OUT" /tmp/report.json
dmesg | grep -iE 'hibernat|restor|Waking up|suspend entry' | tail -n 12 |
	while IFS= read -r l; do note "dmesg: $l"; done
note "report: $(jq -c '[.legs[] | {mode, state, mem_sleep, disk, entered, asleep_s, alarm, alarm_woke}]' /tmp/report.json)"
eq "the S3 leg: the kernel woke from S3 once" "$(dmesg_count "$S3_LOG")" "$((woke0 + 1))"
eq "the hibernate leg: the kernel restored the image" \
	"$(dmesg_count "Hibernation image restored successfully")" 1
eq "the tmpfs marker survived" "$(cat /tmp/marker 2>&1)" "$marker"
eq "the hooks: each leg down and up" "$(tr '\n' ',' <"$HOOKLOG")" \
	"10-rec-a suspend suspend,20-rec-b suspend suspend,20-rec-b resume suspend,10-rec-a resume suspend,10-rec-a hibernate hibernate,20-rec-b hibernate hibernate,20-rec-b thaw hibernate,10-rec-a thaw hibernate,"
eq "wakealarm is empty afterwards" "$(cat /sys/class/rtc/rtc0/wakealarm)" ""
jqall /tmp/report.json <<'JQ'
the report: two legs, suspend then hibernate, both entered
[.legs[] | [.state, .entered]] == [["mem", true], ["disk", true]] and .legs[1].disk == "reboot"
the report: the first leg was woken by its alarm
.legs[0].alarm_woke == true
the report: the first leg slept about the 5 s delay less the hooks and the kernel's way down, 2.25 s of it on a loaded host (1 to 8)
.legs[0].asleep_s >= 1 and .legs[0].asleep_s <= 8
JQ
swapoff /dev/vda
