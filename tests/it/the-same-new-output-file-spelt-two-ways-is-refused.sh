#!/usr/bin/env bash
# -o r.svg --plot=./r.svg names one file that does not exist yet: refused
# (exit 2, naming both) instead of the plot overwriting the results; the
# same for a path through "..", and nothing is created.
. "$(dirname "$0")/../lib.sh"
mkdir "$T/sub"
cd "$T" || fail "cd $T"

run "$FB" -a -o r.svg --plot=./r.svg sim:sdhc-good
expect_rc 2
expect_err "^flashbench: --plot=./r.svg: the same file as --out=r.svg$"
run "$FB" -a -o "$T/r.svg" --plot=sub/../r.svg sim:sdhc-good
expect_rc 2
expect_err "the same file as --out="
[ ! -e r.svg ] || fail "r.svg was created"
run "$FB" -a -o r.txt --plot=sub/r.svg sim:sdhc-good	# two files: fine
expect_rc 0
[ -s r.txt ] && [ -s sub/r.svg ] || fail "the outputs were not written"
exit 0
