#!/usr/bin/env bats
# shellcheck disable=SC2154 # $bin and bats' $stderr, $stderr_lines come from helpers.bash and run
# opp-set --list: the operating points of DIR/etc/pm/opp.d (names, sorting,
# descriptions, files that do not parse, names that are ignored), the formats,
# the empty and missing folder, the usage errors of this version, and bad
# input that changes nothing.

load helpers

setup_file() {
	fixture laptop2006 >/dev/null
}

setup() {
	load_libs
}

# The installed examples' folder, a real path (never under --sysroot).
examples_dir() {
	"$bin/opp-set" --help | sed -n 's/.*examples in \(\/[^ ]*\/opp\.d\).*/\1/p'
}
# Tests that compare whole outputs need no installed examples beside them.
need_no_examples() {
	local d
	d=$(examples_dir)
	[ -n "$d" ] || fail "opp-set --help names no examples folder"
	if compgen -G "$d/*.conf" >/dev/null; then
		skip "installed examples in $d would be listed too"
	fi
}

# A copy of laptop2006 with the points NAME=CONTENT (printf %b) in etc/pm/opp.d.
with_points() {
	local fx="$BATS_TEST_TMPDIR/root" a
	if [ ! -d "$fx" ]; then
		cp -a "$(fixture laptop2006)" "$fx"
		chmod -R u+w "$fx"
	fi
	for a in "$@"; do
		printf '%b' "${a#*=}" >"$fx/etc/pm/opp.d/${a%%=*}"
	done
	printf '%s\n' "$fx"
}


# ================================================================ listing

