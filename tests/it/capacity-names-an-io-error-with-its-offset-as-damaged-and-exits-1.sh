#!/usr/bin/env bash
# --capacity on a card whose I/O fails: verdict "damaged", first line names
# read or write, the offset and the error; exit 1. A failing read where the
# check reads only does not bound the real size. A failing sector among
# those it would overwrite cannot be saved: then it writes nothing and
# states no verdict, naming the offset (exit 1).
. "$(dirname "$0")/../lib.sh"

run "$FB" --capacity sim:size=1G,fail-at=1073741312
expect_rc 1
[ "$(printf '%s\n' "$out" | head -n 1)" = "no verdict: could not save what round 0 would overwrite, so it wrote nothing: sim:size=1G,fail-at=1073741312: reading 512 bytes at offset 1073741312: Input/output error" ] ||
	fail "first line: $(printf '%s\n' "$out" | head -n 1)"
expect_out "^verdict: +unknown$"
expect_out "^written: +0 bytes"

run "$FB" --capacity sim:size=1G,fail-at=600M
expect_rc 1
[ "$(printf '%s\n' "$out" | head -n 1)" = "damaged: read failed at offset 629145600 (Input/output error)" ] ||
	fail "first line: $(printf '%s\n' "$out" | head -n 1)"
expect_out "^real size: +1073741824 bytes"
exit 0
