#!/usr/bin/env bash
# A card that writes at 5.9 MB/s behind a reader that carries 14 MB/s is
# short of U3 (30 MB/s) and C10: its writes are far below the reader's
# limit, so the reader did not decide (issue 30: "U3/V30 still unknown" on
# an 8.5 MB/s card behind a 13.9 MB/s reader); only writes at the reader's
# ceiling are the reader's. The report says at which queue depth, request
# size, offset and area each figure was measured, as fio names them, so
# that a user can compare.
. "$(dirname "$0")/../lib.sh"
need_tool python3

spec=sim:microsd-cheap,claims=none,link=14M/s
run "$FB" --class --claim=C10,U3,A1 "$spec"
expect_rc 1
first=$(printf '%s\n' "$out" | head -n 1)
[[ $first == "short: "*"U3"*"sustained sequential writes 5."*"M/s, promised 30M/s"* ]] || fail "first line: $first"
! printf '%s\n' "$out" | grep -q "reader caps" || fail "the reader blamed for writes far below it: $out"
expect_out "^U3 +sustained sequential writes +1 +30M/s +5\.[0-9]+M/s +short -[0-9]+% \((high|medium)\)$"
expect_out "^as fio: +bs=4M iodepth=1 for the sequential writes, bs=4k iodepth=1 for the random ones; offset=64M size=64M, direct=1, the raw device$"
expect_out "^random: +4KiB reads [0-9]+ IOPS, writes [0-9]+ IOPS, one at a time \(queue depth 1\)$"
# at the reader's ceiling it is the reader's: the same card behind a 5 MB/s reader
run "$FB" --class --claim=C10 sim:microsd-cheap,claims=none,link=5M/s
expect_rc 1
expect_out "^unknown: C10: the reader caps this at [0-9.]+M/s"
# the JSON says the same, with the depth of every figure and the confidence of every verdict
run "$FB" --class --json --claim=C10,U3,A1 "$spec"
printf '%s' "$out" | pyrun -c '
import json, sys
c = json.load(sys.stdin)["class"]
v = {x["name"]: x for x in c["claims"]}
assert v["U3"]["verdict"] == "short" and v["U3"]["confidence"] in ("high", "medium"), v["U3"]
assert all("queue_depth" in p for x in c["claims"] for p in x["promises"])
k = c["conditions"]
assert (k["offset_bytes"], k["area_bytes"], k["sequential_request_bytes"]) == (64 << 20, 64 << 20, 4 << 20), k
' || fail "JSON: $(printf '%s' "$out" | head -c 300)"
exit 0
