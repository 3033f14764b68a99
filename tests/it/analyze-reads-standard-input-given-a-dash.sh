#!/usr/bin/env bash
# `--analyze -` reads stdin, so `flashbench -a DEV | flashbench --analyze -` works.
. "$(dirname "$0")/../lib.sh"

"$FB" -a sim:microsd-cheap > "$T/a.txt" || fail "-a on sim:microsd-cheap failed"
run "$FB" --analyze - < "$T/a.txt"; expect_rc 0
expect_out "^card 1 of 1: 1 -a, 0 --open-au, 0 --find-fat run$"
expect_out "erase size: 4MiB \(high confidence\)"
exit 0
