#!/bin/sh
# wifi: Wi-Fi power save through the kernel's nl80211, on the two radios
# of mac80211_hwsim (wlan0, wlan1: stations, down, not associated).
# pmctl tune and opp-set [wifi] are checked against Debian's iw (libnl),
# both ways: what pmtools sets iw reads, and what iw sets pmtools reads.
#@ modules: mac80211_hwsim
#@ programs: iw
#@ timeout: 120
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

load_modules || exit 0

# iw's word for IF's power save: on or off.
iw_ps() {
	iw dev "$1" get power_save 2>&1 | sed -n 's/^Power save: //p'
}

for i in wlan0 wlan1; do
	eq "$i is a wireless interface (phy80211)" \
		"$([ -e "/sys/class/net/$i/phy80211" ] && echo yes || echo no)" yes
done
note "iw before: wlan0 $(iw_ps wlan0), wlan1 $(iw_ps wlan1)"

# --- reading: pmctl tune as iw ----------------------------------------------
iw dev wlan0 set power_save off
iw dev wlan1 set power_save on
eq "iw set wlan0 off" "$(iw_ps wlan0)" off
eq "iw set wlan1 on" "$(iw_ps wlan1)" on
expect 0 "pmctl tune -J: exit 0" pmctl tune -J
cp "$OUT" /tmp/tune.json
jqall /tmp/tune.json <<'EOF'
pmctl tune: wlan0 off, Bad, as iw reads it
[.tunables[] | select(.tunable == "wifi_power_save" and .device == "wlan0") | [.value, .good, .path]] == [["off", false, "nl80211:wlan0/power_save"]]
pmctl tune: wlan1 on, Good, as iw reads it
[.tunables[] | select(.tunable == "wifi_power_save" and .device == "wlan1") | [.value, .good]] == [["on", true]]
pmctl tune: the driver is mac80211_hwsim
[.tunables[] | select(.tunable == "wifi_power_save") | .driver] | unique == ["mac80211_hwsim"]
EOF
expect 0 "pmctl tune: exit 0" pmctl tune
grepf "pmctl tune: the row of wlan0" \
	'^Bad +wifi_power_save +off +on +Wireless power saving for interface wlan0' "$OUT"

# --- writing: opp-set [wifi], iw reads it -----------------------------------
printf '[wifi]\npower_save = on\n' >/tmp/on.conf
printf '[wifi]\npower_save = off\n' >/tmp/off.conf
expect 0 "opp-set [wifi] power_save = on: exit 0" opp-set -f /tmp/on.conf -J
cp "$OUT" /tmp/on.json
jqall /tmp/on.json <<'EOF'
opp-set -J: wlan0 off -> on, read back on; wlan1 unchanged
.changed == 1 and .unchanged == 1 and ([.writes[] | [.path, .old, .new, .read_back, .ok]] == [["nl80211:wlan0/power_save", "off", "on", "on", true]])
EOF
eq "iw: wlan0 on after opp-set" "$(iw_ps wlan0)" on
eq "iw: wlan1 on after opp-set" "$(iw_ps wlan1)" on
expect 0 "pmctl tune -J after opp-set: exit 0" pmctl tune -J
cp "$OUT" /tmp/tune2.json
jqall /tmp/tune2.json <<'EOF'
pmctl tune after opp-set: Good for both interfaces
[.tunables[] | select(.tunable == "wifi_power_save") | .good] == [true, true]
EOF
expect 0 "opp-set [wifi] power_save = off: exit 0" opp-set -f /tmp/off.conf
eq "iw: wlan0 off" "$(iw_ps wlan0)" off
eq "iw: wlan1 off" "$(iw_ps wlan1)" off
printf '[wifi]\npower_save = on\nexclude = wlan1\n' >/tmp/excl.conf
expect 0 "opp-set [wifi] exclude = wlan1: exit 0" opp-set -f /tmp/excl.conf
eq "iw: wlan0 on, set" "$(iw_ps wlan0)" on
eq "iw: wlan1 off, excluded" "$(iw_ps wlan1)" off
printf '[wifi]\npower_save = off\nexclude = wlan0, wlan1\n' >/tmp/excl.conf
expect 3 "opp-set [wifi] with both excluded: exit 3" opp-set -f /tmp/excl.conf
grepf "both excluded: said" 'every wireless interface with power save is excluded' "$ERR"
eq "iw: wlan0 still on" "$(iw_ps wlan0)" on
expect 0 "opp-set [wifi] power_save = off: exit 0" opp-set -f /tmp/off.conf

