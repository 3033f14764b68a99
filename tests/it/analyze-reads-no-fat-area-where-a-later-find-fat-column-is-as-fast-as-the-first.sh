#!/usr/bin/env bash
# Issue 27: a card with one random slot and no FAT area, its 4MiB erase blocks
# written by --find-fat --fat-nr=4 in 3MiB columns (as a user who took the
# erase size for 3MiB would): columns 1 and 4 each lie inside one erase block,
# 2 and 3 straddle two, and the block in the card's random slot alternates, so
# small writes run ~10x faster in columns 1 and 4 alone. The first column
# beats every later one in every row, yet column 4 is as fast: the speed comes
# from the card's open slots, not from the place. Pasted into --analyze that is
# no FAT area, and the evidence says which columns were fast.
. "$(dirname "$0")/../lib.sh"
need_tool python3
card=sim:size=16G,erasesize=4M,pagesize=8K,open-au=1,random-au=1,fat-aus=0

run "$FB" --find-fat --random --fat-nr=4 --erasesize=3M --blocksize=16K "$card"
expect_rc 0
{
	echo '$ sudo ./flashbench --find-fat --random --fat-nr=4 --erasesize=$[3 * 1024 * 1024] --blocksize=16384 /dev/sdc'
	printf '%s\n' "$out"
} >"$T/post.txt"
# the table is as described: in every row of small writes, columns 1 and 4 are
# several times faster than 2 and 3, and column 1 the fastest
pyrun - "$T/post.txt" <<'PY' || fail "the table is not the one this test is about"
import sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and l[0].isdigit()]
def kib(s): return float(s[:-3]) * {"K": 1, "M": 1024}[s[-3]]
def rate(s): return float(s[:-3]) * {"K": 1e3, "M": 1e6}[s[-3]]
small = [[rate(v) for v in r[1:]] for r in rows if kib(r[0]) <= 384]
assert len(small) >= 4, rows
for r in small:
    assert len(r) == 4 and min(r[0], r[3]) > 3 * max(r[1], r[2]) and r[0] > r[3], r
PY
run "$FB" --analyze "$T/post.txt"
expect_rc 0
expect_out "^  FAT area: none \("
expect_out "columns 1 and 4 fast \([0-9.]+x the slower ones\) in [0-9]+ of [0-9]+ rows: a later column as fast as the leading one means the speed comes from the card's open slots"
exit 0
