#!/bin/sh
# cpupm: with the SSDT of ../shared/e2e/cpu-pm.asl the kernel's own
# acpi_idle (POLL C1 C2) and acpi-cpufreq (800/1600/2000 MHz, one policy of
# CPUs 0-1) drivers run; pmctl, cstate-stat and opp-set drive them.
#@ modules: acpi-cpufreq cpufreq_userspace cpufreq_powersave cpufreq_ondemand cpufreq_conservative
#@ ssdt: yes
#@ timeout: 120
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

CPU=/sys/devices/system/cpu
POL=$CPU/cpufreq/policy0

load_modules || exit 0

# --- cpuidle --------------------------------------------------------------
eq "cpuidle driver is acpi_idle" "$(cat $CPU/cpuidle/current_driver)" acpi_idle
expect 0 "pmctl idle: exit 0" pmctl idle
for s in POLL C1 C2; do
	grepf "pmctl idle lists $s" "^ *[0-9]+ +$s " "$OUT"
done
expect 0 "pmctl idle --json: exit 0" pmctl idle --json
cp "$OUT" /tmp/idle.json

expect 0 "cstate-stat -J: exit 0" cstate-stat -J
cp "$OUT" /tmp/cs.json
jqall /tmp/cs.json <<'EOF'
cstate-stat -J: driver acpi_idle
.cpuidle.driver == "acpi_idle"
cstate-stat -J: both CPUs have POLL C1 C2
[.cpus[] | [.cstates[].name]] == [["POLL","C1","C2"],["POLL","C1","C2"]]
cstate-stat -J: every state has usage and time_us counters
[.cpus[].cstates[] | (.usage | type) == "number" and (.time_us | type) == "number"] | all
cstate-stat -J: C1 has been entered on each CPU
[.cpus[].cstates[1].usage > 0] | all
EOF

expect 0 "cstate-stat -i 0.5 -n 2 -J: exit 0" cstate-stat -i 0.5 -n 2 -J
cp "$OUT" /tmp/cs2.json
eq "cstate-stat -i 0.5 -n 2 -J: two lines" "$(wc -l </tmp/cs2.json | tr -d ' ')" 2
# JSON Lines: make one array of the samples for jqall.
{
	echo '['
	sed '$!s/$/,/' /tmp/cs2.json
	echo ']'
} >/tmp/cs2s.json
jqall /tmp/cs2s.json <<'EOF'
cstate-stat -i: each sample has time and interval_s 0.5 (measured: a loaded TCG host stretched one past 1.5 s)
[.[] | (.time | type) == "number" and (.interval_s > 0.4 and .interval_s < 3)] | all
cstate-stat -i: the counters moved (entries_per_s > 0 on each CPU)
[.[] | .cpus[] | ([.cstates[].entries_per_s] | add) > 0] | all
cstate-stat -i: residency_pct sums to at most 100 (+1) per CPU
[.[] | .cpus[] | ([.cstates[].residency_pct] | add) <= 101] | all
EOF

# disable C2 for real, then enable everything again
expect 0 "pmctl idle disable C2: exit 0" pmctl idle disable C2
eq "pmctl idle disable C2: cpu0/cpuidle/state2/disable reads 1" \
	"$(cat $CPU/cpu0/cpuidle/state2/disable)" 1
eq "pmctl idle disable C2: cpu1/cpuidle/state2/disable reads 1" \
	"$(cat $CPU/cpu1/cpuidle/state2/disable)" 1
eq "pmctl idle disable C2: C1 left enabled" \
	"$(cat $CPU/cpu0/cpuidle/state1/disable)" 0
u0=$(cat $CPU/cpu1/cpuidle/state2/usage)
sleep 1
eq "pmctl idle disable C2: the kernel no longer enters C2 on cpu1" \
	"$(cat $CPU/cpu1/cpuidle/state2/usage)" "$u0"
