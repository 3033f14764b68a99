#!/usr/bin/env bash
# -a on a loop device attached read-only (losetup -r), like a write-protected card.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 64M)
use_loop "$f" -r; loop=$LOOP
[ "$(blockdev --getro "$loop")" = 1 ] || fail "$loop is not read-only"
run "$FB" -a -c 2 "$loop"
expect_rc 0
check_align_table 16384 $((64 << 20))
