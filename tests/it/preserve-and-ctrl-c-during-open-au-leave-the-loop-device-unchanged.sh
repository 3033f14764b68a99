#!/usr/bin/env bash
# --preserve, then Ctrl-C in the middle of -O (at its third write: the first
# row, 4MiB chunks to two erase blocks, is done): the current I/O finishes,
# the partial results are printed, the saved data is written back, exit
# 130, and the device holds exactly what it held before.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

at_write 3 INT "$loop" "$FB" -O --preserve -b 4K "$loop" >"$T/out" 2>"$T/err"
rc=$?
out=$(cat "$T/out"); errout=$(cat "$T/err")
expect_rc 130
expect_out "^4MiB +[0-9.]+[KMG]?/s"
printf '%s\n%s\n' "$out" "$errout" | grep -qi partial || fail "results not marked partial: $out $errout"
[ "$(printf '%s\n' "$out" | grep -c /s)" -lt 11 ] || fail "all rows printed: not interrupted"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs from before"
exit 0