run cstate-stat -J
cp "$OUT" /tmp/cs3.json
jqall /tmp/cs3.json <<'EOF'
cstate-stat -J: C2 shows disabled on both CPUs, C1 enabled
[.cpus[].cstates[2].disabled, .cpus[].cstates[1].disabled] == [true, true, false, false]
EOF
expect 0 "pmctl idle enable all: exit 0" pmctl idle enable all
eq "pmctl idle enable all: every disable file reads 0" \
	"$(cat $CPU/cpu[01]/cpuidle/state[0-2]/disable | sort -u | tr '\n' ' ')" "0 "
# As a non-root user: one line naming the first file, nothing written.
# (busybox's setpriv cannot change uid: su, with a passwd line for nobody)
grep -q '^nobody:' /etc/passwd 2>/dev/null ||
	echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
grep -q '^nogroup:' /etc/group 2>/dev/null || echo 'nogroup:x:65534:' >>/etc/group
as_nobody() {
	su -s /bin/sh nobody -c "$*"
}
expect 1 "pmctl idle disable C2 as nobody: exit 1" as_nobody pmctl idle disable C2
# A setter journals the old values before its first write: nobody is
# stopped there, before anything changes.
eq "pmctl idle disable C2 as nobody: one line, nothing changed" \
	"$(cat "$ERR")" "pmctl: cannot write the journal: /run/pmtools/journal: Permission denied (EACCES) before the first write: nothing was changed"
eq "pmctl idle disable C2 as nobody: every disable file still 0" \
	"$(cat $CPU/cpu[01]/cpuidle/state[0-2]/disable | sort -u | tr '\n' ' ')" "0 "
expect 1 "pm-suspend deep as nobody: exit 1" as_nobody pm-suspend deep --no-hooks
eq "pm-suspend deep as nobody: one line, root is needed" \
	"$(cat "$ERR")" "pm-suspend: root is needed to write /sys/power/state"
expect 0 "cstate-stat as nobody: reading is for everyone" as_nobody cstate-stat
expect 3 "pmctl idle disable C9 (no such state): exit 3" pmctl idle disable C9
eq "pmctl idle disable C9: every disable file still 0" \
	"$(cat $CPU/cpu[01]/cpuidle/state[0-2]/disable | sort -u | tr '\n' ' ')" "0 "

# --- cpufreq --------------------------------------------------------------
expect 0 "pmctl freq --json: exit 0" pmctl freq --json
cp "$OUT" /tmp/freq.json
gov0=$(cat $POL/scaling_governor)
jqall /tmp/freq.json <<EOF
pmctl freq --json: one policy 0 of CPUs [0,1]
(.policies | length) == 1 and .policies[0].policy == 0 and .policies[0].cpus == [0,1]
pmctl freq --json: driver acpi-cpufreq
.policies[0].driver == "acpi-cpufreq"
pmctl freq --json: 800000..2000000 kHz, frequencies 2000000 1600000 800000
.policies[0].cpuinfo_min_khz == 800000 and .policies[0].cpuinfo_max_khz == 2000000 and .policies[0].available_khz == [2000000, 1600000, 800000]
pmctl freq --json: governor $gov0 as in sysfs
.policies[0].governor == "$gov0"
pmctl freq --json: the six governors
.policies[0].available_governors | sort == ["conservative","ondemand","performance","powersave","schedutil","userspace"]
EOF

expect 3 "pmctl freq set --governor bogus: exit 3" pmctl freq set --governor bogus
grepf "pmctl freq set --governor bogus: names the available governors" \
	'available.*userspace' "$ERR"
eq "pmctl freq set --governor bogus: governor unchanged" \
	"$(cat $POL/scaling_governor)" "$gov0"

expect 0 "pmctl freq set --governor userspace: exit 0" \
	pmctl freq set --governor userspace
eq "pmctl freq set --governor userspace: scaling_governor reads userspace" \
	"$(cat $POL/scaling_governor)" userspace
