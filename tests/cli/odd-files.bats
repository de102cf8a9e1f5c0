#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $top and bats' $status, $stderr come from helpers.bash and run
# Files that are not what they claim to be (issue 24 section 6).  Every
# file a tool opens to read (found with strace, one per shape: cpu0 stands
# for cpuN) is made a FIFO in turn, and every /proc table a character
# device that never ends: no tool may hang or read forever; each names
# the file and fails.  Then the cases of the issue with their exact exit
# status (odd-files.tsv), configuration that is a FIFO, include fan-outs,
# and messages that never repeat a line of a file that did not parse.

load helpers

table="$BATS_TEST_DIRNAME/odd-files.tsv"

setup() {
	load_libs
	export t=$BATS_TEST_TMPDIR bin
}

# A tool that hangs fails the test after this long, never the suite.
LIMIT=${PM_TEST_LIMIT:-20}

# The sweeps (attack.bash) run in a bash of their own.
attack() {
	run bash "$BATS_TEST_DIRNAME/attack.bash" "$@"
	grep '^#' <<<"$output" >&3 || true
	[ "$status" -eq 0 ] || fail "$output"
}

# Make FILE below FX a FIFO (KIND fifo) or an endless character device
# (KIND zero) while TOOL ARG... runs under run.
with_odd() { # FX FILE KIND TOOL ARG...
	local fx=$1 f=$2 kind=$3
	shift 3
	mv "$fx$f" "$t/saved"
	if [ "$kind" = fifo ]; then
		mkfifo -m 644 "$fx$f"
	else
		mknod -m 644 "$fx$f" c 1 5
	fi
	run --separate-stderr timeout "$LIMIT" "$bin/$1" --sysroot "$fx" "${@:2}"
	mv -f "$t/saved" "$fx$f"
}

@test "every file a reader opens, made a FIFO: no hang, the file named, a failure" {
	command -v strace >/dev/null || skip "no strace"
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d" "$fx/etc/pm/sleep.d" "$fx/var/log"
	cp "$top/data/opp.d/powersave.conf" "$fx/etc/pm/opp.d/"
	echo 'HOOK_TIMEOUT=10' >"$fx/etc/pm/pm-suspend.conf"
	attack sweep fifo "$fx" . pmctl -J
	attack sweep fifo "$fx" . cstate-stat -J -i 0.05 -n 1 --wakeups --power
	attack sweep fifo "$fx" . pm-suspend -n deep
	attack sweep fifo "$fx" . pm-suspend --check hibernate
	attack sweep fifo "$fx" . opp-set -n powersave
	attack sweep fifo "$fx" . pmctl -n freq set --governor performance --max 2GHz
}

@test "every /proc table a tool reads whole, made an endless device: no endless read" {
	command -v strace >/dev/null || skip "no strace"
	fresh -v fx hwp-laptop
	attack sweep zero "$fx" '^/proc/' cstate-stat -J -i 0.05 -n 1 --wakeups
	attack sweep zero "$fx" '^/proc/' pm-suspend --check hibernate
	fresh -v fx arm-biglittle
	attack sweep zero "$fx" '^/sys/kernel/debug/' pmctl domains -J
}

@test "a /proc table larger than any machine's is refused, not eaten" {
	fresh -v fx hwp-laptop
	truncate -s 100M "$fx/proc/interrupts"
	run --separate-stderr timeout "$LIMIT" "$bin/cstate-stat" --sysroot "$fx" -J -i 0.05 -n 1 --wakeups
	[ "$status" -ne 124 ] || fail "hung"
	[ "$status" -ne 0 ] || fail "exit 0"
	[[ $stderr == *"/proc/interrupts: larger than 64 MiB"* ]] || fail "$stderr"
}

# odd-files.tsv: FILE KIND EXIT MESSAGE TOOL ARG... against hwp-laptop.
@test "the issue's cases: the exit status and message of each (odd-files.tsv)" {
	local file kind want msg rest args n=0
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/var/log"
	while IFS=$'\t' read -r file kind want msg rest; do
		[[ -z $file || $file == \#* ]] && continue
		n=$((n + 1))
		IFS=$'\t' read -r -a args <<<"$rest"
		with_odd "$fx" "$file" "$kind" "${args[@]}"
		[ "$status" -eq "$want" ] || fail "$file $kind, ${args[*]}: exit $status, want $want: $stderr"
		[[ $stderr == *"$msg"* ]] || fail "$file $kind, ${args[*]}: want '$msg' in: $stderr"
	done <"$table"
	echo "# $n cases" >&3
}

@test "pm-suspend -n with a FIFO wakeup_count ends, and ends on SIGTERM" {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/var/log"
	rm "$fx/sys/power/wakeup_count"
	mkfifo "$fx/sys/power/wakeup_count"
	run --separate-stderr timeout -s TERM 10 "$bin/pm-suspend" --sysroot "$fx" -n deep
	[ "$status" -ne 124 ] || fail "hung"
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"/sys/power/wakeup_count: a FIFO"* ]] || fail "$stderr"
}

