#!/usr/bin/env bash
# Simulator speed: CPU time of a full -a on a 32 GiB simulated card and of
# full --open-au sweeps with a 16 MiB erase size, and on two 64 GB cards as
# they are made today (usb3-64g, a2-64g), against a budget of 1 s of
# CPU each (the simulator must never be what makes a test slow), with the
# simulated device time they stand for. Prints figures and
# ratios, never pass/fail. Usage: bench/sim-speed.sh [flashbench binary]
set -u
FB=${1:-${FLASHBENCH:-$(cd "$(dirname "$0")/.." && pwd)/flashbench}}
command -v python3 >/dev/null || { echo "sim-speed: needs python3"; exit 0; }

python3 - "$FB" <<'PY'
import json, resource, subprocess, sys

fb = sys.argv[1]
RUNS = 5

def cpu_of(args):
    """best-of-RUNS user+sys CPU seconds of one run, and its --json document"""
    best = None
    for _ in range(RUNS):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        p = subprocess.run([fb, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if p.returncode != 0:
            sys.exit(f"sim-speed: {' '.join(args)}: exit {p.returncode}: {p.stderr.decode().strip()}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = cpu if best is None else min(best, cpu)
    doc = json.loads(subprocess.run([fb, "--json", *args], capture_output=True, text=True).stdout)
    return best, doc

def ios_align(doc):
    a = doc["align"]
    rows = a.get("rows", [])
    return sum(r.get("positions", 7) for r in rows) * 3 * doc["parameters"]["count"]

def ios_rates(doc, key):
    r = doc[key]
    e, n = r.get("erasesize_bytes", 16 << 20), r.get("nr", doc["parameters"].get("open_au_nr", 2))
    return sum(n * e // row["blocksize_bytes"] for row in r.get("rows", []))

cases = [  # (short label, description, arguments, I/O count from the JSON)
    ("-a 32GiB", "-a, 32 GiB card", ["-a", "sim:size=32G"], ios_align),
    ("-O 16MiB", "-O, 16 MiB erase size, 2 AUs, to 16 KiB", ["-O", "-e", "16M", "sim:size=32G,erasesize=16M"],
     lambda d: ios_rates(d, "open_au")),
    ("-O 16MiB x17 to 4KiB", "-O, 16 MiB erase size, 17 AUs, to 4 KiB",
     ["-O", "-e", "16M", "-b", "4K", "--open-au-nr=17",
      "sim:size=32G,erasesize=16M,pagesize=4K,open-au=16"], lambda d: ios_rates(d, "open_au")),
    # cards as they are made today: big blocks, groups, a mapping unit, a buffer; an SLC cache
    ("-O usb3-64g x5", "-O, usb3-64g (32 MiB, groups, buffer), 5 AUs",
     ["-O", "-e", "32M", "--open-au-nr=5", "sim:usb3-64g"], lambda d: ios_rates(d, "open_au")),
    ("-O -r a2-64g x9 to 8KiB", "-O -r, a2-64g (24 MiB, 1 GiB cache), 9 AUs",
     ["-O", "-r", "-e", "24M", "-b", "8K", "--open-au-nr=9", "sim:a2-64g"],
     lambda d: ios_rates(d, "open_au")),
]
summary = []
for label, name, args, count in cases:
    cpu, doc = cpu_of(args)
    dev_s = doc["status"]["device_time_ns"] / 1e9
    try:
        ios = count(doc)
    except (KeyError, TypeError):
        ios = 0
    per_io = f"{cpu / ios * 1e9:.0f} ns CPU per I/O (whole run) over {ios} I/Os, " if ios else ""
    print(f"{name:42} {cpu:.3f} s CPU = {cpu / 1.0:.1%} of the 1 s budget; {per_io}"
          f"simulated device time {dev_s:.1f} s ({dev_s / max(cpu, 1e-6):,.0f}x faster than the card)")
    summary.append(f"{label} {cpu * 1e3:.0f} ms")
print("sim-speed: " + "; ".join(summary) + " of CPU (budget 1000 ms each; best of %d)" % RUNS)
PY