# Start from 2 GHz, so that the two speeds below are two transitions
# whatever frequency the governor before left the policy at.
expect 0 "pmctl freq set --speed 2GHz: exit 0" pmctl freq set --speed 2GHz
eq "pmctl freq set --speed 2GHz: scaling_setspeed reads 2000000" \
	"$(cat $POL/scaling_setspeed)" 2000000
run cstate-stat --pstates -J
cp "$OUT" /tmp/p0.json
expect 0 "pmctl freq set --speed 800MHz: exit 0" pmctl freq set --speed 800MHz
eq "pmctl freq set --speed 800MHz: scaling_setspeed reads 800000" \
	"$(cat $POL/scaling_setspeed)" 800000
eq "pmctl freq set --speed 800MHz: scaling_cur_freq reads 800000" \
	"$(cat $POL/scaling_cur_freq)" 800000
sleep 1
expect 0 "pmctl freq set --speed 2000000: exit 0" pmctl freq set --speed 2000000
eq "pmctl freq set --speed 2000000: scaling_setspeed reads 2000000" \
	"$(cat $POL/scaling_setspeed)" 2000000
sleep 1
expect 0 "cstate-stat --pstates -J: exit 0" cstate-stat --pstates -J
{
	echo '['
	cat /tmp/p0.json
	echo ','
	cat "$OUT"
	echo ']'
} >/tmp/p01.json
# Before (.[0], under userspace at its first speed) and after (.[1]) the
# two --speed writes; the 800 MHz row is the third of the table.
jqall /tmp/p01.json <<'EOF'
cstate-stat --pstates -J: acpi-cpufreq with the 3 time_in_state rows 2000000 1600000 800000
.[1].cpus[0].pstates.driver == "acpi-cpufreq" and [.[1].cpus[0].pstates.time_in_state[].khz] == [2000000, 1600000, 800000]
cstate-stat --pstates: total_trans moved by at least the two speeds
.[1].cpus[0].pstates.total_trans >= .[0].cpus[0].pstates.total_trans + 2
cstate-stat --pstates: time_in_state of 800 MHz moved (about 1 s there)
.[1].cpus[0].pstates.time_in_state[2].time_ms >= .[0].cpus[0].pstates.time_in_state[2].time_ms + 500
cstate-stat --pstates: cur_khz 2000000, on both CPUs
[.[1].cpus[].pstates.cur_khz] == [2000000, 2000000]
EOF
expect 2 "pmctl freq set --speed 3GHz (above cpuinfo_max): exit 2" \
	pmctl freq set --speed 3GHz
eq "pmctl freq set --speed 3GHz: scaling_setspeed still 2000000" \
	"$(cat $POL/scaling_setspeed)" 2000000

# --- opp-set ----------------------------------------------------------------
expect 0 "opp-set -s cpufreq.governor=powersave: exit 0" \
	opp-set -s cpufreq.governor=powersave
eq "opp-set -s cpufreq.governor=powersave: scaling_governor reads powersave" \
	"$(cat $POL/scaling_governor)" powersave
eq "opp-set -s cpufreq.governor=powersave: the kernel runs at 800 MHz" \
	"$(cat $POL/scaling_cur_freq)" 800000

# A point whose last write the kernel refuses: the governor goes to
# performance, then scaling_setspeed (not under userspace) is EINVAL, and
# the governor must come back.
cat >/tmp/bad.conf <<EOF
[cpufreq]
governor = performance
[sysfs]
$POL/scaling_setspeed = 1600000
EOF
expect 1 "opp-set -f (a refused [sysfs] write after the governor): exit 1" \
	opp-set -f /tmp/bad.conf --json
cp "$OUT" /tmp/opp.json
grepf "opp-set refused: the message names the kernel's EINVAL" \
	'EINVAL|Invalid argument' "$ERR"
eq "opp-set refused: scaling_governor rolled back to powersave" \
	"$(cat $POL/scaling_governor)" powersave
