#!/usr/bin/env bash
# Issue 11 §5, issue 20 cause 1: a card whose out-of-order writes keep up
# with linear ones only from a mapping unit up (SanDisk SU04G: random 512KiB
# at linear speed, 256KiB at a third) keeps its random slots for writes of
# the unit and more. --auto names the unit and counts the random slots with
# writes of that size; it never calls such a card "no random block" with
# confidence (that is what it got wrong). A card without one names none.
. "$(dirname "$0")/../lib.sh"

no_confident_zero() {
	printf '%s\n' "$out" | grep -qE "open, random writes +0 \((high|medium)" &&
		fail "$1: a confident 0 random blocks: $(printf '%s\n' "$out" | grep 'open, random')"
	return 0
}

run "$FB" --auto --destructive sim:su04g; expect_rc 0
expect_out "keep up with linear ones from 512KiB up \(a 512KiB mapping unit\)"
no_confident_zero su04g

run "$FB" --auto --destructive sim:size=8G,erasesize=4M,pagesize=16K,open-au=6,random-au=2,fat-aus=0,map-unit=512K
expect_rc 0
expect_out "open, random writes +2 \("
expect_out "from 512KiB up \(a 512KiB mapping unit\)"
no_confident_zero "a 512KiB unit with 2 random slots"

run "$FB" --auto --destructive sim:sdhc-good; expect_rc 0
expect_out "open, random writes +4 \("
printf '%s\n' "$out" | grep -q "mapping unit" && fail "a mapping unit on a card without one"
exit 0
