#!/bin/sh
# soak_hotplug: M CPU hotplug cycles in a row (pmctl cpu offline 1, then
# online 1, each checked against the kernel's online list) while two
# cstate-stat samplers run on the real acpi_idle and acpi-cpufreq drivers
# (the SSDT), and every one of their samples checked: one JSON object per
# line, no negative or bogus value, CPU 1 offline with null values while
# it is away and known again after, the whole-run report, a clean exit on
# SIGINT and SIGTERM.  M comes from the host as e2e.soak_hotplug
# (tests/e2e/run's params): 20 by default and in CI, 100 with make soak.
#@ modules: acpi-cpufreq
#@ ssdt: yes
#@ params: soak_hotplug=20
#@ timeout: 60 + 3 * soak_hotplug
#@ default: no
#@ why: a soak, kept out of CI; make soak runs 100 cycles, tests/e2e/run soak 20
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

M=$(param soak_hotplug 20)
CPU=/sys/devices/system/cpu
D=/tmp/soak
mkdir -p "$D"
note "soak_hotplug: $M hotplug cycles"
load_modules || exit 0

# Seconds between two readings of /proc/uptime.
secs() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'
}

# A JSON Lines file into one array for jqall: a line that is not JSON
# becomes {"_unparsed": LINE}.
jsonl_array() {
	jq -R -s '[split("\n")[] | select(length > 0) |
		. as $l | try fromjson catch {_unparsed: $l}]' "$1" >"$2"
}

# Two samplers: every 0.1 s in JSON Lines, ended by SIGINT; every 0.2 s
# with the summary and the interrupts of every present CPU, ended by SIGTERM.
eq "two CPUs online before the hotplug cycles" "$(cat "$CPU/online")" 0-1
read -r hp_t0 _ </proc/uptime
cstate-stat -i 0.1 -J >"$D/cs.jsonl" 2>"$D/cs.err" &
cs=$!
cstate-stat -i 0.2 -J -s --wakeups -c all >"$D/cw.jsonl" 2>"$D/cw.err" &
cw=$!
sleep 0.5
pbad=0
i=1
while [ "$i" -le "$M" ]; do
	for op in offline online; do
		pmctl cpu "$op" 1 >"$D/pmctl.out" 2>"$D/pmctl.err"
		rc=$?
		read -r on <"$CPU/online"
		want=0-1
		[ "$op" = offline ] && want=0
		if [ "$rc" -ne 0 ] || [ "$on" != "$want" ]; then
			pbad=$((pbad + 1))
			note "hotplug cycle $i: pmctl cpu $op 1: exit $rc, online $on: $(head -c 300 "$D/pmctl.err" | tr '\n' ' ')"
		fi
		# Offline longer than the 0.1 s interval, so that a sample sees
		# it; online for some samples, which must have every value.
		if [ "$op" = offline ]; then sleep 0.15; else sleep 0.4; fi
	done
	i=$((i + 1))
