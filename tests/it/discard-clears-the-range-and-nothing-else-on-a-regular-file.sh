#!/usr/bin/env bash
# --discard=OFF:LEN discards exactly that range (reads back as zeros) and
# says what it did.
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
