#!/usr/bin/env bash
# -p, the demo: for each block size from the erase size down, linear and
# random writes of zeros, ones and 0x5a, and reads, each with a rate.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

check_program() { # ERASE BLOCK
	local -a sizes
	mapfile -t sizes < <(halving_sizes "$1" "$2")
	local s kind order
	for s in "${sizes[@]}"; do
		for kind in "write zeros" "write ones" "write 0x5a" "read"; do
			for order in linear random; do
				[ "$(printf '%s\n' "$out" | grep -cE "^$kind $order +$s +$RATE_RE +\$")" = 1 ] ||
					fail "no single '$kind $order' line for $s: $out"
			done
		done
	done
	[ "$(printf '%s\n' "$out" | wc -l)" = $((8 * ${#sizes[@]})) ] || fail "extra lines: $out"
}

g=$(make_file card2 32M)
use_loop "$g"
run "$FB" --program -e 512K -b 64K "$LOOP"
expect_rc 0
check_program $((512 << 10)) $((64 << 10))
