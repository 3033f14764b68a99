#!/usr/bin/env bash
# -a --count=N times every pre/on/post read N times: three times the count,
# three times the bytes read (-v reports the total), same rows.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 64M)
bytes_read() {
	[[ $errout =~ ([0-9]+)\ bytes\ read ]] || fail "-v printed no 'bytes read': $errout"
	echo "${BASH_REMATCH[1]}"
}
run "$FB" -a -v -c 1 "$f"
expect_rc 0
one=$(bytes_read) rows1=$(printf '%s\n' "$out" | cut -f1)
run "$FB" -a -v --count=3 "$f"
expect_rc 0
three=$(bytes_read) rows3=$(printf '%s\n' "$out" | cut -f1)
[ "$one" -gt 0 ] && [ $((one % (3 * 16384))) = 0 ] || fail "-c 1 read $one bytes: not whole pre/on/post triples of 16 KiB"
[ "$three" = $((3 * one)) ] || fail "-c 3 read $three bytes, want 3 x $one"
[ "$rows1" = "$rows3" ] || fail "rows differ between -c 1 and -c 3"
