#!/usr/bin/env bash
# --capacity on a loop device over a random-filled file: "genuine" on the
# first line, exit 0, it did write to the device, and afterwards the file is
# byte-identical, with the saved data in memory and with --backup=FILE.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image card.img 96M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

run "$FB" --capacity "$loop"
expect_rc 0
[ "$(printf '%s\n' "$out" | head -n 1)" = "genuine: stores all of its advertised 96MiB" ] ||
	fail "first line: $(printf '%s\n' "$out" | head -n 1)"
expect_out "^real size: +100663296 bytes"
expect_out "^data: +every overwritten sector restored and verified"
[ "$(sectors_written "$loop")" -gt 16384 ] || fail "it wrote less than 8MiB: it tested nothing"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs after --capacity"

run "$FB" --capacity --backup="$T/saved" "$loop"
expect_rc 0
expect_out "^genuine"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs after --capacity --backup"
exit 0
