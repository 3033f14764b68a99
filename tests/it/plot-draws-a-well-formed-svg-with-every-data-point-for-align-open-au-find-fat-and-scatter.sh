#!/usr/bin/env bash
# --plot=FILE.svg writes a well-formed, self-contained SVG with one marker per
# measured value (its raw value in data-x/data-y) and labelled axes, next to
# the usual text output; 3*2^n boundaries apart from the 2^n line, a log rate
# axis in bytes/s, a footer with device, test and date; --auto draws every
# test it ran as panels: -a with its marks, a line per --open-au run (dashed
# where it collapsed, ticks at its 3*2^n block sizes, a colour per N, circles
# for linear runs and squares for random ones), --find-fat shaded.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"
dev=sim:sdxc-tlc

cat >"$T/check.py" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
svg, data, test = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3]
root = ET.parse(svg).getroot()
NS = "{http://www.w3.org/2000/svg}"
assert root.tag == NS + "svg", root.tag
raw = open(svg).read()
assert "href" not in raw and "<script" not in raw, "not self-contained"
series = root.findall(NS + "g[@class='series']")
pts = [[(float(c.get("data-x")), float(c.get("data-y"))) for c in g.iter(NS + "circle")] for g in series]
text = " ".join("".join(t.itertext()) for t in root.iter(NS + "text"))
footer = "".join(root.find(NS + "text[@class='footer']").itertext())
assert "sim:sdxc-tlc" in footer and test.replace("_", "-") in footer and re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", footer), footer
if test == "align":
    want = sorted((r["align_bytes"], r["diff_ns"]) for r in data["align"]["rows"])
    assert sorted(pts[0] + pts[1]) == want, (pts[0][:3], want[:3])
    assert all(int(x) & (int(x) - 1) == 0 for x, _ in pts[0]), "3*2^n points on the 2^n line"
    assert pts[1] and not series[1].findall(NS + "polyline"), "3*2^n boundaries are connected"
    assert "boundary" in text and "MiB" in text and "s" in text, text
    assert "erase block 12MiB" in text, "the erase block step is not marked"
elif test in ("open_au", "find_fat"):
    rows = data[test]["rows"]
    assert len(series) == len(rows[0]["rate_bytes_per_s"]), len(series)
    for col, p in enumerate(pts):
        want = sorted((r["blocksize_bytes"], r["rate_bytes_per_s"][col]) for r in rows)
        assert sorted(p) == want, (col, sorted(p)[:3], want[:3])
    assert "M/s" in text and "block size" in text and "bytes/s (log scale" in text, text
elif test == "auto":
    # every test it ran, a panel each: -a with its marks, the --open-au runs, --find-fat
    panels = root.findall(NS + "g[@class='panel']")
    titles = ["".join(p.find(NS + "text[@class='title']").itertext()) for p in panels]
    assert [t.split(": ")[-1] for t in titles] == ["alignment (-a)", "open erase blocks (--open-au)", "FAT area (--find-fat)"], titles
    marks = " ".join("".join(t.itertext()) for t in panels[0].iter(NS + "text"))
    assert "erase block 12MiB" in marks and "page 16KiB" in marks, marks
    fat = panels[2].findall(NS + "g[@class='series']")
    assert len(fat) == 6 and fat[0].find(NS + "polyline[@class='shade']") is not None, len(fat)
    series = panels[1].findall(NS + "g[@class='series']")
    # with 12MiB erase blocks the ticks are where the points are (3*2^n), not at 2^n
    xs = sorted({float(c.get("data-x")) for g in series for c in g.iter() if c.get("class") == "point"})
    labels = {"".join(t.itertext()) for t in panels[1].iter(NS + "text")}
    mib = {"%gMiB" % (x / 1048576) for x in xs if x >= 1048576}
    assert mib and mib <= labels, (sorted(mib), sorted(labels))
    assert not labels & {"4MiB", "8MiB"}, sorted(labels)
    # a line per N: a re-measured run replaces the earlier one of the same N
    latest = {}
    for r in data["auto"]["write_phase"]["open_au_runs"]:
        latest[(r["nr"], r["random"])] = r
    runs = list(latest.values())
    assert len(series) == len(runs), (len(series), len(runs))
    shared = {int(m) for e in panels[1].iter(NS + "g") if e.get("class") == "entry"
              for ms in [e.get("data-members").split()] if len(ms) > 1 for m in ms}
    for g, r in zip(sorted(series, key=lambda g: g.get("data-name")), sorted(runs, key=lambda r: "N=%d%s, %s" % (r["nr"], " random" if r["random"] else "", "collapses" if r["verdict"] == "collapsed" else "holds"))):
        dashed = "stroke-dasharray" in ET.tostring(g.find(NS + "polyline")).decode()
        assert dashed == (r["verdict"] == "collapsed"), (g.get("data-name"), r["verdict"])
        # linear runs circles, random runs squares; one colour for the same N in both modes
        # (a run that coincides with another takes its look: its legend entry is shared)
        if series.index(g) in shared:
            continue
        shape = {e.tag for e in g.iter() if e.get("class") == "point"}
        assert shape == {NS + ("rect" if r["random"] else "circle")}, (g.get("data-name"), shape)
    # (runs that coincide share one legend entry and its look: the others)
    alone = [g for e in panels[1].iter(NS + "g") if e.get("class") == "entry"
             for m in [e.get("data-members").split()] if len(m) == 1 for g in [series[int(m[0])]]]
    colour = {}
    for g in alone:
        n = g.get("data-name").split(",")[0].split()[0]
        colour.setdefault(n, set()).add(g.find(NS + "polyline").get("stroke"))
    assert alone and all(len(c) == 1 for c in colour.values()), colour
elif test == "scatter":
    want = [(p["offset_bytes"], p["min_ns"]) for p in data["scatter"]["points"]]
    assert pts[0] == want, (pts[0][:3], want[:3])
    assert "offset" in text and "MiB" in text, text
PY

# plot TEST-KEY OPTIONS...: text on stdout stays as without --plot; svg matches --json
plot() {
	local key=$1; shift
	run "$FB" "$@" "$dev"
	expect_rc 0
	local plain=$out
	run "$FB" --plot="$T/$key.svg" "$@" "$dev"
	expect_rc 0
	# (--auto echoes the command line first: that one differs)
	[ "$(sed '/^\$ /d' <<<"$out")" = "$(sed '/^\$ /d' <<<"$plain")" ] ||
		fail "--plot changed the text output of $*"
	[ -s "$T/$key.svg" ] || fail "no $T/$key.svg"
	"$FB" --json "$@" "$dev" >"$T/$key.json" || fail "--json $*"
	pyrun "$T/check.py" "$T/$key.svg" "$T/$key.json" "$key" || fail "--plot $*"
}

plot align -a
plot open_au -O --open-au-nr=3 --random
plot find_fat -f --fat-nr=4
plot scatter -s --scatter-order=8
plot auto --auto --destructive --max-write=2G
exit 0