jqall /tmp/opp.json <<'EOF'
opp-set refused: the report says rolled_back
.rolled_back == true
opp-set refused: the report has the governor write and the failed write (errno 22)
any(.writes[]; .new == "performance" and .ok) and any(.writes[]; .ok == false and .errno == 22)
EOF

# --- governor tunables: the folder appears when the governor starts ------
GOVDIR=$CPU/cpufreq
expect 0 "opp-set governor ondemand with ondemand tunables: exit 0" \
	opp-set -s cpufreq.governor=ondemand -s cpufreq.ondemand.up_threshold=90 \
	-s cpufreq.ondemand.sampling_down_factor=4
eq "ondemand tunables: global on acpi-cpufreq, up_threshold 90, sampling_down_factor 4" \
	"$(cat $GOVDIR/ondemand/up_threshold $GOVDIR/ondemand/sampling_down_factor 2>&1 | tr '\n' ' ')" "90 4 "
expect 0 "ondemand tunables again: exit 0" \
	opp-set -s cpufreq.governor=ondemand -s cpufreq.ondemand.up_threshold=90 \
	-s cpufreq.ondemand.sampling_down_factor=4
grepf "ondemand tunables again: already there, nothing written" "already at" "$ERR"
# conservative starts with 80/20: moving the window down to 15/10 works
# only with down_threshold first (up 15 is not above down 20).
expect 0 "conservative 15/10 from the kernel's 80/20: exit 0" \
	opp-set -s cpufreq.governor=conservative -s cpufreq.conservative.up_threshold=15 \
	-s cpufreq.conservative.down_threshold=10
eq "conservative 15/10: up_threshold and down_threshold read 15 10" \
	"$(cat $GOVDIR/conservative/up_threshold $GOVDIR/conservative/down_threshold 2>&1 | tr '\n' ' ')" "15 10 "
expect 0 "conservative 95/90 from 15/10: exit 0 (up_threshold first)" \
	opp-set -s cpufreq.conservative.up_threshold=95 -s cpufreq.conservative.down_threshold=90
eq "conservative 95/90: up_threshold and down_threshold read 95 90" \
	"$(cat $GOVDIR/conservative/up_threshold $GOVDIR/conservative/down_threshold 2>&1 | tr '\n' ' ')" "95 90 "
expect 2 "conservative.up_threshold 50 alone (not above down 90): exit 2" \
	opp-set -s cpufreq.conservative.up_threshold=50
# The kernel refuses a sampling_rate under 2 ticks: rolled back.
expect 1 "ondemand sampling_rate 1 (under the kernel's floor): exit 1" \
	opp-set -s cpufreq.governor=ondemand -s cpufreq.ondemand.sampling_rate=1
grepf "ondemand sampling_rate 1: the kernel's EINVAL is named" "EINVAL" "$ERR"
eq "ondemand sampling_rate 1: the governor is conservative again" \
	"$(cat $POL/scaling_governor)" conservative
eq "ondemand sampling_rate 1: conservative's own tunables are back at 95 90" \
	"$(cat $GOVDIR/conservative/up_threshold $GOVDIR/conservative/down_threshold 2>&1 | tr '\n' ' ')" "95 90 "
expect 0 "opp-set --save with conservative tunables: exit 0" opp-set --save /tmp/tun.conf
show saved /tmp/tun.conf
grepf "--save keeps conservative.up_threshold" '^conservative\.up_threshold = 95$' /tmp/tun.conf
expect 0 "back to powersave" opp-set -s cpufreq.governor=powersave
expect 0 "opp-set -f of the saved tunables: exit 0" opp-set -f /tmp/tun.conf
eq "-f saved: conservative runs with 95 90 again" \
	"$(cat $POL/scaling_governor $GOVDIR/conservative/up_threshold $GOVDIR/conservative/down_threshold 2>&1 | tr '\n' ' ')" "conservative 95 90 "
