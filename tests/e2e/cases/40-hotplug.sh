#!/bin/sh
# hotplug: pmctl takes CPU 1 offline and back through the real hotplug
# files, and refuses CPU 0, which has no online file on this kernel.
#@ timeout: 60
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

ONLINE=/sys/devices/system/cpu/online
eq "two CPUs online at boot" "$(cat "$ONLINE")" 0-1

expect 0 "pmctl cpu offline 1: exit 0" pmctl cpu offline 1
eq "pmctl cpu offline 1: online reads 0" "$(cat "$ONLINE")" 0
eq "pmctl cpu offline 1: offline reads 1" \
	"$(cat /sys/devices/system/cpu/offline)" 1
eq "pmctl cpu offline 1: cpu1/online reads 0" \
	"$(cat /sys/devices/system/cpu/cpu1/online)" 0
expect 0 "pmctl cpu --json with CPU 1 offline: exit 0" pmctl cpu --json
cp "$OUT" /tmp/cpu.json
jqall /tmp/cpu.json <<'EOF'
pmctl cpu --json: online [0], offline [1]
.cpus.online == [0] and .cpus.offline == [1]
EOF
expect 0 "pmctl cpu offline 1 again: exit 0 (nothing to change)" \
	pmctl cpu offline 1
eq "pmctl cpu offline 1 again: online still reads 0" "$(cat "$ONLINE")" 0

expect 0 "pmctl cpu online 1: exit 0" pmctl cpu online 1
eq "pmctl cpu online 1: online reads 0-1" "$(cat "$ONLINE")" 0-1
eq "pmctl cpu online 1: cpu1/online reads 1" \
	"$(cat /sys/devices/system/cpu/cpu1/online)" 1

eq "cpu0 has no online file" \
	"$([ -e /sys/devices/system/cpu/cpu0/online ] && echo present || echo absent)" absent
run pmctl cpu offline 0
if [ "$RC" -ne 0 ]; then
	pass "pmctl cpu offline 0: fails (exit $RC)"
else
	fail "pmctl cpu offline 0: fails" "exit 0"
fi
eq "pmctl cpu offline 0: exit 3 (not supported here)" "$RC" 3
grepf "pmctl cpu offline 0: the message names cpu0 and why" \
	'cpu0.*(online|hot)' "$ERR"
eq "pmctl cpu offline 0: online still reads 0-1" "$(cat "$ONLINE")" 0-1

expect 3 "pmctl cpu offline 0-1: refused before any write (exit 3)" pmctl cpu offline 0-1
note "after 'offline 0-1': online $(cat "$ONLINE")"
eq "pmctl cpu offline 0-1: all-or-nothing, online still reads 0-1" \
	"$(cat "$ONLINE")" 0-1
expect 2 "pmctl cpu offline 7 (not present): exit 2" pmctl cpu offline 7
eq "pmctl cpu offline 7: online still reads 0-1" "$(cat "$ONLINE")" 0-1
