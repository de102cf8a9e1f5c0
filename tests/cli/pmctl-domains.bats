#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $stderr, $lines come from helpers.bash and run
# pmctl domains (regulators, PM domains, clocks) and pmctl powercap: on
# every fixture, with the values of the machine descriptions and files,
# older and newer debugfs layouts, a non-root user, the real machines'
# dumps, the real root, and bad input that changes nothing.
# tests/run: reads the corpus

load helpers

machines_dir="$top/tests/fixtures/machines"

fx_of() { # [-v VAR] NAME
	local -a _fo_v=()
	[ "$1" != -v ] || { _fo_v=(-v "$2") && shift 2; }
	if [ "$1" = server ]; then fixture "${_fo_v[@]}" server --cpus 4; else fixture "${_fo_v[@]}" "$1"; fi
}

setup_file() {
	local m
	for m in $("$top/tests/fixtures/mkfixture" --list); do
		fx_of "$m" >/dev/null &
	done
	wait
}

setup() {
	load_libs
	mapfile -t machines < <("$top/tests/fixtures/mkfixture" --list)
}

# A copy of fixture NAME that a test may change.
copy_of() {
	local dst="$BATS_TEST_TMPDIR/${2:-copy}"
	cp -a "$(fx_of "$1")" "$dst"
	chmod -R u+w "$dst"
	printf '%s\n' "$dst"
}

# opt LINE KEY: the value of KEY=... in a description line, "" if none.
opt() {
	local t
	local -a w
	read -ra w <<<"$1"
	for t in "${w[@]}"; do
		if [[ $t == "$2="* ]]; then
			printf '%s\n' "${t#*=}"
			return 0
		fi
	done
	return 0
}

# The directive lines WORD of machine NAME's description.
desc_lines() {
	grep "^$2 " "$machines_dir/$1.desc"
}

# A copy of the fixture for a user who is not root, and the binaries.
nobody_copy() {
	local d
	d=$(mktemp -d /tmp/pmtools-nobody.XXXXXX)
	chmod 755 "$d"
	cp -a "$(fx_of "$1")/." "$d/"
	printf '%s\n' "$d"
}

as_nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# ============================================================ every fixture

@test "domains on every fixture: exit 0 where a part exists, else 3 with one line" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains
		if [ -n "$(ls "$fx/sys/class/regulator" 2>/dev/null)" ] ||
			[ -e "$fx/sys/kernel/debug/clk/clk_summary" ] ||
			[ -e "$fx/sys/kernel/debug/pm_genpd/pm_genpd_summary" ]; then
			[ "$status" -eq 0 ] || fail "$m: exit $status: $stderr"
			[ -z "$stderr" ] || fail "$m: stderr: $stderr"
			for part in regulators "power domains" clocks; do
				[ "$(grep -c "^$part:" <<<"$output")" = 1 ] || fail "$m: no '$part:' line"
			done
		else
			[ "$status" -eq 3 ] || fail "$m: exit $status, want 3"
			[ -z "$output" ] || fail "$m: stdout: $output"
			[ "${#stderr_lines[@]}" -eq 1 ] || fail "$m: stderr: $stderr"
			[[ $stderr == "pmctl: no regulators, PM domains or clocks (no /sys/class/regulator; debugfs is not mounted)" ]] ||
				fail "$m: message: $stderr"
		fi
	done
}

@test "powercap on every fixture: exit 0 where /sys/class/powercap has entries, else 3" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" powercap
		if [ -n "$(ls "$fx/sys/class/powercap" 2>/dev/null)" ]; then
			[ "$status" -eq 0 ] || fail "$m: exit $status: $stderr"
			[ -z "$stderr" ] || fail "$m: stderr: $stderr"
		else
			[ "$status" -eq 3 ] || fail "$m: exit $status, want 3"
			[ -z "$output" ] || fail "$m: stdout: $output"
			[ "$stderr" = "pmctl: no powercap zones (/sys/class/powercap is empty or missing)" ] ||
				fail "$m: message: $stderr"
		fi
	done
}

