#!/usr/bin/env bash
# --class states up front what it writes; --max-write smaller than the least
# it needs (the area once, the random writes, the restore) is refused before
# any I/O (exit 2, one line) naming the smallest value that works, and that
# value runs, writing the area once. Test data and the restore both count.
. "$(dirname "$0")/../lib.sh"

spec="sim:rpi-a2,trace=$T/trace"
: > "$T/trace"
run "$FB" --class --max-write=100MiB "$spec"
expect_rc 2
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "not one line: $errout"
[[ $errout =~ ^flashbench:\ --max-write=100MiB:\ --class\ writes\ at\ least\ 144MiB\ .*:\ use\ --max-write=([0-9]+M)\ or\ more$ ]] ||
	fail "message: $errout"
want=${BASH_REMATCH[1]}
[ ! -s "$T/trace" ] || fail "the refused run did I/O: $(head -n 3 "$T/trace")"
[ -z "$out" ] || fail "stdout: $out"

run "$FB" --class --max-write="$want" "$spec"
expect_rc 0
expect_err "^flashbench: sim:rpi-a2,trace=.*: --class writes at most 80MiB"
written=$(awk '$1 == "W" { n += $3 } END { print n + 0 }' "$T/trace")
[ "$written" -le $((144 << 20)) ] || fail "wrote $written bytes"
: > "$T/trace"
run "$FB" --class --max-write=$((144 * 1024 * 1024 - 512)) "$spec"
expect_rc 2
expect_err "use --max-write=144M or more"
[ ! -s "$T/trace" ] || fail "the refused run did I/O"
exit 0
