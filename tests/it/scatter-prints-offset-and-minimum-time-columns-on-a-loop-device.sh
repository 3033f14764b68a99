#!/usr/bin/env bash
# -s: 2^order lines "%f\t%f", offset in MiB stepping by span x blocksize,
# minimum read time in ms.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 32M)
use_loop "$f"
run "$FB" --scatter --scatter-order=5 "$LOOP"
expect_rc 0
check_scatter 32 16384
