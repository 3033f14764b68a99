#!/usr/bin/env bash
# --class checks its options against the plan before the first I/O: where
# the erase size is known without I/O, or where no erase size -a could find
# would make the plan fit, a --max-write below it is refused with exit 2,
# one line, nothing read or written (it used to read ~63MB with -a first);
# where only the measured size makes it too small, the refusal comes after
# -a's reads, exit 1, saying so, and nothing is written. A device with room
# for fewer than the 4 erase blocks a sustained rate needs (--erasesize=64M
# on 256MiB) is refused before anything is written (it used to write 384MiB,
# then say "unknown: area too small").
. "$(dirname "$0")/../lib.sh"
trace=$T/trace
writes() { awk '$1 == "W" { n += $3 } END { print n + 0 }' "$trace"; }

: > "$trace"
run "$FB" --class --claim=C10 --max-write=1 "sim:sdhc-good,claims=none,trace=$trace"
expect_usage_error "--max-write=1" "use --max-write=128M or more"
[ ! -s "$trace" ] || fail "--max-write=1 was refused after $(wc -l < "$trace") I/Os"

: > "$trace"
run "$FB" --class --claim=C10 --max-write=130M "sim:sdxc-tlc,claims=none,trace=$trace"
expect_rc 1
expect_err "^flashbench: --max-write=130M: --class writes at least 144MiB .*use --max-write=144M or more \(the erase size was measured first, with -a: read only, nothing written\)$"
[ "$(writes)" = 0 ] || fail "a refused --max-write wrote $(writes) bytes"

: > "$trace"
run "$FB" --class --claim=C10 --erasesize=64M "sim:size=256M,trace=$trace"
expect_usage_error "room for 3 erase blocks of 64MiB" "needs 4"
[ ! -s "$trace" ] || fail "--erasesize=64M on 256MiB did $(wc -l < "$trace") I/Os"

: > "$trace"
run "$FB" --class --claim=C10 --max-write=128M "sim:sdhc-good,claims=none,trace=$trace"
expect_rc 0
[ "$(writes)" -le $((128 << 20)) ] || fail "wrote $(writes) bytes, more than --max-write=128M"
exit 0
