#!/usr/bin/env bash
# The sim records every write and discard; none may fall outside the span the
# test covers (what --preserve saves), and read-only tests write nothing.
. "$(dirname "$0")/../lib.sh"
M=$((1 << 20))
n=0

# check START END OPTIONS...: every recorded write lies in [START, END), and there are some
check() {
	local start=$1 end=$2; shift 2
	local rec=$T/rec$((n += 1))
	run "$FB" "$@" "sim:size=256M,erasesize=4M,record=$rec"
	expect_rc 0
	[ -s "$rec" ] || fail "$*: nothing recorded"
	awk -v s="$start" -v e="$end" '$2 < s || $2 + $3 > e { print; bad = 1 } END { exit bad }' \
		"$rec" >"$T/outside" || fail "$*: writes outside [$start, $end): $(head -n 3 "$T/outside")"
}
# nothing START END OPTIONS...: a read-only test records no write
nothing() {
	local rec=$T/rec$((n += 1))
	run "$FB" "$@" "sim:size=256M,erasesize=4M,record=$rec"
	expect_rc 0
	[ ! -s "$rec" ] || fail "$*: wrote: $(head -n 3 "$rec")"
}

check $((16 * M)) $((24 * M)) -O
check $((16 * M)) $((28 * M)) -O --open-au-nr=3 -r
check $((40 * M)) $((41 * M)) -O --open-au-nr=1 -e 1M --offset=40M
check $((18 * M)) $((24 * M)) -O --open-au-nr=2 -e 3M
check 0 $((24 * M)) -f
check 0 $((6 * M)) -f --fat-nr=3 -e 2M
check 0 $((4 * M)) -p
check $((8 * M)) $((9 * M)) -p -e 1M --offset=8M
nothing -a
nothing -s --scatter-order=4
exit 0
