#!/usr/bin/env bash
# -p, the demo: for each block size from the erase size down, linear and
# random writes of zeros, ones and 0x5a, and reads, each with a rate.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

g=$(make_file card2 32M)
use_loop "$g"
run "$FB" --program -e 512K -b 64K "$LOOP"
expect_rc 0
check_program $((512 << 10)) $((64 << 10))
