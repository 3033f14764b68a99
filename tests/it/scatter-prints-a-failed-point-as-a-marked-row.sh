#!/usr/bin/env bash
# -s on a card with an unreadable spot: the failed point is printed as a row
# marked "read failed" at its offset (as -a and -i mark theirs), never dropped
# and never with a time; every other point keeps its row; exit 1.
. "$(dirname "$0")/../lib.sh"
dev="sim:size=256M,erasesize=4M,fail-at=2097152"

run "$FB" -s "$dev"
expect_rc 1
expect_err "read failed at offset 2097152"
expect_err "marked 'failed'"
expect_out "^2\.000000	read failed$"
[ "$(printf '%s\n' "$out" | wc -l)" = 512 ] || fail "want 512 rows (2^9 points), got $(printf '%s\n' "$out" | wc -l)"
bad=$(printf '%s\n' "$out" | grep -vcE '^[0-9]+\.[0-9]{6}	([0-9]+\.[0-9]{6}|read failed)$')
[ "$bad" = 0 ] || fail "$bad malformed rows"
[ "$(printf '%s\n' "$out" | grep -c failed)" = 1 ] || fail "not exactly one failed row"
exit 0
