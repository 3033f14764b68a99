#!/usr/bin/env bash
# --class --plot=FILE.svg: one well-formed SVG with two charts, sequential
# rates per second and IOPS per second, each with a line per promise; with
# no A claim, the rates only. rsvg-convert renders it where installed.
. "$(dirname "$0")/../lib.sh"
need_tool python3

run "$FB" --class --plot="$T/a2.svg" sim:rpi-a2
expect_rc 0
python3 - "$T/a2.svg" <<'PY' || fail "plot of rpi-a2"
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
g = [e for e in t if e.tag == ns + "g"]
assert [e.get("class") for e in g] == ["rates", "iops"], [e.get("class") for e in g]
text = " ".join("".join(e.itertext()) for e in t.iter(ns + "text"))
for want in ("sequential writes", "C10 A2 promise: 10M/s", "U3 V30 promise: 30M/s",
             "A2 promise: 4000 read IOPS", "A2 promise: 2000 write IOPS", "random writes, queued"):
    assert want in text, want
PY
run "$FB" --class --plot="$T/c.svg" sim:sdhc-good
expect_rc 0
python3 - "$T/c.svg" <<'PY' || fail "plot of sdhc-good"
import sys, xml.etree.ElementTree as ET
t = ET.parse(sys.argv[1]).getroot()
g = [e.get("class") for e in t if e.tag.endswith("g")]
assert g == ["rates"], g
PY
if command -v rsvg-convert >/dev/null; then
	rsvg-convert "$T/a2.svg" -o "$T/a2.png" || fail "rsvg-convert cannot render it"
fi
exit 0
