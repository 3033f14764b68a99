#!/usr/bin/env bash
# --capacity -v names, before each round, the bytes it will overwrite (all
# saved first): every write the simulated card records falls inside what
# the round announced, a labelled area from 0 and single sectors between the
# first and last probe.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

for spec in "size=8G,real-size=3G,fake=drop" "size=8G,real-size=3G" "size=8G"; do
	: > "$T/rec"
	run "$FB" --capacity -v "sim:$spec,record=$T/rec"
	printf '%s\n' "$errout" > "$T/err"
	pyrun - "$T/err" "$T/rec" <<'PY' || fail "sim:$spec: a write outside the announced spans"
import re, sys
rounds = [tuple(map(int, m.groups())) for m in re.finditer(
    r"round \d+ will overwrite bytes 0 to (\d+) and (\d+) sectors of (\d+) bytes "
    r"from offset (\d+) to (\d+)", open(sys.argv[1]).read())]
assert rounds, "no announcement"
writes = [tuple(map(int, l.split()[1:])) for l in open(sys.argv[2]) if l.startswith("W ")]
assert writes, "nothing written"
def inside(off, ln):
    return any(off + ln - 1 <= area or (ln == u and lo <= off <= hi)
               for area, n, u, lo, hi in rounds)
bad = [w for w in writes if not inside(*w)]
assert not bad, bad[:5]
PY
done
exit 0
