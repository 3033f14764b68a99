#!/usr/bin/env bash
# -O writes open-au-nr erase blocks from --offset (default: the first
# erase-size multiple >= 16 MiB) and nothing else.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 48; f=$SHMFILE
fill_random "$f" 48
cp "$f" "$T/orig"
run "$FB" -O -e 3M -b 768K "$f"
expect_rc 0
# default offset for 3 MiB erase blocks: 18 MiB; two of them: 18..24 MiB
cmp -s <(head -c $((18 << 20)) "$f") <(head -c $((18 << 20)) "$T/orig") || fail "bytes before 18 MiB changed"
cmp -s <(tail -c $((24 << 20)) "$f") <(tail -c $((24 << 20)) "$T/orig") || fail "bytes after 24 MiB changed"
cmp -s <(head -c $((24 << 20)) "$f" | tail -c $((6 << 20))) <(head -c $((24 << 20)) "$T/orig" | tail -c $((6 << 20))) &&
	fail "nothing written at 18..24 MiB"

cp "$T/orig" "$f"
run "$FB" -O -e 1M -b 256K --offset=5M --open-au-nr=1 "$f"
expect_rc 0
cmp -s <(head -c $((5 << 20)) "$f") <(head -c $((5 << 20)) "$T/orig") || fail "bytes before --offset changed"
cmp -s <(tail -c $((42 << 20)) "$f") <(tail -c $((42 << 20)) "$T/orig") || fail "bytes after offset + 1 MiB changed"
