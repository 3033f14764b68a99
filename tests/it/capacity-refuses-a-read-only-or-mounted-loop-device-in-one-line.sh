#!/usr/bin/env bash
# --capacity writes, so it has the guards of every write test: a
# write-protected loop device and one with a mounted filesystem are refused
# in one line, exit 1, nothing written and no verdict printed.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img" -r)

run "$FB" --capacity "$loop"
expect_rc 1
expect_err "^flashbench: $loop is read-only \(write-protected\); not writing to it$"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "more than one line on stderr: $errout"
[ -z "$out" ] || fail "printed a result: $out"
[ "$(cksum < "$img")" = "$before" ] || fail "the image changed"
losetup -d "$loop"

command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
fs=$(make_file fs.img 32M)
mkfs.ext4 -q -F "$fs" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
loop=$(make_loop "$fs")
mkdir "$T/mnt"
mount "$loop" "$T/mnt" 2>/dev/null || skip "cannot mount"
run "$FB" --capacity "$loop"
umount "$T/mnt"
expect_rc 1
expect_err "mounted"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "more than one line on stderr: $errout"
[ -z "$out" ] || fail "printed a result: $out"
exit 0
