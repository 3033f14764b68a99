#!/usr/bin/env bash
# An I/O error during --auto --destructive (a simulated card failing at
# 20 MiB): the write phase stops, the report marks the results incomplete,
# stderr names the device, operation, offset and error, and the exit is 1.
. "$(dirname "$0")/../lib.sh"

run "$FB" --auto --destructive sim:sdhc-good,fail-at=20M
expect_rc 1
expect_out "^  erase block size +4MiB"
expect_out "incomplete"
expect_err "sim:sdhc-good,fail-at=20M: write failed at offset 20971520 .*Input/output error"
