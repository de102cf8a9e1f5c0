#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr, $stderr_lines come from helpers.bash and run
# pm-suspend --check: every mode on every fixture against /sys/power, the
# hibernation safety check (resume device, active swap, room for the image),
# the names pm-hibernate, pm-suspend-hybrid and pm-is-supported, the options,
# and bad input that changes nothing.

load helpers

machines=(laptop2006 hwp-laptop amd-desktop arm-biglittle server vm-haltpoll)
modes=(suspend s2idle freeze standby shallow deep hibernate hybrid suspend-then-hibernate)

# /sys/power does not grow with the CPUs: a small server is the same here.
fx_of() { # [-v VAR] NAME
	local -a _fo_v=()
	[ "$1" != -v ] || { _fo_v=(-v "$2") && shift 2; }
	if [ "$1" = server ]; then fixture "${_fo_v[@]}" server --cpus 4; else fixture "${_fo_v[@]}" "$1"; fi
}

setup_file() {
	for m in "${machines[@]}"; do
		fx_of "$m" >/dev/null &
	done
	wait
	for m in "${machines[@]}"; do
		[ -d "$(fx_of "$m")/sys/power" ] || {
			echo "# fixture $m did not build" >&3
			return 1
		}
	done
}

setup() {
	load_libs
}

val() {
	local v
	rd v "$1" || return 1
	printf '%s' "$v"
}
# rd VAR FILE: val into VAR, without the subshell of $(val FILE).
rd() {
	local -n _rd=$1
	_rd=
	[ -f "$2" ] && [ -r "$2" ] || return 1
	_rd=$(<"$2")
	[ -n "$_rd" ]
}
flat() {
	local -a wl=()
	read -ra wl <<<"$(val "$1")"
	printf '%s' "${wl[*]}"
}
# offered WORD FILE: WORD is a whole word of FILE, brackets included.
offered() {
	local v
	rd v "$2" || return 1
	v=${v//[/ }
	v=${v//]/ }
	[[ " ${v//$'\t'/ } " == *" $1 "* ]]
}
# canon MODE [VAR]: the mode pm-suspend names MODE by, printed or in VAR.
canon() {
	local _c=$1
	case $1 in
	freeze) _c=s2idle ;;
	shallow) _c=standby ;;
	esac
	put "${2:-}" "$_c"
}

