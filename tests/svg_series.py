#!/usr/bin/env python3
"""What a reader needs to tell the data of an SVG plot apart.

usage: svg_series.py FILE.svg [FONT.ttf]

Per panel (<g class="panel">, or the whole plot):
- every legend entry (<g class="entry" data-members="i j ...">, or each
  series on its own where the legend has no entries) has its own look: the
  colour and dash pattern of its line and the shape and fill of its
  markers; each series is drawn as its entry shows it;
- series of different entries do not coincide on the plot (closer than
  2 px at every point: one line to the eye), and the series of one entry
  do (each to another of them): coinciding series are named together
  (1.5 and 2.5 px here: the coordinates are rounded to 0.1 px);
- no text touches the data: the series' line segments (their stroke width)
  and markers;
- a band (rect.band: -a's noise floor) is at most 40% of the plot's height,
  so that what lies inside it does not read as steps.
Problems are printed one per line, exit status 1. Text boxes come from
svg_text_boxes.py (the font's glyph widths, transforms included).
"""
import math
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import svg_text_boxes as tb  # noqa: E402

NS = tb.NS
# the plot's own rule is 2 px; named together within 2.5, apart beyond 1.5 (coordinates are rounded)
TOGETHER_PX, APART_PX = 2.5, 1.5


def walk(el, m=(1, 0, 0, 1, 0, 0)):
    """(element, matrix to page coordinates) for el and everything below it."""
    m = tb.multiply(m, tb.parse_transform(el.get("transform")))
    yield el, m
    for child in el:
        yield from walk(child, m)


def points_of(attr):
    v = [float(x) for x in re.split(r"[\s,]+", (attr or "").strip()) if x]
    return list(zip(v[0::2], v[1::2]))


