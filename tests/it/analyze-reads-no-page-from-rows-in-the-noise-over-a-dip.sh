#!/usr/bin/env bash
# A page step must stand above the noise of its own table: the bottom of an
# -a table of a card with 8KiB pages whose rows below the erase size read
# ~130ns (noise) with one row at -9us below them is no 3KiB page (it used to
# say "pages are 3KiB (medium confidence)"), nor with two such rows a 4KiB
# one at high confidence; the same table as measured still reads 8KiB pages.
. "$(dirname "$0")/../lib.sh"
"$FB" -a -b 1024 sim:sa04g,noise=2 > "$T/a.txt" || fail "-a on sim:sa04g failed"
run "$FB" --analyze="$T/a.txt"
expect_rc 0
expect_out "page size: 8KiB \(high confidence\)"

# noisy TABLE DIPS...: the rows below 4MiB that are no multiple of it at
# 110..147ns, the DIPS at -9us; the 12MiB row diluted (600us), so the table
# is no clean staircase and the step search reads it
noisy() {
	awk -v dips="$2" 'BEGIN { n = split(dips, d, " "); for (i = 1; i <= n; i++) dip[d[i]] = 1 }
	$1 == "align" && $2 < 4194304 {
		v = ($2 in dip) ? "-9µs" : (110 + (k++ * 7) % 38) "ns"
		sub(/diff .*/, "diff " v)
	}
	$1 == "align" && $2 == 12582912 { sub(/diff .*/, "diff 600µs") }
	{ print }' "$1"
}
noisy "$T/a.txt" "2048" > "$T/one-dip.txt"
run "$FB" --analyze="$T/one-dip.txt"
expect_rc 0
printf '%s\n' "$out" | grep -q "page size: 3KiB" && fail "noise over a dip read as 3KiB pages: $out"
printf '%s\n' "$out" | grep -qE "page size: [0-9.]+[KM]iB \((high|medium)" &&
	fail "a page from noise over a dip: $out"
noisy "$T/a.txt" "2048 3072" > "$T/two-dips.txt"
run "$FB" --analyze="$T/two-dips.txt"
expect_rc 0
printf '%s\n' "$out" | grep -qE "page size: [0-9.]+[KM]iB \((high|medium)" &&
	fail "a page from noise over two dips: $out"
exit 0
