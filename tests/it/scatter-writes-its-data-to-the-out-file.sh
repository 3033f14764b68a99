#!/usr/bin/env bash
# -s -o FILE: the gnuplot data goes to FILE, nothing to standard output.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 16M)
run "$FB" -s --scatter-order=3 -o "$T/scatter.dat" "$f"
expect_rc 0
[ -z "$out" ] || fail "stdout not empty: $out"
[ "$(wc -l <"$T/scatter.dat")" = 8 ] || fail "want 8 lines in the out file: $(cat "$T/scatter.dat")"
grep -qvP '^\d+\.\d{6}\t\d+\.\d{6}$' "$T/scatter.dat" && fail "bad line in out file: $(cat "$T/scatter.dat")"
exit 0
