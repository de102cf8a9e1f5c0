#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin, $so and bats' $status, $stderr come from helpers.bash and run
# pmctl's multi-write setters under the fault shim (tests/fault): every
# write position of a realistic run on a 4-CPU fixture times every errno
# of issue 7 and a short write; exit 1 (4 for EBUSY on the first write),
# the file and errno named, the tree byte-identical.  An EINTR is retried.
# Unreadable attributes before planning: the file named, nothing written.
# tests/run: not under ASan: every test needs the fault shim, which cannot run under ASan (fault_so skips it)

load helpers
load ../fault/suite

setup() {
	load_libs
	fault_setup
}

teardown() {
	fault_teardown
}

cf=/sys/devices/system/cpu/cpufreq
dev=/sys/devices/pci0000:00

@test "freq set governor+min+max on 4 policies: a failure at every write" {
	fault_so
	fault_loop pmctl "$(fault_fresh)" freq set --governor performance --min 1.2GHz --max 3GHz
	echo "# $fault_n of $fault_all fault scenarios (pmctl freq set: governor min max)" >&3
	[ "$fault_all" -eq 120 ]
}

@test "freq set EPP+max on 4 policies: a failure at every write" {
	fault_so
	fault_loop pmctl "$(fault_fresh)" freq set --epp balance_power --max 2GHz
	echo "# $fault_n of $fault_all fault scenarios (pmctl freq set: epp max)" >&3
	[ "$fault_all" -eq 80 ]
}

@test "freq set raising min above the old max: max first, a failure at every write" {
	fault_so
	fx=$(fault_fresh)
	"$bin/pmctl" --sysroot "$fx" freq set --min 800MHz --max 1.2GHz
	# The same code path as above: the errnos that behave differently.
	# shellcheck disable=SC2034 # read by the fault suite
	fault_errnos=(EIO SHORT EINTR)
	fault_loop pmctl "$fx" freq set --min 2GHz --max 4GHz
	echo "# $fault_n of $fault_all fault scenarios (pmctl freq set: raise)" >&3
	[ "$fault_all" -eq 24 ]
}

@test "idle limit across 4 CPUs: a failure at every write" {
	fault_so
	fault_loop pmctl "$(fault_fresh)" idle limit 100
	echo "# $fault_n of $fault_all fault scenarios (pmctl idle limit)" >&3
	[ "$fault_all" -eq 120 ]
}

@test "idle enable all after a disable: a failure at every write" {
	fault_so
	fx=$(fault_fresh)
	"$bin/pmctl" --sysroot "$fx" idle disable C8 C10
	# shellcheck disable=SC2034 # read by the fault suite
	fault_errnos=(EIO SHORT EINTR)
	fault_loop pmctl "$fx" idle enable all
	echo "# $fault_n of $fault_all fault scenarios (pmctl idle enable)" >&3
	[ "$fault_all" -eq 24 ]
}

@test "cpu offline 1-3, and online again: a failure at every write" {
	fault_so
	fx=$(fault_fresh)
	fault_loop pmctl "$fx" cpu offline 1-3
	"$bin/pmctl" --sysroot "$fx" cpu offline 1-3
	fault_loop pmctl "$fx" cpu online 1-3
	echo "# $fault_n of $fault_all fault scenarios (pmctl cpu)" >&3
	[ "$fault_all" -eq 60 ]
}

@test "supply set both thresholds, device set runtime+wakeup: a failure at every write" {
	fault_so
	fault_loop pmctl "$(fault_fresh)" supply set BAT0 --charge-start 60 --charge-stop 90
	fault_loop pmctl "$(fault_fresh)" device set "$dev/0000:00:14.3" "$dev/0000:00:14.0/usb1/1-3" \
		"$dev/0000:00:14.0/usb1" --runtime auto --wakeup enabled
	echo "# $fault_n of $fault_all fault scenarios (pmctl supply, device)" >&3
	[ "$fault_all" -eq 60 ]
}

