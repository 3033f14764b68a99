#!/usr/bin/env bash
# The raw tables at the end of an --auto report (commands echoed, as in a
# mailing-list post) read back with --analyze to the same erase size and
# open-AU counts that --auto reported.
. "$(dirname "$0")/../lib.sh"

for spec in sim:sdxc-tlc,noise=5 sim:microsd-cheap sim:emmc,noise=10,seed=3; do
	"$FB" --auto --destructive "$spec" > "$T/auto.txt" || fail "$spec: --auto failed"
	erase=$(sed -n 's/^  erase block size *\([0-9.]*[KMG]iB\) .*/\1/p' "$T/auto.txt")
	lin=$(sed -n 's/^  open erase blocks *\([0-9]*\) .*/\1/p' "$T/auto.txt")
	rnd=$(sed -n 's/^  open, random writes *\([0-9]*\) .*/\1/p' "$T/auto.txt")
	[ -n "$erase" ] && [ -n "$lin" ] && [ -n "$rnd" ] || fail "$spec: no verdict in: $(head -20 "$T/auto.txt")"
	run "$FB" --analyze "$T/auto.txt"; expect_rc 0
	expect_out "^  erase size: $erase \("
	expect_out "^  open AUs, linear, $erase: $lin \("
	expect_out "^  open AUs, random, $erase: $rnd \("
done
exit 0
