#!/bin/sh
# trace_capture: one real S3 cycle with --timings, the kernel's trace
# and its own device-time messages printed for a recording.
#@ default: no
#@ why: by hand, to record a real trace for the fixtures
#@ timeout: 300
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

echo 1 >/sys/power/pm_debug_messages
install_hooks
rtc_tick
expect 0 "deep --timings --wake-after 3 --json: exit 0" \
	pm-suspend deep --wake-after 3 --timings --json
sed 's/^/REPORT| /' "$OUT"
sed 's/^/TRACE| /' /sys/kernel/debug/tracing/trace
dmesg | grep -E 'PM: .*(took|complete after)' | sed 's/^/DMESG| /'
for f in tracing_on current_tracer buffer_size_kb \
	events/power/suspend_resume/enable \
	events/power/device_pm_callback_start/enable \
	events/power/device_pm_callback_end/enable; do
	echo "AFTER| $f: $(cat /sys/kernel/debug/tracing/$f)"
done
