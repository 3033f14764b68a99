#!/usr/bin/env bash
# -i --interval-order=N: a line per size 512*2^i, a regression line, then the
# per-size overhead lines.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

check_interval() { # ORDER
	local -a lines
	mapfile -t lines <<<"$out"
	local n=0 i line
	while [[ ${lines[n]:-} =~ ^([0-9]+)\ bytes:\ min\ ($TIME_RE)\ avg\ ($TIME_RE)\ max\ ($TIME_RE):\ [0-9.e+]+\ MB/s$ ]]; do
		[ "${BASH_REMATCH[1]}" = $((512 << n)) ] || fail "row $n is ${BASH_REMATCH[1]} bytes, want $((512 << n))"
		n=$((n + 1))
	done
	[ "$n" -ge "$1" ] && [ "$n" -le $(($1 + 1)) ] || fail "$n size rows for order $1: $out"
	[[ ${lines[n]:-} =~ ^[0-9.e+]+\ MB/s,\ $TIME_RE\ access\ time$ ]] || fail "no fit line after the rows: ${lines[n]:-}"
	for ((i = 0; i < n; i++)); do
		line=${lines[n + 1 + i]:-}
		[[ $line =~ ^bytes\ $((512 << i)),\ time\ [0-9]+\ overhead\ -?[0-9.e+-]+$ ]] || fail "overhead line $i: '$line'"
	done
	[ ${#lines[@]} = $((2 * n + 1)) ] || fail "${#lines[@]} lines, want $((2 * n + 1))"
}

# sizes up to 64 KiB and more, so transfer time outweighs noise and the fit
# has a positive slope (the tool prints no fit line otherwise)
f=$(make_file card 16M)
run "$FB" -i --interval-order=8 "$f"
expect_rc 0
check_interval 8
