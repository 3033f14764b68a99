#!/usr/bin/env bash
# No compiled unit needs its own users: in the graph "unit A uses a symbol
# unit B defines" (read from the objects with nm) there is no cycle. And the
# checker (tests/unit_cycles.py) sees one: two objects built here that call
# each other, and three in a ring.
. "$(dirname "$0")/../lib.sh"
need_tool python3
need_tool nm
need_tool cc
CYCLES=$TESTS_DIR/unit_cycles.py
objs=$(cd "${UNIT_DIR:?set UNIT_DIR to the unit test binaries}/.." && pwd)

run python3 "$CYCLES" "$objs"
[ "$rc" = 0 ] || fail "units that need each other:"$'\n'"$out"
printf '%s\n' "$out" | tail -n 1 | grep -qE '^[1-9][0-9]+ units, 0 cycles$' ||
	fail "did not read the project's objects in $objs: $out"

# unit NAME DEFINES USES...: an object defining function DEFINES and calling USES
unit() {
	local f=$T/$1.c u
	{ for u in "${@:3}"; do echo "void $u(void);"; done
	  echo "void $2(void) {"; for u in "${@:3}"; do echo "  $u();"; done; echo "}"; } > "$f"
	cc -c -o "$T/$1.o" "$f" || fail "cannot compile $f"
}
mkdir "$T/two" "$T/ring"
unit two/a a_fn b_fn; unit two/b b_fn a_fn; unit two/c c_fn a_fn
run python3 "$CYCLES" "$T/two/a.o" "$T/two/b.o" "$T/two/c.o"
[ "$rc" = 1 ] || fail "two units calling each other: exit $rc, want 1: $out"
printf '%s\n' "$out" | grep -q '^cycle: a.o b.o$' || fail "the cycle a.o b.o is not named: $out"
printf '%s\n' "$out" | grep -q 'c.o' && fail "c.o only uses the cycle and is not in it: $out"
unit ring/x x_fn y_fn; unit ring/y y_fn z_fn; unit ring/z z_fn x_fn
run python3 "$CYCLES" "$T/ring"
[ "$rc" = 1 ] && printf '%s\n' "$out" | grep -q '^cycle: x.o y.o z.o$' ||
	fail "a ring of three is not found: exit $rc: $out"
exit 0
