#!/usr/bin/env bash
# -O on a loop device, linear and --random, with more erase blocks open.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 64M)
use_loop "$f"
run "$FB" -O -e 1M -b 32K --open-au-nr=3 "$LOOP"
expect_rc 0
check_rate_table $((1 << 20)) $((32 << 10)) 1

run "$FB" -O -r -e 1M -b 32K "$LOOP"
expect_rc 0
check_rate_table $((1 << 20)) $((32 << 10)) 1
