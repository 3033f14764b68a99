#!/usr/bin/env bash
# Issue 26/27: where the runs in order and their settle passes spend the
# whole write budget before the first out-of-order run (today's tlc-32g
# seed=38: 402 of 444 MiB), the random count is "not determinable (the write
# budget ran out)" with the --auto line of a budget that fits it, not a bare
# "unknown" nor the plain "run it again" hint (the same run meets the same
# budget). The line runs as printed and gives the count.
. "$(dirname "$0")/../lib.sh"

card="sim:tlc-32g,size=15516827648,erasesize=25165824,pagesize=32768,open-au=2,random-au=0,fat-aus=1,seed=38,slc-cache=83886080,native=47,buffer=0,idle-gc=500,geometry=visible,noise=5,state=new,gc-defer=4,multiplane=0,group=0,spikes=1,stretch=0,drift=0,jitter=20,burst=0,map-unit=0,claims=none,queue=0"
run "$FB" --auto --destructive "$card"; expect_rc 0
expect_out "^  open, random writes +not determinable on this card \(the write budget ran out\)$"
expect_out "^  open erase blocks +2 \("
printf '%s\n' "$out" | grep -q "^  rerun " && fail "the plain rerun hint beside the budget's own line: $(printf '%s\n' "$out" | grep -A3 '^  rerun ')"
line=$(printf '%s\n' "$out" | grep -A1 "write budget ran out before the first out-of-order run" |
	sed -n 's/^ *\(flashbench --auto --destructive --max-write=[0-9]*M .*\)$/\1/p')
[ -n "$line" ] || fail "no --auto line with a larger budget: $(printf '%s\n' "$out" | grep -A1 'budget ran out')"
# shellcheck disable=SC2086	# the line is split as a shell would split it
run "$FB" ${line#flashbench }
[ "$rc" = 0 ] || fail "'$line' does not run as printed: exit $rc: $errout"
expect_out "^  open, random writes +[0-9]+ \("
exit 0
