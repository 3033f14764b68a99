#!/usr/bin/env bash
# A simulated card runs on a virtual clock: the same spec and seed print the
# same -a, --open-au and --find-fat output byte for byte; another seed of a
# noisy card prints other numbers.
. "$(dirname "$0")/../lib.sh"

card=sim:size=2G,erasesize=3M,pagesize=8K,open-au=2,random-au=1,fat-aus=1,noise=7
for args in "-a" "-O --open-au-nr=3 -e 3M -r" "-f --fat-nr=3 -e 3M -b 96K"; do
	# shellcheck disable=SC2086
	run "$FB" $args "$card,seed=11"; expect_rc 0
	first=$out
	[ -n "$first" ] || fail "$args: no output"
	# shellcheck disable=SC2086
	run "$FB" $args "$card,seed=11"; expect_rc 0
	[ "$out" = "$first" ] || fail "$args: two runs with seed 11 differ: $(diff <(echo "$first") <(echo "$out") | head -5)"
	# shellcheck disable=SC2086
	run "$FB" $args "$card,seed=12"; expect_rc 0
	[ "$out" != "$first" ] || fail "$args: seeds 11 and 12 print the same"
done
exit 0
