#!/usr/bin/env bash
# --auto --destructive --json: one valid JSON document with the verdicts, the
# advice, every raw measurement, and what the run wrote and how long the
# device was busy.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

run "$FB" --auto --destructive --json --max-write=4G sim:sdhc-good
expect_rc 0
printf '%s\n' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
v = d["verdict"]
assert d["test"] == "auto" and d["auto"]["destructive"] is True, d["test"]
assert v["erase_size"]["size_bytes"] == 4 << 20, v["erase_size"]
assert v["erase_size"]["confidence"] in ("high", "medium"), v["erase_size"]
assert v["open_au_linear"]["n"] == 8 and not v["open_au_linear"]["at_least"], v["open_au_linear"]
assert v["open_au_random"]["n"] == 4, v["open_au_random"]
assert v["fat_area"]["erase_blocks"] == 2 and v["fat_area"]["size_bytes"] == 8 << 20, v["fat_area"]
sf = d["advice"]["sfdisk"]
assert sf == "printf \x27label: dos\\nstart=2048, size=14336, type=e\\nstart=16384\\n\x27 | sudo sfdisk /dev/sdX", sf
assert d["advice"]["fat_type"] == "FAT16" and d["advice"]["fat_partition"] == "sudo mkfs.vfat -F 16 -s 1 /dev/sdX1", d["advice"]
assert d["advice"]["capacity_checked"] is True and "capacity_command" not in d["advice"], d["advice"]
assert d["advice"]["linux_partition_start_sectors"] == 16384, d["advice"]
assert d["advice"]["ext4"] == "sudo mkfs.ext4 -b 4096 -E stride=4,stripe_width=1024 /dev/sdX2", d["advice"]
assert len(d["auto"]["align"]["rows"]) > 10
runs = d["auto"]["write_phase"]["open_au_runs"]
assert any(r["nr"] == 9 and not r["random"] and r["verdict"] == "collapsed" for r in runs)
assert all(r["result"]["rows"] for r in runs)
assert d["auto"]["write_phase"]["find_fat"]["rows"]
c = d["auto"]["cost"]
assert 0 < c["written_bytes"] <= c["max_write_bytes"], c
assert c["written_bytes"] == d["status"]["written_bytes"]
assert c["device_time_ns"] >= c["align_device_time_ns"] + c["write_device_time_ns"] > 0, c
' || fail "JSON does not hold the expected verdicts (see above)"
