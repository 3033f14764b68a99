#!/usr/bin/env bash
# Calibration (doc/card-facts.md, Calibration): --auto --destructive on a seeded randomized matrix of
# simulated cards with every phenomenon real cards show (multi-plane and
# allocation-group read levels, read spikes, stretched accesses, drift, noise
# up to +-10%, random writes fast only above a mapping unit, 128KiB..16MiB and
# 3*2^n erase blocks). Prints, per confidence level, how often each verdict was
# right; fails when a "high" verdict is ever wrong or "medium" is right in less
# than 90% of its cases. Accuracy (exact answers) is printed too and has
# floors, per verdict and per erase-size class: an "unknown" is never wrong,
# so without them a rule that stops finding 128KiB erase blocks would pass.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

CARDS=${CALIBRATION_CARDS:-320}
SEED=${CALIBRATION_SEED:-11}

python3 - "$FB" "$CARDS" "$SEED" <<'PY' || exit 1
import json, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

fb, ncards, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
K, M, G = 1024, 1024 * 1024, 1024 ** 3
rng = random.Random(seed)
erase_sizes = [128*K, 256*K, 512*K, 1*M, 3*M//2, 2*M, 3*M, 4*M, 6*M, 8*M, 12*M, 16*M]

def smallest_random_row(e, page):
    # --auto's random runs go down to E/32, not below a page (auto/auto_state.h RANDOM_ROW_SHIFT)
    b = e
    for _ in range(5):
        if b % 2 or b // 2 < page:
            break
        b //= 2
    return b

def card(i):
    e = rng.choice(erase_sizes)
    page = rng.choice([p for p in (4*K, 8*K, 16*K, 32*K) if p * 8 <= e])
    size = rng.choice([1, 2, 4, 8, 16, 32]) * G
    open_au = rng.randint(1, 16)
    random_au = 0 if rng.random() < 0.4 else rng.randint(1, open_au)
    fat = 0 if rng.random() < 0.5 else rng.randint(1, 3)
    spec = [f"size={size}", f"erasesize={e}", f"pagesize={page}", f"open-au={open_au}",
            f"random-au={random_au}", f"fat-aus={fat}", f"noise={rng.choice([0, 3, 5, 10])}",
            f"seed={i + 1}"]
    if rng.random() < 0.4 and 2 * page * 4 <= e:
        spec.append(f"multiplane={2 * page}")
    if rng.random() < 0.3 and size >= 8 * G:
        g, top = e, rng.choice([1, 2]) * G  # a multiple of the erase block near 1-2GiB
        while g < top:
            g *= 2
        spec.append(f"group={g}")
    if rng.random() < 0.5:
        spec.append(f"spikes={rng.choice([1, 2])}")
    if rng.random() < 0.3:
        spec.append(f"stretch={rng.choice([1, 2])}")
    if rng.random() < 0.3:
        spec.append(f"drift={rng.choice([2, 5])}")
    rnd = random_au
    row = smallest_random_row(e, page)
    if random_au and rng.random() < 0.25 and 8 * row <= e:
        spec.append(f"map-unit={rng.choice([u for u in (8 * row, 16 * row) if u <= e])}")
        rnd = 0  # small out-of-order writes are slow at any N
    return dict(spec="sim:" + ",".join(spec), erase=e, lin=open_au, rnd=rnd)

cards = [card(i) for i in range(ncards)]

def run(c):
    p = subprocess.run([fb, "--auto", "--destructive", "--json", "--max-write=16G", c["spec"]],
                       capture_output=True, text=True, timeout=300)
    try:
        return c, json.loads(p.stdout) if p.returncode == 0 else None, p.stderr.strip()[:200]
    except ValueError as e:
        return c, None, f"invalid JSON: {e}"

levels = ("high", "medium", "low", "none")
kinds = ("erase size", "open AUs linear", "open AUs random")
table = {(k, l): [0, 0] for k in kinds for l in levels}  # right, total
exact = {k: 0 for k in kinds}
by_class = {}  # (kind, erase size) -> [exact, total]
wrong = []
errors = []
with ThreadPoolExecutor(max_workers=2) as ex:
    for c, doc, err in ex.map(run, cards):
        if doc is None:
            errors.append(f"{c['spec']}: {err}")
            continue
        v = doc["verdict"]
        for kind, est, want in (("erase size", v["erase_size"], c["erase"]),
                                ("open AUs linear", v["open_au_linear"], c["lin"]),
                                ("open AUs random", v["open_au_random"], c["rnd"])):
            if kind == "erase size":
                got, at_least = est["size_bytes"], False
            else:
                got, at_least = est["n"], est["at_least"]
            is_exact = got == want and not at_least
            right = is_exact or (at_least and got is not None and want >= got)
            conf = est["confidence"]
            table[(kind, conf)][0] += right
            table[(kind, conf)][1] += 1
            exact[kind] += is_exact
            cell = by_class.setdefault((kind, c["erase"]), [0, 0])
            cell[0] += is_exact
            cell[1] += 1
            if not right and conf in ("high", "medium"):
                wrong.append(f"{c['spec']}: {kind} {got}{'+' if at_least else ''} (want {want}), {conf}")

n = ncards - len(errors)
print(f"# calibration on {n} simulated cards (seed {seed}): right / verdicts at each confidence")
print(f"#   {'':18}" + "".join(f"{l:>16}" for l in levels))
for k in kinds:
    cells = []
    for l in levels:
        r, t = table[(k, l)]
        cells.append(f"{r}/{t} {100.0 * r / t:5.1f}%" if t else "-")
    print(f"#   {k:18}" + "".join(f"{x:>16}" for x in cells))
print("#   exact: " + ", ".join(f"{k} {100.0 * exact[k] / max(n, 1):.1f}%" for k in kinds))
def size_name(b):
    return f"{b // M}M" if b % M == 0 else f"{b // K}K"
print("#   exact per erase size: " + ", ".join(
    f"{size_name(e)} " + "/".join(f"{100.0 * by_class[(k, e)][0] / by_class[(k, e)][1]:.0f}"
                                  for k in kinds if (k, e) in by_class)
    for e in erase_sizes if ("erase size", e) in by_class) + "% (erase size/linear/random)")
fail = False
# Accuracy floors: "unknown" is never wrong, but a rule that answers
# "unknown" where it should know must fail too. Exact answers per verdict
# over all cards, and per erase-size class (each class holds ~1/12 of them).
FLOOR = {"erase size": 98.0, "open AUs linear": 97.0, "open AUs random": 93.0}
CLASS_FLOOR = {"erase size": 90.0, "open AUs linear": 85.0, "open AUs random": 70.0}
for k in kinds:
    if n and 100.0 * exact[k] / n < FLOOR[k]:
        print(f"FAIL: {k} exact on {100.0 * exact[k] / n:.1f}% of {n} cards (want >= {FLOOR[k]:.0f}%)")
        fail = True
    for e in erase_sizes:
        r, t = by_class.get((k, e), (0, 0))
        if t >= 5 and 100.0 * r / t < CLASS_FLOOR[k]:
            print(f"FAIL: {k} exact on {r}/{t} cards with {size_name(e)} erase blocks "
                  f"(want >= {CLASS_FLOOR[k]:.0f}% per erase size)")
            fail = True
        elif t < 5 and ncards >= 200:
            print(f"FAIL: only {t} cards with {size_name(e)} erase blocks: the matrix does not cover it")
            fail = True
for l, need in (("high", 100.0), ("medium", 90.0)):
    r = sum(table[(k, l)][0] for k in kinds)
    t = sum(table[(k, l)][1] for k in kinds)
    if t and 100.0 * r / t < need:
        print(f"FAIL: {l} right in {100.0 * r / t:.1f}% of {t} verdicts (want >= {need:.0f}%)")
        fail = True
for k in kinds:
    if table[(k, "high")][1] and table[(k, "high")][0] < table[(k, "high")][1]:
        fail = True
for w in wrong[:40]:
    print(("wrong: " if " high" in w else "medium miss: ") + w)
for e in errors[:10]:
    print("FAIL: " + e)
sys.exit(1 if fail or errors else 0)
PY
