#!/bin/sh
# pm_test: pm-suspend --test runs the kernel's pm_test levels for real, with
# the hooks down and up, the statistics counted, and /sys/power put back;
# suspend-to-idle refuses processors with the kernel's EAGAIN; --diagnose.
#@ timeout: 120
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

install_hooks

# deep: start from s2idle, so that pm-suspend has to switch mem_sleep and
# then put it back.
echo s2idle >/sys/power/mem_sleep
for level in devices platform processors core; do
	ok0=$(stat_of success)
	entries=$(dmesg_count "PM: suspend entry (deep)")
	expect 0 "--test $level deep: exit 0" pm-suspend --test "$level" deep
	eq "--test $level deep: the kernel logged one suspend entry (deep)" \
		"$(dmesg_count "PM: suspend entry (deep)")" "$((entries + 1))"
	hooks_are "--test $level deep: hooks down then up in reverse" \
		"suspend suspend" "resume suspend"
	eq "--test $level deep: suspend_stats/success + 1" \
		"$(stat_of success)" "$((ok0 + 1))"
	eq "--test $level deep: pm_test back to none" \
		"$(selected /sys/power/pm_test)" none
	eq "--test $level deep: mem_sleep back to s2idle" \
		"$(selected /sys/power/mem_sleep)" s2idle
done

# s2idle: start from deep, the other way round.
echo deep >/sys/power/mem_sleep
for level in freezer devices platform; do
	ok0=$(stat_of success)
	entries=$(dmesg_count "PM: suspend entry (s2idle)")
	expect 0 "--test $level s2idle: exit 0" pm-suspend --test "$level" s2idle
	eq "--test $level s2idle: the kernel logged one suspend entry (s2idle)" \
		"$(dmesg_count "PM: suspend entry (s2idle)")" "$((entries + 1))"
	hooks_are "--test $level s2idle: hooks down then up in reverse" \
		"suspend suspend" "resume suspend"
	eq "--test $level s2idle: suspend_stats/success + 1" \
		"$(stat_of success)" "$((ok0 + 1))"
	eq "--test $level s2idle: pm_test back to none" \
		"$(selected /sys/power/pm_test)" none
	eq "--test $level s2idle: mem_sleep back to deep" \
		"$(selected /sys/power/mem_sleep)" deep
done

# The kernel refuses processors for suspend-to-idle with EAGAIN.
fail0=$(stat_of fail)
expect 1 "--test processors s2idle: exit 1" pm-suspend --test processors s2idle
grepf "--test processors s2idle: the message names EAGAIN" EAGAIN "$ERR"
eq "--test processors s2idle: last_failed_errno is -11" \
	"$(stat_of last_failed_errno)" -11
eq "--test processors s2idle: suspend_stats/fail + 1" \
	"$(stat_of fail)" "$((fail0 + 1))"
eq "--test processors s2idle: pm_test back to none" \
	"$(selected /sys/power/pm_test)" none
eq "--test processors s2idle: mem_sleep back to deep" \
	"$(selected /sys/power/mem_sleep)" deep
hooks_are "--test processors s2idle: hooks down, and up after the refusal" \
	"suspend suspend" "resume suspend"

# A bad level is a usage error and touches nothing.
expect 2 "--test bogus deep: exit 2" pm-suspend --test bogus deep
eq "--test bogus deep: no hook ran" "$(wc -c <"$HOOKLOG")" 0

ok0=$(stat_of success)
expect 0 "--diagnose deep: exit 0" pm-suspend --diagnose deep
cat "$OUT" "$ERR" >/tmp/diagnose.txt
grepf "--diagnose deep: reports the core level" core /tmp/diagnose.txt
note "suspend_stats/success went from $ok0 to $(stat_of success) in --diagnose"
eq "--diagnose deep: pm_test back to none" "$(selected /sys/power/pm_test)" none
eq "--diagnose deep: mem_sleep back to deep" "$(selected /sys/power/mem_sleep)" deep
dmesg | grep -E 'PM: (suspend|Suspending|resume)|suspend debug|pm_test' |
	tail -n 8 | while IFS= read -r l; do note "dmesg: $l"; done
