#!/usr/bin/env bash
# Cards with a pseudo-SLC write cache (sim:a2-64g, sim:tlc-32g; doc/card-facts.md, "Cards as
# they are made today"), read with the original's own command lines: an --open-au run that fits
# in the cache shows no collapse at any N (its rows are those of N=1); one that crosses the
# cache's end falls off a cliff to the native rate and stays there, rows not halving; past the
# cache and past the open limit it collapses, halving; a --find-fat run has equal columns inside
# the cache and a third of the rate past it. The -a step is visible (the cache is for writes).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sim_rows.bash"

a2() { run "$FB" -O -e 24M -b 8K --open-au-nr="$1" ${2:+"$2"} sim:a2-64g; expect_rc 0; rates; }
one=$(a2 1)
[ "$(printf '%s\n' "$one" | wc -l)" = 12 ] || fail "a2-64g N=1: not 12 rows: $one"
for n in 2 3; do	# 2 and 3 x 24MiB x 12 rows: inside the 1GiB cache
	[ "$(a2 $n)" = "$one" ] || fail "a2-64g N=$n inside the cache differs from N=1: $(a2 $n)"
	[ "$(a2 $n --random)" = "$one" ] || fail "a2-64g random N=$n inside the cache differs from N=1"
done
# N=8 (its limit) crosses the cache's end in the 768KiB row: the cliff, then native rates
cliff=$(a2 8)
for i in 1 2 3 4 5; do
	[ "$(nth "$cliff" $i)" = "$(nth "$one" $i)" ] || fail "a2-64g N=8 row $i is not cached: $cliff"
done
for i in 7 8 9 10 11 12; do
	r=$(nth "$cliff" $i) c=$(nth "$one" $i)
	ge "$c" "$r" 1.4 || fail "a2-64g N=8 row $i past the cache: $r, cached $c: no cliff"
	ge "$r" "$c" 0.35 || fail "a2-64g N=8 row $i past the cache: $r against $c: a collapse, not a cliff"
done
# N=9, past the cache and the 8 open blocks: a collapse, halving with the block size
col=$(a2 9)
ge "$(nth "$col" 8)" "$(nth "$col" 12)" 12 || fail "a2-64g N=9 does not collapse past the cache: $col"
ge "$(nth "$col" 11)" "$(nth "$col" 12)" 1.8 || fail "a2-64g N=9 does not halve: $col"

# tlc-32g: 128MiB of cache, 2 open: N=1 (120MiB) holds in it; N=3 collapses past it
run "$FB" -O -e 12M -b 16K --open-au-nr=1 sim:tlc-32g
r=$(rates)
ge "$(nth "$r" 9)" "$(nth "$r" 1)" 0.95 || fail "tlc-32g N=1 inside the cache: $r"
run "$FB" -O -e 12M -b 16K --open-au-nr=3 sim:tlc-32g
r=$(rates)
ge "$(nth "$r" 1)" "$(nth "$r" 10)" 100 || fail "tlc-32g N=3 past the cache does not collapse: $r"
# --find-fat: the first row (6 x 12MiB) inside the cache, alike; the third past it, at a third
run "$FB" -f -e 12M -b 16K sim:tlc-32g
expect_rc 0
first=$(fat_row 1) third=$(fat_row 3)
for x in $first; do ge "$x" "${first%% *}" 0.97 || fail "tlc-32g -f first row not alike: $first"; done
for x in $third; do
	ge "${first%% *}" "$x" 2.5 || fail "tlc-32g -f third row past the cache not at the native rate: $third"
done
# reads know nothing of the cache: -a shows the 12MiB erase block
run "$FB" -a -b 1024 sim:tlc-32g
ge "$(diff_at 12582912)" "$(diff_at 6291456)" 1.5 || fail "tlc-32g: no -a step at 12MiB: $out"
exit 0
