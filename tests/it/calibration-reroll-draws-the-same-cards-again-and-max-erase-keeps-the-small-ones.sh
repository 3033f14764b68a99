#!/usr/bin/env bash
# bench/calibration.py's tools for judging a change (doc/card-facts.md, "What chance alone
# moves", 2026-12-03): --reroll K gives the same cards another draw of the sim's seeded stream
# (the seed moved by 1000 K, every other key as it was, the old population and today's alike),
# and a rerolled card is still a card the sim accepts, whose runs time differently; --reroll 0
# is the population itself. --max-erase keeps the cards of erase blocks up to the size given,
# that size included, in the population's order (1536K, 2M and plain bytes are sizes).
. "$(dirname "$0")/../lib.sh"
need_tool python3
CAL=$(dirname "$0")/../../bench/calibration.py

pyrun - "$CAL" <<'PY' || fail "calibration --reroll / --max-erase"
import importlib.util, re, sys
spec = importlib.util.spec_from_file_location("cal", sys.argv[1])
cal = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cal)
K, M = cal.K, cal.M


def keys(s):
    return [kv for kv in s[4:].split(",")]


for draw in (cal.population, cal.today_population):
    base = [c["spec"] for c in draw(11, 30)]
    assert [c["spec"] for c in cal.reroll(draw(11, 30), 0)] == base, "reroll 0 is the population"
    again = [c["spec"] for c in cal.reroll(draw(11, 30), 3)]
    for b, a in zip(base, again):
        kb, ka = keys(b), keys(a)
        assert len(kb) == len(ka)
        diff = [(x, y) for x, y in zip(kb, ka) if x != y]
        assert len(diff) == 1, (b, a)
        (x, y), = diff
        assert x.startswith("seed=") and int(y[5:]) == int(x[5:]) + 3000, (x, y)

assert cal.parse_size("1536K") == 1536 * K and cal.parse_size("2M") == 2 * M
assert cal.parse_size("131072") == 131072 and cal.parse_size("256KiB") == 256 * K
cards = cal.population(2026, 320)
small = cal.up_to_erase(cards, 256 * K)
assert small and all(c["erase"] <= 256 * K for c in small)
assert any(c["erase"] == 256 * K for c in small), "the limit itself is kept"
assert small == [c for c in cards if c["erase"] <= 256 * K], "in the population's order"
assert not cal.up_to_erase(cards, 64 * K)
PY

# a rerolled card is still a card, and its runs are another draw
spec=$(pyrun - "$CAL" <<'PY'
import importlib.util, sys
s = importlib.util.spec_from_file_location("cal", sys.argv[1])
cal = importlib.util.module_from_spec(s)
s.loader.exec_module(cal)
c = [c for c in cal.population(2026, 40) if "noise=10" in c["spec"] or "jitter=300" in c["spec"]][0]
print(c["spec"])
print(cal.reroll([dict(c)], 1)[0]["spec"])
PY
) || fail "a noisy card"
one=$(sed -n 1p <<<"$spec") two=$(sed -n 2p <<<"$spec")
[ "$one" != "$two" ] || fail "the reroll changed nothing: $one"
a=$("$FB" --open-au --erasesize=128KiB --blocksize=16KiB --open-au-nr=2 "$one" 2>&1) || fail "the card: $a"
b=$("$FB" --open-au --erasesize=128KiB --blocksize=16KiB --open-au-nr=2 "$two" 2>&1) || fail "the rerolled card: $b"
[ "$a" != "$b" ] || fail "a rerolled noisy card timed alike to the byte: $a"
exit 0
