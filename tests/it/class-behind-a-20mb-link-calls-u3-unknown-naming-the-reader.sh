#!/usr/bin/env bash
# A fast U3 card (rpi-a2: ~59 MB/s writes) behind a 20 MiB/s link: its
# writes run at the link's ceiling, so U3 and V30 are unknown, and the line
# names the reader's cap (the link's large sequential reads) instead of
# blaming the card; C10, which the link carries, is met. Exit 1: not every
# claim could be confirmed. Without the link, U3 is met.
. "$(dirname "$0")/../lib.sh"

run "$FB" --class sim:rpi-a2,link=20M/s
expect_rc 1
first=$(printf '%s\n' "$out" | head -n 1)
[[ $first =~ ^unknown:\ U3,\ V30:\ the\ reader\ caps\ this\ at\ (2[01](\.[0-9])?M/s) ]] ||
	fail "first line: $first"
cap=${BASH_REMATCH[1]}
[[ $first == *"promised 30M/s; C10 met, A2 met" ]] || fail "first line: $first"
expect_out "^link: +large sequential reads at $cap"
expect_out "^U3 +sustained sequential writes +1 +30M/s +2[01](\.[0-9])?M/s +unknown$"

run "$FB" --class sim:rpi-a2
expect_rc 0
expect_out "^U3 +sustained sequential writes .* met "
exit 0
