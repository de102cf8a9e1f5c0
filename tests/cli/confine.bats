#!/usr/bin/env bats
# shellcheck disable=SC2016 # hook bodies are single-quoted on purpose: they expand later
# shellcheck disable=SC2154 # $bin, $top, $so and bats' $status, $stderr come from helpers.bash and run
# What the tools use is what they confined and checked (issue 24 sections
# 2, 8 and 9).  The confinement table (confine.tsv) with every kind of
# link, run with openat2 and with openat2 missing or refused (the fault
# shim's PM_FAULT_OPENAT2: ENOSYS as before Linux 5.6 and under valgrind,
# EINVAL as a kernel without a flag, EPERM as a sandbox that filters the
# call): nothing outside the root is read or written.  A file's own
# refusal never sends the open elsewhere.  A hook runs the very file that
# was checked; configuration is refused when any folder on its way,
# through links, could be changed by others; --save never writes a value
# that would not read back as itself; children get the root as an
# absolute path.
# tests/run: reads the corpus

load helpers

table="$BATS_TEST_DIRNAME/confine.tsv"

setup() {
	load_libs
	export t=$BATS_TEST_TMPDIR bin
}

# The drivers of the tables (attack.bash) run in a bash of their own.
attack() {
	run bash "$BATS_TEST_DIRNAME/attack.bash" "$@"
	grep '^#' <<<"$output" >&3 || true
	[ "$status" -eq 0 ] || fail "$output"
}

@test "confinement with openat2: every kind of link, read and write, stays inside the root (confine.tsv)" {
	cp -a "$(fixture hwp-laptop)" "$t/fx"
	attack confine_table "$table" ""
}

@test "confinement with openat2 missing (ENOSYS, as before Linux 5.6 or under valgrind): the same table" {
	fault_so
	export so
	cp -a "$(fixture hwp-laptop)" "$t/fx"
	attack confine_table "$table" ENOSYS
}

@test "confinement with openat2 refused by a sandbox (EPERM for every call), or a resolve flag missing (EINVAL): the table's absolute and relative links" {
	fault_so
	export so
	cp -a "$(fixture hwp-laptop)" "$t/fx"
	attack confine_table "$table" EPERM abs rel
	attack confine_table "$table" EINVAL abs rel
}

@test "with openat2 missing, every report is the one openat2 gives (fixtures and real dumps)" {
	fault_so
	local m c a b
	for m in hwp-laptop arm-biglittle laptop2006 vm-haltpoll; do
		fixture -v fx "$m"
		for c in "pmctl -J" "pmctl domains -J" "pmctl device -J" "cstate-stat -J" "opp-set --list -J" "pm-suspend --check deep"; do
			read -r -a a <<<"$c"
			# The same but for the clock ("time" of a sample).
			run --separate-stderr "$bin/${a[0]}" --sysroot "$fx" "${a[@]:1}"
			b="$status|$(sed -E 's/"time": [0-9.]+//' <<<"$output")|$stderr"
			run --separate-stderr env LD_PRELOAD="$so" PM_FAULT_OPENAT2=ENOSYS \
				"$bin/${a[0]}" --sysroot "$fx" "${a[@]:1}"
			output=$(sed -E 's/"time": [0-9.]+//' <<<"$output")
			[ "$b" = "$status|$output|$stderr" ] ||
				fail "$m: $c differs without openat2: $(diff <(echo "$b") <(echo "$status|$output|$stderr"))"
		done
	done
	m=$(dump_names | head -n 1)
	fx=$(dump "$m")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" -J
	b="$status|$output"
	run --separate-stderr env LD_PRELOAD="$so" PM_FAULT_OPENAT2=ENOSYS "$bin/pmctl" --sysroot "$fx" -J
	[ "$b" = "$status|$output" ] || fail "dump $m differs without openat2"
}

