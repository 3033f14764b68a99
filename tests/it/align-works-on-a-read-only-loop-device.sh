#!/usr/bin/env bash
# Read-only tests open O_RDONLY: -a works on `losetup -r` (a write-protected card).
. "$(dirname "$0")/../lib.sh"
need_root
img=$(make_file disk.img 64M)
loop=$(make_loop "$img" -r)
[ "$(blockdev --getro "$loop")" = 1 ] || fail "$loop is not read-only"

run "$FB" -a -c 2 "$loop"
expect_rc 0
# the top boundary: the smallest power of two >= size/7 (64 MiB: 16 MiB)
expect_out "^align 16777216	pre [0-9.]+[mµn]?s	on "
expect_out "^align 32768	pre "
[ -z "$errout" ] || fail "stderr: $errout"
exit 0