# The hibernation safety check of kernel-abi.md §13, from the files.
hib_safe() {
	local fx=$1 resume off best=0 found=0 name type size used rest dev need
	rd resume "$fx/sys/power/resume" || return 1
	[ "$resume" != 0:0 ] || return 1
	[ -r "$fx/proc/swaps" ] || return 1
	# The lines after the header, without tail's process.
	{
		read -r _
		while read -r name type size used rest; do
			case $type in
			partition)
				[[ $name == /dev/* ]] || continue
				rd dev "$fx/sys/class/block/${name#/dev/}/dev" || continue
				[ "$dev" = "$resume" ] || continue
				;;
			file)
				rd off "$fx/sys/power/resume_offset" || continue
				[ "$off" != 0 ] || continue
				;;
			*) continue ;;
			esac
			found=1
			((size > used && size - used > best)) && best=$((size - used))
		done
	} <"$fx/proc/swaps"
	[ "$found" = 1 ] || return 1
	local k v
	while read -r k v _; do
		[ "$k" != "Active(anon):" ] || need=$v
	done <"$fx/proc/meminfo"
	[ -n "$need" ] && ((best >= need))
}

# expect FX MODE: 0 when pm-suspend(8) says MODE can be entered, else 3.
offered_mode() {
	local fx=$1 p="$1/sys/power" m
	[ -d "$p" ] || return 1
	canon "$2" m
	case $m in
	suspend) offered mem "$p/state" ;;
	deep) offered mem "$p/state" && offered deep "$p/mem_sleep" ;;
	s2idle) { offered mem "$p/state" && offered s2idle "$p/mem_sleep"; } || offered freeze "$p/state" ;;
	standby) offered standby "$p/state" || { offered mem "$p/state" && offered shallow "$p/mem_sleep"; } ;;
	hibernate) offered disk "$p/state" && { offered platform "$p/disk" || offered shutdown "$p/disk"; } ;;
	hybrid) offered disk "$p/state" && offered suspend "$p/disk" ;;
	suspend-then-hibernate) offered_mode "$fx" suspend && offered_mode "$fx" hibernate ;;
	esac
}
# expect FX MODE [VAR]: printed, or in VAR.
expect() {
	local fx=$1 m _e=0
	canon "$2" m
	if ! offered_mode "$fx" "$m"; then
		_e=3
	else
		case $m in
		hibernate | hybrid) hib_safe "$fx" || _e=3 ;;
		suspend-then-hibernate)
			if ! hib_safe "$fx" || [ ! -e "$fx/sys/class/rtc/rtc0/wakealarm" ]; then
				_e=3
			fi
			;;
		esac
	fi
	put "${3:-}" "$_e"
}

# check FX MODE [OPTION...]: run pm-suspend --check; nothing on stdout ever.
check() {
	local fx=$1 m=$2
	shift 2
	run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" --check "$@" "$m"
	[ -z "$output" ] || fail "stdout: $output"
}

copy_of() {
	local dst="$BATS_TEST_TMPDIR/${2:-copy}"
	cp -a "$(fx_of "$1")" "$dst"
	# The copy is the test's to change, read-only files included.
	chmod -R u+w "$dst"
	printf '%s\n' "$dst"
}

# A swap line as the kernel prints it (6.1 swap_show).
swapline() { printf '%-40s%s\t%s\t\t%s\t\t%s\n' "$1" "$2" "$3" "$4" "${5:--2}"; }
set_swaps() { # FX LINE...
	local fx=$1
	shift
	{
		printf 'Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority\n'
		local l
		for l in "$@"; do printf '%s\n' "$l"; done
	} >"$fx/proc/swaps"
}
# The block device NAME with number MAJ:MIN, linked the way sysfs links it.
add_block() { # FX NAME MAJ:MIN
	local d="$1/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda/$2"
	mkdir -p "$d" "$1/sys/class/block"
	echo "$3" >"$d/dev"
	ln -s "../../devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda/$2" \
		"$1/sys/class/block/$2"
}
# laptop2006 with everything hibernation needs: resume 8:5 = /dev/sda5, an
# active swap partition with room for Active(anon).
hib_ok() {
	local fx
	fx=$(copy_of laptop2006 "${1:-hib}")
	add_block "$fx" sda5 8:5
	echo 8:5 >"$fx/sys/power/resume"
	set_swaps "$fx" "$(swapline /dev/sda5 partition 2097148 0)"
	printf '%s\n' "$fx"
}
active_anon() { awk '$1 == "Active(anon):" { print $2 }' "$1/proc/meminfo"; }


# ================================================== every mode, every fixture

@test "--check: every mode on every fixture follows the /sys/power files" {
	for i in "${!machines[@]}"; do
		m=${machines[i]}
		fx_of -v fx "$m"
		for j in "${!modes[@]}"; do
			mode=${modes[j]}
			# Every machine and every mode, not every pair of them.
			sampled $((i + j)) 3 || continue
			expect "$fx" "$mode" want
			check "$fx" "$mode"
			[ "$status" -eq "$want" ] || fail "$m $mode: exit $status, want $want; $stderr"
			if [ "$want" = 0 ]; then
				[ -z "$stderr" ] || fail "$m $mode: stderr: $stderr"
				continue
			fi
			[ "${#stderr_lines[@]}" = 1 ] || fail "$m $mode: want one line: $stderr"
			[[ ${stderr_lines[0]} == "pm-suspend: $(canon "$mode"): "?* ]] ||
				fail "$m $mode: message: $stderr"
			# A mode the kernel does not offer: the reason names what it offers.
			if ! offered_mode "$fx" "$mode"; then
				st=$(flat "$fx/sys/power/state")
				[[ $stderr == *"${st:-nothing}"* ]] || fail "$m $mode: '$stderr' does not name '$st'"
			fi
		done
	done
}

@test "--check: what the fixtures describe (S3 here, s2idle only there)" {
	sample_list machines_run laptop2006 hwp-laptop amd-desktop arm-biglittle server
	for m in "${machines_run[@]}"; do
		for mode in suspend deep s2idle; do
			check "$(fx_of "$m")" "$mode"
			[ "$status" -eq 0 ] || fail "$m $mode: $stderr"
		done
		check "$(fx_of "$m")" standby
		[ "$status" -eq 3 ] || fail "$m standby"
	done
	fx_of -v fx vm-haltpoll
	check "$fx" s2idle
	assert_success
	for mode in suspend deep standby hibernate hybrid suspend-then-hibernate; do
		check "$fx" $mode
		[ "$status" -eq 3 ] || fail "vm $mode: $status"
	done
	check "$fx" suspend
	[ "$stderr" = "pm-suspend: suspend: suspend to RAM is not offered (the kernel offers: freeze)" ]
	check "$fx" deep
	[ "$stderr" = "pm-suspend: deep: deep sleep (S3) is not offered (state: freeze; mem_sleep: none)" ]
	# The Arm board has no hibernation at all.
	check "$(fx_of arm-biglittle)" hibernate
	assert_failure 3
	[[ $stderr == *"hibernation is not offered (the kernel offers: freeze mem)"* ]]
}

@test "--check -q: the same status, nothing on stderr" {
	for i in "${!machines[@]}"; do
		m=${machines[i]}
		fx_of -v fx "$m"
		for j in "${!modes[@]}"; do
			mode=${modes[j]}
			# Every machine and every mode, not every pair of them.
			sampled $((i + j)) 3 || continue
			expect "$fx" "$mode" want
			for q in -q --quiet; do
				check "$fx" "$mode" $q
				[ "$status" -eq "$want" ] || fail "$m $mode $q: exit $status"
				[ -z "$stderr" ] || fail "$m $mode $q: stderr: $stderr"
			done
		done
	done
}

@test "--check -v: a mode that can be entered says so" {
	for i in "${!machines[@]}"; do
		m=${machines[i]}
		fx_of -v fx "$m"
		for j in "${!modes[@]}"; do
			mode=${modes[j]}
			# Every machine and every mode, not every pair of them.
			sampled $((i + j)) 3 || continue
			expect "$fx" "$mode" want
			check "$fx" "$mode" -v
			[ "$status" -eq "$want" ] || fail "$m $mode -v: exit $status"
			if [ "$want" = 0 ]; then
				[ "$stderr" = "pm-suspend: $(canon "$mode") can be entered" ] || fail "$m $mode -v: $stderr"
			else
				[[ $stderr != *"can be entered"* ]] && [ "${#stderr_lines[@]}" = 1 ] || fail "$m $mode -v: $stderr"
			fi
		done
	done
	fx=$(hib_ok)
	check "$fx" hibernate --verbose
	assert_success
	[ "$stderr" = "pm-suspend: hibernate can be entered" ]
}

@test "--check: freeze is s2idle and shallow is standby" {
	sample_list machines_run "${machines[@]}"
	for m in "${machines_run[@]}"; do
		fx_of -v fx "$m"
		check "$fx" freeze
		a=$status
		check "$fx" s2idle
		[ "$a" = "$status" ] || fail "$m: freeze $a, s2idle $status"
		check "$fx" shallow
		a=$status e=$stderr
		check "$fx" standby
		[ "$a" = "$status" ] && [ "$e" = "$stderr" ] || fail "$m: shallow and standby differ"
	done
}

@test "--check: MODE defaults to suspend" {
	for m in laptop2006 vm-haltpoll; do
		fx_of -v fx "$m"
		run --separate-stderr "$bin/pm-suspend" --sysroot "$fx" --check
		a=$status e=$stderr
		check "$fx" suspend
		[ "$a" = "$status" ] && [ "$e" = "$stderr" ] || fail "$m"
	done
}

# ======================================================== offered, by the files

@test "--check: standby offered by state, or by mem_sleep shallow" {
	fx=$(copy_of laptop2006 sb)
	echo "freeze standby mem disk" >"$fx/sys/power/state"
	check "$fx" standby
	assert_success
	echo "freeze mem disk" >"$fx/sys/power/state"
	echo "s2idle shallow [deep]" >"$fx/sys/power/mem_sleep"
	check "$fx" shallow
	assert_success
	check "$fx" deep
	assert_success
	echo "s2idle [shallow]" >"$fx/sys/power/mem_sleep"
	check "$fx" deep
	assert_failure 3
	[ "$stderr" = "pm-suspend: deep: deep sleep (S3) is not offered (state: freeze mem disk; mem_sleep: s2idle [shallow])" ]
	check "$fx" standby
	assert_success
}

@test "--check: s2idle through mem_sleep when state has no freeze" {
	fx=$(copy_of laptop2006 s2)
	echo "mem" >"$fx/sys/power/state"
	echo "[s2idle]" >"$fx/sys/power/mem_sleep"
	check "$fx" s2idle
	assert_success
	check "$fx" deep
	assert_failure 3
	echo "[deep]" >"$fx/sys/power/mem_sleep"
	check "$fx" s2idle
	assert_failure 3
	[ "$stderr" = "pm-suspend: s2idle: suspend-to-idle is not offered (state: mem)" ]
}

@test "--check: an empty state offers nothing; no /sys/power offers nothing" {
	fx=$(copy_of laptop2006 empty)
	: >"$fx/sys/power/state"
	for mode in "${modes[@]}"; do
		check "$fx" "$mode"
		[ "$status" -eq 3 ] || fail "$mode: $status"
	done
	check "$fx" suspend
	[ "$stderr" = "pm-suspend: suspend: suspend to RAM is not offered (the kernel offers: nothing)" ]
	rm -r "$fx/sys/power"
	for mode in "${modes[@]}"; do
		check "$fx" "$mode"
		[ "$status" -eq 3 ] || fail "no /sys/power, $mode: $status"
		[[ $stderr == "pm-suspend: $(canon "$mode"): no /sys/power"* ]] || fail "$mode: $stderr"
	done
}

# ============================================================== hibernation

@test "hibernation: all good (resume device, active swap, room) is exit 0" {
	fx=$(hib_ok)
	for mode in hibernate hybrid suspend-then-hibernate; do
		[ "$(expect "$fx" $mode)" = 0 ]
		check "$fx" $mode
		[ "$status" -eq 0 ] || fail "$mode: $stderr"
		[ -z "$stderr" ]
	done
}

@test "hibernation: resume = 0:0 is exit 3, no resume device" {
	fx=$(hib_ok)
	echo 0:0 >"$fx/sys/power/resume"
	for mode in hibernate hybrid suspend-then-hibernate; do
		check "$fx" $mode
		assert_failure 3
		[[ $stderr == "pm-suspend: $mode: no resume device: /sys/power/resume is 0:0"* ]] || fail "$stderr"
	done
	# An empty resume file is no device either.
	: >"$fx/sys/power/resume"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"no resume device"* ]]
	rm "$fx/sys/power/resume"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"/sys/power/resume"* ]]
}

@test "hibernation: a resume device that is not an active swap area is exit 3" {
	fx=$(hib_ok)
	echo 8:6 >"$fx/sys/power/resume"
	check "$fx" hibernate
	assert_failure 3
	[ "$stderr" = "pm-suspend: hibernate: the resume device 8:6 is not an active swap area in /proc/swaps" ]
	# The partition is there but swapped off.
	echo 8:5 >"$fx/sys/power/resume"
	set_swaps "$fx"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"the resume device 8:5 is not an active swap area"* ]]
	# Another partition is the swap.
	add_block "$fx" sda6 8:6
	set_swaps "$fx" "$(swapline /dev/sda6 partition 8388604 0)"
	check "$fx" hybrid
	assert_failure 3
	[[ $stderr == *"the resume device 8:5 is not an active swap area"* ]]
	# A swap line for sda5 but no block device to prove its number.
	fx2=$(copy_of laptop2006 noblock)
	set_swaps "$fx2" "$(swapline /dev/sda5 partition 2097148 0)"
	check "$fx2" hibernate
	assert_failure 3
}

@test "hibernation: not enough free swap for Active(anon) is exit 3 with the numbers" {
	fx=$(hib_ok)
	need=$(active_anon "$fx")
	set_swaps "$fx" "$(swapline /dev/sda5 partition 200000 0)"
	check "$fx" hibernate
	assert_failure 3
	[ "$stderr" = "pm-suspend: hibernate: not enough free swap for the image: 200000 KiB free on 8:5, $need KiB needed (Active(anon))" ]
	# Free is size less used.
	set_swaps "$fx" "$(swapline /dev/sda5 partition 2097148 1900000)"
	check "$fx" hybrid
	assert_failure 3
	[[ $stderr == *"$((2097148 - 1900000)) KiB free on 8:5, $need KiB needed"* ]]
	# Exactly enough is enough; one KiB less is not.
	set_swaps "$fx" "$(swapline /dev/sda5 partition $((need + 100)) 100)"
	check "$fx" hibernate
	assert_success
	set_swaps "$fx" "$(swapline /dev/sda5 partition $((need + 99)) 100)"
	check "$fx" hibernate
	assert_failure 3
	# pmtools' own writer (--userspace, HIBERNATE_METHOD=userspace)
	# stores the image compressed: half of Active(anon) is its estimate.
	half=$(((need + 1) / 2))
	set_swaps "$fx" "$(swapline /dev/sda5 partition $((half + 100)) 100)"
	check "$fx" hibernate
	assert_failure 3
	check "$fx" hibernate --userspace
	assert_success
	mkdir -p "$fx/etc/pm"
	echo HIBERNATE_METHOD=userspace >"$fx/etc/pm/pm-suspend.conf"
	check "$fx" hibernate
	assert_success
	rm "$fx/etc/pm/pm-suspend.conf"
	set_swaps "$fx" "$(swapline /dev/sda5 partition $((half + 99)) 100)"
	check "$fx" hibernate --userspace
	assert_failure 3
	[ "$stderr" = "pm-suspend: hibernate: not enough free swap for the image: $((half - 1)) KiB free on 8:5, $half KiB needed (the compressed estimate, half of Active(anon))" ]
	# A larger swap area that is not the resume device does not help.
	add_block "$fx" sdb1 8:17
	set_swaps "$fx" "$(swapline /dev/sda5 partition 1000 0)" "$(swapline /dev/sdb1 partition 16777212 0 -3)"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"1000 KiB free on 8:5"* ]]
	# More Active(anon) than the swap: the check reads meminfo, not a guess.
	sed -i "s/^Active(anon):.*/Active(anon):    3000000 kB/" "$fx/proc/meminfo"
	set_swaps "$fx" "$(swapline /dev/sda5 partition 2097148 0)"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"2097148 KiB free on 8:5, 3000000 KiB needed"* ]]
}

