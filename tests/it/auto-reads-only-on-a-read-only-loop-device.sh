#!/usr/bin/env bash
# --auto without --destructive works on a read-only loop device (it opens the
# device read-only): identity, alignment verdict and advice, exit 0.
. "$(dirname "$0")/../lib.sh"
need_root
f=$(make_file card.img 256M)
dd if=/dev/urandom of="$f" bs=1M count=4 conv=notrunc status=none
sum=$(md5sum < "$f")
loop=$(make_loop "$f" -r)

run "$FB" --auto "$loop"
expect_rc 0
expect_out "^\\\$ .*flashbench --auto $loop\$"
expect_out "size: +268435456"
expect_out "^  erase block size "
expect_out "sudo sfdisk /dev/sdX\$"
expect_out "^align [0-9]+	pre "
[ "$(md5sum < "$f")" = "$sum" ] || fail "the image changed"