expect 0 "back to powersave" opp-set -s cpufreq.governor=powersave

# --- limits, idle limit and governor; opp-set --save and -f -------------
disables() {
	cat "$CPU"/cpu[01]/cpuidle/state[0-2]/disable | tr '\n' ' '
}
expect 0 "pmctl freq set --min 1600MHz --max 1600MHz: exit 0" \
	pmctl freq set --min 1600MHz --max 1600MHz
eq "pmctl freq set --min/--max 1600MHz: scaling_min_freq and scaling_max_freq read 1600000" \
	"$(cat $POL/scaling_min_freq) $(cat $POL/scaling_max_freq)" "1600000 1600000"
expect 2 "pmctl freq set --min 2GHz --max 800MHz (minimum above maximum): exit 2" \
	pmctl freq set --min 2GHz --max 800MHz
eq "pmctl freq set --min 2GHz --max 800MHz: limits unchanged" \
	"$(cat $POL/scaling_min_freq) $(cat $POL/scaling_max_freq)" "1600000 1600000"
expect 0 "pmctl idle limit 10: exit 0" pmctl idle limit 10
eq "pmctl idle limit 10: C2 (50 us) disabled on both CPUs, POLL and C1 enabled" \
	"$(disables)" "0 0 1 0 0 1 "
expect 0 "pmctl idle governor ladder: exit 0" pmctl idle governor ladder
eq "pmctl idle governor ladder: current_governor reads ladder" \
	"$(cat $CPU/cpuidle/current_governor)" ladder
expect 0 "opp-set --save: exit 0" opp-set --save /tmp/saved.conf
show saved /tmp/saved.conf
expect 0 "pmctl freq set --min 800MHz --max 2GHz: exit 0" \
	pmctl freq set --min 800MHz --max 2GHz
expect 0 "pmctl idle enable all: exit 0" pmctl idle enable all
expect 0 "pmctl idle governor menu: exit 0" pmctl idle governor menu
expect 0 "opp-set -f of the saved point: exit 0" opp-set -f /tmp/saved.conf
eq "opp-set -f saved: the limits are back at 1600000 1600000" \
	"$(cat $POL/scaling_min_freq) $(cat $POL/scaling_max_freq)" "1600000 1600000"
eq "opp-set -f saved: C2 disabled again" "$(disables)" "0 0 1 0 0 1 "
eq "opp-set -f saved: the cpuidle governor is ladder again" \
	"$(cat $CPU/cpuidle/current_governor)" ladder
expect 0 "back to the full range, all states, menu" sh -c \
	'pmctl freq set --min 800MHz --max 2GHz && pmctl idle enable all && pmctl idle governor menu'

