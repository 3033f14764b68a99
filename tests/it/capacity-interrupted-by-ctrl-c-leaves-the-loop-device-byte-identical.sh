#!/usr/bin/env bash
# Ctrl-C in the middle of --capacity (at its second write to the device):
# no verdict, exit 130, and the loop device holds exactly what it held
# before.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image card.img 256M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

at_write 2 INT "$loop" "$FB" --capacity "$loop" >"$T/out" 2>"$T/err"
rc=$?
out=$(cat "$T/out"); errout=$(cat "$T/err")
expect_rc 130
expect_out "^no verdict: interrupted"
expect_out "^data: +every overwritten sector restored and verified"
expect_out "^written: +[1-9][0-9]* bytes"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs after Ctrl-C"
exit 0
