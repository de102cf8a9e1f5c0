#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $output, $stderr come from helpers.bash and run
# The Prometheus exposition of pmctl status and cstate-stat: the text
# format's grammar (HELP and TYPE before a family's samples, metric and
# label names, quoted and escaped label values, numbers), pm_ names, no
# series twice; and promtool's own check (Debian's prometheus package) of
# every prom output on every fixture and corpus dump.
# tests/run: reads the corpus

load helpers

machines=(laptop2006 hwp-laptop amd-desktop arm-biglittle vm-haltpoll)

setup() {
	load_libs
}

# The grammar of the text format 0.0.4, line by line.
prom_ok() { # FILE
	awk '
	function fail(m) { printf "line %d: %s: %s\n", NR, m, $0; bad = 1; exit 1 }
	/^# HELP / { if ($3 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*$/) fail("HELP name"); help[$3] = 1; next }
	/^# TYPE / {
		if ($3 !~ /^[a-zA-Z_:][a-zA-Z0-9_:]*$/) fail("TYPE name")
		if ($4 !~ /^(counter|gauge|histogram|summary|untyped)$/) fail("TYPE")
		if ($3 in type) fail("TYPE twice")
		type[$3] = $4; next
	}
	/^#/ { next }
	/^$/ { fail("empty line") }
	{
		line = $0
		if (!match(line, /^[a-zA-Z_:][a-zA-Z0-9_:]*/)) fail("metric name")
		name = substr(line, 1, RLENGTH); rest = substr(line, RLENGTH + 1)
		if (name !~ /^pm_/) fail("not pm_")
		if (!(name in type) || !(name in help)) fail("no HELP/TYPE before the sample")
		if (type[name] == "counter" && name !~ /_total$/) fail("counter without _total")
		labels = ""
		if (substr(rest, 1, 1) == "{") {
			if (!match(rest, /^\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\["\\n])*"(,[a-zA-Z_][a-zA-Z0-9_]*="([^"\\]|\\["\\n])*")*)?\}/))
				fail("labels")
			labels = substr(rest, 1, RLENGTH); rest = substr(rest, RLENGTH + 1)
		}
		if (rest !~ /^ (-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?|NaN|\+Inf|-Inf)( -?[0-9]+)?$/) fail("value")
		if ((name labels) in seen) fail("series twice")
		seen[name labels] = 1; n++
	}
	END { if (!bad && n == 0) { print "no samples"; exit 1 } }' "$1"
}

# promtool (Debian's prometheus package, scripts/install-deps) is the
# anchor: without it the tests fail rather than pass unchecked.
promtool_ok() {
	command -v promtool >/dev/null || {
		echo "promtool is not installed (scripts/install-deps)"
		return 1
	}
	promtool check metrics <"$1"
}

@test "pmctl status -F prom follows the exposition grammar on every fixture" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		f=$BATS_TEST_TMPDIR/$m.prom
		run --separate-stderr "$bin/pmctl" --sysroot "$(fixture "$m")" status -F prom
		assert_success
		printf '%s\n' "$output" >"$f"
		prom_ok "$f" || fail "$m: $(prom_ok "$f")"
		promtool_ok "$f" || fail "$m: promtool"
	done
}

@test "pmctl status -F prom: the values are the kernel's, in base units" {
	fixture -v fx arm-biglittle
	run "$bin/pmctl" --sysroot "$fx" status -F prom
	cur=$(<"$fx/sys/devices/system/cpu/cpufreq/policy4/scaling_cur_freq")
	assert_line "pm_cpufreq_frequency_hertz{policy=\"4\"} $((cur * 1000))"
	t=$(<"$fx/sys/class/thermal/thermal_zone0/temp")
	grep -qE "^pm_thermal_zone_temperature_celsius\{zone=\"0\",type=\"[^\"]+\"\} $(awk -v t="$t" 'BEGIN { printf "%g", t / 1000 }')$" <<<"$output"
	assert_line "pm_cpus_online 6"
	fixture -v fx hwp-laptop
	run "$bin/pmctl" --sysroot "$fx" status -F prom
	b=$(basename "$(dirname "$(grep -l Battery "$fx"/sys/class/power_supply/*/type | head -1)")")
	c=$(<"$fx/sys/class/power_supply/$b/capacity")
	assert_line "pm_power_supply_capacity_ratio{supply=\"$b\"} $(awk -v c="$c" 'BEGIN { printf "%g", c / 100 }')"
}

@test "a hostile supply name stays inside its quoted label" {
	fresh -v fx hwp-laptop
	b=$(basename "$(dirname "$(grep -l Battery "$fx"/sys/class/power_supply/*/type | head -1)")")
	printf 'x"y\\z\n' >"$fx/sys/class/power_supply/$b/model_name"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" status -F prom
	assert_success
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/h.prom"
	prom_ok "$BATS_TEST_TMPDIR/h.prom"
	grep -qF 'model="x\"y\\z"' "$BATS_TEST_TMPDIR/h.prom"
}

