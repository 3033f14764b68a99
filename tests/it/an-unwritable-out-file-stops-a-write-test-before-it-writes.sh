#!/usr/bin/env bash
# -o FILE that cannot be created is found before any I/O: a write test on a
# simulated card exits 1 naming the file, and the card saw no write at all.
. "$(dirname "$0")/../lib.sh"

run "$FB" -O -o "$T/no/such/dir/out.txt" "sim:sdhc-good,record=$T/rec"
expect_rc 1
expect_err "$T/no/such/dir/out.txt: cannot open the output file: No such file or directory"
[ ! -s "$T/rec" ] || fail "the card was written: $(head -n 3 "$T/rec")"

run "$FB" -O --plot="$T/no/such/dir/plot.svg" "sim:sdhc-good,record=$T/rec"
expect_rc 1
[ ! -s "$T/rec" ] || fail "the card was written before --plot failed"

# the same run with a good file writes the card and the file
run "$FB" -O -o "$T/out.txt" "sim:sdhc-good,record=$T/rec"
expect_rc 0
[ -s "$T/rec" ] && [ -s "$T/out.txt" ] || fail "a good -o run wrote nothing"
exit 0
