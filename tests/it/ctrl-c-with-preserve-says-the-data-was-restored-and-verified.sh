#!/usr/bin/env bash
# Ctrl-C during a write test with --preserve: once the saved data is written
# back and verified, one line says so (the file is as before, exit 130).
# The signal comes at the test's third write (its save is done by then).
. "$(dirname "$0")/../lib.sh"
img=$(random_image disk.img 32M)
odirect_works "$img" || skip "O_DIRECT does not work on $(dirname "$img")"
before=$(cksum <"$img")
at_write 3 INT "$img" "$FB" -O --preserve -b 4K "$img" >"$T/out" 2>"$T/err"
rc=$?
errout=$(cat "$T/err")
expect_rc 130
[ "$(cksum <"$img")" = "$before" ] || fail "the file differs from before"
[ "$(grep -c 'restored and verified' "$T/err")" = 1 ] ||
	fail "not one line saying the data was restored and verified: $errout"
expect_err "^flashbench: $img: interrupted; what the test overwrote is restored and verified$"
exit 0
