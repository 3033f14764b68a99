#!/usr/bin/env bash
# A2's IOPS need command queueing and the card's cache. The same A2 card
# without them (queue=0: its SD Status shows neither) falls short one at a
# time, and --class calls A2 unknown, saying the figures are not reachable
# and that it is not the card's fault; with them (the preset) A2 is met at
# the SD Status's queue depth. A card that queues and still falls short is
# short (map-unit=64K: every 4 KiB write rewrites 64 KiB, which no queue hides).
. "$(dirname "$0")/../lib.sh"

run "$FB" --class sim:rpi-a2,queue=0
expect_rc 1
first=$(printf '%s\n' "$out" | head -n 1)
[[ $first == "unknown: A2: the SD Status shows no command queue and no cache: A2's figures are not reachable without command queueing and the card's cache, and that is not the card's fault; C10 met, U3 met, V30 met" ]] ||
	fail "first line: $first"

run "$FB" --class sim:rpi-a2
expect_rc 0
expect_out "^A2 +random 4KiB writes +8 +2000 IOPS .* met "
expect_out "^queued: .* 8 in flight \(the depth in the card's SD Status; the device path kept 8 in flight; SD Status: command queue, cache\)"

run "$FB" --class sim:rpi-a2,map-unit=64K
expect_rc 1
expect_out "^short: A2: random 4KiB writes [0-9]+ IOPS, promised 2000 IOPS \(8 in flight\)"
exit 0
