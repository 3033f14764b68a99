#!/usr/bin/env bash
# --capacity on a sparse image file whose file system fills up during the
# check (a 64MiB image on an 8MiB tmpfs): the writes that fail with ENOSPC
# are the host's, not the image's: no verdict, the cause named (exit 1),
# never "damaged" with a real size (it used to say "damaged: ... stores
# 7MiB"), also as --auto --destructive's first step; the image holds what it
# held before.
. "$(dirname "$0")/../lib.sh"
need_root
mkdir "$T/small"
mount -t tmpfs -o size=8M tmpfs "$T/small" || skip "cannot mount a tmpfs"
trap 'umount "$T/small" 2>/dev/null; _cleanup' EXIT
img="$T/small/sparse.img"
truncate -s 64M "$img"
head -c 1M /dev/urandom | dd of="$img" bs=1M seek=2 conv=notrunc status=none
before=$(cksum < "$img")

run "$FB" --capacity "$img"
expect_rc 1
expect_out "^no verdict: $img: writing at offset [0-9]+: No space left on device: the file system holding the image failed"
expect_out "^verdict: +unknown"
printf '%s\n' "$out" | grep -qE "damaged|counterfeit|real size" && fail "a verdict from the host's error: $out"
run "$FB" --capacity --json "$img"
expect_rc 1
expect_out '"verdict": "unknown"'
# --auto --destructive, whose capacity check comes first, stops there and says why
run "$FB" --auto --destructive --max-write=100M "$img"
expect_rc 1
expect_err "capacity check: $img: writing at offset [0-9]+: No space left on device"
[ "$(cksum < "$img")" = "$before" ] || fail "the image differs from before"
exit 0
