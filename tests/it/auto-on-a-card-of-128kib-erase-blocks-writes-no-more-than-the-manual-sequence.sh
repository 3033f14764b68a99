#!/usr/bin/env bash
# Small erase blocks cost little (issue 26): on a 1 GiB card with 128 KiB
# erase blocks (4 open, 2 random, 2 FAT blocks) the whole characterisation,
# the capacity check apart, writes no more than the manual sequence a person
# writes with the original for the same answers: -a; --open-au N = 1 .. 5
# linear and N = 1 .. 3 --random with the page as --blocksize; one
# --find-fat --random. The bytes are the device's (JSON status). The look
# for a RAM buffer writes 8 erase blocks at most there (it only tells
# whether a buffer blurs whole-block runs), not the 16 of larger blocks.
. "$(dirname "$0")/../lib.sh"
need_tool python3

dev="sim:size=1G,erasesize=128K,pagesize=4K,open-au=4,random-au=2,fat-aus=2,noise=5,claims=none"
manual=0
add() { run "$FB" --json "$@"; expect_rc 0; manual=$((manual + $(printf '%s' "$out" | pyrun -c 'import json,sys; print(json.load(sys.stdin)["status"]["written_bytes"])'))); }
for n in 1 2 3 4 5; do add -O --erasesize=128K --blocksize=4K --open-au-nr=$n "$dev"; done
for n in 1 2 3; do add -O --random --erasesize=128K --blocksize=4K --open-au-nr=$n "$dev"; done
add --find-fat --random --erasesize=128K --blocksize=4K "$dev"
run "$FB" --auto --destructive --json "$dev"
expect_rc 0
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
p, manual = d["auto"]["plan"], int(sys.argv[1])
work = p["written_bytes"] - p["written_by_purpose"]["capacity"]
assert work <= manual, (work, manual, p["written_by_purpose"])
assert 0 < p["written_by_purpose"]["cache"] <= 8 << 17, p["written_by_purpose"]
assert d["verdict"]["erase_size"]["size_bytes"] == 128 << 10, d["verdict"]["erase_size"]
assert d["verdict"]["open_au_linear"]["n"] == 4, d["verdict"]["open_au_linear"]
' "$manual" || fail "128KiB blocks against the manual sequence ($manual bytes): $(printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); print(d["auto"]["plan"]["written_by_purpose"], d["verdict"]["open_au_linear"])' 2>&1)"
exit 0
