#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr, $stderr_lines come from helpers.bash and run
# pmctl status and pmctl freq on every fixture: the values are the files'
# (expected documents are built here from the fixture files, not from the
# tool), null where a file is missing, kv that a shell can eval, the CPU
# selection of freq, and bad input that changes nothing.

load helpers

machines=(laptop2006 hwp-laptop amd-desktop arm-biglittle server vm-haltpoll)
cpu_dir=sys/devices/system/cpu

# The server is scaled down to 16 CPUs (8 policies of 2) to keep the file fast.
fx_of() { # [-v VAR] NAME
	local -a _fo_v=()
	[ "$1" != -v ] || { _fo_v=(-v "$2") && shift 2; }
	if [ "$1" = server ]; then fixture "${_fo_v[@]}" server --cpus 16; else fixture "${_fo_v[@]}" "$1"; fi
}

setup_file() {
	# Build the fixtures side by side, once for the whole file.
	for m in "${machines[@]}"; do
		fx_of "$m" >/dev/null &
	done
	wait
	for m in "${machines[@]}"; do
		[ -d "$(fx_of "$m")/sys" ] || {
			echo "# fixture $m did not build" >&3
			return 1
		}
	done
}

setup() {
	load_libs
}

# ---------------------------------------------------------------- values
# The JSON pmctl(8) promises for one file, appended to $J without a fork
# (thousands of files are read): null when the file is missing or empty.

