#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $stderr come from helpers.bash and run
# pmctl dump: a tar of the power-management files that --sysroot reads back.

load helpers

setup() {
	load_libs
}

# A test's tmpfs folder, if it made one.
teardown() {
	[ -z "${work:-}" ] || rm -rf "$work"
}

# Dump tree $1 into $2.tar and unpack it into folder $2.
dump_and_unpack() {
	"$bin/pmctl" --sysroot "$1" dump -q -o "$2.tar" || return 1
	mkdir -p "$2"
	tar -xf "$2.tar" -C "$2"
}

# A copy of laptop2006 with the block device behind its resume= and swap,
# so that hibernation checks pass and /sys/class/block is in the dump.
hib_fixture() {
	local dev=devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda
	local desc="$BATS_FILE_TMPDIR/hib.desc" dest="$BATS_FILE_TMPDIR/fx-hib"
	if [ ! -d "$dest" ]; then
		{
			cat "$top/tests/fixtures/machines/laptop2006.desc"
			echo "attrs sys/$dev dev=8:0"
			echo "attrs sys/$dev/sda5 dev=8:5 partition=5"
			echo "link sys/class/block/sda ../../$dev"
			echo "link sys/class/block/sda5 ../../$dev/sda5"
		} >"$desc"
		"$top/tests/fixtures/mkfixture" "$desc" "$dest" >/dev/null
	fi
	printf '%s\n' "$dest"
}

@test "round trip: status, cstate-stat and pm-suspend --check are the same on every fixture" {
	local modes="suspend s2idle standby deep hibernate hybrid suspend-then-hibernate"
	# Unpacked on tmpfs where there is one: thousands of small files.
	work=$(mktemp -d "$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo "$BATS_TEST_TMPDIR")/pmtools-dump.XXXXXX")
	local machs i k=0
	read -r -a machs <<<"$("$top/tests/fixtures/mkfixture" --list | tr '\n' ' ')"
	machs+=(hib)
	for i in "${!machs[@]}"; do
		m=${machs[i]}
		# hib always: the checks after the loop read its dump.
		[ "$m" = hib ] || sampled "$i" 2 || continue
		k=$((k + 1))
		# The server at 16 CPUs: 256 make 40 000 files to write twice.
		case $m in
		hib) fx=$(hib_fixture) ;;
		server) fx=$(fixture server --cpus 16) ;;
		*) fx=$(fixture "$m") ;;
		esac
		d="$work/$m"
		dump_and_unpack "$fx" "$d" || fail "$m: dump failed"
		[ "$("$bin/pmctl" --sysroot "$fx" status --json)" = "$("$bin/pmctl" --sysroot "$d" status --json)" ] ||
			fail "$m: pmctl status --json differs"
		[ "$("$bin/pmctl" --sysroot "$fx" status)" = "$("$bin/pmctl" --sysroot "$d" status)" ] ||
			fail "$m: pmctl status differs"
		# "time" is the clock at the run, not a value read from the tree.
		[ "$("$bin/cstate-stat" --sysroot "$fx" --json | jq -c 'del(.time)')" = \
			"$("$bin/cstate-stat" --sysroot "$d" --json | jq -c 'del(.time)')" ] ||
			fail "$m: cstate-stat --json differs"
		for mode in $modes; do
			ra=0 rb=0
			xout -m a "$bin/pm-suspend" --sysroot "$fx" --check "$mode" || ra=$?
			xout -m b "$bin/pm-suspend" --sysroot "$d" --check "$mode" || rb=$?
			[ "$a rc=$ra" = "$b rc=$rb" ] || fail "$m: pm-suspend --check $mode: '$a' rc=$ra vs '$b' rc=$rb"
		done
	done
	sample_note "$k" "${#machs[@]}" machines
	# The hibernation check really ran through /sys/class/block and /proc/swaps.
	run "$bin/pm-suspend" --sysroot "$work/hib" --check hibernate
	assert_success
	[ "$(<"$work/hib/sys/class/block/sda5/dev")" = 8:5 ]
}

