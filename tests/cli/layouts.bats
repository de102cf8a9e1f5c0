#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr, $stderr_lines come from helpers.bash and run
# Every cpufreq layout the kernel has used (policyN folders with links
# since 4.3; before, a real cpuN/cpufreq folder per CPU, or an owner's
# folder with links from its siblings), CPUs with different idle states
# (a phone's clusters), big servers, the kernel's "unknown" values, and
# tables longer than the kernel's own limits.  Expected values come from
# the raw files.
# tests/run: reads the corpus

load helpers

cpu_dir=sys/devices/system/cpu

setup() {
	load_libs
}

# A file's first line.
val() { head -n1 "$1"; }

# A private copy of dump NAME, for a test that writes.
dump_copy() {
	local d
	d=$(mktemp -d "$BATS_TEST_TMPDIR/dump.XXXXXX")
	copy_tree "$(dump "$1")" "$d"
	printf '%s\n' "$d"
}

# The real cpuN/cpufreq folders of a tree (not links), by CPU number.
real_folders() {
	local c
	for c in "$1/$cpu_dir"/cpu[0-9]*; do
		[ -d "$c/cpufreq" ] && [ ! -L "$c/cpufreq" ] && printf '%s\n' "${c##*/cpu}"
	done | sort -n
}

# The files of a tree that differ from a listing taken before.
changed() { # TREE BEFORE
	diff <(printf '%s\n' "$2") <(tree_sum "$1") | sed -n 's/^> [0-9a-f]*  \.\///p'
}

@test "before 4.3: every cpuN/cpufreq folder is a policy with its own values" {
	local n d c f cur trans gov max min want got own
	for n in x86_64-dell_e4310 x86_64-64cpu vbox-win; do
		d=$(dump "$n")
		mapfile -t own < <(real_folders "$d")
		[ "${#own[@]}" -gt 1 ]
		run --separate-stderr "$bin/pmctl" --sysroot "$d" freq -J
		assert_success
		[ "$(jq '.policies | length' <<<"$output")" = "${#own[@]}" ] ||
			fail "$n: $(jq '.policies | length' <<<"$output") policies, the kernel has ${#own[@]}"
		# "POLICY CPUS governor max min cur total_trans", a line per
		# policy: the report's in one jq, the files' read by bash itself.
		got=$(jq -r '.policies[] | "\(.policy) \(.cpus | map(tostring) | join(",")) \(.governor) \(.max_khz) \(.min_khz) \(.cur_khz) \(.total_trans)"' <<<"$output" | sort -n)
		want=
		for c in "${own[@]}"; do
			f=$d/$cpu_dir/cpu$c/cpufreq
			cur=null trans=null
			[ -f "$f/scaling_cur_freq" ] && read -r cur <"$f/scaling_cur_freq"
			[ -f "$f/stats/total_trans" ] && read -r trans <"$f/stats/total_trans"
			read -r gov <"$f/scaling_governor"
			read -r max <"$f/scaling_max_freq"
			read -r min <"$f/scaling_min_freq"
			want+="$c $c $gov $max $min $cur $trans"$'\n'
		done
		[ "$got" = "${want%$'\n'}" ] || fail "$n: the report's policies are not the files': $(diff <(echo "$got") <(echo "$want"))"
	done
	# cpu2 of the Dell is at 2.667 GHz after 4125 transitions, the others not.
	d=$(dump x86_64-dell_e4310)
	run "$bin/pmctl" --sysroot "$d" freq -J -c 2
	assert_success
	[ "$(jq -c '.policies | map([.policy, .cur_khz, .total_trans])' <<<"$output")" = '[[2,2667000,4125]]' ]
	run "$bin/pmctl" --sysroot "$d" freq
	assert_success
	assert_line "  current 1.199 GHz (cpus 0-1,3), 2.667 GHz (cpus 2)"
}

@test "before 4.3: cstate-stat reports each CPU's own P-state" {
	d=$(dump x86_64-dell_e4310)
	f=$d/$cpu_dir/cpu2/cpufreq
	run "$bin/cstate-stat" --sysroot "$d" -J -c 2 --pstates
	assert_success
	[ "$(jq -c '.cpus[0].pstates | [.cur_khz, .total_trans]' <<<"$output")" = "[$(val "$f/scaling_cur_freq"),$(val "$f/stats/total_trans")]" ]
	[ "$(jq -c '[.cpus[0].pstates.time_in_state[].time_ms]' <<<"$output")" = "$(awk '{ printf "%s%d", (NR > 1 ? "," : "["), $2 * 10 } END { print "]" }' "$f/stats/time_in_state")" ]
}

