#!/usr/bin/env bash
# What --capacity costs per card size, 8GB to 1TB, on simulated cards (the
# device time is the simulator's virtual clock: what a real card with that
# model would take): bytes written, I/Os and time for a genuine card, a fake
# that wraps and one that loses writes (each storing 47% of its size).
# Ratios to the 8GB card show the growth: the search rounds for lost writes
# grow with log(size); the dense labelled area and the wrap reads grow with
# sqrt(size), what any check needs to see a wrap at an arbitrary real size.
# Prints figures and ratios; never fails on the numbers.
set -eu
FB=${FLASHBENCH:-$(cd "$(dirname "$0")/.." && pwd)/flashbench}
command -v python3 >/dev/null || { echo "capacity-cost: needs python3"; exit 0; }

python3 - "$FB" <<'PY'
import json, math, subprocess, sys

fb = sys.argv[1]
G = 1 << 30
sizes = [8, 16, 32, 64, 128, 256, 512, 1024]

def run(spec):
    p = subprocess.run([fb, "--capacity", "--json", "sim:" + spec], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        sys.exit(f"capacity-cost: {spec}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)["capacity"]

print(f"{'card':>6} {'kind':>8} {'written':>10} {'I/Os':>6} {'rounds':>6} {'time':>8}  verdict")
base = {}
rows = {}
for gb in sizes:
    size = gb * G
    real = size * 47 // 100 // 512 * 512
    for kind, spec in (("genuine", f"size={gb}G"),
                       ("wrap", f"size={gb}G,real-size={real}"),
                       ("drop", f"size={gb}G,real-size={real},fake=drop,cache=4M")):
        c = run(spec)
        want = size if kind == "genuine" else real
        ok = c["real_bytes_min"] == want == c["real_bytes_max"]
        rows[(gb, kind)] = c
        print(f"{gb:>5}G {kind:>8} {c['bytes_written'] / (1 << 20):>8.1f}Mi {c['ios']:>6} "
              f"{c['rounds']:>6} {c['device_ns'] / 1e9:>7.1f}s  {c['verdict']}{'' if ok else ' WRONG SIZE'}")

print()
print("ratios to the 8G card (size x128: log(size) x1.2, sqrt(size) x11.3, size x128)")
for kind in ("genuine", "wrap", "drop"):
    a, b = rows[(8, kind)], rows[(1024, kind)]
    print(f"  {kind:>8}: written x{b['bytes_written'] / a['bytes_written']:.1f}, "
          f"I/Os x{b['ios'] / a['ios']:.1f}, rounds x{b['rounds'] / a['rounds']:.1f}, "
          f"time x{b['device_ns'] / a['device_ns']:.1f}")
d8, d1t = rows[(8, "drop")], rows[(1024, "drop")]
print(f"capacity-cost: 8G->1T (x128): written x{d1t['bytes_written'] / d8['bytes_written']:.1f}, "
      f"I/Os x{d1t['ios'] / d8['ios']:.1f} (sqrt x11.3), search rounds "
      f"{d8['rounds'] - 1}->{d1t['rounds'] - 1} (log), time x{d1t['device_ns'] / d8['device_ns']:.1f}")
PY
