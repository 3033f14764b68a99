#!/usr/bin/env bash
# -O writes open-au-nr erase blocks from --offset (default: the first
# erase-size multiple >= 16 MiB), 12 erase sizes apart where they fit (as
# the original), and nothing else.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_shm_file card 48; f=$SHMFILE
fill_random "$f" 48
cp "$f" "$T/orig"
run "$FB" -O -e 3M -b 768K "$f"
expect_rc 0
# default offset for 3 MiB erase blocks: 18 MiB; two of them, 12 erase
# sizes apart would end at 57 MiB, so 9 apart: 18..21 and 45..48 MiB
same() { cmp -s -i "$(($1 << 20)):$(($1 << 20))" -n $((($2 - $1) << 20)) "$f" "$T/orig"; }
same 0 18 || fail "bytes before 18 MiB changed"
same 18 21 && fail "nothing written at 18..21 MiB"
same 21 45 || fail "bytes in 21..45 MiB changed"
same 45 48 && fail "nothing written at 45..48 MiB"

cp "$T/orig" "$f"
run "$FB" -O -e 1M -b 256K --offset=5M --open-au-nr=1 "$f"
expect_rc 0
cmp -s <(head -c $((5 << 20)) "$f") <(head -c $((5 << 20)) "$T/orig") || fail "bytes before --offset changed"
cmp -s <(tail -c $((42 << 20)) "$f") <(tail -c $((42 << 20)) "$T/orig") || fail "bytes after offset + 1 MiB changed"
