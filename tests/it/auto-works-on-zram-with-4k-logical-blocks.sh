#!/usr/bin/env bash
# --auto on /dev/zram0 (4 KiB logical blocks): the alignment sweep picks a
# block size the device accepts (two logical blocks), reports, exits 0.
. "$(dirname "$0")/../lib.sh"
dev=$(make_zram 64M)

run "$FB" --auto "$dev"
expect_rc 0
expect_out "logical block size: +4096"
expect_out "^\\\$ flashbench -a $dev --blocksize=8192 "
expect_out "^align [0-9]+	pre "
expect_out "^  erase block size "
