# Fault loops for tests/cli/fault-*.bats, over the shim of tests/fault
# (fault.c: PM_FAULT_WRITE, PM_FAULT_READ, PM_FAULT_LOG).  Load after
# helpers.bash, and call fault_so in each test first.
# shellcheck shell=bash
# shellcheck disable=SC2154 # $bin, $so, $top and bats' status/stderr* come from helpers.bash and run

# The errnos of issue 7, each failing one write() as a sysfs store would,
# and SHORT: a store that takes half the bytes.
fault_errnos=(EINVAL EBUSY EIO EACCES EPERM ENODEV EAGAIN ENOSPC EINTR SHORT)

# Scenarios run so far in this test, and of how many: make check runs a
# sample of each loop (sampled, in helpers.bash), CI's normal build all.
fault_n=0
fault_all=0

# The copies each scenario hashes live on tmpfs when there is one: on a
# busy disk a copy of the fixture costs seconds.  fault_setup in setup(),
# fault_teardown in teardown().
fault_setup() {
	fault_tmp=
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		xout fault_tmp mktemp -d /dev/shm/pmtools-fault.XXXXXX || fault_tmp=
	fi
	[ -n "$fault_tmp" ] || fault_tmp=$BATS_TEST_TMPDIR
}

fault_teardown() {
	case ${fault_tmp:-} in /dev/shm/pmtools-fault.*) rm -rf "$fault_tmp" ;; esac
}

# hwp-laptop cut to 4 CPUs (2 cores x 2 threads): intel_pstate with EPP,
# intel_idle, the platform profile, runtime PM devices, a battery with
# charge thresholds.  Built once per test file.
fault_fixture() { # [-v VAR]
	local d="$BATS_FILE_TMPDIR/hwp4" desc="$BATS_FILE_TMPDIR/hwp4.desc" var=
	[ "${1:-}" != -v ] || var=$2
	if [ ! -d "$d" ]; then
		sed -e 's/^cpus 8 /cpus 4 /' -e 's/ on=[4-7]$/ on=0/' \
			"$top/tests/fixtures/machines/hwp-laptop.desc" >"$desc"
		"$top/tests/fixtures/mkfixture" "$desc" "$d" >/dev/null
	fi
	put "$var" "$d"
}

# A private copy of the 4-CPU fixture.
fault_fresh() {
	local src d
	fault_fixture -v src
	xout d mktemp -d "${fault_tmp:-$BATS_TEST_TMPDIR}/fx.XXXXXX"
	copy_tree "$src" "$d"
	printf '%s\n' "$d"
}

# The 4-CPU fixture with the point "full" in its etc/pm/opp.d: a point
# across every section, set up so that it switches intel_pstate to
# passive, raises the limits of policy0-1, lowers those of policy2-3,
# switches the governor from performance (before EPP), raises both
# intel_pstate limits and brings cpu3 back online.
opp_fixture() {
	local fx p cpu=/sys/devices/system/cpu cf=/sys/devices/system/cpu/cpufreq
	fx=$(fault_fresh)
	for p in 0 1 2 3; do
		echo performance >"$fx$cf/policy$p/scaling_governor"
	done
	for p in 0 1; do
		echo 400000 >"$fx$cf/policy$p/scaling_min_freq"
		echo 1000000 >"$fx$cf/policy$p/scaling_max_freq"
	done
	for p in 2 3; do echo 2000000 >"$fx$cf/policy$p/scaling_min_freq"; done
	echo 30 >"$fx$cpu/intel_pstate/max_perf_pct"
	# cpu3 offline, as the kernel would show it.
	echo 0 >"$fx$cpu/cpu3/online"
	echo 0-2 >"$fx$cpu/online"
	echo 3 >"$fx$cpu/offline"
	mkdir -p "$fx/etc/pm/opp.d"
	printf '%b' '[opp]\ndescription = a point across every section\n\n[cpufreq]\ngovernor = powersave\nepp = power\nmin = 1.2GHz\nmax = 3GHz\nboost = off\n\n[cpufreq cpus=0-1]\nepp = balance_power\n\n[cpufreq cpus=2-3]\nmin = 500MHz\nmax = 1GHz\n\n[intel_pstate]\nstatus = passive\nmax_perf_pct = 80\nmin_perf_pct = 50\n\n[cpuidle]\ngovernor = teo\ndisable = C10 C8\n\n[cpu]\nonline = 0-3\nsmt = on\n\n[platform]\nprofile = low-power\n\n[runtime_pm]\npci = auto\n\n[sysfs]\n/sys/power/mem_sleep = deep\n' \
		>"$fx/etc/pm/opp.d/full.conf"
	# The same without the status switch and cpu3 online: everything is
	# read before the first write.
	grep -v -e '^status = ' -e '^online = ' "$fx/etc/pm/opp.d/full.conf" >"$fx/etc/pm/opp.d/steady.conf"
	printf '%s\n' "$fx"
}

