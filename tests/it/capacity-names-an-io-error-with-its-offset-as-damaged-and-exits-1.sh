#!/usr/bin/env bash
# --capacity on a card whose I/O fails: verdict "damaged", first line names
# read or write, the offset and the error; exit 1. A write failing at the
# last sector also bounds the real size; a failing read elsewhere does not.
. "$(dirname "$0")/../lib.sh"

run "$FB" --capacity sim:size=1G,fail-at=1073741312
expect_rc 1
[ "$(printf '%s\n' "$out" | head -n 1)" = "damaged: write failed at offset 1073741312 (Input/output error); advertises 1GiB, stores 1073741312 of 1073741824 bytes" ] ||
	fail "first line: $(printf '%s\n' "$out" | head -n 1)"
expect_out "^verdict: +damaged$"

run "$FB" --capacity sim:size=1G,fail-at=600M
expect_rc 1
[ "$(printf '%s\n' "$out" | head -n 1)" = "damaged: read failed at offset 629145600 (Input/output error)" ] ||
	fail "first line: $(printf '%s\n' "$out" | head -n 1)"
expect_out "^real size: +1073741824 bytes"
exit 0
