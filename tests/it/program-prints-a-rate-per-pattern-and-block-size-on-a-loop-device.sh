#!/usr/bin/env bash
# -p, the original's demo: one line per chunk size from 2MiB down to 512B, each
# with 8 unlabelled rates (linear writes of zeros, ones, 0x5a, linear reads,
# then the same in random order).
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

g=$(make_file card2 32M)
use_loop "$g"
run "$FB" --program "$LOOP"
expect_rc 0
check_program
