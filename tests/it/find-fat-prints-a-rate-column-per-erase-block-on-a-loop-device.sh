#!/usr/bin/env bash
# -f on a loop device: 6 rate columns (the default --fat-nr).
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 32M)
use_loop "$f"
run "$FB" -f -e 1M -b 128K "$LOOP"
expect_rc 0
check_rate_table $((1 << 20)) $((128 << 10)) 6 2
