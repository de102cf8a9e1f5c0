#!/bin/sh
# wakeup_prep: a wakeup event between pm-suspend's read of
# /sys/power/wakeup_count and its write-back.  A hook sets the RTC alarm
# one second ahead and waits for it to fire while the machine is awake:
# the RTC core holds its wakeup source (00:04) over the alarm's work, and
# releasing it counts one wakeup event.  The kernel must then refuse the
# write-back with EINVAL and pm-suspend must not sleep: exit 1, "wakeup
# event during preparation", the resume hooks run, nothing restored wrong.
# Without the handshake the machine would sleep with no alarm: the host's
# system_wakeup at 20 s is the rescue that turns that into a failure.
#@ timeout: 60
#@ wake: monitor 20
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

ALARM=/sys/class/rtc/rtc0/wakealarm
install_hooks
cat >/etc/pm/sleep.d/30-fire-rtc <<'HOOK'
#!/bin/sh
# Going down only: an RTC alarm that fires while the machine is awake.
[ "$1" = suspend ] || exit 0
echo "before $(cat /sys/power/wakeup_count)" >/tmp/wakeup_count.log
echo 0 >/sys/class/rtc/rtc0/wakealarm
echo +1 >/sys/class/rtc/rtc0/wakealarm
i=0
while [ -n "$(cat /sys/class/rtc/rtc0/wakealarm)" ] && [ "$i" -lt 50 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 0.5
echo "after $(cat /sys/power/wakeup_count)" >>/tmp/wakeup_count.log
exit 0
HOOK
chmod 755 /etc/pm/sleep.d/30-fire-rtc
ok0=$(stat_of success)
fail0=$(stat_of fail)
s3=$(dmesg_count "Waking up from system sleep state S3")
mem0=$(cat /sys/power/mem_sleep)

echo "E2E sleeping"
expect 1 "a wakeup event in a hook: exit 1" pm-suspend deep --json
cp "$OUT" /tmp/report.json
grepf "a wakeup event in a hook: the message says so" \
	'wakeup event during preparation' "$ERR"
show count /tmp/wakeup_count.log
before=$(sed -n 's/^before //p' /tmp/wakeup_count.log)
after=$(sed -n 's/^after //p' /tmp/wakeup_count.log)
if [ -n "$before" ] && [ -n "$after" ] && [ "$after" -gt "$before" ]; then
	pass "the alarm fired in the hook: wakeup_count moved ($before -> $after)"
else
	fail "the alarm fired in the hook: wakeup_count moved" "before '$before', after '$after'"
fi
jqall /tmp/report.json <<'EOF'
a wakeup event in a hook: the report says the leg was not entered
.legs[0].entered == false
a wakeup event in a hook: the report's failure names the wakeup event
(.legs[0].failure // .legs[0].error // "") | test("wakeup event")
a wakeup event in a hook: every hook ran down and up (6 runs)
(.hooks | length) == 6
EOF
hooks_are "a wakeup event in a hook: the recording hooks ran down and up in reverse" \
	"suspend suspend" "resume suspend"
eq "a wakeup event in a hook: the machine did not sleep" \
	"$(dmesg_count "Waking up from system sleep state S3")" "$s3"
eq "a wakeup event in a hook: suspend_stats/success unchanged" "$(stat_of success)" "$ok0"
eq "a wakeup event in a hook: suspend_stats/fail unchanged" "$(stat_of fail)" "$fail0"
eq "a wakeup event in a hook: mem_sleep as before" "$(cat /sys/power/mem_sleep)" "$mem0"
eq "a wakeup event in a hook: wakealarm empty" "$(cat "$ALARM")" ""

# The same run without the hook sleeps: the refusal above was the event's.
rm /etc/pm/sleep.d/30-fire-rtc
rtc_tick
expect 0 "without the event the same command sleeps: exit 0" \
	pm-suspend deep --wake-after 2
eq "without the event: the kernel logged the S3 wake" \
	"$(dmesg_count "Waking up from system sleep state S3")" "$((s3 + 1))"
