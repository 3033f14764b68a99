#!/usr/bin/env bash
# --auto without --destructive measures alignment only: not one write reaches
# the (simulated) card, and the report says how to run the write phase.
. "$(dirname "$0")/../lib.sh"

run "$FB" --auto "sim:sdhc-good,record=$T/writes"
expect_rc 0
expect_out "erase block size +4MiB"
expect_out "Nothing was written"
expect_out "flashbench --auto --destructive sim:sdhc-good"
[ ! -s "$T/writes" ] || fail "writes recorded: $(head -n 3 "$T/writes")"
