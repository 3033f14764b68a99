#!/usr/bin/env bash
# A genuine device whose size is not a whole number of its 4096-byte logical
# blocks (a loop device, losetup -b 4096, over a 17,000,448-byte file): the
# last 2048 bytes cannot be addressed in 4 KiB I/O, which is a fact of the
# device, not lost data: --capacity says genuine (exit 0) and notes the
# addressable size, in text and JSON (it used to say "counterfeit ...
# stores 16998400 of 17000448 bytes (writes beyond are lost)", exit 1).
# The device is left byte-identical.
. "$(dirname "$0")/../lib.sh"
img=$(random_image odd.img 17000448)
cp "$img" "$T/orig"
loop=$(make_loop "$img" -b 4096)
[ "$(blockdev --getss "$loop" 2>/dev/null)" = 4096 ] || skip "no loop device of 4096-byte sectors"
[ "$(blockdev --getsize64 "$loop")" = 17000448 ] || skip "the loop device does not advertise the file's size"

run "$FB" --capacity "$loop"
expect_rc 0
expect_out "^genuine: "
expect_out "^addressable: +16998400 bytes: the last 2048 .*not a sign of a fake"
run "$FB" --capacity --json "$loop"
expect_rc 0
expect_out '"verdict": "genuine"'
expect_out '"addressable_bytes": 16998400'
cmp -s "$img" "$T/orig" || fail "the device differs after the check"
exit 0
