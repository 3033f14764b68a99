#!/usr/bin/env bash
# --class --json: one document of the schema (test "class") whose summary is
# the text's first line, with each claim's promises and figures, the
# conditions (area, state, queue depth) and the per-second points of every
# phase; written bytes agree with the status. Also for a run without claims.
. "$(dirname "$0")/../lib.sh"
need_tool python3

run "$FB" --class sim:rpi-a2
first=$(printf '%s\n' "$out" | head -n 1)
run "$FB" --class --json sim:rpi-a2
expect_rc 0
printf '%s' "$out" | FIRST="$first" python3 -c '
import json, os, sys
d = json.load(sys.stdin)
c = d["class"]
assert d["test"] == "class", d["test"]
assert d["summary"] == os.environ["FIRST"], (d["summary"], os.environ["FIRST"])
assert c["verdict"] == "met"
assert [x["name"] for x in c["claims"]] == ["C10", "U3", "V30", "A2"]
a2 = c["claims"][3]
assert [p["metric"] for p in a2["promises"]] == ["random_read", "random_write", "sequential_write"]
assert a2["promises"][1]["queue_depth"] == 8 and a2["promises"][1]["promised_iops"] == 2000
k = c["conditions"]
assert k["state"] == "area_written_sequentially_once" and k["area_bytes"] == 64 << 20
assert k["queue_depth"] == 8 and k["erase_size_bytes"] == 8 << 20
names = [p["phase"] for p in c["phases"]]
assert names == ["link_read", "sequential_write", "random_read", "random_write",
                 "queued_random_read", "queued_random_write"], names
for p in c["phases"]:
    assert p["per_second"], p["phase"]
    assert p["io_count"] > 0
assert c["written_bytes"] == d["status"]["written_bytes"] <= k["planned_write_bytes"]
' || fail "JSON does not hold what the text says"

run "$FB" --class --json sim:emmc
expect_rc 1
printf '%s' "$out" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["class"]["verdict"] == "unknown" and d["class"]["claims"] == [] and d["class"]["written_bytes"] == 0
' || fail "JSON of a run without claims"
exit 0