@test "hibernation: a swap size or use that is not a number counts no room (exit 3)" {
	fx=$(hib_ok)
	# sscanf's %llu took -1 as 2^64 - 1 KiB and an overflow as the most.
	for bad in -1 99999999999999999999 12x 0x10; do
		set_swaps "$fx" "$(swapline /dev/sda5 partition "$bad" 0)"
		check "$fx" hibernate
		assert_failure 3
		[ "$stderr" = "pm-suspend: hibernate: the resume device 8:5 is not an active swap area in /proc/swaps" ] ||
			fail "size $bad: $stderr"
		set_swaps "$fx" "$(swapline /dev/sda5 partition 2097148 "$bad")"
		check "$fx" hibernate
		assert_failure 3
	done
	set_swaps "$fx" "$(swapline /dev/sda5 partition 2097148 0)"
	check "$fx" hibernate
	assert_success
}

@test "hibernation: Active(anon) missing from /proc/meminfo is exit 3" {
	fx=$(hib_ok)
	sed -i '/^Active(anon):/d' "$fx/proc/meminfo"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"Active(anon) is missing from /proc/meminfo"* ]]
}

@test "hibernation: a swap file needs resume_offset; offset 0 is exit 3" {
	fx=$(copy_of laptop2006 swapfile)
	echo 8:1 >"$fx/sys/power/resume"
	echo 0 >"$fx/sys/power/resume_offset"
	set_swaps "$fx" "$(swapline /swapfile file 4194300 0)"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"the resume device 8:1 is not an active swap area"* ]]
	echo 34816 >"$fx/sys/power/resume_offset"
	check "$fx" hibernate
	assert_success
	# The file has to have room too.
	set_swaps "$fx" "$(swapline /swapfile file 4194300 4100000)"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"not enough free swap"* ]]
}