@test "--list: the points sorted by name in byte order, with their descriptions" {
	need_no_examples
	fx=$(with_points \
		'zeta.conf=[opp]\ndescription = Last one\n' \
		'beta.conf=[cpufreq]\ngovernor = powersave\n[opp]\ndescription = Beta point\n' \
		'Alpha.conf=[opp]\ndescription = Capital first\n' \
		'0fast.conf=[opp]\ndescription = Digits first\n' \
		'a.b.conf=[opp]\ndescription = With a dot\n' \
		'a_b-c.conf=[opp]\ndescription = Underscore and dash\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list
	assert_success
	[ -z "$stderr" ]
	[ "${#lines[@]}" = 6 ]
	assert_line --index 0 "$(printf '%-20s %s' 0fast 'Digits first')"
	assert_line --index 1 "$(printf '%-20s %s' Alpha 'Capital first')"
	assert_line --index 2 "$(printf '%-20s %s' a.b 'With a dot')"
	assert_line --index 3 "$(printf '%-20s %s' a_b-c 'Underscore and dash')"
	assert_line --index 4 "$(printf '%-20s %s' beta 'Beta point')"
	assert_line --index 5 "$(printf '%-20s %s' zeta 'Last one')"
	# The order is the names' byte order.
	[ "$(cut -d' ' -f1 <<<"$output")" = "$(cut -d' ' -f1 <<<"$output" | LC_ALL=C sort)" ]
}

@test "--list -J: points[] with name, file, installed, description and error" {
	need_no_examples
	fx=$(with_points \
		'quiet.conf=# a comment\n[opp]\ndescription = Quiet: powersave governor, no boost\n' \
		'broken.conf=[opp]\ndescription = x\nturbo\n' \
		'plain.conf=[cpufreq]\ngovernor = performance\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	jq -e '.points | length == 3 and all(.[]; has("name") and has("file") and has("installed") and
		has("description") and has("error") and (.name | type == "string") and
		(.file | type == "string") and (.installed | type == "boolean"))' <<<"$output"
	jq -e '[.points[].name] == ["broken", "plain", "quiet"]' <<<"$output"
	# The file is the system's path, without the sysroot.
	jq -e 'all(.points[]; .file == "/etc/pm/opp.d/\(.name).conf" and .installed == false)' <<<"$output"
	jq -e '.points[2] | .description == "Quiet: powersave governor, no boost" and .error == null' <<<"$output"
	jq -e ".points[0].error == \"line 3: expected 'key = value' or a [section]\"" <<<"$output"
	# No description, or a file that does not parse: null.
	jq -e '.points[1] | .description == null and .error == null' <<<"$output"
	jq -e '.points[0].description == null' <<<"$output"
}

@test "--list -F kv: pointN_ keys that eval in sh" {
	need_no_examples
	fx=$(with_points 'a.conf=[opp]\ndescription = It'"'"'s A\n' 'b.conf=[opp]\ndescription = B\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -F kv
	assert_success
	bad=$(grep -vE "^[a-z0-9_]+='([^']|'\\\\'')*'\$" <<<"$output" || true)
	[ -z "$bad" ] || fail "not key='value': $bad"
	assert_line "point0_name='a'"
	assert_line "point0_file='/etc/pm/opp.d/a.conf'"
	assert_line "point0_installed='false'"
	assert_line "point0_error=''"
	assert_line "point1_name='b'"
	got=$(sh -c 'eval "$1"; printf "%s|%s" "$point0_description" "$point1_description"' sh "$output")
	[ "$got" = "It's A|B" ]
}

@test "--list: a file that does not parse is listed as unreadable, with a warning naming it, exit 0" {
	need_no_examples
	fx=$(with_points 'good.conf=[opp]\ndescription = Good\n' 'broken.conf=[opp]\ndescription = x\nturbo\n')
	for q in "" -q; do
		# shellcheck disable=SC2086
		run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list $q
		assert_success
		assert_line --index 0 "$(printf '%-20s %s' broken "(unreadable: line 3: expected 'key = value' or a [section])")"
		assert_line --index 1 "$(printf '%-20s %s' good Good)"
		# -q leaves out notes, not the reasons.
		[ "$stderr" = "opp-set: /etc/pm/opp.d/broken.conf: line 3: expected 'key = value' or a [section]" ] ||
			fail "'$q': stderr: $stderr"
	done
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == *"/etc/pm/opp.d/broken.conf"* ]]
}

@test "--list: each syntax error is reported with its line" {
	need_no_examples
	long=$(printf '%*s' 4100 '' | tr ' ' x)
	fx=$(with_points \
		'e1.conf=[opp]\ndescription = a\n[cpufreq\n' \
		'e2.conf=# one\n\n[]\n' \
		'e3.conf=[opp]\n= value\n' \
		'e4.conf=[opp]\ndescription = bell\a here\n' \
		'e5.conf=[opp]\nx = 1\n[a] b\n' \
		"e6.conf=[opp]\\nkey = $long\\n" \
		'e7.conf=[opp]\ndescription = nul\0byte\n' \
		'e8.conf=\n\n\n\njust words\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	err() { jq -r --arg n "$1" '.points[] | select(.name == $n) | .error' <<<"$output"; }
	[ "$(err e1)" = "line 3: a section header must end with ']'" ]
	[ "$(err e2)" = "line 3: empty section name" ]
	[ "$(err e3)" = "line 2: a key is missing before '='" ]
	[ "$(err e4)" = "line 2: control character 0x07" ]
	[ "$(err e5)" = "line 3: a section header must end with ']'" ]
	[ "$(err e6)" = "line 2: line longer than 4096 bytes" ]
	[[ $(err e7) == *"NUL"* ]]
	[ "$(err e8)" = "line 5: expected 'key = value' or a [section]" ]
	# One warning per file, each naming it.
	[ "${#stderr_lines[@]}" = 8 ]
	for i in 1 2 3 4 5 6 7 8; do
		[[ $stderr == *"opp-set: /etc/pm/opp.d/e$i.conf: "* ]] || fail "no warning for e$i"
	done
}

@test "--list: a file that cannot be read at all is listed with the reason" {
	need_no_examples
	fx=$(with_points 'ok.conf=[opp]\ndescription = fine\n')
	mkdir "$fx/etc/pm/opp.d/folder.conf"
	ln -s missing.conf "$fx/etc/pm/opp.d/dangling.conf"
	head -c $((1024 * 1024 + 10)) /dev/zero | tr '\0' '#' >"$fx/etc/pm/opp.d/huge.conf"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	jq -e '[.points[].name] == ["dangling", "folder", "huge", "ok"]' <<<"$output"
	jq -e '.points[0].error | test("No such file")' <<<"$output"
	jq -e '.points[1].error | test("folder"; "i")' <<<"$output"
	jq -e '.points[2].error | test("larger than")' <<<"$output"
	jq -e '.points[3].error == null' <<<"$output"
	[ "${#stderr_lines[@]}" = 3 ]
}

@test "--list: descriptions lose their quotes and blanks, keep a # after the value" {
	need_no_examples
	fx=$(with_points \
		'd1.conf=[opp]\ndescription = "Double quoted"\n' \
		"d2.conf=[opp]\\ndescription = 'Single quoted'\\n" \
		'd3.conf=; comment\n  [ opp ]  \n\t description\t=  spaced out  \n' \
		'd4.conf=[opp]\ndescription = value # not a comment\n' \
		'd5.conf=[opp]\r\ndescription = crlf\r\n' \
		'd6.conf=[other]\ndescription = not this one\n' \
		'd7.conf=[opp]\ndescription = a = b\n')
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
	d() { jq -r --arg n "$1" '.points[] | select(.name == $n) | .description // ""' <<<"$output"; }
	[ "$(d d1)" = "Double quoted" ]
	[ "$(d d2)" = "Single quoted" ]
	[ "$(d d3)" = "spaced out" ]
	[ "$(d d4)" = "value # not a comment" ]
	[ "$(d d5)" = "crlf" ]
	[ "$(d d6)" = "" ]
	[ "$(d d7)" = "a = b" ]
}

@test "--list: a long description is listed whole" {
	need_no_examples
	long=$(printf 'word%.0s ' $(seq 200))
	long=${long% }
	fx=$(with_points "long.conf=[opp]\\ndescription = $long\\n")
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	got=$(jq -r '.points[0].description' <<<"$output")
	[ "$got" = "$long" ] || fail "got ${#got} bytes of ${#long}"
}

@test "--list: non-.conf files and invalid names are ignored" {
	need_no_examples
	n63=$(printf '%*s' 63 '' | tr ' ' n)
	n64=$(printf '%*s' 64 '' | tr ' ' m)
	c='[opp]\ndescription = x\n'
	fx=$(with_points "real.conf=$c" ".hidden.conf=$c" "a b.conf=$c" "notes.txt=$c" \
		"real.conf~=$c" "real.conf.bak=$c" ".conf=$c" "conf=$c" "$n63.conf=$c" "$n64.conf=$c" \
		"ü.conf=$c" 'semi;colon.conf=x' "\$(touch pwned).conf=x" "README=$c" "tab	x.conf=$c")
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	[ -z "$stderr" ] || fail "$stderr"
	[ "$(jq -c '[.points[].name]' <<<"$output")" = "[\"$n63\",\"real\"]" ] || fail "$output"
	[ ! -e pwned ] && [ ! -e "$fx/pwned" ]
}

@test "--list: an empty folder prints nothing, with a note on stderr (none with -q)" {
	need_no_examples
	fixture -v fx laptop2006
	[ -d "$fx/etc/pm/opp.d" ] && [ -z "$(ls -A "$fx/etc/pm/opp.d")" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list
	assert_success
	[ -z "$output" ]
	[ "${#stderr_lines[@]}" = 1 ]
	[[ $stderr == "opp-set: no operating points in /etc/pm/opp.d"* ]]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -q
	assert_success
	[ -z "$output" ] && [ -z "$stderr" ]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	jq -e '. == {"points": []}' <<<"$output"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -F kv
	assert_success
	[ -z "$output" ]
}

@test "--list: a missing /etc/pm/opp.d is the empty list" {
	need_no_examples
	fx=$BATS_TEST_TMPDIR/root
	cp -a "$(fixture laptop2006)" "$fx"
	chmod -R u+w "$fx"
	rm -r "$fx/etc/pm/opp.d"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list
	assert_success
	[ -z "$output" ]
	[[ $stderr == "opp-set: no operating points in /etc/pm/opp.d"* ]]
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -q
	[ -z "$output" ] && [ -z "$stderr" ]
	run "$bin/opp-set" --sysroot "$fx" --list -J
	jq -e '.points == []' <<<"$output"
	# No /etc at all, or opp.d a plain file: the same.
	echo x >"$fx/etc/pm/opp.d"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -q
	assert_success
	[ -z "$output" ]
	rm -r "${fx:?}/etc"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -q
	assert_success
	[ -z "$output" ]
}

@test "--list: a point linked outside the system root is read inside it" {
	need_no_examples
	outside=$BATS_TEST_TMPDIR/outside.conf
	printf '[opp]\ndescription = ESCAPED\n' >"$outside"
	fx=$(with_points 'inside.conf=[opp]\ndescription = inside\n')
	ln -s "$outside" "$fx/etc/pm/opp.d/abs.conf"
	ln -s "../../../../../../../../..$outside" "$fx/etc/pm/opp.d/rel.conf"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	[[ $output != *ESCAPED* ]] || fail "read a file outside the root: $output"
	jq -e '[.points[].name] == ["abs", "inside", "rel"]' <<<"$output"
	jq -e '.points[0].error != null and .points[2].error != null' <<<"$output"
	# The same link inside the root is followed there.
	mkdir -p "$fx$(dirname "$outside")"
	printf '[opp]\ndescription = in the root\n' >"$fx$outside"
	run "$bin/opp-set" --sysroot "$fx" --list -J
	jq -e '.points[0].description == "in the root" and .points[2].description == "in the root"' <<<"$output"
}

@test "--list: a hostile description stays inert in kv and escaped in JSON" {
	need_no_examples
	marker=$BATS_TEST_TMPDIR/ran
	desc="\$(touch $marker)'\"\`touch $marker\`\\ "$'\xff\xfe'" end"
	fx=$(with_points)
	printf '[opp]\ndescription = %s\n' "$desc" >"$fx/etc/pm/opp.d/evil.conf"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J
	assert_success
	iconv -f UTF-8 -t UTF-8 <<<"$output" >/dev/null
	# Each byte that begins no UTF-8 sequence is U+FFFD.
	want=${desc/$'\xff\xfe'/$'\xef\xbf\xbd\xef\xbf\xbd'}
	jq -e --arg w "$want" '.points[0].description == $w' <<<"$output"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -F kv
	assert_success
	got=$(sh -c 'eval "$1"; printf "%s" "$point0_description"' sh "$output")
	# The bytes that are not UTF-8 come back in their text form.
	[ "$got" = "${desc/$'\xff\xfe'/'\xff\xfe'}" ] || fail "got: $got"
	[ ! -e "$marker" ]
}

@test "--list --output writes the file atomically" {
	need_no_examples
	fx=$(with_points 'a.conf=[opp]\ndescription = A\n')
	out=$BATS_TEST_TMPDIR/points.json
	echo old >"$out"
	ln "$out" "$BATS_TEST_TMPDIR/link"
	run --separate-stderr "$bin/opp-set" --sysroot "$fx" --list -J -o "$out"
	assert_success
	[ -z "$output" ] && [ -z "$stderr" ]
	[ "$(<"$BATS_TEST_TMPDIR/link")" = old ]
	jq -e '.points[0].name == "a"' "$out"
	[ "$(find "$BATS_TEST_TMPDIR" -name '.points.json.*' | wc -l)" = 0 ]
}

@test "--list: the installed examples, and a name in /etc wins" {
	command -v "${CC:-cc}" >/dev/null || skip "no C compiler to build opp-set with another DATADIR"
	data=$BATS_TEST_TMPDIR/share
	mkdir -p "$data/opp.d" "$BATS_TEST_TMPDIR/b"
	# Only opp-set's own files name the examples' folder: they are
	# linked with the libpm of the build under test (built with it by
	# make check), the ASan build's with ASan.
	local lib=(lib/*.c) san=()
	[ -f "$bin/libpm.a" ] && lib=("$bin/libpm.a")
	case $bin in *asan*) san=("-fsanitize=address,undefined") ;; esac
	(cd "$top" && "${CC:-cc}" -std=gnu11 -D_GNU_SOURCE -Ilib -DPM_DATADIR="\"$data\"" -O0 \
		"${san[@]}" -o "$BATS_TEST_TMPDIR/b/opp-set" cmd/opp-set/*.c "${lib[@]}" -lzstd -lm) ||
		fail "cannot build opp-set"
	printf '[opp]\ndescription = Example quiet\n' >"$data/opp.d/quiet.conf"
	printf '[opp]\ndescription = Example fast\n' >"$data/opp.d/fast.conf"
	printf 'junk\n' >"$data/opp.d/bad.conf"
	fx=$(with_points 'quiet.conf=[opp]\ndescription = Mine\n')
	run --separate-stderr "$BATS_TEST_TMPDIR/b/opp-set" --sysroot "$fx" --list -J
	assert_success
	jq -e --arg d "$data" '[.points[] | [.name, .installed, .file, .description]] == [
		["bad", true, "\($d)/opp.d/bad.conf", null],
		["fast", true, "\($d)/opp.d/fast.conf", "Example fast"],
		["quiet", false, "/etc/pm/opp.d/quiet.conf", "Mine"]]' <<<"$output"
	[[ $stderr == *"$data/opp.d/bad.conf: line 1"* ]]
	# The examples are a real path: never under the system root.
	rm -r "$data/opp.d"
	mkdir -p "$fx$data/opp.d"
	printf '[opp]\ndescription = under the root\n' >"$fx$data/opp.d/x.conf"
	run "$BATS_TEST_TMPDIR/b/opp-set" --sysroot "$fx" --list -J
	jq -e '[.points[].name] == ["quiet"]' <<<"$output"
}

# ============================================================== usage errors

@test "opp-set with no argument is exit 2" {
	bad_input opp-set "$(fixture laptop2006)"
	[ "${stderr_lines[0]}" = "opp-set: name a point (opp-set --list shows them), or give -f FILE or -s SETTING" ]
}

@test "opp-set NAME with --list, a second NAME, -f or -s is exit 2" {
	fx=$(with_points 'quiet.conf=[opp]\ndescription = q\n')
	bad_input opp-set "$fx" --list quiet
	bad_input opp-set "$fx" quiet --list
	bad_input opp-set "$fx" quiet other
	[[ ${stderr_lines[0]} == *"unexpected argument 'other'"* ]]
	bad_input opp-set "$fx" quiet -f /dev/null
	bad_input opp-set "$fx" quiet -s cpufreq.governor=powersave
	bad_input opp-set "$fx" quiet --current
	bad_input opp-set "$fx" --current --auto
}

@test "--list -c 1 is exit 2, and so are --wait and the options of a later version" {
	fixture -v fx laptop2006
	bad_input opp-set "$fx" --list -c 1
	[[ ${stderr_lines[0]} == *"--cpu does not apply to opp-set --list"* ]]
	bad_input opp-set "$fx" --list --cpu all
	bad_input opp-set "$fx" --list --wait
	bad_input opp-set "$fx" --list --wait=3
	for o in "-f /etc/pm/opp.d/x.conf" "-s cpufreq.governor=powersave" "--show quiet" "--diff quiet" \
		"--current" "--save $BATS_TEST_TMPDIR/s.conf" "--auto" "-n"; do
		# shellcheck disable=SC2086
		bad_input opp-set "$fx" --list $o
	done
	[ ! -e "$BATS_TEST_TMPDIR/s.conf" ]
}

@test "--list --format csv and prom are exit 2" {
	fixture -v fx laptop2006
	bad_input opp-set "$fx" --list --format csv
	[[ ${stderr_lines[0]} == *"no csv output"* ]]
	bad_input opp-set "$fx" --list -F prom
	bad_input opp-set "$fx" --list -J -F kv
}

# ======================================================= bad input, changes nothing

@test "bad input: empty strings as the name, the format and the output" {
	fixture -v fx laptop2006
	bad_input opp-set "$fx" ''
	bad_input opp-set "$fx" --list ''
	bad_input opp-set "$fx" --list -F ''
	bad_input opp-set "$fx" --list -o ''
}

@test "bad input: junk, a number that overflows and a name with a slash" {
	fixture -v fx laptop2006
	bad_input opp-set "$fx" 'no such point'
	bad_input opp-set "$fx" 99999999999999999999
	bad_input opp-set "$fx" ../../etc/passwd
	bad_input opp-set "$fx" --list ../../etc/passwd
	bad_input opp-set "$fx" /etc/pm/opp.d/quiet.conf
}

@test "bad input: a 128 KiB name and 1 MB of names" {
	big=$(printf '%*s' 131071 '' | tr ' ' q)
	bad_input opp-set "$(fixture laptop2006)" "$big"
	bad_input opp-set "$(fixture laptop2006)" --list "$big" "$big" "$big" "$big" "$big" "$big" "$big" "$big"
}

@test "bad input: control bytes in the name" {
	fixture -v fx laptop2006
	bad_input opp-set "$fx" $'quiet\x01'
	bad_input opp-set "$fx" $'\x1b[31mred'
	bad_input opp-set "$fx" $'qu\tiet\r'
}

@test "bad input: a newline in the name gives one message line" {
	bad_input opp-set "$(fixture laptop2006)" $'quiet\nopp-set: forged line'
}

@test "bad input: invalid UTF-8 in the name and the format" {
	fixture -v fx laptop2006
	bad_input opp-set "$fx" $'qu\xffiet'
	bad_input opp-set "$fx" --list -F $'\xc3('
}
