#!/usr/bin/env bash
# shellcheck disable=SC2317 # the functions run by name ("$@" at the end)
# shellcheck disable=SC2154 # t, bin and so come from the environment
# The drivers of the attack tables of confine.bats, odd-files.bats and
# output-targets.bats (issue 24), run by those tests in a bash of their
# own: bats traces every command a test runs, which would make each of
# the hundreds of cases here cost many times what the tool costs.
# Usage: bash attack.bash FUNCTION ARG...
# Environment: bin (the tools), t (a scratch folder holding the trees),
# so (the fault shim, for the modes without openat2).
# Prints "FAIL: ..." for each failure and "# ..." notes; exits 1 if any
# case failed.
set -u
export PM_TEST_GUARD=1 LC_ALL=C
unset PM_SYSROOT NO_COLOR
umask 022

# A tool that hangs fails its case after this long (s), never the suite.
LIMIT=${PM_TEST_LIMIT:-20}
failed=0

fail() {
	printf 'FAIL: %s\n' "$*"
	failed=1
}

# As helpers.bash's sampled: is case I in this run (PM_TESTS_FULL: all;
# else one in N)?
sampled() { # I N
	[ -n "${PM_TESTS_FULL:-}" ] || (($1 % $2 == 0))
}
# A "# " line saying that a loop ran RAN of its ALL cases.
sample_note() { # RAN ALL WHAT
	[ "$1" -eq "$2" ] || echo "# $3: $1 of $2 cases (a sample: PM_TESTS_FULL=1 for all)"
}

# bats' run: status, output and stderr.
quick() {
	status=0
	output=$("$@" 2>"$t/stderr") || status=$?
	stderr=$(<"$t/stderr")
}

# ------------------------------------------------------- confinement

kinds=(abs rel dotdot chain loop parent)
# Enough ".." to climb from any folder of a fixture above its root.
up=$(printf '../%.0s' $(seq 40))

# Replace FX/PATH by a link of KIND leading to OUT (a host path).
make_link() { # FX PATH KIND OUT
	local fx=$1 p=$2 k=$3 out=$4 dir base
	dir=${p%/*}
	base=${p##*/}
	case $k in
	abs) ln -s "$out" "$fx$p" ;;
	rel) ln -s "$up${out#/}" "$fx$p" ;;
	dotdot)
		# Into a real folder, then up through it.
		mkdir -p "$fx$dir/.real"
		ln -s ".real/$up${out#/}" "$fx$p"
		;;
	chain)
		ln -s ".hop1" "$fx$p"
		ln -s "/.hop2" "$fx$dir/.hop1"
		ln -s "$out" "$fx/.hop2"
		;;
	loop)
		ln -s ".loop" "$fx$p"
		ln -s "$dir/$base" "$fx$dir/.loop"
		;;
	parent)
		# The folder of PATH is the link, to a copy outside holding OUT.
		mv "$fx$dir" "$t/parent-saved"
		mkdir -p "$t/pd"
		cp -a "$t/parent-saved/." "$t/pd/"
		rm -rf "${t:?}/pd/$base"
		cp -a "$out" "$t/pd/$base"
		ln -s "$t/pd" "$fx$dir"
		;;
	esac
}

