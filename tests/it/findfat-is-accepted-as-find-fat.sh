#!/usr/bin/env bash
# --findfat, as typed in older posts, runs --find-fat.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 16; f=$SHMFILE
run "$FB" --findfat --fat-nr=2 -e 1M -b 256K "$f"
expect_rc 0
check_rate_table $((1 << 20)) $((256 << 10)) 2 2
