#!/usr/bin/env bash
# -V and --version print "flashbench <version>" and exit 0.
. "$(dirname "$0")/../lib.sh" || exit 1

want=$(sed -n 's/^VERSION *:= *//p' "$TESTS_DIR/../Makefile")
[ -n "$want" ] || fail "no VERSION in the Makefile"
for v in -V --version; do
	run "$FB" "$v"
	expect_rc 0
	[ "$out" = "flashbench $want" ] || fail "$v printed '$out', want 'flashbench $want'"
done