@test "hibernation: a swap file must be on the resume device at resume_offset (FIEMAP)" {
	fx=$(copy_of laptop2006 swapfile2)
	dd if=/dev/zero of="$fx/swapfile" bs=64k count=16 status=none
	sync "$fx/swapfile"
	dev=$(stat -c '%Hd:%Ld' "$fx/swapfile")
	set_swaps "$fx" "$(swapline /swapfile file 4194300 0)"
	echo 8:1 >"$fx/sys/power/resume"
	echo 34816 >"$fx/sys/power/resume_offset"
	check "$fx" hibernate
	assert_failure 3
	[ "$stderr" = "pm-suspend: hibernate: the swap file /swapfile is on device $dev, not on the resume device 8:1" ]
	echo "$dev" >"$fx/sys/power/resume"
	command -v filefrag >/dev/null || skip "no filefrag to find the first block"
	first=$(filefrag -v -b4096 "$fx/swapfile" 2>/dev/null | awk '$1 == "0:" { sub(/\.\..*/, "", $4); print $4; exit }')
	[ -n "$first" ] || skip "no FIEMAP on the test file system"
	echo $((first + 1)) >"$fx/sys/power/resume_offset"
	check "$fx" hibernate
	assert_failure 3
	[ "$stderr" = "pm-suspend: hibernate: resume_offset $((first + 1)) does not match the swap file /swapfile, whose first page is $first" ]
	echo "$first" >"$fx/sys/power/resume_offset"
	check "$fx" hibernate
	assert_success
}

