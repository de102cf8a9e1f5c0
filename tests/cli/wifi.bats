#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $output, $stderr come from helpers.bash and run
# Wi-Fi power save (issue 23): [wifi] power_save through nl80211, and its
# row in pmctl tune.  Under --sysroot libpm speaks nl80211's bytes to
# tests/tools/fake-nl80211 on ROOT/run/pmtools-test/nl80211.sock, which
# keeps each interface's state in nl80211.state and logs each request in
# nl80211.log; tests/e2e/cases/*-wifi.sh is the real kernel's.

load helpers

setup() {
	load_libs
	[ -x "$top/build/fake-nl80211" ] || fail "no build/fake-nl80211 (make build/fake-nl80211)"
}

teardown() {
	local p
	for p in "$BATS_TEST_TMPDIR"/fx.*/run/pmtools-test/nl80211.pid; do
		[ -f "$p" ] && kill "$(<"$p")" 2>/dev/null
	done
	true
}

# wifi NAME...: tune-laptop with wireless interfaces NAME (phy80211 in
# /sys/class/net, below the Wi-Fi card 0000:00:14.3, driver iwlwifi).
wifi() {
	local d n dev
	fresh -v d tune-laptop
	dev=$d/sys/devices/pci0000:00/0000:00:14.3
	mkdir -p "$dev/ieee80211/phy0" "$d/sys/class/net"
	for n in "$@"; do
		mkdir -p "$dev/net/$n"
		ln -s ../../ieee80211/phy0 "$dev/net/$n/phy80211"
		ln -s ../../../0000:00:14.3 "$dev/net/$n/device"
		ln -s "../../devices/pci0000:00/0000:00:14.3/net/$n" "$d/sys/class/net/$n"
	done
	printf '%s\n' "$d"
}

peer() { # ROOT ARG...: the fake peer, listening when it returns
	"$top/build/fake-nl80211" "$@" || fail "fake-nl80211 $*"
}

err_has() { # TEXT: stderr has it
	[[ "$stderr" == *"$1"* ]] || fail "stderr has no '$1': $stderr"
}

state() { cat "$1/run/pmtools-test/nl80211.state"; }
sets() { grep -c '^SET' "$1/run/pmtools-test/nl80211.log" || true; }

point() { # BODY: a point file in the test's folder
	printf '%b' "$1" >"$BATS_TEST_TMPDIR/w.conf"
	printf '%s\n' "$BATS_TEST_TMPDIR/w.conf"
}

@test "pmctl tune: a row per wireless station with power save, Good when on; JSON and kv" {
	d=$(wifi wlan0 wlan1 ap0 mon0 nops0)
	peer "$d" wlan0=off wlan1=on ap0=on:ap mon0=off:monitor nops0=nops
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune
	assert_success
	assert_line --regexp '^Bad +wifi_power_save +off +on +Wireless power saving for interface wlan0 \(iwlwifi\)$'
	assert_line --regexp '^Good +wifi_power_save +on +on +Wireless power saving for interface wlan1 \(iwlwifi\)$'
	refute_output --partial ap0
	refute_output --partial mon0
	refute_output --partial nops0
	assert_line '6 of 21 tunables good'
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -J
	assert_success
	jq -e '[.tunables[] | select(.tunable == "wifi_power_save")] == [
		{"tunable":"wifi_power_save","path":"nl80211:wlan0/power_save","device":"wlan0","vendor_id":null,"device_id":null,"name":null,"class":null,"class_name":null,"driver":"iwlwifi","value":"off","good_value":"on","good":false},
		{"tunable":"wifi_power_save","path":"nl80211:wlan1/power_save","device":"wlan1","vendor_id":null,"device_id":null,"name":null,"class":null,"class_name":null,"driver":"iwlwifi","value":"on","good_value":"on","good":true}]' <<<"$output"
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -F kv
	assert_success
	assert_line "tunable19_tunable='wifi_power_save'"
	assert_line "tunable19_device='wlan0'"
	assert_line "tunable19_good='false'"
	[ "$(sets "$d")" = 0 ]
}

