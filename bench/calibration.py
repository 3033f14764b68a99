#!/usr/bin/env python3
"""Calibration of --auto --destructive on a population of simulated cards.

The cards are drawn from the published geometry (doc/real-cards.tsv,
doc/card-facts.md): erase sizes 128 KiB .. 24 MiB including 3*2^n, pages
2 .. 48 KiB, 1 .. 24 open erase blocks, 0 .. N random slots (some random-
capable only above a mapping unit), FAT areas 0 .. 3, read levels of
multi-plane pages and allocation groups; the timing of a preset modelled on
a real card; the host's noise (percent jitter, an absolute delay per I/O,
busy spells, read spikes, stretched accesses, drift); and the state the
card comes in (clean, new, used, right after an --open-au run, discarded,
with collections postponed or not).

With --today N it also draws N cards as they are made today, a population
of its own with its own table (doc/card-facts.md, "Cards as they are made
today"): TLC/QLC cards with a pseudo-SLC write cache, large SDXC cards with
big erase blocks, allocation groups and RAM buffers, USB 3 sticks, eMMC 5.1
with a RAM buffer, and cards with no visible geometry; collections after
idle. Their truths say which verdicts the card hides (every geometry on a
card that shows none; open-AU counts and the FAT area behind a cache that
the write budget cannot pass): a "not determinable" answer (or an unknown
one) is never wrong, and is exact where the verdict is hidden. The old
population is drawn exactly as before, so its floors keep holding.

For every verdict (erase size, page size, open erase blocks linear and
random, FAT area) and confidence level it counts right / wrong answers, and
the unknown ones; exact answers per verdict and per erase-size class; and,
with --cost, the bytes written and device time of --auto --destructive
against the manual sequence with the original (-a; -O N=1..linear+1;
-O --random N=1..random+1; -f), per card.

  calibration.py FLASHBENCH [--cards N] [--seed S] [--jobs J] [--busy-host] [--hog]
                 [--cost] [--check] [--floor VERDICT=PCT]... [--size-floor VERDICT=PCT]...
                 [--today N] [--today-floor VERDICT=PCT]... [--markdown]
                 [--max-erase BYTES] [--reroll K] [--per-card]

--busy-host gives the same cards the host of a machine with a CPU hog beside
the run (more jitter, busy spells, stretched accesses: a sim: card's clock is
virtual, so a real hog cannot slow it); --hog also runs a real CPU hog per
CPU beside flashbench. --check exits 1 when "high" is right in less than 99%
of its answers or "medium" in less than 90%, for any verdict, or exact
answers fall under a floor: --floor over all cards, --size-floor for each
erase size with at least 5 cards (an "unknown" is never wrong: without
floors a rule that stops answering would pass). With --today, --check holds
today's table to the same 99% / 90% and to its own --today-floor floors
(exact answers over today's cards, hidden verdicts counted as above).

--max-erase runs only the cards of erase blocks up to that size (1536K, 2M:
the cards are drawn as in the whole population, then the others left out),
for quick iteration on small-block cards; --per-card with --cost prints each
card's ratio and bytes by purpose, worst first. --reroll K runs the same
cards with the sim's seed moved by 1000 K: the same geometry, host and state
kinds, another draw of what a seed draws (host noise, the state's details).
The spread of the tables over rerolls is what chance alone moves them by
(doc/card-facts.md, "What chance alone moves", 2026-12-03): a change is
judged against it, not against one draw card for card.
"""
import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

K, M, G = 1024, 1024 * 1024, 1024 ** 3

# Presets whose timing the cards borrow (sim/sim_presets.c); geometry is overridden.
TIMINGS = ["", "microsd-cheap", "sdhc-good", "emmc", "sdxc-tlc", "cf-16m", "sa04g", "sdc10",
           "su04g", "mmc02g", "lexar-cf", "multiplane-32g"]
