#!/usr/bin/env python3
"""Text in an SVG plot that overlaps other text or leaves the page.

usage: svg_text_boxes.py [--font FONT.ttf] FILE.svg...
       svg_text_boxes.py FILE.svg FONT.ttf

Every <text> gets its box as a renderer lays it out: the advance widths of
its characters in the font (read from the TrueType file the renderer uses;
without one, a generous 0.62 em each), ascent and descent, text-anchor and
the rotate/translate transforms on it and its groups (textLength is not
believed: librsvg ignores it). Two
boxes that overlap, or a box outside the page, are printed one per line and
make the exit status 1. Texts inside <title> are tooltips, not drawn.
"""
import math
import re
import struct
import sys
import xml.etree.ElementTree as ET

NS = "{http://www.w3.org/2000/svg}"
ASCENT, DESCENT = 0.76, 0.24  # DejaVu Sans, in em
SLACK = 0.5  # px: boxes that merely touch do not overlap


class Font:
    """Advance widths from a TrueType file's cmap (format 4) and hmtx tables."""

    def __init__(self, path):
        self.widths, self.default = {}, 0.62
        if not path:
            return
        try:
            data = open(path, "rb").read()
        except OSError:
            return
        n = struct.unpack(">H", data[4:6])[0]
        tables = {}
        for i in range(n):
            tag, _, off, length = struct.unpack(">4sIII", data[12 + 16 * i:28 + 16 * i])
            tables[tag] = (off, length)
        upem = struct.unpack(">H", data[tables[b"head"][0] + 18:tables[b"head"][0] + 20])[0]
        nhm = struct.unpack(">H", data[tables[b"hhea"][0] + 34:tables[b"hhea"][0] + 36])[0]
        hmtx = tables[b"hmtx"][0]
        adv = [struct.unpack(">H", data[hmtx + 4 * i:hmtx + 4 * i + 2])[0] for i in range(nhm)]
        cmap = tables[b"cmap"][0]
        nsub = struct.unpack(">H", data[cmap + 2:cmap + 4])[0]
        for i in range(nsub):
            pid, eid, off = struct.unpack(">HHI", data[cmap + 4 + 8 * i:cmap + 12 + 8 * i])
            sub = cmap + off
            if struct.unpack(">H", data[sub:sub + 2])[0] == 4 and pid in (0, 3):
                self._format4(data, sub, adv, upem)
                break

    def _format4(self, data, sub, adv, upem):
        segx2 = struct.unpack(">H", data[sub + 6:sub + 8])[0]
        ends = sub + 14
        starts = ends + segx2 + 2
        deltas = starts + segx2
        ranges = deltas + segx2
        for s in range(segx2 // 2):
            end, start = (struct.unpack(">H", data[a + 2 * s:a + 2 * s + 2])[0] for a in (ends, starts))
            delta = struct.unpack(">h", data[deltas + 2 * s:deltas + 2 * s + 2])[0]
            roff = struct.unpack(">H", data[ranges + 2 * s:ranges + 2 * s + 2])[0]
            for c in range(start, min(end, 0x2fff) + 1):
                if roff:
                    at = ranges + 2 * s + roff + 2 * (c - start)
                    g = struct.unpack(">H", data[at:at + 2])[0]
                    g = (g + delta) & 0xffff if g else 0
                else:
                    g = (c + delta) & 0xffff
                self.widths[chr(c)] = adv[min(g, len(adv) - 1)] / upem

    def width(self, text, size):
        return sum(self.widths.get(ch, self.default) for ch in text) * size


def parse_transform(s):
    """The transform attribute as a 2x3 matrix (a, b, c, d, e, f)."""
    m = (1, 0, 0, 1, 0, 0)
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", s or ""):
        v = [float(x) for x in re.split(r"[\s,]+", args.strip()) if x]
        if name == "translate":
            t = (1, 0, 0, 1, v[0], v[1] if len(v) > 1 else 0)
        elif name == "rotate":
            a = math.radians(v[0])
            cx, cy = (v[1], v[2]) if len(v) == 3 else (0, 0)
            cos, sin = math.cos(a), math.sin(a)
            t = (cos, sin, -sin, cos, cx - cos * cx + sin * cy, cy - sin * cx - cos * cy)
        elif name == "scale":
            t = (v[0], 0, 0, v[1] if len(v) > 1 else v[0], 0, 0)
        else:
            continue
        m = multiply(m, t)
    return m


def multiply(m, t):
    a, b, c, d, e, f = m
    A, B, C, D, E, F = t
    return (a * A + c * B, b * A + d * B, a * C + c * D, b * C + d * D, a * E + c * F + e, b * E + d * F + f)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def text_boxes(svg, font):
    root = ET.parse(svg).getroot()
    page = (float(root.get("width", 0)), float(root.get("height", 0)))
    boxes = []

    def walk(el, m, size, anchor):
        if el.tag == NS + "title":
            return
        m = multiply(m, parse_transform(el.get("transform")))
        size = float(el.get("font-size", size))
        anchor = el.get("text-anchor", anchor)
        if el.tag == NS + "text":
            s = "".join(el.itertext())
            if not s.strip():
                return
            x, y = float(el.get("x", 0)), float(el.get("y", 0))
            w = font.width(s, size)  # not textLength: librsvg ignores it
            x0 = x - {"middle": w / 2, "end": w}.get(anchor, 0)
            corners = [apply(m, px, py) for px, py in
                       ((x0, y - ASCENT * size), (x0 + w, y - ASCENT * size),
                        (x0 + w, y + DESCENT * size), (x0, y + DESCENT * size))]
            boxes.append((s, corners))
            return
        for child in el:
            walk(child, m, size, anchor)

    walk(root, (1, 0, 0, 1, 0, 0), 16.0, "start")
    return page, boxes


def overlap(p, q):
    """Do two convex quadrilaterals overlap by more than SLACK (separating axes)?"""
    for poly in (p, q):
        for i in range(4):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % 4]
            nx, ny = y1 - y2, x2 - x1
            n = math.hypot(nx, ny) or 1
            nx, ny = nx / n, ny / n
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) + SLACK or max(b) <= min(a) + SLACK:
                return False
    return True


def problems(svg, font):
    """the lines naming what overlaps or leaves the page in svg"""
    (w, h), boxes = text_boxes(svg, font)
    bad = []
    for s, c in boxes:
        xs, ys = [p[0] for p in c], [p[1] for p in c]
        if min(xs) < -SLACK or min(ys) < -SLACK or max(xs) > w + SLACK or max(ys) > h + SLACK:
            bad.append("%s: '%s' leaves the %gx%g page (%.0f..%.0f, %.0f..%.0f)" %
                       (svg, s, w, h, min(xs), max(xs), min(ys), max(ys)))
    for i in range(len(boxes)):
        for j in range(i + 1, len(boxes)):
            if overlap(boxes[i][1], boxes[j][1]):
                bad.append("%s: '%s' overlaps '%s'" % (svg, boxes[i][0], boxes[j][0]))
    print("%s: %d texts, %d problems" % (svg, len(boxes), len(bad)), file=sys.stderr)
    return bad


def main():
    args = sys.argv[1:]
    font = None
    if len(args) >= 2 and args[0] == "--font":
        font, args = args[1], args[2:]
    elif len(args) == 2 and args[1].endswith(".ttf"):
        args, font = args[:1], args[1]
    if not args:
        sys.exit(__doc__)
    font = Font(font)	# read once for every file
    bad = [line for svg in args for line in problems(svg, font)]
    for line in bad:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
