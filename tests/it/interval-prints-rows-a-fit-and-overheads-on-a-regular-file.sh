#!/usr/bin/env bash
# -i --interval-order=N: a line per size 512*2^i, a regression line, then the
# per-size overhead lines.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

# The lines are the same whatever the timing: a fit that comes out
# meaningless under load says so on its line (check_interval takes both).
f=$(make_file card 72M)
run "$FB" -i --interval-order=10 --count=32 "$f"
expect_rc 0
check_interval 10
