#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top, $so and bats' $output, $stderr come from helpers.bash and run
# pm-suspend's history (issue 21, part 5): each cycle's JSON line in
# /var/log/pm-suspend-history.jsonl, --history per ISO week in its
# formats (a line that does not parse counted, never guessed), and the
# pm_suspend_* metrics of the textfile job, checked by promtool.

load helpers

setup() {
	load_libs
}

log=var/log/pm-suspend-history.jsonl

# A hwp-laptop with tracefs and the kernel's power events, all off.
histfx() {
	local fx t e
	fresh -v fx hwp-laptop
	t=$fx/sys/kernel/tracing
	mkdir -p "$t"
	echo 0 >"$t/tracing_on"
	echo nop >"$t/current_tracer"
	echo 7 >"$t/buffer_size_kb"
	: >"$t/trace"
	for e in suspend_resume device_pm_callback_start device_pm_callback_end; do
		mkdir -p "$t/events/power/$e"
		echo 0 >"$t/events/power/$e/enable"
	done
	printf '%s\n' "$fx"
}

# promtool check metrics FILE, or the one line that says it is missing.
promtool_check() {
	if ! command -v promtool >/dev/null; then
		echo "# promtool is not installed (scripts/install-deps): not checked" >&3
		return 0
	fi
	promtool check metrics <"$1"
}

@test "each cycle adds one line: the failing device from the trace, the trace's resume, the wake IRQ; --history -J and the metrics" {
	fault_so
	fx=$(histfx)
	t=$fx/sys/kernel/tracing
	t0=$(date +%s)
	# The kernel traces a failing callback, then refuses the state write.
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/wakeup_count" \
		PM_FAULT_AFTER_CMD="cp $top/tests/fuzz/seeds/trace/failing $t/trace" \
		PM_FAULT_WRITE="*/sys/power/state=EBUSY" LD_PRELOAD="$so" \
		"$bin/pm-suspend" --sysroot "$fx" --timings deep
	assert_failure 1
	# Then a cycle that sleeps, woken by IRQ 9, traced (plain files keep
	# the last word written: the kernel's lists again).
	for f in state mem_sleep disk pm_test; do
		cp "$(fixture hwp-laptop)/sys/power/$f" "$fx/sys/power/$f"
	done
	echo 9 >"$fx/sys/power/pm_wakeup_irq"
	run --separate-stderr env PM_FAULT_AFTER="*/sys/power/state" \
		PM_FAULT_AFTER_CMD="cp $top/tests/fixtures/traces/s3.trace $t/trace" \
		LD_PRELOAD="$so" "$bin/pm-suspend" --sysroot "$fx" --timings deep
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
	[ "$(wc -l <"$fx/$log")" -eq 2 ]
	[ "$(stat -c %a "$fx/$log")" = 640 ]
	l1=$(sed -n 1p "$fx/$log")
	l2=$(sed -n 2p "$fx/$log")
	[ "$(jq -c '[.v, .mode, .state, .result, .errno, .failed_device, .failed_driver, .failed_phase, .failed_errno, .failed_source, .trace_resume_s, .wake_irq]' <<<"$l1")" = \
		'[1,"deep","mem","failed","EBUSY","0000:00:14.0","xhci_hcd","dpm_suspend",-16,"trace",null,null]' ] || fail "$l1"
	[ "$(jq -c '[.result, .error, .failed_device, .trace_resume_s, .wake_irq, .wake_irq_name, (.resume_s >= 0), (.suspend_stats | length)]' <<<"$l2")" = \
		'["ok",null,null,0.0924,9,"acpi",true,10]' ] || fail "$l2"
	jq -e --argjson a "$t0" --argjson b "$(date +%s)" '.time >= $a and .time <= $b' <<<"$l2"
	# The weeks: both cycles in one, the numbers the log's.
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" --history -J
	assert_success
	[ "$(jq -c '[.lines, .cycles, .unparsed, (.weeks | length)]' <<<"$output")" = '[2,2,0,1]' ] || fail "$output"
	w=$(jq -c '.weeks[0]' <<<"$output")
	[ "$(jq -c '[.cycles, .ok, .failed, .skipped, .success_pct, .traced, .trace_resume_median_s, .trace_resume_worst_s, .wake_reasons]' <<<"$w")" = \
		'[2,1,1,0,50,1,0.0924,0.0924,[{"irq":9,"name":"acpi","cycles":1}]]' ] || fail "$w"
	[ "$(jq '.resume_median_s' <<<"$w")" = "$(jq '.resume_s' <<<"$l2")" ]
	[ "$(jq -r .week <<<"$w")" = "$(date -d "@$(jq .time <<<"$l2")" +%G-W%V)" ]
	# The textfile job's metrics, written whole with -o.
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" --history -F prom -o "$BATS_TEST_TMPDIR/s.prom"
	assert_success
	[ -z "$output" ]
	promtool_check "$BATS_TEST_TMPDIR/s.prom"
	p=$(grep -v '^#' "$BATS_TEST_TMPDIR/s.prom")
	diff - <(grep -v '^#' "$BATS_TEST_TMPDIR/s.prom" | sed 's/ [0-9.e+-]*$//') <<'EOF'
pm_suspend_cycles{mode="deep"}
pm_suspend_failures{mode="deep"}
pm_suspend_last_cycle_timestamp_seconds
pm_suspend_last_resume_seconds
pm_suspend_last_trace_resume_seconds
pm_suspend_last_failure_timestamp_seconds{mode="deep",result="failed"}
pm_suspend_last_failed_device_timestamp_seconds{device="0000:00:14.0",driver="xhci_hcd",mode="deep"}
pm_suspend_history_unparsed_lines
EOF
	grep -qx 'pm_suspend_cycles{mode="deep"} 2' <<<"$p"
	grep -qx 'pm_suspend_failures{mode="deep"} 1' <<<"$p"
	grep -qx 'pm_suspend_last_trace_resume_seconds 0.0924' <<<"$p"
	grep -qx "pm_suspend_last_failed_device_timestamp_seconds{.*} $(jq .time <<<"$l1")" <<<"$p"
}