undo_link() { # FX PATH KIND
	local fx=$1 p=$2 k=$3 dir=${2%/*}
	if [ "$k" = parent ]; then
		rm -f "$fx$dir"
		mv "$t/parent-saved" "$fx$dir"
		rm -rf "$t/pd"
	else
		rm -rf "$fx$p" "$fx$dir/.hop1" "$fx/.hop2" "$fx$dir/.loop" "$fx$dir/.real"
	fi
}

# The table, with openat2 as MODE says: "" (the kernel's), or the errno
# every openat2 call gets from the fault shim; KIND... of links (all).
confine_table() { # TABLE MODE [KIND...]   ($t/fx: a fresh hwp-laptop)
	local table=$1 mode=$2 p mark rest args k ki out fx val file n=0 all=0 row=0 env=() ks
	shift 2
	ks=("${@:-${kinds[@]}}")
	[ -z "$mode" ] || env=(env LD_PRELOAD="$so" PM_FAULT_OPENAT2="$mode")
	fx=$t/fx
	mkdir -p "$fx/etc/pm/opp.d" "$fx/etc/pm/sleep.d" "$fx/var/log"
	printf '[opp]\ndescription = inside\n[cpufreq]\ngovernor = powersave\n' >"$fx/etc/pm/opp.d/x.conf"
	while IFS=$'\t' read -r p mark rest; do
		[[ -z $p || $p == \#* ]] && continue
		IFS=$'\t' read -r -a args <<<"$rest"
		file=${mark%%=*}
		val=${mark#*=}
		row=$((row + 1))
		for ki in "${!ks[@]}"; do
			k=${ks[ki]}
			all=$((all + 1))
			# Every row and every kind of link, not every pair of them.
			sampled $((row + ki)) 3 || continue
			n=$((n + 1))
			# The copy outside, marked.
			out=$t/outside/$n
			mkdir -p "${out%/*}"
			cp -a "$fx$p" "$out"
			if [ "$file" = . ]; then
				printf '%b\n' "$val" >"$out"
			else
				printf '%b\n' "$val" >"$out/$file"
			fi
			touch "$t/stamp"
			mv "$fx$p" "$t/saved"
			make_link "$fx" "$p" "$k" "$out"
			quick timeout "$LIMIT" "${env[@]}" "$bin/${args[0]}" --sysroot "$fx" "${args[@]:1}"
			undo_link "$fx" "$p" "$k"
			mv "$t/saved" "$fx$p"
			[ "$status" -ne 124 ] || fail "${mode:-openat2} $k $p: ${args[*]}: hung"
			[ "$status" -lt 90 ] || fail "${mode:-openat2} $k $p: ${args[*]}: exit $status: $stderr"
			! grep -qi escaped <<<"$output$stderr" ||
				fail "${mode:-openat2} $k $p: ${args[*]}: read outside the root: $output$stderr"
			[ -z "$(find "$t/outside" -newer "$t/stamp")" ] ||
				fail "${mode:-openat2} $k $p: ${args[*]}: wrote outside the root"
			rm -rf "$out"
		done
	done <"$table"
	[ "$n" -ne "$all" ] || echo "# ${mode:-openat2}: $n cases"
	sample_note "$n" "$all" "${mode:-openat2}"
}

# ------------------------------------------------------- odd files

# The regular files below FX that TOOL ARGS opens to read or write (not
# O_PATH, not folders), as resolved paths below FX, one per shape.
opened_files() { # FX TOOL ARG...
	local fx=$1
	shift
	ASAN_OPTIONS=detect_leaks=0 strace -y -f -e trace=open,openat,openat2 \
		-o "$t/trace" "$bin/$1" --sysroot "$fx" "${@:2}" >/dev/null 2>&1 || true
	grep -v -e O_PATH -e O_DIRECTORY "$t/trace" |
		grep -o "= [0-9]*<$fx/[^>]*>" | sed "s|^= [0-9]*<$fx||; s|>\$||" |
		sort -u | awk '{ s = $0; gsub(/[0-9]+/, "N", s); if (!seen[s]++) print }'
}

# Make FILE below FX a FIFO (KIND fifo) or an endless character device
# (KIND zero), run TOOL ARG..., put the file back.
with_odd() { # FX FILE KIND TOOL ARG...
	local fx=$1 f=$2 kind=$3
	shift 3
	mv "$fx$f" "$t/saved"
	if [ "$kind" = fifo ]; then
		mkfifo -m 644 "$fx$f"
	else
		mknod -m 644 "$fx$f" c 1 5
	fi
	quick timeout "$LIMIT" "$bin/$1" --sysroot "$fx" "${@:2}"
	mv -f "$t/saved" "$fx$f"
}

# The sweep: each file that TOOL ARG... opens, made odd in turn.
sweep() { # KIND FX FILTER TOOL ARG...
	local kind=$1 fx=$2 filter=$3 f n=0 all=0 what
	shift 3
	what=$([ "$kind" = fifo ] && echo "a FIFO" || echo "a character device")
	while IFS= read -r f; do
		[[ $f =~ $filter ]] || continue
		all=$((all + 1))
		sampled $((all - 1)) 3 || continue
		n=$((n + 1))
		with_odd "$fx" "$f" "$kind" "$@"
		[ "$status" -ne 124 ] || fail "$* with $f $kind: hung"
		[ "$status" -ne 0 ] || fail "$* with $f $kind: exit 0; stderr: $stderr"
		[ "$status" -lt 90 ] || fail "$* with $f $kind: exit $status; stderr: $stderr"
		[[ $stderr == *"${f##*/}: $what"* ]] ||
			fail "$* with $f $kind: the file is not named as $what: $stderr"
	done < <(opened_files "$fx" "$@")
	[ "$n" -gt 0 ] || fail "$*: no file to try"
	[ "$n" -ne "$all" ] || echo "# $*: $n files as $what"
	sample_note "$n" "$all" "$*"
}