# --- a CPU that goes away while cstate-stat samples ----------------------
# Each step waits for two more samples, however slow the guest (a fixed
# sleep let the last samples come before CPU 1 was back, under load).
lines_at_least() { # FILE N (at most a minute)
	i=0
	while [ "$(wc -l 2>/dev/null <"$1" || echo 0)" -lt "$2" ] && [ "$i" -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}
cstate-stat -i 0.5 -J >/tmp/hp.jsonl 2>/tmp/hp.err &
pid=$!
lines_at_least /tmp/hp.jsonl 2
pmctl cpu offline 1 >/dev/null 2>&1
lines_at_least /tmp/hp.jsonl $(($(wc -l </tmp/hp.jsonl) + 2))
pmctl cpu online 1 >/dev/null 2>&1
lines_at_least /tmp/hp.jsonl $(($(wc -l </tmp/hp.jsonl) + 2))
kill -TERM "$pid"
wait "$pid"
eq "cstate-stat -i 0.5 across CPU 1 offline and online, then SIGTERM: exit 0" "$?" 0
show err /tmp/hp.err
{
	echo '['
	sed '$!s/$/,/' /tmp/hp.jsonl
	echo ']'
} >/tmp/hp.json
jq -c '.[] | [.cpus[] | {cpu, online, busy_pct, u: [.cstates[]?.usage]}]' /tmp/hp.json 2>&1 |
	while IFS= read -r l; do note "sample: $l"; done
jqall /tmp/hp.json <<'EOF'
cstate-stat across hotplug: 6 samples or more and the run's report, each of CPUs 0 and 1
([.[] | select(.period == "sample")] | length >= 6) and .[-1].period == "run" and ([.[] | [.cpus[].cpu] == [0, 1]] | all)
cstate-stat across hotplug: CPU 1 is shown offline with null values while it is away
any(.[]; .cpus[1].online == false and .cpus[1].busy_pct == null)
cstate-stat across hotplug: CPU 1 is re-opened: the last sample has its counters
[.[] | select(.period == "sample")][-1] | .cpus[1].online == true and ([.cpus[1].cstates[].usage | type] == ["number", "number", "number"])
cstate-stat across hotplug: no negative or huge delta anywhere
[.[].cpus[].cstates[]?.entries_per_s | select(. != null) | . >= 0 and . < 10000000] | all
EOF

# --- opp-set brings a CPU online: its idle states are set once it is ----
# opp-set writes the online file first, then reads and plans the states
# of the CPUs it brought online (acpi_idle keeps the folder of an offline
# CPU; other drivers may not).
expect 0 "opp-set, cpu1 offline: pmctl cpu offline 1: exit 0" pmctl cpu offline 1
printf '[cpu]\nonline = 0-1\n[cpuidle]\ndisable = C2\n' >/tmp/on.conf
expect 0 "opp-set brings cpu1 online and disables C2: exit 0" opp-set -f /tmp/on.conf --json
cp "$OUT" /tmp/on.json
eq "opp-set online: online reads 0-1" "$(cat $CPU/online)" 0-1
eq "opp-set online: cpu0's C2 is disabled" "$(cat $CPU/cpu0/cpuidle/state2/disable)" 1
eq "opp-set online: cpu1's C2 is disabled too" "$(cat $CPU/cpu1/cpuidle/state2/disable)" 1
jqall /tmp/on.json <<'EOF'
opp-set online: cpu1/online is the first write, cpu1's C2 among the later ones
.writes[0].path == "/sys/devices/system/cpu/cpu1/online" and any(.writes[]; .path == "/sys/devices/system/cpu/cpu1/cpuidle/state2/disable" and .ok)
EOF
expect 0 "opp-set online again: exit 0" opp-set -f /tmp/on.conf
grepf "opp-set online again: already at the point" "already at on" "$ERR"
# The same with a refused write at the end: cpu1 goes back offline and
# cpu0's C2 is enabled again.
expect 0 "opp-set rollback: pmctl idle enable C2: exit 0" pmctl idle enable C2
expect 0 "opp-set rollback: pmctl cpu offline 1: exit 0" pmctl cpu offline 1
printf '[cpu]\nonline = 0-1\n[cpuidle]\ndisable = C2\n[sysfs]\n%s = 1600000\n' \
	"$POL/scaling_setspeed" >/tmp/onbad.conf
expect 1 "opp-set rollback across the CPU brought online: exit 1" opp-set -f /tmp/onbad.conf
grepf "opp-set rollback: the earlier writes restored" "restored the [0-9]+ earlier writes: nothing was changed" "$ERR"
eq "opp-set rollback: online reads 0 again" "$(cat $CPU/online)" 0
eq "opp-set rollback: cpu0's C2 is enabled again" "$(cat $CPU/cpu0/cpuidle/state2/disable)" 0
expect 0 "opp-set rollback: pmctl cpu online 1: exit 0" pmctl cpu online 1

# Put the boot governor back.
expect 0 "pmctl freq set --governor $gov0: exit 0" pmctl freq set --governor "$gov0"
eq "the boot governor is back" "$(cat $POL/scaling_governor)" "$gov0"
