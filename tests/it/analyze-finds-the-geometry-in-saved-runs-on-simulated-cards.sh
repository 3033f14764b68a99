#!/usr/bin/env bash
# Saved -a and --open-au runs of simulated cards (with the commands echoed
# before each, as a user's script would) are read back to the configured
# erase size and open-AU limit, with 10% noise too.
. "$(dirname "$0")/../lib.sh"

check_card() {	# spec erase-size-text erasesize-bytes open-au
	local spec=$1 etext=$2 e=$3 oa=$4 f="$T/run.txt"
	{
		echo "\$ flashbench -a $spec"
		"$FB" -a "$spec" || fail "$spec: -a failed"
		for n in $(seq 1 $((oa + 1))); do
			echo "\$ flashbench -O --open-au-nr=$n --erasesize=$e --blocksize=16K --offset=$((8 * e)) $spec"
			"$FB" -O --open-au-nr=$n --erasesize=$e --blocksize=16K --offset=$((8 * e)) "$spec" ||
				fail "$spec: -O --open-au-nr=$n failed"
		done
	} > "$f"
	run "$FB" --analyze "$f"; expect_rc 0
	expect_out "erase size: $etext \((high|medium|low) confidence\)"
	expect_out "open AUs, linear, $etext: $oa \((high|medium) confidence\)"
}
check_card "sim:size=8G,erasesize=4M,pagesize=16K,open-au=3,random-au=1,fat-aus=0" 4MiB $((4 << 20)) 3
check_card "sim:size=7G,erasesize=12M,pagesize=16K,open-au=2,random-au=1,fat-aus=1,noise=10,seed=5" \
	12MiB $((12 << 20)) 2
check_card "sim:size=6G,erasesize=1M,pagesize=8K,open-au=5,random-au=2,fat-aus=2,noise=5,seed=9" \
	1MiB $((1 << 20)) 5
exit 0
