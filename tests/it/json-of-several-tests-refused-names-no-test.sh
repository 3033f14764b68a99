#!/usr/bin/env bash
# Several tests with --json are refused ("several tests asked for"); the
# failure document then names no test ("test": null), not the last one on
# the line. A refused single test still names its test.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"
test_of() { pyrun -c 'import json, sys; print(json.load(sys.stdin)["test"])' <<<"$out"; }

for args in "-a -O" "-O -a" "-s -f" "-a -i --interval-order=4"; do
	run "$FB" $args --json sim:sdhc-good
	expect_rc 2
	expect_err "several tests asked for"
	[ "$(test_of)" = None ] || fail "$args --json: the document names the test '$(test_of)'"
done
run "$FB" -O --json --blocksize=3 sim:sdhc-good
expect_rc 2
[ "$(test_of)" = open_au ] || fail "-O --json refused: test '$(test_of)'"
exit 0
