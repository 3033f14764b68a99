#!/usr/bin/env bash
# -a issues the original's reads: top boundary M = smallest power of two >=
# size/7; for each boundary A (M, 3M/4, M/2, ... down to 2*blocksize) the
# places k*M + A (k = 0..6) modulo the size; per try the "pre" block at all 7
# places, then all 7 "on" (half a block before), then all 7 "post".
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

check_pattern() { # SIZE BS COUNT
	local size=$1 bs=$2 count=$3
	run "$FB" -a --blocksize=$bs --count=$count "sim:size=$size,trace=$T/trace.$size"
	expect_rc 0
	check_align_table "$bs" "$size"
	printf '%s\n' "$out" | awk -v size="$size" -v bs="$bs" -v count="$count" '
		{ print $2 }' >"$T/bounds"
	awk -v size="$size" -v bs="$bs" -v count="$count" '
		BEGIN { top = 1; while (top * 7 < size) top *= 2 }
		NR == FNR {
			a = $1
			for (k = 0; k < 7; k++) {
				p = (k * top + a) % size
				if (p < bs && p + a + bs <= size) p += a
				else if (p + bs > size && p >= a + bs) p -= a
				place[k] = p
			}
			for (t = 0; t < count; t++)
				for (w = 0; w < 3; w++)
					for (k = 0; k < 7; k++)
						want[++n] = "R " (place[k] - bs + w * bs / 2) " " bs
			next
		}
		{ got[++m] = $0 }
		END {
			if (m != n) { print m " reads, want " n; exit 1 }
			for (i = 1; i <= n; i++)
				if (got[i] != want[i]) { print "read " i ": " got[i] ", want " want[i]; exit 1 }
		}' "$T/bounds" "$T/trace.$size" || fail "-a reads on a $size-byte card (bs $bs, count $count)"
}

check_pattern $((16 << 20)) 16384 2	# M = 4 MiB: places wrap, one lands on 0
check_pattern $((60 << 20)) 4096 3	# M = 16 MiB, 60 MiB: wraps off powers of two
check_pattern $((1 << 30)) 65536 1	# M = 256 MiB
[ "$(head -n 1 "$T/bounds")" = $((256 << 20)) ] || fail "top boundary $(head -n 1 "$T/bounds") on 1 GiB, want 256 MiB"