@test "cstate-stat -F prom follows the grammar too" {
	for m in hwp-laptop laptop2006 vm-haltpoll; do
		f=$BATS_TEST_TMPDIR/c-$m.prom
		run --separate-stderr "$bin/cstate-stat" --sysroot "$(fixture "$m")" -F prom
		assert_success
		printf '%s\n' "$output" >"$f"
		prom_ok "$f" || fail "$m: $(prom_ok "$f")"
		promtool_ok "$f" || fail "$m: promtool"
	done
}

@test "-o FILE writes the exposition atomically for the textfile collector" {
	d=$BATS_TEST_TMPDIR/textfile
	mkdir "$d"
	run "$bin/pmctl" --sysroot "$(fixture hwp-laptop)" status -F prom -o "$d/pmtools.prom"
	assert_success
	[ -z "$output" ]
	prom_ok "$d/pmtools.prom"
	[ "$(find "$d" -type f | wc -l)" -eq 1 ]
}

@test "prom is status's alone among pmctl's commands" {
	for c in freq idle cpu sleep supply thermal devfreq; do
		bad_input pmctl "$(fixture hwp-laptop)" "$c" -F prom
	done
}

@test "scripts/cron/pmtools-textfile writes both files, valid, and does nothing without the folder" {
	d=$BATS_TEST_TMPDIR/nx
	mkdir "$d"
	run env PATH="$bin:$PATH" PM_SYSROOT="$(fixture hwp-laptop)" "$top/scripts/cron/pmtools-textfile" "$d"
	assert_success
	[ -z "$output" ]
	prom_ok "$d/pmtools-status.prom"
	prom_ok "$d/pmtools-cstate.prom"
	[ "$(find "$d" -type f | wc -l)" -eq 2 ]
	run env PATH="$bin:$PATH" PM_SYSROOT="$(fixture hwp-laptop)" "$top/scripts/cron/pmtools-textfile" "$d/none"
	assert_success
	[ ! -e "$d/none" ]
	# The cron line calls it every minute as root.
	grep -qx '\* \* \* \* \* root pmtools-textfile /var/lib/prometheus/node-exporter' "$top/data/cron/pmtools.cron"
}

# One prom output into FILE: exit 0, or 3 with nothing printed (a
# machine with nothing to report).
prom_one() { # FILE CMD...
	local f=$1 st=0
	shift
	"$@" >"$f" 2>"$f.err" || st=$?
	[ "$st" -eq 0 ] || { [ "$st" -eq 3 ] && [ ! -s "$f" ]; } || {
		echo "$*: exit $st: $(<"$f.err")"
		return 1
	}
}

# Every prom output of every tool on one root into DIR, one file each.
prom_outputs() { # ROOT DIR
	local r=$1 d=$2
	prom_one "$d/status.prom" "$bin/pmctl" --sysroot "$r" status -F prom &&
	prom_one "$d/boot.prom" "$bin/cstate-stat" --sysroot "$r" -F prom \
		--trans-table &&
	prom_one "$d/boot-s.prom" "$bin/cstate-stat" --sysroot "$r" -F prom -s &&
	prom_one "$d/interval.prom" "$bin/cstate-stat" --sysroot "$r" \
		-i 0.02 -n 2 --wakeups --power -F prom &&
	prom_one "$d/command.prom" "$bin/cstate-stat" --sysroot "$r" -F prom \
		-- true
}

