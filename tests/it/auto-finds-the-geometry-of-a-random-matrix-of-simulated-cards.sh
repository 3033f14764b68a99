#!/usr/bin/env bash
# --auto --destructive on a seeded randomized matrix of simulated cards
# (erase sizes 512K..16M incl. 3*2^n, pages 4K..32K, 1..16 open AUs, random
# capable or not, FAT area or not, noise up to 10%): erase size and open AUs
# (linear and random) exact in >= 95% of the cards, and no miss reported with
# more than low confidence.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

CARDS=${AUTO_MATRIX_CARDS:-64}
SEED=${AUTO_MATRIX_SEED:-20261130}

pyrun - "$FB" "$T" "$CARDS" "$SEED" ${AUTO_MATRIX_ARGS:---max-write=16G} <<'PY' || exit 1
import json, random, subprocess, sys
from concurrent.futures import ThreadPoolExecutor

fb, tmp, ncards, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
extra = sys.argv[5:]
K, M = 1024, 1024 * 1024
rng = random.Random(seed)
erase_sizes = [512*K, 1*M, 3*M//2, 2*M, 3*M, 4*M, 6*M, 8*M, 12*M, 16*M]

def card(i):
    e = rng.choice(erase_sizes)
    page = rng.choice([4*K, 8*K, 16*K, 32*K])
    open_au = rng.randint(1, 16)
    random_au = 0 if rng.random() < 0.4 else rng.randint(1, open_au)
    fat = 0 if rng.random() < 0.5 else rng.randint(1, 3)
    noise = rng.choice([0, 5, 10])
    size = rng.choice([2, 4, 8, 16]) * 1024 * M
    spec = (f"sim:size={size},erasesize={e},pagesize={page},open-au={open_au},"
            f"random-au={random_au},fat-aus={fat},noise={noise},seed={i + 1}")
    return dict(spec=spec, erase=e, page=page, lin=open_au, rnd=random_au, fat=fat)

cards = [card(i) for i in range(ncards)]

def run(c):
    p = subprocess.run([fb, "--auto", "--destructive", "--json", *extra, c["spec"]],
                       capture_output=True, text=True, timeout=240)
    if p.returncode != 0:
        return c, None, f"exit {p.returncode}: {p.stderr.strip()[:200]}"
    try:
        return c, json.loads(p.stdout), None
    except ValueError as e:
        return c, None, f"invalid JSON: {e}"

exact = 0
bad = []
with ThreadPoolExecutor(max_workers=2) as ex:
    for c, doc, err in ex.map(run, cards):
        if err:
            bad.append(f"{c['spec']}: {err}")
            continue
        v = doc["verdict"]
        checks = [
            ("erase size", v["erase_size"]["size_bytes"], c["erase"], v["erase_size"]["confidence"]),
            ("open AUs linear", None if v["open_au_linear"]["at_least"] else v["open_au_linear"]["n"],
             c["lin"], v["open_au_linear"]["confidence"]),
            ("open AUs random", None if v["open_au_random"]["at_least"] else v["open_au_random"]["n"],
             c["rnd"], v["open_au_random"]["confidence"]),
        ]
        ok = True
        for what, got, want, conf in checks:
            if got == want:
                continue
            ok = False
            line = f"{c['spec']}: {what} {got} (want {want}), {conf} confidence"
            if conf not in ("low", "none"):
                bad.append("confidently wrong: " + line)
            else:
                print("miss (low confidence): " + line)
        exact += ok

score = 100.0 * exact / ncards
print(f"auto accuracy: {exact}/{ncards} cards exact ({score:.1f}%)")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad or score < 95.0 else 0)
PY
