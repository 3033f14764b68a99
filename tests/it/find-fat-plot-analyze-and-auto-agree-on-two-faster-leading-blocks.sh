#!/usr/bin/env bash
# A card whose first two erase blocks take small writes about 1.45x faster
# (sim:sdhc-good with noise, where the large-write rows differ by a few per
# cent only): the --find-fat plot shades those two columns and no other,
# --analyze of the same run's text finds the same 2 erase blocks, and --auto
# on the card agrees.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"
card=sim:sdhc-good,noise=5

run "$FB" -f --plot="$T/fat.svg" "$card"
expect_rc 0
printf '%s\n' "$out" >"$T/fat.txt"
# the card is as described: small writes (<= 64KiB) ~1.45x faster in the first two columns
pyrun - "$T/fat.txt" <<'PY' || fail "the card is not the one this test is about"
import statistics, sys
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and l[0].isdigit()]
def kib(s): return float(s[:-3]) * {"K": 1, "M": 1024}[s[-3]]
def rate(s): return float(s[:-3]) * {"K": 1e3, "M": 1e6}[s[-3]]
small = [[rate(v) for v in r[1:]] for r in rows if kib(r[0]) <= 64]
ratios = [min(r[:2]) / statistics.median(r[2:]) for r in small]
big = [[rate(v) for v in r[1:]] for r in rows if kib(r[0]) >= 512]
assert len(small) >= 3 and 1.35 <= statistics.median(ratios) <= 1.6, ratios
assert all(min(r[:2]) / statistics.median(r[2:]) < 1.1 for r in big), big
PY
pyrun - "$T/fat.svg" <<'PY' || fail "the plot does not shade the first two erase blocks alone"
import sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
series = ET.parse(sys.argv[1]).getroot().findall(".//" + NS + "g[@class='series']")
shaded = [i for i, g in enumerate(series) if g.find(NS + "polyline[@class='shade']") is not None]
assert shaded == [0, 1], shaded
assert "FAT area" in series[0].get("data-name") and "FAT area" in series[1].get("data-name")
PY
run "$FB" --analyze "$T/fat.txt"
expect_rc 0
expect_out "^  FAT area: 2 erase blocks, 8MiB \((low|medium|high) confidence\)"
run "$FB" --auto --destructive "$card"
expect_rc 0
expect_out "^  FAT-optimised area +2 erase blocks, 8MiB at the start"
exit 0