@test "hibernation: the disk modes (platform or shutdown; suspend for hybrid)" {
	fx=$(hib_ok)
	d=$fx/sys/power/disk
	echo "[shutdown] reboot suspend" >"$d"
	check "$fx" hibernate
	assert_success
	check "$fx" hybrid
	assert_success
	echo "[platform] shutdown reboot test_resume" >"$d"
	check "$fx" hybrid
	assert_failure 3
	[ "$stderr" = "pm-suspend: hybrid: hibernation mode 'suspend' is not offered (disk: [platform] shutdown reboot test_resume)" ]
	check "$fx" hibernate
	assert_success
	echo "[reboot] test_resume" >"$d"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"hibernation mode 'platform' is not offered (disk: [reboot] test_resume)"* ]]
	echo "freeze mem" >"$fx/sys/power/state"
	echo "[platform] shutdown suspend" >"$d"
	check "$fx" hibernate
	assert_failure 3
	[[ $stderr == *"hibernation is not offered (the kernel offers: freeze mem)"* ]]
}

@test "suspend-then-hibernate needs both legs and the RTC alarm" {
	fx=$(hib_ok)
	check "$fx" suspend-then-hibernate
	assert_success
	rm "$fx/sys/class/rtc/rtc0/wakealarm"
	check "$fx" suspend-then-hibernate
	assert_failure 3
	[[ $stderr == *"no RTC alarm (/sys/class/rtc/rtc0/wakealarm)"* ]]
	check "$fx" hibernate
	assert_success
	fx=$(hib_ok stoh2)
	echo "freeze disk" >"$fx/sys/power/state"
	check "$fx" suspend-then-hibernate
	assert_failure 3
	[[ $stderr == *"suspend to RAM is not offered"* ]]
}

