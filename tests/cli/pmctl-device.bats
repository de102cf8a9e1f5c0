#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $dumps and bats' $stderr, $stderr_lines come from helpers.bash and run
# pmctl device: the runtime PM and wakeup view on every fixture and real
# dump (values checked against the .desc and the files), its filters, and
# device set: each write read back from the file, -n, every refusal with
# the tree unchanged, the rollback of a failed write, and non-root users.
# tests/run: reads the corpus

load helpers

machines=(laptop2006 hwp-laptop amd-desktop arm-biglittle server vm-haltpoll)
pci14=/sys/devices/pci0000:00/0000:00:14.0
keys='["autosuspend_delay_ms","control","driver","path","resume_latency_limit_us","runtime_active_time_ms","runtime_status","runtime_suspended_time_ms","subsystem","wakeup","wakeup_abort_count","wakeup_active","wakeup_active_count","wakeup_count","wakeup_expire_count","wakeup_last_time_ms","wakeup_max_time_ms","wakeup_total_time_ms"]'

fx_of() { # [-v VAR] NAME
	local -a _fo_v=()
	[ "$1" != -v ] || { _fo_v=(-v "$2") && shift 2; }
	if [ "$1" = server ]; then fixture "${_fo_v[@]}" server --cpus 16; else fixture "${_fo_v[@]}" "$1"; fi
}

