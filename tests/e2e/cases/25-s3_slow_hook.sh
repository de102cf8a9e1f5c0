#!/bin/sh
# s3_slow_hook: --wake-after counts from when the machine goes to sleep, so
# a hook that takes longer than DURATION must not leave the machine with
# no alarm.  The host wakes the guest through the monitor (system_wakeup)
# after 30 s, so that a missing alarm is a failure, not a hang.  The
# alarm is 5 s away, not 2: on a loaded host, TCG takes seconds to
# suspend the devices, and an alarm that fires before the machine is down
# aborts the sleep (EBUSY), as it should.
#@ timeout: 75
#@ wake: monitor 30
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

ALARM=/sys/class/rtc/rtc0/wakealarm
install_hooks
cat >/etc/pm/sleep.d/30-slow <<'HOOK'
#!/bin/sh
# Slower going down than the alarm is far.
[ "$1" = suspend ] && sleep 7
exit 0
HOOK
chmod 755 /etc/pm/sleep.d/30-slow
note "RTC at $(cat /sys/class/rtc/rtc0/since_epoch) before pm-suspend"
echo "E2E sleeping"
expect 0 "a 7 s hook and --wake-after 5: exit 0" \
	pm-suspend deep --wake-after 5 --json
cp "$OUT" /tmp/report.json
note "RTC at $(cat /sys/class/rtc/rtc0/since_epoch) after, wakealarm '$(cat "$ALARM")'"
grep -E 'alarm|hooks' /var/log/pm-suspend.log | while IFS= read -r l; do
	note "pm-suspend.log: $l"
done
jqall /tmp/report.json <<'EOF'
a 7 s hook and --wake-after 5: the RTC alarm woke the machine (asleep_s < 15, not the host's rescue at 30 s)
.legs[0].asleep_s < 15
a 7 s hook and --wake-after 5: the RTC (00:04) is among the wakeup sources that moved
any(.legs[0].wake.sources[]; .name == "00:04")
EOF
eq "a 7 s hook: wakealarm is empty afterwards" "$(cat "$ALARM")" ""