# ================================================================== names

@test "pm-hibernate is --check hibernate" {
	d=$BATS_TEST_TMPDIR/bin
	mkdir "$d"
	ln -s "$bin/pm-suspend" "$d/pm-hibernate"
	good=$(hib_ok)
	for fx in "$good" "$(fx_of laptop2006)" "$(fx_of vm-haltpoll)" "$(fx_of server)"; do
		run --separate-stderr "$d/pm-hibernate" --sysroot "$fx" --check
		a=$status
		[ -z "$output" ]
		check "$fx" hibernate
		[ "$a" = "$status" ] || fail "$fx: pm-hibernate $a, pm-suspend hibernate $status"
		[ "$a" = "$(expect "$fx" hibernate)" ]
	done
	# Its messages, Try line and version say its own name.
	run --separate-stderr "$d/pm-hibernate" --sysroot "$(fx_of vm-haltpoll)" --check
	[ "$stderr" = "pm-hibernate: hibernate: hibernation is not offered (the kernel offers: freeze)" ]
	run --separate-stderr "$d/pm-hibernate" --sysroot "$good" --check -v
	[ "$stderr" = "pm-hibernate: hibernate can be entered" ]
	run "$d/pm-hibernate" --version
	assert_output --regexp '^pm-hibernate \(pmtools\) [0-9]+\.[0-9]+\.[0-9]+$'
	run --separate-stderr "$d/pm-hibernate" --check --bogus
	assert_failure 2
	[ "${stderr_lines[1]}" = "Try 'pm-hibernate --help' for more information." ]
	# The same mode again is fine; another mode is not.
	run "$d/pm-hibernate" --sysroot "$good" --check hibernate
	assert_success
	run --separate-stderr "$d/pm-hibernate" --sysroot "$good" --check suspend
	assert_failure 2
	[[ $stderr == *"the mode is given twice"* ]]
	# Without --check it hibernates (here: says what it would write).
	run --separate-stderr "$d/pm-hibernate" --sysroot "$good" -n
	assert_success
	assert_line "/sys/power/state = disk"
}

@test "pm-suspend-hybrid is --check hybrid" {
	d=$BATS_TEST_TMPDIR/bin
	mkdir "$d"
	ln -s "$bin/pm-suspend" "$d/pm-suspend-hybrid"
	good=$(hib_ok)
	for fx in "$good" "$(fx_of laptop2006)" "$(fx_of arm-biglittle)"; do
		run "$d/pm-suspend-hybrid" --sysroot "$fx" --check
		a=$status
		check "$fx" hybrid
		[ "$a" = "$status" ] && [ "$a" = "$(expect "$fx" hybrid)" ] || fail "$fx"
	done
	run --separate-stderr "$d/pm-suspend-hybrid" --sysroot "$good" --check -v
	[ "$stderr" = "pm-suspend-hybrid: hybrid can be entered" ]
	run --separate-stderr "$d/pm-suspend-hybrid" --sysroot "$(fx_of laptop2006)" --check
	[ "$stderr" = "pm-suspend-hybrid: hybrid: the resume device 8:5 is not an active swap area in /proc/swaps" ] ||
		[ "$(expect "$(fx_of laptop2006)" hybrid)" = 0 ]
	run "$d/pm-suspend-hybrid" --sysroot "$good" --check hibernate
	assert_failure 2
	run --separate-stderr "$d/pm-suspend-hybrid" --sysroot "$good" -n
	assert_success
	assert_line "/sys/power/disk = suspend"
	assert_line "/sys/power/state = disk"
}

