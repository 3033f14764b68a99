#!/usr/bin/env bash
# --class --plot=FILE.svg: per mark a bar (promised) and a dot (measured,
# coloured by the verdict), in one panel for the sequential promises (with
# the link's ceiling) and, with an A claim, one for the random ones, each
# at the queue depth its verdict used (as --json says); between them the
# sequential writes as they went, per unit written (as --json's
# per_unit_bytes_per_s), a write cache's end marked where one showed
# (a2-64g's at 1GiB). Where the figures differ by a decade or more (random
# writes of a few IOPS against a promise of 500) the axis is logarithmic;
# an IOPS axis labels no bytes ("0B/s"). Without an A claim, no random panel.
. "$(dirname "$0")/../lib.sh"
need_tool python3

cat >"$T/check.py" <<'PY'
import json, sys, xml.etree.ElementTree as ET
svg, doc, want_log = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(svg).getroot()
panels = {p.get("data-panel"): p for p in root.iter(ns + "g") if p.get("class") == "panel"}
claims = doc["class"]["claims"]
random = [q for c in claims for q in c["promises"] if q["metric"] != "sequential_write"]
sw = doc["class"]["sustained_writes"]
assert sorted(panels) == sorted(["rates", "writes"] + (["iops"] if random else [])), sorted(panels)
w = panels.pop("writes")
pts = [float(e.get("data-y")) for e in w.iter() if e.get("class") == "point"]
assert [round(v) for v in pts] == [round(v) for v in sw["per_unit_bytes_per_s"]], (pts[:4], sw["per_unit_bytes_per_s"][:4])
marks = " ".join("".join(g.itertext()) for g in w.iter(ns + "g") if g.get("class") == "mark")
assert ("write cache ends" in marks) == sw["cache_seen"], (marks, sw["cache_seen"])
for name, p in panels.items():
    rows = [(c["name"], q) for c in claims for q in c["promises"]
            if (q["metric"] == "sequential_write") == (name == "rates")]
    series = {g.get("data-name"): g for g in p.iter(ns + "g") if g.get("class") == "series"}
    bars = [(float(e.get("data-x")), float(e.get("data-y"))) for e in series["promised"].iter()
            if e.get("class") == "point"]
    key = "bytes_per_s" if name == "rates" else "iops"
    assert [y for _, y in bars] == [q["promised_" + key] for _, q in rows], (bars, rows)
    dots = {}
    for v in ("met", "short", "unknown"):
        for e in (series.get("measured: " + v) or ET.Element("g")).iter():
            if e.get("class") == "point":
                dots[float(e.get("data-x"))] = (v, float(e.get("data-y")))
    for (x, _), (mark, q) in zip(bars, rows):
        if q["measured_" + key] is None:
            assert x not in dots, (mark, dots.get(x))
            continue
        assert dots.get(x) == (q["verdict"], q["measured_" + key]), (mark, q, dots.get(x))
    text = [" ".join("".join(t.itertext()) for t in p.iter(ns + "text"))][0]
    for mark, q in rows:
        if name == "iops":
            depth = "%d in flight" % q["queue_depth"] if q["queue_depth"] > 1 else "1 at a time"
            assert depth in text, (mark, depth, text)
    ytitle = "".join(p.find(ns + "g/" + ns + "text[@class='y-title']").itertext())
    if name == "iops":
        assert "B/s" not in text, "bytes on an IOPS axis: " + text
        assert ("log scale" in ytitle) == (want_log == "log"), ytitle
PY

run "$FB" --class --plot="$T/a2.svg" sim:rpi-a2
expect_rc 0
"$FB" --class --json sim:rpi-a2 >"$T/a2.json" 2>/dev/null
pyrun "$T/check.py" "$T/a2.svg" "$T/a2.json" linear || fail "plot of rpi-a2"
grep -q "8 in flight" "$T/a2.svg" || fail "rpi-a2: A2 not at the queue depth of its verdict"

# A1 short by decades: 3 IOPS of random writes against 500
run "$FB" --class --plot="$T/tlc.svg" sim:sdxc-tlc
expect_rc 1
"$FB" --class --json sim:sdxc-tlc >"$T/tlc.json" 2>/dev/null
pyrun "$T/check.py" "$T/tlc.svg" "$T/tlc.json" log || fail "plot of sdxc-tlc"

run "$FB" --class --plot="$T/cache.svg" sim:a2-64g
expect_rc 0
"$FB" --class --json sim:a2-64g >"$T/cache.json" 2>/dev/null
pyrun "$T/check.py" "$T/cache.svg" "$T/cache.json" linear || fail "plot of a2-64g"
grep -q '>write cache ends ~1' "$T/cache.svg" || fail "a2-64g: no mark where its write cache ends"

run "$FB" --class --plot="$T/c.svg" sim:sdhc-good
expect_rc 0
"$FB" --class --json sim:sdhc-good >"$T/c.json" 2>/dev/null
pyrun "$T/check.py" "$T/c.svg" "$T/c.json" linear || fail "plot of sdhc-good"
if command -v rsvg-convert >/dev/null; then
	rsvg-convert "$T/a2.svg" -o "$T/a2.png" || fail "rsvg-convert cannot render it"
fi
exit 0
