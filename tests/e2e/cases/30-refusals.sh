#!/bin/sh
# refusals: what the guest cannot do is exit 3 with the reason, and nothing
# is touched: hibernation with no swap (resume = 0:0), and standby where
# the kernel offers neither "standby" nor mem_sleep "shallow".
#@ timeout: 60
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

install_hooks
# Snapshot of what a refusal must leave alone.
snapshot() {
	for f in state mem_sleep disk pm_test resume suspend_stats/success \
		suspend_stats/fail; do
		printf '%s=%s\n' "$f" "$(cat "/sys/power/$f")"
	done
}
snapshot >/tmp/before
note "state: $(cat /sys/power/state); mem_sleep: $(cat /sys/power/mem_sleep); disk: $(cat /sys/power/disk); resume: $(cat /sys/power/resume)"
note "swaps: $(tr '\n' ' ' </proc/swaps)"

eq "no swap: /sys/power/resume is 0:0" "$(cat /sys/power/resume)" 0:0
expect 3 "hibernate with resume 0:0: exit 3" pm-suspend hibernate
grepf "hibernate with resume 0:0: the message names the resume device" \
	'resume' "$ERR"
expect 3 "--check hibernate: exit 3" pm-suspend --check hibernate
grepf "--check hibernate: says why" 'resume' "$ERR"
ln -s /usr/bin/pm-suspend /tmp/pm-hibernate
expect 3 "pm-hibernate (argv[0]) with resume 0:0: exit 3" /tmp/pm-hibernate
expect 3 "hybrid with resume 0:0: exit 3" pm-suspend hybrid

if grep -qw standby /sys/power/state || grep -qw shallow /sys/power/mem_sleep; then
	skip "standby: exit 3" "this guest offers standby ($(cat /sys/power/state); $(cat /sys/power/mem_sleep))"
else
	expect 3 "standby not offered: exit 3" pm-suspend standby
	grepf "standby not offered: the message names the offer (state: ...)" \
		'state: freeze mem disk' "$ERR"
	grepf "standby not offered: the message names mem_sleep" \
		'mem_sleep: s2idle \[deep\]' "$ERR"
	expect 3 "--check standby: exit 3" pm-suspend --check standby
	expect 3 "shallow (the alias): exit 3" pm-suspend shallow
fi

# The modes the guest does offer pass the same check.
expect 0 "--check deep: exit 0" pm-suspend --check deep
expect 0 "--check s2idle: exit 0" pm-suspend --check s2idle
expect 0 "--check suspend: exit 0" pm-suspend --check suspend

snapshot >/tmp/after
if cmp -s /tmp/before /tmp/after; then
	pass "the refusals changed nothing in /sys/power"
else
	fail "the refusals changed nothing in /sys/power" "$(diff /tmp/before /tmp/after | tr '\n' ' ')"
fi
eq "the refusals ran no hook" "$(wc -c <"$HOOKLOG")" 0
