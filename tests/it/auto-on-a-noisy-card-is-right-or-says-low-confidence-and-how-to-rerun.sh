#!/usr/bin/env bash
# Issue 11: on emulated host noise (read spikes, stretched accesses, drift,
# +-10% jitter) --auto --destructive is either right, or says "low" and prints
# a rerun hint; never a confident 0 open erase blocks.
. "$(dirname "$0")/../lib.sh"

check() {	# check SPEC ERASE LINEAR RANDOM
	run "$FB" --auto --destructive "sim:$1"; expect_rc 0
	local v; v=$(printf '%s\n' "$out" | sed -n '/^Verdict/,/^What this means/p')
	local low=0
	printf '%s\n' "$v" | grep -q "(low confidence)\|unknown" && low=1
	if [ $low = 1 ]; then
		printf '%s\n' "$v" | grep -q "^  rerun .*second run" || fail "$1: low confidence without a rerun hint: $v"
	fi
	line() { printf '%s\n' "$v" | grep -E "^  $1 " | head -n 1; }
	for pair in "erase block size|$2" "open erase blocks|$3" "open, random writes|$4"; do
		local what=${pair%%|*} want=${pair#*|} l
		l=$(line "$what")
		printf '%s\n' "$l" | grep -qE " $want \(" && continue
		printf '%s\n' "$l" | grep -q "(low confidence)\|unknown" ||
			fail "$1: $what wrong and not low: $l (want $want)"
	done
	printf '%s\n' "$v" | grep -qE "^  open erase blocks +0 \((high|medium)" && fail "$1: a confident 0"
	return 0
}

check "size=8G,erasesize=16M,pagesize=16K,open-au=11,random-au=4,noise=10,spikes=2,stretch=2,drift=5,seed=3" 16MiB 11 4
check "size=4G,erasesize=256K,pagesize=16K,open-au=5,random-au=3,noise=10,spikes=2,stretch=2,seed=4" 256KiB 5 3
check "size=16G,erasesize=4M,pagesize=8K,multiplane=16K,open-au=3,random-au=1,noise=10,spikes=2,stretch=1,drift=2,seed=5" 4MiB 3 1
check "sa04g,noise=10,stretch=2,drift=5" 4MiB 1 0
exit 0
