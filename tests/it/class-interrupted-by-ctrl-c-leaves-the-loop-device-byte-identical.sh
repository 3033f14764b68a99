#!/usr/bin/env bash
# Ctrl-C in the middle of --class (at its second write to the device): no
# verdict, exit 130, and the loop device holds exactly what it held before.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image card.img 256M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

at_write 2 INT "$loop" "$FB" --class --claim=C10,A2 --erasesize=4M "$loop" >"$T/out" 2>"$T/err"
rc=$?
out=$(cat "$T/out"); errout=$(cat "$T/err")
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs (exit $rc)"
expect_rc 130
expect_out "^no verdict: interrupted$"
expect_out "^data: +every overwritten byte restored and verified$"
exit 0
