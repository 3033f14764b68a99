#!/usr/bin/env bash
# -s: 2^order lines "%f\t%f", offset in MiB stepping by span x blocksize,
# minimum read time in ms; on a regular file and a loop device.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

check_scatter() { # LINES STEP_BYTES
	local n=0 line off ms
	while IFS= read -r line; do
		[[ $line =~ ^([0-9]+\.[0-9]{6})$'\t'([0-9]+\.[0-9]{6})$ ]] || fail "not a scatter line: '$line'"
		off=${BASH_REMATCH[1]} ms=${BASH_REMATCH[2]}
		awk -v o="$off" -v w="$((n * $2))" 'BEGIN { exit !(o * 1048576 > w - 1 && o * 1048576 < w + 1) }' ||
			fail "line $n offset $off, want $(($n * $2)) bytes"
		awk -v m="$ms" 'BEGIN { exit !(m > 0 && m < 1000) }' || fail "line $n time $ms ms"
		n=$((n + 1))
	done <<<"$out"
	[ "$n" = "$1" ] || fail "$n lines, want $1"
}

f=$(make_file card 32M)
run "$FB" -s "$f"
expect_rc 0
check_scatter 512 16384

run "$FB" -s --scatter-order=4 --scatter-span=4 -b 8K "$f"
expect_rc 0
check_scatter 16 32768

use_loop "$f"
run "$FB" --scatter --scatter-order=5 "$LOOP"
expect_rc 0
check_scatter 32 16384