@test "pmctl tune: no Wi-Fi row without nl80211 (no peer under the root)" {
	d=$(wifi wlan0)
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune
	assert_success
	refute_output --partial wifi
	assert_line '5 of 19 tunables good'
}

@test "opp-set [wifi] power_save: set, read back, reported; -n sends no SET" {
	d=$(wifi wlan0 wlan1)
	peer "$d" wlan0=off wlan1=off
	f=$(point '[wifi]\npower_save = on\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -f "$f"
	assert_success
	assert_output $'nl80211:wlan0/power_save = on\nnl80211:wlan1/power_save = on'
	[ "$(sets "$d")" = 0 ]
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f" -J
	assert_success
	jq -e '.changed == 2 and .rolled_back == false and ([.writes[] | [.path, .old, .new, .read_back, .ok]] == [["nl80211:wlan0/power_save","off","on","on",true],["nl80211:wlan1/power_save","off","on","on",true]])' <<<"$output"
	[ "$(state "$d")" = $'wlan0 on\nwlan1 on' ]
	[ ! -e "$d/run/pmtools/journal" ]
	# Again: nothing to change, nothing sent.
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f" -J
	assert_success
	jq -e '.changed == 0 and .unchanged == 2' <<<"$output"
	[ "$(sets "$d")" = 2 ]
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -J
	jq -e '[.tunables[] | select(.tunable == "wifi_power_save") | .good] == [true, true]' <<<"$output"
}

@test "opp-set [wifi] exclude: the interfaces named are left alone; all of them excluded is exit 3" {
	d=$(wifi wlan0 wlan1 wlx1)
	peer "$d" wlan0=off wlan1=off wlx1=off
	# Commas or blanks; a name this machine lacks is no error (a point
	# serves many machines, a dongle comes and goes).
	f=$(point '[wifi]\npower_save = on\nexclude = wlx1, wlan9\twlan1\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f" -J
	assert_success
	jq -e '[.writes[] | [.path, .old, .new, .ok]] == [["nl80211:wlan0/power_save","off","on",true]]' <<<"$output"
	[ "$(state "$d")" = $'wlan0 on\nwlan1 off\nwlx1 off' ]
	[ "$(sets "$d")" = 1 ]
	f=$(point '[wifi]\npower_save = on\nexclude = none\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -n -f "$f"
	assert_success
	assert_output $'nl80211:wlan1/power_save = on\nnl80211:wlx1/power_save = on'
	f=$(point '[wifi]\npower_save = off\nexclude = wlan0 wlan1 wlx1\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 3
	[ "$stderr" = "opp-set: $f:2: [wifi] power_save: every wireless interface with power save is excluded (exclude = wlan0 wlan1 wlx1)" ] || fail "$stderr"
	[ "$(sets "$d")" = 1 ]
	[ "$(state "$d")" = $'wlan0 on\nwlan1 off\nwlx1 off' ]
}

@test "opp-set [wifi]: a later write that fails puts the power save back" {
	fault_so
	d=$(wifi wlan0)
	peer "$d" wlan0=off
	f=$(point '[wifi]\npower_save = on\n[sysfs]\n/sys/module/pcie_aspm/parameters/policy = powersave\n')
	run --separate-stderr env PM_FAULT_WRITE='*/pcie_aspm/parameters/policy=EIO' \
		LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 1
	err_has 'policy'
	err_has 'EIO'
	err_has 'restored the 1 earlier write: nothing was changed'
	[ "$(state "$d")" = 'wlan0 off' ]
	grep -qx 'SET wlan0 on' "$d/run/pmtools-test/nl80211.log"
	grep -qx 'SET wlan0 off' "$d/run/pmtools-test/nl80211.log"
	[ ! -e "$d/run/pmtools/journal" ]
}

# opp-set in the background, held by the peer inside its SET of wlan0's
# power save (the power save made, the ack not yet sent); then SIGNAL.
held_opp_set() { # ROOT POINT SIGNAL
	local d=$1 i
	"$bin/opp-set" --sysroot "$d" -f "$2" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	pid=$!
	for ((i = 0; i < 3000; i++)); do
		[ -e "$d/run/pmtools-test/nl80211.held" ] && break
		sleep 0.01
	done
	[ -e "$d/run/pmtools-test/nl80211.held" ] || fail "opp-set never reached the SET"
	kill -"$3" "$pid"
	rm "$d/run/pmtools-test/nl80211.held"
	status=0
	wait "$pid" || status=$?
	stderr=$(<"$BATS_TEST_TMPDIR/err")
}

@test "opp-set [wifi]: SIGTERM while the kernel sets the power save: the set ends, is undone, said" {
	d=$(wifi wlan0)
	peer "$d" wlan0=off --hold wlan0
	f=$(point '[wifi]\npower_save = on\n[sysfs]\n/sys/module/pcie_aspm/parameters/policy = powersave\n')
	before=$(tree_sum "$d/sys")
	held_opp_set "$d" "$f" TERM
	[ "$status" = 1 ] || fail "exit $status: $stderr"
	[ "$stderr" = "opp-set: stopped by SIGTERM: restored the 1 earlier write: nothing was changed" ] || fail "$stderr"
	[ "$(state "$d")" = 'wlan0 off' ]
	[ "$(grep '^SET' "$d/run/pmtools-test/nl80211.log")" = $'SET wlan0 on\nSET wlan0 off' ]
	[ "$(tree_sum "$d/sys")" = "$before" ]
	[ ! -e "$d/run/pmtools/journal" ]
}

@test "opp-set [wifi]: SIGKILL while the kernel sets the power save: the journal holds it, pmctl recover puts it back" {
	d=$(wifi wlan0)
	peer "$d" wlan0=off --hold wlan0
	f=$(point '[wifi]\npower_save = on\n[sysfs]\n/sys/module/pcie_aspm/parameters/policy = powersave\n')
	held_opp_set "$d" "$f" KILL
	[ "$status" = 137 ] || fail "exit $status: $stderr"
	[ "$(state "$d")" = 'wlan0 on' ]
	grep -qx 'n wlan0 off' "$d/run/pmtools/journal" || fail "$(<"$d/run/pmtools/journal")"
	run --separate-stderr "$bin/pmctl" --sysroot "$d" recover
	assert_success
	[ "$(state "$d")" = 'wlan0 off' ]
	[ ! -e "$d/run/pmtools/journal" ]
}

@test "opp-set [wifi]: the kernel's refusal named: EBUSY is exit 4, EOPNOTSUPP 1; a second interface's refusal undoes the first" {
	d=$(wifi wlan0)
	peer "$d" wlan0=off --fail set:wlan0:EBUSY
	f=$(point '[wifi]\npower_save = on\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 4
	err_has 'nl80211:wlan0/power_save'
	err_has "'on'"
	err_has 'EBUSY'
	[ "$(state "$d")" = 'wlan0 off' ]
	kill "$(<"$d/run/pmtools-test/nl80211.pid")"

	d=$(wifi wlan0)
	peer "$d" wlan0=off --fail set:wlan0:EOPNOTSUPP
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 1
	err_has 'EOPNOTSUPP'
	[ "$(state "$d")" = 'wlan0 off' ]
	kill "$(<"$d/run/pmtools-test/nl80211.pid")"

	d=$(wifi wlan0 wlan1)
	peer "$d" wlan0=off wlan1=off --fail set:wlan1:EBUSY
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 1
	err_has 'nl80211:wlan1/power_save'
	err_has 'restored the 1 earlier write: nothing was changed'
	[ "$(state "$d")" = $'wlan0 off\nwlan1 off' ]
}

@test "opp-set [wifi]: a restore the peer refuses is named" {
	fault_so
	d=$(wifi wlan0)
	peer "$d" wlan0=off --fail set:wlan0:EIO:2
	f=$(point '[wifi]\npower_save = on\n[sysfs]\n/sys/module/pcie_aspm/parameters/policy = powersave\n')
	run --separate-stderr env PM_FAULT_WRITE='*/pcie_aspm/parameters/policy=EIO' \
		LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 1
	err_has "could not restore nl80211:wlan0/power_save to 'off'"
	[ "$(state "$d")" = 'wlan0 on' ]
}

@test "opp-set [wifi]: a value the kernel does not keep is said, as a file's" {
	d=$(wifi wlan0)
	peer "$d" wlan0=off --lie wlan0
	f=$(point '[wifi]\npower_save = on\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f" -J
	assert_success
	err_has "nl80211:wlan0/power_save: wrote 'on', the kernel reads back 'off'"
	jq -e '.writes[0].read_back == "off"' <<<"$output"
	[ "$(state "$d")" = 'wlan0 off' ]
}

@test "nl80211's malformed replies are errors, never a guess" {
	local bad what
	f=$(point '[wifi]\npower_save = on\n')
	# A reply of the power save, then of the listing, cut or mismatched.
	for bad in get:truncate get:attrlen get:seq family:truncate dump:truncate dump:seq; do
		case $bad in
		get:*) what='cannot read the power save of wlan0' ;;
		*) what='cannot list the wireless interfaces' ;;
		esac
		d=$(wifi wlan0)
		peer "$d" wlan0=off --bad "$bad"
		run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
		assert_failure 1
		err_has "$what"
		err_has 'EBADMSG'
		[ "$(sets "$d")" = 0 ]
		if [[ $bad == get:* ]]; then
			run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -J
			assert_success
			jq -e '[.tunables[] | select(.tunable == "wifi_power_save") | [.device, .value, .good]] == [["wlan0", null, null]]' <<<"$output"
		fi
		kill "$(<"$d/run/pmtools-test/nl80211.pid")"
	done
}

@test "a peer that does not answer: ETIMEDOUT after 5 s, nothing sent" {
	d=$(wifi wlan0)
	peer "$d" wlan0=off --bad get:silent
	f=$(point '[wifi]\npower_save = on\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 1
	err_has 'cannot read the power save of wlan0'
	err_has 'ETIMEDOUT'
	[ "$(sets "$d")" = 0 ]
}

@test "opp-set [wifi]: exit 3 with no wireless interface or no nl80211" {
	f=$(point '[wifi]\npower_save = on\n')
	d=$(wifi wlan0)
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 3
	err_has 'w.conf:2: [wifi] power_save: no Wi-Fi power save here'
	d=$(wifi)
	peer "$d" wlan0=off
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_failure 3
	[ ! -e "$d/run/pmtools-test/nl80211.log" ]
}

@test "hostile interface names are never listed, asked about or sent" {
	esc=$'w\e[2J'
	d=$(wifi wlan0 "$esc" 'a b')
	peer "$d" wlan0=off "$esc=off" 'a b=off'
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -J
	assert_success
	jq -e '[.tunables[] | select(.tunable == "wifi_power_save") | .device] == ["wlan0"]' <<<"$output"
	f=$(point '[wifi]\npower_save = on\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$d" -f "$f"
	assert_success
	[ "$(grep '^GET\|^SET' "$d/run/pmtools-test/nl80211.log")" = $'GET wlan0\nGET wlan0\nSET wlan0 on\nGET wlan0' ]
	if grep -q $'\e' "$d/run/pmtools-test/nl80211.log"; then
		fail "a hostile name was sent"
	fi
	[ "$(state "$d")" = $'wlan0 on\nw\e[2J off\na b off' ]
}

@test "opp-set --auto-tune sets Wi-Fi power save with the rest; pmctl tune then shows it Good; --save keeps it" {
	d=$(wifi wlan0)
	peer "$d" wlan0=off
	run --separate-stderr "$bin/opp-set" --sysroot "$d" --auto-tune -J
	assert_success
	jq -e '[.writes[] | select(.path == "nl80211:wlan0/power_save") | [.old, .new, .ok]] == [["off","on",true]]' <<<"$output"
	[ "$(state "$d")" = 'wlan0 on' ]
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune -J
	jq -e '[.tunables[] | select(.tunable == "wifi_power_save") | .good] == [true]' <<<"$output"
	run --separate-stderr "$bin/opp-set" --sysroot "$d" --save "$BATS_TEST_TMPDIR/saved.conf"
	assert_success
	grep -A1 -x '\[wifi\]' "$BATS_TEST_TMPDIR/saved.conf" | grep -qx 'power_save = on'
}

@test "opp-set --save: interfaces that differ are said and left out" {
	d=$(wifi wlan0 wlan1)
	peer "$d" wlan0=on wlan1=off
	run --separate-stderr "$bin/opp-set" --sysroot "$d" --save "$BATS_TEST_TMPDIR/saved.conf"
	assert_success
	err_has "the wireless interfaces' power save differs (pmctl tune): [wifi] not saved"
	if grep -q '^\[wifi\]' "$BATS_TEST_TMPDIR/saved.conf"; then
		fail "[wifi] saved"
	fi
}

@test "pmctl tune: nl80211 failing as a whole (a malformed dump) leaves Wi-Fi out" {
	d=$(wifi wlan0)
	peer "$d" wlan0=off --bad dump:truncate
	run --separate-stderr "$bin/pmctl" --sysroot "$d" tune
	assert_success
	refute_output --partial wifi
}

@test "the journal names the interface; pmctl recover puts its power save back after a SIGKILL" {
	fault_so
	d=$(wifi wlan0)
	peer "$d" wlan0=off
	f=$(point '[wifi]\npower_save = on\n[sysfs]\n/sys/module/pcie_aspm/parameters/policy = powersave\n')
	pf=$BATS_TEST_TMPDIR/pause
	env --default-signal PM_FAULT_WRITE='*/pcie_aspm/parameters/policy=PAUSE:write' \
		PM_FAULT_PAUSE="$pf" LD_PRELOAD="$so" "$bin/opp-set" --sysroot "$d" -f "$f" \
		>/dev/null 2>&1 3>&- &
	spid=$!
	for ((i = 0; i < 3000; i++)); do
		[ -s "$pf" ] && break
		kill -0 "$spid" 2>/dev/null || break
		sleep 0.01
	done
	[ -s "$pf" ] || fail "opp-set never reached the policy write"
	kill -KILL "$spid"
	wait "$spid" || true
	[ "$(state "$d")" = 'wlan0 on' ]
	grep -qx 'n wlan0 off' "$d/run/pmtools/journal"
	run --separate-stderr "$bin/pmctl" --sysroot "$d" recover -n
	assert_success
	[ "$(state "$d")" = 'wlan0 on' ]
	run --separate-stderr "$bin/pmctl" --sysroot "$d" -v recover
	assert_success
	err_has 'restored nl80211:wlan0/power_save: on -> off'
	[ "$(state "$d")" = 'wlan0 off' ]
	[ ! -e "$d/run/pmtools/journal" ]
}

@test "the guard: no nl80211 write on the real root" {
	# The real root under PM_TEST_GUARD=1: refused before a socket is
	# opened (the unit test test_nl80211 checks the same in libpm).
	[ -n "${PM_TEST_GUARD:-}" ] || fail "PM_TEST_GUARD is not set"
	f=$(point '[wifi]\npower_save = on\n')
	run --separate-stderr "$bin/opp-set" -n -f "$f"
	# Dry: planned (exit 0) or not offered (3), never written.
	[ "$status" -eq 0 ] || [ "$status" -eq 3 ]
}
