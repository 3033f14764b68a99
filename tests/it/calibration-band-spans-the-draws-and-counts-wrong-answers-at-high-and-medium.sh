#!/usr/bin/env bash
# bench/calibration_band.py (doc/card-facts.md, "What chance alone moves", 2026-12-03): the
# calibration over draws 0 .. R-1 of the same cards; per verdict the exact share of each draw,
# their band from the lowest to the highest, and the answers wrong at "high" or "medium" (not
# "low") per draw; the cost lines' median and worst per draw, for the old cards and today's.
. "$(dirname "$0")/../lib.sh"
need_tool python3
BAND=$(dirname "$0")/../../bench/calibration_band.py

pyrun - "$BAND" <<'PY' || fail "calibration_band parse / report"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("band", sys.argv[1])
b = importlib.util.module_from_spec(spec)
spec.loader.exec_module(b)


def draw(lin_exact, med_wrong, low_wrong, median, worst):
    return "\n".join([
        "# calibration (seed 1): 10 cards; right/wrong per confidence, unknown answers, exact",
        "#                             high        medium           low  unknown   exact",
        f"#   open AUs linear       5/1  83%      2/{med_wrong} 50%      1/{low_wrong}  50%        0   {lin_exact:.1f}%",
        f"# cost: bytes ... / the manual sequence: median {median} (quartiles 0.05..0.20), worst {worst}; device time",
        "# cards as they are made today, calibration (seed 1): 4 cards; right/wrong",
        "#   FAT area             3/0 100%      0/0           0/2   0%        1    75.0%",
        "# cost (today's cards): bytes ... median 0.2 (quartiles 0.1..0.3), worst 1.5; device",
        "# cost (today's cards) by purpose: capacity 2.4%, reference 1.1%",
    ])


d = [b.parse(draw(90.0, 2, 7, 0.1, 1.2)), b.parse(draw(85.5, 0, 9, 0.12, 1.0))]
assert d[0]["cards"]["open AUs linear"] == (90.0, 3), d[0]  # 1 at high + 2 at medium, not the low 7
assert d[0]["today"]["FAT area"] == (75.0, 0)
assert d[0]["cards cost"] == (0.1, 1.2) and d[0]["today cost"] == (0.2, 1.5)
out = "\n".join(b.report(d))
assert "exact 90.0 85.5  band 85.5 .. 90;" in out, out
assert "wrong at high/medium 3 1" in out, out
assert "cost: median band 0.1 .. 0.12, worst band 1 .. 1.2" in out, out
assert "# today: 2 draws" in out, out
PY

out=$(python3 "$BAND" "$FB" --cards 4 --seed 11 --cost --jobs 1 --draws 2) || fail "calibration_band: $out"
grep -q '^# cards: 2 draws (reroll 0 .. 1)$' <<<"$out" || fail "no band table: $out"
grep -Eq '^#   open AUs random +exact [0-9.]+ [0-9.]+  band ' <<<"$out" || fail "no random row: $out"
grep -q '^#   cost: median band ' <<<"$out" || fail "no cost band: $out"
exit 0
