#!/usr/bin/env bash
# The default budget follows the device (issue 26): on a 1 GiB card with
# 4 MiB erase blocks (where the old default, 1024 erase blocks and at least
# 1 GiB, wrote 4 GiB) it is 256 MiB, a quarter of the card (no claim to
# check: a class check would add its area and restore), and the record of
# what the simulated card was sent stays inside it, with the answers.
. "$(dirname "$0")/../lib.sh"
need_tool python3

rec=$T/rec
run "$FB" --auto --destructive --json "sim:sdhc-good,size=1G,claims=none,record=$rec"
expect_rc 0
written=$(awk '$1 == "W" { s += $3 } END { print s + 0 }' "$rec")
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
p, v = d["auto"]["plan"], d["verdict"]
assert p["budget_bytes"] == 256 << 20, p
assert int(sys.argv[1]) == p["written_bytes"] <= 256 << 20, (sys.argv[1], p)
assert v["erase_size"]["size_bytes"] == 4 << 20, v["erase_size"]
assert v["open_au_linear"]["n"] == 8 and v["open_au_linear"]["confidence"] in ("high", "medium"), v["open_au_linear"]
' "$written" || fail "the budget on a 1GiB card: $(printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); print(d["auto"].get("plan"), d["verdict"])' 2>&1)"
exit 0
