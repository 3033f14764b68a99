#!/usr/bin/env bash
# -s: 2^order lines "%f\t%f", offset in MiB stepping by span x blocksize,
# minimum read time in ms.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 32M)
run "$FB" -s "$f"
expect_rc 0
check_scatter 512 16384

run "$FB" -s --scatter-order=4 --scatter-span=4 -b 8K "$f"
expect_rc 0
check_scatter 16 8192	# x: j * blocksize, whatever the span (the original's)
