#!/usr/bin/env bash
# zram has a 4096-byte logical block size: a 1 KiB -a is refused up front
# (the original printed 0ns for every EINVAL read and exited 0).
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_zram 64M; z=$ZRAM
[ "$(cat /sys/block/zram0/queue/logical_block_size)" = 4096 ] || skip "zram0 block size is not 4096"
run "$FB" -a --blocksize=1024 "$z"
expect_rc 2
[ -z "$out" ] || fail "printed results: $out"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "want one line on stderr: $errout"
expect_err '(--blocksize|-b)'
expect_err '1024|1KiB|1K'
expect_err '4096'

# 4 KiB is a multiple of the block size, but a 4 KiB read cannot straddle a
# boundary there (it would start 2 KiB before it): refused as clearly
run "$FB" -a --blocksize=4096 "$z"
expect_rc 2
[ -z "$out" ] || fail "printed results: $out"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "want one line on stderr: $errout"
expect_err '(--blocksize|-b)=?4096'
expect_err '8192'
