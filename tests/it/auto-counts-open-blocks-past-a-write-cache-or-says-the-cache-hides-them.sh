#!/usr/bin/env bash
# A card whose first writes after idle go to a pseudo-SLC cache (issue 27;
# sim:a2-64g, a 1 GiB cache, 24 MiB erase blocks, 8 open): inside the cache
# no run collapses, so --auto writes in order until the rate falls, says
# "the first ~1GiB are written at 70MB/s, then 32MB/s", and counts the open
# erase blocks past it, within its default budget (3% of the card; the old
# default wrote 4 GiB to end with 3 at low confidence). With a budget that
# cannot pass the cache it says the counts are not determinable (a write
# cache), cheaply, with the line that would try anyway; so is the FAT area,
# whose check ran inside the cache (JSON not_determinable, the same line).
. "$(dirname "$0")/../lib.sh"
need_tool python3

run "$FB" --auto --destructive --json sim:a2-64g
expect_rc 0
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
p, w, v = d["auto"]["plan"], d["auto"]["write_path"], d["verdict"]
assert 900 << 20 < w["write_cache_bytes"] < 1200 << 20, w
assert v["open_au_linear"]["n"] == 8 and not v["open_au_linear"]["at_least"], v["open_au_linear"]
assert v["open_au_linear"]["confidence"] in ("high", "medium"), v["open_au_linear"]
assert p["written_bytes"] <= p["budget_bytes"] <= d["device"]["size_bytes"] * 3 // 100 + p["planned_by_purpose"]["class"], p
' || fail "past the cache: $(printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); print(d["auto"]["write_path"], d["verdict"]["open_au_linear"])' 2>&1)"
run "$FB" --auto --destructive sim:a2-64g
expect_out "^  Writes after idle go to a write cache: the first ~1\.[0-9]+GiB are written at 70MB/s, then$"

run "$FB" --auto --destructive --json --max-write=500M sim:a2-64g
expect_rc 0
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
p, v = d["auto"]["plan"], d["verdict"]
assert p["written_bytes"] <= 500 << 20, p
nd = v["open_au_linear"].get("not_determinable")
assert nd and nd["reason"] == "write-cache" and v["open_au_linear"]["confidence"] == "none", v["open_au_linear"]
assert nd["command"].startswith("flashbench --auto --destructive --max-write=") and nd["cost_bytes"] > 500 << 20, nd
# the FAT check ran inside the cache too: not determinable for the same reason, the same line
f = v["fat_area"]
assert f["confidence"] == "none" and f["not_determinable"]["reason"] == "write-cache", f
assert f["not_determinable"]["command"] == nd["command"] and f["not_determinable"]["cost_bytes"] == nd["cost_bytes"], f
' || fail "a cache the budget cannot pass: $(printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); print(d["auto"]["plan"], d["verdict"]["open_au_linear"])' 2>&1)"
run "$FB" --auto --destructive --max-write=500M sim:a2-64g
expect_out "^  FAT-optimised area     not determinable on this card \(a write cache takes the writes\)$"
exit 0