# doc/real-cards.tsv: 4 MiB dominates 2011-2016 SDHC; 8 MiB on larger cards; 24 MiB on a
# 2018 SDXC; 128-512 KiB on old cards; 1.5..12 MiB TLC sizes.
ERASE = [(128 * K, 3), (256 * K, 3), (512 * K, 4), (1 * M, 4), (3 * M // 2, 3), (2 * M, 8),
         (3 * M, 3), (4 * M, 30), (6 * M, 3), (8 * M, 10), (12 * M, 4), (16 * M, 5),
         (24 * M, 3)]
STATES = [("clean", 30), ("new", 15), ("used", 20), ("after-run", 20), ("discarded", 15)]
VERDICTS = ("erase size", "page size", "open AUs linear", "open AUs random", "FAT area")
LEVELS = ("high", "medium", "low")


def weighted(rng, pairs):
    total = sum(w for _, w in pairs)
    x = rng.uniform(0, total)
    for v, w in pairs:
        x -= w
        if x <= 0:
            return v
    return pairs[-1][0]


def erase_class(e):
    if e % 3 == 0:
        return "3*2^n"
    if e <= 512 * K:
        return "128K-512K"
    if e <= 4 * M:
        return "1M-4M"
    return "8M-16M"


def host(rng, spec, real, busy):
    """The host: percent noise, absolute delay per I/O, busy spells, spikes, stretch, drift."""
    spec.append(f"noise={rng.choice([0, 2, 5, 10])}")
    real["jitter"] = rng.choice([0, 0, 20, 50, 100, 300])
    real["burst"] = rng.choice([0, 0, 0, 1, 2, 5])
    if rng.random() < 0.4:
        real["spikes"] = rng.choice([1, 2])
    if rng.random() < 0.3:
        real["stretch"] = rng.choice([1, 2])
    if rng.random() < 0.3:
        real["drift"] = rng.choice([2, 5])
    if busy:  # a CPU hog beside the run: scheduling delays and busy spells
        real["jitter"] = real["jitter"] * 3 + 200
        real["burst"] = max(real["burst"], 5) * 2
        real["stretch"] = max(real["stretch"], 3)


def state_and_collections(rng, spec, defer_weights):
    """The state the card comes in, and how many collections it postpones."""
    state = weighted(rng, STATES)
    spec.append(f"state={state}")
    if state == "discarded":
        spec.append(f"discard={rng.choice(['erase', 'keep'])}")
    spec.append(f"gc-defer={weighted(rng, defer_weights)}")


def card(rng, i, busy=False):
    """One card: its sim: spec and the truth of every verdict."""
    e = weighted(rng, ERASE)
    pages = [p for p in (2 * K, 4 * K, 8 * K, 16 * K, 32 * K, 48 * K)
             if p * 8 <= e and e % p == 0 and (p != 2 * K or e <= 1 * M)]
    page = weighted(rng, [(p, {2 * K: 2, 4 * K: 3, 8 * K: 4, 16 * K: 6, 32 * K: 2, 48 * K: 1}[p])
                          for p in pages])
    sizes = [s for s in (1, 2, 4, 8, 16, 32, 64) if s * G >= 512 * e]
    size = rng.choice(sizes) * G
    open_au = weighted(rng, [(1, 12), (2, 12), (3, 14), (4, 10), (5, 8), (6, 8), (7, 6), (8, 6),
                             (9, 4), (11, 4), (12, 3), (16, 4), (20, 3), (24, 2)])
    r = rng.random()
    random_au = 0 if r < 0.3 else open_au if r < 0.6 else rng.randint(1, open_au)
    fat = weighted(rng, [(0, 45), (1, 20), (2, 25), (3, 10)])
    timing = rng.choice(TIMINGS)
    spec = ([timing] if timing else []) + [
        f"size={size}", f"erasesize={e}", f"pagesize={page}", f"open-au={open_au}",
        f"random-au={random_au}", f"fat-aus={fat}", f"seed={i + 1}"]
    real = dict(multiplane=0, group=0, spikes=0, stretch=0, drift=0, jitter=0, burst=0)
    real["map-unit"] = 0
    if rng.random() < 0.3 and 4 * page * 4 <= e:
        real["multiplane"] = rng.choice([2, 2, 4]) * page
    if rng.random() < 0.2 and size >= 8 * G:
        g = e
        while g < rng.choice([1, 2]) * G:
            g *= 2
        real["group"] = g
    host(rng, spec, real, busy)
    unit = 0
    if random_au and rng.random() < 0.25:
        # SU04G: a quarter of its erase block. Half a block cannot show in out-of-order
        # writes (two chunks a block), so it is not drawn.
        units = [u for u in (e // 8, e // 4) if u >= 2 * page and u % 512 == 0]
        if units:
            unit = rng.choice(units)
            real["map-unit"] = unit
    state_and_collections(rng, spec, [(0, 50), (1, 15), (2, 15), (4, 15), (8, 5)])
    spec += [f"{k}={v}" for k, v in real.items()]
    # no speed-class marks: --auto's class check (issue 23) is not part of these verdicts
    spec.append("claims=none")
    truth = {"erase size": e, "page size": page, "open AUs linear": open_au,
             "open AUs random": random_au, "FAT area": fat}
    return dict(spec="sim:" + ",".join(spec), truth=truth, erase=e, page=page, lin=open_au,
                rnd=random_au, fat=fat, unit=unit, eclass=erase_class(e))


def population(seed, n, busy=False):
    rng = random.Random(seed)
    return [card(rng, i, busy) for i in range(n)]


# ---------------------------------------------------------------- cards as they are made today
#
# doc/card-facts.md, "Cards as they are made today": the sizes and rates are typical published
# ranges (reviews of current cards and sticks), not measured by us. Most cards sold now are
# TLC/QLC with a pseudo-SLC cache; the kinds and their shares below are our estimate.
TODAY_KINDS = [("tlc-cache", 40), ("a2-cache", 15), ("sdxc-big", 15), ("usb3", 12),
               ("emmc51", 10), ("nogeo", 8)]
# the preset whose timing each kind borrows (sim/sim_presets.c); every today key is overridden
TODAY_TIMING = {"tlc-cache": ["tlc-32g"], "a2-cache": ["a2-64g"], "sdxc-big": ["sdxc-128g", "sdxc-64g"],
                "usb3": ["usb3-64g"], "emmc51": ["emmc51"], "nogeo": ["nogeo-128g"]}
# The write budget --auto is assumed to have when its JSON states none (auto.plan.budget_bytes):
# the upper end of issue 26's "2-5% of a card of 32 GB or more".
BUDGET_SHARE = 0.05
GB = 10 ** 9


def marketed_size(rng, gb):
    """A card sold as gb GB: 93..97% of it in bytes (what cards report), whole MiB."""
    return int(gb * GB * rng.uniform(0.93, 0.97)) // M * M


def rounded(x, unit):
    return max(unit, int(x) // unit * unit)


def today_geometry(rng, kind):
    """size, erase, page, open, random, fat for one kind of today's card."""
    pick = {
        "tlc-cache": ([16, 32, 64, 128], [(8 * M, 2), (12 * M, 4), (16 * M, 3), (24 * M, 2)],
                      (1, 6), [(0, 50), (1, 35), (2, 15)]),
        "a2-cache": ([64, 128, 256], [(8 * M, 3), (16 * M, 3), (24 * M, 3), (32 * M, 1)],
                     (4, 16), [(0, 60), (1, 30), (2, 10)]),
        "sdxc-big": ([64, 128, 256], [(16 * M, 4), (24 * M, 3), (32 * M, 2), (48 * M, 1), (64 * M, 1)],
                     (2, 8), [(0, 50), (1, 40), (2, 10)]),
        "usb3": ([32, 64, 128, 256], [(16 * M, 3), (32 * M, 4), (64 * M, 2)],
                 (2, 6), [(0, 80), (1, 20)]),
        "emmc51": ([8, 16, 32, 64], [(512 * K, 5), (1 * M, 2), (2 * M, 2), (4 * M, 1)],
                   (4, 16), [(0, 90), (1, 10)]),
        "nogeo": ([64, 128, 256, 512], [(16 * M, 1)], (4, 4), [(0, 1)]),
    }[kind]
    sizes, erases, (olo, ohi), fats = pick
    size = marketed_size(rng, rng.choice(sizes))
    e = weighted(rng, erases)
    page = weighted(rng, [(p, w) for p, w in ((8 * K, 2), (16 * K, 6), (32 * K, 2)) if p * 16 <= e])
    open_au = rng.randint(olo, ohi)
    r = rng.random()
    random_au = 0 if r < 0.2 else open_au if r < 0.55 else rng.randint(1, open_au)
    return size, e, page, open_au, random_au, weighted(rng, fats)


def today_write_path(rng, kind, size, e):
    """The today keys: cache, native share, buffer, collection after idle."""
    w = dict(cache=0, native=33, buffer=0, idle_gc=0)
    if kind in ("tlc-cache", "a2-cache") or (kind == "nogeo" and rng.random() < 0.8):
        share = {"tlc-cache": (0.002, 0.02), "a2-cache": (0.01, 0.04), "nogeo": (0.01, 0.04)}[kind]
        w["cache"] = rounded(size * rng.uniform(*share), 16 * M)
        w["native"] = rng.randint(20, 50)
    if kind in ("sdxc-big", "usb3", "emmc51") or rng.random() < 0.3:
        w["buffer"] = rng.choice([256 * K, 512 * K, 1 * M, 2 * M, 4 * M])
    if kind in ("a2-cache", "emmc51") or rng.random() < 0.4:
        w["idle_gc"] = rng.choice([100, 200, 500, 1000, 2000, 3000])
    return w


def today_card(rng, i, busy=False):
    """One card as they are made today: its sim: spec and truths (which verdicts it hides)."""
    kind = weighted(rng, TODAY_KINDS)
    size, e, page, open_au, random_au, fat = today_geometry(rng, kind)
    w = today_write_path(rng, kind, size, e)
    real = dict(multiplane=0, group=0, spikes=0, stretch=0, drift=0, jitter=0, burst=0)
    real["map-unit"] = 0
    if kind in ("sdxc-big", "usb3") and rng.random() < 0.6:
        g = e
        while g < rng.choice([1, 2, 4]) * G:
            g *= 2
        real["group"] = g
    if random_au and (kind == "usb3" and rng.random() < 0.6 or rng.random() < 0.15):
        real["map-unit"] = rng.choice([e // 8, e // 4])
    spec = [rng.choice(TODAY_TIMING[kind]), f"size={size}", f"erasesize={e}", f"pagesize={page}",
            f"open-au={open_au}", f"random-au={random_au}", f"fat-aus={fat}", f"seed={i + 1}",
            f"slc-cache={w['cache']}", f"native={w['native']}", f"buffer={w['buffer']}",
            f"idle-gc={w['idle_gc']}", f"geometry={'hidden' if kind == 'nogeo' else 'visible'}"]
    host(rng, spec, real, busy)
    state_and_collections(rng, spec, [(0, 40), (1, 15), (2, 20), (4, 20), (8, 5)])
    spec += [f"{k}={v}" for k, v in real.items()]
    spec += ["claims=none", "queue=0"]
    hidden_geometry = kind == "nogeo"
    truth = {"erase size": None if hidden_geometry else e, "page size": None if hidden_geometry else page,
             "open AUs linear": None if hidden_geometry else open_au,
             "open AUs random": None if hidden_geometry else random_au, "FAT area": fat}
    return dict(spec="sim:" + ",".join(spec), truth=truth, erase=e, page=page, lin=open_au,
                rnd=random_au, fat=fat, unit=real["map-unit"], eclass=kind, kind=kind, size=size,
                cache=w["cache"], hidden_geometry=hidden_geometry, max_write=None)


def today_population(seed, n, busy=False):
    rng = random.Random(seed * 7919 + 27)  # a stream of its own: the old population is unchanged
    return [today_card(rng, i, busy) for i in range(n)]


def budget_of(c, doc):
    """The bytes --auto allowed itself: its plan's budget, else the assumed default."""
    plan = (doc.get("auto") or {}).get("plan") or {}
    return plan.get("budget_bytes") or BUDGET_SHARE * c["size"]


def hidden_verdicts(c, doc):
    """
    The verdicts this card hides from --auto: every one on a card that shows no geometry;
    those whose cheapest deciding runs do not fit in the budget once the SLC cache is passed
    (an open-AU count N needs runs at N and N+1, a settling row and two decision rows each,
    twice: 6 E (2N + 1); the FAT area two rows of six columns: 12 E).
    """
    if c.get("hidden_geometry"):
        return set(VERDICTS)
    if not c.get("cache"):
        return set()
    left = budget_of(c, doc) - c["cache"]
    need = {"open AUs linear": 6 * c["erase"] * (2 * c["lin"] + 1),
            "open AUs random": 6 * c["erase"] * (2 * c["rnd"] + 1),
            "FAT area": 12 * c["erase"]}
    return {v for v, b in need.items() if b > left}


def answers(doc):
    """verdict -> (value, at_least, confidence); value None when unknown or not determinable."""
    v = doc["verdict"]

    def nd(est):  # "not determinable on this card" (INTERFACES.md): an unknown, never wrong
        return not est or "not_determinable" in est

    out = {}
    for name, key in (("erase size", "erase_size"), ("page size", "page_size")):
        est = v.get(key)
        out[name] = (None, False, "none") if nd(est) else (est["size_bytes"], False, est["confidence"])
    for name, key in (("open AUs linear", "open_au_linear"), ("open AUs random", "open_au_random")):
        est = v.get(key)
        out[name] = (None, False, "none") if nd(est) else (est["n"], est["at_least"], est["confidence"])
    fat = v.get("fat_area")
    out["FAT area"] = (None, False, "none") if nd(fat) else (fat["erase_blocks"], False, fat["confidence"])
    return out


def judge(value, at_least, conf, want):
    """
    'unknown', 'right' or 'wrong'; an "at least N" is right when the truth is N or more. A truth
    of None is geometry the card does not show: no number is right, and any "at least N" open
    erase blocks is (there is no limit to reach).
    """
    if value is None or conf in ("none", "unknown"):
        return "unknown"
    if want is None:
        return "right" if at_least else "wrong"
    if at_least:
        return "right" if want >= value else "wrong"
    return "right" if value == want else "wrong"


MAX_WRITE = None  # --max-write: None runs --auto with its own default budget (issue 26)


def run_auto(fb, c, extra=()):
    # every card runs with --auto's own budget (issue 26) unless --max-write says otherwise
    cap = [f"--max-write={MAX_WRITE}"] if MAX_WRITE else []
    p = subprocess.run([fb, "--auto", "--destructive", "--json", *cap, *extra, c["spec"]],
                       capture_output=True, text=True, timeout=600)
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        return None, f"exit {p.returncode}, invalid JSON: {e}: {p.stderr.strip()[:200]}"
    if p.returncode != 0:
        return None, f"exit {p.returncode}: {p.stderr.strip()[:200]}"
    return doc, None


def run_json(fb, args):
    p = subprocess.run([fb, "--json", *args], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"flashbench {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[:200]}")
    st = json.loads(p.stdout)["status"]
    return st["written_bytes"], st["device_time_ns"]


def manual_cost(fb, c):
    """The manual sequence with the original's options: bytes written, device time."""
    return manual_runs(fb, c)[:2]


def manual_runs(fb, c):
    """The manual sequence: bytes written, device time, and the bytes of its largest -O run."""
    dev, e, page = c["spec"], c["erase"], c["page"]
    common = [f"--erasesize={e}", f"--blocksize={page}", dev]
    runs = [["-a", "--blocksize=1024", dev]]
    runs += [["-O", f"--open-au-nr={n}", *common] for n in range(1, c["lin"] + 2)]
    runs += [["-O", "--random", f"--open-au-nr={n}", *common] for n in range(1, c["rnd"] + 2)]
    runs += [["--find-fat", "--random", *common]]
    b = ns = largest = 0
    for r in runs:
        rb, rns = run_json(fb, r)
        b += rb
        ns += rns
        if r[0] == "-O":
            largest = max(largest, rb)
    return b, ns, largest


class Table:
    def __init__(self):
        self.cells = {(v, l, j): 0 for v in VERDICTS for l in LEVELS for j in ("right", "wrong")}
        self.unknown = {v: 0 for v in VERDICTS}
        self.exact = {v: 0 for v in VERDICTS}
        self.by_class = {}
        self.by_size = {}
        self.n = 0
        self.misses = []

    def add(self, c, doc):
        self.n += 1
        cls = self.by_class.setdefault(c["eclass"], {"n": 0, **{v: 0 for v in VERDICTS}})
        cls["n"] += 1
        size = self.by_size.setdefault(c["erase"], {"n": 0, **{v: 0 for v in VERDICTS}})
        size["n"] += 1
        hidden = hidden_verdicts(c, doc)
        for verdict, (value, at_least, conf) in answers(doc).items():
            want = c["truth"][verdict]
            j = judge(value, at_least, conf, want)
            if j == "unknown":
                self.unknown[verdict] += 1
            else:
                self.cells[(verdict, conf, j)] += 1
            # exact: the card's value, or "not determinable" where the card hides it
            if (j == "right" and not at_least and want is not None) or (j == "unknown" and verdict in hidden):
                self.exact[verdict] += 1
                cls[verdict] += 1
                size[verdict] += 1
            if j == "wrong" and conf in ("high", "medium"):
                self.misses.append(f"{c['spec']}: {verdict} {value}{'+' if at_least else ''} "
                                   f"(want {want}), {conf}")

    def share(self, verdict, level):
        r, w = self.cells[(verdict, level, "right")], self.cells[(verdict, level, "wrong")]
        return (100.0 * r / (r + w) if r + w else None), r + w

    def text(self, title, by="erase-size class"):
        lines = [f"# {title}: {self.n} cards; right/wrong per confidence, unknown answers, exact"]
        lines.append(f"#   {'':16}" + "".join(f"{l:>14}" for l in LEVELS) + f"{'unknown':>9}{'exact':>8}")
        for v in VERDICTS:
            cells = []
            for l in LEVELS:
                r, w = self.cells[(v, l, "right")], self.cells[(v, l, "wrong")]
                cells.append(f"{r}/{w}" + (f" {100.0 * r / (r + w):3.0f}%" if r + w else "     "))
            lines.append(f"#   {v:16}" + "".join(f"{x:>14}" for x in cells) +
                         f"{self.unknown[v]:>9}{100.0 * self.exact[v] / max(self.n, 1):7.1f}%")
        lines.append(f"#   exact by {by}: " + "; ".join(
            f"{k} ({d['n']}): " + ", ".join(f"{v.split()[-1] if v.startswith('open') else v.split()[0]} "
                                          f"{100.0 * d[v] / d['n']:.0f}%" for v in VERDICTS)
            for k, d in sorted(self.by_class.items())))
        return "\n".join(lines)

    def markdown(self, title):
        lines = [f"{title} ({self.n} cards): right / wrong answers at each confidence, "
                 "unknown answers, exact answers.", "",
                 "| verdict | high | medium | low | unknown | exact |",
                 "|---|---|---|---|---|---|"]
        for v in VERDICTS:
            cells = []
            for l in LEVELS:
                r, w = self.cells[(v, l, "right")], self.cells[(v, l, "wrong")]
                cells.append(f"{r} / {w}" + (f" ({100.0 * r / (r + w):.0f}%)" if r + w else ""))
            lines.append(f"| {v} | " + " | ".join(cells) +
                         f" | {self.unknown[v]} | {100.0 * self.exact[v] / max(self.n, 1):.0f}% |")
        return "\n".join(lines)

    def failures(self, floors, size_floors):
        out = []
        for v in VERDICTS:
            for level, need in (("high", 99.0), ("medium", 90.0)):
                share, total = self.share(v, level)
                if share is not None and share < need:
                    out.append(f"{v}: \"{level}\" right in {share:.1f}% of {total} (want >= {need:.0f}%)")
        for v, need in floors.items():
            got = 100.0 * self.exact[v] / max(self.n, 1)
            if got < need:
                out.append(f"{v}: exact on {got:.1f}% of {self.n} cards (floor {need:.0f}%)")
        for v, need in size_floors.items():
            for e, d in sorted(self.by_size.items()):
                got = 100.0 * d[v] / d["n"]
                if d["n"] >= 5 and got < need:
                    out.append(f"{v}: exact on {d[v]}/{d['n']} cards with {e // K}KiB erase blocks "
                               f"(floor {need:.0f}% per erase size)")
        return out


def parse_floors(items):
    floors = {}
    for item in items or []:
        verdict, _, pct = item.rpartition("=")
        if verdict not in VERDICTS:
            sys.exit(f"calibration: --floor {item}: not one of {', '.join(VERDICTS)}")
        floors[verdict] = float(pct)
    return floors


class Hog:
    """A CPU hog beside the runs: one busy process per CPU."""

    def __enter__(self):
        n = os.cpu_count() or 1
        self.procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            p.kill()
            p.wait()


# ---------------------------------------------------------------- the cost (issue 26)

PURPOSES = ("capacity", "reference", "fat_area", "open_linear", "open_random", "settling", "cache", "class")


def cost_record(c, doc, manual_bytes, manual_ns, manual_largest=None):
    """What --auto wrote on one card, by purpose, against the manual sequence and the device."""
    st = doc["status"]
    plan = (doc.get("auto") or {}).get("plan") or {}
    by = plan.get("written_by_purpose") or {}
    total = st["written_bytes"]
    # the manual sequence checks no capacity and no class: the characterisation is the rest
    work = total - by.get("capacity", 0) - by.get("class", 0)
    return dict(total=total, work=work, by={k: by.get(k, 0) for k in PURPOSES},
                manual=manual_bytes, ns=st["device_time_ns"], manual_ns=manual_ns,
                size=doc["device"]["size_bytes"], budget=plan.get("budget_bytes"),
                spec=c["spec"], cache=c.get("cache") or 0, largest=manual_largest,
                passed=bool(((doc.get("auto") or {}).get("write_path") or {}).get("write_cache_bytes")))


def cache_class(x):
    """
    How the card's SLC cache (sim: slc-cache=) meets the manual sequence: "outlasts" it (the
    whole sequence, even run back to back without a pause, stays inside the cache), "takes every
    run" (each -O run of the bench's sequence starts on a fresh card, as a separate flashbench
    process does, and none is larger than the cache), or None (no cache, or an -O run leaves it).
    Where the cache takes every -O run the manual sequence shows no open-AU limit: it does not
    give the answers the ratio compares for.
    """
    if not x["cache"] or x["largest"] is None:
        return None
    if x["cache"] >= x["manual"]:
        return "outlasts"
    return "takes every run" if x["cache"] >= x["largest"] else None


def print_cost(which, records):
    """Median and worst of the bytes against the manual sequence, by purpose, and the device."""
    if not records:
        return
    r = sorted(x["work"] / x["manual"] for x in records)
    t = [x["ns"] / x["manual_ns"] for x in records]
    q = statistics.quantiles(r, n=4) if len(r) > 1 else r * 3
    worst = max(records, key=lambda x: x["work"] / x["manual"])
    share = max(x["total"] / x["size"] for x in records)
    over_size = sum(x["total"] > x["size"] for x in records)
    over_budget = sum(bool(x["budget"]) and x["total"] > x["budget"] for x in records)
    print(f"# cost{which}: bytes written by --auto --destructive (capacity and class checks apart) / the "
          f"manual sequence: median {statistics.median(r):.3f} (quartiles {q[0]:.2f}..{q[2]:.2f}), worst "
          f"{r[-1]:.2f}; device time: median {statistics.median(t):.2f}; at most {100 * share:.1f}% of a "
          f"device; {over_size} over the device's size, {over_budget} over the stated budget")
    all_bytes = sum(x["total"] for x in records)
    print(f"# cost{which} by purpose: " + ", ".join(
        f"{k} {100 * sum(x['by'][k] for x in records) / max(all_bytes, 1):.1f}%" for k in PURPOSES))
    print(f"# cost{which} worst: {worst['spec']}: {worst['work'] / M:.1f} MiB against "
          f"{worst['manual'] / M:.1f} MiB")
    print_cost_by_cache(which, records)
    for x in records:
        if x["total"] > x["size"] or (x["budget"] and x["total"] > x["budget"]):
            print(f"# cost{which} OVER: {x['spec']}: wrote {x['total']}, budget {x['budget']}, "
                  f"device {x['size']}")


def print_cost_by_cache(which, records):
    """
    The same ratio split by how a card's SLC cache meets the manual sequence (cache_class): the
    target (worst <= 0.5x) is the line above, over every card; these lines say on which cards the
    manual sequence gives the answers it is compared for, and, where it does not, the ratio
    against the manual sequence run past the cache (the cache's bytes, then the sequence).
    """
    groups = {}
    for x in records:
        groups.setdefault(cache_class(x), []).append(x)
    if len(groups) < 2 and None in groups:
        return
    words = {None: "cards without a cache, or where a manual -O run leaves it (like for like)",
             "takes every run": "cards whose SLC cache takes every -O run of the manual sequence (each on a "
                                "fresh card) but not the whole sequence back to back",
             "outlasts": "cards whose SLC cache outlasts the whole manual sequence (it shows no limit "
                         "there, even run back to back)"}
    for k in (None, "takes every run", "outlasts"):
        g = groups.get(k)
        if not g:
            continue
        r = sorted(x["work"] / x["manual"] for x in g)
        line = (f"# cost{which}, {words[k]}: {len(g)} cards, median {statistics.median(r):.3f}, worst "
                f"{r[-1]:.2f}, {sum(v > 0.5 for v in r)} over 0.5")
        if k:
            past = sorted(x["work"] / (x["manual"] + x["cache"]) for x in g)
            line += (f"; --auto passed the cache on {sum(x['passed'] for x in g)}; against the manual "
                     f"sequence past the cache (cache + sequence) median {statistics.median(past):.3f}, "
                     f"worst {past[-1]:.2f}")
        print(line)


def reroll(cards, k):
    """
    The same cards with another draw of the sim's seeded stream (host noise, state): seed=S
    becomes S + 1000 k. Geometry, host kind and state kind stay; what changes is only what a
    seed draws, so the spread of a table over rerolls is what chance alone moves it by.
    """
    if not k:
        return cards
    for c in cards:
        c["spec"] = re.sub(r"(?<=[:,])seed=(\d+)", lambda m: f"seed={int(m.group(1)) + 1000 * k}", c["spec"], count=1)
    return cards


def up_to_erase(cards, limit):
    """The cards whose erase blocks are at most limit bytes, in their order (a subset to iterate on)."""
    return [c for c in cards if c["erase"] and c["erase"] <= limit]


def parse_size(text):
    """1536K, 2M, 131072: bytes."""
    units = {"K": K, "M": M, "G": G}
    t = text.strip().upper().rstrip("B").rstrip("I")
    return int(float(t[:-1]) * units[t[-1]]) if t[-1] in units else int(t)


def print_per_card(which, records):
    """Every card's ratio against the manual sequence and its bytes by purpose (MiB), worst first."""
    for x in sorted(records, key=lambda x: -x["work"] / x["manual"]):
        print(f"# card{which} {x['work'] / x['manual']:.3f} {x['work'] / M:.1f}/{x['manual'] / M:.1f} MiB " +
              " ".join(f"{k}={x['by'][k] / M:.1f}" for k in PURPOSES if x['by'][k]) + f" {x['spec']}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("flashbench")
    ap.add_argument("--cards", type=int, default=320)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--busy-host", action="store_true")
    ap.add_argument("--hog", action="store_true")
    ap.add_argument("--floor", action="append")
    ap.add_argument("--size-floor", action="append")
    ap.add_argument("--cost", action="store_true")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--show-misses", type=int, default=20)
    ap.add_argument("--today", type=int, default=0, metavar="N")
    ap.add_argument("--today-floor", action="append")
    ap.add_argument("--max-write", default=None, help="run --auto with this cap (default: its own budget)")
    ap.add_argument("--max-erase", default=None, metavar="BYTES",
                    help="run only the cards of erase blocks up to this size (e.g. 1536K), drawn as "
                         "in the whole population (a subset for quick iteration; floors are the whole's)")
    ap.add_argument("--reroll", type=int, default=0, metavar="K",
                    help="the same cards with the sim's seed moved by 1000 K: another draw of host "
                         "noise and state, to see how far chance alone moves the tables")
    ap.add_argument("--per-card", action="store_true",
                    help="with --cost, print every card's ratio and bytes by purpose")
    a = ap.parse_args()

    cards = population(a.seed, a.cards, a.busy_host)
    today = today_population(a.seed, a.today, a.busy_host)
    reroll(cards, a.reroll)
    reroll(today, a.reroll)
    if a.max_erase:
        cards = up_to_erase(cards, parse_size(a.max_erase))
        today = up_to_erase(today, parse_size(a.max_erase))
    table, today_table = Table(), Table()
    errors, costs, today_costs = [], [], []
    global MAX_WRITE
    MAX_WRITE = a.max_write

    def one(c):
        doc, err = run_auto(a.flashbench, c)
        cost = None
        if doc and a.cost:
            cost = cost_record(c, doc, *manual_runs(a.flashbench, c))
        return c, doc, err, cost

    hog = Hog() if a.hog else None
    if hog:
        hog.__enter__()
    try:
        with ThreadPoolExecutor(max_workers=a.jobs) as ex:
            for c, doc, err, cost in ex.map(one, cards + today):
                if err:
                    errors.append(f"{c['spec']}: {err}")
                    continue
                is_today = "kind" in c
                (today_table if is_today else table).add(c, doc)
                if cost:
                    (today_costs if is_today else costs).append(cost)
    finally:
        if hog:
            hog.__exit__(None, None, None)

    title = (f"calibration{' with a busy host' if a.busy_host else ''}"
             f"{' and a CPU hog' if a.hog else ''} (seed {a.seed})")
    if cards:
        print(table.markdown(title) if a.markdown else table.text(title))
    for m in table.misses[:a.show_misses]:
        print("miss: " + m)
    for e in errors[:10]:
        print("error: " + e)
    print_cost("", costs)
    if a.per_card:
        print_per_card("", costs)
    if today:
        t = "cards as they are made today, " + title
        print(("\n" + today_table.markdown(t)) if a.markdown else today_table.text(t, by="kind"))
        for m in today_table.misses[:a.show_misses]:
            print("miss (today): " + m)
        print_cost(" (today's cards)", today_costs)
        if a.per_card:
            print_per_card(" (today's cards)", today_costs)
    fails = table.failures(parse_floors(a.floor), parse_floors(a.size_floor)) if a.check else []
    if a.check and today:
        fails += ["today's cards: " + f for f in today_table.failures(parse_floors(a.today_floor), {})]
    for f in fails:
        print("FAIL: " + f)
    if errors:
        print(f"FAIL: {len(errors)} runs failed")
    return 1 if (a.check and (fails or errors)) else 0


if __name__ == "__main__":
    sys.exit(main())
