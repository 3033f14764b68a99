#!/usr/bin/env bash
# Issue 11 §5: a card whose out-of-order writes keep up with linear ones only
# from a mapping unit up (SanDisk SU04G: random 512KiB at linear speed, 256KiB
# at a third) has 0 erase blocks open for random writes, and --auto names the
# unit; a card without one names none.
. "$(dirname "$0")/../lib.sh"

run "$FB" --auto --destructive sim:su04g; expect_rc 0
expect_out "open, random writes +0 \("
expect_out "keep up with linear ones from 512KiB up \(a 512KiB mapping unit\)"

run "$FB" --auto --destructive sim:size=8G,erasesize=8M,pagesize=16K,open-au=6,random-au=4,map-unit=1M; expect_rc 0
expect_out "open, random writes +0 \("
expect_out "from 1MiB up \(a 1MiB mapping unit\)"

run "$FB" --auto --destructive sim:sdhc-good; expect_rc 0
expect_out "open, random writes +4 \("
printf '%s\n' "$out" | grep -q "mapping unit" && fail "a mapping unit on a card without one"
exit 0
