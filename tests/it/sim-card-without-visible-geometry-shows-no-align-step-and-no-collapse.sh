#!/usr/bin/env bash
# A card that maps pages everywhere (sim:nogeo-128g, geometry=hidden; doc/card-facts.md, "Cards
# as they are made today") shows the original's runs no geometry: no -a row costs more than
# another, --open-au writes alike at N=1 and N=16, in order or not (inside its 4GiB cache),
# and --find-fat's columns are alike in every row. The same card with its geometry visible
# shows an -a step, and without its cache collapses, so the test can tell.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/sim_rows.bash"

run "$FB" -a -b 1024 sim:nogeo-128g
expect_rc 0
diffs=$(printf '%s\n' "$out" | awk '$1 == "align" { print $NF }' | sort -u)
[ "$diffs" = 0ns ] || fail "nogeo-128g: -a diffs $diffs: a step where none should show"
run "$FB" -a -b 1024 sim:nogeo-128g,geometry=visible
ge "$(diff_at 16777216)" "$(diff_at 8388608)" 2 || fail "nogeo-128g,geometry=visible shows no step: $out"

open_au() { run "$FB" -O -e 16M -b 16K --open-au-nr="$1" ${2:+"$2"} "sim:nogeo-128g${3:-}"; expect_rc 0; rates; }
one=$(open_au 1)
[ "$(open_au 16)" = "$one" ] || fail "nogeo-128g N=16 differs from N=1: $(open_au 16) / $one"
[ "$(open_au 16 --random)" = "$one" ] || fail "nogeo-128g random N=16 differs from N=1"
seen=$(open_au 16 "" ,geometry=visible,slc-cache=0)
ge "$(nth "$one" 11)" "$(nth "$seen" 11)" 20 || fail "nogeo-128g,geometry=visible,slc-cache=0 does not collapse: $seen"

run "$FB" -f -e 16M -b 16K sim:nogeo-128g
expect_rc 0
for i in $(seq 1 11); do
	row=$(fat_row "$i")
	for x in $row; do ge "$x" "${row%% *}" 0.99 && ge "${row%% *}" "$x" 0.99 ||
		fail "nogeo-128g -f row $i: columns differ: $row"; done
done
exit 0
