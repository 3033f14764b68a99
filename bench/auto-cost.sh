#!/usr/bin/env bash
# What `--auto --destructive` writes with its own budget (issue 26), card by
# card, against the manual sequence a user runs for the same answers with
# the original's options (-a; --open-au N = 1 .. limit+1 linear and --random
# with the page as --blocksize; one --find-fat --random): the cards of issue
# 26's table as sim presets (their geometry in sim/sim_presets.c), a 1 GB
# card of 128 KiB erase blocks, sim:ram and a few older presets. Per card:
# bytes written and their share of the card, the characterisation's bytes
# (capacity and class checks apart) against the manual sequence, device
# time, and the verdicts. Simulated cards, so the device time is the
# simulator's virtual clock. Never fails on the numbers; the population's
# figures (median, worst) are bench/calibration.sh's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
FB=${FLASHBENCH:-$here/../flashbench}
command -v python3 >/dev/null || { echo "auto-cost: needs python3"; exit 0; }

python3 - "$FB" "$here" <<'PY'
import json, subprocess, sys
fb, here = sys.argv[1], sys.argv[2]
sys.path.insert(0, here)
import calibration

K, M, G = 1024, 1024 * 1024, 1024 ** 3
# (name, spec, erase size, page, open linear, open random): the presets' geometry
cards = [
    ("USB 3 stick 64 GB", "sim:usb3-64g", 32 * M, 16 * K, 4, 2),
    ("SDXC A2 64 GB, 1 GiB cache", "sim:a2-64g", 24 * M, 8 * K, 8, 8),
    ("SDXC 128 GB, groups", "sim:sdxc-128g", 16 * M, 8 * K, 5, 1),
    ("SDXC 64 GB", "sim:sdxc-64g", 24 * M, 8 * K, 4, 2),
    ("TLC 32 GB, 128 MiB cache", "sim:tlc-32g", 12 * M, 16 * K, 2, 1),
    ("eMMC 5.1, 2 MiB buffer", "sim:emmc51", 512 * K, 16 * K, 8, 8),
    ("no visible geometry", "sim:nogeo-128g", 16 * M, 16 * K, 4, 4),
    ("1 GB card, 128 KiB", "sim:size=1G,erasesize=128K,pagesize=4K,open-au=4,random-au=2,fat-aus=2,noise=5",
     128 * K, 4 * K, 4, 2),
    ("sim:ram (1 GiB)", "sim:ram", 4 * M, 16 * K, 1, 1),
    ("good SDHC 32 GB", "sim:sdhc-good", 4 * M, 16 * K, 8, 4),
    ("cheap microSD 8 GB", "sim:microsd-cheap", 4 * M, 16 * K, 1, 0),
]


def verdict(v, key):
    e = v.get(key)
    if not e:
        return "-"
    if "not_determinable" in e:
        return "n/d (" + e["not_determinable"]["reason"] + ")"
    return f"{'>=' if e['at_least'] else ''}{e['n']} {e['confidence']}"


print(f"{'card':28} {'written':>9} {'of card':>8} {'work':>9} {'manual':>10} {'bytes':>6} {'time':>6}  "
      f"erase / linear / random / FAT")
BY = ("reference", "fat_area", "open_linear", "open_random", "settling", "cache")
by_purpose = []
for name, spec, e, page, lin, rnd in cards:
    p = subprocess.run([fb, "--auto", "--destructive", "--json", spec], capture_output=True, text=True)
    d = json.loads(p.stdout)
    c = dict(spec=spec, erase=e, page=page, lin=lin, rnd=rnd)
    mb, mns = calibration.manual_cost(fb, c)
    r = calibration.cost_record(c, d, mb, mns)
    v = d["verdict"]
    es = v["erase_size"]["size_bytes"]
    fat = v.get("fat_area")
    print(f"{name:28} {r['total'] / M:8.0f}M {100 * r['total'] / r['size']:7.2f}% {r['work'] / M:8.0f}M "
          f"{mb / M:9.0f}M {r['work'] / mb:6.3f} {r['ns'] / mns:6.3f}  "
          f"{(str(es >> 10) + 'K') if es else '-'} / {verdict(v, 'open_au_linear')} / "
          f"{verdict(v, 'open_au_random')} / {fat['erase_blocks'] if fat else '-'} {fat['confidence'] if fat else ''}")
    by_purpose.append((name, r["by"]))
print(f"\n{'MiB by purpose':28} " + " ".join(f"{k:>11}" for k in BY))
for name, by in by_purpose:
    print(f"{name:28} " + " ".join(f"{by[k] / M:11.1f}" for k in BY))
PY