# rd VAR FILE: the file without its trailing newlines; fails when missing or empty.
rd() {
	local -n _r=$1
	_r=
	[ -f "$2" ] && [ -r "$2" ] || return 1
	IFS= read -r -d '' _r <"$2" || :
	while [[ $_r == *$'\n' ]]; do _r=${_r%$'\n'}; done
	[ -n "$_r" ]
}
j_num() {
	local v
	if rd v "$1"; then J+=$v; else J+=null; fi
}
j_str() {
	local v
	if rd v "$1"; then
		v=${v//\\/\\\\}
		J+="\"${v//\"/\\\"}\""
	else
		J+=null
	fi
}
# Space-separated words as an array of strings ([] when missing).
j_words() {
	local v x out=''
	local -a wl=()
	rd v "$1" || v=''
	read -ra wl <<<"$v"
	for x in "${wl[@]}"; do out+=",\"$x\""; done
	J+="[${out#,}]"
}
j_words_or_null() {
	local v
	if rd v "$1"; then j_words "$1"; else J+=null; fi
}
j_bool() {
	local v
	if ! rd v "$1"; then
		J+=null
	elif [ "$v" = 0 ]; then
		J+=false
	else
		J+=true
	fi
}
# A kernel range list "0-3,6" (or a spaced list "0 1 2") as an array.
j_cpus() {
	local v p a b out=''
	local -a parts=()
	rd v "$1" || v=''
	IFS=', ' read -ra parts <<<"$v"
	for p in "${parts[@]}"; do
		[ -n "$p" ] || continue
		if [[ $p == *-* ]]; then
			a=${p%-*} b=${p#*-}
			for ((; a <= b; a++)); do out+=",$a"; done
		else
			out+=",$p"
		fi
	done
	J+="[${out#,}]"
}
# "s2idle [deep]" -> {"available": [...], "current": ...}, null when missing.
j_choices() {
	local v cur=null x out=''
	local -a wl=()
	if ! rd v "$1"; then
		J+=null
		return
	fi
	[[ $v =~ \[([^]]*)\] ]] && cur="\"${BASH_REMATCH[1]}\""
	v=${v//[/ }
	read -ra wl <<<"${v//]/ }"
	for x in "${wl[@]}"; do out+=",\"$x\""; done
	J+="{\"available\":[${out#,}],\"current\":$cur}"
}
# j_obj KEY=TYPE:ARG...: an object; TYPE is num, str, words, words_or_null,
# bool, cpus or choices of the file ARG, or raw (ARG is the JSON itself).
j_obj() {
	local sep='{' a k t
	for a in "$@"; do
		k=${a%%=*} t=${a#*=}
		J+="$sep\"$k\":"
		sep=,
		if [ "${t%%:*}" = raw ]; then J+=${t#*:}; else "j_${t%%:*}" "${t#*:}"; fi
	done
	J+='}'
}
# The same as plain functions, for the tests themselves.
val() {
	local v
	rd v "$1" || return 1
	printf '%s' "$v"
}
num() {
	local J=''
	j_num "$1"
	printf '%s' "$J"
}
cpus() {
	local J=''
	j_cpus "$1"
	printf '%s' "$J"
}
# The words of a file joined by single spaces (the kernel ends some lists with a space).
flat() {
	local v
	local -a wl=()
	rd v "$1" || v=''
	read -ra wl <<<"$v"
	printf '%s' "${wl[*]}"
}

# kHz the way the human format prints it: three decimals rounded down.
# Three decimals of the unit, rounded to the nearest (half up).
fmt_khz() {
	local k=$1 u n f m
	if ((k >= 1000000)); then
		u=1000000 n=GHz
	elif ((k >= 1000)); then
		u=1000 n=MHz
	else
		printf '%s kHz' "$k"
		return
	fi
	m=$(((k * 1000 + u / 2) / u))
	printf -v f '%03d' $((m % 1000))
	while [[ $f == *0 ]]; do f=${f%0}; done
	if [ -n "$f" ]; then printf '%s.%s %s' $((m / 1000)) "$f" "$n"; else printf '%s %s' $((m / 1000)) "$n"; fi
}

# A devfreq frequency: exact Hz, or as fmt_khz when whole kHz.
fmt_hz() {
	if (($1 % 1000)); then printf '%s Hz' "$1"; else fmt_khz $(($1 / 1000)); fi
}

# The policy numbers of a fixture, in order.
policy_ids() {
	local p
	for p in "$1/$cpu_dir"/cpufreq/policy*; do
		[ -d "$p" ] && printf '%s\n' "${p##*policy}"
	done | sort -n
}

j_policy() { # DIR ID
	local d=$1
	j_obj policy=raw:"$2" cpus=cpus:"$d/related_cpus" affected_cpus=cpus:"$d/affected_cpus" \
		driver=str:"$d/scaling_driver" governor=str:"$d/scaling_governor" \
		min_khz=num:"$d/scaling_min_freq" max_khz=num:"$d/scaling_max_freq" \
		cpuinfo_min_khz=num:"$d/cpuinfo_min_freq" cpuinfo_max_khz=num:"$d/cpuinfo_max_freq" \
		cur_khz=num:"$d/scaling_cur_freq" available_governors=words:"$d/scaling_available_governors" \
		epp=str:"$d/energy_performance_preference"
}

j_policies() { # FX [ID...]
	local fx=$1 id sep=''
	shift
	local -a ids=("$@")
	[ $# -gt 0 ] || mapfile -t ids < <(policy_ids "$fx")
	J+='['
	for id in "${ids[@]}"; do
		J+=$sep
		sep=,
		j_policy "$fx/$cpu_dir/cpufreq/policy$id" "$id"
	done
	J+=']'
}
want_policies() {
	local J=''
	j_policies "$@"
	printf '%s' "$J"
}

# power_w, time_left_s, capacity_pct and health_pct as pmctl(8) documents them.
supply_calc() { # DIR -> "POWER_W TIME_LEFT_S CAPACITY_PCT HEALTH_PCT" (JSON values)
	local d=$1
	awk -v P="$(num "$d/power_now")" -v I="$(num "$d/current_now")" \
		-v V="$(num "$d/voltage_now")" -v EN="$(num "$d/energy_now")" \
		-v EF="$(num "$d/energy_full")" -v CN="$(num "$d/charge_now")" \
		-v CF="$(num "$d/charge_full")" -v S="$(val "$d/status")" \
		-v C="$(num "$d/capacity")" \
		-v EFD="$(num "$d/energy_full_design")" -v CFD="$(num "$d/charge_full_design")" '
	function abs(x) { return x < 0 ? -x : x }
	function near(a, b) { return int((2 * a + b) / (2 * b)) }
	BEGIN {
		w = "null"; draw = "null"
		if (P != "null") draw = abs(P)
		else if (I != "null" && V != "null") draw = near(abs(I) * abs(V), 1e6)
		if (draw != "null") w = sprintf("%.3f", draw / 1e6)
		c = C
		if (c == "null" && EN != "null" && EF != "null" && EF > 0) c = near(EN * 100, EF)
		else if (c == "null" && CN != "null" && CF != "null" && CF > 0) c = near(CN * 100, CF)
		if (c != "null" && c > 100) c = 100
		t = "null"
		if (S == "Discharging" || S == "Charging") {
			ok = 1
			if (EN != "null" && draw != "null") { now = EN; full = EF; rate = draw }
			else if (CN != "null" && I != "null") { now = CN; full = CF; rate = abs(I) }
			else ok = 0
			if (ok && rate > 0) {
				if (S == "Discharging") t = near(now * 3600, rate)
				else if (full != "null")
					t = full > now ? near((full - now) * 3600, rate) : 0
			}
		}
		h = "null"
		if (EF != "null" && EFD != "null" && EF + 0 > 0 && EFD + 0 > 0)
			h = sprintf("%.1f", 100 * EF / EFD)
		else if (CF != "null" && CFD != "null" && CF + 0 > 0 && CFD + 0 > 0)
			h = sprintf("%.1f", 100 * CF / CFD)
		print w, t, c, h
	}'
}

j_supplies() {
	local fx=$1 d pw tl cap hp sep=''
	J+='['
	for d in "$fx"/sys/class/power_supply/*; do
		[ -d "$d" ] || continue
		read -r pw tl cap hp < <(supply_calc "$d")
		J+=$sep
		sep=,
		j_obj name=raw:"\"${d##*/}\"" type=str:"$d/type" status=str:"$d/status" online=bool:"$d/online" \
			capacity_pct=raw:"$cap" power_uw=num:"$d/power_now" energy_now_uwh=num:"$d/energy_now" \
			energy_full_uwh=num:"$d/energy_full" charge_now_uah=num:"$d/charge_now" \
			charge_full_uah=num:"$d/charge_full" current_ua=num:"$d/current_now" \
			voltage_uv=num:"$d/voltage_now" power_w=raw:"$pw" time_left_s=raw:"$tl" \
			charge_start_pct=num:"$d/charge_control_start_threshold" \
			charge_stop_pct=num:"$d/charge_control_end_threshold" \
			charge_behaviour=choices:"$d/charge_behaviour" \
			energy_full_design_uwh=num:"$d/energy_full_design" \
			charge_full_design_uah=num:"$d/charge_full_design" health_pct=raw:"$hp" \
			cycle_count=num:"$d/cycle_count"
	done
	J+=']'
}
want_supplies() {
	local J=''
	j_supplies "$@"
	printf '%s' "$J"
}

j_cpuidle() {
	local fx=$1 c="$1/$cpu_dir/cpuidle" st k dis known sep='' gov cpu f v
	local -a online
	if [ ! -d "$c" ]; then
		J+=null
		return
	fi
	gov=str:$c/current_governor
	[ -f "$c/current_governor" ] || gov=str:$c/current_governor_ro
	IFS=' ' read -ra online <<<"$(cpus "$fx/$cpu_dir/online" | tr -d '[]' | tr , ' ')"
	j_obj driver=str:"$c/current_driver" governor="$gov" available_governors=words:"$c/available_governors"
	J=${J%\}}',"states":['
	for st in "$fx/$cpu_dir/cpu${online[0]}"/cpuidle/state*; do
		k=${st##*state}
		dis=0 known=0
		for cpu in "${online[@]}"; do
			f="$fx/$cpu_dir/cpu$cpu/cpuidle/state$k/disable"
			rd v "$f" || continue
			known=1
			[ "$v" = 1 ] && dis=$((dis + 1))
		done
		[ "$known" = 1 ] || dis=null
		J+=$sep
		sep=,
		j_obj index=raw:"$k" name=str:"$st/name" latency_us=num:"$st/latency" \
			residency_us=num:"$st/residency" disabled_cpus=raw:"$dis"
	done
	J+=']}'
}

# The status document pmctl(8) describes, from the files alone.
want_status() {
	local fx=$1 c="$1/$cpu_dir" p="$1/sys/power" a="$1/sys/firmware/acpi" J='' z d sep
	J+='{"cpufreq":{"policies":'
	j_policies "$fx"
	J+=',"boost":'
	j_bool "$c/cpufreq/boost"
	J+=',"intel_pstate":'
	if [ -f "$c/intel_pstate/status" ]; then
		j_obj status=str:"$c/intel_pstate/status" no_turbo=bool:"$c/intel_pstate/no_turbo" \
			min_perf_pct=num:"$c/intel_pstate/min_perf_pct" max_perf_pct=num:"$c/intel_pstate/max_perf_pct" \
			num_pstates=num:"$c/intel_pstate/num_pstates" turbo_pct=num:"$c/intel_pstate/turbo_pct" \
			hwp_dynamic_boost=num:"$c/intel_pstate/hwp_dynamic_boost"
	else
		J+=null
	fi
	J+=',"amd_pstate":'
	if [ -f "$c/amd_pstate/status" ]; then
		j_obj status=str:"$c/amd_pstate/status" prefcore=str:"$c/amd_pstate/prefcore"
	else
		J+=null
	fi
	J+='},"cpuidle":'
	j_cpuidle "$fx"
	J+=',"cpus":'
	j_obj present=cpus:"$c/present" possible=cpus:"$c/possible" online=cpus:"$c/online" \
		offline=cpus:"$c/offline" smt_control=str:"$c/smt/control" smt_active=bool:"$c/smt/active"
	J+=',"sleep":'
	if [ -d "$p" ]; then
		j_obj states=words:"$p/state" mem_sleep=choices:"$p/mem_sleep" disk=choices:"$p/disk" \
			resume=str:"$p/resume" suspend_success=num:"$p/suspend_stats/success" \
			suspend_fail=num:"$p/suspend_stats/fail"
	else
		J+=null
	fi
	J+=',"platform_profile":'
	if [ -f "$a/platform_profile" ]; then
		local hs=null h hsep=''
		if [ -d "$fx/sys/class/platform-profile" ]; then
			hs='['
			for h in "$fx"/sys/class/platform-profile/platform-profile-*; do
				[ -d "$h" ] || continue
				local K=$J
				J=''
				j_obj handler=raw:"\"${h##*/}\"" name=str:"$h/name" profile=str:"$h/profile" \
					choices=words_or_null:"$h/choices"
				hs+="$hsep$J"
				hsep=,
				J=$K
			done
			hs+=']'
		fi
		j_obj current=str:"$a/platform_profile" choices=words_or_null:"$a/platform_profile_choices" \
			handlers=raw:"$hs"
	else
		J+=null
	fi
	J+=',"power_supply":'
	j_supplies "$fx"
	J+=',"thermal":['
	sep=''
	for z in $(find "$fx/sys/class/thermal" -maxdepth 1 -name 'thermal_zone*' 2>/dev/null | sort -V); do
		J+=$sep
		sep=,
		j_obj zone=raw:"${z##*zone}" type=str:"$z/type" temp_mc=num:"$z/temp" policy=str:"$z/policy" \
			mode=str:"$z/mode"
	done
	J+='],"devfreq":['
	sep=''
	for d in "$fx"/sys/class/devfreq/*; do
		[ -d "$d" ] || continue
		J+=$sep
		sep=,
		j_obj name=raw:"\"${d##*/}\"" governor=str:"$d/governor" cur_hz=num:"$d/cur_freq" \
			min_hz=num:"$d/min_freq" max_hz=num:"$d/max_freq" available_governors=words:"$d/available_governors"
	done
	J+=']}'
	printf '%s' "$J"
}

# Structural match: every key of WANT is in the document with the same value;
# arrays have the same length; the document may have more keys.
# shellcheck disable=SC2016 # a jq program
jq_match='def match($w):
	. as $d |
	if ($w | type) == "object" then
		($d | type) == "object" and
		([$w | keys[] as $k | ($d | has($k)) and ($d[$k] | match($w[$k]))] | all)
	elif ($w | type) == "array" then
		($d | type) == "array" and ($d | length) == ($w | length) and
		([range(0; $w | length) as $i | $d[$i] | match($w[$i])] | all)
	else $d == $w end;'

# assert_doc JSON WANT [FILTER]: FILTER (default .) of JSON matches WANT.
# One jq when it matches; a WANT that is not JSON is named when it does not.
assert_doc() {
	local got=$1 want=$2 f=${3:-.}
	jq -e --argjson w "$want" "$jq_match $f | match(\$w)" <<<"$got" >/dev/null 2>&1 && return 0
	jq -e . <<<"$want" >/dev/null || fail "bad expected document: $want"
	fail "$(printf 'want: %s\ngot:  %s' "$(jq -Sc . <<<"$want")" "$(jq -Sc "$f" <<<"$got")")"
}

# A copy of fixture NAME that a test may change.
copy_of() {
	local dst="$BATS_TEST_TMPDIR/${2:-copy}"
	cp -a "$(fx_of "$1")" "$dst"
	# The copy is the test's to change, read-only files included.
	chmod -R u+w "$dst"
	printf '%s\n' "$dst"
}

# ============================================================ pmctl status

@test "status on every fixture: exit 0, nothing on stderr, every section once" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" status
		[ "$status" -eq 0 ] || fail "$m: exit $status: $stderr"
		[ -z "$stderr" ] || fail "$m: stderr: $stderr"
		for s in "CPU frequency:" "CPU idle:" "CPUs:" "Sleep:" "Profile:" "Power supply:" "Thermal:" "Devfreq:"; do
			n=$(grep -c "^$s" <<<"$output")
			[ "$n" = 1 ] || fail "$m: '$s' appears $n times"
		done
		# status is the default command.
		run --separate-stderr "$bin/pmctl" --sysroot "$fx"
		[ "$output" = "$(pmctl --sysroot "$fx" status)" ] || fail "$m: pmctl != pmctl status"
	done
}

@test "status: a section the kernel lacks says 'not available', one it has does not" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run "$bin/pmctl" --sysroot "$fx"
		assert_success
		has_freq=$(policy_ids "$fx" | wc -l)
		has_idle=$([ -d "$fx/$cpu_dir/cpuidle" ] && echo 1 || echo 0)
		has_sleep=$([ -d "$fx/sys/power" ] && echo 1 || echo 0)
		has_prof=$([ -f "$fx/sys/firmware/acpi/platform_profile" ] && echo 1 || echo 0)
		has_sup=$(find "$fx/sys/class/power_supply" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
		has_tz=$(find "$fx/sys/class/thermal" -maxdepth 1 -name 'thermal_zone*' 2>/dev/null | wc -l)
		has_df=$(find "$fx/sys/class/devfreq" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
		for pair in "CPU frequency:=$has_freq" "CPU idle:=$has_idle" "Sleep:=$has_sleep" \
			"Profile:=$has_prof" "Power supply:=$has_sup" "Thermal:=$has_tz" "Devfreq:=$has_df"; do
			s=${pair%=*} have=${pair##*=}
			line=$(grep "^$s" <<<"$output")
			if [ "$have" = 0 ]; then
				[[ $line =~ ^"$s"\ +"not available"$ ]] || fail "$m: want '$s not available', got '$line'"
			else
				[[ $line != *"not available"* ]] || fail "$m: '$s' has files but says '$line'"
			fi
		done
	done
}

@test "status: the sections each machine lacks (as the fixtures describe them)" {
	na() { grep -qE "^$1 +not available$" <<<"$output" || fail "$mach: '$1' should be not available"; }
	av() { ! grep -qE "^$1 +not available$" <<<"$output" || fail "$mach: '$1' should be available"; }
	mach=vm-haltpoll
	run "$bin/pmctl" --sysroot "$(fx_of "$mach")"
	na "CPU frequency:"
	na "Power supply:"
	na "Thermal:"
	na "Profile:"
	na "Devfreq:"
	av "CPU idle:"
	av "Sleep:"
	mach=amd-desktop
	run "$bin/pmctl" --sysroot "$(fx_of "$mach")"
	na "Power supply:"
	na "Devfreq:"
	av "Thermal:"
	mach=server
	run "$bin/pmctl" --sysroot "$(fx_of "$mach")"
	na "Power supply:"
	na "Profile:"
	mach=hwp-laptop
	run "$bin/pmctl" --sysroot "$(fx_of "$mach")"
	av "Profile:"
	av "Power supply:"
	mach=arm-biglittle
	run "$bin/pmctl" --sysroot "$(fx_of "$mach")"
	av "Devfreq:"
	na "Profile:"
	na "Power supply:"
}

@test "status --json on every fixture: the values are the files'" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" -J
		[ "$status" -eq 0 ] || fail "$m: exit $status: $stderr"
		[ -z "$stderr" ] || fail "$m: stderr: $stderr"
		want=$(untraced want_status "$fx")
		assert_doc "$output" "$want" || fail "$m"
	done
}

@test "status --json: every key pmctl(8) documents is present on every fixture" {
	keys_policy='["policy","cpus","affected_cpus","driver","governor","min_khz","max_khz",
		"cpuinfo_min_khz","cpuinfo_max_khz","cur_khz","cpuinfo_cur_khz","transition_latency_ns",
		"bios_limit_khz","base_khz","available_governors","available_khz","boost_khz","epp",
		"epp_available","boost","stats","total_trans"]'
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run "$bin/pmctl" --sysroot "$fx" -J
		assert_success
		jq -e --argjson kp "$keys_policy" '
			def all_keys($ks): . as $o | $ks | all(. as $k | $o | has($k));
			all_keys(["cpufreq","cpuidle","cpus","sleep","platform_profile","power_supply","thermal","devfreq"]) and
			(.cpufreq | all_keys(["policies","boost","intel_pstate","amd_pstate"])) and
			(.cpufreq.policies | all(.[]; all_keys($kp))) and
			(.cpufreq.intel_pstate | . == null or all_keys(["status","no_turbo","min_perf_pct",
				"max_perf_pct","num_pstates","turbo_pct","hwp_dynamic_boost"])) and
			(.cpufreq.amd_pstate | . == null or all_keys(["status","prefcore"])) and
			(.cpuidle | . == null or (all_keys(["driver","governor","available_governors","states"]) and
				(.states | all(.[]; all_keys(["index","name","latency_us","residency_us","disabled_cpus"]))))) and
			(.cpus | all_keys(["present","possible","online","offline","smt_control","smt_active"])) and
			(.sleep | . == null or all_keys(["states","mem_sleep","disk","resume","suspend_success","suspend_fail"])) and
			(.platform_profile | . == null or all_keys(["current","choices","handlers"])) and
			(.power_supply | type == "array" and all(.[]; all_keys(["name","type","status","online",
				"capacity_pct","power_uw","energy_now_uwh","energy_full_uwh","charge_now_uah",
				"charge_full_uah","current_ua","voltage_uv","power_w","time_left_s","charge_start_pct",
				"charge_stop_pct","charge_behaviour","energy_full_design_uwh","charge_full_design_uah",
				"health_pct","cycle_count"]))) and
			(.thermal | type == "array" and all(.[]; all_keys(["zone","type","temp_mc","policy","mode"]))) and
			(.devfreq | type == "array" and all(.[]; all_keys(["name","governor","cur_hz","min_hz","max_hz",
				"available_governors"])))' <<<"$output" >/dev/null || fail "$m: a documented key is missing"
		# Lists of CPUs are arrays of integers.
		jq -e '[.cpus.present, .cpus.online, .cpus.offline, (.cpufreq.policies[] | .cpus, .affected_cpus)] |
			all(.[]; type == "array" and all(.[]; type == "number"))' <<<"$output" >/dev/null ||
			fail "$m: CPU lists"
	done
}

@test "status --json: the per-machine values the fixtures describe" {
	run "$bin/pmctl" --sysroot "$(fx_of hwp-laptop)" -J
	assert_success
	jq -e '.cpufreq.intel_pstate == {"status":"active","no_turbo":false,"min_perf_pct":9,
		"max_perf_pct":100,"num_pstates":44,"turbo_pct":43,"hwp_dynamic_boost":0}' <<<"$output"
	jq -e '.cpufreq.policies | length == 8 and all(.[]; .epp == "balance_performance" and
		.driver == "intel_pstate" and .min_khz == 400000 and .max_khz == 4700000)' <<<"$output"
	jq -e '.sleep.mem_sleep == {"available":["s2idle","deep"],"current":"s2idle"}' <<<"$output"
	jq -e '.platform_profile == {"current":"balanced","choices":["low-power","balanced","performance"],
		"handlers":[{"handler":"platform-profile-0","name":"thinkpad-acpi","profile":"balanced",
		"choices":["low-power","balanced","performance"]}]}' <<<"$output"
	# The iwlwifi zone's temp is an empty file: null, not 0.
	jq -e '[.thermal[] | select(.type == "iwlwifi_1") | .temp_mc] == [null]' <<<"$output"
	jq -e '[.thermal[] | select(.type == "acpitz") | .temp_mc] == [44050]' <<<"$output"
	jq -e '.cpus.smt_control == "on" and .cpus.smt_active == true' <<<"$output"

	run "$bin/pmctl" --sysroot "$(fx_of amd-desktop)" -J
	jq -e '.cpufreq.amd_pstate == {"status":"active","prefcore":"enabled"} and
		.cpufreq.intel_pstate == null and .cpufreq.boost == true and .power_supply == []' <<<"$output"
	jq -e '.cpus.online == [range(0;16)] and .cpus.offline == []' <<<"$output"

	run "$bin/pmctl" --sysroot "$(fx_of arm-biglittle)" -J
	jq -e '[.cpufreq.policies[] | [.policy, .cpus]] == [[0,[0,1,2,3]],[4,[4,5]]]' <<<"$output"
	jq -e '.cpufreq.boost == false and .sleep.disk.current == "disabled"' <<<"$output"
	jq -e '[.devfreq[] | [.name, .cur_hz, .min_hz, .max_hz]] ==
		[["dmc",800000000,200000000,800000000],["ff9a0000.gpu",300000000,200000000,800000000]]' <<<"$output"
	jq -e '[.thermal[].temp_mc] == [41875, 40000]' <<<"$output"

	run "$bin/pmctl" --sysroot "$(fx_of vm-haltpoll)" -J
	jq -e '.cpufreq.policies == [] and .cpufreq.boost == null and .power_supply == [] and
		.thermal == [] and .devfreq == [] and .platform_profile == null and .sleep.mem_sleep == null and
		.sleep.states == ["freeze"] and .cpuidle.driver == "haltpoll"' <<<"$output"
}

