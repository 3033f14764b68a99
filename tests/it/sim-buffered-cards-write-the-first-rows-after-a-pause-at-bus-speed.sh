#!/usr/bin/env bash
# Cards with a RAM write buffer (sim:emmc51: 2MiB filled at the bus's 200MB/s, the card writes
# 90MB/s; doc/card-facts.md, "Cards as they are made today"), read with the original's own
# command lines: a run starts after a pause (a fresh card), so the first writes go into the
# buffer at bus speed: --find-fat's first row (6 x 512KiB) is faster than the card, the rows
# after it are not; --open-au's first row is the fastest, and the open limit (8) still shows:
# N=8 holds, N=9 collapses, halving. The same card without its buffer shows none of it.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sim_rows.bash"

run "$FB" -f -e 512K -b 16K sim:emmc51
expect_rc 0
first=$(fat_row 1) second=$(fat_row 2)
last=${second##* }
for x in $first; do
	ge "$x" "$last" 2 || fail "emmc51 -f: first row $first not buffered against $second"
done
ge 100000000 "$last" || fail "emmc51 -f: second row faster than the card writes: $second"
run "$FB" -f -e 512K -b 16K sim:emmc51,buffer=0
plain=$(fat_row 1)
ge "${first%% *}" "${plain%% *}" 1.8 || fail "emmc51 without a buffer: $plain, with: $first"

open_au() { run "$FB" -O -e 512K -b 16K --open-au-nr="$1" "sim:emmc51${2:-}"; expect_rc 0; rates; }
held=$(open_au 8) col=$(open_au 9)
ge "$(nth "$held" 1)" "$(nth "$held" 2)" 1.5 || fail "emmc51 N=8: first row not buffered: $held"
ge "$(nth "$held" 6)" "$(nth "$held" 2)" 0.6 || fail "emmc51 N=8 does not hold: $held"
ge "$(nth "$held" 6)" "$(nth "$col" 6)" 10 || fail "emmc51 N=9 does not collapse: $col"
ge "$(nth "$col" 5)" "$(nth "$col" 6)" 1.8 || fail "emmc51 N=9 does not halve: $col"
plain=$(open_au 8 ,buffer=0)
ge "$(nth "$plain" 2)" "$(nth "$plain" 1)" 0.9 || fail "emmc51 without a buffer: first row fast: $plain"
exit 0