# ---------------------------------------------------- output targets

# The commands: a name, then the arguments after --sysroot FX, with @OUT@
# for the target.  Setters write to their private tree each time.
commands=(
	"status|pmctl -J -o @OUT@"
	"freq-kv|pmctl freq -F kv -o @OUT@"
	"dump|pmctl dump -o @OUT@"
	"pmctl-set|pmctl -J -o @OUT@ freq set --governor performance"
	"cstate|cstate-stat -J -o @OUT@"
	"cstate-i|cstate-stat -J -i 0.05 -n 1 -o @OUT@"
	"save|opp-set --save @OUT@"
	"opp-set|opp-set -J -o @OUT@ -s cpufreq.governor=performance"
	"pm-suspend|pm-suspend -J -o @OUT@ s2idle"
)

# The kinds of target, and what must hold after the run (check_KIND).
targets=(new file link dangling chain chr full blk fifo socket dir linkdir loop)

# A block device no driver answers (a major for local use): opening it
# is ENXIO, so nothing is written anywhere.
BLK_MAJOR=240

make_target() { # KIND DIR: makes it, sets $out (not in $(...): the readers
	# it starts must be this shell's to wait for)
	local k=$1 d=$2
	mkdir -p "$d/real"
	out=$d/out
	case $k in
	new) ;;
	file)
		echo old >"$d/out"
		;;
	link)
		echo old >"$d/real/target"
		ln -s real/target "$d/out"
		;;
	dangling)
		ln -s real/made "$d/out"
		;;
	chain)
		echo old >"$d/real/target"
		ln -s "$d/real/target" "$d/real/hop"
		ln -s real/hop "$d/out"
		;;
	chr) mknod "$d/out" c 1 3 ;;
	full) mknod "$d/out" c 1 7 ;;
	blk) mknod "$d/out" b "$BLK_MAJOR" 0 ;;
	fifo)
		mkfifo "$d/out"
		# The reader: what came through the FIFO.
		timeout 30 cat "$d/out" >"$d/got" </dev/null 2>/dev/null &
		;;
	socket)
		# shellcheck disable=SC2016 # perl's own variables
		timeout 30 perl -MIO::Socket::UNIX -e '
			my $s = IO::Socket::UNIX->new(Type => SOCK_STREAM(),
				Local => $ARGV[0], Listen => 1) or die "$!";
			open(my $f, ">", $ARGV[1]) or die "$!";
			open(my $r, ">", $ARGV[2]) or die "$!";
			close $r;
			my $c = $s->accept or die "$!";
			print $f $_ while <$c>;
			close $f;' "$d/out" "$d/got" "$d/listening" </dev/null >/dev/null 2>&1 &
		for _ in $(seq 100); do
			[ -e "$d/listening" ] && rm "$d/listening" && break
			sleep 0.05
		done
		;;
	dir)
		mkdir "$d/out"
		;;
	linkdir)
		ln -s real "$d/out"
		;;
	loop)
		ln -s out2 "$d/out"
		ln -s out "$d/out2"
		;;
	esac
}

# Nothing but what the case made: no temporary file left beside it.
no_leftovers() { # DIR
	local extra
	extra=$(find "$1" -name '.*' ! -name . | head -n 3)
	[ -z "$extra" ] || fail "left over: $extra"
}