@test "--json on every fixture: valid, with every documented key" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J
		if [ "$status" -eq 0 ]; then
			jq -e '
			(keys == ["clocks", "power_domains", "regulators"]) and
			((.regulators // []) | all(keys == ["current_limit_ua", "device", "id",
				"max_voltage_uv", "min_voltage_uv", "name", "num_users", "opmode",
				"state", "status", "suspend_disk_state", "suspend_mem_state",
				"suspend_standby_state", "type", "voltage_uv"])) and
			((.power_domains // []) | all((keys == ["children", "devices", "idle_state",
				"name", "performance_state", "status"]) and
				(.devices | all(keys == ["device", "managed_by", "performance_state",
					"runtime_status"])))) and
			((.clocks // []) | all(keys == ["accuracy_ppb", "consumers", "depth",
				"duty_cycle_pct", "enable_count", "hw_enabled", "name", "parent",
				"phase_deg", "prepare_count", "protect_count", "rate_hz"]))' \
				<<<"$output" >/dev/null || fail "$m: domains document: $output"
		else
			[ "$status" -eq 3 ] || fail "$m: domains exit $status"
		fi
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" powercap -J
		if [ "$status" -eq 0 ]; then
			jq -e '
			(keys == ["powercap"]) and (.powercap | keys == ["control_types", "zones"]) and
			(.powercap.control_types | all(keys == ["enabled", "name"])) and
			(.powercap.zones | all((keys == ["constraints", "control_type", "enabled",
				"energy_uj", "max_energy_range_uj", "name", "parent", "zone"]) and
				(.constraints | all(keys == ["id", "max_power_uw", "name",
					"power_limit_uw", "time_window_us"])))) ' \
				<<<"$output" >/dev/null || fail "$m: powercap document: $output"
		else
			[ "$status" -eq 3 ] || fail "$m: powercap exit $status"
		fi
	done
}

# ============================================================ arm-biglittle

