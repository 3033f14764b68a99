#!/usr/bin/env bash
# Every --plot renders, with a real SVG renderer from Debian packages
# (rsvg-convert from librsvg2-bin, or headless chromium), to a picture with
# ink on it: axes, labels and data, not an empty white page.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3 to read the PNG"
render() {
	if command -v rsvg-convert >/dev/null; then
		rsvg-convert -b white -o "$2" "$1"
	else
		local c
		c=$(command -v chromium || command -v chromium-browser) || return 1
		"$c" --headless --no-sandbox --disable-gpu --window-size=860,560 \
			--screenshot="$2" "file://$1" >/dev/null 2>&1
	fi
}
command -v rsvg-convert >/dev/null || command -v chromium >/dev/null ||
	command -v chromium-browser >/dev/null || skip "no rsvg-convert or chromium to render SVG"

# ink PNG: share of pixels that are not (nearly) white, in per mille
cat >"$T/ink.py" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, color = struct.unpack(">IIBB", body[:10])
        assert depth == 8 and color in (2, 6), (depth, color)
        bpp = 3 if color == 2 else 4
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
raw, stride, prev, ink = zlib.decompress(idat), w * bpp, None, 0
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b = prev[i] if prev else 0
        c = prev[i - bpp] if prev and i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    ink += sum(1 for x in range(0, stride, bpp) if min(line[x:x + 3]) < 200)
    prev = line
print(ink * 1000 // (w * h))
PY

dev=sim:sdxc-tlc
for args in "-a" "-O --open-au-nr=3" "-f" "-s --scatter-order=6" "-i --interval-order=6" "-p"; do
	name=$(printf '%s' "$args" | tr -c 'a-zA-Z0-9' '_')
	# shellcheck disable=SC2086
	"$FB" $args --plot="$T/$name.svg" "$dev" >/dev/null || fail "$args --plot failed"
	render "$T/$name.svg" "$T/$name.png" || fail "$args: the SVG does not render"
	ink=$(pyrun "$T/ink.py" "$T/$name.png") || fail "$args: unreadable PNG"
	# a frame, grid, labels and a line: a few per cent of the page; blank is 0
	[ "$ink" -ge 10 ] || fail "$args: the rendered plot is (nearly) blank: $ink per mille ink"
done
exit 0
