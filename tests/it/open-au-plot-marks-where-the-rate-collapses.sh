#!/usr/bin/env bash
# -O --plot of a run that collapses marks the block size from which the
# rate falls with the block size ("collapses from 1MiB"); a run that holds
# gets no such mark.
. "$(dirname "$0")/../lib.sh"
run "$FB" -O --open-au-nr=9 --plot="$T/c.svg" sim:sdhc-good
expect_rc 0
expect_out "^1MiB +6\.[0-9]+M/s"	# 2MiB 15M/s, 1MiB 6.8M/s: the collapse starts there
grep -q '<g class="mark">.*>collapses from 1MiB</text>' "$T/c.svg" || fail "no mark where the rate collapses: $(grep -o 'class="mark".*' "$T/c.svg" | head -n 2)"
run "$FB" -O --open-au-nr=2 --plot="$T/m.svg" sim:microsd-cheap
grep -q '>collapses from 2MiB</text>' "$T/m.svg" || fail "microsd-cheap N=2: no mark at 2MiB"
run "$FB" -O --open-au-nr=8 --plot="$T/h.svg" sim:sdhc-good
expect_rc 0
grep -q 'collapses from' "$T/h.svg" && fail "a run that holds has a collapse mark"
exit 0
