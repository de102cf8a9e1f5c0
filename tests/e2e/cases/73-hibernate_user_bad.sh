#!/bin/sh
# hibernate_user_bad: an image of pmtools' own writer with one byte
# flipped between the boots is refused by pm-resume, run by pmtools'
# initramfs boot script, which names the block, puts the swap signature
# back, and lets the boot go on fresh.
# (The flip is made by the second boot itself, before pm-resume: the
# host has no hook between the boots.)
#@ modules: virtio_pci virtio_blk
#@ initramfs-tools: yes
#@ swap: 256M
#@ boots: 2
#@ timeout: 170
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

ln -s /usr/bin/pm-suspend /tmp/pm-resume
load_modules || exit 0
i=0
while [ ! -b /dev/vda ] && [ "$i" -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
if [ ! -b /dev/vda ]; then
	fail "boot $E2E_BOOT: the virtio disk" "no /dev/vda after 5 s"
	exit 0
fi

if [ "$E2E_BOOT" -eq 1 ]; then
	expect 0 "mkswap /dev/vda" mkswap /dev/vda
	expect 0 "swapon /dev/vda" swapon /dev/vda
	cat /sys/block/vda/dev >/sys/power/resume
	printf 'HIBERNATE_MODE=reboot\n' >/etc/pm/pm-suspend.conf
	echo "E2E hibernating"
	# Does not return: the second boot refuses the image.
	expect 0 "hibernate --userspace" pm-suspend --userspace hibernate
	fail "boot 1: hibernate --userspace" "came back, the second boot was to refuse the image"
	exit 0
fi

[ ! -e /tmp/marker ] || fail "boot 2 is a fresh boot" "a marker of boot 1"
expect 0 "--check: the image is whole before the flip" \
	/tmp/pm-resume --check /dev/vda --json
# Page 1, the first swap page the kernel hands out: the first data page.
off=$((4096 + 100))
b=$(dd if=/dev/vda bs=1 skip="$off" count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
note "flipping byte $off ($b)"
# shellcheck disable=SC2059 # the format is the byte
printf "\\$(printf %03o $((255 - b)))" | dd of=/dev/vda bs=1 seek="$off" conv=notrunc 2>/dev/null
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