@test "an owner's folder with links from its siblings is one policy (armv7)" {
	d=$(dump armv7)
	[ -L "$d/$cpu_dir/cpu1/cpufreq" ] && [ ! -L "$d/$cpu_dir/cpu0/cpufreq" ]
	run "$bin/pmctl" --sysroot "$d" freq -J
	assert_success
	f=$d/$cpu_dir/cpu0/cpufreq
	[ "$(jq -c '.policies | map([.policy, .cpus, .affected_cpus, .max_khz])' <<<"$output")" = "[[0,[0,1],[0,1],$(val "$f/scaling_max_freq")]]" ]
}

# arm-biglittle as a kernel before 4.3 made it: the first CPU of each
# cluster owns a real folder, its siblings link to it.
owner_tree() {
	local fx c p
	fresh -v fx arm-biglittle
	c=$fx/$cpu_dir
	for p in 0 4; do
		rm "$c/cpu$p/cpufreq"
		mv "$c/cpufreq/policy$p" "$c/cpu$p/cpufreq"
	done
	for p in 1 2 3; do ln -sfn ../cpu0/cpufreq "$c/cpu$p/cpufreq"; done
	ln -sfn ../cpu4/cpufreq "$c/cpu5/cpufreq"
	printf '%s\n' "$fx"
}

@test "owner folders with links: read and written through the owner" {
	fx=$(owner_tree)
	c=$fx/$cpu_dir
	run "$bin/pmctl" --sysroot "$fx" freq -J
	assert_success
	[ "$(jq -c '.policies | map([.policy, .cpus])' <<<"$output")" = '[[0,[0,1,2,3]],[4,[4,5]]]' ]
	before=$(tree_sum "$fx")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -c 5 freq set --max 1.2GHz
	assert_success
	[ "$(changed "$fx" "$before")" = "sys/devices/system/cpu/cpu4/cpufreq/scaling_max_freq" ]
	[ "$(val "$c/cpu4/cpufreq/scaling_max_freq")" = 1200000 ]
	[[ $stderr == *"cpu4/cpufreq (cpus 4-5) is shared: the change applies to cpus 4 too"* ]]
}

@test "before 4.3: the setters write exactly the CPUs asked" {
	d=$(dump_copy x86_64-dell_e4310)
	c=$d/$cpu_dir
	before=$(tree_sum "$d")
	run "$bin/pmctl" --sysroot "$d" -c 2 freq set --governor performance
	assert_success
	[ "$(changed "$d" "$before")" = "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor" ]
	run "$bin/pmctl" --sysroot "$d" freq set --governor powersave --max 2GHz
	assert_success
	for n in 0 1 2 3; do
		[ "$(val "$c/cpu$n/cpufreq/scaling_governor")" = powersave ] || fail "cpu$n governor"
		[ "$(val "$c/cpu$n/cpufreq/scaling_max_freq")" = 2000000 ] || fail "cpu$n max"
	done
	d=$(dump_copy x86_64-dell_e4310)
	before=$(tree_sum "$d")
	run "$bin/opp-set" --sysroot "$d" -s 'cpufreq:2.governor=performance'
	assert_success
	[ "$(changed "$d" "$before" | grep -v '^run/')" = "sys/devices/system/cpu/cpu2/cpufreq/scaling_governor" ]
	run "$bin/opp-set" --sysroot "$d" -s 'cpufreq:1-3.max=1.6GHz' -s cpufreq.governor=userspace
	assert_success
	[ "$(cat "$d"/$cpu_dir/cpu[0-3]/cpufreq/scaling_governor | sort -u)" = userspace ]
	[ "$(cat "$d"/$cpu_dir/cpu[1-3]/cpufreq/scaling_max_freq | sort -u)" = 1599000 ] ||
		[ "$(cat "$d"/$cpu_dir/cpu[1-3]/cpufreq/scaling_max_freq | sort -u)" = 1600000 ]
	[ "$(val "$d/$cpu_dir/cpu0/cpufreq/scaling_max_freq")" = 2667000 ]
}

