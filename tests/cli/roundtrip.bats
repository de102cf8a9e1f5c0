#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr come from helpers.bash and run
# Round trips that must hold on every real machine's dump: opp-set --save
# writes what -f can apply back, and -f of it restores every value the
# save covers after the raw files were changed behind its back.
# tests/run: reads the corpus

load helpers

cpu_dir=sys/devices/system/cpu

# Unpacked and copied on tmpfs where there is one: 38 000 small files.
setup_file() {
	local t=$BATS_FILE_TMPDIR
	[ -d /dev/shm ] && [ -w /dev/shm ] && t=/dev/shm
	WORK=$(mktemp -d "$t/pmtools-roundtrip.XXXXXX")
	export WORK DUMPDIR="$WORK/dumps"
	mkdir -p "$DUMPDIR"
	for f in "$dumps"/*.tar.*; do
		tar -xf "$f" -C "$DUMPDIR"
	done
}

teardown_file() {
	rm -rf "$WORK"
}

setup() {
	load_libs
	mapfile -t names < <(dump_names)
	[ "${#names[@]}" -ge 20 ]
}

# Bash builtins only below: thousands of files, no fork for each.

# The first line of a file into VAR.
line() { # VAR FILE
	local -n _v=$1
	_v=
	IFS= read -r _v <"$2" || [ -n "$_v" ]
}

# Two files hold the same bytes.
same() {
	local a b
	IFS= read -r -d '' a <"$1" || :
	IFS= read -r -d '' b <"$2" || :
	[ "$a" = "$b" ]
}

# A word of a list file other than the file's own value, or nothing.
other_word() { # LIST_FILE VALUE_FILE
	local w cur list
	local -a ws
	line cur "$2" || return 0
	line list "$1" || return 0
	read -ra ws <<<"${list//[\[\]]/ }"
	for w in "${ws[@]}"; do
		if [ "$w" != "$cur" ]; then
			printf '%s\n' "$w"
			return
		fi
	done
}

# Change, behind the tools' back, what a saved point restores: each
# policy's governor, max and EPP, every idle state's disable, the
# cpuidle governor.  Prints the files it changed, one a line.
perturb() {
	local c=$1/$cpu_dir f w mn mx
	for f in "$c"/cpufreq/policy* "$c"/cpu[0-9]*/cpufreq; do
		if [ ! -d "$f" ] || [ -L "$f" ]; then continue; fi
		if [ -s "$f/scaling_available_governors" ] && [ -s "$f/scaling_governor" ]; then
			w=$(other_word "$f/scaling_available_governors" "$f/scaling_governor")
			[ -z "$w" ] || { echo "$w" >"$f/scaling_governor" && echo "$f/scaling_governor"; }
		fi
		if line mn "$f/cpuinfo_min_freq" && line mx "$f/scaling_max_freq" &&
			[ -n "$mn" ] && [ -n "$mx" ] && [ "$mn" != "$mx" ]; then
			echo "$mn" >"$f/scaling_max_freq" && echo "$f/scaling_max_freq"
		fi
		if [ -s "$f/energy_performance_available_preferences" ] &&
			[ -s "$f/energy_performance_preference" ]; then
			w=$(other_word "$f/energy_performance_available_preferences" "$f/energy_performance_preference")
			[ -z "$w" ] || { echo "$w" >"$f/energy_performance_preference" && echo "$f/energy_performance_preference"; }
		fi
	done 2>/dev/null
	for f in "$c"/cpu[0-9]*/cpuidle/state*/disable; do
		[ -f "$f" ] || continue
		echo 1 >"$f" && echo "$f"
	done
	if [ -f "$c/cpuidle/current_governor" ] && [ -s "$c/cpuidle/available_governors" ]; then
		w=$(other_word "$c/cpuidle/available_governors" "$c/cpuidle/current_governor")
		[ -z "$w" ] || { echo "$w" >"$c/cpuidle/current_governor" && echo "$c/cpuidle/current_governor"; }
	fi
}

# The files of tree $1 written after file $2 (not the writers' lock nor
# the record of the last point), root-relative.
written() { find "$1" -type f -newer "$2" ! -path "$1/run/*" -printf '%P\n' | sort; }

@test "opp-set --save then -f on every dump: the saved values come back" {
	local all=0 i k=0
	for i in "${!names[@]}"; do
		sampled "$i" 3 || continue
		k=$((k + 1))
		n=${names[i]}
		d="$WORK/$n" orig="$DUMPDIR/$n" mark="$WORK/mark"
		copy_tree "$orig" "$d"
		conf="$BATS_TEST_TMPDIR/$n.conf"
		run --separate-stderr "$bin/opp-set" --sysroot "$d" --save "$conf"
		[ "$status" -eq 0 ] || fail "$n: --save exit $status: $stderr"
		# Nothing -f cannot write back: no empty [cpuidle] disable on a
		# kernel without disable files.
		if [ -z "$(find "$d/$cpu_dir" -path '*/cpuidle/state*/disable' 2>/dev/null)" ]; then
			run ! grep -q '^disable' "$conf"
		fi
		touch "$mark"
		sleep 0.01
		run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$conf"
		[ "$status" -eq 0 ] || fail "$n: -f of its own save: exit $status: $stderr"
		[ -z "$(written "$d" "$mark")" ] || fail "$n: -f of its own save wrote $(written "$d" "$mark")"
		mapfile -t changed < <(perturb "$d")
		all=$((all + ${#changed[@]}))
		touch "$mark"
		sleep 0.01
		run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$conf"
		[ "$status" -eq 0 ] || fail "$n: -f after ${#changed[@]} changes: exit $status: $stderr"
		# What was changed is back, and what -f wrote is the dump's own.
		for f in "${changed[@]}"; do
			same "$f" "$orig/${f#"$d"/}" || fail "$n: ${f#"$d"/} not restored: $(<"$f")"
		done
		while IFS= read -r f; do
			same "$d/$f" "$orig/$f" || fail "$n: $f written as $(<"$d/$f")"
		done < <(written "$d" "$mark")
		rm -rf "$d"
	done
	echo "# $all files changed behind opp-set's back, all restored" >&3
	sample_note "$k" "${#names[@]}" dumps
	# Every dump of the corpus changes more than 500 files in all; a
	# sample of them at least one each.
	if [ "$k" -eq "${#names[@]}" ]; then [ "$all" -gt 500 ]; else [ "$all" -ge "$k" ]; fi
}

@test "--save of the old dumps: one section per CPU's folder, no disable" {
	for n in x86_64-dell_e4310 x86_64-64cpu; do
		conf="$BATS_TEST_TMPDIR/$n.conf"
		run "$bin/opp-set" --sysroot "$DUMPDIR/$n" --save "$conf"
		assert_success
		want=$(find "$DUMPDIR/$n/$cpu_dir" -maxdepth 2 -path '*/cpu[0-9]*/cpufreq' -type d | wc -l)
		[ "$(grep -c '^\[cpufreq cpus=[0-9]*\]$' "$conf")" = "$want" ]
		run ! grep -q '^disable' "$conf"
		# A point that asks for disable there names what is missing.
		d="$WORK/old-$n"
		copy_tree "$DUMPDIR/$n" "$d"
		refused 3 opp-set "$d" -s 'cpuidle.disable=1'
		[[ ${stderr_lines[0]} == *"no disable file"*"cpuidle/stateK/disable is missing"* ]]
	done
}
