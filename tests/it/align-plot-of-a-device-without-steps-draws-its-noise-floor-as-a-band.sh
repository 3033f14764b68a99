#!/usr/bin/env bash
# -a --plot on a device whose reads cost the same at every boundary (a RAM
# disk): no erase-block mark, and the
# rows' noise drawn as a band (median +- 5 robust sigma, as the analysis
# counts a step) that holds most rows, on a y axis at least 2.5 times the
# band's height, so noise does not look like steps; a card with steps
# (sdhc-good) gets its marks and no band.
. "$(dirname "$0")/../lib.sh"
need_tool python3

cat >"$T/check.py" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
want = sys.argv[2] == "band"
bands = [e for e in root.iter(ns + "rect") if e.get("class") == "band"]
marks = ["".join(g.itertext()) for g in root.iter(ns + "g") if g.get("class") == "mark"]
if not want:
    assert not bands, "a band on a card with steps"
    assert any(m.startswith("erase block") for m in marks), marks
    sys.exit(0)
assert len(bands) == 1, "no noise band"
assert not any(m.startswith("erase block") for m in marks), marks
b = bands[0]
lo, hi = float(b.get("data-lo")), float(b.get("data-hi"))
ys = [float(e.get("data-y")) for e in root.iter() if e.get("class") == "point"]
inside = sum(lo <= y <= hi for y in ys)
assert inside >= 0.8 * len(ys), "the band holds %d of %d rows" % (inside, len(ys))
frame = next(e for e in root.iter(ns + "rect") if e.get("class") == "frame")
assert float(b.get("height")) * 2.5 <= float(frame.get("height")), (b.get("height"), frame.get("height"))
legend = " ".join("".join(t.itertext()) for t in root.iter(ns + "text"))
assert "noise" in legend, legend
PY

run "$FB" -a --plot="$T/ram.svg" sim:ram
expect_rc 0
pyrun "$T/check.py" "$T/ram.svg" band || fail "sim:ram"
run "$FB" -a --plot="$T/card.svg" sim:sdhc-good
expect_rc 0
pyrun "$T/check.py" "$T/card.svg" steps || fail "sim:sdhc-good"
exit 0
