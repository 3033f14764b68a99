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
raw, stride = zlib.decompress(idat), w * bpp
# the filters undone a row at a time: Up and Sub as byte-wise sums mod 256 on
# the whole row as one integer (each byte a lane), Average and Paeth a byte at a time
M7, H = int.from_bytes(b"\x7f" * stride, "little"), int.from_bytes(b"\x80" * stride, "little")
ROW = (1 << (8 * stride)) - 1
def add(x, y):  # byte-wise (x + y) mod 256
    return ((x & M7) + (y & M7)) ^ ((x ^ y) & H)
dark = bytes(1 if v < 200 else 0 for v in range(256))
prev, ink = bytes(stride), 0
for y in range(h):
    f, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
    if f == 1:  # Sub: a prefix sum along each channel
        s, d = int.from_bytes(line, "little"), bpp
        while d < stride:
            s = add(s, (s << 8 * d) & ROW)
            d *= 2
        line = s.to_bytes(stride, "little")
    elif f == 2:  # Up
        line = add(int.from_bytes(line, "little"), int.from_bytes(prev, "little")).to_bytes(stride, "little")
    elif f == 3:  # Average
        out = bytearray(line)
        for i in range(stride):
            out[i] = (out[i] + ((out[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        line = bytes(out)
    elif f == 4:  # Paeth: of left a, up b, up-left c the one nearest a + b - c
        out = bytearray(line)
        for i in range(bpp):
            out[i] = (out[i] + prev[i]) & 255  # a = c = 0: b is nearest
        for i in range(bpp, stride):
            a, b, c = out[i - bpp], prev[i], prev[i - bpp]
            pa, pb = b - c, a - c
            pc = pa + pb
            if pa < 0: pa = -pa
            if pb < 0: pb = -pb
            if pc < 0: pc = -pc
            out[i] = (out[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        line = bytes(out)
    # a pixel is ink where one of its red, green, blue is below 200
    t = line.translate(dark)
    ink += bin(int.from_bytes(t[0::bpp], "little") | int.from_bytes(t[1::bpp], "little") |
               int.from_bytes(t[2::bpp], "little")).count("1")
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
