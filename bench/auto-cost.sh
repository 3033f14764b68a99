#!/usr/bin/env bash
# What `--auto --destructive` costs a card compared with the manual sequence
# a user runs for the same answers: one -a; --open-au for N = 1 .. limit+1,
# linear and --random; --find-fat. Simulated cards, so the device time is
# the simulator's virtual clock (what a real card with that model would take).
# Prints bytes written and device time of both and the ratios; never fails on
# the numbers.
set -eu
FB=${FLASHBENCH:-$(cd "$(dirname "$0")/.." && pwd)/flashbench}
command -v python3 >/dev/null || { echo "auto-cost: needs python3"; exit 0; }

python3 - "$FB" <<'PY'
import json, subprocess, sys

fb = sys.argv[1]
K, M = 1024, 1024 * 1024
# (name, size, erase size, page size, open AUs, random AUs, FAT AUs): the
# presets' geometry plus a few typical cards.
cards = [
    ("cheap microSD",      8 << 30, 4 * M,  16 * K, 1,  0, 0),
    ("good SDHC",         32 << 30, 4 * M,  16 * K, 8,  4, 2),
    ("eMMC",              16 << 30, 512 * K, 8 * K, 16, 16, 0),
    ("TLC SDXC 12MiB AU", 64 << 30, 12 * M, 16 * K, 4,  2, 1),
    ("CF 16MiB AU",       32 << 30, 16 * M, 32 * K, 4,  1, 1),
    ("SDHC 3 open",       16 << 30, 4 * M,   8 * K, 3,  3, 1),
    ("1.5MiB AU",          8 << 30, 3 * M // 2, 16 * K, 5, 0, 1),
]

def run(args):
    p = subprocess.run([fb, "--json", *args], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"auto-cost: flashbench {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    st = json.loads(p.stdout)["status"]
    return st["written_bytes"], st["device_time_ns"]

def manual(dev, e, page, lin, rnd):
    runs = [["-a", "--blocksize=1024", dev]]
    common = [f"--erasesize={e}", f"--blocksize={page}", dev]
    runs += [["-O", f"--open-au-nr={n}", *common] for n in range(1, lin + 2)]
    runs += [["-O", "--random", f"--open-au-nr={n}", *common] for n in range(1, rnd + 2)]
    runs += [["--find-fat", "--random", *common]]
    tot_b = tot_ns = 0
    for r in runs:
        b, ns = run(r)
        tot_b += b
        tot_ns += ns
    return tot_b, tot_ns

def mib(b): return f"{b / M:8.0f}MiB"
def sec(ns): return f"{ns / 1e9:8.1f}s"

sum_ab = sum_mb = sum_at = sum_mt = 0
print(f"{'card':20} {'auto written':>12} {'time':>9} {'manual written':>14} {'time':>9}  bytes  time")
for name, size, e, page, lin, rnd, fat in cards:
    dev = (f"sim:size={size},erasesize={e},pagesize={page},open-au={lin},"
           f"random-au={rnd},fat-aus={fat},noise=5")
    ab, at = run(["--auto", "--destructive", "--max-write=64G", dev])
    mb, mt = manual(dev, e, page, lin, rnd)
    sum_ab += ab; sum_at += at; sum_mb += mb; sum_mt += mt
    print(f"{name:20} {mib(ab):>12} {sec(at):>9} {mib(mb):>14} {sec(mt):>9}  {ab / mb:5.2f} {at / mt:5.2f}")
print(f"auto-cost: --auto --destructive wrote {sum_ab / sum_mb:.2f}x the bytes and spent "
      f"{sum_at / sum_mt:.2f}x the device time of the manual sequence "
      f"({sum_ab / M:.0f} vs {sum_mb / M:.0f} MiB, {sum_at / 1e9:.0f} vs {sum_mt / 1e9:.0f} s, "
      f"{len(cards)} simulated cards)")
PY