@test "promtool passes every prom output on every fixture and corpus dump" {
	local roots=() r d n i
	for m in "${machines[@]}"; do roots+=("fixture $m"); done
	roots+=("fixture server --cpus 16")
	for n in $(dump_names); do roots+=("dump $n"); done
	n=0
	for i in "${!roots[@]}"; do
		sampled "$i" 3 || continue
		# shellcheck disable=SC2086 # "fixture NAME [OPTIONS]" or "dump NAME"
		r=$(${roots[i]})
		d=$BATS_TEST_TMPDIR/p/${r##*/}
		mkdir -p "$d"
		prom_outputs "$r" "$d" || fail "${r##*/}"
		n=$((n + 1))
	done
	sample_note "$n" "${#roots[@]}" "machines"
	for f in "$BATS_TEST_TMPDIR"/p/*/*.prom; do
		# A machine with nothing to export has an empty exposition.
		[ -s "$f" ] || continue
		promtool_ok "$f" >"$f.lint" 2>&1 || fail "$f: $(<"$f.lint")"
		# Two samples on stdout repeat each series, as they should.
		[[ $f == */interval.prom ]] && continue
		# Families without samples (no idle states) are valid too.
		grep -q '^pm_' "$f" || continue
		prom_ok "$f" || fail "$f: $(prom_ok "$f")"
	done
}

@test "stdout of cstate-stat -i 1 -n 2 -F prom is one valid exposition" {
	local f=$BATS_TEST_TMPDIR/i.prom
	run --separate-stderr "$bin/cstate-stat" --sysroot "$(fixture hwp-laptop)" \
		-i 1 -n 2 -F prom
	assert_success
	printf '%s\n' "$output" >"$f"
	promtool_ok "$f" || fail "promtool"
	# Two samples, each family named once.
	[ "$(grep -c '^pm_cpuidle_state_usage_total{cpu="0",state="C1"}' "$f")" -eq 2 ]
	[ "$(grep -c '^# HELP pm_cpuidle_state_usage_total ' "$f")" -eq 1 ]
	# With -o, each file is a whole exposition.
	"$bin/cstate-stat" --sysroot "$(fixture hwp-laptop)" -i 0.02 -n 2 -F prom \
		-o "$BATS_TEST_TMPDIR/o.prom"
	promtool_ok "$BATS_TEST_TMPDIR/o.prom"
	grep -q '^# HELP pm_cpuidle_state_usage_total ' "$BATS_TEST_TMPDIR/o.prom"
}

@test "one unit spelling: hertz in every tool's metric and label names" {
	local fx d
	fixture -v fx hwp-laptop
	d=$BATS_TEST_TMPDIR/u
	mkdir -p "$d"
	prom_outputs "$fx" "$d"
	prom_outputs "$(fixture arm-biglittle)" "$d"
	cat "$d"/*.prom >"$d/all"
	run ! grep -E '(^|[{,_])[a-z_]*_hz([ {=_]|$)' "$d/all"
	grep -q '^pm_cpufreq_frequency_hertz{' "$d/all"
	grep -q 'freq_hertz="' "$d/all"
	# The names pmctl(8) and cstate-stat(8) document are the ones printed.
	while IFS= read -r n; do
		grep -qF -- "$n" "$top/man/pmctl.8" "$top/man/cstate-stat.8" ||
			fail "$n is not documented"
	done < <(grep -ho '^pm_[a-z_]*' "$d/all" | sort -u)
}

@test "no float reads back as a neighbour: energy in joules is exact" {
	fixture -v fx hwp-laptop
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" status -F prom
	assert_success
	e=$(<"$fx/sys/class/power_supply/BAT0/energy_now")
	want=$(python3 -c "print(repr($e * 3600 / 1e6))")
	assert_line "pm_power_supply_energy_joules{supply=\"BAT0\"} $want"
	# No value has the 17 digits of a rounding error.
	run ! grep -E ' [0-9]*\.[0-9]*(0000000|9999999)[0-9]*$' <<<"$output"
}