@test "a file's own refusal (EPERM, as an immutable file) is the answer: never an open that leaves the root" {
	fault_so
	fresh -v fx hwp-laptop
	f=/sys/devices/LNXSYSTM:00/LNXSYBUS:00/PNP0C0A:00/power_supply/BAT0/charge_control_end_threshold
	echo 77 >"$t/host-threshold"
	rm "$fx$f"
	ln -s "$t/host-threshold" "$fx$f"
	mkdir -p "$fx${t}"
	echo 80 >"$fx$t/host-threshold"
	# The first open of it fails as an immutable file's would.
	run --separate-stderr env LD_PRELOAD="$so" PM_FAULT_WRITE="*/charge_control_end_threshold=EPERM@1" \
		"$bin/pmctl" --sysroot "$fx" supply set BAT0 --charge-stop 90
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"/sys/class/power_supply/BAT0/charge_control_end_threshold"* ]] || fail "$stderr"
	[ "$(<"$t/host-threshold")" = 77 ] || fail "the host's file was written"
	[ "$(<"$fx$t/host-threshold")" = 80 ] || fail "the file inside was written: $(<"$fx$t/host-threshold")"
	# Without the refusal the write lands inside the root.
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" supply set BAT0 --charge-stop 90
	assert_success
	[ "$(<"$t/host-threshold")" = 77 ] || fail "the host's file was written"
	[ "$(<"$fx$t/host-threshold")" = 90 ] || fail "not written inside the root"
}

# ---------------------------------------------------------------- hooks

# A tree where /etc/pm/sleep.d/NAME is an absolute link to $t/hooks/NAME:
# inside the root that path holds INSIDE, on the host HOST.
hook_pair() { # FX NAME INSIDE-SCRIPT HOST-SCRIPT
	local fx=$1 n=$2
	mkdir -p "$t/hooks" "$fx$t/hooks"
	printf '%s' "$3" >"$fx$t/hooks/$n"
	chmod 755 "$fx$t/hooks/$n"
	printf '%s' "$4" >"$t/hooks/$n"
	chmod 777 "$t/hooks/$n"
	chown nobody "$t/hooks/$n"
	ln -s "$t/hooks/$n" "$fx/etc/pm/sleep.d/$n"
}