@test "status --json: supplies, power_w and time_left_s computed from the files" {
	# laptop2006: mAh battery, current_now x voltage_now, discharging.
	fx_of -v fx laptop2006
	b="$fx/sys/class/power_supply/BAT0"
	run "$bin/pmctl" --sysroot "$fx" -J
	assert_success
	want_w=$(awk -v i="$(<"$b/current_now")" -v v="$(<"$b/voltage_now")" 'BEGIN { printf "%.3f", i * v / 1e12 }')
	want_t=$(awk -v n="$(<"$b/charge_now")" -v i="$(<"$b/current_now")" 'BEGIN { printf "%.0f", n / i * 3600 }')
	[ "$(jq '.power_supply[] | select(.name == "BAT0") | .power_w' <<<"$output")" = "$want_w" ]
	[ "$(jq '.power_supply[] | select(.name == "BAT0") | .time_left_s' <<<"$output")" = "$want_t" ]
	jq -e '.power_supply[] | select(.name == "AC") | .online == true and .type == "Mains" and .power_w == null and .time_left_s == null' <<<"$output"

	# hwp-laptop: mWh battery, power_now, charging: to full.
	fx_of -v fx hwp-laptop
	b="$fx/sys/class/power_supply/BAT0"
	run "$bin/pmctl" --sysroot "$fx" -J
	want_w=$(awk -v p="$(<"$b/power_now")" 'BEGIN { printf "%.3f", p / 1e6 }')
	want_t=$(awk -v f="$(<"$b/energy_full")" -v n="$(<"$b/energy_now")" -v p="$(<"$b/power_now")" \
		'BEGIN { printf "%.0f", (f - n) / p * 3600 }')
	jq -e --argjson w "$want_w" --argjson t "$want_t" --argjson cap "$(<"$b/capacity")" \
		'.power_supply[] | select(.name == "BAT0") | .power_w == $w and .time_left_s == $t and
		.capacity_pct == $cap and .status == "Charging"' <<<"$output"
}