setup_file() {
	for m in "${machines[@]}"; do
		fx_of "$m" >/dev/null &
	done
	# The dumps unpack in a second on tmpfs, in many on some disks.
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		DEVDUMPS=$(mktemp -d /dev/shm/pmtools-device.XXXXXX)
	else
		DEVDUMPS="$BATS_FILE_TMPDIR/dumps"
		mkdir -p "$DEVDUMPS"
	fi
	export DEVDUMPS
	for f in "$dumps"/*.tar.*; do
		tar -xf "$f" -C "$DEVDUMPS"
	done
	wait
}

teardown_file() {
	[[ $DEVDUMPS == /dev/shm/pmtools-device.* ]] && rm -rf "$DEVDUMPS"
	return 0
}

setup() {
	load_libs
	fx="$BATS_TEST_TMPDIR/fx"
	cp -a "$(fx_of hwp-laptop)" "$fx"
}

# The paths (below the root) of the folders whose power/ folder has
# runtime PM or wakeup files: what pmctl device must list.
oracle() {
	local d
	(cd "$1" && find sys/devices -type d -name power 2>/dev/null) | while read -r d; do
		for f in control runtime_status runtime_active_time runtime_suspended_time \
			autosuspend_delay_ms wakeup; do
			if [ -e "$1/$d/$f" ]; then
				printf '/%s\n' "${d%/power}"
				break
			fi
		done
	done | LC_ALL=C sort
}

# The document's paths, sorted as oracle sorts them.
paths() {
	jq -r '.devices[].path' <<<"$1" | LC_ALL=C sort
}

# The value of KEY= in an rpm-device line of a .desc, or "".
desc_opt() {
	local t
	for t in $1; do
		if [[ $t == "$2="* ]]; then
			printf '%s\n' "${t#*=}"
			return
		fi
	done
}

# ---------------------------------------------------------------- show

@test "device on every fixture: exit 0, every device the tree has, every key, kv that evals" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v f "$m"
		run --separate-stderr "$bin/pmctl" --sysroot "$f" device -J
		[ "$status" -eq 0 ] || fail "$m: exit $status: $stderr"
		jq -e --argjson k "$keys" '.devices | type == "array" and length > 0 and
			all(.[]; (keys | sort) == $k)' <<<"$output" >/dev/null ||
			fail "$m: a device without the documented keys"
		[ "$(paths "$output")" = "$(oracle "$f")" ] || fail "$m: not the tree's devices"
		js=$output
		run --separate-stderr "$bin/pmctl" --sysroot "$f" device -F kv
		[ "$status" -eq 0 ] || fail "$m: kv exit $status"
		bad=$(grep -vE "^[a-z0-9_]+='([^']|'\\\\'')*'\$" <<<"$output" || true)
		[ -z "$bad" ] || fail "$m: lines that are not key='value': $bad"
		got=$(sh -c 'eval "$(cat)"; printf "%s|%s|%s" "$device0_path" "$device0_control" "$device0_wakeup"' <<<"$output")
		want=$(jq -r '.devices[0] | "\(.path)|\(.control // "")|\(.wakeup // "")"' <<<"$js")
		[ "$got" = "$want" ] || fail "$m: kv '$got', JSON '$want'"
		run --separate-stderr "$bin/pmctl" --sysroot "$f" device
		[ "$status" -eq 0 ] || fail "$m: human exit $status"
		[ -z "$stderr" ] || fail "$m: stderr: $stderr"
		long=$(awk 'length($0) > 80' <<<"$output")
		[ -z "$long" ] || fail "$m: lines over 80 columns: $long"
		[ "${#lines[@]}" -eq "$(($(jq '.devices | length' <<<"$js") + 1))" ] ||
			fail "$m: not one line per device and a header"
	done
}

@test "device on every real dump: exit 0, valid JSON, the dump's devices, kv evals, 80 columns" {
	mapfile -t names < <(dump_names)
	[ "${#names[@]}" -ge 20 ]
	k=0
	for i in "${!names[@]}"; do
		sampled "$i" 3 || continue
		k=$((k + 1))
		n=${names[i]}
		d="$DEVDUMPS/$n"
		run --separate-stderr "$bin/pmctl" --sysroot "$d" device -J
		[ "$status" -eq 0 ] || fail "$n: exit $status: $stderr"
		jq -e --argjson k "$keys" '.devices | all(.[]; (keys | sort) == $k)' \
			<<<"$output" >/dev/null || fail "$n: bad document"
		[ "$(paths "$output")" = "$(oracle "$d")" ] || fail "$n: not the dump's devices"
		if [ "$(jq '.devices | length' <<<"$output")" -eq 0 ]; then
			[ "$stderr" = "pmctl: no device has runtime PM or wakeup files" ] ||
				fail "$n: empty without the note: $stderr"
		fi
		# Empty files (EIO at dump time) are null, never 0.
		jq -e '[.devices[] | .autosuspend_delay_ms] | all(. == null or type == "number")' \
			<<<"$output" >/dev/null || fail "$n: autosuspend_delay_ms"
		run --separate-stderr "$bin/pmctl" --sysroot "$d" device -F kv
		[ "$status" -eq 0 ] || fail "$n: kv exit $status"
		sh -c 'eval "$(cat)"' <<<"$output" || fail "$n: kv does not eval"
		run --separate-stderr "$bin/pmctl" --sysroot "$d" device -q
		[ "$status" -eq 0 ] || fail "$n: human exit $status"
		[ -z "$stderr" ] || fail "$n: -q and still: $stderr"
		long=$(awk 'length($0) > 80' <<<"$output")
		[ -z "$long" ] || fail "$n: lines over 80 columns: $long"
	done
	sample_note "$k" "${#names[@]}" dumps
}

@test "device: an empty autosuspend_delay_ms (EIO when dumped) is null, the CPUs' times are the files'" {
	d="$DEVDUMPS/x86_64-epyc_7451"
	f="$d/sys/devices/system/cpu/cpu0/power"
	[ ! -s "$f/autosuspend_delay_ms" ]
	run "$bin/pmctl" --sysroot "$d" device /sys/devices/system/cpu/cpu0 -J
	assert_success
	drv=$(readlink "$d/sys/devices/system/cpu/cpu0/driver")
	jq -e --arg s "$(<"$f/runtime_status")" --argjson a "$(<"$f/runtime_active_time")" \
		--arg d "${drv##*/}" '.devices[0] | .path == "/sys/devices/system/cpu/cpu0" and
		.autosuspend_delay_ms == null and .runtime_status == $s and .runtime_active_time_ms == $a and
		.wakeup == null and .wakeup_count == null and .driver == $d and .subsystem == "cpu"' <<<"$output"
}

