#!/usr/bin/env bash
# A write test on a write-protected device (the kernel may still let it open for
# writing): refused in one line, exit 1, nothing written.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(make_file disk.img 32M)
printf 'keep me' | dd of="$img" bs=1 seek=$((16 << 20)) conv=notrunc status=none
before=$(cksum < "$img")
loop=$(make_loop "$img" -r)

run "$FB" -O "$loop"
expect_rc 1
expect_err "^flashbench: $loop is read-only \(write-protected\); not writing to it$"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "more than one line on stderr: $errout"
[ "$(cksum < "$img")" = "$before" ] || fail "the image changed"
exit 0