# --- the rollback: a later write the kernel refuses -------------------------
printf '[wifi]\npower_save = on\n[sysfs]\n/sys/power/pm_test = bogus\n' >/tmp/bad.conf
expect 1 "opp-set [wifi] with a later write refused: exit 1" opp-set -f /tmp/bad.conf
grepf "the refusal named: pm_test, EINVAL" 'pm_test.*EINVAL' "$ERR"
grepf "the power save put back: nothing was changed" \
	'restored the 2 earlier writes: nothing was changed' "$ERR"
eq "iw: wlan0 off again" "$(iw_ps wlan0)" off
eq "iw: wlan1 off again" "$(iw_ps wlan1)" off
eq "no journal left" "$([ -e /run/pmtools/journal ] && echo yes || echo no)" no

# --- an interface without power save: a monitor -----------------------------
# mac80211 has power save for stations alone (its set_power_mgmt is
# EOPNOTSUPP for other types): a monitor is not listed, and a point's
# [wifi] sets the stations only.
expect 0 "iw dev wlan1 set type monitor: exit 0" iw dev wlan1 set type monitor
expect 0 "pmctl tune -J with wlan1 a monitor: exit 0" pmctl tune -J
cp "$OUT" /tmp/tune3.json
jqall /tmp/tune3.json <<'EOF'
pmctl tune: a monitor interface has no power save row
[.tunables[] | select(.tunable == "wifi_power_save") | .device] == ["wlan0"]
EOF
expect 0 "opp-set [wifi] with wlan1 a monitor: exit 0" opp-set -f /tmp/on.conf -J
cp "$OUT" /tmp/on2.json
jqall /tmp/on2.json <<'EOF'
opp-set -J: wlan0 alone is set
[.writes[] | .path] == ["nl80211:wlan0/power_save"]
EOF
eq "iw: wlan0 on" "$(iw_ps wlan0)" on
expect 0 "opp-set [wifi] power_save = off again: exit 0" opp-set -f /tmp/off.conf
# The kernel's own refusal, named: a journal that would put a monitor's
# power save on (mac80211's set_power_mgmt is EOPNOTSUPP for it).
mkdir -p /run/pmtools
printf 'pmtools-journal 1\npid 1\ntool opp-set\nboot -\ntime 1\nn wlan1 on\nend 1\n' \
	>/run/pmtools/journal
chmod 600 /run/pmtools/journal
expect 1 "pmctl recover of a monitor's power save: exit 1" pmctl recover
grepf "pmctl recover: the kernel's EOPNOTSUPP named" \
	"could not restore nl80211:wlan1/power_save to 'on': .*EOPNOTSUPP" "$ERR"
eq "iw: wlan1 (a monitor) still off" "$(iw_ps wlan1)" off
expect 0 "iw dev wlan1 set type managed: exit 0" iw dev wlan1 set type managed

# --- auto-tune plans it -----------------------------------------------------
expect 0 "opp-set --auto-tune -n: exit 0" opp-set --auto-tune -n
grepf "opp-set --auto-tune -n: plans wlan0's power save" \
	'^nl80211:wlan0/power_save = on$' "$OUT"
eq "opp-set --auto-tune -n: iw still reads off" "$(iw_ps wlan0)" off
