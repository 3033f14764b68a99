#!/usr/bin/env bash
# Every write --class issues lands inside the area its up-front line and its
# report name (on simulated cards of several erase sizes, one smaller than
# the usual area), and no more is written than it planned.
. "$(dirname "$0")/../lib.sh"
need_tool python3

for spec in rpi-a2 sdxc-tlc "sdc10,size=80M" "claims=C6+A1,size=40M,erasesize=1M"; do
	: > "$T/trace"
	run "$FB" --class --json "sim:$spec,trace=$T/trace"
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "$spec: exit $rc: $errout"
	printf '%s' "$out" | pyrun -c '
import json, sys
c = json.load(sys.stdin)["class"]["conditions"]
lo, hi = c["offset_bytes"], c["offset_bytes"] + c["area_bytes"]
n = 0
for line in open(sys.argv[1]):
    op, off, ln = line.split()
    if op == "W":
        off, ln = int(off), int(ln)
        assert lo <= off and off + ln <= hi, (off, ln, lo, hi)
        n += ln
assert 0 < n <= c["planned_write_bytes"], (n, c["planned_write_bytes"])
' "$T/trace" || fail "sim:$spec: a write outside the announced area, or more than planned"
done
exit 0