def quad(m, x0, y0, x1, y1):
    return [tb.apply(m, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]


def segment_quad(m, a, b, pad):
    (x1, y1), (x2, y2) = tb.apply(m, *a), tb.apply(m, *b)
    dx, dy = x2 - x1, y2 - y1
    n = math.hypot(dx, dy) or 1
    ux, uy = dx / n * pad, dy / n * pad
    nx, ny = -uy, ux
    return [(x1 - ux + nx, y1 - uy + ny), (x2 + ux + nx, y2 + uy + ny),
            (x2 + ux - nx, y2 + uy - ny), (x1 - ux - nx, y1 - uy - ny)]


def marker(el, m):
    """(shape, centre, box) of a point marker."""
    tag = el.tag[len(NS):]
    if tag == "circle":
        cx, cy, r = (float(el.get(k)) for k in ("cx", "cy", "r"))
        return "circle", tb.apply(m, cx, cy), quad(m, cx - r, cy - r, cx + r, cy + r)
    if tag == "rect":
        x, y, w, h = (float(el.get(k)) for k in ("x", "y", "width", "height"))
        shape = "bar" if w > 2 * h else "square"
        return shape, tb.apply(m, x + w / 2, y + h / 2), quad(m, x, y, x + w, y + h)
    pts = points_of(el.get("points"))
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    shape = "polygon%d%s" % (len(pts), "up" if len(pts) == 3 and pts[0][1] < pts[1][1] else "")
    return shape, tb.apply(m, sum(xs) / len(xs), sum(ys) / len(ys)), quad(m, min(xs), min(ys), max(xs), max(ys))


def look(g, m):
    """A series' look, its drawn points (page coordinates) and what of it may not be covered."""
    line, shapes, pts, solid = None, set(), [], []
    for el, mm in walk(g, m):
        tag = el.tag[len(NS):]
        if tag == "polyline":
            p = points_of(el.get("points"))
            width = float(el.get("stroke-width", 1))
            for a, b in zip(p, p[1:]):
                solid.append(segment_quad(mm, a, b, width / 2))
            if el.get("class") != "shade":
                line = (el.get("stroke"), el.get("stroke-dasharray", ""))
                if not pts:
                    pts = [tb.apply(mm, *q) for q in p]
        elif el.get("class") == "point":
            shape, centre, box = marker(el, mm)
            shapes.add((shape, el.get("fill") == "white", el.get("stroke")))
            solid.append(box)
    markers = [marker(el, mm)[1] for el, mm in walk(g, m) if el.get("class") == "point"]
    return (line, tuple(sorted(shapes))), markers or pts, solid


def coincide(a, b, px):
    return len(a) == len(b) and len(a) > 0 and all(
        abs(p[0] - q[0]) <= 0.6 and abs(p[1] - q[1]) <= px for p, q in zip(a, b))


def entry_look(e, m):
    """The look a legend entry shows: its swatch line and marker."""
    line, shapes = None, set()
    for el, mm in walk(e, m):
        tag = el.tag[len(NS):]
        if tag == "line":
            line = (el.get("stroke"), el.get("stroke-dasharray", ""))
        elif el.get("class") == "key":
            shape, _, _ = marker(el, mm)
            shapes.add((shape, el.get("fill") == "white", el.get("stroke")))
    return line, shapes


def check_panel(name, panel, m, texts, bad):
    series = [(el, mm) for el, mm in walk(panel, m) if el.get("class") == "series"]
    looks = [look(g, mm) for g, mm in series]
    entries = [(el, mm) for el, mm in walk(panel, m) if el.get("class") == "entry" and el.get("data-members")]
    groups = [[int(i) for i in e.get("data-members").split()] for e, _ in entries]
    if not entries:
        groups = [[i] for i in range(len(series))]
    seen = sorted(i for g in groups for i in g)
    if seen != list(range(len(series))):
        bad.append("%s: legend entries name series %s of %d" % (name, seen, len(series)))
        return
    label = lambda i: series[i][0].get("data-name")
    for k, g in enumerate(groups):
        for i in g:
            if looks[i][0] != looks[g[0]][0]:
                bad.append("%s: '%s' is drawn unlike '%s' of its legend entry" % (name, label(i), label(g[0])))
        if entries:
            line, shapes = entry_look(*entries[k])
            own_line, own_shapes = looks[g[0]][0]
            if (own_line and line != own_line) or (own_shapes and not shapes <= set(own_shapes)):
                bad.append("%s: the legend shows '%s' unlike its line or markers" % (name, label(g[0])))
        # one entry: its series coincide, each with another of them
        for i in g:
            if len(g) > 1 and not any(coincide(looks[i][1], looks[j][1], TOGETHER_PX) for j in g if j != i):
                bad.append("%s: '%s' is named with %s but does not coincide with them" %
                           (name, label(i), [label(j) for j in g if j != i]))
    for a in range(len(groups)):
        for b in range(a + 1, len(groups)):
            if looks[groups[a][0]][0] == looks[groups[b][0]][0]:
                bad.append("%s: '%s' and '%s' look the same" % (name, label(groups[a][0]), label(groups[b][0])))
            for i in groups[a]:
                for j in groups[b]:
                    if coincide(looks[i][1], looks[j][1], APART_PX):
                        bad.append("%s: '%s' and '%s' coincide on the plot but the legend names them apart" %
                                   (name, label(i), label(j)))
    solid = [(label(i), q) for i, lk in enumerate(looks) for q in lk[2]]
    for s, c in texts:
        for what, q in solid:
            if tb.overlap(c, q):
                bad.append("%s: the text '%s' lies on the data of '%s'" % (name, s, what))
                break
    frame = next((el for el, _ in walk(panel, m) if el.get("class") == "frame"), None)
    for band, _ in ((el, mm) for el, mm in walk(panel, m) if el.get("class") == "band"):
        if frame is not None and float(band.get("height")) > 0.4 * float(frame.get("height")):
            bad.append("%s: the noise band fills %.0f%% of the plot's height: noise looks like steps" %
                       (name, 100 * float(band.get("height")) / float(frame.get("height"))))


def main():
    svg = sys.argv[1]
    font = tb.Font(sys.argv[2] if len(sys.argv) > 2 else None)
    root = ET.parse(svg).getroot()
    _, boxes = tb.text_boxes(svg, font)
    panels = [(el, mm) for el, mm in walk(root) if el.get("class") == "panel"] or [(root, (1, 0, 0, 1, 0, 0))]
    bad = []
    for k, (panel, m) in enumerate(panels):
        # the texts of this panel: those whose box lies in its vertical extent
        ys = [tb.apply(m, 0, 0)[1]]
        frame = next((el for el, mm in walk(panel, m) if el.get("class") == "frame"), None)
        top, bottom = ys[0], ys[0] + (float(frame.get("y")) + float(frame.get("height")) + 100 if frame is not None else 1e9)
        texts = [(s, c) for s, c in boxes if top <= min(p[1] for p in c) < bottom]
        check_panel("%s panel %d" % (svg, k + 1), panel, m, texts, bad)
    for line in bad:
        print(line)
    print("%s: %d panels, %d problems" % (svg, len(panels), len(bad)), file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
