#!/usr/bin/env bash
# --class on a loop device over a file of random bytes, with A2 claimed (so
# 4 KiB random writes one at a time and queued, through AIO): a verdict,
# and afterwards the file is byte for byte what it was; it said up front
# how much it would write, and the kernel counted at least that written.
# With --backup=FILE the saved area goes to the file, which is removed once
# restored and verified.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image card.img 256M)
before=$(cksum < "$img")
loop=$(make_loop "$img")
w0=$(sectors_written "$loop")

run "$FB" --class --claim=C10,A2 --erasesize=4M "$loop"
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "exit $rc: $errout"
expect_out "^(met|short|unknown): "
expect_out "^data: +every overwritten byte restored and verified$"
expect_err "^flashbench: $loop: --class writes at most 80MiB: 64MiB from offset 64MiB in 16 erase blocks of 4MiB \(--erasesize\)"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs after --class"
written=$((($(sectors_written "$loop") - w0) * 512))
[ "$written" -ge $((64 << 20)) ] || fail "the kernel counted only $written bytes written"

run "$FB" --class --claim=C4 --erasesize=4M --backup="$T/area.bak" "$loop"
[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "--backup: exit $rc: $errout"
expect_out "^data: +every overwritten byte restored and verified$"
[ ! -e "$T/area.bak" ] || fail "the backup file stayed after a verified restore"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs after --class --backup"
exit 0
