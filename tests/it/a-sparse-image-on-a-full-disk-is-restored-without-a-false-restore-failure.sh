#!/usr/bin/env bash
# -O --preserve on a loop device over a sparse image whose filesystem is
# full: the test's writes into the holes fail (and are reported), and
# writing the saved zeros back into those holes fails the same way, though
# the device reads back exactly as saved. That is a restore, not "restore
# failed" with a rescue file: exit 1 for the test's I/O error only, the
# image unchanged.
. "$(dirname "$0")/../lib.sh"
need_root
mkdir "$T/small"
mount -t tmpfs -o size=8M tmpfs "$T/small" || skip "cannot mount a tmpfs"
trap 'losetup -j "$T/small/sparse.img" -O NAME -n 2>/dev/null | xargs -r losetup -d; umount "$T/small" 2>/dev/null; _cleanup' EXIT
img="$T/small/sparse.img"
truncate -s 32M "$img"
head -c 4M /dev/urandom | dd of="$img" bs=1M seek=16 conv=notrunc status=none
head -c 16M /dev/zero > "$T/small/filler" 2>/dev/null	# the disk is full now
before=$(cksum < "$img")
loop=$(losetup -f --show "$img") || skip "no free loop device"

TMPDIR=$T run "$FB" -O --preserve "$loop"
expect_rc 1
expect_err "write failed at offset [0-9]+ .*No space left on device"
printf '%s\n' "$errout" | grep -q -- "--preserve:" && fail "a false restore failure: $errout"
ls "$T"/flashbench-rescue-* >/dev/null 2>&1 && fail "a rescue file for data that is in place"
[ "$(cksum < "$img")" = "$before" ] || fail "the image differs from before"
exit 0
