#!/usr/bin/env bash
# The scoring of bench/calibration.py (doc/card-facts.md, Calibration): a "not determinable"
# verdict (INTERFACES.md) is never wrong, and is exact only where the card's truth says the
# verdict is hidden: every geometry verdict on a card that shows none, an open-AU count behind an
# SLC cache the write budget cannot pass. On such a card a number is wrong and "at least N" open
# blocks right; elsewhere "not determinable" is an unknown, not exact. --today draws its own
# cards and leaves the old population as it was.
. "$(dirname "$0")/../lib.sh"
need_tool python3
CAL=$(dirname "$0")/../../bench/calibration.py

pyrun - "$CAL" <<'PY' || fail "calibration scoring"
import importlib.util, sys
spec = importlib.util.spec_from_file_location("cal", sys.argv[1])
cal = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cal)
M, G = cal.M, cal.G
nd = {"confidence": "unknown", "not_determinable": {"reason": "no-geometry"}}


def doc(erase=None, lin=None, fat=None, budget=None):
    v = {"erase_size": erase or {"size_bytes": 16 * M, "confidence": "high"},
         "page_size": {"size_bytes": 16384, "confidence": "high"},
         "open_au_linear": lin or {"n": 4, "at_least": False, "confidence": "high"},
         "open_au_random": {"n": 2, "at_least": False, "confidence": "high"},
         "fat_area": fat or {"erase_blocks": 0, "confidence": "high"}}
    d = {"verdict": v, "auto": {}}
    if budget:
        d["auto"]["plan"] = {"budget_bytes": budget}
    return d


def card(**kw):
    c = dict(truth={"erase size": 16 * M, "page size": 16384, "open AUs linear": 4,
                    "open AUs random": 2, "FAT area": 0},
             erase=16 * M, lin=4, rnd=2, size=64 * G, cache=0, eclass="x", kind="x", spec="sim:x")
    c.update(kw)
    return c


nogeo = card(hidden_geometry=True, truth={"erase size": None, "page size": None,
                                           "open AUs linear": None, "open AUs random": None,
                                           "FAT area": 0})
t = cal.Table()
t.add(nogeo, doc(erase=nd, lin={"n": 32, "at_least": True, "confidence": "low"}))
assert t.exact["erase size"] == 1 and t.unknown["erase size"] == 1, "nd on no geometry: exact"
assert t.cells[("open AUs linear", "low", "right")] == 1 and t.exact["open AUs linear"] == 0
assert t.cells[("page size", "high", "wrong")] == 1, "a page size on a card that shows none"
assert t.cells[("open AUs random", "high", "wrong")] == 1, "a count where there is no limit"

t = cal.Table()
t.add(card(), doc(lin=nd))  # a card that hides nothing
assert t.unknown["open AUs linear"] == 1 and t.exact["open AUs linear"] == 0
assert not any(t.cells[("open AUs linear", l, "wrong")] for l in cal.LEVELS), "nd is never wrong"

big = card(cache=4 * G)  # N=4 needs 6 x 16 MiB x 9 = 864 MiB past the cache
t = cal.Table()
t.add(big, doc(lin=nd, budget=4 * G + 512 * M))
assert t.exact["open AUs linear"] == 1, "behind a cache the budget cannot pass"
t = cal.Table()
t.add(big, doc(lin=nd, budget=64 * G))
assert t.exact["open AUs linear"] == 0, "a budget that passes the cache hides nothing"

old = [c["spec"] for c in cal.population(11, 40)]
assert old == [c["spec"] for c in cal.population(11, 40)]
today = cal.today_population(11, 40)
assert all("kind" in c for c in today) and not set(old) & {c["spec"] for c in today}
assert {c["kind"] for c in today} >= {"tlc-cache", "nogeo", "usb3"}
PY
exit 0
