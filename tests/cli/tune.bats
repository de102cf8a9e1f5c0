#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $output, $lines come from helpers.bash and run
# pmctl tune (issue 23): the device tunables of tune-laptop, a laptop
# with a keyboard, a webcam, Bluetooth, HDA, AHCI, an NVMe and Wi-Fi,
# named by Debian's pci.ids and usb.ids; JSON and kv.  The judging,
# the ids parser and the odd trees are unit tests (tests/unit/test_tune.c);
# the refusals are rows of bad-input.tsv.

load helpers

setup() {
	load_libs
}

# tune-laptop with the host's pci.ids and usb.ids (Debian's packages).
fx_ids() {
	local d
	fresh -v d tune-laptop
	mkdir -p "$d/usr/share/misc"
	cp -L /usr/share/misc/pci.ids /usr/share/misc/usb.ids "$d/usr/share/misc/" ||
		fail "pci.ids and usb.ids: install Debian's pci.ids and usb.ids"
	printf '%s\n' "$d"
}

@test "pmctl tune: every tunable of the laptop, named by pci.ids and usb.ids" {
	d=$(fx_ids)
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune
	assert_success
	assert_line --regexp '^Bad +runtime_pm +on +auto +PCI 0000:00:14\.3 Intel Corporation Wi-Fi 6 AX201 \[Network controller\]$'
	assert_line --regexp '^Good +runtime_pm +auto +auto +PCI 0000:00:14\.0 Intel Corporation Tiger Lake-LP USB 3\.2 Gen 2x1 xHCI Host Controller \[USB controller\]$'
	assert_line --regexp '^Bad +runtime_pm +on +auto +PCI 0000:02:00\.0 Samsung Electronics Co Ltd NVMe SSD Controller 980 \[Non-Volatile memory controller\]$'
	assert_line --regexp '^Bad +usb_autosuspend +on +auto +USB 1-1 Logitech, Inc\. Keyboard K120 \[Human Interface Device\]$'
	assert_line --regexp '^Bad +usb_autosuspend +on +auto +USB 1-5 Chicony Electronics Co\., Ltd Lenovo Integrated Camera UVC \[Video\]$'
	assert_line --regexp '^Good +usb_autosuspend +auto +auto +USB 1-10 Intel Corp\. AX201 Bluetooth \[Wireless\]$'
	assert_line --regexp '^Bad +sata_link_power +max_performance +med_power_with_dipm +SATA link power of host1 \(ahci\)$'
	assert_line --regexp '^Bad +pcie_aspm +default +powersave +PCIe ASPM policy$'
	assert_line --regexp '^Bad +audio_power_save +0 +1 '
	assert_line --regexp '^Good +audio_power_save_controller +Y +Y '
	assert_line --regexp '^Bad +nmi_watchdog +1 +0 '
	assert_line --regexp '^Bad +dirty_writeback_centisecs +500 +1500 '
	assert_line --regexp '^Bad +laptop_mode +0 +5 '
	assert_line '5 of 19 tunables good'
	[ "${#lines[@]}" -eq 21 ]
}

@test "pmctl tune -J and -F kv: the keys of pmctl(8), without the ids files" {
	fresh -v d tune-laptop
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -J
	assert_success
	jq -e '.good == 5 and .bad == 14 and (.tunables | length) == 19' <<<"$output"
	jq -e '[.tunables[].tunable] | unique == ["audio_power_save","audio_power_save_controller","dirty_writeback_centisecs","laptop_mode","nmi_watchdog","pcie_aspm","runtime_pm","sata_link_power","usb_autosuspend"]' <<<"$output"
	jq -e '.tunables[] | select(.device == "1-1") | .path == "/sys/bus/usb/devices/1-1/power/control" and .vendor_id == "046d" and .device_id == "c31c" and .name == "Logitech USB Keyboard" and .class == "03" and .class_name == "Human Interface Device" and .interface_classes == ["03"] and .autosuspend_delay_ms == 2000 and .value == "on" and .good_value == "auto" and .good == false and .driver == "usb"' <<<"$output"
	jq -e '.tunables[] | select(.device == "0000:00:1f.3") | .class == "0x040380" and .class_name == "Audio device" and .driver == "snd_hda_intel" and .name == null' <<<"$output"
	jq -e '.tunables[] | select(.tunable == "pcie_aspm") | .path == "/sys/module/pcie_aspm/parameters/policy" and .value == "default" and .device == null and (has("autosuspend_delay_ms") | not)' <<<"$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -F kv
	assert_success
	(
		eval "$output"
		# shellcheck disable=SC2154 # set by the eval
		[ "$good" = 5 ] && [ "$tunable18_tunable" = laptop_mode ] &&
			[ "$tunable18_good" = false ] &&
			[ "$tunable11_path" = /sys/class/scsi_host/host0/link_power_management_policy ]
	)
}