@test "GNU tar lists it without a warning; every file has its real size and mode" {
	fixture -v fx hwp-laptop
	"$bin/pmctl" --sysroot "$fx" dump -q -o "$BATS_TEST_TMPDIR/d.tar"
	run --separate-stderr tar -tvf "$BATS_TEST_TMPDIR/d.tar"
	assert_success
	[ -z "$stderr" ] || fail "tar says: $stderr"
	assert_line --regexp '^-r--r--r-- root/root +[0-9]+ .* sys/devices/system/cpu/online$'
	assert_line --regexp '^-r-------- root/root +[0-9]+ .* sys/devices/virtual/powercap/intel-rapl/intel-rapl:0/energy_uj$'
	assert_line --regexp '^drwxr-xr-x root/root +0 .* sys/power/$'
	# The size in the header is what the file holds, not sysfs's 4096.
	size=$(tar -tvf "$BATS_TEST_TMPDIR/d.tar" sys/power/state | awk '{print $3}')
	[ "$size" -eq "$(wc -c <"$fx/sys/power/state")" ]
	# A multiple of the block size, ending in two zero blocks.
	[ $(($(stat -c %s "$BATS_TEST_TMPDIR/d.tar") % 512)) -eq 0 ]
	[ "$(tail -c 1024 "$BATS_TEST_TMPDIR/d.tar" | tr -d '\0' | wc -c)" -eq 0 ]
}

@test "busybox tar unpacks the same tree as GNU tar, long names included" {
	command -v busybox >/dev/null || skip "busybox is missing"
	fx="$BATS_TEST_TMPDIR/fx"
	cp -a "$(fixture laptop2006)" "$fx"
	# A device 300+ bytes deep (pax path) whose supply's class link is
	# longer than 100 bytes (pax linkpath).
	long=devices
	for i in 1 2 3 4 5 6 7 8 9; do long="$long/device-with-a-rather-long-name-$i"; done
	mkdir -p "$fx/sys/$long/power" "$fx/sys/$long/power_supply/BATX"
	echo auto >"$fx/sys/$long/power/control"
	echo Battery >"$fx/sys/$long/power_supply/BATX/type"
	ln -s "../../$long/power_supply/BATX" "$fx/sys/class/power_supply/BATX"
	"$bin/pmctl" --sysroot "$fx" dump -q -o "$BATS_TEST_TMPDIR/d.tar"
	mkdir "$BATS_TEST_TMPDIR/gnu" "$BATS_TEST_TMPDIR/bb"
	tar -xf "$BATS_TEST_TMPDIR/d.tar" -C "$BATS_TEST_TMPDIR/gnu"
	busybox tar -xf "$BATS_TEST_TMPDIR/d.tar" -C "$BATS_TEST_TMPDIR/bb"
	diff -r --no-dereference "$BATS_TEST_TMPDIR/gnu" "$BATS_TEST_TMPDIR/bb"
	[ "$(<"$BATS_TEST_TMPDIR/bb/sys/$long/power/control")" = auto ]
	[ "$(<"$BATS_TEST_TMPDIR/bb/sys/class/power_supply/BATX/type")" = Battery ]
	[ "${#long}" -gt 255 ]
	run busybox tar -tvf "$BATS_TEST_TMPDIR/d.tar"
	assert_success
	assert_output --partial "sys/class/power_supply/BATX -> ../../$long/power_supply/BATX"
}