@test "pm-is-supported --suspend/--hibernate/--suspend-hybrid: exit 0 or 3 as --check" {
	d=$BATS_TEST_TMPDIR/bin
	mkdir "$d"
	ln -s "$bin/pm-suspend" "$d/pm-is-supported"
	good=$(hib_ok)
	for fx in "$good" $(for m in "${machines[@]}"; do fx_of "$m"; done); do
		for pair in suspend:suspend hibernate:hibernate suspend-hybrid:hybrid; do
			run --separate-stderr "$d/pm-is-supported" --sysroot "$fx" "--${pair%%:*}"
			[ -z "$output" ]
			[ "$status" = "$(expect "$fx" "${pair##*:}")" ] || fail "$fx --${pair%%:*}: $status"
			run --separate-stderr "$d/pm-is-supported" --sysroot "$fx" -q "--${pair%%:*}"
			[ -z "$stderr" ] || fail "-q: $stderr"
		done
		# No option: suspend.
		run "$d/pm-is-supported" --sysroot "$fx"
		[ "$status" = "$(expect "$fx" suspend)" ]
	done
	# A MODE operand works too, and may repeat the option's mode.
	run "$d/pm-is-supported" --sysroot "$(fx_of laptop2006)" deep
	assert_success
	run "$d/pm-is-supported" --sysroot "$good" --hibernate hibernate
	assert_success
	run --separate-stderr "$d/pm-is-supported" --sysroot "$(fx_of vm-haltpoll)" --suspend
	assert_failure 3
	[ "$stderr" = "pm-is-supported: suspend: suspend to RAM is not offered (the kernel offers: freeze)" ]
	run "$d/pm-is-supported" -V
	assert_output --regexp '^pm-is-supported \(pmtools\) '
	run "$d/pm-is-supported" --sysroot "$(fx_of vm-haltpoll)" s2idle
	assert_success
}

@test "pm-is-supported with two different modes is exit 2" {
	d=$BATS_TEST_TMPDIR/bin
	mkdir "$d"
	ln -s "$bin/pm-suspend" "$d/pm-is-supported"
	fx_of -v fx laptop2006
	for args in "--suspend --hibernate" "--hibernate --suspend-hybrid" "--suspend deep" "--hibernate suspend"; do
		# shellcheck disable=SC2086
		run --separate-stderr "$d/pm-is-supported" --sysroot "$fx" $args
		[ "$status" -eq 2 ] || fail "$args: $status"
		[ -z "$output" ]
		[ "${stderr_lines[1]}" = "Try 'pm-is-supported --help' for more information." ] || fail "$args: $stderr"
	done
	run "$d/pm-is-supported" --sysroot "$fx" --suspend --suspend
	assert_success
}

@test "the pm-is-supported options are unknown to pm-suspend" {
	for o in --suspend --hibernate --suspend-hybrid; do
		bad_input pm-suspend "$(fx_of laptop2006)" --check "$o"
		[[ ${stderr_lines[0]} == *"unrecognized option '$o'"* ]]
	done
}

@test "under any other name it is pm-suspend" {
	d=$BATS_TEST_TMPDIR/bin
	mkdir "$d"
	ln -s "$bin/pm-suspend" "$d/my-sleep"
	fx_of -v fx laptop2006
	run "$d/my-sleep" --sysroot "$fx" --check deep
	assert_success
	run --separate-stderr "$d/my-sleep" --sysroot "$(fx_of vm-haltpoll)" --check deep
	assert_failure 3
	[[ $stderr == "pm-suspend: deep: "* ]]
	run "$d/my-sleep" --sysroot "$fx" -n deep
	assert_success
	assert_line "/sys/power/state = mem"
}

# ================================================================ options

@test "options may come after MODE" {
	fx_of -v fx laptop2006
	run --separate-stderr "$bin/pm-suspend" deep --check --sysroot "$fx" -v
	assert_success
	[ "$stderr" = "pm-suspend: deep can be entered" ]
	run --separate-stderr "$bin/pm-suspend" standby --sysroot "$fx" --check -q
	assert_failure 3
	[ -z "$stderr" ]
	run "$bin/pm-suspend" --sysroot "$fx" --check -- deep
	assert_success
}

@test "--check takes no action option: exit 2, nothing changed" {
	fx_of -v fx laptop2006
	for o in -n --dry-run "--test core" --diagnose "--wake-after 10" "--wake-at @4000000000" --no-hooks; do
		# shellcheck disable=SC2086
		bad_input pm-suspend "$fx" --check $o deep
		[ "${stderr_lines[0]}" = "pm-suspend: --check only answers whether MODE can be entered: it takes no other action" ] ||
			fail "$o: $stderr"
	done
}

@test "an unknown mode is exit 2 naming the modes" {
	fx_of -v fx laptop2006
	for mode in mem disk DEEP Suspend 'deep ' hibernation hybrid-sleep; do
		bad_input pm-suspend "$fx" --check "$mode"
		[[ ${stderr_lines[0]} == "pm-suspend: unknown mode '$mode' (choose suspend, s2idle, standby, deep, hibernate, hybrid or suspend-then-hibernate)" ]] ||
			fail "$mode: $stderr"
	done
}

@test "two modes are exit 2" {
	fx_of -v fx laptop2006
	bad_input pm-suspend "$fx" --check deep suspend
	bad_input pm-suspend "$fx" --check deep deep
	bad_input pm-suspend "$fx" --check s2idle freeze
}

@test "-c, -o, -F json, -J, -F kv and --wait do not apply: exit 2" {
	fx_of -v fx laptop2006
	for o in "-c 1" "--cpu all" "-o $BATS_TEST_TMPDIR/out" "-F json" "-J" "-F kv" "--format csv" "--wait" "--wait=5"; do
		# shellcheck disable=SC2086
		bad_input pm-suspend "$fx" --check $o deep
		case $o in
		-F* | -J | --format*)
			[[ ${stderr_lines[0]} == *"no $(sed 's/^-J$/json/; s/^-F //; s/^--format //' <<<"$o") output"* ||
				${stderr_lines[0]} == *"does not apply to pm-suspend --check"* ]] || fail "$o: $stderr"
			;;
		*) [[ ${stderr_lines[0]} == *"does not apply to pm-suspend --check"* ]] || fail "$o: $stderr" ;;
		esac
	done
	[ ! -e "$BATS_TEST_TMPDIR/out" ]
}