# A laptop point: everything power-saving but the keyboard (input) and
# audio, which [usb] and [runtime_pm] leave alone by default.
laptop='[usb]\nautosuspend = on\nautosuspend_delay_ms = 1000\n[sata]\nlink_power = med_power_with_dipm\n[pcie]\naspm = powersave\n[audio]\npower_save = 1\npower_save_controller = Y\n[sysctl]\nkernel.nmi_watchdog = 0\nvm.dirty_writeback_centisecs = 1500\nvm.laptop_mode = 5\n[runtime_pm]\npci = auto\n'

@test "opp-set: a laptop point's [usb] [sata] [pcie] [audio] [sysctl] applied; pmctl tune agrees; --save puts back, devices too" {
	fresh -v d tune-laptop
	printf '%b' "$laptop" >"$BATS_TEST_TMPDIR/laptop.conf"
	run --separate-stderr "$bin/opp-set" --sysroot "$d" --save "$BATS_TEST_TMPDIR/saved.conf"
	assert_success
	grep -qx 'link_power = max_performance' "$BATS_TEST_TMPDIR/saved.conf"
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -J -f "$BATS_TEST_TMPDIR/laptop.conf"
	assert_success
	jq -e '.rolled_back == false and .changed == 15 and ([.writes[] | .ok] | all)' <<<"$output"
	# The keyboard's interfaces are HID (03): its power/control is not written.
	jq -e '[.writes[].path | select(test("usb1/1-1/"))] == []' <<<"$output"
	jq -e '[.writes[] | select(.path == "/sys/module/snd_hda_intel/parameters/power_save_controller")] == []' <<<"$output"
	[ "$(<"$d/sys/module/pcie_aspm/parameters/policy")" = powersave ]
	[ "$(<"$d/proc/sys/vm/laptop_mode")" = 5 ]
	[ "$(<"$d/sys/devices/pci0000:00/0000:00:14.0/usb1/1-5/power/autosuspend_delay_ms")" = 1000 ]
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -J
	assert_success
	jq -e '.bad == 2 and ([.tunables[] | select(.good == false) | .device] == ["0000:00:1f.3", "1-1"])' <<<"$output"
	# What --save wrote puts back the files of [sata] [pcie] [audio] [sysctl].
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$BATS_TEST_TMPDIR/saved.conf"
	assert_success
	[ "$(<"$d/sys/class/scsi_host/host1/link_power_management_policy")" = max_performance ]
	[ "$(<"$d/sys/module/pcie_aspm/parameters/policy")" = default ]
	[ "$(<"$d/sys/module/snd_hda_intel/parameters/power_save")" = 0 ]
	[ "$(<"$d/proc/sys/kernel/nmi_watchdog")" = 1 ]
	[ "$(<"$d/proc/sys/vm/dirty_writeback_centisecs")" = 500 ]
	# ... and each device's runtime PM, USB autosuspend and its delay.
	[ "$(<"$d/sys/devices/pci0000:00/0000:00:1c.0/0000:02:00.0/power/control")" = on ]
	[ "$(<"$d/sys/devices/pci0000:00/0000:00:14.0/usb1/1-5/power/control")" = on ]
	[ "$(<"$d/sys/devices/pci0000:00/0000:00:14.0/usb1/1-5/power/autosuspend_delay_ms")" = 2000 ]
}

