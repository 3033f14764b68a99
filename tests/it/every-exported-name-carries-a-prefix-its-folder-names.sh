#!/usr/bin/env bash
# Every name a compiled unit exports starts with a prefix its folder's
# README names on its "Names:" line (tests/exported_names.py reads the
# objects with nm). And the checker sees a stray name: an object exporting
# one its folder does not name fails, a folder without a Names: line too.
. "$(dirname "$0")/../lib.sh"
need_tool python3
need_tool nm
need_tool cc
NAMES=$TESTS_DIR/exported_names.py
objs=$(cd "${UNIT_DIR:?set UNIT_DIR to the unit test binaries}/.." && pwd)
src=$(cd "$TESTS_DIR/.." && pwd)

run python3 "$NAMES" "$src" "$objs"
[ "$rc" = 0 ] || fail "names without their folder's prefix:"$'\n'"$out"
printf '%s\n' "$out" | tail -n 1 | grep -qE '^[1-9][0-9]+ units, [1-9][0-9]+ names, 0 without their prefix$' ||
	fail "did not read the project's objects in $objs: $out"

# a made-up tree: folder lib/ names lib_ and the exact name warn_once
mkdir -p "$T/src/lib" "$T/build/lib" "$T/build/tests"
printf 'lib/\n\nOwns: x\n\nNames: lib_ (all), warn_once\n' > "$T/src/lib/README"
unit() { local c=$T/$(echo "$1" | tr / -).c; printf '%s\n' "$2" > "$c"; cc -c -o "$T/build/$1.o" "$c" || fail "cannot compile $1"; }
unit lib/good 'int lib_a(void) { return 1; } int warn_once(void) { return 2; } static int helper(void) { return 3; } int lib_b(void) { return helper(); }'
unit tests/any 'int whatever(void) { return 0; }'
run python3 "$NAMES" "$T/src" "$T/build"
[ "$rc" = 0 ] || fail "a folder's own prefix and exact name refused: exit $rc: $out"
unit lib/stray 'int median(void) { return 1; }'
run python3 "$NAMES" "$T/src" "$T/build"
[ "$rc" = 1 ] || fail "a stray exported name passed: exit $rc: $out"
printf '%s\n' "$out" | grep -q '^lib/stray.o: median carries none of: lib_ warn_once$' ||
	fail "the stray name is not named: $out"
printf '%s\n' "$out" | grep -q 'whatever' && fail "a test program's names were checked: $out"
mkdir -p "$T/build/auto"; unit auto/x 'int auto_x(void) { return 1; }'; rm "$T/build/lib/stray.o"
run python3 "$NAMES" "$T/src" "$T/build"
[ "$rc" = 2 ] || fail "a folder without a README's Names: line passed: exit $rc: $out"
exit 0
