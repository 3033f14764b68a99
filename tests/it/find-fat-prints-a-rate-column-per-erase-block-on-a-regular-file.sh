#!/usr/bin/env bash
# -f: one line per block size, one rate column per erase block (--fat-nr,
# default 6), fields padded to 7 bytes plus a space.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 32; f=$SHMFILE
run "$FB" -f -e 1M -b 128K "$f"
expect_rc 0
check_rate_table $((1 << 20)) $((128 << 10)) 6 2

run "$FB" --find-fat --fat-nr=3 -e 2M -b 512K "$f"
expect_rc 0
check_rate_table $((2 << 20)) $((512 << 10)) 3 2
