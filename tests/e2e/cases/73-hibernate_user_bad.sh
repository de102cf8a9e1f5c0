#!/bin/sh
# hibernate_user_bad: the damaged images of pmtools' own writer, in three
# boots on one swap disk.  Boot 1 hibernates and loses its power in the
# middle of the write (the host kills QEMU): boot 2 finds no image, a
# usable swap area, and boots fresh.  Boot 2 hibernates whole; the host
# flips one byte of the first data page between the boots: boot 3's
# pm-resume, run by pmtools' initramfs boot script, refuses the image
# naming the block, puts the swap signature back, and the boot goes on.
#@ modules: virtio_pci virtio_blk
#@ initramfs-tools: yes
#@ swap: 256M
#@ boots: 3
#@ timeout: 170
#@ kill: 1 writing the image: +[2-9][0-9]%
#@ flip: 2 4196
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

ln -s /usr/bin/pm-suspend /tmp/pm-resume
load_modules && wait_disk || exit 0
printf 'HIBERNATE_MODE=reboot\n' >/etc/pm/pm-suspend.conf

# hibernate: a marker in tmpfs, the resume device set, and a user-space
# hibernation that does not return (boot 2 or 3 refuses its image); its
# progress on the console, where the host watches for it.
hibernate() {
	echo "e2e-boot-$E2E_BOOT" >/tmp/marker
	cat /sys/block/vda/dev >/sys/power/resume
	echo "E2E hibernating"
	pm-suspend --userspace hibernate 2>/dev/console
	fail "boot $E2E_BOOT: hibernate --userspace" \
		"came back (exit $?): the next boot was to find no image or refuse it"
}

case $E2E_BOOT in
1)
	expect 0 "mkswap /dev/vda" mkswap /dev/vda
	expect 0 "swapon /dev/vda" swapon /dev/vda
	hibernate
	exit 0
	;;
2)
	[ ! -e /tmp/marker ] || fail "boot 2 is a fresh boot" "a marker of boot 1"
	expect 3 "--check after a write cut short: no image, exit 3" \
		/tmp/pm-resume --check /dev/vda --json
	jqall "$OUT" <<'JQ'
--check: no image, the swap area untouched
(.image | not) and (.valid | not) and .bad_block == null
JQ
	expect 0 "pm-resume: no image, the boot goes on" /tmp/pm-resume /dev/vda
	eq "page 0 is still a swap area" \
		"$(dd if=/dev/vda bs=1 skip=4086 count=10 2>/dev/null)" SWAPSPACE2
	expect 0 "swapon /dev/vda: the swap is usable" swapon /dev/vda
	hibernate
	exit 0
	;;
esac

# Boot 3: the host flipped byte 4196, in page 1, the first swap page the
# kernel hands out: the first data page.
[ ! -e /tmp/marker ] || fail "boot 3 is a fresh boot" "a marker of boot 2"
expect 1 "--check after the flip: exit 1" /tmp/pm-resume --check /dev/vda --json
jqall "$OUT" <<'JQ'
--check names the damaged block
.image and (.valid | not) and (.bad_block | type) == "number" and (.error | startswith("block "))
JQ
# pmtools' initramfs boot script, as Debian's /init runs it: its
# pm-resume refuses the image, and the script lets the boot go on.
ln -s /usr/bin/pm-suspend /usr/sbin/pm-resume
expect 0 "the boot script: pm-resume refuses the damaged image, the boot goes on: exit 0" \
	env resume=/dev/vda resume_offset= quiet=n ROOTDELAY= /scripts/local-premount/pmtools-resume
grepf "its warning: pm-resume's one line naming the block, the signature put back" \
	'^Warning: pm-resume: /dev/vda: block [0-9]+ of [0-9]+: .*; the swap signature is put back, booting on$' "$OUT"
grepf "the line kept in /run/initramfs/pmtools-resume.log" \
	'^pm-resume: /dev/vda: block [0-9]+ of [0-9]+: ' /run/initramfs/pmtools-resume.log
dmesg >/tmp/dmesg.txt
grepf "and in the kernel's log" \
	'pmtools-resume: pm-resume: /dev/vda: block [0-9]+ of [0-9]+: ' /tmp/dmesg.txt
eq "page 0 is a swap area again" \
	"$(dd if=/dev/vda bs=1 skip=4086 count=10 2>/dev/null)" SWAPSPACE2
expect 0 "swapon /dev/vda: the swap is usable" swapon /dev/vda
swapoff /dev/vda
expect 0 "pm-resume again: no image, nothing done (never twice)" /tmp/pm-resume /dev/vda
rm /run/initramfs/pmtools-resume.log
expect 0 "the boot script again: no pmtools signature, pm-resume not run" \
	env resume=/dev/vda resume_offset= quiet=n ROOTDELAY= /scripts/local-premount/pmtools-resume
eq "nothing said, no log" "$(cat "$OUT" "$ERR"; ls /run/initramfs/pmtools-resume.log 2>/dev/null)" ""