# Run TOOL on FX (which it changes) under the shim's log and print the
# writes below FX/sys, one "PATH<TAB>VALUE<TAB>RESULT" line each, PATH as
# the tools name it (without FX).  Fails when the run fails.
fault_writes() { # FX TOOL ARG...
	local fx=$1 tool=$2 log
	shift 2
	xout log mktemp "${fault_tmp:-$BATS_TEST_TMPDIR}/log.XXXXXX"
	PM_FAULT_LOG=$log LD_PRELOAD=$so "$bin/$tool" --sysroot "$fx" "$@" >/dev/null ||
		return 1
	awk -F'\t' -v root="$fx/sys/" 'index($2, root) == 1 {
		print substr($2, length(root) - 4) "\t" $3 "\t" $4 }' "$log"
}

# Put FX back as ORIG after a run that changed it: the files of WRITES
# (the clean run's log) and any file ORIG lacks (opp-set's opp.current).
fault_reset() { # FX ORIG WRITES...
	local fx=$1 orig=$2 w p
	shift 2
	local c
	for w in "$@"; do
		p=${w%%$'\t'*}
		# cat's bytes without its process (a sysfs value has no NUL).
		IFS= read -r -d '' c <"$orig$p" || true
		printf '%s' "$c" >"$fx$p"
	done
	# The regular files of FX that are not ORIG's.
	while IFS= read -r -d '' w; do
		if [ ! -f "$orig/$w" ] || [ -L "$orig/$w" ]; then
			rm -f "$fx/$w"
		fi
	done < <(cd "$fx" && find . -type f -print0)
}

# fault_run's VARS exported to PROGRAM only, and LD_PRELOAD=$so: exported
# locals, for xrun to start it without a fork of the test's shell.
fault_exec() { # PROGRAM ARG...
	local -x "${vars[@]}" LD_PRELOAD="$so"
	xrun "$@"
}

# Run TOOL on FX under the shim with its settings VAR=VALUE...: status,
# stderr and stderr_lines as bats' run --separate-stderr sets them, at
# the cost of one process (run takes four: mktemp, two subshells, env).
fault_run() { # VAR=VALUE... TOOL FX ARG...
	local f=${fault_tmp:-$BATS_TEST_TMPDIR}/run.err tool fx
	local -a vars=()
	while [[ $1 =~ ^[A-Z_]+= ]]; do
		vars+=("$1")
		shift
	done
	tool=$1 fx=$2
	shift 2
	status=0
	fault_exec "$bin/$tool" --sysroot "$fx" "$@" >/dev/null 2>"$f" </dev/null || status=$?
	stderr=
	IFS= read -r -d '' stderr <"$f" || true
	stderr=${stderr%$'\n'}
	mapfile -t stderr_lines <"$f"
}