@test "a setter whose target is a FIFO: refused, rolled back, the tree as it was" {
	fresh -v fx hwp-laptop
	g=$fx/sys/devices/system/cpu/cpufreq/policy3/scaling_governor
	rm "$g"
	mkfifo "$g"
	# A reader on the FIFO would let a blocking open through.
	timeout 20 cat "$g" >/dev/null &
	before=$(tree_sum "$fx")
	run --separate-stderr timeout "$LIMIT" "$bin/opp-set" --sysroot "$fx" -s cpufreq.governor=performance
	[ "$status" -eq 1 ] || fail "exit $status: $stderr"
	[[ $stderr == *"policy3/scaling_governor: a FIFO"* ]] || fail "$stderr"
	[ "$(tree_sum "$fx")" = "$before" ] || fail "the tree changed"
	kill %1 2>/dev/null || true
}

# ---------------------------------------------------------------- config

@test "configuration that is a FIFO never blocks: -f, a point, an include, --config, pm-suspend.conf, config.d" {
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d" "$fx/etc/pm/sleep.d" "$fx/etc/pm/config.d" "$fx/var/log"
	mkfifo -m 644 "$t/fifo" "$fx/etc/pm/opp.d/f.conf"
	printf '[opp]\ninclude = f\n' >"$fx/etc/pm/opp.d/top.conf"
	want="a FIFO, not a regular file: not read"
	for a in "opp-set -n -f $t/fifo" "opp-set -n f" "opp-set -n top" \
		"opp-set --show f" "pm-suspend -n --config $t/fifo deep"; do
		read -r -a args <<<"$a"
		run --separate-stderr timeout "$LIMIT" "$bin/${args[0]}" --sysroot "$fx" "${args[@]:1}"
		[ "$status" -eq 2 ] || fail "$a: exit $status: $stderr"
		[[ $stderr == *"$want"* ]] || fail "$a: $stderr"
	done
	# --list says why it cannot read it.
	run --separate-stderr timeout "$LIMIT" "$bin/opp-set" --sysroot "$fx" --list
	[ "$status" -eq 0 ] || fail "--list: exit $status: $stderr"
	[[ $output == *"$want"* ]] || fail "--list: $output"
	mkfifo -m 644 "$fx/etc/pm/pm-suspend.conf"
	run --separate-stderr timeout "$LIMIT" "$bin/pm-suspend" --sysroot "$fx" -n deep
	[ "$status" -eq 2 ] || fail "pm-suspend.conf: exit $status: $stderr"
	[[ $stderr == *"/etc/pm/pm-suspend.conf: $want"* ]] || fail "$stderr"
	rm "$fx/etc/pm/pm-suspend.conf"
	# config.d is pm-utils' shell: a file that is not one is not read.
	mkfifo -m 644 "$fx/etc/pm/config.d/50fifo"
	run --separate-stderr timeout "$LIMIT" "$bin/pm-suspend" --sysroot "$fx" -n deep
	[ "$status" -eq 0 ] || fail "config.d: exit $status: $stderr"
}

@test "as root, a nobody-owned 0666 FIFO as configuration is refused for its owner, not waited on" {
	[ "$(id -u)" -eq 0 ] || skip "the checks are made as root only"
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/sleep.d" "$fx/var/log"
	mkfifo -m 666 "$t/fifo"
	chown nobody "$t/fifo"
	for a in "opp-set -n -f $t/fifo" "pm-suspend -n --config $t/fifo deep"; do
		read -r -a args <<<"$a"
		run --separate-stderr timeout "$LIMIT" "$bin/${args[0]}" --sysroot "$fx" "${args[@]:1}"
		[ "$status" -eq 2 ] || fail "$a: exit $status: $stderr"
		[[ $stderr == *"refusing to read it as root: it is not owned by root"*"(mode 0666, uid 65534)"* ]] || fail "$a: $stderr"
	done
}

