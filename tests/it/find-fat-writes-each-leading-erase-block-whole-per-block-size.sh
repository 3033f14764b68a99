#!/usr/bin/env bash
# --find-fat's I/O: for each block size from the erase size halving down, each
# of the first --fat-nr erase blocks from offset 0 in turn gets one erase
# block's worth of writes in chunks of that size (in order; all chunks,
# scrambled, with --random).
. "$(dirname "$0")/../lib.sh" || exit 1
M=$((1 << 20))

check() { # RANDOM(0|1) OPTIONS...
	local random=$1; shift
	: >"$T/trace"
	run "$FB" --find-fat --fat-nr=3 --erasesize=1M --blocksize=256K "$@" "sim:size=256M,trace=$T/trace"
	expect_rc 0
	awk -v M=$M -v nr=3 -v random="$random" '
		$1 != "W" { print "not a write: " $0; exit 1 }
		{ if (!size || (i == 0 && eb == 0 && $3 != size)) { size = $3 }
		  if ($3 != size) { print "chunk " $3 " in the " size " row"; exit 1 }
		  per = M / size
		  if (int($2 / M) != eb) { print "write " $0 " not in erase block " eb; exit 1 }
		  c = ($2 - eb * M) / size
		  if (seen[size, eb, c]++) { print "chunk twice: " $0; exit 1 }
		  if (!random && c != i) { print "not in order: " $0; exit 1 }
		  if (c != i) scrambled = 1
		  if (++i == per) { i = 0; if (++eb == nr) { eb = 0; rows++; size = size / 2 } } }
		END { if (rows != 3) { print rows " rows, want 3"; exit 1 }
		      if (random && !scrambled) { print "--random wrote in order"; exit 1 } }
	' "$T/trace" || fail "--find-fat $*: $(head -n 6 "$T/trace" | tr '\n' ' ')"
}

check 0
check 1 --random
