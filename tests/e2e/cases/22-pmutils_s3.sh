#!/bin/sh
# pmutils_s3: Debian's own pm-utils hooks (the 10 of the pm-utils package,
# its one bash hook run by bash-static) around a real S3, with pmtools'
# functions file as PM_FUNCTIONS.  pm-utils' own configuration asks
# 75modules to unload a module for the sleep: it is gone while the
# machine sleeps and loaded again after the resume, from what the hook
# kept in STORAGEDIR.  99video moves to VT 63 for the sleep and back to
# the VT it saved.  The host's system_wakeup after 30 s is the rescue if
# the alarm does not wake the guest.
#@ modules: cpufreq_conservative
#@ pmutils: yes
#@ timeout: 120
#@ wake: monitor 30
# shellcheck source=tests/e2e/lib.sh
. /e2e/lib.sh

MOD=cpufreq_conservative
S3_LOG="Waking up from system sleep state S3"
load_modules || exit 0
# modprobe (busybox) finds modules through modules.dep.
kv=$(uname -r)
mkdir -p "/lib/modules/$kv" /etc/pm/config.d /etc/pm/sleep.d /var/cache/pm-utils
cp /lib/modules/*.ko "/lib/modules/$kv/"
run depmod
# busybox has chvt and deallocvt but not kbd's fgconsole, which 99video
# saves the VT with: the same answer, from the kernel.
cat >/usr/bin/fgconsole <<'CMD'
#!/bin/sh
read -r t </sys/class/tty/tty0/active && echo "${t#tty}"
CMD
chmod 755 /usr/bin/fgconsole
# pm-utils' own configuration file, as a Debian user writes it.
echo "SUSPEND_MODULES=\"$MOD\"" >/etc/pm/config.d/modules
# Not Debian's: last going down, what the hooks before it left.
cat >/etc/pm/sleep.d/99zz-probe <<'HOOK'
#!/bin/sh
case $1 in
suspend)
	{
		ls "$STORAGEDIR"
		[ -d /sys/module/cpufreq_conservative ] && echo "loaded" || echo "unloaded"
		cat /sys/class/tty/tty0/active
		cat "$STORAGEDIR/state:console"
	} >/tmp/probe
	;;
esac
exit 0
HOOK
chmod 755 /etc/pm/sleep.d/99zz-probe
note "hooks: $(echo /usr/lib/pm-utils/sleep.d/*)"
eq "$MOD is loaded before the sleep" "$([ -d /sys/module/$MOD ] && echo yes)" yes
vt0=$(cat /sys/class/tty/tty0/active)
ok0=$(stat_of success)
woke0=$(dmesg_count "$S3_LOG")
rtc_tick
echo "E2E sleeping"
expect 0 "Debian's hooks around deep --wake-after 5: exit 0" \
	pm-suspend deep --wake-after 5 --json
cp "$OUT" /tmp/report.json
show log /var/log/pm-suspend.log
jqall /tmp/report.json <<'EOF'
the leg was entered
.legs[0].entered == true and .legs[0].error == null
each of Debian's 10 hooks ran going down with exit 0 or 254
[.hooks[] | select(.phase == "pre" and (.path | startswith("/usr/lib/pm-utils/sleep.d/")))] | length == 10 and all(.status == 0 or .status == 254)
each of Debian's 10 hooks ran coming up with exit 0 or 254
[.hooks[] | select(.phase == "post" and (.path | startswith("/usr/lib/pm-utils/sleep.d/")))] | length == 10 and all(.status == 0 or .status == 254)
98video-quirk-db-handler (bash) exits 0 both ways
[.hooks[] | select(.path | endswith("/98video-quirk-db-handler")) | .status] == [0, 0]
EOF
eq "suspend_stats/success + 1" "$(stat_of success)" "$((ok0 + 1))"
eq "the kernel logged '$S3_LOG'" "$(dmesg_count "$S3_LOG")" "$((woke0 + 1))"
grepf "75modules kept module:$MOD in STORAGEDIR" "^module:$MOD\$" /tmp/probe
grepf "$MOD was unloaded for the sleep" "^unloaded\$" /tmp/probe
eq "$MOD is loaded again after the resume" "$([ -d /sys/module/$MOD ] && echo yes)" yes
eq "99video: on VT 63 for the sleep, its VT (${vt0#tty}) saved" \
	"$(tail -n 2 /tmp/probe | tr '\n' ' ')" "tty63 ${vt0#tty} "
eq "99video: back on $vt0 after the resume" "$(cat /sys/class/tty/tty0/active)" "$vt0"
if grep -Eq '(^|: )(\.|savestate|restorestate|state_exists|command_exists|modunload|modreload|is_set|add_parameters|get_parameters|has_parameter|remove_parameters): .*not found' /var/log/pm-suspend.log; then
	fail "no function of PM_FUNCTIONS is missing" "$(grep 'not found' /var/log/pm-suspend.log | head -n 3)"
else
	pass "no function of PM_FUNCTIONS is missing"
fi
