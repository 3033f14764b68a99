#!/usr/bin/env bash
# --auto --destructive states its write budget and what it buys in one line
# on stderr before the write phase (issue 26): by default 3% of the device
# (and what the class check writes, where a claim is known), --max-write
# when given; the report's "budget" line and the JSON (auto.plan)
# give the same budget, the bytes by purpose add up to what the device
# counted, and nothing passes the budget.
. "$(dirname "$0")/../lib.sh"
need_tool python3

run "$FB" --auto --destructive sim:sdhc-good
expect_rc 0
expect_err "^flashbench: sim:sdhc-good: --auto writes at most 1\.085GiB \(3\.4% of its 32GiB, the default; --max-write=SIZE sets it\): the capacity check wrote [0-9.]+MiB; with 4MiB erase blocks: the FAT-area check [0-9.]+[KM]iB, open-block runs up to N=[0-9]+ \(at most [0-9.]+MiB, a few chunks in each block\), the class check [0-9.]+MiB$"
expect_out "^  budget +[0-9.]+(M|G)iB \([0-9.]+% of the card, the default\): capacity check [0-9.]+MiB, reference "

run "$FB" --auto --destructive --json sim:sdhc-good
expect_rc 0
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
p, c = d["auto"]["plan"], d["auto"]["cost"]
size = d["device"]["size_bytes"]
assert p["budget_source"] == "default", p
# 3% of the card, and the class check (its area, then restored) on top
assert p["budget_bytes"] == size // 100 * 3 + p["planned_by_purpose"]["class"], p
assert p["written_bytes"] == c["written_bytes"] == d["status"]["written_bytes"] <= p["budget_bytes"], (p, c)
assert sum(p["written_by_purpose"].values()) == p["written_bytes"], p
assert p["line"].startswith("writes at most "), p
assert p["stopped_because"] == "done", p
' || fail "the plan in the JSON: $(printf '%s' "$out" | pyrun -c 'import json,sys; print(json.load(sys.stdin)["auto"].get("plan"))' 2>&1)"

# --max-write is the budget, said so
run "$FB" --auto --destructive --max-write=300M sim:sdhc-good
expect_rc 0
expect_err "^flashbench: sim:sdhc-good: --auto writes at most 300MiB \(--max-write\): "
expect_out "^  budget +300MiB \(0\.9% of the card, --max-write\): "
exit 0
