#!/usr/bin/env bash
# Every --plot, on cards with 4MiB, 12MiB (3*2^n) and 8MiB (A2) erase blocks,
# renders (rsvg-convert) and no text in it overlaps other text or leaves
# the page: the boxes come from the font's own glyph widths
# (tests/svg_text_boxes.py), rotated tick labels included, so e.g. the slanted
# labels of -a and -p stay clear of the x-axis title. --auto's panels too.
# And the reader can tell the data apart (tests/svg_series.py): every legend
# entry of a panel has a look of its own (colour, dash, marker), series that
# coincide on the plot share one entry that says so, no label lies on the
# data, a noise band leaves the axis room; on a RAM disk too (no steps).
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"
command -v rsvg-convert >/dev/null || skip "no rsvg-convert (librsvg2-bin; .ci/run installs it)"
font=$(fc-match -f '%{file}' "DejaVu Sans" 2>/dev/null) || font=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
case $font in *.ttf) [ -r "$font" ] || font= ;; *) font= ;; esac	# without it: 0.62 em a character, generous

n=0 svgs=()
all="-a|-a --blocksize=1K|-O --open-au-nr=3|-O --open-au-nr=12|-O --random --open-au-nr=6|-f|-s --scatter-order=8|-i --interval-order=12|-p|--class|--auto|--auto --destructive"
for dev in sim:sdhc-good sim:sdxc-tlc sim:rpi-a2 sim:microsd-cheap sim:ram; do
	case $dev in
	sim:microsd-cheap) list="-O --open-au-nr=2|-f|--class|--auto --destructive" ;;	# collapses, blocks alike
	sim:ram) list="-a|-p|--auto --destructive" ;;	# no steps
	*) list=$all ;;
	esac
	IFS='|' read -r -a argv <<<"$list"
	for args in "${argv[@]}"; do
		name=$(printf '%s %s' "$dev" "$args" | tr -c 'a-zA-Z0-9' '_')
		# shellcheck disable=SC2086
		"$FB" $args --plot="$T/$name.svg" "$dev" >"$T/err" 2>&1
		rc=$?	# 1 from --class: a claim found short, plotted all the same
		[ "$rc" = 1 ] && [ "$args" = --class ] && [ ! -s "$T/$name.svg" ] && grep -q "^unknown: no claim" "$T/err" && continue
		[ "$rc" = 0 ] || { [ "$rc" = 1 ] && [ "$args" = --class ]; } || fail "$dev $args --plot: exit $rc: $(cat "$T/err")"
		[ -s "$T/$name.svg" ] || fail "$dev $args: no plot"
		rsvg-convert -b white -o "$T/$name.png" "$T/$name.svg" 2>"$T/err" ||
			fail "$dev $args: the plot does not render: $(cat "$T/err")"
		[ -s "$T/$name.png" ] || fail "$dev $args: an empty picture"
		pyrun "$TESTS_DIR/svg_series.py" "$T/$name.svg" $font >"$T/series" 2>/dev/null ||
			fail "$dev $args: $(head -n 3 "$T/series")"
		svgs+=("$T/$name.svg")
		n=$((n + 1))
	done
done
# every plot's text boxes, in one run (the font is read once); a line names the plot
pyrun "$TESTS_DIR/svg_text_boxes.py" ${font:+--font "$font"} "${svgs[@]}" >"$T/overlaps" 2>/dev/null ||
	fail "$(head -n 3 "$T/overlaps")"
echo "$n plots rendered, no text overlaps, every series told apart"
exit 0