@test "includes are bounded: a fan-out stops at once, a shared file is read once, depth is limited" {
	fresh -v fx hwp-laptop
	d=$fx/etc/pm/opp.d
	mkdir -p "$d"
	# 7 files, each including the next 30 times: 30^6 loads unbounded.
	for i in 1 2 3 4 5 6 7; do
		{
			echo '[opp]'
			if [ "$i" -lt 7 ]; then
				printf 'include = '
				for _ in $(seq 30); do printf 'f%d, ' $((i + 1)); done
				echo
			fi
			echo '[cpufreq]'
			echo 'governor = powersave'
		} >"$d/f$i.conf"
	done
	before=$(tree_sum "$fx")
	run --separate-stderr timeout "$LIMIT" "$bin/opp-set" --sysroot "$fx" f1
	[ "$status" -eq 2 ] || fail "exit $status: $stderr"
	[[ $stderr == *"more than 64 point files through includes"* ]] || fail "$stderr"
	[ "$(tree_sum "$fx")" = "$before" ] || fail "the tree changed"
	# A file included from two places is read once.
	printf '[cpufreq]\ngovernor = powersave\n' >"$d/base.conf"
	printf '[opp]\ninclude = base\n[cpufreq]\nmax = 2GHz\n' >"$d/a.conf"
	printf '[opp]\ninclude = base, a, base\n' >"$d/top.conf"
	if command -v strace >/dev/null; then
		ASAN_OPTIONS=detect_leaks=0 strace -f -e trace=open,openat,openat2 -o "$t/trace" \
			"$bin/opp-set" --sysroot "$fx" -n top >/dev/null 2>&1
		n=$(grep -v O_PATH "$t/trace" | grep -c 'base.conf"')
		[ "$n" -eq 1 ] || fail "base.conf opened $n times"
	fi
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --show top
	assert_success
	# Deeper than 8: said, nothing done.
	for i in $(seq 1 10); do
		printf '[opp]\ninclude = d%d\n' $((i + 1)) >"$d/d$i.conf"
	done
	printf '[cpufreq]\ngovernor = powersave\n' >"$d/d11.conf"
	run --separate-stderr timeout "$LIMIT" "$bin/opp-set" --sysroot "$fx" -n d1
	[ "$status" -eq 2 ] || fail "exit $status: $stderr"
	[[ $stderr == *"includes nested deeper than 8"* ]] || fail "$stderr"
}

# ------------------------------------------------------------ no leaks

# Files a root-run tool may be pointed at (through a link, a sudo rule)
# and whose first lines are secrets: never printed, whatever the error.
# shellcheck disable=SC2016 # the dollars are the secret's own
secrets=(
	'root:$y$j9T$SECRETSALT$SECRETHASHSECRETHASH:19000:0:99999:7:::'
	'yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk='
	'SECRET_TOKEN=SECRETVALUE'
	'[SECRETSECTION]\nk = v'
	'SECRETKEY = SECRETVALUE'
	'-----BEGIN OPENSSH PRIVATE KEY----- SECRETBLOB'
	'[cpufreq SECRETARG]\ngovernor = powersave'
	'[opp]\nSECRETKEY = SECRETVALUE'
	'[cpu SECRETARG]\nonline = 0'
	'[devfreq SECRET/ARG]\ngovernor = x'
	'# a comment\n\nSECRET LINE WITHOUT AN EQUALS SIGN'
)

@test "a message names the file and line, never a line that did not parse (secrets through -f, --config, a linked point)" {
	local s f sec=0
	fresh -v fx hwp-laptop
	mkdir -p "$fx/etc/pm/opp.d" "$fx/etc/pm/sleep.d" "$fx/var/log"
	for s in "${secrets[@]}"; do
		sec=$((sec + 1))
		f=$t/secret$sec
		printf '%b\n' "$s" >"$f"
		chmod 600 "$f"
		ln -sf "$f" "$t/link$sec.conf"
		cp "$f" "$fx/etc/secret$sec"
		ln -sf "/etc/secret$sec" "$fx/etc/pm/opp.d/s$sec.conf"
		cp "$f" "$fx/etc/pm/pm-suspend.conf"
		for a in "opp-set -n -f $t/link$sec.conf" "opp-set -n s$sec" "opp-set --show s$sec" \
			"opp-set --list" "pm-suspend -n --config $t/link$sec.conf deep" "pm-suspend -n deep"; do
			read -r -a args <<<"$a"
			run --separate-stderr "$bin/${args[0]}" --sysroot "$fx" "${args[@]:1}"
			[[ "$output$stderr" != *SECRET* && "$output$stderr" != *yAnz5TF* ]] ||
				fail "secret $sec, $a: printed: $output$stderr"
			[ "$a" = "opp-set --list" ] && continue
			[ "$status" -eq 2 ] || fail "secret $sec, $a: exit $status: $stderr"
			[[ $stderr =~ :[0-9]+:\  ]] || fail "secret $sec, $a: no line number: $stderr"
		done
		rm "$fx/etc/pm/opp.d/s$sec.conf"
	done
}