@test "status: the other supply cases (discharging on energy, charging on charge, full, no rate, signed power)" {
	copy_of hwp-laptop h >/dev/null
	copy_of laptop2006 l >/dev/null
	hb=$(readlink -f "$BATS_TEST_TMPDIR/h/sys/class/power_supply/BAT0")
	lb=$(readlink -f "$BATS_TEST_TMPDIR/l/sys/class/power_supply/BAT0")
	check() { # FX
		run --separate-stderr "$bin/pmctl" --sysroot "$1" -J
		assert_success
		assert_doc "$output" "$(untraced want_supplies "$1")" .power_supply
	}
	# energy_now / power_now when discharging; a negative power_now (signed drivers).
	echo Discharging >"$hb/status"
	check "$BATS_TEST_TMPDIR/h"
	echo -18452000 >"$hb/power_now"
	check "$BATS_TEST_TMPDIR/h"
	jq -e '.power_supply[1] | .power_w == 18.452 and .power_uw == -18452000 and .time_left_s > 0' <<<"$output"
	# (charge_full - charge_now) / current_now when charging.
	echo Charging >"$lb/status"
	check "$BATS_TEST_TMPDIR/l"
	# Charged past full: 0 left, not negative.
	echo 4200000 >"$lb/charge_now"
	check "$BATS_TEST_TMPDIR/l"
	jq -e '.power_supply[1].time_left_s == 0' <<<"$output"
	# Full or Not charging: no time.
	echo Full >"$lb/status"
	check "$BATS_TEST_TMPDIR/l"
	jq -e '.power_supply[1].time_left_s == null' <<<"$output"
	# No current: no rate, no time, and power from nothing is null, not 0.
	echo Discharging >"$lb/status"
	echo 0 >"$lb/current_now"
	check "$BATS_TEST_TMPDIR/l"
	jq -e '.power_supply[1].time_left_s == null and .power_supply[1].power_w == 0' <<<"$output"
	rm "$lb/current_now"
	check "$BATS_TEST_TMPDIR/l"
	jq -e '.power_supply[1] | .power_w == null and .current_ua == null and .time_left_s == null' <<<"$output"
}

@test "status --json: a missing file gives null, never 0" {
	h=$(copy_of hwp-laptop h)
	l=$(copy_of laptop2006 l)
	a=$(copy_of arm-biglittle a)
	c=$h/$cpu_dir
	rm "$c/cpufreq/policy0/scaling_governor" "$c/cpufreq/policy0/scaling_min_freq" \
		"$c/cpufreq/policy0/scaling_cur_freq" "$c/cpufreq/policy0/energy_performance_preference" \
		"$c/intel_pstate/no_turbo" "$c/intel_pstate/max_perf_pct" "$c/smt/control" \
		"$h/sys/power/suspend_stats/success" "$h/sys/power/resume" \
		"$h/sys/class/thermal/thermal_zone0/temp" "$h/sys/firmware/acpi/platform_profile_choices"
	rm "$(readlink -f "$h/sys/class/power_supply/BAT0")/capacity"
	rm "$(readlink -f "$l/sys/class/power_supply/BAT0")/voltage_now" "$l/sys/power/mem_sleep"
	rm "$a/sys/class/devfreq/dmc/min_freq" "$a/$cpu_dir/cpufreq/boost"

	run --separate-stderr "$bin/pmctl" --sysroot "$h" -J
	assert_success
	[ -z "$stderr" ]
	jq -e '.cpufreq.policies[0] | .governor == null and .min_khz == null and .cur_khz == null and
		.epp == null and .max_khz == 4700000' <<<"$output"
	jq -e '.cpufreq.policies[1] | .governor == "powersave" and .min_khz == 400000 and .epp == "balance_performance"' <<<"$output"
	jq -e '.cpufreq.intel_pstate | .no_turbo == null and .max_perf_pct == null and .min_perf_pct == 9' <<<"$output"
	jq -e '.cpus.smt_control == null' <<<"$output"
	jq -e '.sleep | .suspend_success == null and .resume == null and .suspend_fail == 0' <<<"$output"
	jq -e --argjson t "$(<"$h/sys/class/thermal/thermal_zone1/temp")" \
		'.thermal[0].temp_mc == null and .thermal[1].temp_mc == $t' <<<"$output"
	jq -e '.platform_profile | .current == "balanced" and .choices == null' <<<"$output"
	# No capacity file: energy_now / energy_full, to the nearest percent.
	jq -e '.power_supply[] | select(.name == "BAT0") | .capacity_pct == 65' <<<"$output"
	assert_doc "$output" "$(untraced want_status "$h")"

	run "$bin/pmctl" --sysroot "$l" -J
	# current_now x voltage_now without the voltage: null watts, not 0.
	jq -e '.power_supply[] | select(.name == "BAT0") | .voltage_uv == null and .power_w == null and .time_left_s != null' <<<"$output"
	jq -e '.sleep.mem_sleep == null' <<<"$output"
	assert_doc "$output" "$(untraced want_status "$l")"

	run "$bin/pmctl" --sysroot "$a" -J
	jq -e '.devfreq[] | select(.name == "dmc") | .min_hz == null and .max_hz == 800000000' <<<"$output"
	jq -e '.cpufreq.boost == null' <<<"$output"
	assert_doc "$output" "$(untraced want_status "$a")"
}

