#!/usr/bin/env bash
# -a issues the original's reads: top boundary M = twice the block size,
# doubled while below size/7; for each boundary A (M, 3M/4, M/2, ... down to
# 2*blocksize) the places k*M + A (k = 0..6); per try the "pre" block at all
# 7 places, then all 7 "on" (half a block before), then all 7 "post", each
# modulo the size, a read across the end continuing at offset 0.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

check_pattern() { # SIZE BS COUNT [SIM-KEYS]
	local size=$1 bs=$2 count=$3 keys=${4:+,$4}
	run "$FB" -a --blocksize=$bs --count=$count "sim:size=$size$keys,trace=$T/trace.$size.$bs"
	expect_rc 0
	check_align_table "$bs" "$size"
	printf '%s\n' "$out" | awk -v size="$size" -v bs="$bs" -v count="$count" '
		{ print $2 }' >"$T/bounds"
	awk -v size="$size" -v bs="$bs" -v count="$count" '
		BEGIN { top = 2 * bs; while (top < int(size / 7)) top *= 2 }
		NR == FNR {
			a = $1
			for (t = 0; t < count; t++)
				for (w = 0; w < 3; w++)
					for (k = 0; k < 7; k++) {
						o = (k * top + a - bs + w * bs / 2) % size
						if (o + bs <= size) { want[++n] = "R " o " " bs; continue }
						want[++n] = "R " o " " (size - o)
						want[++n] = "R 0 " (o + bs - size)
					}
			next
		}
		{ got[++m] = $0 }
		END {
			if (m != n) { print m " reads, want " n; exit 1 }
			for (i = 1; i <= n; i++)
				if (got[i] != want[i]) { print "read " i ": " got[i] ", want " want[i]; exit 1 }
		}' "$T/bounds" "$T/trace.$size.$bs" || fail "-a reads on a $size-byte card (bs $bs, count $count)"
}

check_pattern $((16 << 20)) 16384 2	# M = 4 MiB: places wrap, one lands on 0
check_pattern $((60 << 20)) 4096 3	# M = 16 MiB, 60 MiB: wraps off powers of two
check_pattern $((1 << 30)) 65536 1	# M = 256 MiB
[ "$(head -n 1 "$T/bounds")" = $((256 << 20)) ] || fail "top boundary $(head -n 1 "$T/bounds") on 1 GiB, want 256 MiB"
check_pattern 102400 16384 1 erasesize=32K	# size/7 below two blocks: one row, reads across the end
check_pattern $((64 << 20)) $((4 << 20)) 1	# an "on" read across the end at 62 MiB
check_pattern $((64 << 20)) 24576 1	# not a power of two: rows 2 * 24576 * 2^k only
[ "$(head -n 1 "$T/bounds")" = $((12 << 20)) ] || fail "top boundary $(head -n 1 "$T/bounds") for 24KiB blocks, want 12 MiB"
