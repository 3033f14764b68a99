#!/usr/bin/env bash
# --capacity --json: one JSON document with the device, the one-line
# summary, and the verdict, real size, failure mode and cost.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

run "$FB" --capacity --json sim:size=64G,real-size=7.5G,fake=drop
expect_rc 1
printf '%s\n' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
assert d["test"] == "capacity", d
assert d["device"]["size_bytes"] == 64 << 30, d["device"]
assert d["summary"] == "counterfeit: advertises 64GiB, stores 7.5GiB (writes beyond are lost)", d
c = d["capacity"]
assert c["verdict"] == "counterfeit" and c["failure_mode"] == "lost", c
assert c["real_min_bytes"] == c["real_max_bytes"] == 15 << 29 and c["exact"], c
assert c["written_bytes"] > 0 and c["io_count"] > 0 and c["device_time_ns"] > 0 and c["rounds"] > 1, c
assert c["data_restored"] is True and c["interrupted"] is False, c
' || fail "bad document: $out"

run "$FB" --capacity --json sim:size=8G
expect_rc 0
printf '%s\n' "$out" | pyrun -c '
import json, sys
c = json.load(sys.stdin)["capacity"]
assert c["verdict"] == "genuine" and c["failure_mode"] == "none" and c["real_min_bytes"] == 8 << 30, c
' || fail "bad document for a genuine card: $out"
exit 0
