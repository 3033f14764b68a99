#!/usr/bin/env bash
# --max-write caps what --auto --destructive writes: it never starts a run
# that could pass the cap, says so, and answers only what it measured (an
# open-AU count it could not bracket is "at least", never a confident guess).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

run "$FB" --auto --destructive --json --max-write=200M sim:sdhc-good
expect_rc 0
printf '%s\n' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
c, v = d["auto"]["cost"], d["verdict"]
assert c["written_bytes"] <= 200 << 20, c
assert c["max_write_reached"] is True, c
lin = v["open_au_linear"]
assert lin["at_least"] or lin["n"] == 8, lin
assert lin["n"] == 8 or lin["confidence"] in ("low", "none") or lin["at_least"], lin
' || fail "the cap was not kept or not reported"
run "$FB" --auto --destructive --max-write=200M sim:sdhc-good
expect_out "max-write reached"
