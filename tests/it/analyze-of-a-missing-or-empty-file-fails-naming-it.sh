#!/usr/bin/env bash
# A file that cannot be read, or holds no flashbench output: one line naming
# it on stderr, exit 1, nothing on stdout.
. "$(dirname "$0")/../lib.sh"

run "$FB" --analyze "$T/nonexistent.txt"; expect_rc 1
expect_err "nonexistent.txt: No such file or directory"
[ -z "$out" ] || fail "stdout not empty: $out"

printf 'hello, is 4MiB a good erase size? ^C\n' > "$T/prose.txt"
run "$FB" --analyze "$T/prose.txt"; expect_rc 1
expect_err "prose.txt: no flashbench .* output found"
[ -z "$out" ] || fail "stdout not empty: $out"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "more than one line: $errout"
exit 0
