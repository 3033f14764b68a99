#!/usr/bin/env bash
# -s as the original: the places j*blocksize (j < 2^order), each pass (one per
# --count) visits every place once in the original's pseudo-random order,
# which starts at place 0; every read is --scatter-span blocks long; the x
# column is j*blocksize in MiB; --offset has no effect, as in the original,
# and says so.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

run "$FB" -s --scatter-order=5 --scatter-span=3 --count=2 -b 4K "sim:size=64M,trace=$T/trace"
expect_rc 0
check_scatter 32 4096
awk -v bs=4096 -v n=32 -v span=3 '
	$1 != "R" || $3 != span * bs || $2 % bs || $2 / bs >= n { print "bad read: " $0; exit 1 }
	{ pass = int((NR - 1) / n); j = $2 / bs
	  if (seen[pass, j]++) { print "place " j " twice in pass " pass; exit 1 }
	  if (NR <= n) order = order " " j; else other = other " " j
	  if (NR <= n && j != NR - 1) scrambled = 1
	  if ((NR - 1) % n == 0 && j != 0) { print "pass " pass " starts at place " j ", not 0"; exit 1 } }
	END { if (NR != 2 * n) { print NR " reads, want " 2 * n; exit 1 }
	      if (!scrambled) { print "places read in ascending order"; exit 1 } }
' "$T/trace" || fail "-s reads: $(head -n 8 "$T/trace" | tr '\n' ' ')"

run "$FB" -s --offset=1M --scatter-order=5 --count=2 -b 4K "sim:size=64M,trace=$T/trace2"
expect_rc 0
[ "$errout" = "flashbench: --offset=1M: no effect on --scatter (accepted, as the original did)" ] ||
	fail "-s --offset: stderr '$errout'"
awk '{ print $1, $2, $3 / 3 }' "$T/trace" | cmp -s - "$T/trace2" || fail "-s --offset read elsewhere: $(head -n 3 "$T/trace2" | tr '\n' ' ')"
