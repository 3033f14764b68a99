#!/usr/bin/env bash
# --preserve --backup=FILE has the saved spans on disk before the first
# overwrite; when flashbench is killed mid-test, `--restore FILE DEV` puts them back.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

backup_of_killed_run "$loop" "$T/saved"
[ "$(cksum < "$img")" != "$before" ] || fail "nothing was overwritten: the test proves nothing"
head -n 1 "$T/saved" | grep -qx "flashbench-backup 2" || fail "no backup header in $T/saved"

run "$FB" --restore "$T/saved" "$loop"
expect_rc 0
# -O writes two 4 MiB erase blocks, apart as far as 32 MiB allows
expect_out "^restored 8388608 bytes in 2 spans to $loop, verified$"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs from before"
exit 0