@test "supply: what the kernel leaves out is derived, the same in JSON, prom and human" {
	# laptop2006: no power_now; the draw is current_now x voltage_now,
	# rounded to the microwatt, in prom as in JSON (issue 18 section 6).
	fx_of -v fx laptop2006
	b=$(readlink -f "$fx/sys/class/power_supply/BAT0")
	uw=$(awk -v i="$(<"$b/current_now")" -v v="$(<"$b/voltage_now")" \
		'BEGIN { printf "%d", int((2 * i * v + 1e6) / 2e6) }')
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" status -F prom
	assert_success
	assert_line "pm_power_supply_power_watts{supply=\"BAT0\"} $(python3 -c "print(repr($uw / 1e6))")"
	tl=$(jq '.power_supply[] | select(.name == "BAT0") | .time_left_s' \
		< <("$bin/pmctl" --sysroot "$fx" supply -J))
	assert_line "pm_power_supply_time_left_seconds{supply=\"BAT0\"} $tl"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" supply -J
	jq -e --argjson w "$(awk -v u="$uw" 'BEGIN { printf "%.3f", u / 1e6 }')" \
		'.power_supply[1].power_w == $w' <<<"$output"

	# hwp-laptop without power_now nor capacity, discharging, with
	# current_now: the time left from energy_now and current x voltage,
	# the capacity from energy_now / energy_full.
	h=$(copy_of hwp-laptop h)
	b=$(readlink -f "$h/sys/class/power_supply/BAT0")
	rm "$b/power_now" "$b/capacity"
	echo 1090000 >"$b/current_now"
	echo Discharging >"$b/status"
	uw=$(( (2 * 1090000 * $(<"$b/voltage_now") + 1000000) / 2000000 ))
	want_t=$(( (2 * $(<"$b/energy_now") * 3600 + uw) / (2 * uw) ))
	want_c=$(( (2 * $(<"$b/energy_now") * 100 + $(<"$b/energy_full")) / (2 * $(<"$b/energy_full")) ))
	run --separate-stderr "$bin/pmctl" --sysroot "$h" supply -J
	assert_success
	jq -e --argjson t "$want_t" --argjson c "$want_c" '.power_supply[1] |
		.time_left_s == $t and .capacity_pct == $c and .power_uw == null' <<<"$output"
	assert_doc "$output" "$(untraced want_supplies "$h")" .power_supply
	run --separate-stderr "$bin/pmctl" --sysroot "$h" status -F prom
	assert_line "pm_power_supply_time_left_seconds{supply=\"BAT0\"} $want_t"
	assert_line "pm_power_supply_capacity_ratio{supply=\"BAT0\"} $(python3 -c "print($want_c / 100)")"
	run --separate-stderr "$bin/pmctl" --sysroot "$h" supply
	assert_output --partial "BAT0       Battery  Discharging ${want_c}% 18.4 W, $((want_t / 3600)):"

	# laptop2006 without capacity: charge_now / charge_full.
	l=$(copy_of laptop2006 l)
	b=$(readlink -f "$l/sys/class/power_supply/BAT0")
	rm "$b/capacity"
	want_c=$(( (2 * $(<"$b/charge_now") * 100 + $(<"$b/charge_full")) / (2 * $(<"$b/charge_full")) ))
	run --separate-stderr "$bin/pmctl" --sysroot "$l" supply -J
	jq -e --argjson c "$want_c" '.power_supply[1].capacity_pct == $c' <<<"$output"
	# Charged past full is 100%, not more.
	echo 4200000 >"$b/charge_now"
	run --separate-stderr "$bin/pmctl" --sysroot "$l" supply -J
	jq -e '.power_supply[1].capacity_pct == 100' <<<"$output"
}

@test "status: disabled idle states are counted over the online CPUs" {
	fx=$(copy_of laptop2006 idle)
	c=$fx/$cpu_dir
	echo 1 >"$c/cpu1/cpuidle/state3/disable"
	run "$bin/pmctl" --sysroot "$fx" -J
	assert_success
	jq -e '[.cpuidle.states[].disabled_cpus] == [0,0,0,1]' <<<"$output"
	assert_doc "$output" "$(untraced want_status "$fx")"
	echo 1 >"$c/cpu0/cpuidle/state3/disable"
	echo 1 >"$c/cpu0/cpuidle/state2/disable"
	run "$bin/pmctl" --sysroot "$fx" -J
	jq -e '[.cpuidle.states[].disabled_cpus] == [0,0,1,2]' <<<"$output"
	run "$bin/pmctl" --sysroot "$fx"
	assert_line "  states (cpu0): POLL(0us) C1(1us) C2(1us)[disabled] C3(57us)[disabled]"
	# No disable file anywhere: null, not 0.
	rm "$c"/cpu*/cpuidle/state1/disable
	run "$bin/pmctl" --sysroot "$fx" -J
	jq -e '[.cpuidle.states[].disabled_cpus] == [0,null,1,2]' <<<"$output"
}

@test "status: the human values are the files'" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		c=$fx/$cpu_dir
		run "$bin/pmctl" --sysroot "$fx"
		assert_success
		# CPU frequency: the driver, the count, each policy's governor and limits.
		mapfile -t ids < <(policy_ids "$fx")
		if [ ${#ids[@]} -gt 0 ]; then
			d=$c/cpufreq/policy${ids[0]}
			n=${#ids[@]}
			want="CPU frequency:  $(<"$d/scaling_driver"), $n polic$([ "$n" = 1 ] && echo y || echo ies)"
			grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
			for id in "${ids[@]}"; do
				d=$c/cpufreq/policy$id
				want="$(<"$d/scaling_governor") *$(fmt_khz "$(<"$d/scaling_min_freq")") - $(fmt_khz "$(<"$d/scaling_max_freq")") \\(hw $(fmt_khz "$(<"$d/cpuinfo_min_freq")") - $(fmt_khz "$(<"$d/cpuinfo_max_freq")")\\)"
				[ -f "$d/energy_performance_preference" ] && want+=" EPP $(<"$d/energy_performance_preference")"
				grep -qE "^  cpus [0-9,-]+ +$want" <<<"$output" || fail "$m policy$id: no line like '$want'"
			done
		fi
		if [ -f "$c/cpufreq/boost" ]; then
			want="  boost: $([ "$(<"$c/cpufreq/boost")" = 1 ] && echo on || echo off)"
			grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		fi
		if [ -f "$c/intel_pstate/status" ]; then
			want="  intel_pstate: $(<"$c/intel_pstate/status"), turbo $([ "$(<"$c/intel_pstate/no_turbo")" = 1 ] && echo off || echo on), perf $(<"$c/intel_pstate/min_perf_pct")-$(<"$c/intel_pstate/max_perf_pct")%"
			grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		fi
		if [ -f "$c/amd_pstate/status" ]; then
			want="  amd_pstate: $(<"$c/amd_pstate/status"), prefcore $(<"$c/amd_pstate/prefcore")"
			grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		fi
		# CPU idle: driver and governor; the states of cpu0.
		want="CPU idle:       $(<"$c/cpuidle/current_driver"), governor $(<"$c/cpuidle/current_governor_ro")"
		grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		want="  states (cpu0):"
		for s in "$c"/cpu0/cpuidle/state*; do want+=" $(<"$s/name")($(<"$s/latency")us)"; done
		grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		# CPUs: present count, online and offline lists, SMT.
		np=$(cpus "$c/present" | jq length)
		off=$(val "$c/offline") || off=none
		want="CPUs:           $np present, online $(<"$c/online"), offline $off"
		[ -f "$c/smt/control" ] && want+=", SMT $(<"$c/smt/control")"
		grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		# Sleep: the states and mem_sleep as the kernel prints them.
		want="Sleep:          states $(flat "$fx/sys/power/state")"
		[ -f "$fx/sys/power/mem_sleep" ] && want+="; mem_sleep $(flat "$fx/sys/power/mem_sleep")"
		grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		want="  hibernation: $(flat "$fx/sys/power/disk"); resume $(<"$fx/sys/power/resume")"
		grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		# Profile.
		if [ -f "$fx/sys/firmware/acpi/platform_profile" ]; then
			want="Profile:        $(<"$fx/sys/firmware/acpi/platform_profile") (choices: $(flat "$fx/sys/firmware/acpi/platform_profile_choices"))"
			grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		fi
		# Supplies: capacity, watts with one decimal, h:mm left or to full.
		for s in "$fx"/sys/class/power_supply/*; do
			[ -d "$s" ] || continue
			read -r pw tl cap _ < <(supply_calc "$s")
			want="  $(printf '%-10s %-8s' "${s##*/}" "$(<"$s/type")")"
			if [ "$(<"$s/type")" != Battery ] && [ -f "$s/online" ]; then
				want+=" $([ "$(<"$s/online")" = 0 ] && echo offline || echo online)"
			fi
			[ -f "$s/status" ] && want+=" $(<"$s/status")"
			[ "$cap" != null ] && want+=" $cap%"
			[ "$pw" != null ] && want+=" $(awk -v w="$pw" 'BEGIN { printf "%.1f W", w }')"
			if [ "$tl" != null ]; then
				mins=$(((tl + 30) / 60))
				want+=", $(printf '%d:%02d' $((mins / 60)) $((mins % 60))) $([ "$(<"$s/status")" = Charging ] && echo "to full" || echo left)"
			fi
			grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		done
		# Thermal: every zone's type and temperature, one decimal.
		if ls -d "$fx"/sys/class/thermal/thermal_zone* >/dev/null 2>&1; then
			want=''
			for z in $(find "$fx/sys/class/thermal" -maxdepth 1 -name 'thermal_zone*' | sort -V); do
				if t=$(val "$z/temp"); then
					want+=", $(<"$z/type") $(awk -v t="$t" 'BEGIN { printf "%.1f", t / 1000 }')°C"
				else
					want+=", $(<"$z/type") ?"
				fi
			done
			want="Thermal:        ${want#, }"
			grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		fi
		# Devfreq: governor, current and range (Hz shown in MHz/GHz).
		for d in "$fx"/sys/class/devfreq/*; do
			[ -d "$d" ] || continue
			want="$(printf '  %-16s %-16s' "${d##*/}" "$(<"$d/governor")") $(fmt_hz "$(<"$d/cur_freq")") ($(fmt_hz "$(<"$d/min_freq")") - $(fmt_hz "$(<"$d/max_freq")"))"
			grep -qxF "$want" <<<"$output" || fail "$m: no '$want'"
		done
	done
}

