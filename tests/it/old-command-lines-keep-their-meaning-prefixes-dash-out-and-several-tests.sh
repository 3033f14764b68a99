#!/usr/bin/env bash
# Old scripts keep working: unique prefixes of the original's options mean what
# they meant (--a align, --b= blocksize, --r random, --ver verbose) though
# newer options share them; -o - is standard output; several tests in one
# call run in the original's order (scatter, find-fat, align, open-au,
# interval, program).
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1
cd "$T" || fail "cd $T"
card=sim:size=256M

run "$FB" --a -c 1 --b=64K "$card"
expect_rc 0
check_align_table 65536 $((256 << 20))
run "$FB" --ver -a -c 1 "$card"
expect_rc 0
expect_err 'bytes, logical block size'
run "$FB" -O --r --erasesize=1M --blocksize=256K "sim:size=256M,trace=$T/r"
expect_rc 0
run "$FB" -O --erasesize=1M --blocksize=256K "sim:size=256M,trace=$T/l"
cmp -s "$T/r" "$T/l" && fail "--r did not mean --random"

run "$FB" -s --scatter-order=3 -o - "$card"
expect_rc 0
check_scatter 8 16384
[ ! -e "$T/-" ] || fail "-o - created a file named -"

# several tests: each one's output in the original's order, its I/O too
run "$FB" -a -s --scatter-order=2 -c 1 "sim:size=256M,trace=$T/as"
expect_rc 0
[[ $out =~ ^0\.000000$'\t'[0-9.]+$'\n'.*$'\n'align\ [0-9]+$'\t' ]] || fail "-a -s: not scatter then align: $(head -n 6 <<<"$out")"
[ "$(head -n 4 "$T/as" | awk '{print $3}' | sort -u)" = 16384 ] || fail "-a -s: the first reads are not scatter's"
run "$FB" -O -f --fat-nr=2 -e 1M -b 512K "$card"
expect_rc 0
[ "$(printf '%s\n' "$out" | awk '{print NF}' | tr '\n' ' ')" = "3 3 2 2 " ] || fail "-O -f: not find-fat then open-au: $out"
run "$FB" -a -s --json "$card"
expect_rc 2
# a prefix of several of the original's options stays an error, saying why
run "$FB" --o "$card"
expect_rc 2
expect_err '^flashbench: --o: ambiguous'
