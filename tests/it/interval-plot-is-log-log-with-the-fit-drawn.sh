#!/usr/bin/env bash
# -i --plot: sizes from 512B to 1MiB and times from some 100us to tens of ms
# on log-log axes (a small transfer is not squashed onto 0), the fitted line
# (access time plus size at the fitted throughput) drawn through the points
# and named in the subtitle; without a fit, the subtitle says why.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

run "$FB" -i --interval-order=12 --plot="$T/i.svg" sim:sdxc-tlc
expect_rc 0
pyrun - "$T/i.svg" <<'PY' || fail "the -i plot is not log-log with its fit"
import math, re, sys, xml.etree.ElementTree as ET
NS = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
texts = {"".join(t.itertext()): t for t in root.iter(NS + "text")}
assert "read time (log scale)" in texts, list(texts)
sub = "".join(root.find(NS + "text[@class='subtitle']").itertext())
assert re.search(r"fit: [0-9.]+.s access \+ size at [0-9.]+[KMG]/s", sub), sub
series = {g.get("data-name"): g for g in root.iter(NS + "g") if g.get("class") == "series"}
fit = series["fit"]
assert fit.find(NS + "polyline") is not None and fit.find(NS + "circle") is None, "fit not drawn as a line"
# log y: equal time ratios are equal distances; the 512B and 1MiB points are far apart, both well inside
pts = sorted((float(c.get("data-x")), float(c.get("data-y")), float(c.get("cy"))) for c in series["min"].iter(NS + "circle"))
(x0, t0, y0), (x1, t1, y1) = pts[0], pts[-1]
assert x0 == 512 and x1 == 1 << 20, (x0, x1)
mid = [p for p in pts if p[0] == 32 << 10][0]
frac = (y0 - mid[2]) / (y0 - y1)
want = math.log10(mid[1] / t0) / math.log10(t1 / t0)
assert abs(frac - want) < 0.02, (frac, want)
assert y0 - y1 > 200, "the points are squashed together"
PY
run "$FB" -i --interval-order=4 --plot="$T/few.svg" sim:sdxc-tlc
expect_rc 0
grep -q 'no fit: too few sizes' "$T/few.svg" || fail "no fit, and the plot does not say why"
exit 0
