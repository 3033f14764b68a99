#!/usr/bin/env bash
# --capacity with options it would ignore, or a bad sim: fake, is a one-line
# usage error naming the option and its value as typed, exit 2, and the card
# is not touched (record= stays empty).
. "$(dirname "$0")/../lib.sh"

# ARGS|what the one line names (|-separated)
for c in "-b 4K|--blocksize=4K" "-c 3|--count=3" "--offset=1M|--offset=1M" \
	 "--on-error=continue|--on-error=continue" "--plot=$T/x.svg|--plot=$T/x.svg" \
	 "--max-write=1G|--max-write=1G" "--destructive|--destructive" "-a|--align|--capacity"; do
	args=${c%%|*}
	IFS='|' read -r -a named <<<"${c#*|}"
	: > "$T/rec"
	# shellcheck disable=SC2086
	run "$FB" --capacity $args "sim:size=1G,real-size=100M,record=$T/rec"
	expect_usage_error "${named[@]}"
	[ ! -s "$T/rec" ] || fail "$args: wrote to the card"
	[ ! -e "$T/x.svg" ] || fail "$args: created the plot file"
done
for c in "size=1G,real-size=1G|real-size=1GiB" "size=1G,real-size=1000|real-size=1000" \
	 "size=1G,real-size=100M,fake=mirror|fake=mirror" "size=1G,cache=2G|cache=2GiB"; do
	: > "$T/rec"
	run "$FB" --capacity "sim:${c%%|*},record=$T/rec"
	expect_usage_error "sim: ${c#*|}"
	[ ! -s "$T/rec" ] || fail "sim:${c%%|*}: wrote to the card"
done
exit 0
