#!/usr/bin/env bash
# --discard=OFF:LEN discards exactly that range (reads back as zeros) and
# says what it did.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

g=$(make_file card2 8M)
head -c $((8 << 20)) /dev/urandom >"$g"
cp "$g" "$T/orig2"
use_loop "$g"
[ "$(cat /sys/block/"${LOOP#/dev/}"/queue/discard_max_bytes 2>/dev/null || echo 0)" != 0 ] || skip "loop device without discard"
run "$FB" --discard=4M:512K "$LOOP"
expect_rc 0
[[ $out =~ ^discarded\ 512KiB\ at\ offset\ 4194304\ in\ $TIME_RE$ ]] || fail "output: $out"
losetup -d "$LOOP"
cmp -s <(head -c $((4 << 20)) "$g") <(head -c $((4 << 20)) "$T/orig2") || fail "loop: before the range changed"
cmp -s <(tail -c $(((4 << 20) - (512 << 10))) "$g") <(tail -c $(((4 << 20) - (512 << 10))) "$T/orig2") || fail "loop: after the range changed"
cmp -s <(head -c $(((4 << 20) + (512 << 10))) "$g" | tail -c $((512 << 10))) <(head -c $((512 << 10)) /dev/zero) || fail "loop: range not zero"
