#!/usr/bin/env bash
# --discard=OFF:LEN discards exactly that range (reads back as zeros), on a
# regular file and on a loop device, and says what it did.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 8; f=$SHMFILE
fill_random "$f" 8
cp "$f" "$T/orig"
run "$FB" --discard=1M:2M "$f"
expect_rc 0
[[ $out =~ ^discarded\ 2MiB\ at\ offset\ 1048576\ in\ $TIME_RE$ ]] || fail "output: $out"
cmp -s <(head -c $((3 << 20)) "$f" | tail -c $((2 << 20))) <(head -c $((2 << 20)) /dev/zero) || fail "range not zero"
cmp -s <(head -c $((1 << 20)) "$f") <(head -c $((1 << 20)) "$T/orig") || fail "before the range changed"
cmp -s <(tail -c $((5 << 20)) "$f") <(tail -c $((5 << 20)) "$T/orig") || fail "after the range changed"

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
