#!/usr/bin/env bash
# --open-au with the defaults on a regular file: one "<size> <rate>" line per
# block size from 4MiB down to 16KiB, each field padded to 7 bytes plus a space.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 64; f=$SHMFILE
run "$FB" --open-au "$f"
expect_rc 0
check_rate_table $((4 << 20)) $((16 << 10)) 1
[[ $out == "4MiB    "* ]] || fail "first line does not start '4MiB    ': $out"
