#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr come from helpers.bash and run
# pm-resume --check: images written by libpm's own writer (build/mksnapimg)
# into a swap area file below a sysroot, inspected without a change: a
# whole one, one with a flipped byte (its block named), another kernel's,
# a truncated one, a plain swap area, and paths that are no image.

load helpers

setup_file() {
	[ -x "$top/build/mksnapimg" ] ||
		{ echo "# build/mksnapimg is missing: make build/mksnapimg" >&3; return 1; }
}

setup() {
	load_libs
	fx=$BATS_TEST_TMPDIR/fx
	mkdir -p "$fx/proc/sys/kernel" "$fx/dev" "$BATS_TEST_TMPDIR/bin"
	echo 6.1.0-57-amd64 >"$fx/proc/sys/kernel/osrelease"
	ln -s "$bin/pm-suspend" "$BATS_TEST_TMPDIR/bin/pm-resume"
	resume=$BATS_TEST_TMPDIR/bin/pm-resume
}

# flip FILE OFFSET: one byte of FILE inverted.
flip() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	# shellcheck disable=SC2059 # the format is the byte
	printf "\\$(printf %03o $((255 - b)))" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

@test "--check: a whole image, human and JSON; a flipped byte names its block" {
	"$top/build/mksnapimg" "$fx/dev/vda" 3000 6.1.0-57-amd64
	sum=$(sha1sum <"$fx/dev/vda")
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda
	assert_success
	[ -z "$stderr" ]
	assert_line --index 0 "/dev/vda: pmtools hibernation image, version 1"
	assert_line --index 1 "  kernel   6.1.0-57-amd64 (running: 6.1.0-57-amd64)"
	assert_line --index 3 "  image    12288000 bytes, 3000 pages"
	assert_line --regexp '^  stored   [0-9]+ bytes in 47 blocks \([0-9.]+% of the image\)$'
	assert_line --regexp '^  checked  47 of 47 blocks in [0-9.]+ s: good$'
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda --json
	assert_success
	jq -e '.image and .valid and .resumable and .error == null and
		.bad_block == null and .kernel == "6.1.0-57-amd64" and
		.this_kernel == "6.1.0-57-amd64" and .version == 1 and
		(.id | test("^[0-9a-f]{32}$")) and .image_bytes == 12288000 and
		.pages == 3000 and .blocks == 47 and .blocks_checked == 47 and
		.stored_bytes < .image_bytes / 2 and
		.ratio == ((.stored_bytes / .image_bytes * 10000 | round) / 10000)' <<<"$output"
	[ "$(sha1sum <"$fx/dev/vda")" = "$sum" ] || fail "--check changed the image"
	# The data pages are pages 1, 2, ... in block order: page 1 is in
	# block 0, the last data page (before two map pages and the header)
	# in block 46.
	flip "$fx/dev/vda" $((4096 + 100))
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda -J
	assert_failure 1
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "pm-resume: /dev/vda: block 0 of 47: checksum mismatch "* ]] || fail "$stderr"
	jq -e '.image and (.valid | not) and (.resumable | not) and
		.bad_block == 0 and .blocks_checked == 0 and
		(.error | startswith("block 0 of 47: "))' <<<"$output"
	flip "$fx/dev/vda" $((4096 + 100))
	pages=$(($(stat -c %s "$fx/dev/vda") / 4096))
	flip "$fx/dev/vda" $(((pages - 4) * 4096 + 5))
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda -q
	assert_failure 1
	[ -z "$stderr" ]
	assert_line --regexp '^  checked  46 of 47 blocks in [0-9.]+ s: block 46 of 47: checksum mismatch'
}

@test "--check refuses: another kernel's, truncated, no image, no path" {
	"$top/build/mksnapimg" "$fx/dev/vda" 40 6.1.0-58-amd64
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda -J
	assert_failure 3
	[ "$stderr" = "pm-resume: /dev/vda: image of kernel 6.1.0-58-amd64, this is 6.1.0-57-amd64" ]
	jq -e '.valid and (.resumable | not) and .blocks_checked == 1' <<<"$output"
	truncate -s $((4096 * 3)) "$fx/dev/vda"
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vda
	assert_failure 1
	[[ $stderr == "pm-resume: /dev/vda: "*"(truncated image?)" ]] || fail "$stderr"
	head -c 8192 /dev/zero >"$fx/dev/vdb"
	printf SWAPSPACE2 | dd of="$fx/dev/vdb" bs=1 seek=4086 conv=notrunc status=none
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vdb
	assert_failure 3
	[ "$stderr" = "pm-resume: /dev/vdb: no image: a plain swap signature" ]
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev/vdc
	assert_failure 3
	[ "$stderr" = "pm-resume: cannot open /dev/vdc: No such file or directory (ENOENT)" ]
	run --separate-stderr "$resume" --sysroot "$fx" --check /dev
	assert_failure 1
	[[ $stderr == *"(ENXIO); a folder, not a block device or a file" ]] || fail "$stderr"
	run --separate-stderr "$resume" --sysroot "$fx" --check dev/vda
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-resume: --check 'dev/vda': an absolute path (/dev/vda2, /var/tmp/image)" ]
	run --separate-stderr "$resume" --sysroot "$fx"
	assert_failure 2
	[ "${stderr_lines[0]}" = "pm-resume: --check DEVICE|FILE is needed" ]
}
