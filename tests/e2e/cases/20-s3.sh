#!/bin/sh
# s3: a real suspend to RAM (ACPI S3) woken by the RTC alarm that
# pm-suspend sets, with its JSON report; then a few cycles in a row (3,
# E2E_S3_CYCLES; the long runs are soak_s3's, by hand).
#@ params: s3_cycles=3
#@ timeout: 120 + 8 * s3_cycles
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

CYCLES=$(param s3_cycles 3)
ALARM=/sys/class/rtc/rtc0/wakealarm
S3_LOG="Waking up from system sleep state S3"

install_hooks
note "rtc0: $(cat /sys/class/rtc/rtc0/name), wakeup $(cat /sys/class/rtc/rtc0/device/power/wakeup 2>/dev/null)"
ok0=$(stat_of success)
woke0=$(dmesg_count "$S3_LOG")
# This cycle also runs with --timings (issue 21): see timings_before.
timings_before
# The RTC counts whole seconds and pm-suspend adds DURATION to the second
# it reads: start on a tick, so that the alarm is 5 s away, not 4 to 5.
# (A CI run's way down took 2.25 s of a 3 s alarm: an alarm that passes
# before the machine is down never wakes it.)
rtc_tick
expect 0 "deep --wake-after 5 --timings --json: exit 0" \
	pm-suspend deep --wake-after 5 --timings --json
cp "$OUT" /tmp/report.json
timings_after "deep --timings"
# An S3 cycle of Debian's 6.1 logs seven device times: start suspend,
# suspend, late suspend, noirq suspend, noirq resume, early resume and
# resume.  Its "PM: suspend devices took" and "resume devices took" need
# CONFIG_PM_TEST_SUSPEND, which Debian leaves out: "start suspend" is the
# first one's time (dpm_suspend_start), the second's (dpm_resume_end) is
# not logged.
eq "deep --timings: the kernel logged its 7 device times" \
	"$(wc -l </tmp/phases)" 7
note "the report's phases (ms): $(jq -r '[.legs[0].timings.phases[] | "\(.name) \(.time_s * 1000)"] | join(", ")' /tmp/report.json)"
{
	cat /tmp/timings.jq
	cat <<'EOF'
deep: the report is one JSON document of mode deep
.mode == "deep" and (.legs | length) == 1
deep: legs[0].entered
.legs[0].entered == true
deep: legs[0].asleep_s over 0 and at most 8 (the alarm is 5 s after it is set; a loaded host's way down takes part of it, in a CI run 2.25 s)
.legs[0].asleep_s > 0 and .legs[0].asleep_s <= 8
deep: legs[0].alarm is the alarm set
.legs[0].alarm | type == "number"
deep: the RTC (00:04) is among the wakeup sources that moved
any(.legs[0].wake.sources[]; .name == "00:04")
deep: the report lists the 4 hook runs, each exit 0
[.hooks[] | select(.status == 0)] | length == 4
EOF
} | jqall /tmp/report.json
hooks_are "deep: hooks down then up in reverse" \
	"suspend suspend" "resume suspend"
eq "deep: suspend_stats/success + 1" "$(stat_of success)" "$((ok0 + 1))"
eq "deep: the kernel logged '$S3_LOG'" "$(dmesg_count "$S3_LOG")" "$((woke0 + 1))"
eq "deep: wakealarm is empty afterwards" "$(cat "$ALARM")" ""
eq "deep: mem_sleep still deep" "$(selected /sys/power/mem_sleep)" deep

# An alarm that is already set: exit 4, and the alarm is left alone.
echo +600 >"$ALARM"
set0=$(cat "$ALARM")
expect 4 "an RTC alarm already set: exit 4" pm-suspend deep --wake-after 2
eq "an RTC alarm already set: the alarm is left as it was" "$(cat "$ALARM")" "$set0"
eq "an RTC alarm already set: no hook ran" "$(wc -c <"$HOOKLOG")" 0
echo 0 >"$ALARM"

ok0=$(stat_of success)
fail0=$(stat_of fail)
woke0=$(dmesg_count "$S3_LOG")
bad=0
i=1
while [ "$i" -le "$CYCLES" ]; do
	# On a tick: the alarm is 4 s away, never less, so it cannot fire
	# before the kernel is down even on a loaded host (2.25 s seen).
	rtc_tick
	run pm-suspend deep --wake-after 4 --json
	# One jq per cycle: "true ASLEEP_S WAKE" when the RTC woke it.
	got=$(jq -r '"\(.legs[0].entered and any(.legs[0].wake.sources[]; .name == "00:04")) \(.legs[0].asleep_s) \(.legs[0].wake | tojson)"' "$OUT" 2>&1)
	if [ "$RC" -ne 0 ] || [ "${got%% *}" != true ]; then
		bad=$((bad + 1))
		fail "cycle $i of $CYCLES" "exit $RC, $got: $(head -c 300 "$ERR" | tr '\n' ' ')"
	else
		note "cycle $i: asleep_s and wake: ${got#true }"
	fi
	i=$((i + 1))
done
eq "$CYCLES cycles: none failed" "$bad" 0
eq "$CYCLES cycles: suspend_stats/success + $CYCLES" \
	"$(stat_of success)" "$((ok0 + CYCLES))"
eq "$CYCLES cycles: suspend_stats/fail unchanged" "$(stat_of fail)" "$fail0"
eq "$CYCLES cycles: the kernel woke from S3 $CYCLES times" \
	"$(dmesg_count "$S3_LOG")" "$((woke0 + CYCLES))"
eq "$CYCLES cycles: the hooks ran $CYCLES times each way" \
	"$(grep -c '^10-rec-a resume suspend$' "$HOOKLOG")" "$CYCLES"
eq "$CYCLES cycles: wakealarm is empty afterwards" "$(cat "$ALARM")" ""