@test "opp-set: a failure at the laptop point's last write restores every earlier one" {
	fault_so
	fresh -v d tune-laptop
	printf '%b' "$laptop" >"$BATS_TEST_TMPDIR/laptop.conf"
	# A file cannot print the kernel's list again after the restore
	# writes its choice: the one word stands for it (as the kernel reads).
	echo default >"$d/sys/module/pcie_aspm/parameters/policy"
	before=$(tree_sum "$d")
	run --separate-stderr env PM_FAULT_WRITE="*/proc/sys/vm/laptop_mode=EIO@1" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$d" -f "$BATS_TEST_TMPDIR/laptop.conf"
	assert_failure 1
	[[ ${stderr_lines[0]} == "opp-set: cannot write "*"laptop_mode"*"(EIO)" ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "opp-set: restored the 14 earlier writes: nothing was changed" ] || fail "$stderr"
	[ "$(tree_sum "$d")" = "$before" ]
}

@test "[runtime_pm] by class and by driver; the exclusions, TLP's by default" {
	fresh -v d tune-laptop
	# storage: the AHCI (excluded by its driver) and the NVMe; iwlwifi by
	# its driver; pci: the root port too, HDA left (audio by default).
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -J \
		-s runtime_pm.class.storage=auto -s runtime_pm.driver.iwlwifi=auto \
		-s runtime_pm.exclude_driver=ahci -s runtime_pm.pci=auto
	assert_success
	jq -e '[.writes[].path | sub("/power/control$"; "") | sub(".*/"; "")] == ["0000:02:00.0", "0000:00:14.3", "0000:00:1c.0"]' <<<"$output"
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -s runtime_pm.class.0403=auto
	assert_failure 3
	[ "$stderr" = "opp-set: -s runtime_pm.class.0403=auto: [runtime_pm] class.0403: every device of the class with runtime PM is excluded (exclude_class, exclude_driver)" ] || fail "$stderr"
}

@test "opp-set --auto-tune --save: every Bad tunable but the keyboard and audio; -f undoes it" {
	fresh -v d tune-laptop
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -J --auto-tune --save "$BATS_TEST_TMPDIR/before.conf"
	assert_success
	jq -e '.name == "auto-tune" and .rolled_back == false and .changed == 12 and ([.writes[] | .ok] | all)' <<<"$output"
	jq -e '[.writes[].path | select(test("1f\\.3|usb1/1-1/"))] == []' <<<"$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -J
	assert_success
	jq -e '.bad == 2 and ([.tunables[] | select(.good == false) | .device] == ["0000:00:1f.3", "1-1"])' <<<"$output"
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$BATS_TEST_TMPDIR/before.conf"
	assert_success
	[ "$stderr" = "opp-set: at before: 12 changes" ] || fail "$stderr"
	[ "$(<"$d/sys/devices/pci0000:00/0000:00:14.0/usb1/1-5/power/control")" = on ]
	[ "$(<"$d/proc/sys/vm/laptop_mode")" = 0 ]
}

@test "opp-set --auto-tune: a failure at its last write restores every earlier one" {
	fault_so
	fresh -v d tune-laptop
	echo default >"$d/sys/module/pcie_aspm/parameters/policy"
	before=$(tree_sum "$d")
	run --separate-stderr env PM_FAULT_WRITE="*/proc/sys/vm/laptop_mode=EIO@1" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$d" --auto-tune
	assert_failure 1
	[[ ${stderr_lines[0]} == "opp-set: cannot write "*"laptop_mode"*"(EIO)" ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "opp-set: restored the 11 earlier writes: nothing was changed" ] || fail "$stderr"
	[ "$(tree_sum "$d")" = "$before" ]
}

@test "[sysfs] globs: every match written and read back; a failed match undoes the others" {
	fault_so
	fresh -v d tune-laptop
	glob='sysfs./sys/class/scsi_host/host*/link_power_management_policy=min_power'
	before=$(tree_sum "$d")
	run --separate-stderr env PM_FAULT_WRITE="*/scsi_host/host1/link_power_management_policy=EIO@1" LD_PRELOAD="$so" \
		"$bin/opp-set" --sysroot "$d" -s "$glob"
	assert_failure 1
	[[ ${stderr_lines[0]} == "opp-set: cannot write "*"host1/link_power_management_policy"*"(EIO)" ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "opp-set: restored the 1 earlier write: nothing was changed" ] || fail "$stderr"
	[ "$(tree_sum "$d")" = "$before" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -J -s "$glob"
	assert_success
	jq -e '[.writes[] | select(.ok) | .path] == ["/sys/class/scsi_host/host0/link_power_management_policy", "/sys/class/scsi_host/host1/link_power_management_policy"]' <<<"$output"
}

# A device plugged in to the tree $1: a copy of the device folder at
# sys/devices/$3 as sys/devices/$4, linked from /sys/bus/$2/devices, its
# runtime PM "on" and its autosuspend delay 2000 ms, as a new one comes.
plug() { # TREE BUS FROM TO
	local new=$1/sys/devices/$4
	cp -a "$1/sys/devices/$3" "$new"
	ln -s "../../../devices/$4" "$1/sys/bus/$2/devices/${4##*/}"
	echo on >"$new/power/control"
	if [ -e "$new/power/autosuspend_delay_ms" ]; then
		echo 2000 >"$new/power/autosuspend_delay_ms"
	fi
}

@test "opp-set --reapply --device: a device plugged in gets the current point's lines, alone" {
	fresh -v d tune-laptop
	usb=pci0000:00/0000:00:14.0/usb1
	printf '%b' "$laptop" >"$BATS_TEST_TMPDIR/laptop.conf"
	plug "$d" usb "$usb/1-5" "$usb/1-6"
	# No point applied since boot: nothing to do, nothing changed.
	before=$(tree_sum "$d")
	run --separate-stderr "$bin/opp-set" --sysroot "$d" --reapply --device /sys/bus/usb/devices/1-6
	assert_success
	[ "$stderr" = "opp-set: /sys/bus/usb/devices/1-6: no point applied since boot (or it was given with -s or --auto-tune): nothing to do" ] || fail "$stderr"
	[ "$(tree_sum "$d")" = "$before" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -q -f "$BATS_TEST_TMPDIR/laptop.conf"
	assert_success
	# Plugged in after the point: a webcam, a second keyboard (input: left
	# alone) and an NVMe disk.
	plug "$d" usb "$usb/1-1" "$usb/1-7"
	plug "$d" usb "$usb/1-5" "$usb/1-8"
	plug "$d" pci pci0000:00/0000:00:1c.0/0000:02:00.0 pci0000:00/0000:00:1c.0/0000:03:00.0
	before=$(tree_sum "$d")
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -J --reapply --device "/sys/devices/$usb/1-8"
	assert_success
	jq -e '.name == "laptop" and .changed == 2 and ([.writes[] | .path + "=" + .new] == ["/sys/devices/'"$usb"'/1-8/power/control=auto", "/sys/devices/'"$usb"'/1-8/power/autosuspend_delay_ms=1000"])' <<<"$output"
	run --separate-stderr "$bin/opp-set" --sysroot "$d" --reapply --device /sys/bus/usb/devices/1-7
	assert_success
	[ "$stderr" = "opp-set: /sys/bus/usb/devices/1-7: 0 changes (point laptop)" ] || fail "$stderr"
	# The NVMe by the udev rule's own command (its %p: the device path),
	# which runs while the file the point recorded is there.
	rule=$(grep '^ACTION=="bind", SUBSYSTEM=="pci|usb", ENV{DEVTYPE}!="usb_interface", ' "$top/data/udev/85-pmtools.rules.in")
	[[ $rule == *'TEST=="/run/pmtools/opp.current"'* ]] && [ -f "$d/run/pmtools/opp.current" ] || fail "$rule"
	cmd=${rule##*RUN+=\"@SBINDIR@/}
	cmd=${cmd%\"}
	cmd=${cmd//%p//devices/pci0000:00/0000:00:1c.0/0000:03:00.0}
	read -ra argv <<<"$cmd"
	run --separate-stderr "$bin/${argv[0]}" --sysroot "$d" "${argv[@]:1}"
	assert_success
	[ "${argv[*]}" = "opp-set --reapply --device /sys/devices/pci0000:00/0000:00:1c.0/0000:03:00.0 --wait=5 --quiet" ] || fail "${argv[*]}"
	[ -z "$stderr" ] || fail "$stderr"
	# Only their own files were written: put back, the tree is as before.
	[ "$(<"$d/sys/devices/pci0000:00/0000:00:1c.0/0000:03:00.0/power/control")" = auto ]
	echo on >"$d/sys/devices/pci0000:00/0000:00:1c.0/0000:03:00.0/power/control"
	echo on >"$d/sys/devices/$usb/1-8/power/control"
	echo 2000 >"$d/sys/devices/$usb/1-8/power/autosuspend_delay_ms"
	[ "$(tree_sum "$d")" = "$before" ]
}