check_target() { # KIND DIR NAME
	local k=$1 d=$2 n=$3
	case $k in
	new | file)
		[ "$status" -eq 0 ] || fail "$n/$k: exit $status: $stderr"
		if [ ! -f "$d/out" ] || [ -L "$d/out" ]; then
			fail "$n/$k: not a file"
		elif [ ! -s "$d/out" ] || echo old | cmp -s - "$d/out"; then
			fail "$n/$k: not replaced"
		fi
		;;
	link | chain)
		[ "$status" -eq 0 ] || fail "$n/$k: exit $status: $stderr"
		[ -L "$d/out" ] || fail "$n/$k: the link was replaced"
		[ "$(readlink "$d/out")" = "$([ "$k" = link ] && echo real/target || echo real/hop)" ] ||
			fail "$n/$k: the link changed"
		[ "$k" = link ] || [ -L "$d/real/hop" ] || fail "$n/$k: the second link was replaced"
		if [ ! -f "$d/real/target" ] || [ -L "$d/real/target" ]; then
			fail "$n/$k: no file at the end"
		elif [ ! -s "$d/real/target" ] || echo old | cmp -s - "$d/real/target"; then
			fail "$n/$k: the file it names was not replaced"
		fi
		;;
	dangling)
		[ "$status" -eq 0 ] || fail "$n/$k: exit $status: $stderr"
		[ -L "$d/out" ] || fail "$n/$k: the link was replaced"
		[ -s "$d/real/made" ] || fail "$n/$k: the file it names was not made"
		;;
	chr)
		[ "$status" -eq 0 ] || fail "$n/$k: exit $status: $stderr"
		[ -c "$d/out" ] || fail "$n/$k: the device was replaced"
		[ "$(stat -c %t:%T "$d/out")" = 1:3 ] || fail "$n/$k: another device"
		;;
	full)
		[ "$status" -ne 0 ] || fail "$n/$k: exit 0 on a full device"
		[[ $stderr == *"cannot write $d/out"* || $stderr == *"cannot write the report to $d/out"* ]] || fail "$n/$k: $stderr"
		[ -c "$d/out" ] || fail "$n/$k: the device was replaced"
		;;
	blk)
		[ "$status" -eq 1 ] || fail "$n/$k: exit $status: $stderr"
		[[ $stderr == *"cannot write $d/out"* ]] || fail "$n/$k: $stderr"
		[ -b "$d/out" ] || fail "$n/$k: the device was replaced"
		;;
	fifo | socket)
		[ "$status" -eq 0 ] || fail "$n/$k: exit $status: $stderr"
		wait
		if [ "$k" = fifo ]; then
			[ -p "$d/out" ] || fail "$n/$k: the FIFO was replaced"
		else
			[ -S "$d/out" ] || fail "$n/$k: the socket was replaced"
		fi
		[ -s "$d/got" ] || fail "$n/$k: nothing came through"
		;;
	dir | linkdir | loop)
		[ "$status" -eq 2 ] || fail "$n/$k: exit $status, want 2: $stderr"
		[[ $stderr == *"cannot write $d/out"* ]] || fail "$n/$k: $stderr"
		[ -z "$(ls -A "$d/real")" ] || fail "$n/$k: written into the folder"
		[ "$k" != dir ] || [ -z "$(ls -A "$d/out")" ] || fail "$n/$k: written into the folder"
		[ -z "$(find "$fx" -newer "$t/stamp" | head -n 1)" ] ||
			fail "$n/$k: the tree changed before the refusal"
		;;
	esac
	[ "$k" = dir ] || no_leftovers "$d"
}

output_targets() { # ($t/fx: a fresh hwp-laptop; the setters' runs repeat)
	local c n args k d case_no=0 ci ki
	fx=$t/fx
	for ci in "${!commands[@]}"; do
		c=${commands[ci]}
		n=${c%%|*}
		for ki in "${!targets[@]}"; do
			k=${targets[ki]}
			# Every command and every kind of target, not every pair.
			sampled $((ci + ki)) 3 || continue
			case_no=$((case_no + 1))
			d="$t/$case_no"
			mkdir "$d"
			make_target "$k" "$d"
			read -r -a args <<<"${c#*|}"
			args=("${args[@]/@OUT@/$out}")
			touch "$t/stamp"
			quick timeout 60 "$bin/${args[0]}" --sysroot "$fx" "${args[@]:1}"
			[ "$status" -ne 124 ] || fail "$n/$k: hung"
			check_target "$k" "$d" "$n"
		done
	done
	[ -z "${PM_TESTS_FULL:-}" ] || echo "# ${#commands[@]} commands x ${#targets[@]} targets"
	sample_note "$case_no" $((${#commands[@]} * ${#targets[@]})) "commands times targets"
}

"$@"
exit "$failed"