@test "symlinks stay relative, inside the tree, and none dangles" {
	for m in hwp-laptop arm-biglittle laptop2006; do
		d="$BATS_TEST_TMPDIR/$m"
		dump_and_unpack "$(fixture "$m")" "$d"
		[ -z "$(find "$d" -lname '/*')" ] || fail "$m: absolute links: $(find "$d" -lname '/*')"
		[ -z "$(find "$d" -xtype l)" ] || fail "$m: dangling links: $(find "$d" -xtype l)"
		real=$(cd "$d" && pwd -P)
		while IFS= read -r l; do
			xout t readlink -f "$l"
			[[ $t == "$real"/* ]] || fail "$m: $l leaves the tree: $t"
		done < <(find "$d" -type l)
		c1=sys/devices/system/cpu/cpu1/cpufreq
		[ "$(readlink "$d/$c1")" = "$(readlink "$(fixture "$m")/$c1")" ] || fail "$m: $c1"
	done
	[ "$(readlink "$BATS_TEST_TMPDIR/laptop2006/sys/class/power_supply/BAT0")" = \
		"$(readlink "$(fixture laptop2006)/sys/class/power_supply/BAT0")" ]
}

@test "a link out of the root is not followed nor stored" {
	fx="$BATS_TEST_TMPDIR/fx"
	cp -a "$(fixture laptop2006)" "$fx"
	ln -s /sys/devices/system/cpu "$fx/sys/class/power_supply/HOST"
	ln -s ../../../../../../../etc "$fx/sys/class/power_supply/UP"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" dump -v -o "$BATS_TEST_TMPDIR/d.tar"
	assert_success
	[[ $stderr == *"skipped /sys/class/power_supply/UP: a link out of the root"* ]] || fail "$stderr"
	run tar -tf "$BATS_TEST_TMPDIR/d.tar"
	refute_line --partial HOST
	refute_line --partial UP
	refute_line --regexp '^etc'
}

@test "no /sys/power/wakeup_count and no write-only file is read" {
	fx="$BATS_TEST_TMPDIR/fx"
	cp -a "$(fixture laptop2006)" "$fx"
	printf 'SECRET\n' >"$fx/sys/power/pm_trace_secret"
	chmod 0200 "$fx/sys/power/pm_trace_secret"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" dump -v -o "$BATS_TEST_TMPDIR/d.tar"
	assert_success
	[[ $stderr == *"skipped /sys/power/wakeup_count: "* ]] || fail "$stderr"
	[[ $stderr == *"skipped /sys/power/pm_trace_secret: write-only"* ]] || fail "$stderr"
	[[ $stderr == *"skipped /sys/devices/system/cpu/cpufreq/policy0/stats/reset: write-only"* ]] || fail "$stderr"
	run tar -tf "$BATS_TEST_TMPDIR/d.tar"
	refute_line sys/power/wakeup_count
	refute_line sys/power/pm_trace_secret
	refute_line sys/devices/system/cpu/cpufreq/policy0/stats/reset
	assert_line sys/power/state
	# A device's wakeup_count is a plain counter: it stays.
	assert_line sys/devices/pci0000:00/0000:00:14.0/power/wakeup_count
	run ! grep -q SECRET "$BATS_TEST_TMPDIR/d.tar"
	# Never even opened (root could have read the plain file); -y names
	# the folder of each dirfd-relative open.
	if command -v strace >/dev/null; then
		# LeakSanitizer cannot run under ptrace.
		ASAN_OPTIONS=detect_leaks=0 strace -y -f -e trace=open,openat,openat2 -o "$BATS_TEST_TMPDIR/trace" \
			"$bin/pmctl" --sysroot "$fx" dump -q -o "$BATS_TEST_TMPDIR/d2.tar"
		grep -q '/sys/power>, "state"' "$BATS_TEST_TMPDIR/trace" || fail "strace -y shows no folders"
		run grep -E 'pm_trace_secret|/sys/power>, "wakeup_count"|"reset"' "$BATS_TEST_TMPDIR/trace"
		assert_failure
	fi
}

@test "--redact replaces serial numbers in files and in uevent, keeps the model" {
	fixture -v fx hwp-laptop
	bat=$(readlink -f "$fx/sys/class/power_supply/BAT0")
	[ "$(<"$bat/serial_number")" = 1193 ]
	d="$BATS_TEST_TMPDIR/r"
	"$bin/pmctl" --sysroot "$fx" dump -q --redact -o "$d.tar"
	mkdir "$d" && tar -xf "$d.tar" -C "$d"
	[ "$(<"$d/sys/class/power_supply/BAT0/serial_number")" = REDACTED ]
	grep -qx 'POWER_SUPPLY_SERIAL_NUMBER=REDACTED' "$d/sys/class/power_supply/BAT0/uevent"
	run ! grep -q 'SERIAL_NUMBER=1193' "$d/sys/class/power_supply/BAT0/uevent"
	[ "$(<"$d/sys/class/power_supply/BAT0/model_name")" = "$(<"$bat/model_name")" ]
	grep -qx "POWER_SUPPLY_MODEL_NAME=$(<"$bat/model_name")" "$d/sys/class/power_supply/BAT0/uevent"
	# Without --redact the serial is kept as it is.
	"$bin/pmctl" --sysroot "$fx" dump -q -o "$d-plain.tar"
	[ "$(tar -xOf "$d-plain.tar" "${bat#"$fx/"}/serial_number")" = 1193 ]
	# And status still reads the redacted dump the same way.
	[ "$("$bin/pmctl" --sysroot "$fx" status -J)" = "$("$bin/pmctl" --sysroot "$d" status -J)" ]
}

@test "standard output: a pipe gets the tar, a terminal is refused" {
	fixture -v fx vm-haltpoll
	"$bin/pmctl" --sysroot "$fx" dump -q | tar -tf - >"$BATS_TEST_TMPDIR/list"
	grep -qx sys/power/state "$BATS_TEST_TMPDIR/list"
	"$bin/pmctl" --sysroot "$fx" dump -q -o - | tar -tf - | grep -qx proc/stat
	command -v script >/dev/null || skip "script(1) is missing"
	run script -qec "'$bin/pmctl' --sysroot '$fx' dump" /dev/null </dev/null
	[ "$status" -eq 2 ] || fail "exit $status: $output"
	assert_output --partial "pmctl: dump: refusing to write a tar archive to a terminal"
	# With --output a terminal does not matter.
	run script -qec "'$bin/pmctl' --sysroot '$fx' dump -q -o '$BATS_TEST_TMPDIR/t.tar'" /dev/null </dev/null
	assert_success
	tar -tf "$BATS_TEST_TMPDIR/t.tar" | grep -qx proc/stat
}

@test "the summary line, -q and -v" {
	fixture -v fx laptop2006
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" dump -o "$BATS_TEST_TMPDIR/d.tar"
	assert_success
	[ -z "$output" ]
	[[ $stderr =~ ^pmctl:\ dumped\ ([0-9]+)\ files,\ skipped\ 3\ \(0\ unreadable\)$ ]] || fail "$stderr"
	n=${BASH_REMATCH[1]}
	[ "$n" -eq "$(tar -tvf "$BATS_TEST_TMPDIR/d.tar" | grep -c '^-')" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" dump -q -o "$BATS_TEST_TMPDIR/d.tar"
	assert_success
	[ -z "$stderr" ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" dump -v -o "$BATS_TEST_TMPDIR/d.tar"
	assert_success
	[ "$(grep -c '^pmctl: skipped ' <<<"$stderr")" -eq 3 ]
}

@test "--output is atomic: a failed dump leaves the old file and no temporary" {
	fixture -v fx vm-haltpoll
	out="$BATS_TEST_TMPDIR/o/d.tar"
	mkdir "$BATS_TEST_TMPDIR/o"
	echo old >"$out"
	"$bin/pmctl" --sysroot "$fx" dump -q -o "$out"
	tar -tf "$out" | grep -qx sys/power/state
	[ "$(find "$BATS_TEST_TMPDIR/o" -type f | wc -l)" -eq 1 ]
	[ "$(stat -c %a "$out")" = 644 ]
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" dump -o "$BATS_TEST_TMPDIR/nowhere/d.tar"
	assert_failure 1
	[[ $stderr == "pmctl: cannot write $BATS_TEST_TMPDIR/nowhere/d.tar: No such file or directory (ENOENT)" ]] || fail "$stderr"
	run --separate-stderr "$bin/pmctl" --sysroot "$fx" dump -o "$fx/proc/stat/d.tar"
	assert_failure 1
	[[ $stderr == *"(ENOTDIR)" ]] || fail "$stderr"
}

@test "a write error on standard output is exit 1 with the reason" {
	[ -w /dev/full ] || skip "no /dev/full"
	fixture -v fx laptop2006
	# shellcheck disable=SC2016 # expanded by the inner shell
	run --separate-stderr bash -c '"$1" --sysroot "$2" dump >/dev/full' _ "$bin/pmctl" "$fx"
	assert_failure 1
	[[ $stderr == "pmctl: write error on standard output: No space left on device (ENOSPC)" ]] || fail "$stderr"
}

@test "bad input is exit 2 with the tree unchanged" {
	fx="$BATS_TEST_TMPDIR/fx"
	cp -a "$(fixture hwp-laptop)" "$fx"
	bad_input pmctl "$fx" dump extra
	bad_input pmctl "$fx" dump --json
	bad_input pmctl "$fx" dump -J -o "$BATS_TEST_TMPDIR/x.tar"
	bad_input pmctl "$fx" dump --format kv
	bad_input pmctl "$fx" dump -F csv
	bad_input pmctl "$fx" dump --cpu 0
	bad_input pmctl "$fx" dump --wait=1
	bad_input pmctl "$fx" dump --output ''
	bad_input pmctl "$fx" dump --redact=yes
	bad_input pmctl "$fx" --redact status
	bad_input pmctl "$fx" dump ../../etc/passwd
	bad_input pmctl "$fx" dump $'\e[31mred'
	[ ! -e "$BATS_TEST_TMPDIR/x.tar" ]
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '.x.tar.*')" ]
}

@test "as a non-root user: root-only files are skipped and counted, the rest unpacks" {
	command -v setpriv >/dev/null || skip "setpriv is missing"
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop to nobody"
	d=$(mktemp -d /tmp/pmtools-nobody.XXXXXX)
	chmod 755 "$d"
	nb=$(nobody_bin)
	cp -a "$(fixture hwp-laptop)/." "$d/"
	out="$BATS_TEST_TMPDIR/nobody.tar"
	# shellcheck disable=SC2016 # expanded by the inner shell
	run --separate-stderr bash -c 'setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$1" --sysroot "$2" dump -v >"$3"' _ "$nb/pmctl" "$d" "$out"
	status_root=$("$bin/pmctl" --sysroot "$d" status -J)
	rm -rf "$d" "$nb"
	assert_success
	# The three RAPL energy_uj files are 0400 root.
	[ "$(grep -c 'energy_uj: Permission denied (EACCES)$' <<<"$stderr")" -eq 3 ] || fail "$stderr"
	k=$(grep -c ': Permission denied (EACCES)$' <<<"$stderr")
	summary=$(grep '^pmctl: dumped ' <<<"$stderr")
	[[ $summary =~ ^pmctl:\ dumped\ [0-9]+\ files,\ skipped\ ([0-9]+)\ \(([0-9]+)\ unreadable\)$ ]] ||
		fail "$summary"
	[ "${BASH_REMATCH[2]}" -eq "$k" ]
	[ "${BASH_REMATCH[1]}" -gt "$k" ]
	run tar -tf "$out"
	assert_success
	refute_line --partial energy_uj
	assert_line --partial intel-rapl:0/name
	mkdir "$BATS_TEST_TMPDIR/u"
	tar -xf "$out" -C "$BATS_TEST_TMPDIR/u"
	# energy_uj is not in status: the rest reads the same.
	[ "$("$bin/pmctl" --sysroot "$BATS_TEST_TMPDIR/u" status -J)" = "$status_root" ]
}

@test "the real / (read-only): the dump unpacks and pmctl status runs on it" {
	[ -d /sys/devices/system/cpu ] || skip "no sysfs here"
	out="$BATS_TEST_TMPDIR/real.tar"
	start=$(date +%s%N)
	run --separate-stderr "$bin/pmctl" dump -o "$out"
	ms=$((($(date +%s%N) - start) / 1000000))
	assert_success
	[[ $stderr =~ ^pmctl:\ dumped\ [0-9]+\ files ]] || fail "$stderr"
	echo "# real /: ${ms} ms, $(stat -c %s "$out") bytes; $stderr" >&3
	mkdir "$BATS_TEST_TMPDIR/real"
	run --separate-stderr tar -xf "$out" -C "$BATS_TEST_TMPDIR/real"
	assert_success
	[ -z "$stderr" ] || fail "tar: $stderr"
	[ ! -e "$BATS_TEST_TMPDIR/real/sys/power/wakeup_count" ]
	[ -z "$(find "$BATS_TEST_TMPDIR/real" -lname '/*')" ]
	[ -s "$BATS_TEST_TMPDIR/real/proc/stat" ]
	run "$bin/pmctl" --sysroot "$BATS_TEST_TMPDIR/real" status
	assert_success
	run "$bin/pmctl" --sysroot "$BATS_TEST_TMPDIR/real" status -J
	assert_success
	jq -e . <<<"$output" >/dev/null
}

@test "round trip: pmctl device shows the same drivers, subsystems and classes" {
	for m in hwp-laptop arm-biglittle laptop2006; do
		fixture -v fx "$m"
		d="$BATS_TEST_TMPDIR/$m"
		dump_and_unpack "$fx" "$d"
		[ "$("$bin/pmctl" --sysroot "$fx" device -J)" = "$("$bin/pmctl" --sysroot "$d" device -J)" ] ||
			fail "$m: pmctl device differs"
		# Every class and bus the fixture has, and each of their members.
		for w in "$fx"/sys/class/* "$fx"/sys/bus/*; do
			n=${w##*/}
			xout -m x "$bin/pmctl" --sysroot "$fx" device "$n" || true
			xout -m y "$bin/pmctl" --sysroot "$d" device "$n" || true
			[ "$x" = "$y" ] || fail "$m: pmctl device $n differs"
		done
		for l in "$fx"/sys/class/*/* "$fx"/sys/bus/*/devices/*; do
			p=/${l#"$fx"/}
			xout -m x "$bin/pmctl" --sysroot "$fx" device "$p" || true
			xout -m y "$bin/pmctl" --sysroot "$d" device "$p" || true
			[ "$x" = "$y" ] || fail "$m: pmctl device $p differs"
		done
	done
	# The driver and subsystem names are there, not '-'.
	run "$bin/pmctl" --sysroot "$BATS_TEST_TMPDIR/hwp-laptop" device -J
	jq -e '[.devices[] | select(.path | endswith("0000:00:14.0"))][0] | .driver == "xhci_hcd" and .subsystem == "pci"' <<<"$output"
}

# hwp-laptop with the DMI folder of a real laptop and a command line
# naming its disks by UUID.
dmi_fixture() {
	local fx=$BATS_TEST_TMPDIR/dmi id
	cp -a "$(fixture hwp-laptop)" "$fx"
	id=$fx/sys/devices/virtual/dmi/id
	mkdir -p "$id/power" "$fx/sys/class/dmi"
	ln -s ../../devices/virtual/dmi/id "$fx/sys/class/dmi/id"
	echo LENOVO >"$id/sys_vendor"
	echo 20XW004GUS >"$id/product_name"
	echo N32ET75W >"$id/bios_version"
	echo PF2ABCDE >"$id/product_serial"
	echo L1HF12345 >"$id/board_serial"
	echo 4c4c4544-0042-3610-8051-b4c04f4e4e32 >"$id/product_uuid"
	echo 'No Asset Information' >"$id/chassis_asset_tag"
	chmod 0400 "$id/product_serial" "$id/board_serial" "$id/product_uuid"
	echo 'BOOT_IMAGE=/vmlinuz root=UUID=2b1f3a4c-5d6e-4f70-8192-a3b4c5d6e7f8 ro resume=PARTUUID=0a1b2c3d-01 quiet' >"$fx/proc/cmdline"
	echo 'Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)' >"$fx/proc/version"
	mkdir -p "$fx/proc/sys/kernel"
	echo 6.1.0-18-amd64 >"$fx/proc/sys/kernel/osrelease"
	printf '%s\n' "$fx"
}

@test "DMI, the kernel version and command line are in; --redact hides serials and UUIDs" {
	fx=$(dmi_fixture)
	d="$BATS_TEST_TMPDIR/plain"
	dump_and_unpack "$fx" "$d"
	for f in sys/class/dmi/id/sys_vendor sys/class/dmi/id/product_serial sys/class/dmi/id/product_uuid \
		proc/cmdline proc/version proc/sys/kernel/osrelease; do
		cmp "$fx/$f" "$d/$f" || fail "$f differs"
	done
	[ "$(readlink "$d/sys/class/dmi/id")" = ../../devices/virtual/dmi/id ]
	d="$BATS_TEST_TMPDIR/red"
	"$bin/pmctl" --sysroot "$fx" dump -q --redact -o "$d.tar"
	mkdir "$d" && tar -xf "$d.tar" -C "$d"
	id=$d/sys/class/dmi/id
	for f in product_serial board_serial product_uuid chassis_asset_tag; do
		[ "$(<"$id/$f")" = REDACTED ] || fail "$f: $(<"$id/$f")"
	done
	[ "$(<"$id/sys_vendor")" = LENOVO ]
	[ "$(<"$id/product_name")" = 20XW004GUS ]
	[ "$(<"$d/proc/cmdline")" = 'BOOT_IMAGE=/vmlinuz root=UUID=REDACTED ro resume=PARTUUID=REDACTED quiet' ]
	cmp "$fx/proc/version" "$d/proc/version"
	run ! grep -rq -e PF2ABCDE -e L1HF12345 -e 4c4c4544 -e 2b1f3a4c "$d"
}

@test "a name ending in .gz is gzip-compressed: tar -xzf unpacks the same tree" {
	fx="$BATS_TEST_TMPDIR/fx"
	cp -a "$(fixture hwp-laptop)" "$fx"
	# Bytes that do not compress, past a window of 32 KiB, and text that does.
	head -c 200000 /dev/urandom >"$fx/proc/interrupts"
	yes 'cpu0 123 456 789' | head -c 300000 >"$fx/proc/stat"
	o="$BATS_TEST_TMPDIR/d"
	"$bin/pmctl" --sysroot "$fx" dump -q -o "$o.tar"
	"$bin/pmctl" --sysroot "$fx" dump -q -o "$o.tar.gz"
	"$bin/pmctl" --sysroot "$fx" dump -q -o "$o.tgz"
	gzip -t "$o.tar.gz"
	[ "$(head -c 2 "$o.tar.gz" | od -An -tx1 | tr -d ' ')" = 1f8b ]
	# Smaller than the tar by far; the tar inside is the same bytes but
	# for the time stamps.
	[ "$(stat -c %s "$o.tar.gz")" -lt $(($(stat -c %s "$o.tar") / 2)) ]
	mkdir "$o" "$o-gz" "$o-tgz"
	tar -xf "$o.tar" -C "$o"
	tar -xzf "$o.tar.gz" -C "$o-gz"
	tar -xzf "$o.tgz" -C "$o-tgz"
	diff -r --no-dereference "$o" "$o-gz"
	diff -r --no-dereference "$o" "$o-tgz"
	cmp "$fx/proc/interrupts" "$o-gz/proc/interrupts"
	[ "$(gzip -dc "$o.tar.gz" | wc -c)" = "$(stat -c %s "$o.tar")" ]
	# Standard output stays a plain tar.
	"$bin/pmctl" --sysroot "$fx" dump -q | tar -tf - >/dev/null
}