done
sleep 0.3
kill -INT "$cs"
wait "$cs"
cs_rc=$?
kill -TERM "$cw"
wait "$cw"
cw_rc=$?
read -r hp_t1 _ </proc/uptime
hp_time=$(secs "$hp_t0" "$hp_t1")
eq "$M hotplug cycles in $hp_time s: pmctl cpu offline 1 and online 1 never failed, online read 0 then 0-1" "$pbad" 0
eq "$M hotplug cycles: CPUs 0-1 online afterwards" "$(cat "$CPU/online")" 0-1
eq "cstate-stat -i 0.1 -J: exit 0 on SIGINT" "$cs_rc" 0
eq "cstate-stat -i 0.2 -J -s --wakeups -c all: exit 0 on SIGTERM" "$cw_rc" 0
eq "cstate-stat: nothing on standard error" "$(cat "$D/cs.err" "$D/cw.err")" ""
ncs=$(grep -c . "$D/cs.jsonl")
ncw=$(grep -c . "$D/cw.jsonl")
note "cstate-stat lines: $ncs of -i 0.1, $ncw of -i 0.2"
show cs "$D/cs.err"
show cw "$D/cw.err"
jsonl_array "$D/cs.jsonl" "$D/cs.json"
jsonl_array "$D/cw.jsonl" "$D/cw.json"
# jq functions of the checks below, on the array of one sampler's reports.
#   why($dt): what is wrong with an online CPU's values in a report of
#     interval $dt: a share or rate below 0 or not what the counters'
#     deltas over the measured interval give (allowing for the rounding of
#     the figures and of interval_s to 1 us), busy_pct outside 0-100, a
#     frequency that is not the policy's.  busy_pct may be null: in the
#     first sample after the CPU came back, and when the CPU's line of
#     /proc/stat did not move (no tick was counted: a short interval, or
#     a vCPU that the loaded host did not run, seen for 88 ms).
#   credit: the idle time the kernel credited to a CPU's states in a
#     report, in s (null when unknown).
#   ahead: how far, in s, the credited idle time of a CPU ran ahead of the
#     clock over any samples in a row with known values (the largest sum
#     of credit - interval_s over them), or over the whole run.  A share
#     above 100% in one sample is no fault: the kernel credits an idle
#     period to its state when the period ends, so a sample (the absolute
#     deadlines make some only a few ms long) can hold the part of a
#     period that came before it.  But over any samples in a row the
#     credit runs ahead of the clock by that one period at most; a delta
#     taken against the wrong reading, or a counter counted twice, runs
#     further.  cstate-stat shows such a sample's share as 100 (and
#     counts it as an anomaly): why() takes 100 where the counters give
#     more.  (No comments inside the jq: its lines are joined.)
defs=$(tr '\n\t' '  ' <<'EOF'
def near(a; b; e): (a - b | fabs) <= e;
def why($dt):
	[(if .busy_pct != null and (.busy_pct < 0 or .busy_pct > 100) then "busy_pct \(.busy_pct)" else empty end),
	 (if .avg_khz != null and (.avg_khz < 800000 or .avg_khz > 2000000) then "avg_khz \(.avg_khz)" else empty end),
	 (.cur_khz as $c | if [null, 800000, 1600000, 2000000] | any(. == $c) then empty else "cur_khz \($c)" end),
	 (.cstates[] | select(
		((.usage == null and .time_us == null and .residency_pct == null and .entries_per_s == null) or
		 (.usage >= 0 and .time_us >= 0 and .residency_pct >= 0 and .entries_per_s >= 0 and
		  (near(.residency_pct; .time_us / ($dt * 1e6) * 100; 0.006 + .time_us / ($dt * 1e6) * 100 * 1e-6 / $dt) or
		   (.residency_pct == 100 and .time_us / ($dt * 1e6) * 100 > 100)) and
		  near(.entries_per_s; .usage / $dt; 0.051 + .usage / $dt * 1e-6 / $dt))) | not) |
	  "\(.name): usage \(.usage), time_us \(.time_us), residency_pct \(.residency_pct), entries_per_s \(.entries_per_s)")];
def bogus:
	[.[] | .interval_s as $dt | .period as $p | .cpus[] | select(.online) | why($dt) as $w | select($w != []) |
	 "\($p) of \($dt) s, cpu \(.cpu): \($w | join("; "))"];
def credit:
	if .online and (.cstates | length) > 0 and all(.cstates[]; .time_us != null)
	then ([.cstates[].time_us] | add) / 1e6 else null end;
def ahead:
	. as $r | [range(0; $r[0].cpus | length) as $c |
	 ($r[:-1] | reduce (.[] | {dt: .interval_s, cr: (.cpus[$c] | credit)}) as $s ({acc: null, max: 0};
		if $s.cr == null then .acc = null
		else .acc = ([.acc // 0, 0] | max) + $s.cr - $s.dt | .max = ([.max, .acc] | max) end) | .max),
	 ($r[-1] | .interval_s as $dt | .cpus[$c] | credit as $cr | if $cr == null then 0 else $cr - $dt end)] | max;
EOF
)
# The longest idle period the credit may run ahead by: under TCG a vCPU
# that the host does not run stays in its state, so allow a second.
AHEAD_MAX=1

jqall "$D/cs.json" <<EOF
cstate-stat -i 0.1: each of its $ncs lines is one JSON object
all(.[]; type == "object" and (has("_unparsed") | not))
cstate-stat -i 0.1: more than 20 samples, then one report of the whole run (SIGINT)
length > 20 and (.[:-1] | all(.[]; .period == "sample")) and .[-1].period == "run"
cstate-stat -i 0.1: every report has CPUs 0 and 1
all(.[]; [.cpus[].cpu] == [0, 1])
cstate-stat -i 0.1: sample times go forward, each interval_s above 0 and under 1 s
(.[:-1] | all(.[]; .interval_s > 0 and .interval_s < 1)) and ([.[:-1][] | .time] | . == sort and . == unique)
cstate-stat -i 0.1: the whole run's interval_s is the sum of the samples' (± 1 ms)
((.[-1].interval_s - ([.[:-1][] | .interval_s] | add)) | fabs) < 0.001
cstate-stat -i 0.1: CPU 0 online in every report, every idle-state value known
[.[] | select(.cpus[0] | .online and (.cstates | length) == 3 and all(.cstates[]; .usage != null and .time_us != null and .residency_pct != null and .entries_per_s != null) | not) | {time, interval_s, cpu0: .cpus[0]}] | if . == [] then true else .[:2] end
cstate-stat -i 0.1: an offline CPU has null values and no cstates
all(.[].cpus[] | select(.online == false); .busy_pct == null and .avg_khz == null and .cur_khz == null and .cstates == [])
cstate-stat -i 0.1: CPU 1 seen going offline at least $((M / 2)) and at most $M times (once for each time it went)
[.[:-1][] | .cpus[1].online] | [., .[1:]] | transpose | map(select(.[0] == true and .[1] == false)) | length | if . >= $((M / 2)) and . <= $M then true else "\(.) times" end
cstate-stat -i 0.1: CPU 1 online in 5 reports in a row has its 3 idle states, every value known, in the 5th
[.[:-1][] | .cpus[1]] as \$c | [range(4; \$c | length) | select(all(\$c[. - 4:. + 1][]; .online)) | \$c[.] | select(((.cstates | length) == 3 and all(.cstates[]; .usage != null and .time_us != null and .residency_pct != null)) | not)] | if . == [] then true else .[:2] end
cstate-stat -i 0.1: no bogus value (shares and rates not negative and as the counters and interval_s give, busy_pct 0-100, frequencies of the policy)
$defs bogus | if . == [] then true else .[:3] end
cstate-stat -i 0.1: the idle time credited never runs ahead of the clock by more than $AHEAD_MAX s
$defs ahead | if . <= $AHEAD_MAX then true else "ahead by \(.) s" end
EOF

jqall "$D/cw.json" <<EOF
cstate-stat -i 0.2 --wakeups: each of its $ncw lines is one JSON object
all(.[]; type == "object" and (has("_unparsed") | not))
cstate-stat -i 0.2 --wakeups: more than 10 samples, then one report of the whole run (SIGTERM)
length > 10 and (.[:-1] | all(.[]; .period == "sample")) and .[-1].period == "run"
cstate-stat -i 0.2 --wakeups: no bogus value in the CPUs
$defs bogus | if . == [] then true else .[:3] end
cstate-stat -i 0.2 --wakeups: the idle time credited never runs ahead of the clock by more than $AHEAD_MAX s
$defs ahead | if . <= $AHEAD_MAX then true else "ahead by \(.) s" end
cstate-stat -i 0.2 --wakeups: the summary's busy_pct 0-100 or null, no share or rate below 0
[.[] | .summary | select(((.busy_pct // 0) >= 0 and (.busy_pct // 0) <= 100 and all(.cstates[]; .residency_pct >= 0 and .entries_per_s >= 0)) | not)] | if . == [] then true else .[:2] end
cstate-stat -i 0.2 --wakeups: an offline CPU has no wakeups_per_s, an online one none below 0
all(.[].cpus[]; if .online then (.wakeups_per_s // 0) >= 0 else .wakeups_per_s == null end)
cstate-stat -i 0.2 --wakeups: total_per_s is the sum of the CPUs' wakeups_per_s (± rounding), in every report
[.[] | select(((.wakeups.total_per_s - ([.cpus[].wakeups_per_s // 0] | add)) | fabs) > 0.05 * ((.cpus | length) + 1)) | {time, interval_s, wakeups, cpus: [.cpus[] | {cpu, online, wakeups_per_s}]}] | if . == [] then true else .[:2] end
cstate-stat -i 0.2 --wakeups: the summary's wakeups_per_s is the same sum
all(.[]; (((.summary.wakeups_per_s // 0) - ([.cpus[].wakeups_per_s // 0] | add)) | fabs) <= 0.05 * ((.cpus | length) + 1))
cstate-stat -i 0.2 --wakeups: top sources: at most 5, each above 0 and at most total_per_s; unknown (null) only when a CPU's count is
all(.[]; .wakeups.total_per_s as \$t | if .wakeups.top == null then any(.cpus[]; .wakeups_per_s == null) else (.wakeups.top | length) <= 5 and all(.wakeups.top[]; .per_s > 0 and .per_s <= \$t + 0.1) end)
EOF

# The figures, in one jq.
jq -n -r --slurpfile a "$D/cs.json" --slurpfile b "$D/cw.json" "$defs"'
	$a[0] as $a | $b[0] as $b |
	"cstate-stat -i 0.1: \($a | length) reports, CPU 1 offline in \([$a[].cpus[1] | select(.online == false)] | length) (\([$a[:-1][] | .cpus[1].online] | [., .[1:]] | transpose | map(select(.[0] == true and .[1] == false)) | length) times gone); interval_s \([$a[:-1][].interval_s] | min) to \([$a[:-1][].interval_s] | max); residency sum of a CPU at most \([$a[].cpus[] | [.cstates[].residency_pct // 0] | add] | max)%; credit ahead of the clock by \($a | ahead) s at most; busy_pct unknown for an online CPU in \([$a[].cpus[] | select(.online and .busy_pct == null)] | length); CPU 1 in its 5th report online or later in \([$a[:-1][] | .cpus[1]] as $c | [range(4; $c | length) | select(all($c[. - 4:. + 1][]; .online))] | length)",
	"cstate-stat -i 0.2 --wakeups: \($b | length) reports, total_per_s \([$b[].wakeups.total_per_s] | min) to \([$b[].wakeups.total_per_s] | max), top unknown in \([$b[] | select(.wakeups.top == null)] | length); credit ahead by \($b | ahead) s at most"' \
	2>&1 | while IFS= read -r l; do note "$l"; done

# A crash of a tool is a line in the kernel log, as is a kernel warning.
dmesg | grep -E 'segfault|general protection|traps:|BUG:|WARNING:|Oops' >"$D/dmesg.bad"
eq "the kernel logged no crash of a tool and no warning" "$(head -n 3 "$D/dmesg.bad")" ""
note "soak_hotplug: $M cycles in $hp_time s, $ncs + $ncw cstate-stat lines"
