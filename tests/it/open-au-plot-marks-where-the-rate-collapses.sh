#!/usr/bin/env bash
# -O --plot of a run that collapses marks the block size from which the
# rate falls with the block size ("collapses from 2MiB": that row a quarter
# or more below the one above it, every smaller one lower again), its label
# beside the line where it touches no data (tests/svg_series.py); a run
# that holds gets no such mark.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

# knee: where the table printed on stdout collapses
knee() {
	pyrun -c '
import sys
def rate(s): return float(s[:-3]) * {"K": 1e3, "M": 1e6, "G": 1e9}[s[-3]] if s[-3] in "KMG" else float(s[:-2])
rows = [l.split() for l in sys.stdin if l.strip()]
r = [rate(x[1]) for x in rows]
for j in range(1, len(r)):
    if r[j] <= 0.75 * r[j - 1] and all(r[k] <= 0.9 * r[k - 1] for k in range(j + 1, len(r))):
        print(rows[j][0]); break'
}
for card in "--open-au-nr=9 sim:sdhc-good" "--open-au-nr=2 sim:microsd-cheap"; do
	# shellcheck disable=SC2086
	run "$FB" -O $card --plot="$T/c.svg"
	expect_rc 0
	at=$(printf '%s\n' "$out" | knee)
	[ -n "$at" ] && [ "$at" != "$(printf '%s\n' "$out" | head -n 1 | cut -f1 -d' ')" ] ||
		fail "$card: the table shows no collapse below its first row: $out"
	grep -q "<g class=\"mark\">.*>collapses from $at</text>" "$T/c.svg" ||
		fail "$card: no mark at $at where the rate collapses: $(grep -o 'class="mark".*' "$T/c.svg" | head -n 2)"
	pyrun "$TESTS_DIR/svg_series.py" "$T/c.svg" >"$T/series" 2>/dev/null || fail "$card: $(head -n 2 "$T/series")"
done
run "$FB" -O --open-au-nr=8 --plot="$T/h.svg" sim:sdhc-good
expect_rc 0
grep -q 'collapses from' "$T/h.svg" && fail "a run that holds has a collapse mark"
exit 0
