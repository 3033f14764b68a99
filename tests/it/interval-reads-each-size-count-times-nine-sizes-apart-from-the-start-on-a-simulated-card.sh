#!/usr/bin/env bash
# -i as the original: for each size 512*2^i, --count reads at 0, 9 sizes,
# 18 sizes ... from the start (or --offset), no warm-up read; on a card with
# exact timing the fit line is a real fit. Where the last read would pass
# the end of the device the run is refused, naming the order.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

order=6 count=4
run "$FB" -i --interval-order=$order --count=$count "sim:size=64M,trace=$T/trace"
expect_rc 0
check_interval $order
expect_out '^[0-9.]+ MB/s, [0-9.]+µs access time$'

want=$(for ((i = 0; i < order; i++)); do
	for ((k = 0; k < count; k++)); do echo "R $((k * 9 * (512 << i))) $((512 << i))"; done
done)
[ "$(cat "$T/trace")" = "$want" ] || fail "reads: $(tr '\n' ' ' <"$T/trace" | head -c 600)"

off=$((1 << 20))
run "$FB" -i --interval-order=$order --count=$count --offset=$off "sim:size=64M,trace=$T/trace2"
expect_rc 0
[ "$(cat "$T/trace2")" = "$(printf '%s\n' "$want" | awk -v o=$off '{ print $1, $2 + o, $3 }')" ] ||
	fail "reads from --offset: $(head -n 6 "$T/trace2" | tr '\n' ' ')"

# 4 reads of 16 KiB reach 3 * 9 * 16 KiB + 16 KiB = 448 KiB past the offset
run "$FB" -i --interval-order=$order --count=$count --offset=$(((64 << 20) - (440 << 10))) "sim:size=64M,trace=$T/trace3"
expect_rc 2
expect_err "^flashbench: --interval-order=$order: needs 448KiB from offset"
[ ! -s "$T/trace3" ] || fail "a refused -i read: $(head -n 3 "$T/trace3")"
