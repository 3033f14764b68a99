#!/usr/bin/env bash
# A device that cannot be opened: exit 1, the path and strerror on stderr.
. "$(dirname "$0")/../lib.sh" || exit 1

for args in "-a" "-O" "-s" "--discard=0:4096"; do
	run "$FB" $args "$T/no-such-card"
	expect_rc 1
	expect_err "$T/no-such-card"
	expect_err "No such file or directory"
	[ -z "$out" ] || fail "$args printed results: $out"
done
