#!/usr/bin/env bash
# Writes after a pause complete at bus speed while a controller's RAM buffer
# has room (issue 27). On a USB 3 stick with a 2 MiB buffer and 32 MiB erase
# blocks (sim:usb3-64g, 4 open) --auto says "writes after a pause are
# buffered", times every write test on the writes' own work (what the buffer
# held before is written through first) and counts the open erase blocks.
# On an eMMC 5.1 whose buffer (2 MiB, filled at 200 MB/s) is larger than a
# quarter of its 512 KiB erase blocks, no run can fill it with writes of its
# own: the counts are not determinable (a RAM buffer), with the original's
# --open-au line that writes whole blocks, after less than 160 MiB besides
# the capacity check. Both report a buffer's rate faster than the rate after
# it, of writes of one size (the reference's larger writes ran faster past an
# eMMC's buffer than the look's writes into it: "124MB/s, then 153MB/s").
. "$(dirname "$0")/../lib.sh"
need_tool python3

run "$FB" --auto --destructive sim:usb3-64g
expect_rc 0
expect_out "^  Writes after a pause are buffered: the first ~2MiB went at [0-9.]+MB/s, then [0-9.]+MB/s \(a RAM$"
expect_out "^  open erase blocks +4 \((high|medium) confidence\)$"
# buffer_faster TEXT: the buffered rate in TEXT's buffer line is the faster
buffer_faster() {
	printf '%s' "$1" | pyrun -c '
import re, sys
m = re.search(r"buffered: the first ~\S+ went at ([0-9.]+)MB/s, then ([0-9.]+)MB/s", sys.stdin.read())
assert m and float(m.group(1)) > float(m.group(2)), m and m.groups()
' || fail "$2: the buffer is not the faster: $(printf '%s' "$1" | grep -A1 'are buffered')"
}
buffer_faster "$out" sim:usb3-64g
run "$FB" --auto --destructive sim:emmc51
expect_rc 0
buffer_faster "$out" sim:emmc51

run "$FB" --auto --destructive --json sim:emmc51
expect_rc 0
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
p, v = d["auto"]["plan"], d["verdict"]
assert d["auto"]["write_path"]["ram_buffer_bytes"] >= 2 << 20, d["auto"]["write_path"]
by = p["written_by_purpose"]
assert p["written_bytes"] - by["capacity"] - by["class"] < 160 << 20, by
for k in ("open_au_linear", "open_au_random"):
    nd = v[k].get("not_determinable")
    assert nd and nd["reason"] == "ram-buffer" and v[k]["confidence"] == "none", v[k]
    assert nd["command"].startswith("flashbench --open-au --erasesize=512KiB "), nd
' || fail "a buffer larger than a run fills: $(printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); print(d["auto"]["plan"]["written_by_purpose"], d["verdict"]["open_au_linear"])' 2>&1)"
exit 0