@test "before 4.3: a write that fails on cpu3 undoes cpu0-2's" {
	fault_so
	d=$(dump_copy x86_64-dell_e4310)
	before=$(tree_sum "$d")
	LD_PRELOAD=$so PM_FAULT_WRITE="*/cpu3/cpufreq/scaling_governor=EIO" \
		run --separate-stderr "$bin/pmctl" --sysroot "$d" freq set --governor performance
	assert_failure 1
	[[ $stderr == *"cpu3/cpufreq"* ]]
	[ "$(tree_sum "$d")" = "$before" ]
	LD_PRELOAD=$so PM_FAULT_WRITE="*/cpu3/cpufreq/scaling_governor=EIO" \
		run --separate-stderr "$bin/opp-set" --sysroot "$d" -s cpufreq.governor=performance
	assert_failure 1
	[ "$(tree_sum "$d" | grep -v ' \./run/')" = "$(grep -v ' \./run/' <<<"$before")" ]
}

@test "a phone's clusters: a table per set of CPUs with the same states" {
	d=$(dump arm-A510-A710-A715-X3)
	c=$d/$cpu_dir
	run --separate-stderr "$bin/pmctl" --sysroot "$d" idle
	assert_success
	assert_line "cpus 0-2:"
	assert_line "cpus 3-6:"
	assert_line "cpu7:"
	# Each group's rows are its CPUs' files.
	for g in "0 cpus 0-2: 3" "3 cpus 3-6: 4" "7 cpu7: 1"; do
		read -r cpu head n <<<"$g"
		head=${g#* }
		head=${head% *}
		blk=$(awk -v h="$head" '$0 == h { on = 1; next } /^cpus? ?[0-9]/ { on = 0 } on' <<<"$output")
		for s in "$c/cpu$cpu"/cpuidle/state*; do
			i=${s##*state}
			row=$(printf '%3s %-15s %8s %8s %9s  %s' "$i" "$(val "$s/name")" "$(val "$s/latency")" \
				"$(val "$s/residency")" "0/${g##* }" "$(val "$s/desc")")
			grep -qxF -- "$row" <<<"$blk" || fail "cpu$cpu state$i: no row '$row' in: $blk"
		done
	done
	run "$bin/pmctl" --sysroot "$d"
	assert_line "  states (cpus 0-2): WFI(1us) silver-c4(1300us)"
	assert_line "  states (cpus 3-6): WFI(1us) gold-c4(1900us)"
	assert_line "  states (cpu7): WFI(1us) gold-plus-c4(1850us)"
	# JSON: every online CPU in exactly one group, with its own states.
	run "$bin/pmctl" --sysroot "$d" idle -J
	assert_success
	for cpu in 0 1 2 3 4 5 6 7; do
		got=$(jq -c --argjson c "$cpu" '[.cpuidle.groups[] | select(.cpus | index($c))] |
			map([.states[] | [.name, .latency_us, .residency_us]])' <<<"$output")
		want='[['
		for s in "$c/cpu$cpu"/cpuidle/state*; do
			want+="[\"$(val "$s/name")\",$(val "$s/latency"),$(val "$s/residency")],"
		done
		want="${want%,}]]"
		[ "$got" = "$want" ] || fail "cpu$cpu: $got, files $want"
	done
}

@test "a phone's clusters: DISABLED counts the CPUs that have the state" {
	d=$(dump_copy arm-A510-A710-A715-X3)
	c=$d/$cpu_dir
	echo 1 >"$c/cpu4/cpuidle/state1/disable"
	run "$bin/pmctl" --sysroot "$d" idle
	assert_success
	assert_line "  1 silver-c4           1300     6700       0/3  rail-pc"
	assert_line "  1 gold-c4             1900     8136       1/4  rail-pc"
	assert_line "  1 gold-plus-c4        1850     7480       0/1  rail-pc"
	run "$bin/pmctl" --sysroot "$d" idle -J
	[ "$(jq -c '[.cpuidle.groups[] | [.states[].disabled_cpus]]' <<<"$output")" = '[[0,0],[0,1],[0,0]]' ]
}

@test "a phone's clusters: idle disable NAME writes the CPUs that have it" {
	d=$(dump_copy arm-A510-A710-A715-X3)
	before=$(tree_sum "$d")
	run --separate-stderr "$bin/pmctl" --sysroot "$d" idle disable gold-c4
	assert_success
	[ "$(changed "$d" "$before" | grep -v '^run/' | tr '\n' ' ')" = "$(printf 'sys/devices/system/cpu/cpu%s/cpuidle/state1/disable ' 3 4 5 6)" ]
	[[ $stderr == *"cpus 0-2,7 have no idle state 'gold-c4': left alone"* ]]
	refused 3 pmctl "$d" idle disable C9
	[[ ${stderr_lines[0]} == "pmctl: no idle state 'C9' on the selected CPUs (cpus 0-2: 0:WFI 1:silver-c4; cpus 3-6: 0:WFI 1:gold-c4; cpus 7: 0:WFI 1:gold-plus-c4)" ]]
	d=$(dump_copy arm-A510-A710-A715-X3)
	before=$(tree_sum "$d")
	run "$bin/opp-set" --sysroot "$d" -s 'cpuidle.disable=gold-c4 gold-plus-c4'
	assert_success
	[ "$(changed "$d" "$before" | grep -v '^run/' | tr '\n' ' ')" = "$(printf 'sys/devices/system/cpu/cpu%s/cpuidle/state1/disable ' 3 4 5 6 7)" ]
	refused 3 opp-set "$d" -s 'cpuidle.disable=C9'
}

@test "unknowns: CPUFREQ_ETERNAL is null, no disable file is '-' and null" {
	d=$(dump vbox-win)
	[ "$(val "$d/$cpu_dir/cpu0/cpufreq/cpuinfo_transition_latency")" = 4294967295 ]
	run "$bin/pmctl" --sysroot "$d" freq -J
	assert_success
	[ "$(jq -c '[.policies[].transition_latency_ns]' <<<"$output")" = '[null,null]' ]
	d=$(dump x86_64-dell_e4310)
	[ -z "$(find "$d/$cpu_dir" -path '*/cpuidle/state*/disable')" ]
	run "$bin/pmctl" --sysroot "$d" idle
	assert_success
	assert_line "  3 NHM-C6               200        -         -  MWAIT 0x20"
	refute_output --partial "/4"
	run "$bin/pmctl" --sysroot "$d" idle -J
	[ "$(jq -c '[.cpuidle.states[].disabled_cpus] | unique' <<<"$output")" = '[null]' ]
}

@test "256 CPUs: alike policies share a block, JSON keeps every one" {
	fixture -v fx server
	ids=$(find "$fx/$cpu_dir/cpufreq" -maxdepth 1 -name 'policy*' | wc -l)
	[ "$ids" = 128 ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq
	assert_success
	[ "${#lines[@]}" -le 10 ] || fail "${#lines[@]} lines"
	assert_line "policy0 ... policy254 (128 policies): cpus 0-255"
	run "$bin/pmctl" --sysroot "$fx" freq -J
	[ "$(jq '.policies | length' <<<"$output")" = 128 ]
	[ "$(jq '[.policies[].cpus | length] | add' <<<"$output")" = 256 ]
}

@test "256 CPUs: freq -c 0-1 reads policy0 only" {
	command -v strace >/dev/null || skip "strace is missing"
	fixture -v fx server
	out="$BATS_TEST_TMPDIR/trace"
	# LeakSanitizer does not run under ptrace.
	ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=open,openat,openat2,readlinkat -o "$out" \
		"$bin/pmctl" --sysroot "$fx" freq -c 0-1 -J >"$BATS_TEST_TMPDIR/json"
	[ "$(jq -c '.policies | map(.policy)' "$BATS_TEST_TMPDIR/json")" = '[0]' ]
	# No other policy's folder is opened.
	grep -q 'cpufreq/policy0"' "$out"
	run ! grep -E 'policy[1-9][0-9]*["/]' "$out"
}

# A machine description with NF frequencies and NS idle states.
long_desc() { # NF NS
	local f='' i
	for ((i = 1; i <= $1; i++)); do f+=${f:+,}$((100000 + i * 1000)); done
	printf 'about "long tables"\narch x86\ncpus 2 nohotplug=0\nclock uptime=100.00\n'
	printf 'cpufreq acpi-cpufreq freqs=%s governors=userspace,performance governor=performance stats\n' "$f"
	printf 'cpuidle acpi_idle governor=menu governors=menu\n'
	for ((i = 0; i < $2; i++)); do
		printf 'cstate C%d desc="state %d" latency=%d residency=%d\n' "$i" "$i" "$i" "$((2 * i))"
	done
}

@test "more than 64 frequencies are shown whole" {
	long_desc 100 2 >"$BATS_TEST_TMPDIR/long.desc"
	fresh -v fx "$BATS_TEST_TMPDIR/long.desc"
	f=$fx/$cpu_dir/cpufreq/policy0/scaling_available_frequencies
	[ "$(wc -w <"$f")" = 100 ]
	run "$bin/pmctl" --sysroot "$fx" freq -J
	assert_success
	[ "$(jq -c '.policies[0].available_khz' <<<"$output")" = "[$(tr -s ' ' '\n' <"$f" | grep . | paste -sd,)]" ]
	run "$bin/pmctl" --sysroot "$fx" freq
	assert_success
	[ "$(grep -o '[0-9.]* [MG]Hz' <<<"$output" | tail -n +4 | wc -l)" -ge 100 ]
	assert_output --partial "200 MHz"
}

@test "more than ten idle states: shown whole, and idle disable C999 finds it" {
	long_desc 3 1000 >"$BATS_TEST_TMPDIR/many.desc"
	fresh -v fx "$BATS_TEST_TMPDIR/many.desc"
	[ -d "$fx/$cpu_dir/cpu1/cpuidle/state999" ]
	run "$bin/pmctl" --sysroot "$fx" idle
	assert_success
	assert_line "999 C999                 999     1998       0/2  state 999"
	run "$bin/pmctl" --sysroot "$fx" idle -J
	[ "$(jq '.cpuidle.states | length' <<<"$output")" = 1000 ]
	before=$(tree_sum "$fx")
	run "$bin/pmctl" --sysroot "$fx" idle disable C999
	assert_success
	[ "$(changed "$fx" "$before" | grep -v '^run/' | tr '\n' ' ')" = "sys/devices/system/cpu/cpu0/cpuidle/state999/disable sys/devices/system/cpu/cpu1/cpuidle/state999/disable " ]
	run "$bin/opp-set" --sysroot "$fx" -s 'cpuidle.disable=C998'
	assert_success
	[ "$(val "$fx/$cpu_dir/cpu1/cpuidle/state998/disable")" = 1 ]
}

@test "cstate-stat keeps ten idle states and names the CPUs that have more" {
	long_desc 3 12 >"$BATS_TEST_TMPDIR/twelve.desc"
	fresh -v fx "$BATS_TEST_TMPDIR/twelve.desc"
	[ -d "$fx/$cpu_dir/cpu1/cpuidle/state11" ]
	note='cstate-stat: cpus 0-1 have more than 10 idle states: only states 0-9 are shown'
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx"
	assert_success
	[ "$stderr" = "$note" ]
	assert_line --regexp '^ +1 +9 C9 '
	refute_output --partial C10
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -c 1 -J
	assert_success
	[ "$stderr" = 'cstate-stat: cpu1 has more than 10 idle states: only states 0-9 are shown' ]
	[ "$(jq -c '[.cpus[0].cstates[].name][9:]' <<<"$output")" = '["C9"]' ]
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -i 0.01 -n 1
	assert_success
	[ "$stderr" = "$note" ]
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -J -- true
	assert_success
	[ "$stderr" = "$note" ]
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" -q
	assert_success
	[ -z "$stderr" ]
	# Ten states, the kernel's most: nothing to say.
	rm -r "$fx/$cpu_dir"/cpu[01]/cpuidle/state1[01]
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx"
	assert_success
	[ -z "$stderr" ]
	assert_line --regexp '^ +1 +9 C9 '
}

# A /proc/interrupts of NROWS device rows on two CPUs; row LAST counts
# BUMP more on CPU 1.
irq_table() { # NROWS BUMP
	local i
	printf '%12s%11s\n' CPU0 CPU1
	for ((i = 0; i < $1; i++)); do
		printf '%5d: %10d %10d  PCI-MSIX-0000:4b:00.0 %d-edge      eth0-q%d\n' \
			"$i" 10 $((20 + (i == $1 - 1 ? $2 : 0))) "$i" "$i"
	done
	printf '%5s: %10d %10d   Local timer interrupts\n' LOC 500 600
}

@test "more than 2048 interrupt rows: the wakeups count them all, the top sees past the 2048th" {
	fresh -v fx vm-haltpoll
	irq_table 2100 0 >"$fx/proc/interrupts"
	irq_table 2100 700 >"$BATS_TEST_TMPDIR/after"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" --wakeups -c 0-1 -J -- \
		cp "$BATS_TEST_TMPDIR/after" "$fx/proc/interrupts"
	assert_success
	# The 700 of row 2099 are CPU 1's wakeups, though past the 2048th row.
	[ "$(jq -c '[.cpus[].wakeups_per_s > 0] ' <<<"$output")" = '[false,true]' ]
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" --wakeups -c 0-1 -- \
		cp "$fx/proc/interrupts" "$BATS_TEST_TMPDIR/again"
	irq_table 2100 0 >"$fx/proc/interrupts"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" --wakeups -c 0-1 -- \
		cp "$BATS_TEST_TMPDIR/after" "$fx/proc/interrupts"
	assert_success
	assert_output --partial "top: 2099 (eth0-q2099)"
}
