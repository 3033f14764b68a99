#!/usr/bin/env bash
# The sim records every write and discard; none may fall outside the span the
# test covers (what --preserve saves), and read-only tests write nothing.
. "$(dirname "$0")/../lib.sh"
M=$((1 << 20))
n=0

# check "START:END ..." OPTIONS...: every recorded write lies in one of the
# spans [START, END), and every span gets some
check() {
	local spans=$1; shift
	local rec=$T/rec$((n += 1))
	run "$FB" "$@" "sim:size=256M,erasesize=4M,record=$rec"
	expect_rc 0
	[ -s "$rec" ] || fail "$*: nothing recorded"
	awk -v spans="$spans" '
		BEGIN { ns = split(spans, sp, " "); for (i = 1; i <= ns; i++) { split(sp[i], r, ":"); s[i] = r[1]; e[i] = r[2] } }
		{ in_one = 0; for (i = 1; i <= ns; i++) if ($2 >= s[i] && $2 + $3 <= e[i]) { in_one = 1; hit[i] = 1 }
		  if (!in_one) { print; bad = 1 } }
		END { for (i = 1; i <= ns; i++) if (!hit[i]) { print "nothing in " sp[i]; bad = 1 }; exit bad }' \
		"$rec" >"$T/outside" || fail "$*: writes outside $spans: $(head -n 3 "$T/outside")"
}
# nothing START END OPTIONS...: a read-only test records no write
nothing() {
	local rec=$T/rec$((n += 1))
	run "$FB" "$@" "sim:size=256M,erasesize=4M,record=$rec"
	expect_rc 0
	[ ! -s "$rec" ] || fail "$*: wrote: $(head -n 3 "$rec")"
}

# -O: erase blocks 12 erase sizes apart (the original's placement)
check "$((16 * M)):$((20 * M)) $((64 * M)):$((68 * M))" -O
check "$((16 * M)):$((20 * M)) $((64 * M)):$((68 * M)) $((112 * M)):$((116 * M))" -O --open-au-nr=3 -r
check "$((40 * M)):$((41 * M))" -O --open-au-nr=1 -e 1M --offset=40M
check "$((18 * M)):$((21 * M)) $((54 * M)):$((57 * M))" -O --open-au-nr=2 -e 3M
check "0:$((24 * M))" -f
check "0:$((6 * M))" -f --fat-nr=3 -e 2M
# -p: its 4 MiB region at 16 MiB, as the original, or at --offset
check "$((16 * M)):$((20 * M))" -p
check "$((8 * M)):$((12 * M))" -p --offset=8M
nothing -a
nothing -s --scatter-order=4
exit 0
