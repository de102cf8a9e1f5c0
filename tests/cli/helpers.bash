# Shared set-up for the bats tests: where the binaries are, fixture and
# dump trees in a temporary folder, and tree snapshots for "unchanged".
# shellcheck shell=bash
bats_require_minimum_version 1.5.0

load_libs() {
	load '/usr/lib/bats/bats-support/load'
	load '/usr/lib/bats/bats-assert/load'
}

top="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
bin="${PMTOOLS_BIN:-$top/build}"
dumps="${PMTOOLS_DUMPS:-$top/../shared/corpus/sysfs-dumps}"
export PM_TEST_GUARD=1
export LC_ALL=C
unset PM_SYSROOT NO_COLOR

pmctl() { "$bin/pmctl" "$@"; }
cstate_stat() { "$bin/cstate-stat" "$@"; }
pm_suspend() { "$bin/pm-suspend" "$@"; }
opp_set() { "$bin/opp-set" "$@"; }

# Build fixture machine NAME once per test file into $BATS_FILE_TMPDIR.
fixture() {
	local name=$1 dest="$BATS_FILE_TMPDIR/fx-$1"
	shift
	if [ ! -d "$dest" ]; then
		"$top/tests/fixtures/mkfixture" "$@" "$name" "$dest" >/dev/null
	fi
	printf '%s\n' "$dest"
}

# Unpack real machine dump NAME once per test file.
dump() {
	local name=$1 dest="$BATS_FILE_TMPDIR/dumps"
	if [ ! -d "$dest/$name" ]; then
		mkdir -p "$dest"
		local f
		for f in "$dumps/$name".tar.*; do
			tar -xf "$f" -C "$dest"
		done
	fi
	printf '%s\n' "$dest/$name"
}

dump_names() {
	local f n
	for f in "$dumps"/*.tar.*; do
		n=${f##*/}
		printf '%s\n' "${n%%.tar.*}"
	done
}

# A listing of every file with its content hash, for "the tree is unchanged".
tree_sum() {
	(cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha1sum)
}

# A world-readable copy of the binaries, for tests that drop to nobody
# (the checkout may sit below a folder that nobody cannot enter).
nobody_bin() {
	local d
	d=$(mktemp -d /tmp/pmtools-bin.XXXXXX)
	chmod 755 "$d"
	cp "$bin/pmctl" "$bin/cstate-stat" "$bin/pm-suspend" "$bin/opp-set" "$d/"
	chmod 755 "$d"/*
	printf '%s\n' "$d"
}
