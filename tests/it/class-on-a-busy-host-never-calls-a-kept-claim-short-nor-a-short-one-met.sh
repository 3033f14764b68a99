#!/usr/bin/env bash
# The label check never flips (issue 30: 13.4 MB/s "C10 met" and then
# 7.49 MB/s "C10 short" on the same card on a busy host). A busy host slows
# units of the writes and never speeds one, so a card that writes 5.9 MB/s
# keeps C4 in every run on a host busy 15% of the time: met, or "unknown:
# the rate moved between runs" with the line that reruns the same check
# (the same --claim) - never short. And it is short of C10 in every run,
# never met.
. "$(dirname "$0")/../lib.sh"

unknown=0
for seed in 1 2 3 4 5 6 7 8; do
	spec=sim:microsd-cheap,claims=none,burst=15,seed=$seed
	run "$FB" --class --claim=C4 "$spec"
	first=$(printf '%s\n' "$out" | head -n 1)
	case $first in
	"met: "*) expect_rc 0 ;;
	"unknown: C4: the rate moved between runs: "*)
		expect_rc 1
		expect_out "^ +to decide it: flashbench --class --claim=C4 $spec$"
		unknown=$((unknown + 1)) ;;
	*) fail "seed $seed: a card that writes 5.9 MB/s and keeps C4: $first" ;;
	esac
	run "$FB" --class --claim=C10 "$spec"
	expect_rc 1
	first=$(printf '%s\n' "$out" | head -n 1)
	[[ $first == "short: C10: sustained sequential writes "* ]] || fail "seed $seed: C10 on a 5.9 MB/s card: $first"
done
# the host slowed some runs enough to show: this test would see a flip
[ "$unknown" -ge 1 ] || fail "no run the busy host moved: the test does not test"
echo "$unknown of 8 runs: the rate moved, with the rerun; none short of C4, none met C10"
exit 0
