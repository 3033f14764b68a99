#!/usr/bin/env bash
# Each mutant of `make mutate` (bench/mutate.sh) still finds its line: the
# text it replaces is on exactly one line of its file. A change to such a
# line fails here, naming the mutant to update in bench/mutate.sh.
. "$(dirname "$0")/../lib.sh"
script=$TESTS_DIR/../bench/mutate.sh
[ -f "$script" ] || fail "no bench/mutate.sh"
run bash "$script" --check
expect_rc 0
expect_out "^all [0-9]+ mutants apply$"
n=$(printf '%s\n' "$out" | grep -oE '[0-9]+')
[ "$n" -ge 30 ] || fail "only $n mutants (want at least 30)"
run bash "$script" --list
for layer in measurement vm device safety analysis renderers advice capacity; do
	printf '%s\n' "$out" | grep -qE "^[a-z0-9-]+ +$layer " || fail "no mutant in the $layer layer"
done
[ "$(printf '%s\n' "$out" | grep -c '(ci)$')" -ge 3 ] || fail "fewer than 3 mutants marked for CI"
exit 0