@test "-F human, the one format pm-suspend offers, is accepted" {
	# pmtools(7): "pm-suspend prints nothing on standard output and offers
	# human only"; pm-suspend(8): "-J and any format but human are exit 2".
	run --separate-stderr "$bin/pm-suspend" --sysroot "$(fx_of laptop2006)" --check -F human deep
	assert_success
	[ -z "$output" ]
}

@test "nothing is ever written to the tree" {
	for m in laptop2006 vm-haltpoll; do
		fx_of -v fx "$m"
		before=$(tree_sum "$fx")
		for mode in "${modes[@]}"; do
			run "$bin/pm-suspend" --sysroot "$fx" --check -v "$mode"
		done
		[ "$(tree_sum "$fx")" = "$before" ] || fail "$m changed"
	done
}

# ======================================================= bad input, changes nothing

@test "bad input: an empty mode" {
	bad_input pm-suspend "$(fx_of laptop2006)" --check ''
}

@test "bad input: junk and numbers as the mode" {
	fx_of -v fx laptop2006
	bad_input pm-suspend "$fx" --check 'su spend'
	bad_input pm-suspend "$fx" --check 3
	bad_input pm-suspend "$fx" --check 99999999999999999999
	bad_input pm-suspend "$fx" --check -- -1
}

@test "bad input: a 128 KiB mode and 1 MB of modes" {
	big=$(printf '%*s' 131071 '' | tr ' ' s)
	bad_input pm-suspend "$(fx_of laptop2006)" --check "$big"
	bad_input pm-suspend "$(fx_of laptop2006)" --check "$big" "$big" "$big" "$big" "$big" "$big" "$big" "$big"
}

@test "bad input: control bytes in the mode" {
	fx_of -v fx laptop2006
	bad_input pm-suspend "$fx" --check $'deep\x01'
	bad_input pm-suspend "$fx" --check $'\tdeep'
	bad_input pm-suspend "$fx" --check $'deep\r'
	bad_input pm-suspend "$fx" --check $'\x1b]0;owned\x07'
}

@test "bad input: a newline in the mode gives one message line" {
	bad_input pm-suspend "$(fx_of laptop2006)" --check $'deep\nx'
}

@test "bad input: invalid UTF-8 in the mode" {
	fx_of -v fx laptop2006
	bad_input pm-suspend "$fx" --check $'d\xffeep'
	bad_input pm-suspend "$fx" --check $'\xf8\x88\x80\x80\x80'
}

@test "bad input: ../../etc/passwd as the mode" {
	bad_input pm-suspend "$(fx_of laptop2006)" --check ../../etc/passwd
	bad_input pm-suspend "$(fx_of laptop2006)" --check /sys/power/state
}

@test "bad input: an option with an empty or junk value" {
	fx_of -v fx laptop2006
	bad_input pm-suspend "$fx" --check -F ''
	bad_input pm-suspend "$fx" --check --format yaml
	bad_input pm-suspend "$fx" --check --wait=-1
	bad_input pm-suspend "$fx" --check --wake-after 5
	bad_input pm-suspend "$fx" --check --sysroot
}
