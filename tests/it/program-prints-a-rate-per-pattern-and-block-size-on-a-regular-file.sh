#!/usr/bin/env bash
# -p, the demo: for each block size from the erase size down, linear and
# random writes of zeros, ones and 0x5a, and reads, each with a rate.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 32; f=$SHMFILE
run "$FB" -p -e 1M -b 256K "$f"
expect_rc 0
check_program $((1 << 20)) $((256 << 10))
