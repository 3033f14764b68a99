#!/usr/bin/env bash
# On zram (4096-byte logical blocks), -a with block sizes that keep every
# read aligned prints the full table.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

use_zram 64M; z=$ZRAM
size=$(blockdev --getsize64 "$z")
for bs in 8192 16384 65536; do
	run "$FB" -a -b "$bs" -c 2 "$z"
	expect_rc 0
	check_align_table "$bs" "$size"
	[[ $out != *$' 0ns\t'* ]] || fail "a 0ns time (failed read?) with -b $bs: $out"
done