@test "status -F kv: every line is key='value' and the whole output evals in sh" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" -F kv
		[ "$status" -eq 0 ] || fail "$m: exit $status"
		bad=$(grep -vE "^[a-z0-9_]+='([^']|'\\\\'')*'\$" <<<"$output" || true)
		[ -z "$bad" ] || fail "$m: lines that are not key='value': $bad"
		# No key twice.
		dup=$(cut -d= -f1 <<<"$output" | sort | uniq -d)
		[ -z "$dup" ] || fail "$m: keys twice: $dup"
		kv=$output
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" -J
		js=$output
		# The values are the JSON's, read back through sh.
		got=$(sh -c 'eval "$1"; printf "%s|%s|%s|%s" "$cpus_online" "$sleep_states" "${cpuidle_driver-unset}" "${cpufreq_policy0_governor-}"' sh "$kv")
		want=$(jq -r '"\(.cpus.online | map(tostring) | join(" "))|\(.sleep.states | join(" "))|\(.cpuidle.driver)|\(.cpufreq.policies[0].governor // "")"' <<<"$js")
		[ "$got" = "$want" ] || fail "$m: kv gives '$got', JSON '$want'"
	done
	# null is the empty value; an empty array of objects prints no line.
	run "$bin/pmctl" --sysroot "$(fx_of vm-haltpoll)" -F kv
	assert_line "cpufreq_boost=''"
	assert_line "platform_profile=''"
	refute_output --partial "supply0_"
	run "$bin/pmctl" --sysroot "$(fx_of hwp-laptop)" -F kv
	assert_line "cpufreq_policy0_governor='powersave'"
	assert_line "cpufreq_intel_pstate_no_turbo='false'"
	assert_line "supply1_power_w='18.452'"
	assert_line "zone2_temp_mc=''"
}