@test "an open for writing that fails (EIO, EINTR at open) at every write of freq set" {
	fault_so
	fx=$(fault_fresh)
	tree_save "$fx" "$fault_tmp/before"
	for k in $(seq 1 12); do
		fault_run PM_FAULT_WRITE="*/sys/*=EIO@$k" pmctl "$fx" freq set --governor performance --min 1.2GHz --max 3GHz
		[ "$status" -eq 1 ] || fail "open $k: exit $status: $stderr"
		[[ ${stderr_lines[0]} == *"(EIO)" ]] || fail "open $k: $stderr"
		tree_same "$fx" "$fault_tmp/before" || fail "open $k: the tree changed"
	done
	# An open interrupted by a signal is tried again.
	run --separate-stderr env PM_FAULT_WRITE="*/sys/*=EINTR@5" LD_PRELOAD="$so" \
		"$bin/pmctl" --sysroot "$fx" freq set --governor performance --min 1.2GHz --max 3GHz
	assert_success
	[ "$(<"$fx$cf/policy1/scaling_max_freq")" = 3000000 ]
}

@test "a short write that cannot be undone is named, exit 1" {
	fault_so
	fx=$(fault_fresh)
	# The 2nd policy's max is cut short; its restore fails too.
	run --separate-stderr env PM_FAULT_WRITE="*/policy1/scaling_max_freq=SHORT@1:write;*/policy1/scaling_max_freq=EIO@1:write" \
		LD_PRELOAD="$so" "$bin/pmctl" --sysroot "$fx" freq set --max 3GHz
	assert_failure 1
	[[ ${stderr_lines[0]} == *"$cf/policy1/scaling_max_freq"*"(EIO); short write: 4 of 8 bytes" ]] || fail "$stderr"
	[ "${stderr_lines[1]}" = "pmctl: could not restore $cf/policy1/scaling_max_freq to '4700000': Input/output error (EIO)" ]
	[ "${stderr_lines[2]}" = "pmctl: restored the 1 earlier write, but not $cf/policy1/scaling_max_freq" ]
	[ "$(<"$fx$cf/policy0/scaling_max_freq")" = 4700000 ]
}

@test "a failed read of an attribute before planning: exit 1 naming it, nothing written" {
	fault_so
	fx=$(fault_fresh)
	for e in EIO EACCES; do
		fault_reads 1 "$e" pmctl "$fx" freq set --governor performance --min 1.2GHz --max 3GHz
		fault_reads 1 "$e" pmctl "$fx" idle limit 100
		fault_reads 1 "$e" pmctl "$fx" cpu offline 1-3
		fault_reads 1 "$e" pmctl "$fx" supply set BAT0 --charge-start 60 --charge-stop 90
	done
	fault_reads 1 EAGAIN pmctl "$fx" freq set --epp balance_power
	# Gone (ENODEV) is "not offered here" (3), busy (EBUSY) is 4 (pm_exit_for).
	fault_reads 3 ENODEV pmctl "$fx" freq set --governor performance --min 1.2GHz --max 3GHz
	fault_reads 4 EBUSY pmctl "$fx" cpu offline 1-3
	echo "# $fault_n read fault scenarios (pmctl)" >&3
}

@test "reads interrupted by a signal (EINTR) are retried: the set goes through" {
	fault_so
	fx=$(fault_fresh)
	run --separate-stderr env PM_FAULT_READ="*$cf/policy2/scaling_governor=EINTR@1;*/cpu1/cpuidle/state3/disable=EINTR@1" \
		LD_PRELOAD="$so" "$bin/pmctl" --sysroot "$fx" freq set --governor performance
	assert_success
	[ "$(<"$fx$cf/policy2/scaling_governor")" = performance ]
	run --separate-stderr env PM_FAULT_READ="*/cpu1/cpuidle/state3/disable=EINTR@1" \
		LD_PRELOAD="$so" "$bin/pmctl" --sysroot "$fx" idle disable C6
	assert_success
	[ "$(<"$fx/sys/devices/system/cpu/cpu1/cpuidle/state3/disable")" = 1 ]
}
