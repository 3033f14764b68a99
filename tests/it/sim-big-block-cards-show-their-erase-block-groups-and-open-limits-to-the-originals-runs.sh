#!/usr/bin/env bash
# Large cards and sticks with big erase blocks (doc/card-facts.md, "Cards as they are made
# today"), read with the original's own command lines, show what they were given: sim:usb3-64g
# (32MiB blocks in 4GiB groups, 4 open, 2 random-capable for writes of 4MiB and more) an -a step
# at 32MiB and a further rise at the group, N=4 holding and N=5 collapsing, random writes below
# 4MiB slow at any N and collapsing further at N=3; sim:sdxc-128g (16MiB blocks, 2GiB groups,
# 5 open) and sim:sdxc-64g (24MiB, 4 open) their steps and limits.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sim_rows.bash"

open_au() {	# N SPEC [more options]: the run's rates
	local n=$1 spec=$2
	shift 2
	run "$FB" -O --open-au-nr="$n" "$@" "sim:$spec"
	expect_rc 0
	rates
}
holds() { ge "$(nth "$1" "$2")" "$(nth "$1" 1)" 0.3; }	# RATES ROW: at 0.3 of the first row or more
collapses() { ge "$(nth "$1" 1)" "$(nth "$1" "$2")" 20 && ge "$(nth "$1" $(($2 - 1)))" "$(nth "$1" "$2")" 1.8; }

# SPEC ERASE BLOCK LIMIT STEP [GROUP]: the -a step at STEP (against the row of half of it), the
# group level above it, N=LIMIT holding and N=LIMIT+1 collapsing
steps_and_limit() {
	local spec=$1 e=$2 b=$3 limit=$4 step=$5 group=${6:-} r
	run "$FB" -a -b 1024 "sim:$spec"
	expect_rc 0
	ge "$(diff_at "$step")" "$(diff_at $((step / 2)))" 2 || fail "$spec: no -a step at $step: $out"
	[ -z "$group" ] || ge "$(diff_at "$group")" "$(diff_at $((group / 2)))" 1.3 ||
		fail "$spec: no group level at $group: $out"
	r=$(open_au "$limit" "$spec" -e "$e" -b "$b")
	holds "$r" 12 || fail "$spec N=$limit does not hold: $r"
	r=$(open_au $((limit + 1)) "$spec" -e "$e" -b "$b")
	collapses "$r" 12 || fail "$spec N=$((limit + 1)) does not collapse: $r"
}

steps_and_limit usb3-64g 32M 16K 4 33554432 4294967296
one=$(open_au 1 usb3-64g -e 32M -b 16K --random) two=$(open_au 2 usb3-64g -e 32M -b 16K --random)
three=$(open_au 3 usb3-64g -e 32M -b 16K --random)
holds "$one" 4 || fail "usb3-64g random N=1 is slow at 4MiB: $one"
ge "$(nth "$one" 4)" "$(nth "$one" 5)" 2 || fail "usb3-64g random N=1: no mapping unit at 4MiB: $one"
ge "$(nth "$two" 12)" "$(nth "$one" 12)" 0.9 || fail "usb3-64g random N=2 below N=1: $two / $one"
ge "$(nth "$two" 12)" "$(nth "$three" 12)" 2 || fail "usb3-64g random N=3 does not collapse further: $three"
steps_and_limit sdxc-128g 16M 8K 5 16777216 2147483648
steps_and_limit sdxc-64g 24M 8K 4 25165824
exit 0