@test "domains --json: the regulators are the description's and the files'" {
	fx_of -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J
	assert_success
	js=$output
	n=0
	while IFS= read -r line; do
		read -ra w <<<"$line"
		id=${w[1]}
		d="$fx/sys/class/regulator/regulator.$id"
		sus=$(opt "$line" suspend)
		mem=disabled disk=disabled standby=disabled
		IFS=, read -ra ss <<<"$sus"
		for s in "${ss[@]}"; do
			case ${s%%:*} in
			mem) mem=${s#*:} ;;
			disk) disk=${s#*:} ;;
			standby) standby=${s#*:} ;;
			esac
		done
		want=$(jq -nc --argjson id "$id" --arg name "$(opt "$line" name)" \
			--arg uv "$(opt "$line" microvolts)" --arg min "$(opt "$line" min)" \
			--arg max "$(opt "$line" max)" --arg dev "/sys/$(opt "$line" device)" \
			--argjson users "$(<"$d/num_users")" \
			--arg mem "$mem" --arg disk "$disk" --arg standby "$standby" '
			def num: if . == "" then null else tonumber end;
			{id: $id, name: $name, type: "voltage", num_users: $users,
			 voltage_uv: ($uv | num), min_voltage_uv: ($min | num),
			 max_voltage_uv: ($max | num), current_limit_ua: null,
			 state: "enabled", status: null, opmode: null,
			 suspend_mem_state: $mem, suspend_disk_state: $disk,
			 suspend_standby_state: $standby, device: $dev}')
		got=$(jq -c --argjson id "$id" '.regulators[] | select(.id == $id)' <<<"$js")
		[ "$(jq -S . <<<"$got")" = "$(jq -S . <<<"$want")" ] ||
			fail "regulator.$id: got $got, want $want"
		n=$((n + 1))
	done < <(desc_lines arm-biglittle regulator)
	[ "$n" -eq 4 ]
	[ "$(jq '.regulators | length' <<<"$js")" -eq "$n" ]
	jq -e '[.regulators[].id] == [0, 1, 2, 3]' <<<"$js"
	# vcc_3v3 has one enabled consumer of two.
	jq -e '.regulators[3].num_users == 1' <<<"$js"
}

@test "domains --json: the PM domains are the description's" {
	fx_of -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J
	assert_success
	js=$output
	i=0
	while IFS= read -r line; do
		read -ra w <<<"$line"
		state=$(opt "$line" state)
		children=$(opt "$line" children)
		devices=$(opt "$line" devices)
		want=$(jq -nc --arg name "${w[1]}" --arg state "$state" \
			--arg ch "$children" --arg dv "$devices" '
			{name: $name, status: ($state | sub("-[0-9]+$"; "")),
			 idle_state: ($state | capture("-(?<n>[0-9]+)$").n // null | if . then tonumber else null end),
			 performance_state: 0,
			 children: (if $ch == "" then [] else $ch | split(",") end),
			 devices: (if $dv == "" then [] else $dv | split(",") | map(split(":") |
				{device: .[0], runtime_status: .[1], performance_state: (.[2] | tonumber),
				 managed_by: null}) end)}')
		got=$(jq -c ".power_domains[$i]" <<<"$js")
		[ "$(jq -S . <<<"$got")" = "$(jq -S . <<<"$want")" ] ||
			fail "${w[1]}: got $got, want $want"
		i=$((i + 1))
	done < <(desc_lines arm-biglittle genpd)
	[ "$i" -eq 8 ]
	[ "$(jq '.power_domains | length' <<<"$js")" -eq "$i" ]
}

@test "domains --json: the clocks are the description's, a flat list with parent and depth" {
	fx_of -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J
	assert_success
	js=$output
	desc_lines arm-biglittle clk >"$BATS_TEST_TMPDIR/clk"
	n=$(grep -c . "$BATS_TEST_TMPDIR/clk")
	# One jq for every line: the clock the line describes (its depth
	# from its parent's, described before it) against the one of its
	# name in the document.
	bad=$(jq -rn --slurpfile doc <(printf '%s\n' "$js") --rawfile lines "$BATS_TEST_TMPDIR/clk" '
		def num: if . == "" then 0 else tonumber end;
		[$lines | split("\n")[] | select(length > 0) | [splits(" +")]] |
		reduce .[] as $w ({depth: {}, out: []};
			([$w[] | select(test("^[^=]+=")) | capture("^(?<k>[^=]+)=(?<v>.*)$")] |
				reduce .[] as $x ({}; if has($x.k) then . else .[$x.k] = $x.v end)) as $o |
			$w[1] as $name | ($o.parent // "") as $parent |
			(if $parent != "" then .depth[$parent] + 1 else 0 end) as $d |
			.depth[$name] = $d |
			.out += [{name: $name, parent: (if $parent == "" then null else $parent end),
			 depth: $d, rate_hz: ($o.rate | tonumber), enable_count: ($o.enable // "" | num),
			 prepare_count: ($o.prepare // "" | num), protect_count: 0, accuracy_ppb: 0,
			 phase_deg: (($o.phase // "") as $ph | if $ph == "unknown" then null else ($ph | num) end),
			 duty_cycle_pct: 50, hw_enabled: ({"Y": true, "N": false}[$o.hw // "Y"]),
			 consumers: (($o.consumers // "") as $c | (if $c == "" then [] else $c | split(",") | map(split(":") |
				{device: .[0], connection_id: (if .[1] == "no_connection_id" then null else .[1] end)})
				end) + [{device: null, connection_id: null}])}]) |
		.out[] as $want | [$doc[0].clocks[] | select(.name == $want.name)] as $got |
		select($got != [$want]) | "\($want.name): got \($got | tojson), want \($want | tojson)"')
	[ -z "$bad" ] || fail "$bad"
	[ "$n" -eq 15 ]
	[ "$(jq '.clocks | length' <<<"$js")" -eq "$n" ]
	# Depth first, as the kernel lists them: every parent comes before.
	jq -e '.clocks | . as $c | [range(length) as $i | $c[$i] |
		.parent == null or ([$c[:$i][].name] | index($c[$i].parent) != null)] | all' <<<"$js"
}

@test "domains: the human view is readable at 80 columns, the clock tree indented" {
	fx_of -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains
	assert_success
	[ -z "$stderr" ]
	long=$(awk 'length > 80' <<<"$output")
	[ -z "$long" ] || fail "lines over 80 columns: $long"
	assert_line --regexp '^ +0 vdd_cpu_l +enabled +875 mV +750-1350 mV +1  0-001b$'
	assert_line --regexp '^ +1 vdd_cpu_b +enabled +1000 mV +712.5-1500 mV +1  0-0040$'
	assert_line --regexp '^ +3 vcc_3v3 +enabled +3300 mV +- +1  vcc3v3-sys$'
	assert_line "      suspend: mem enabled, disk disabled, standby disabled"
	assert_line --regexp '^  pd_vio +on +0  pd_isp0, pd_isp1, pd_vo$'
	assert_line --regexp '^  pd_isp0 +off-0 +0$'
	assert_line --regexp '^      /devices/platform/ff910000.isp0 +suspended$'
	assert_line --regexp '^  xin24m +24 MHz +9 +10  Y$'
	assert_line --regexp '^    pll_apll +1.416 GHz +1 +1  Y$'
	assert_line --regexp '^      sclk_ddrc +800 MHz +1 +1  Y   dmc:dmc_clk$'
	assert_line --regexp '^        aclk_gpu +300 MHz +1 +1  Y   ff9a0000.gpu$'
	assert_line --regexp '^      hclk_sdmmc +100 MHz +0 +1  N$'
	assert_line --regexp '^  xin32k +32.768 kHz +1 +1  Y   rk808-rtc$'
	# show is the same view.
	[ "$(pmctl --sysroot "$fx" domains show)" = "$output" ]
}

@test "domains -F kv: key='value' lines that eval in sh" {
	fx_of -v fx arm-biglittle
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -F kv
	assert_success
	bad=$(grep -vE "^[a-z0-9_]+='([^']|'\\\\'')*'\$" <<<"$output" || true)
	[ -z "$bad" ] || fail "not key='value': $bad"
	dup=$(cut -d= -f1 <<<"$output" | sort | uniq -d)
	[ -z "$dup" ] || fail "keys twice: $dup"
	# shellcheck disable=SC2016 # evaluated by sh
	got=$(sh -c 'eval "$1"; printf "%s|" "$regulator0_name" "$regulator3_device" \
		"$domain1_children" "$domain2_idle_state" "$domain2_device1_runtime_status" \
		"$clock2_parent" "$clock6_consumer0_device" "$clock6_consumer0_connection_id" \
		"$clock13_phase_deg" "$clock11_hw_enabled"' sh "$output")
	[ "$got" = "vdd_cpu_l|/sys/devices/platform/vcc3v3-sys|pd_isp0 pd_isp1 pd_vo|0|suspended|pll_apll|dmc|dmc_clk||false|" ] ||
		fail "kv read back: $got"
}

@test "domains: hostile names stay inert in kv and escaped in JSON" {
	fx=$(copy_of arm-biglittle hostile)
	evil=$'vdd$(touch pwned)\'"\nx`touch pwned2`;\\'
	printf '%s\n' "$evil" >"$fx/sys/class/regulator/regulator.0/name"
	cevil=$'x32k$(touch_pwned3)\'"`;\\'
	s=$(<"$fx/sys/kernel/debug/clk/clk_summary")
	printf '%s\n' "${s//xin32k/"$cevil"}" >"$fx/sys/kernel/debug/clk/clk_summary"
	cd "$BATS_TEST_TMPDIR"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J
	assert_success
	[ "$(jq -r '.regulators[0].name' <<<"$output")" = "$evil" ]
	[ "$(jq -r '.clocks[-1].name' <<<"$output")" = "$cevil" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -F kv
	assert_success
	# shellcheck disable=SC2016 # evaluated by sh
	got=$(sh -c 'eval "$1"; printf "%s" "$regulator0_name"' sh "$output")
	# The newline comes back in its text form.
	[ "$got" = "${evil/$'\n'/'\n'}" ] || fail "kv read back: $got"
	# shellcheck disable=SC2016 # evaluated by sh
	got=$(sh -c 'eval "$1"; printf "%s" "$clock14_name"' sh "$output")
	[ "$got" = "$cevil" ] || fail "kv read back: $got"
	[ ! -e pwned ] && [ ! -e pwned2 ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains
	assert_success
}

# ============================================================ other layouts

@test "domains: an old clk_summary (4.15, no duty/hardware/consumer) and a ≈6.10 genpd summary" {
	fx=$(copy_of arm-biglittle layouts)
	c="$fx/sys/kernel/debug/clk/clk_summary"
	{
		printf '%s\n' "                                 enable  prepare  protect                               "
		printf '%s\n' "   clock                          count    count    count        rate   accuracy   phase"
		printf '%s\n' "----------------------------------------------------------------------------------------"
		printf '%*s%-*s %7d %8d %8d %11lu %10lu %-3d\n' 1 "" 30 osc24 2 2 0 24000000 0 0
		printf '%*s%-*s %7d %8d %8d %11lu %10lu %-3d\n' 4 "" 27 "pll a" 1 1 1 600000000 100 90
	} >"$c"
	g="$fx/sys/kernel/debug/pm_genpd/pm_genpd_summary"
	{
		printf '%s\n' "domain                          status          children        performance"
		printf '%s\n' "    /device                         runtime status                  managed by"
		printf '%s\n' "------------------------------------------------------------------------------"
		printf '%-30s  %-30s  %u\n%48s%s' gpu_cx on 2 " " "gpu_gx, mdss"
		printf '\n    %-30s  %-26s  %-10u  %2s\n' 3d6a000.gmu active 1 HW
		printf '%-30s  %-30s  %u\n' gpu_gx off-1 0
	} >"$g"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J
	assert_success
	[ -z "$stderr" ] || fail "stderr: $stderr"
	jq -e '.clocks == [
		{name: "osc24", parent: null, depth: 0, enable_count: 2, prepare_count: 2,
		 protect_count: 0, rate_hz: 24000000, accuracy_ppb: 0, phase_deg: 0,
		 duty_cycle_pct: null, hw_enabled: null, consumers: null},
		{name: "pll a", parent: "osc24", depth: 1, enable_count: 1, prepare_count: 1,
		 protect_count: 1, rate_hz: 600000000, accuracy_ppb: 100, phase_deg: 90,
		 duty_cycle_pct: null, hw_enabled: null, consumers: null}]' <<<"$output"
	jq -e '.power_domains == [
		{name: "gpu_cx", status: "on", idle_state: null, performance_state: 2,
		 children: ["gpu_gx", "mdss"],
		 devices: [{device: "3d6a000.gmu", runtime_status: "active",
			    performance_state: 1, managed_by: "HW"}]},
		{name: "gpu_gx", status: "off", idle_state: 1, performance_state: 0,
		 children: [], devices: []}]' <<<"$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains
	assert_success
	assert_line --regexp '^    pll a +600 MHz +1 +1  \?$'
	assert_line --regexp '^      3d6a000.gmu +active, perf 1, HW$'
}

@test "domains: lines it does not understand are skipped and counted on stderr" {
	fx=$(copy_of arm-biglittle garbage)
	c="$fx/sys/kernel/debug/clk/clk_summary"
	first=$(($(wc -l <"$c") + 1))
	printf 'garbage here\n  \001\002 more\n' >>"$c"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J
	assert_success
	[ "$stderr" = "pmctl: /sys/kernel/debug/clk/clk_summary: 2 lines not understood, skipped (the first is line $first)" ] ||
		fail "stderr: $stderr"
	jq -e '.clocks | length == 15' <<<"$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J -q
	assert_success
	[ -z "$stderr" ]
	# Not a table at all: that part is not available, the rest is shown.
	printf 'hello\n' >"$c"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains
	assert_success
	assert_line "clocks: not available (/sys/kernel/debug/clk/clk_summary: not a clock summary)"
	assert_line "power domains:"
}

@test "domains without debugfs: one line per debugfs part, the regulators shown; exit 3 with nothing" {
	fx=$(copy_of arm-biglittle nodebugfs)
	rm -rf "${fx:?}/sys/kernel/debug/"*
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains
	assert_success
	[ -z "$stderr" ]
	assert_line "power domains: not available (/sys/kernel/debug/pm_genpd/pm_genpd_summary: No such file or directory; debugfs is not mounted)"
	assert_line "clocks: not available (/sys/kernel/debug/clk/clk_summary: No such file or directory; debugfs is not mounted)"
	assert_line "regulators:"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -J
	assert_success
	[ -z "$stderr" ]
	jq -e '.power_domains == null and .clocks == null and (.regulators | length) == 4' <<<"$output"
	# debugfs mounted but without the clock framework.
	mkdir -p "$fx/sys/kernel/debug/pm_genpd"
	printf 'domain  status\n    /device  runtime status\n------------------------------\n' \
		>"$fx/sys/kernel/debug/pm_genpd/pm_genpd_summary"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains
	assert_success
	assert_line "clocks: not available (/sys/kernel/debug/clk/clk_summary: No such file or directory; the kernel has no common clock framework)"
	assert_line "power domains: none"
	# An empty regulator class and an empty genpd table: nothing exists.
	rm -rf "${fx:?}/sys/class/regulator/"*
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains -o "$BATS_TEST_TMPDIR/out"
	assert_failure 3
	[ -z "$output" ]
	[ "$stderr" = "pmctl: no regulators, PM domains or clocks (/sys/class/regulator is empty; none in debugfs)" ] ||
		fail "stderr: $stderr"
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
	rm -rf "${fx:?}/sys/class/regulator" "${fx:?}/sys/kernel/debug/pm_genpd"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" domains
	assert_failure 3
	[ "$stderr" = "pmctl: no regulators, PM domains or clocks (no /sys/class/regulator; debugfs is not mounted)" ]
}

@test "domains -o FILE: the document lands whole, no temporary left" {
	fx_of -v fx arm-biglittle
	out="$BATS_TEST_TMPDIR/o/domains.json"
	mkdir -p "${out%/*}"
	run "$bin/pmctl" --sysroot "$fx" domains -J -o "$out"
	assert_success
	[ -z "$output" ]
	[ "$(<"$out")" = "$(pmctl --sysroot "$fx" domains -J)" ]
	[ "$(find "${out%/*}" -type f | wc -l)" -eq 1 ]
}

# ============================================================ powercap

@test "powercap --json: the zones and constraints are the files'" {
	fx_of -v fx hwp-laptop
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" powercap -J
	assert_success
	js=$output
	jq -e '.powercap.control_types == [{name: "intel-rapl", enabled: true}]' <<<"$js"
	jq -e '[.powercap.zones[].zone] == ["intel-rapl:0", "intel-rapl:0:0", "intel-rapl:0:1"]' <<<"$js"
	for z in "$fx"/sys/class/powercap/intel-rapl:*; do
		id=${z##*/}
		parent=null
		[[ $id == *:*:* ]] && parent="\"${id%:*}\""
		cons='[]'
		for f in "$z"/constraint_*_power_limit_uw; do
			k=${f##*constraint_}
			k=${k%%_*}
			win=null
			[ -e "$z/constraint_${k}_time_window_us" ] && win=$(<"$z/constraint_${k}_time_window_us")
			m=null
			[ -s "$z/constraint_${k}_max_power_uw" ] && m=$(<"$z/constraint_${k}_max_power_uw")
			cons=$(jq -c --argjson k "$k" --arg n "$(<"$z/constraint_${k}_name")" \
				--argjson l "$(<"$f")" --argjson w "$win" --argjson m "$m" \
				'. + [{id: $k, name: $n, power_limit_uw: $l, time_window_us: $w, max_power_uw: $m}]' <<<"$cons")
		done
		want=$(jq -nc --arg id "$id" --argjson parent "$parent" --arg name "$(<"$z/name")" \
			--argjson e "$(<"$z/energy_uj")" --argjson r "$(<"$z/max_energy_range_uj")" \
			--argjson en "$(<"$z/enabled")" --argjson cons "$cons" '
			{zone: $id, control_type: "intel-rapl", parent: $parent, name: $name,
			 enabled: ($en == 1), energy_uj: $e, max_energy_range_uj: $r, constraints: $cons}')
		got=$(jq -c --arg id "$id" '.powercap.zones[] | select(.zone == $id)' <<<"$js")
		[ "$(jq -S . <<<"$got")" = "$(jq -S . <<<"$want")" ] || fail "$id: got $got, want $want"
	done
}

@test "powercap: peak_power has no window, a missing op is null, zones grouped by control type" {
	fx=$(copy_of hwp-laptop pc)
	z="$fx/sys/devices/virtual/powercap/intel-rapl/intel-rapl:0"
	printf 'peak_power\n' >"$z/constraint_2_name"
	printf '210000000\n' >"$z/constraint_2_power_limit_uw"
	: >"$z/constraint_0_max_power_uw"
	# A second control type whose zone is a plain folder, as in a copy.
	m="$fx/sys/class/powercap"
	mkdir -p "$m/intel-rapl-mmio" "$m/intel-rapl-mmio:0"
	printf '0\n' >"$m/intel-rapl-mmio/enabled"
	printf 'package-0\n' >"$m/intel-rapl-mmio:0/name"
	printf '0\n' >"$m/intel-rapl-mmio:0/enabled"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" powercap -J
	assert_success
	jq -e '.powercap.zones[0].constraints[2] == {id: 2, name: "peak_power",
		power_limit_uw: 210000000, time_window_us: null, max_power_uw: null}' <<<"$output"
	jq -e '.powercap.zones[0].constraints[0].max_power_uw == null' <<<"$output"
	jq -e '.powercap.control_types == [{name: "intel-rapl", enabled: true},
		{name: "intel-rapl-mmio", enabled: false}]' <<<"$output"
	jq -e '[.powercap.zones[] | [.zone, .control_type, .parent]] == [
		["intel-rapl:0", "intel-rapl", null], ["intel-rapl:0:0", "intel-rapl", "intel-rapl:0"],
		["intel-rapl:0:1", "intel-rapl", "intel-rapl:0"], ["intel-rapl-mmio:0", "intel-rapl-mmio", null]]' <<<"$output"
	jq -e '.powercap.zones[3] | .energy_uj == null and .max_energy_range_uj == null and
		.enabled == false and .constraints == []' <<<"$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" powercap
	assert_success
	[ -z "$stderr" ]
	assert_line "intel-rapl-mmio: disabled"
	assert_line "    2 peak_power  limit 210 W"
	assert_line "intel-rapl-mmio zones:"
}

@test "powercap: the human view, subzones under their zone, at 80 columns" {
	fx_of -v fx hwp-laptop
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" powercap
	assert_success
	long=$(awk 'length > 80' <<<"$output")
	[ -z "$long" ] || fail "lines over 80 columns: $long"
	assert_line "intel-rapl: enabled"
	[ "${lines[2]}" = "  intel-rapl:0  package-0  enabled" ]
	[ "${lines[3]}" = "    energy 118205.531441 J, wraps at 262143.32885 J" ]
	[ "${lines[4]}" = "    0 long_term   limit 28 W, window 27.983872 s, max 28 W" ]
	[ "${lines[5]}" = "    1 short_term  limit 64 W, window 2.44 ms, max 0 W" ]
	[ "${lines[6]}" = "    intel-rapl:0:0  core  enabled" ]
	[ "${lines[7]}" = "      energy 71834.016993 J, wraps at 262143.32885 J" ]
	[ "${lines[8]}" = "      0 long_term   limit 0 W, window 976 us" ]
	[ "$(pmctl --sysroot "$fx" powercap show)" = "$output" ]
}

@test "powercap -F kv: key='value' lines that eval in sh" {
	fx_of -v fx hwp-laptop
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" powercap -F kv
	assert_success
	bad=$(grep -vE "^[a-z0-9_]+='([^']|'\\\\'')*'\$" <<<"$output" || true)
	[ -z "$bad" ] || fail "not key='value': $bad"
	# shellcheck disable=SC2016 # evaluated by sh
	got=$(sh -c 'eval "$1"; printf "%s|" "$powercap_type0_name" "$powercap_zone0_energy_uj" \
		"$powercap_zone1_parent" "$powercap_zone0_constraint1_time_window_us" \
		"$powercap_zone2_constraint0_max_power_uw"' sh "$output")
	[ "$got" = "intel-rapl|118205531441|intel-rapl:0|2440||" ] || fail "kv read back: $got"
}

# ============================================================ non-root

@test "domains as a non-root user: debugfs parts say why in one line, regulators shown" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	d=$(nobody_copy arm-biglittle)
	nb=$(nobody_bin)
	run --separate-stderr as_nobody "$nb/pmctl" --sysroot "$d" domains
	h_status=$status h_out=$output h_err=$stderr
	run --separate-stderr as_nobody "$nb/pmctl" --sysroot "$d" domains -J
	j_status=$status j_out=$output j_err=$stderr
	run --separate-stderr as_nobody "$nb/pmctl" --sysroot "$d" domains -J -q
	q_err=$stderr
	rm -rf "$d" "$nb"
	[ "$h_status" -eq 0 ] || fail "human: exit $h_status: $h_err"
	[ -z "$h_err" ] || fail "human: stderr: $h_err"
	grep -qx "power domains: not available (/sys/kernel/debug/pm_genpd/pm_genpd_summary: Permission denied; debugfs needs root)" <<<"$h_out"
	grep -qx "clocks: not available (/sys/kernel/debug/clk/clk_summary: Permission denied; debugfs needs root)" <<<"$h_out"
	grep -q "vdd_cpu_l" <<<"$h_out"
	[ "$j_status" -eq 0 ]
	jq -e '.power_domains == null and .clocks == null and (.regulators | length) == 4' <<<"$j_out"
	[ "$j_err" = "pmctl: power domains: not available (/sys/kernel/debug/pm_genpd/pm_genpd_summary: Permission denied; debugfs needs root)
pmctl: clocks: not available (/sys/kernel/debug/clk/clk_summary: Permission denied; debugfs needs root)" ] || fail "json stderr: $j_err"
	[ -z "$q_err" ] || fail "-q stderr: $q_err"
}

@test "powercap as a non-root user: energy_uj is null with one note, exit 0" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	d=$(nobody_copy hwp-laptop)
	nb=$(nobody_bin)
	run --separate-stderr as_nobody "$nb/pmctl" --sysroot "$d" powercap -J
	j_status=$status j_out=$output j_err=$stderr
	run --separate-stderr as_nobody "$nb/pmctl" --sysroot "$d" powercap -q
	h_status=$status h_out=$output q_err=$stderr
	rm -rf "$d" "$nb"
	[ "$j_status" -eq 0 ] || fail "exit $j_status: $j_err"
	jq -e '[.powercap.zones[].energy_uj] == [null, null, null] and
		.powercap.zones[0].max_energy_range_uj == 262143328850 and
		.powercap.zones[0].constraints[0].power_limit_uw == 28000000' <<<"$j_out"
	[ "$j_err" = "pmctl: energy_uj is readable by root only (since Linux 5.10): the energy of 3 zones is unknown" ] ||
		fail "stderr: $j_err"
	[ "$h_status" -eq 0 ]
	[ -z "$q_err" ] || fail "-q stderr: $q_err"
	grep -qx "    energy ? (root only), wraps at 262143.32885 J" <<<"$h_out"
}

# ============================================================ real machines

@test "the real machines' dumps: domains and powercap exit 0 or 3, never crash" {
	mapfile -t names < <(dump_names)
	[ "${#names[@]}" -ge 20 ]
	sample_list -3 dumps_run "${names[@]}"
	for n in "${dumps_run[@]}"; do
		d=$(dump "$n")
		for c in domains powercap; do
			run --separate-stderr "$bin/pmctl" --sysroot "$d" "$c" -J
			case $status in
			0) jq -e . <<<"$output" >/dev/null || fail "$n $c: bad JSON" ;;
			3) [ -z "$output" ] && [ "${#stderr_lines[@]}" -eq 1 ] || fail "$n $c: exit 3 with $output / $stderr" ;;
			*) fail "$n $c: exit $status: $stderr" ;;
			esac
			run --separate-stderr "$bin/pmctl" --sysroot "$d" "$c"
			[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "$n $c human: exit $status"
		done
	done
}

@test "the real root, read only: domains and powercap exit 0 or 3" {
	for c in domains powercap; do
		for f in human json kv; do
			run --separate-stderr "$bin/pmctl" "$c" -F "$f"
			[ "$status" -eq 0 ] || [ "$status" -eq 3 ] || fail "$c -F $f: exit $status: $stderr"
			if [ "$status" -eq 0 ] && [ "$f" = json ]; then
				jq -e . <<<"$output" >/dev/null || fail "$c: bad JSON"
			fi
			if [ "$status" -eq 3 ]; then
				[ -z "$output" ] && [ "${#stderr_lines[@]}" -eq 1 ] || fail "$c -F $f: exit 3: $stderr"
			fi
		done
	done
}

# ============================================================ bad input

@test "bad input: an argument other than show, -c, a format not offered, --wait" {
	for m in arm-biglittle hwp-laptop; do
		fx_of -v fx "$m"
		for c in domains powercap; do
			bad_input pmctl "$fx" "$c" bogus
			bad_input pmctl "$fx" "$c" show show
			bad_input pmctl "$fx" "$c" show extra
			bad_input pmctl "$fx" "$c" -c 0
			bad_input pmctl "$fx" "$c" --cpu=all
			bad_input pmctl "$fx" "$c" -F csv
			bad_input pmctl "$fx" "$c" --format prom
			bad_input pmctl "$fx" "$c" --wait
			bad_input pmctl "$fx" "$c" $'show\n\001'
		done
	done
	run --separate-stderr "$bin/pmctl" --sysroot "$(fx_of arm-biglittle)" domains -c 0
	[ "${stderr_lines[0]}" = "pmctl: --cpu does not apply to pmctl domains" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$(fx_of hwp-laptop)" powercap nope
	[ "${stderr_lines[0]}" = "pmctl: powercap: unknown argument 'nope'" ]
}

@test "--help of each command: its usage on stdout, exit 0" {
	for c in domains powercap; do
		run --separate-stderr "$bin/pmctl" "$c" --help
		assert_success
		[ -z "$stderr" ]
		[ "${lines[0]}" = "Usage: pmctl [options] $c [show]" ]
	done
	run "$bin/pmctl" --help
	assert_success
	assert_line --regexp '^  domains +regulators, PM domains and the clock tree$'
	assert_line --regexp '^  powercap +powercap \(RAPL\) zones: energy, power limits$'
}
