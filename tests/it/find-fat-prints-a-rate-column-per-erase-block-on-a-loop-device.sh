#!/usr/bin/env bash
# -f on a loop device, with the defaults (4 MiB, 16 KiB, 6 columns).
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 32; f=$SHMFILE
use_loop "$f"
run "$FB" -f "$LOOP"
expect_rc 0
check_rate_table $((4 << 20)) $((16 << 10)) 6
