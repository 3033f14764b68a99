#!/usr/bin/env bash
# Old command lines from posts run: a test parameter of the original's that
# the chosen test does not read (-O -c 4, -a -e 8M, -p -b 4K, -s --offset),
# whatever its value (-a --scatter-span=0), is accepted as the original did, with one line on stderr saying it has no
# effect, and the output is that of the run without it. -F N is --fat-nr.
# Our own tests stay strict, and a safety option is never dropped.
. "$(dirname "$0")/../lib.sh" || exit 1

card="sim:size=256M,erasesize=1M,pagesize=16K"
check_ignored() {	# WHAT OPTION... -- TEST...: stdout as without WHAT, one note naming it
	local opt=() test=()
	while [ "$1" != -- ]; do opt+=("$1"); shift; done
	shift
	test=("$@")
	run "$FB" "${test[@]}" "$card"
	expect_rc 0
	local want=$out
	run "$FB" "${test[@]}" "${opt[@]}" "$card"
	expect_rc 0
	[ "$out" = "$want" ] || fail "${test[*]} ${opt[*]}: output differs from the run without ${opt[*]}"
	[ "$(printf '%s\n' "$errout" | grep -c '')" = 1 ] || fail "${test[*]} ${opt[*]}: stderr '$errout', want one line"
	expect_err "^flashbench: --[a-z-]+=?[^ ]*: no effect on .*\(accepted, as the original did\)$"
}
check_ignored -c 4 -- -O -e 1M -b 256K
check_ignored -e 8M -- -a -b 64K -c 2
check_ignored -b 4K -- -p
check_ignored --offset=1M -- -s --scatter-order=4
check_ignored --open-au-nr=3 -- -f -e 1M -b 512K --fat-nr=2
expect_err '^flashbench: --open-au-nr=3: no effect on --find-fat'
# whatever the value: the original never read it (-a --scatter-span=0 ran)
check_ignored --scatter-span=0 -- -a -b 64K -c 2
check_ignored -e 5M -- -a -b 64K -c 2
check_ignored --open-au-nr=abc -- -s --scatter-order=4
# a value the chosen test reads is checked: -c 0 measured nothing
run "$FB" -a -c 0 "$card"
expect_rc 2
expect_err '^flashbench: --count=0: must be a whole number'

# -F N is the original's short form of --fat-nr
run "$FB" -f -F 3 -e 1M -b 512K "$card"
expect_rc 0
[ "$(printf '%s\n' "$out" | head -n 1 | wc -w)" = 4 ] || fail "-f -F 3: not three columns: $out"

# ours alone stay strict; safety options are never ignored
run "$FB" --discard=0:4k -c 3 "$card"
expect_rc 2
expect_err '^flashbench: --count=3: --discard does not use it$'
run "$FB" --auto -e 8M "$card"
expect_rc 2
run "$FB" -a --preserve "$card"
expect_rc 2
expect_err 'preserve'
exit 0
