#!/usr/bin/env bash
# -i: for each size 512*2^i, one warm-up read, then --count reads, each at a
# new place (never the same place twice in a row, so a read buffer cannot
# serve a try); on a card with exact timing the fit line is a real fit.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

order=6 count=4 largest=$((512 << 5))
run "$FB" -i --interval-order=$order --count=$count "sim:size=64M,trace=$T/trace"
expect_rc 0
check_interval $order
expect_out '^[0-9.]+ MB/s, [0-9.]+µs access time$'

want=$(for ((i = 0; i < order; i++)); do
	for ((k = 0; k <= count; k++)); do echo "R $((k * largest)) $((512 << i))"; done
done)
[ "$(cat "$T/trace")" = "$want" ] || fail "reads: $(tr '\n' ' ' <"$T/trace" | head -c 600)"

# near the end of the card the places close up but stay distinct and inside
size=$((64 << 20)) off=$((size - 4 * largest))
run "$FB" -i --interval-order=$order --count=$count --offset=$off "sim:size=64M,trace=$T/trace2"
expect_rc 0
check_interval $order
awk -v size=$size -v off=$off -v n=$((count + 1)) '
	$1 != "R" || $2 < off || $2 + $3 > size { print "bad read: " $0; exit 1 }
	{ k = (NR - 1) % n; if (k && $2 <= last) { print "not spread: " $0; exit 1 }; last = $2 }
' "$T/trace2" || fail "reads near the end: $(head -n 10 "$T/trace2" | tr '\n' ' ')"
