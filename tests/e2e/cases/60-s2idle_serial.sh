#!/bin/sh
# s2idle_serial: a real suspend-to-idle, woken by the serial port: the
# guest lets ttyS0 wake the system, and the host writes one byte into the
# serial input 3 s after the guest says it is about to sleep.
#@ timeout: 60
#@ wake: serial 3
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

install_hooks
WAKEUP=/sys/class/tty/ttyS0/power/wakeup
echo enabled >"$WAKEUP"
eq "ttyS0 may wake the system" "$(cat "$WAKEUP")" enabled
ok0=$(stat_of success)
entry0=$(dmesg_count "PM: suspend entry (s2idle)")
exit0=$(dmesg_count "PM: suspend exit")
sel0=$(selected /sys/power/mem_sleep)
# With --timings (issue 21): see timings_before.
timings_before
echo "E2E sleeping"
expect 0 "s2idle --timings --json, woken by the serial port: exit 0" \
	pm-suspend s2idle --timings --json
cp "$OUT" /tmp/report.json
timings_after "s2idle --timings"
# What 6.1's kernel/power/suspend.c does for s2idle: the same
# dpm_suspend_start, dpm_suspend_late and dpm_suspend_noirq as S3, then
# s2idle_loop() (where S3 would take the CPUs down), then dpm_resume_noirq,
# dpm_resume_early and dpm_resume_end.  So the same seven device times
# are logged (the "took" lines are not: see 20-s3.sh), and all are
# checked.  "machine_suspend" is per s2idle_enter(), maybe several, and
# has no line in the log.
eq "s2idle --timings: the kernel logged its 7 device times" \
	"$(wc -l </tmp/phases)" 7
eq "s2idle: suspend_stats/success + 1" "$(stat_of success)" "$((ok0 + 1))"
eq "s2idle: the kernel logged 'PM: suspend entry (s2idle)'" \
	"$(dmesg_count "PM: suspend entry (s2idle)")" "$((entry0 + 1))"
eq "s2idle: the kernel logged 'PM: suspend exit'" \
	"$(dmesg_count "PM: suspend exit")" "$((exit0 + 1))"
hooks_are "s2idle: hooks down then up in reverse" \
	"suspend suspend" "resume suspend"
eq "s2idle: mem_sleep back to $sel0" "$(selected /sys/power/mem_sleep)" "$sel0"
note "wake: $(cat /sys/power/pm_wakeup_irq 2>&1), $(grep -E '^ *4:' /proc/interrupts)"
# Timekeeping runs on through suspend-to-idle here, so the report's
# asleep_s (CLOCK_BOOTTIME - CLOCK_MONOTONIC) stays near 0: shown, not checked.
# The host's 3 s run from 'E2E sleeping', before pm-suspend starts: its
# preparation (hooks, writes) is inside them, 1 s of it on a loaded host.
note "report: $(jq -c '.legs[0] | {prepare_s, kernel_s, asleep_s, resume_s, wake, phases_ms: [.timings.phases[] | "\(.name) \(.time_s * 1000)"]}' /tmp/report.json)"
{
	cat /tmp/timings.jq
	cat <<'JQ'
s2idle: the report says mode s2idle, entered, mem_sleep s2idle
.mode == "s2idle" and .legs[0].entered and .legs[0].mem_sleep == "s2idle"
s2idle: pm-suspend waited for the host's wake 3 s after 'E2E sleeping' (prepare_s + kernel_s + asleep_s 2 to 10)
(.legs[0].prepare_s + .legs[0].kernel_s + .legs[0].asleep_s) as $t | $t >= 2 and $t <= 10
s2idle: the wake IRQ is the serial port's (IRQ 4)
.legs[0].wake.irq == 4
JQ
} | jqall /tmp/report.json
