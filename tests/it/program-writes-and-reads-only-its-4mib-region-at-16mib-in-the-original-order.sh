#!/usr/bin/env bash
# -p's I/O as the original's: per chunk size (2MiB down to 512B) eight sweeps
# over the 4 MiB region at 16 MiB (never below it without --offset): three
# linear writes, a linear read, three writes in a scrambled order, a read in
# that order; the last data written is 0x5a.
. "$(dirname "$0")/../lib.sh" || exit 1
M=$((1 << 20))

run "$FB" -p "sim:size=64M,trace=$T/trace"
expect_rc 0
awk -v M=$M '
	$2 < 16 * M || $2 + $3 > 20 * M { print "outside the region: " $0; exit 1 }
	{ if ($3 != size) { if (size && k != 8) { print "size " size ": " k " sweeps"; exit 1 }
	                    size = $3; k = 0; i = 0 }
	  per = 4 * M / size; want = (k == 3 || k == 7) ? "R" : "W"
	  if ($1 != want) { print "sweep " k " of " size ": " $0 ", want " want; exit 1 }
	  if (k < 4 && $2 != 16 * M + i * size) { print "not linear: " $0; exit 1 }
	  if (k >= 4 && $2 != 16 * M + i * size) scrambled[size] = 1
	  if (++i == per) { i = 0; k++ }
	  sizes[size] = 1 }
	END { n = 0; for (s in sizes) { n++; if (!scrambled[s] && s < 4 * M / 2) { print "size " s " never scrambled"; exit 1 } }
	      if (n != 13 || !sizes[512] || !sizes[2 * M]) { print n " chunk sizes"; exit 1 } }
' "$T/trace" || fail "-p I/O: $(head -n 4 "$T/trace" | tr '\n' ' ')"

f=$(random_image card 32M)
cp "$f" "$T/orig"
run "$FB" -p "$f"
expect_rc 0
cmp -s -n $((16 * M)) "$f" "$T/orig" || fail "-p changed bytes below 16 MiB"
cmp -s -i $((20 * M)):$((20 * M)) "$f" "$T/orig" || fail "-p changed bytes after 20 MiB"
n=$(tail -c +$((16 * M + 1)) "$f" | head -c $((4 * M)) | tr -d '\132' | wc -c)
[ "$n" = 0 ] || fail "the region holds $n bytes that are not 0x5a"
