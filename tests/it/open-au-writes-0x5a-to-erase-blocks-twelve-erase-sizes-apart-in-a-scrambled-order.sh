#!/usr/bin/env bash
# --open-au as the original: its N erase blocks lie 12 erase sizes apart and
# are visited in a pseudo-random (not ascending) order, chunk by chunk; the
# data written is 0x5a.
. "$(dirname "$0")/../lib.sh" || exit 1
M=$((1 << 20))

run "$FB" -O --erasesize=1M --blocksize=256K --open-au-nr=5 "sim:size=256M,trace=$T/trace"
expect_rc 0
awk -v M=$M -v nr=5 '
	$1 != "W" { print "not a write: " $0; exit 1 }
	{ i = int(($2 - 16 * M) / (12 * M)); chunk = $2 - 16 * M - i * 12 * M
	  if ($2 < 16 * M || i >= nr || chunk + $3 > M) { print "write outside the erase blocks: " $0; exit 1 }
	  k = (NR - 1) % nr; if (k == 0) { seen = ""; first_chunk = chunk }
	  if (chunk != first_chunk) { print "erase blocks not written chunk by chunk at " NR ": " $0; exit 1 }
	  if (index(seen, "," i ",")) { print "erase block " i " twice for one chunk: " $0; exit 1 }
	  seen = seen "," i ","; order = order i
	  if (k == nr - 1) { if (order == "01234") asc++; rounds++; order = "" } }
	END { if (rounds != 1 + 2 + 4) { print rounds " rounds of " nr ", want 7"; exit 1 }
	      if (asc == rounds) { print "erase blocks always visited in ascending order"; exit 1 } }
' "$T/trace" || fail "--open-au writes: $(head -n 12 "$T/trace" | tr '\n' ' ')"

# the data: 0x5a in every byte written, on a regular file of random bytes
f=$(random_image card 64M)
run "$FB" -O --erasesize=1M --blocksize=256K --open-au-nr=2 "$f"
expect_rc 0
for at in 16 28; do
	n=$(tail -c +$((at * M + 1)) "$f" | head -c $M | tr -d '\132' | wc -c)
	[ "$n" = 0 ] || fail "erase block at $at MiB holds $n bytes that are not 0x5a"
done