@test "a hook that is an absolute symlink runs the file inside the root that was checked, never the host's" {
	[ "$(id -u)" -eq 0 ] || skip "as root"
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/var/log"
	hook_pair "$fx" 10script '#!/bin/sh
echo "inside $1" >>"$PM_SYSROOT/ran"
' "#!/bin/sh
echo \"host \$1\" >>$t/host-ran
"
	# A binary: true inside, false on the host (its result tells).
	mkdir -p "$fx$t/hooks"
	cp /bin/true "$fx$t/hooks/20binary"
	cp /bin/false "$t/hooks/20binary"
	chmod 755 "$fx$t/hooks/20binary"
	chmod 777 "$t/hooks/20binary"
	chown nobody "$t/hooks/20binary"
	ln -s "$t/hooks/20binary" "$fx/etc/pm/sleep.d/20binary"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" -J deep
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[ ! -e "$t/host-ran" ] || fail "the host's hook ran: $(<"$t/host-ran")"
	[ "$(<"$fx/ran")" = "inside suspend
inside resume" ] || fail "ran: $(cat "$fx/ran" 2>/dev/null)"
	jq -e '[.hooks[] | select(.path | endswith("20binary")) | .result] | length == 2 and all(. == "success")' <<<"$output" >/dev/null ||
		fail "the binary that ran was not the one inside: $output"
}

@test "a hook changed after the check is not run: what runs is checked again, on the fd that is executed" {
	[ "$(id -u)" -eq 0 ] || skip "as root"
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/var/log" "$fx/hooks"
	printf '#!/bin/sh\necho "good $1" >>"$PM_SYSROOT/ran"\n' >"$fx/hooks/good"
	printf '#!/bin/sh\necho "evil $1" >>"$PM_SYSROOT/ran"\n' >"$fx/hooks/evil"
	chmod 755 "$fx/hooks/good"
	chmod 777 "$fx/hooks/evil"
	chown nobody "$fx/hooks/evil"
	ln -s ../../../hooks/good "$fx/etc/pm/sleep.d/20b"
	# 10a, run first, points 20b at nobody's file: listed as good, it
	# must not run as evil.
	printf '#!/bin/sh\n[ "$1" = suspend ] && ln -sfn ../../../hooks/evil "$PM_SYSROOT/etc/pm/sleep.d/20b"\nexit 0\n' \
		>"$fx/etc/pm/sleep.d/10a"
	chmod 755 "$fx/etc/pm/sleep.d/10a"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" deep
	! grep -q evil "$fx/ran" 2>/dev/null || fail "nobody's hook ran as root: $(<"$fx/ran")"
	[[ $stderr == *"cannot run the hook /etc/pm/sleep.d/20b"* ]] || fail "$stderr"
}

# ----------------------------------------------------- configuration folders

@test "as root, configuration is refused when a folder on its way, through links, could be changed by others" {
	[ "$(id -u)" -eq 0 ] || skip "the checks are made as root only"
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d" "$fx/etc/pm/sleep.d" "$fx/var/log"
	mkdir -m 755 "$t/safe" "$t/safe2"
	mkdir -m 777 "$t/open"
	mkdir -m 1777 "$t/sticky"
	mkdir -m 755 "$t/nobodys"
	chown nobody "$t/nobodys"
	mkdir -m 755 "$t/nobodys/sub"
	p='[cpufreq]\ngovernor = powersave'
	for d in open sticky nobodys/sub; do printf '%b\n' "$p" >"$t/$d/p.conf"; done
	ln -s "$t/open/p.conf" "$t/safe/abs.conf"
	ln -s ../open/p.conf "$t/safe/rel.conf"
	ln -s "$t/safe/abs.conf" "$t/safe2/chain.conf"
	ln -s "$t/sticky/p.conf" "$t/safe/sticky.conf"
	ln -s "$t/nobodys/sub/p.conf" "$t/safe/deep.conf"
	ln -s "$t/safe" "$t/safe2/dirlink"
	its="refusing to read it as root: its folder is not owned by root or is writable by group or others without the sticky bit"
	way="refusing to read it as root: the folder $t/nobodys on its way is not owned by root"
	for c in "abs.conf|$its (mode 0777, uid 0)" "rel.conf|$its (mode 0777, uid 0)" \
		"../safe2/chain.conf|$its (mode 0777, uid 0)" "../safe2/dirlink/abs.conf|$its (mode 0777, uid 0)" \
		"deep.conf|$way"; do
		f=$t/safe/${c%%|*}
		for a in "opp-set -n -f $f" "pm-suspend -n --config $f deep"; do
			read -r -a args <<<"$a"
			run --separate-stderr "$bin/${args[0]}" --sysroot "$fx" "${args[@]:1}"
			[ "$status" -eq 2 ] || fail "$a: exit $status: $stderr"
			[[ ${stderr_lines[0]} == *": ${c#*|}"* ]] || fail "$a: ${stderr_lines[0]}"
		done
	done
	# The sticky folder (as /tmp) keeps others from swapping root's file.
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n -f "$t/safe/sticky.conf"
	assert_success
	# A point in /etc/pm/opp.d linked to a folder others may write.
	mkdir -m 777 "$fx/srv"
	printf '%b\n' "$p" >"$fx/srv/p.conf"
	ln -s /srv/p.conf "$fx/etc/pm/opp.d/linked.conf"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n linked
	[ "$status" -eq 2 ] || fail "exit $status: $stderr"
	[[ $stderr == *"/etc/pm/opp.d/linked.conf: $its (mode 0777, uid 0)"* ]] || fail "$stderr"
}

# ---------------------------------------------------------------- --save

# FILE (below the root)  VALUE: --save must refuse, write nothing.
save_cases=(
	'/sys/devices/system/cpu/cpufreq/policy0/scaling_governor|performance\n[sysfs]\n/sys/power/state = mem'
	'/sys/devices/system/cpu/cpufreq/policy1/energy_performance_preference|balance_power\n[cpu]\nonline = 0'
	'/sys/devices/system/cpu/cpuidle/current_governor|menu\n[cpu]\nonline = 0'
	'/sys/firmware/acpi/platform_profile|low-power\n[sysfs]\n/sys/power/state = mem'
	'/sys/devices/system/cpu/intel_pstate/status|active\r[cpu]'
	'/sys/devices/system/cpu/cpufreq/policy0/scaling_governor|"performance"'
	'/sys/devices/system/cpu/cpufreq/policy0/scaling_governor|power\x1b[2Jsave'
)

@test "--save refuses a value that would not read back as itself (a newline would write new sections)" {
	local c f v
	for c in "${save_cases[@]}"; do
		fresh -v fx hwp-laptop
		f=${c%%|*}
		v=${c#*|}
		printf '%b\n' "$v" >"$fx$f"
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" --save "$t/saved.conf"
		[ "$status" -eq 1 ] || fail "$f: exit $status: $stderr"
		[[ ${stderr_lines[0]} == "opp-set: cannot save $t/saved.conf: "*"does not fit in a point file"* ]] ||
			fail "$f: $stderr"
		[ ! -e "$t/saved.conf" ] || fail "$f: saved anyway: $(<"$t/saved.conf")"
		[ -z "$(find "$t" -maxdepth 1 -name '.saved.conf.*')" ] || fail "$f: a temporary file left"
	done
	# A devfreq device whose name would end its section.
	fresh -v fx arm-biglittle
	mv "$fx/sys/class/devfreq/ff9a0000.gpu" "$fx/sys/class/devfreq/gpu]
[sysfs]"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --save "$t/saved.conf"
	[ "$status" -eq 1 ] || fail "devfreq: exit $status: $stderr"
	[ ! -e "$t/saved.conf" ] || fail "devfreq: saved anyway"
}

@test "a point whose values hold control characters is refused on load: exit 2, the line named" {
	local v
	fresh -v fx hwp-laptop
	for v in 'perfor\rmance' 'power\x1bsave' 'power\x7fsave' 'power\x00save' 'a\x0bb'; do
		printf '[cpufreq]\ngovernor = %b\n' "$v" >"$t/p.conf"
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" -n -f "$t/p.conf"
		[ "$status" -eq 2 ] || fail "$v: exit $status: $stderr"
		[[ ${stderr_lines[0]} == "opp-set: $t/p.conf:"* ]] || fail "$v: $stderr"
	done
}

# -------------------------------------------------------- the root handed on

@test "a relative --sysroot reaches hooks and commands as an absolute PM_SYSROOT" {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/var/log"
	# Each child changes folder first, then looks at its root.
	printf '#!/bin/sh\ncd / && cat "$PM_SYSROOT/marker" >>"$PM_SYSROOT/hook-saw" && echo "$PM_SYSROOT" >>"$PM_SYSROOT/hook-root"\n' \
		>"$fx/etc/pm/sleep.d/10look"
	chmod 755 "$fx/etc/pm/sleep.d/10look"
	echo inside >"$fx/marker"
	look='cd / && cat "$PM_SYSROOT/marker" && echo "$PM_SYSROOT"'
	cd "${fx%/*}"
	rel=${fx##*/}
	run --separate-stderr "$bin/cstate-stat" --sysroot "$rel" -q -o "$t/report" -- sh -c "$look"
	assert_success
	[ "$output" = "inside
$fx" ] || fail "cstate-stat -- CMD: $output"
	run --separate-stderr "$bin/pmctl" --sysroot "./$rel/." latency 10 -- sh -c "$look"
	assert_success
	[ "$output" = "inside
$fx" ] || fail "pmctl latency -- CMD: $output"
	run --separate-stderr "$bin/pm-suspend" --sysroot "$rel" deep
	assert_success
	[ "$(<"$fx/hook-saw")" = "inside
inside" ] || fail "the hook: $(cat "$fx/hook-saw" 2>/dev/null)"
	[ "$(sort -u "$fx/hook-root")" = "$fx" ] || fail "PM_SYSROOT of the hook: $(<"$fx/hook-root")"
	# "." is wherever the tool was started.
	cd "$fx"
	run --separate-stderr "$bin/cstate-stat" --sysroot . -q -o "$t/report" -- sh -c 'echo "$PM_SYSROOT"'
	assert_success
	[ "$output" = "$fx" ] || fail "--sysroot .: $output"
}
