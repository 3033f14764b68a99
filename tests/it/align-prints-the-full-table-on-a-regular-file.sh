#!/usr/bin/env bash
# -a on a regular file: one tab-separated row per boundary, 2^n and
# 3*2^(n-1) descending down to 2 x blocksize.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 64M)
run "$FB" -a "$f"
expect_rc 0
check_align_table 16384 $((64 << 20))

run "$FB" -a --blocksize=4k --count=2 "$f"
expect_rc 0
check_align_table 4096 $((64 << 20))