@test "status: a hostile supply name and model_name stay inert in kv and escaped in JSON" {
	fx=$(copy_of laptop2006 hostile)
	ps=$fx/sys/class/power_supply
	evil=$'BAT$(touch pwned)\'"\nx`touch pwned2`;\\'
	real=$(readlink -f "$ps/BAT0")
	mkdir "$ps/$evil"
	for f in "$real"/*; do
		[ -f "$f" ] && cp "$f" "$ps/$evil/"
	done
	chmod -R u+w "$ps/$evil"
	marker=$BATS_TEST_TMPDIR/model-ran
	printf '%s\n' "\$(touch $marker)'\"\\" >"$ps/$evil/model_name"
	# A type with control bytes and invalid UTF-8.
	printf 'Bat\x01\xff\xfetery\n' >"$ps/$evil/type"

	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -J
	assert_success
	jq -e . <<<"$output" >/dev/null
	# Valid UTF-8 throughout, the name exactly as the folder's, the bad bytes U+FFFD.
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null
	jq -e --arg n "$evil" '[.power_supply[].name] | index($n) != null' <<<"$output"
	jq -e --arg n "$evil" '.power_supply[] | select(.name == $n) | .type == "Bat\u0001\ufffd\ufffdtery"' <<<"$output"
	[[ $output == *'\u0001'* ]]
	[[ $output != *$'\x01'* ]]

	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -F kv
	assert_success
	kv=$output
	idx=$(jq -r --arg n "$evil" '[.power_supply[].name] | index($n)' <<<"$(pmctl --sysroot "$fx" -J)")
	cd "$BATS_TEST_TMPDIR"
	got=$(sh -c 'eval "$1"; eval "printf %s \"\$supply$2_name\""' sh "$kv" "$idx")
	# The newline and the control bytes come back in their text form.
	# shellcheck disable=SC1003,SC2016 # the literal text, not expansions
	[ "$got" = 'BAT$(touch pwned)'"'"'"\nx`touch pwned2`;\' ] ||
		fail "name read back as '$got'"
	got=$(sh -c 'eval "$1"; eval "printf %s \"\$supply$2_type\""' sh "$kv" "$idx")
	[ "$got" = 'Bat\x01\xff\xfetery' ] || fail "type read back as '$got'"
	[ ! -e pwned ] && [ ! -e pwned2 ] && [ ! -e "$marker" ] || fail "eval ran the name"
	# Nothing ran while pmctl read the files either.
	run "$bin/pmctl" --sysroot "$fx"
	[ ! -e "$marker" ]
}

@test "status -c is exit 2: status shows every CPU" {
	fx_of -v fx laptop2006
	bad_input pmctl "$fx" status -c 1
	[[ $stderr == *"--cpu does not apply"* ]]
	bad_input pmctl "$fx" -c 0 status
	bad_input pmctl "$fx" -c all
}

@test "status --format csv is exit 2 (prom is status's, see prom.bats)" {
	fx_of -v fx laptop2006
	bad_input pmctl "$fx" status --format csv
	[[ ${stderr_lines[0]} == *"no csv output"* ]]
	bad_input pmctl "$fx" freq -F csv
	bad_input pmctl "$fx" freq -F prom
}

@test "status --output writes the file atomically: replaced by a rename, no temporary left" {
	fx_of -v fx hwp-laptop
	out=$BATS_TEST_TMPDIR/status.json
	echo old >"$out"
	# A hard link keeps the old inode: a rename leaves it alone, a rewrite would not.
	ln "$out" "$BATS_TEST_TMPDIR/old-link"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -J -o "$out"
	assert_success
	[ -z "$output" ] && [ -z "$stderr" ]
	[ "$(<"$BATS_TEST_TMPDIR/old-link")" = old ]
	[ "$(<"$out")" = "$(pmctl --sysroot "$fx" -J)" ]
	[ "$(find "$BATS_TEST_TMPDIR" -name '.status.json.*' | wc -l)" = 0 ]
	[ "$(stat -c %a "$out")" = 644 ]
	# freq too, in kv.
	run "$bin/pmctl" --sysroot "$fx" freq -F kv --output "$BATS_TEST_TMPDIR/freq.kv"
	assert_success
	assert_output ""
	[ "$(<"$BATS_TEST_TMPDIR/freq.kv")" = "$(pmctl --sysroot "$fx" freq -F kv)" ]
	# A FILE that is a folder: exit 2, the folder untouched, nothing left over.
	mkdir "$BATS_TEST_TMPDIR/dir"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -J -o "$BATS_TEST_TMPDIR/dir"
	assert_failure 2
	[[ $stderr == *"$BATS_TEST_TMPDIR/dir"* ]]
	[ -d "$BATS_TEST_TMPDIR/dir" ] && [ -z "$(ls -A "$BATS_TEST_TMPDIR/dir")" ]
	[ "$(find "$BATS_TEST_TMPDIR" -name '.dir.*' | wc -l)" = 0 ]
}

# ============================================================== pmctl freq

@test "freq --json on every fixture: the policies of CLI.md, equal to the files" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq -J
		if [ "$m" = vm-haltpoll ]; then
			[ "$status" -eq 3 ] || fail "$m: exit $status"
			continue
		fi
		[ "$status" -eq 0 ] || fail "$m: exit $status: $stderr"
		[ -z "$stderr" ] || fail "$m: stderr: $stderr"
		assert_doc "$output" "$(untraced want_policies "$fx")" .policies || fail "$m"
		jq -e '.policies | length > 0 and all(.[]; has("policy") and has("cpus") and has("affected_cpus") and
			has("driver") and has("governor") and has("min_khz") and has("max_khz") and
			has("cpuinfo_min_khz") and has("cpuinfo_max_khz") and has("cur_khz") and
			(.available_governors | type == "array") and has("epp") and
			(.epp == null or (.epp | type == "string")))' <<<"$output" >/dev/null || fail "$m: keys"
		# The same policies as in status.
		[ "$(jq -c .policies <<<"$output")" = "$(pmctl --sysroot "$fx" -J | jq -c .cpufreq.policies)" ] ||
			fail "$m: freq and status differ"
	done
}

# list_has N LIST: CPU N is in the kernel's cpu list LIST ("0-3,8"),
# in bash alone (block_of asks it for every header of every policy).
list_has() {
	local r IFS=,
	for r in $2; do
		if [[ $r == *-* ]]; then
			((${r%-*} <= $1 && $1 <= ${r#*-})) && return 0
		else
			((r == $1)) && return 0
		fi
	done
	return 1
}

# The human block of TEXT whose header's cpus hold CPU N.
block_of() { # N TEXT
	local line cpus blk='' on=0
	while IFS= read -r line; do
		if [[ $line =~ ^(policy|cpu)[0-9] ]]; then
			[ "$on" = 1 ] && break
			cpus=${line#*: cpus }
			cpus=${cpus%% *}
			blk=$line on=0
			list_has "$1" "$cpus" && on=1
			continue
		fi
		[ "$on" = 1 ] && blk+=$'\n'$line
	done <<<"$2"
	[ "$on" = 1 ] && printf '%s\n' "$blk"
}

@test "freq: the human blocks name each policy's CPUs, driver, governor and limits" {
	sample_list machines_run laptop2006 hwp-laptop amd-desktop arm-biglittle server
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq
		[ "$status" -eq 0 ] || fail "$m: exit $status"
		mapfile -t ids < <(policy_ids "$fx")
		# Policies alike share a block: the headers count each once.
		total=0
		while IFS= read -r h; do
			if [[ $h =~ \(([0-9]+)\ policies\) ]]; then
				total=$((total + BASH_REMATCH[1]))
			elif [[ $h == *", "*": cpus"* ]]; then
				total=$((total + 2))
			else
				total=$((total + 1))
			fi
		done < <(grep '^policy' <<<"$output")
		[ "$total" = "${#ids[@]}" ] || fail "$m: $total policies in the headers"
		for id in "${ids[@]}"; do
			d=$fx/$cpu_dir/cpufreq/policy$id
			read -r first _ <"$d/related_cpus"
			block=$(block_of "$first" "$output")
			[ -n "$block" ] || fail "$m: no block for policy$id"
			[[ $block == *"policy$id"* || $block == *"policies)"* ]] ||
				fail "$m policy$id: not named: $block"
			[[ $block == *"driver $(<"$d/scaling_driver"), governor $(<"$d/scaling_governor")"* ]] ||
				fail "$m policy$id: driver/governor"
			[[ $block == *"limits $(fmt_khz "$(<"$d/scaling_min_freq")") - $(fmt_khz "$(<"$d/scaling_max_freq")") (hardware $(fmt_khz "$(<"$d/cpuinfo_min_freq")") - $(fmt_khz "$(<"$d/cpuinfo_max_freq")"))"* ]] ||
				fail "$m policy$id: limits: $block"
			# Its current frequency, on the header line or the group's
			# current line (each value with its CPUs, or the range).
			cur=$(fmt_khz "$(<"$d/scaling_cur_freq")")
			[[ $block == *", current $cur"* || $block == *"  current $cur"* ||
				$block == *", $cur (cpus"* || $block =~ \ \ current\ [^\(]*\ -\ [^\(]*$'\n' ]] ||
				fail "$m policy$id: current $cur: $block"
			[[ $block == *"governors: $(flat "$d/scaling_available_governors")"* ]] || fail "$m policy$id: governors"
			if [ -f "$d/energy_performance_preference" ]; then
				[[ $block == *"EPP $(<"$d/energy_performance_preference") (available: $(flat "$d/energy_performance_available_preferences"))"* ]] ||
					fail "$m policy$id: EPP"
			fi
		done
	done
}

@test "human frequencies round to the nearest: 1 017 600 kHz is 1.018 GHz" {
	fx=$(copy_of laptop2006 r)
	p=$fx/$cpu_dir/cpufreq/policy0
	echo 1017600 >"$p/scaling_cur_freq"
	echo 2999600 >"$p/scaling_max_freq"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq -c 0
	assert_success
	assert_output --partial "limits 1 GHz - 3 GHz"
	assert_output --partial "current 1.018 GHz"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" status
	assert_output --partial "1 GHz - 3 GHz"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" --pstates -c 0
	assert_output --partial "cur 1.018 GHz"
	# The transition table's MHz too: 1 017 600 kHz is 1018 MHz.
	sed -i 's/1833000/1017600/g' "$p/stats/trans_table" "$p/stats/time_in_state"
	run --separate-stderr "$bin/cstate-stat" --sysroot "$fx" --pstates --trans-table -c 0
	assert_success
	assert_output --partial "    1018:"
	assert_output --partial "1.018 GHz"
	# A devfreq frequency is not cut to the kHz below it.
	a=$(copy_of arm-biglittle a)
	echo 400000600 >"$a/sys/class/devfreq/dmc/cur_freq"
	run --separate-stderr "$bin/pmctl" --sysroot "$a" devfreq
	assert_output --partial "400000600 Hz"
}

@test "freq show is freq" {
	for m in laptop2006 arm-biglittle hwp-laptop; do
		fx_of -v fx "$m"
		for f in human json kv; do
			[ "$(pmctl --sysroot "$fx" freq show -F $f)" = "$(pmctl --sysroot "$fx" freq -F $f)" ] ||
				fail "$m $f: freq show differs"
		done
	done
	run "$bin/pmctl" freq show --sysroot "$(fx_of laptop2006)" -J
	assert_success
	jq -e '.policies | length == 2' <<<"$output"
}

@test "freq -c selects the policies by any of their CPUs" {
	fx_of -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq -c 5 -J
	assert_success
	[ "$(jq -c '[.policies[] | [.policy, .cpus]]' <<<"$output")" = '[[4,[4,5]]]' ]
	assert_doc "$output" "$(untraced want_policies "$fx" 4)" .policies
	# The human block names the CPUs that share the policy.
	run "$bin/pmctl" --sysroot "$fx" freq -c 5
	assert_line --index 0 "policy4: cpus 4-5"
	run "$bin/pmctl" --sysroot "$fx" freq -c 0 -J
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[0]' ]
	run "$bin/pmctl" --sysroot "$fx" freq -c 3-4 -J
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[0,4]' ]
	run "$bin/pmctl" --sysroot "$fx" freq -c 2,1 -J
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[0]' ]
	for sel in all online 0-5; do
		run "$bin/pmctl" --sysroot "$fx" freq -c "$sel" -J
		[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[0,4]' ] || fail "-c $sel"
	done
	# Two CPUs per policy on the server: CPU 3 is policy2's.
	run "$bin/pmctl" --sysroot "$(fx_of server)" freq -c 3 -J
	[ "$(jq -c '[.policies[] | [.policy, .cpus]]' <<<"$output")" = '[[2,[2,3]]]' ]
	run "$bin/pmctl" --sysroot "$(fx_of server)" freq -c 0-15:1/4 -J
	assert_success
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[0,4,8,12]' ]
	# One policy per CPU on the HWP laptop.
	run "$bin/pmctl" --sysroot "$(fx_of hwp-laptop)" freq -c 1-2,6 -J
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[1,2,6]' ]
}

@test "freq: the default is the online CPUs; -c all shows the policy of offline ones" {
	fx=$(copy_of arm-biglittle off)
	c=$fx/$cpu_dir
	echo 0-3 >"$c/online"
	echo 4-5 >"$c/offline"
	echo 0 >"$c/cpu4/online"
	echo 0 >"$c/cpu5/online"
	echo >"$c/cpufreq/policy4/affected_cpus"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq -J
	assert_success
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[0]' ]
	run "$bin/pmctl" --sysroot "$fx" freq -c online -J
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[0]' ]
	run "$bin/pmctl" --sysroot "$fx" freq -c all -J
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[0,4]' ]
	jq -e '.policies[1] | .cpus == [4,5] and .affected_cpus == []' <<<"$output"
	# A CPU named explicitly is shown even when offline.
	run "$bin/pmctl" --sysroot "$fx" freq -c 4 -J
	[ "$(jq -c '[.policies[].policy]' <<<"$output")" = '[4]' ]
	run "$bin/pmctl" --sysroot "$fx" freq -c all
	assert_line "policy4: cpus 4-5 (online none)"
	run "$bin/pmctl" --sysroot "$fx" freq
	refute_output --partial "policy4"
	# status lists them as offline.
	run "$bin/pmctl" --sysroot "$fx" -J
	jq -e '.cpus.online == [0,1,2,3] and .cpus.offline == [4,5]' <<<"$output"
	run "$bin/pmctl" --sysroot "$fx"
	assert_line --partial "CPUs:           6 present, online 0-3, offline 4-5"
}

@test "freq: one CPU of a policy offline is named as such" {
	fx=$(copy_of arm-biglittle half)
	c=$fx/$cpu_dir
	echo 0-4 >"$c/online"
	echo 5 >"$c/offline"
	echo 0 >"$c/cpu5/online"
	echo 4 >"$c/cpufreq/policy4/affected_cpus"
	run "$bin/pmctl" --sysroot "$fx" freq -J
	assert_success
	jq -e '[.policies[].policy] == [0,4] and .policies[1].affected_cpus == [4]' <<<"$output"
	run "$bin/pmctl" --sysroot "$fx" freq
	assert_line "policy4: cpus 4-5 (online 4)"
}

@test "freq on a machine without cpufreq is exit 3 with a message" {
	fx_of -v fx vm-haltpoll
	for f in human json kv; do
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq -F $f
		assert_failure 3
		[ -z "$output" ]
		[ "${#stderr_lines[@]}" = 1 ]
		[[ $stderr == "pmctl: no cpufreq policies"* ]]
	done
	run "$bin/pmctl" --sysroot "$fx" freq show -c 0
	assert_failure 3
}

@test "freq -F kv: policyN_ keys that eval in sh" {
	fx_of -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" freq -F kv
	assert_success
	bad=$(grep -vE "^[a-z0-9_]+='([^']|'\\\\'')*'\$" <<<"$output" || true)
	[ -z "$bad" ] || fail "not key='value': $bad"
	got=$(sh -c 'eval "$1"; printf "%s %s %s %s|%s" "$policy0_governor" "$policy0_min_khz" "$policy4_max_khz" "$policy4_cpus" "$policy4_available_governors"' sh "$output")
	p4=$fx/$cpu_dir/cpufreq/policy4
	[ "$got" = "$(<"$fx/$cpu_dir/cpufreq/policy0/scaling_governor") $(<"$fx/$cpu_dir/cpufreq/policy0/scaling_min_freq") $(<"$p4/scaling_max_freq") 4 5|$(flat "$p4/scaling_available_governors")" ] ||
		fail "got $got"
	assert_line "policy4_epp=''"
}

@test "freq with a bad subcommand word is exit 2" {
	fx_of -v fx laptop2006
	bad_input pmctl "$fx" freq bogus
	[[ ${stderr_lines[0]} == *"'bogus'"* ]]
	bad_input pmctl "$fx" freq show extra
	bad_input pmctl "$fx" freq set
	bad_input pmctl "$fx" freq SHOW
}

@test "freq -c: an empty list is exit 2" {
	bad_input pmctl "$(fx_of arm-biglittle)" freq -c ''
	bad_input pmctl "$(fx_of arm-biglittle)" freq -c ' '
	[[ ${stderr_lines[0]} == *"empty"* ]]
}

@test "freq -c: junk is exit 2" {
	fx_of -v fx arm-biglittle
	for c in junk 0,,1 0- -1 1:2 'all,1' 'online ' 0x1 '1 2' 3-1 '1-3:0/4' '0-5:4/2'; do
		bad_input pmctl "$fx" freq -c "$c"
	done
}

@test "freq -c: a reversed range is exit 2" {
	bad_input pmctl "$(fx_of arm-biglittle)" freq -c 5-2
	[[ ${stderr_lines[0]} == *"'5-2'"* ]]
}

@test "freq -c: a CPU that is not present is exit 2 naming the CPUs" {
	fx_of -v fx arm-biglittle
	bad_input pmctl "$fx" freq -c 6
	[[ ${stderr_lines[0]} == *"no CPU 6 on this machine"* ]]
	bad_input pmctl "$fx" freq -c 4-9
	[[ ${stderr_lines[0]} == *"no CPU 6-9 on this machine"* ]]
	bad_input pmctl "$fx" freq -c 0,7,9
	[[ ${stderr_lines[0]} == *"no CPU 7,9 on this machine"* ]]
	bad_input pmctl "$(fx_of laptop2006)" freq -c 2
	[[ ${stderr_lines[0]} == *"no CPU 2"* ]]
}

# ======================================================= bad input, changes nothing

@test "bad input: a CPU number that overflows" {
	fx_of -v fx arm-biglittle
	bad_input pmctl "$fx" freq -c 99999999999999999999
	bad_input pmctl "$fx" freq -c 0-99999999999999999999
	bad_input pmctl "$fx" freq -c 18446744073709551616
	bad_input pmctl "$fx" freq -c 4294967296
}

@test "bad input: a 128 KiB -c value (the largest one argument execve takes)" {
	# Linux refuses one argument of 1 MB (MAX_ARG_STRLEN is 128 KiB): this is the largest.
	big=$(printf '%*s' 131071 '' | tr ' ' 1)
	bad_input pmctl "$(fx_of arm-biglittle)" freq -c "$big"
	big=$(printf '%*s' 131071 '' | tr ' ' ,)
	bad_input pmctl "$(fx_of arm-biglittle)" freq -c "$big"
}

@test "bad input: 1 MB of arguments" {
	big=$(printf '%*s' 131071 '' | tr ' ' x)
	bad_input pmctl "$(fx_of arm-biglittle)" freq "$big" "$big" "$big" "$big" "$big" "$big" "$big" "$big"
	bad_input pmctl "$(fx_of arm-biglittle)" "$big" "$big" "$big" "$big" "$big" "$big" "$big" "$big"
}

@test "bad input: 100 arguments" {
	args=()
	for ((i = 0; i < 100; i++)); do args+=(show); done
	bad_input pmctl "$(fx_of arm-biglittle)" freq "${args[@]}"
}

@test "bad input: control bytes in -c, the command and the format" {
	fx_of -v fx arm-biglittle
	bad_input pmctl "$fx" freq -c $'\x01\x02'
	bad_input pmctl "$fx" freq -c $'0\t1'
	bad_input pmctl "$fx" freq -c $'0\r'
	bad_input pmctl "$fx" freq -c $'\x1b[2J'
	bad_input pmctl "$fx" $'fr\x7feq'
	bad_input pmctl "$fx" -F $'json\x01'
}

@test "bad input: a newline in -c gives one message line, not two" {
	# The message quotes the argument: a raw newline would split it (and let an
	# argument forge a line of its own).
	bad_input pmctl "$(fx_of arm-biglittle)" freq -c $'0\n1'
}

@test "bad input: a newline in the command word gives one message line" {
	bad_input pmctl "$(fx_of arm-biglittle)" $'freq\nx'
}

@test "bad input: invalid UTF-8 in -c, the command and the format" {
	fx_of -v fx arm-biglittle
	bad_input pmctl "$fx" freq -c $'\xff\xfe'
	bad_input pmctl "$fx" freq -c $'0-\xc3'
	bad_input pmctl "$fx" $'\xc0\xaf'
	bad_input pmctl "$fx" --format $'\xed\xa0\x80'
}

@test "bad input: ../../etc/passwd as a CPU list and as a command" {
	fx_of -v fx arm-biglittle
	bad_input pmctl "$fx" freq -c ../../etc/passwd
	bad_input pmctl "$fx" ../../etc/passwd
	bad_input pmctl "$fx" freq ../../etc/passwd
}

@test "bad input: empty strings as the command, the format and the output" {
	fx_of -v fx arm-biglittle
	bad_input pmctl "$fx" ''
	bad_input pmctl "$fx" freq ''
	bad_input pmctl "$fx" -F ''
	bad_input pmctl "$fx" -o ''
}

@test "bad input: options that do not apply (--wait, a write subcommand)" {
	fx_of -v fx arm-biglittle
	bad_input pmctl "$fx" freq --wait
	bad_input pmctl "$fx" --wait=99999999999999999999
	bad_input pmctl "$fx" freq set -c 0
	bad_input pmctl "$fx" -n
}