# Every write position k of a clean run of TOOL on FX, times every errno
# of fault_errnos, failing that write() (not its open):
#  - EINTR: the write is retried: exit 0 and the tree as the clean run
#    leaves it;
#  - else exit 1 (4 for EBUSY on the first write, CLI.md), the first line
#    of stderr names the file and the errno (a SHORT write: EIO and
#    "short write"; EACCES or EPERM on the first write: "root is needed
#    to write FILE", CLI.md, unless the tool explains the errno), and the
#    tree byte-identical to before.
# The first write is tried with every errno (its EBUSY, EACCES and EPERM
# have rules of their own); in a sample a later write k with one errno,
# the j for which k + j is a multiple of their count, so that the sample
# still fails every write and meets every errno (from 11 writes on).
# Adds to fault_n (run) and fault_all (of the whole loop);
# fails with every scenario that went wrong (at most 10).
fault_loop() { # TOOL FX ARG...
	untraced fault_loop_ "$@"
}
fault_loop_() {
	local tool=$1 fx=$2 orig ref after before n k j e path want first
	local -a writes fails=()
	shift 2
	orig=$(mktemp -d "${fault_tmp:-$BATS_TEST_TMPDIR}/orig.XXXXXX")
	ref=$(mktemp -d "${fault_tmp:-$BATS_TEST_TMPDIR}/ref.XXXXXX")
	cp -a "$fx/." "$orig/"
	cp -a "$fx/." "$ref/"
	mapfile -t writes < <(fault_writes "$ref" "$tool" "$@")
	n=${#writes[@]}
	[ "$n" -ge 2 ] || fail "$tool $*: $n writes in a clean run"
	for w in "${writes[@]}"; do
		[[ $w == *$'\tok' ]] || fail "$tool $*: a clean run's write failed: $w"
	done
	after=$ref.sum
	before=$orig.sum
	tree_save "$ref" "$after"
	tree_save "$fx" "$before"
	for ((k = 1; k <= n; k++)); do
		path=${writes[k - 1]%%$'\t'*}
		for j in "${!fault_errnos[@]}"; do
			e=${fault_errnos[j]}
			fault_all=$((fault_all + 1))
			[ "$k" -eq 1 ] || sampled $((k + j)) "${#fault_errnos[@]}" || continue
			fault_n=$((fault_n + 1))
			fault_run PM_FAULT_WRITE="*/sys/*=$e@$k:write" "$tool" "$fx" "$@"
			first=${stderr_lines[0]:-}
			if [ "$e" = EINTR ]; then
				[ "$status" -eq 0 ] || fails+=("write $k ($path) $e: exit $status: $stderr")
				tree_same "$fx" "$after" 2>/dev/null ||
					fails+=("write $k ($path) $e: the tree is not where a clean run leaves it")
				fault_reset "$fx" "$orig" "${writes[@]}"
				continue
			fi
			want=1
			[ "$k$e" != 1EBUSY ] || want=4
			[ "$status" -eq "$want" ] ||
				fails+=("write $k ($path) $e: exit $status, want $want: $stderr")
			case $k$e in
			1EACCES | 1EPERM)
				[ "$first" = "$tool: root is needed to write $path" ] ||
					[[ $first == "$tool: "*"$path"*"($e)"* ]] ||
					fails+=("write $k ($path) $e: $stderr")
				;;
			*SHORT)
				[[ $first == "$tool: "*"$path"*"(EIO)"*"short write"* ]] ||
					fails+=("write $k ($path) $e: $stderr")
				;;
			*)
				[[ $first == "$tool: "*"$path"*"($e)"* ]] ||
					fails+=("write $k ($path) $e: $stderr")
				;;
			esac
			# A choice file ("[s2idle] deep") cut short cannot read as it
			# was in a plain-file fixture: its restore writes the word
			# ("s2idle"), which the kernel would show bracketed.  Every
			# other file must be as it was.
			case $e$path in
			SHORT/sys/power/mem_sleep | SHORT/sys/power/disk | SHORT/sys/power/pm_test)
				cat "$orig$path" >"$fx$path"
				;;
			esac
			if ! tree_same "$fx" "$before" 2>"$fault_tmp/diff"; then
				fails+=("write $k ($path) $e: the tree changed: $stderr; $(head -n 4 "$fault_tmp/diff")")
				fault_reset "$fx" "$orig" "${writes[@]}"
			fi
			[ "${#fails[@]}" -lt 10 ] || break 2
		done
	done
	if [ "${#fails[@]}" -gt 0 ]; then
		printf '%s\n' "${fails[@]}" >&2
		fail "$tool $*: ${#fails[@]} scenarios failed (of $fault_n)"
	fi
}

# Each file that a clean run of TOOL writes, unreadable (every read fails
# with ERRNO): the run fails before its first write, exit CODE, naming
# the file and the errno, and the tree is untouched.
fault_reads() { # CODE ERRNO TOOL FX ARG...
	untraced fault_reads_ "$@"
}
fault_reads_() {
	local code=$1 e=$2 tool=$3 fx=$4 ref before path log w
	local -a writes paths fails=()
	shift 4
	ref=$(mktemp -d "${fault_tmp:-$BATS_TEST_TMPDIR}/ref.XXXXXX")
	cp -a "$fx/." "$ref/"
	mapfile -t writes < <(fault_writes "$ref" "$tool" "$@")
	[ "${#writes[@]}" -ge 1 ] || fail "$tool $*: no write in a clean run"
	mapfile -t paths < <(printf '%s\n' "${writes[@]}" | cut -f1 | sort -u)
	before=$ref.sum
	tree_save "$fx" "$before"
	log=${fault_tmp:-$BATS_TEST_TMPDIR}/rlog
	for path in "${paths[@]}"; do
		fault_n=$((fault_n + 1))
		: >"$log"
		fault_run PM_FAULT_READ="*$path=$e" PM_FAULT_LOG="$log" "$tool" "$fx" "$@"
		[ "$status" -eq "$code" ] || fails+=("read $path $e: exit $status, want $code: $stderr")
		[[ ${stderr_lines[0]:-} == "$tool: "*"$path"*"($e)"* ]] || fails+=("read $path $e: $stderr")
		w=0
		while IFS=$'\t' read -r _ p _; do
			[[ $p != "$fx/sys/"* ]] || w=$((w + 1))
		done <"$log"
		[ "$w" -eq 0 ] || fails+=("read $path $e: $w writes")
	done
	tree_same "$fx" "$before" || fails+=("read faults: the tree changed")
	if [ "${#fails[@]}" -gt 0 ]; then
		printf '%s\n' "${fails[@]}" >&2
		fail "$tool $*: ${#fails[@]} read scenarios failed"
	fi
}
