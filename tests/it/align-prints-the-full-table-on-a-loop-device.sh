#!/usr/bin/env bash
# -a on a loop device over a temp file: the full table, as on a card.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 96M)
use_loop "$f"; loop=$LOOP
run "$FB" -a "$loop"
expect_rc 0
check_align_table 16384 $((96 << 20))

run "$FB" -a -b 8K -c 2 "$loop"
expect_rc 0
check_align_table 8192 $((96 << 20))