# tests/fixtures/history: seven cycles over two ISO weeks (UTC) of three
# modes, a failed one with its device and a skipped one, and a line cut
# by a crash (ended by the next append).
@test "--history of a log with a cut line: counted and named, never guessed; the weeks as text and kv; the textfile job" {
	fresh -v fx hwp-laptop
	cp "$top/tests/fixtures/history/pm-suspend-history.jsonl" "$fx/var/log/"
	before=$(tree_sum "$fx")
	run --separate-stderr env TZ=UTC "$bin/pm-suspend" --sysroot "$fx" --history
	assert_success
	[ "$stderr" = "pm-suspend: 1 line of the history not parsed, not counted (the first: /var/log/pm-suspend-history.jsonl:6: a string cut short)" ] || fail "$stderr"
	diff - <(printf '%s\n' "$output") <<'EOF'
                           resume ms             kernel resume ms
week      cycles     ok %     median      worst     median      worst
2026-W48       4     75.0    190.000    210.000     88.000     92.400
          woken by: IRQ 9 (acpi) 2, IRQ 1 (i8042) 1
2026-W49       3     66.7    300.000    500.000    140.000    140.000
          woken by: no IRQ recorded 1, IRQ 9 (acpi) 1
EOF
	run --separate-stderr env TZ=UTC "$bin/pm-suspend" --sysroot "$fx" --history -F kv
	assert_success
	for l in "lines='8'" "cycles='7'" "unparsed='1'" "week0_week='2026-W48'" \
		"week0_resume_median_s='0.19'" "week1_skipped='1'" "week1_wake0_irq=''" \
		"first_unparsed='/var/log/pm-suspend-history.jsonl:6: a string cut short'"; do
		assert_line "$l"
	done
	[ "$(tree_sum "$fx")" = "$before" ] || fail "--history wrote"
	# The cron job writes the third file beside pmctl's and cstate-stat's.
	d=$BATS_TEST_TMPDIR/textfile
	mkdir "$d"
	run env PATH="$bin:$PATH" PM_SYSROOT="$fx" "$top/scripts/cron/pmtools-textfile" "$d"
	assert_success
	[ -z "$output" ]
	promtool_check "$d/pmtools-suspend.prom"
	grep -qx 'pm_suspend_cycles{mode="deep"} 5' "$d/pmtools-suspend.prom"
	grep -qx 'pm_suspend_history_unparsed_lines 1' "$d/pmtools-suspend.prom"
	grep -qx 'pm_suspend_last_failure_timestamp_seconds{mode="deep",result="skipped"} 1796284800' "$d/pmtools-suspend.prom"
	[ "$(find "$d" -type f | wc -l)" -eq 3 ]
}

@test "no history yet is exit 3 with nothing written; a log that cannot be written is a warning, and the sleep is done" {
	fresh -v fx hwp-laptop
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" --history -F prom -o "$BATS_TEST_TMPDIR/s.prom"
	assert_failure 3
	[ "$stderr" = "pm-suspend: no history yet: /var/log/pm-suspend-history.jsonl does not exist (each sleep adds a line)" ] || fail "$stderr"
	[ ! -e "$BATS_TEST_TMPDIR/s.prom" ]
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '.s.prom*')" ]
	# A folder where the log goes: the cycle is whole, exit 0, one warning.
	mkdir "$fx/$log"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" deep
	assert_success
	[ "$stderr" = "pm-suspend: cannot add the cycle to the history: /var/log/pm-suspend-history.jsonl: Is a directory (EISDIR)" ] || fail "$stderr"
	[ "$(<"$fx/sys/power/state")" = mem ]
	grep -q "deep: back after" "$fx/var/log/pm-suspend.log"
}
