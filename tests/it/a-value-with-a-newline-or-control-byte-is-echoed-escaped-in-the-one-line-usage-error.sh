#!/usr/bin/env bash
# A value echoed in a usage error (or any message) is written escaped (\n,
# \t, \xNN), so the message stays one line whatever was typed:
# --blocksize=$'4k\n' used to split it into two or three lines. Exit 2,
# nothing read or written; with --json the document carries the same line.
. "$(dirname "$0")/../lib.sh"
: > "$T/trace"
dev="sim:sdhc-good,trace=$T/trace"

run "$FB" -a --blocksize=$'4k\n' "$dev"
expect_usage_error '--blocksize=4k\n: not a valid size'
run "$FB" -a --count=$'8\n\n' "$dev"
expect_usage_error '--count=8\n\n:'
run "$FB" --open-au --erasesize=$'4M\t' "$dev"
expect_usage_error '--erasesize=4M\t'
run "$FB" --class --claim=$'C10\x1b[2J' "$dev"
expect_usage_error '--claim=C10\x1b[2J'
run "$FB" --discard=$'16M\n:4M' "$dev"
expect_usage_error '--discard=16M\n:4M'
run "$FB" $'--blocksize\n=4k' -a "$dev"
expect_usage_error 'blocksize\n=4k'
run "$FB" $'no\nsuch' "$dev"
expect_usage_error 'no\nsuch: only one device at a time'
run "$FB" --restore=$'no\nbackup' "$dev"
expect_usage_error '--restore: no\nbackup: No such file'
run "$FB" --json -a --blocksize=$'4k\n' "$dev"
expect_rc 2
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "--json: not one line on stderr: $errout"
grep -qF '4k\\n: not a valid size' "$T/.out" || fail "the document lacks the escaped value: $out"
[ ! -s "$T/trace" ] || fail "a refused run did I/O: $(head -n 3 "$T/trace")"
exit 0