@test "device --json: the values of every rpm-device line of every .desc" {
	local rpm=$BATS_TEST_TMPDIR/rpm bad
	for m in "${machines[@]}"; do
		run --separate-stderr "$bin/pmctl" --sysroot "$(fx_of "$m")" device -J
		assert_success
		grep '^rpm-device ' "$top/tests/fixtures/machines/$m.desc" >"$rpm" ||
			fail "$m: no rpm-device line"
		# One jq for all the lines: each line's values as the
		# description gives them (KEY=VALUE words; the defaults of
		# mkfixture where it gives none) against the device of its path.
		bad=$(jq -rn --slurpfile doc <(printf '%s\n' "$output") --rawfile lines "$rpm" '
			def num: if . == "" then null else tonumber end;
			def str: if . == "" then null else . end;
			$lines | split("\n")[] | select(length > 0) | split(" ") as $w |
			([$w[] | select(test("^[^+=][^=]*=")) | capture("^(?<k>[^=]+)=(?<v>.*)$")] |
				reduce .[] as $x ({}; if has($x.k) then . else .[$x.k] = $x.v end)) as $o |
			("/sys/" + $w[1]) as $p |
			[{control: ($o.control // "auto"), runtime_status: ($o.status // "active"),
			  runtime_active_time_ms: ($o["active-ms"] // "" | num),
			  runtime_suspended_time_ms: ($o["suspended-ms"] // "" | num),
			  autosuspend_delay_ms: ($o.autosuspend // "" | num),
			  wakeup: ($o.wakeup // "" | str),
			  wakeup_count: (if $o.wakeup == "enabled" then ($o["wakeup-count"] // "0") else "" end | num),
			  driver: ($o.driver // "" | str),
			  subsystem: ($o.bus // $o.class // "" | str)}] as $want |
			[$doc[0].devices[] | select(.path == $p) |
				{control, runtime_status, runtime_active_time_ms, runtime_suspended_time_ms,
				 autosuspend_delay_ms, wakeup, wakeup_count, driver, subsystem}] as $got |
			select($got != $want) | "\($p): got \($got | tojson), want \($want | tojson)"')
		[ -z "$bad" ] || fail "$m: $bad"
	done
}

@test "device: the wakeup counts and times of an enabled device, null for a disabled one" {
	run "$bin/pmctl" --sysroot "$fx" device -J /sys/bus/pci/devices/0000:00:14.0 /sys/bus/pci/devices/0000:00:14.3
	assert_success
	p="$fx$pci14/power"
	jq -e --argjson c "$(<"$p/wakeup_count")" --argjson t "$(<"$p/wakeup_total_time_ms")" \
		--argjson l "$(<"$p/wakeup_last_time_ms")" '.devices[0] |
		.wakeup == "enabled" and .wakeup_count == $c and .wakeup_active_count == $c and
		.wakeup_abort_count == $c and .wakeup_expire_count == 0 and .wakeup_active == false and
		.wakeup_total_time_ms == $t and .wakeup_max_time_ms == 5 and .wakeup_last_time_ms == $l' <<<"$output"
	jq -e '.devices[] | select(.path == "/sys/devices/pci0000:00/0000:00:14.3") | .wakeup == "disabled" and
		([.wakeup_count, .wakeup_active_count, .wakeup_abort_count, .wakeup_expire_count,
		  .wakeup_active, .wakeup_total_time_ms, .wakeup_max_time_ms, .wakeup_last_time_ms] |
		 all(. == null))' <<<"$output"
}

@test "device: pm_qos_resume_latency_us as a limit: 0 is none (null), n/a is 0, else the number" {
	p="$fx$pci14/power/pm_qos_resume_latency_us"
	for pair in 0:null n/a:0 250:250; do
		printf '%s\n' "${pair%%:*}" >"$p"
		run "$bin/pmctl" --sysroot "$fx" device -J "$pci14"
		assert_success
		[ "$(jq '.devices[0].resume_latency_limit_us' <<<"$output")" = "${pair##*:}" ] ||
			fail "${pair%%:*}: $(jq '.devices[0].resume_latency_limit_us' <<<"$output")"
	done
}

@test "device: the human table, a row per device, sorted parents first" {
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device
	assert_success
	assert_line --index 0 --regexp '^STATUS +CTRL WAKEUP +SUBSYSTEM +DRIVER +DEVICE$'
	assert_line --regexp '^suspended +auto enabled +usb +usb +pci0000:00/0000:00:14\.0/usb1/1-4$'
	assert_line --regexp '^active +on +disabled +usb +usb +pci0000:00/0000:00:14\.0/usb1/1-3$'
	assert_line --regexp '^- +- +enabled +- +- +platform/rtc_cmos$'
	assert_line --regexp '^active +on +- +pci +nvme +\.\.\./0000:00:1c\.0/0000:02:00\.0$'
	refute_output --partial pcspkr
	# cpu0 .. cpu7 in order, after the PCI devices
	[ "$(grep -o 'system/cpu/cpu[0-9]*' <<<"$output" | tr '\n' ' ')" = \
		"system/cpu/cpu0 system/cpu/cpu1 system/cpu/cpu2 system/cpu/cpu3 system/cpu/cpu4 system/cpu/cpu5 system/cpu/cpu6 system/cpu/cpu7 " ]
	show=$(pmctl --sysroot "$fx" device show)
	[ "$show" = "$output" ] || fail "device show differs from device"
}

@test "device: long paths are shortened with ... and keep their end; a longer name gets its own line" {
	deep=sys/devices/pci0000:00/0000:00:07.0/0000:20:00.0/0000:21:01.0/0000:22:00.0/usb3/3-1/3-1.1/3-1.1.2
	odd=sys/devices/platform/$(printf 'x%.0s' {1..40})
	mkdir -p "$fx/$deep/power" "$fx/$odd/power"
	echo auto >"$fx/$deep/power/control"
	echo on >"$fx/$odd/power/control"
	run "$bin/pmctl" --sysroot "$fx" device
	assert_success
	assert_line --regexp ' \.\.\./usb3/3-1/3-1\.1/3-1\.1\.2$'
	assert_line "  /$odd"
	long=$(awk 'length($0) > 80' <<<"$output")
	[ -z "$long" ] || fail "lines over 80 columns: $long"
}

@test "device PCI|USB|NET: by the subsystem link; a class adds its devices' parents" {
	run "$bin/pmctl" --sysroot "$fx" device pci -J
	assert_success
	want=$(grep '^rpm-device .* bus=pci' "$top/tests/fixtures/machines/hwp-laptop.desc" |
		awk '{print "/sys/" $2}' | LC_ALL=C sort)
	[ "$(paths "$output")" = "$want" ]
	run "$bin/pmctl" --sysroot "$fx" device usb -J
	assert_success
	[ "$(jq -c '[.devices[].path | sub(".*/"; "")]' <<<"$output")" = '["usb1","1-3","1-4"]' ]
	jq -e 'all(.devices[]; .subsystem == "usb" and .driver == "usb")' <<<"$output"
	run "$bin/pmctl" --sysroot "$fx" device net -J
	assert_success
	[ "$(jq -c '[.devices[].path]' <<<"$output")" = \
		'["/sys/devices/pci0000:00/0000:00:14.3","/sys/devices/pci0000:00/0000:00:14.3/net/wlan0"]' ]
	jq -e '.devices[0].driver == "iwlwifi" and .devices[1].subsystem == "net"' <<<"$output"
	# Several filters: each device once.
	run "$bin/pmctl" --sysroot "$fx" device usb pci net -J
	assert_success
	[ "$(jq '.devices | length' <<<"$output")" -eq 8 ]
	[ "$(jq -r '.devices[].path' <<<"$output" | sort | uniq -d)" = "" ]
}

@test "device PATH: a prefix; /sys/class and /sys/bus links resolve to /sys/devices first" {
	run "$bin/pmctl" --sysroot "$fx" device "$pci14" -J
	assert_success
	[ "$(jq -c '[.devices[].path | sub("/sys/devices/pci0000:00/"; "")]' <<<"$output")" = \
		'["0000:00:14.0","0000:00:14.0/usb1","0000:00:14.0/usb1/1-3","0000:00:14.0/usb1/1-4"]' ]
	bus=$(pmctl --sysroot "$fx" device /sys/bus/pci/devices/0000:00:14.0 -J)
	[ "$bus" = "$output" ]
	run "$bin/pmctl" --sysroot "$fx" device /sys/class/net/wlan0 -J
	assert_success
	[ "$(jq -c '[.devices[].path]' <<<"$output")" = '["/sys/devices/pci0000:00/0000:00:14.3/net/wlan0"]' ]
	# A prefix is whole folders: 0000:00:1 is not 0000:00:14.0.
	mkdir "$fx/sys/devices/pci0000:00/0000:00:1"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device /sys/devices/pci0000:00/0000:00:1 -J
	assert_success
	[ "$(jq '.devices | length' <<<"$output")" -eq 0 ]
	# A prefix and a class together, and nested prefixes: each device once.
	run "$bin/pmctl" --sysroot "$fx" device "$pci14" "$pci14/usb1" net -J
	assert_success
	[ "$(jq '.devices | length' <<<"$output")" -eq 6 ]
	run "$bin/pmctl" --sysroot "$fx" device "$pci14/usb1" "$pci14" -J
	assert_success
	[ "$(jq '.devices | length' <<<"$output")" -eq 4 ]
}

@test "device CLASS that matches nothing: exit 0, an empty list, a note unless -q" {
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device i2c -J
	assert_success
	[ "$(jq -c . <<<"$output")" = '{"devices":[]}' ]
	[ "$stderr" = "pmctl: no device with runtime PM or wakeup files matches 'i2c'" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device i2c -q
	assert_success
	[ -z "$output" ] && [ -z "$stderr" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device /sys/devices/platform/pcspkr -F kv
	assert_success
	[ -z "$output" ]
	[[ $stderr == *"matches '/sys/devices/platform/pcspkr'" ]]
}

@test "device PATH that does not exist: exit 3 naming it; a bad filter: exit 2" {
	before=$(tree_sum "$fx")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device /sys/devices/nothing
	[ "$status" -eq 3 ]
	[ -z "$output" ]
	[ "$stderr" = "pmctl: /sys/devices/nothing: no such device" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device /sys/class/net/eth9 -J
	[ "$status" -eq 3 ]
	[ "$(tree_sum "$fx")" = "$before" ]
	bad_input pmctl "$fx" device /sys/power
	bad_input pmctl "$fx" device /sys/devices/../power
	bad_input pmctl "$fx" device a/b
	bad_input pmctl "$fx" device ''
	bad_input pmctl "$fx" device --runtime on
	bad_input pmctl "$fx" device show --wakeup=on
	bad_input pmctl "$fx" device -n
	bad_input pmctl "$fx" device -c 0
	bad_input pmctl "$fx" device -F csv
	bad_input pmctl "$fx" device "$(printf 'x\033[2J')"
	bad_input pmctl "$fx" device "$(printf '/sys/devices/\n/..')"
}

@test "device --help and pmctl --help name the command" {
	run "$bin/pmctl" device --help
	assert_success
	assert_line --index 0 "Usage: pmctl [options] device [show] [PATH|SUBSYSTEM...]"
	assert_output --partial "device set PATH... [--runtime auto|on]"
	run "$bin/pmctl" --help
	assert_success
	assert_output --partial "  device [show] [PATH|SUBSYSTEM]   "
}

# ---------------------------------------------------------------- set

@test "device set --runtime: each write read back from the file, unchanged values skipped" {
	p02=$fx/sys/devices/pci0000:00/0000:00:02.0/power/control
	pnv=$fx/sys/devices/pci0000:00/0000:00:1c.0/0000:02:00.0/power/control
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/bus/pci/devices/0000:00:02.0 --runtime on
	assert_success
	[ -z "$output" ] && [ -z "$stderr" ]
	[ "$(<"$p02")" = on ]
	# Options before the command, the = form, and two devices at once.
	run "$bin/pmctl" --sysroot "$fx" --runtime=auto device set /sys/devices/pci0000:00/0000:00:02.0 \
		/sys/bus/pci/devices/0000:02:00.0 -J
	assert_success
	[ "$(<"$p02")" = auto ] && [ "$(<"$pnv")" = auto ]
	jq -e '.changed == 2 and .unchanged == 0 and .rolled_back == false and
		[.writes[] | .old, .new, .read_back, .ok] == ["on","auto","auto",true,"on","auto","auto",true] and
		(.writes[0].path | endswith("0000:00:02.0/power/control"))' <<<"$output"
	# Already auto: nothing is written.
	run "$bin/pmctl" --sysroot "$fx" device set /sys/devices/pci0000:00/0000:00:02.0 --runtime auto -J
	assert_success
	jq -e '.changed == 0 and .unchanged == 1 and .writes == []' <<<"$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/devices/pci0000:00/0000:00:02.0 --runtime auto -n
	assert_success
	[ -z "$output" ]
	# A class link, a net device and an abbreviated option.
	run "$bin/pmctl" --sysroot "$fx" device set /sys/class/net/wlan0 --run on
	assert_success
	[ "$(<"$fx/sys/devices/pci0000:00/0000:00:14.3/net/wlan0/power/control")" = on ]
}

@test "device set --wakeup: enabled/disabled and on/off, yes/no, 1/0 written as the kernel's words" {
	p=$fx$pci14/power/wakeup
	for pair in off:disabled on:enabled no:disabled yes:enabled 0:disabled 1:enabled \
		disabled:disabled enabled:enabled; do
		echo enabled >"$p"
		[ "${pair##*:}" = enabled ] && echo disabled >"$p"
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set "$pci14" --wakeup "${pair%%:*}"
		[ "$status" -eq 0 ] || fail "${pair%%:*}: exit $status: $stderr"
		[ "$(<"$p")" = "${pair##*:}" ] || fail "${pair%%:*}: the file reads $(<"$p")"
	done
	# Both settings of two devices, in one transaction.
	run "$bin/pmctl" --sysroot "$fx" device set /sys/bus/usb/devices/1-4 /sys/bus/pci/devices/0000:00:14.3 \
		--runtime on --wakeup disabled -J
	assert_success
	jq -e '.changed == 3 and .unchanged == 1' <<<"$output"
	[ "$(<"$fx$pci14/usb1/1-4/power/control")" = on ]
	[ "$(<"$fx$pci14/usb1/1-4/power/wakeup")" = disabled ]
	[ "$(<"$fx/sys/devices/pci0000:00/0000:00:14.3/power/control")" = on ]
}

@test "device set -n: the PATH = VALUE lines, and nothing changes" {
	before=$(tree_sum "$fx")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set -n /sys/bus/usb/devices/1-4 "$pci14" \
		--runtime on --wakeup off
	assert_success
	[ -z "$stderr" ]
	assert_equal "$output" "$pci14/usb1/1-4/power/control = on
$pci14/usb1/1-4/power/wakeup = disabled
$pci14/power/control = on
$pci14/power/wakeup = disabled"
	[ "$(tree_sum "$fx")" = "$before" ]
	run "$bin/pmctl" --sysroot "$fx" device set --dry-run "$pci14" --runtime on -J
	assert_success
	jq -e '.dry_run == true and .writes[0].ok == null and .writes[0].new == "on"' <<<"$output"
	[ "$(tree_sum "$fx")" = "$before" ]
}

@test "device set: the same device named twice is written once" {
	run "$bin/pmctl" --sysroot "$fx" device set /sys/class/net/wlan0 \
		/sys/devices/pci0000:00/0000:00:14.3/net/wlan0 --runtime on -J
	assert_success
	jq -e '.changed == 1 and (.writes | length) == 1' <<<"$output"
}

@test "device set: bad input is exit 2 and changes nothing" {
	ln -s /etc "$fx/sys/class/evil"
	ln -s ../../../../../../../../../.. "$fx/sys/bus/up"
	ln -s ../power "$fx/sys/class/pw"
	bad_input pmctl "$fx" device set "$pci14" --runtime off
	bad_input pmctl "$fx" device set "$pci14" --runtime AUTO
	bad_input pmctl "$fx" device set "$pci14" --runtime ''
	bad_input pmctl "$fx" device set "$pci14" --wakeup maybe
	bad_input pmctl "$fx" device set "$pci14" --wakeup
	bad_input pmctl "$fx" device set "$pci14"
	bad_input pmctl "$fx" device set --runtime on
	bad_input pmctl "$fx" device set "$pci14/../0000:00:14.3" --runtime on
	bad_input pmctl "$fx" device set /sys/devices/.. --runtime on
	bad_input pmctl "$fx" device set /sys/power --runtime on
	bad_input pmctl "$fx" device set /etc --runtime on
	bad_input pmctl "$fx" device set sys/devices/pci0000:00 --runtime on
	bad_input pmctl "$fx" device set /sys/class/evil --runtime on
	bad_input pmctl "$fx" device set /sys/class/evil/passwd --runtime on
	bad_input pmctl "$fx" device set /sys/bus/up/etc --runtime on
	bad_input pmctl "$fx" device set /sys/class/pw --runtime on
	bad_input pmctl "$fx" device set "$pci14/power/control" --runtime on
	bad_input pmctl "$fx" device set "$pci14" --runtime on -c 0
	bad_input pmctl "$fx" device set "$pci14" --runtime on --bogus
	bad_input pmctl "$fx" device set "$pci14" --runtime on -F csv
	# The good path first changes nothing either: refusals come first,
	# and a bad path before a device without the file.
	bad_input pmctl "$fx" device set "$pci14" /sys/power --runtime on
	bad_input pmctl "$fx" device set /sys/devices/platform/rtc_cmos /sys/power --runtime on
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/class/evil --runtime on
	[ "${stderr_lines[0]}" = "pmctl: /sys/class/evil: the link /sys/class/evil -> /etc leads out of the system root" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/power --runtime on
	[ "${stderr_lines[0]}" = "pmctl: /sys/power: not a device: it is /sys/power, outside /sys/devices" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set "$pci14" --runtime off
	[ "${stderr_lines[0]}" = "pmctl: --runtime 'off': not a choice (choices: auto on)" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set "$pci14/../x" --runtime on
	[ "${stderr_lines[0]}" = "pmctl: $pci14/../x: '..' is not allowed in a device path" ]
}

@test "device set: a missing device, one without power/control or power/wakeup: exit 3, nothing changed" {
	before=$(tree_sum "$fx")
	for args in "/sys/devices/nothing --runtime on" \
		"/sys/devices/platform/rtc_cmos --runtime on" \
		"/sys/devices/platform/pcspkr --runtime on" \
		"/sys/devices/pci0000:00/0000:00:02.0 --wakeup on" \
		"/sys/class/net/wlan0 --wakeup on" \
		"$pci14 /sys/devices/platform/rtc_cmos --runtime on"; do
		# shellcheck disable=SC2086 # the words of args
		run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set $args
		[ "$status" -eq 3 ] || fail "$args: exit $status"
		[ -z "$output" ] || fail "$args: stdout: $output"
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "$args: $stderr"
		[ "$(tree_sum "$fx")" = "$before" ] || fail "$args: the tree changed"
	done
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/devices/platform/rtc_cmos --runtime on
	[ "$stderr" = "pmctl: /sys/devices/platform/rtc_cmos has no runtime PM (no power/control)" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/class/net/wlan0 --wakeup on
	[ "$stderr" = "pmctl: /sys/class/net/wlan0 cannot wake the system (no power/wakeup)" ]
	# Capable no more: the file reads "\n" (drivers/base/power/sysfs.c).
	echo >"$fx$pci14/power/wakeup"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set "$pci14" --wakeup off
	[ "$status" -eq 3 ]
	[ "$stderr" = "pmctl: $pci14 cannot wake the system (power/wakeup is empty)" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/devices/nothing --runtime on
	[ "$stderr" = "pmctl: /sys/devices/nothing: no such device" ]
}

@test "device set: the writers' lock held is exit 4 and changes nothing; --wait waits for it" {
	command -v flock >/dev/null || skip "flock is missing"
	p02=$fx/sys/devices/pci0000:00/0000:00:02.0/power/control
	touch "$fx/run/opp-set.lock"
	hold_lock "$fx/run/opp-set.lock"
	before=$(tree_sum "$fx")
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/devices/pci0000:00/0000:00:02.0 --runtime on
	[ "$status" -eq 4 ]
	[[ $stderr == "pmctl: busy: /run/opp-set.lock is held"* ]]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/devices/pci0000:00/0000:00:02.0 --runtime on --wait=0.2
	[ "$status" -eq 4 ]
	[ "$(tree_sum "$fx")" = "$before" ]
	release_lock_after 0.3
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" device set /sys/devices/pci0000:00/0000:00:02.0 --runtime on --wait
	wait
	[ "$status" -eq 0 ] || fail "exit $status: $stderr"
	[ "$(<"$p02")" = on ]
}

# A copy of the fixture that nobody can reach ($nd), and binaries it can
# run ($nb); teardown removes both, whatever the test's end.
nobody_fx() {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	nd=$(mktemp -d /tmp/pmtools-nobody.XXXXXX)
	chmod 755 "$nd"
	cp -a "$fx/." "$nd/"
	# A setter journals the old values before its first write: nobody
	# gets a journal folder, as a user trusted with these files would.
	mkdir -p "$nd/run/pmtools"
	chown nobody "$nd/run/pmtools"
	nb=$(nobody_bin)
}

teardown() {
	[[ ${nd:-} == /tmp/pmtools-nobody.* ]] && rm -rf "$nd"
	[[ ${nb:-} == /tmp/pmtools-bin.* ]] && rm -rf "$nb"
	return 0
}

as_nobody() {
	run --separate-stderr setpriv --reuid=nobody --regid=nogroup --clear-groups "$nb/pmctl" --sysroot "$nd" "$@"
}

@test "device set as a non-root user: one line, root is needed to write PATH, exit 1" {
	nobody_fx
	before=$(tree_sum "$nd")
	# Without a lock file to share, and with one (made by root).
	for lock in absent present; do
		[ "$lock" = present ] && touch "$nd/run/opp-set.lock"
		as_nobody device set /sys/bus/usb/devices/1-4 "$pci14" --runtime on
		[ "$status" -eq 1 ] || fail "$lock: exit $status: $stderr"
		[ -z "$output" ] || fail "$lock: stdout: $output"
		[ "$stderr" = "pmctl: root is needed to write $pci14/usb1/1-4/power/control" ] ||
			fail "$lock: $stderr"
	done
	# Reading is for everyone.
	as_nobody device -J usb
	[ "$status" -eq 0 ] || fail "show: exit $status: $stderr"
	rm -f "$nd/run/opp-set.lock"
	after=$(tree_sum "$nd")
	[ "$after" = "$before" ]
}

@test "device set: a write that fails restores the earlier ones and says so, exit 1" {
	nobody_fx
	touch "$nd/run/opp-set.lock"
	# nobody may write the first devices' files, not the last one's.
	chown nobody "$nd/sys/devices/pci0000:00/0000:00:02.0/power/control" "$nd$pci14/power/control" \
		"$nd$pci14/power/wakeup"
	# The values as the kernel shows them, newline included: pmctl
	# restores them byte for byte.
	printf 'auto\n' >"$nd/sys/devices/pci0000:00/0000:00:02.0/power/control"
	printf 'auto\n' >"$nd$pci14/power/control"
	printf 'enabled\n' >"$nd$pci14/power/wakeup"
	before=$(tree_sum "$nd")
	as_nobody device set /sys/devices/pci0000:00/0000:00:02.0 "$pci14" /sys/class/net/wlan0 \
		--runtime on -J
	s1=$status o1=$output e1=$stderr
	as_nobody device set "$pci14" /sys/bus/pci/devices/0000:00:14.3 --runtime on --wakeup off
	s2=$status e2=$stderr
	after=$(tree_sum "$nd")
	[ "$s1" -eq 1 ] || fail "exit $s1: $e1"
	jq -e '.rolled_back == true and .changed == 0 and
		[.writes[] | .ok] == [true, true, false] and [.writes[] | .restored] == [true, true, false] and
		.writes[2].errno == 13 and (.writes[2].path | endswith("wlan0/power/control"))' <<<"$o1" ||
		fail "report: $o1"
	[[ $e1 == *"cannot write 'on' to /sys/devices/pci0000:00/0000:00:14.3/net/wlan0/power/control: Permission denied (EACCES)"* ]] ||
		fail "message: $e1"
	[[ $e1 == *"pmctl: restored the 2 earlier writes: nothing was changed" ]] || fail "message: $e1"
	[ "$s2" -eq 1 ] || fail "exit $s2: $e2"
	[[ $e2 == *"restored the 2 earlier writes"* ]] || fail "message: $e2"
	[ "$after" = "$before" ] || fail "the tree changed"
}

# ---------------------------------------------------------------- real /

@test "device on the real /: read only, exit 0, the machine's devices" {
	[ -d /sys/devices ] || skip "no /sys/devices"
	run --separate-stderr "$bin/pmctl" device -J
	assert_success
	jq -e --argjson k "$keys" '.devices | all(.[]; (keys | sort) == $k)' <<<"$output" >/dev/null
	got=$(jq '.devices | length' <<<"$output")
	want=$(oracle / | wc -l)
	# Devices may come and go while we look: the counts agree within a few.
	[ $((got - want)) -le 2 ] && [ $((want - got)) -le 2 ] || fail "$got devices, $want folders"
	run --separate-stderr "$bin/pmctl" device
	assert_success
	long=$(awk 'length($0) > 80' <<<"$output")
	[ -z "$long" ] || fail "lines over 80 columns: $long"
	run --separate-stderr "$bin/pmctl" device -F kv
	assert_success
	sh -c 'eval "$(cat)"; [ -n "$device0_path" ]' <<<"$output"
}

@test "device set on the real /: -n only prints; without -n PM_TEST_GUARD refuses before anything" {
	dev=$("$bin/pmctl" device -J | jq -r '[.devices[] | select(.control != null)][0] | "\(.path) \(.control)"')
	[ "$dev" != "null null" ] || skip "no device with power/control here"
	path=${dev% *} cur=${dev#* }
	# A dry run of the other value writes nothing.
	run --separate-stderr "$bin/pmctl" device set -n "$path" --runtime "$([ "$cur" = auto ] && echo on || echo auto)"
	assert_success
	[[ $output == "$path/power/control = "* ]]
	[ "$(<"$path/power/control")" = "$cur" ]
	# The value it already has: even a write the guard let by would change nothing.
	run --separate-stderr "$bin/pmctl" device set "$path" --runtime "$cur"
	[ "$status" -eq 2 ]
	[[ $stderr == "pmctl: refusing to write: "*"PM_TEST_GUARD"* ]]
	[ "$(<"$path/power/control")" = "$cur" ]
}
