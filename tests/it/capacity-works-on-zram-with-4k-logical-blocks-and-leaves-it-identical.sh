#!/usr/bin/env bash
# --capacity on /dev/zram0 (4 KiB logical blocks): labels of one logical
# block, genuine, exact to 4096 bytes, exit 0, and the data is unchanged.
. "$(dirname "$0")/../lib.sh"
dev=$(make_zram 64M)
head -c 64M /dev/urandom > "$dev" || skip "cannot fill $dev"
before=$(cksum < "$dev")

run "$FB" --capacity "$dev"
expect_rc 0
expect_out "^genuine: stores all of its advertised 64MiB$"
expect_out "^real size: +67108864 bytes \\(64MiB\\), exact to 4096 bytes$"
[ "$(cksum < "$dev")" = "$before" ] || fail "$dev differs after --capacity"
exit 0
