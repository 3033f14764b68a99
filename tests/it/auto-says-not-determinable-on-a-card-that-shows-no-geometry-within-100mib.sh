#!/usr/bin/env bash
# A card that shows no geometry (no -a step, no open-AU collapse anywhere a
# run can reach; sim:nogeo-128g, 119 GiB) is answered quickly (issues 26,
# 27): both open-AU counts "not determinable on this card (no visible
# geometry)", confidence none, with the reason, the --open-au line that
# would look further and what it writes, after writing less than 100 MiB
# besides the capacity and class checks (the old default wrote ~3 GiB to
# end with "at least 32").
. "$(dirname "$0")/../lib.sh"
need_tool python3

run "$FB" --auto --destructive sim:nogeo-128g
expect_rc 0
expect_out "^  open erase blocks +not determinable on this card \(no visible geometry\)$"
expect_out "^  open, random writes +not determinable on this card \(no visible geometry\)$"
expect_out "^  stopped +wrote [0-9.]+MiB \(0\.[0-9]+% of the card\): the open-AU counts are not determinable here: -a shows no erase-block step"
run "$FB" --auto --destructive --json sim:nogeo-128g
expect_rc 0
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
p, v = d["auto"]["plan"], d["verdict"]
by = p["written_by_purpose"]
work = p["written_bytes"] - by["capacity"] - by["class"]
assert work < 100 << 20, (work, by)
for k in ("open_au_linear", "open_au_random"):
    nd = v[k].get("not_determinable")
    assert v[k]["confidence"] == "none" and nd and nd["reason"] == "no-geometry", v[k]
    assert nd["command"].startswith("flashbench --open-au ") and nd["cost_bytes"] > 0, nd
assert p["stopped_because"] == "not-determinable", p
' || fail "no geometry: $(printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); print(d["auto"]["plan"]["written_by_purpose"], d["verdict"]["open_au_linear"])' 2>&1)"
exit 0
