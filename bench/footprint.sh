#!/usr/bin/env bash
# Footprint of -a: peak RSS (GNU time -v, else python3 getrusage of the
# child) and wall time of a default -a on /dev/zram0 (1 GiB), median of runs.
# Targets (issue 2): RSS <= 8 MiB, wall <= 33 ms (the original: ~194 MiB and
# ~0.1 s for any action). Prints figures and ratios, never pass/fail; uses a
# regular file when zram is unavailable. Usage: bench/footprint.sh [binary]
# Env: FOOTPRINT_RUNS (default 11).
set -u
here=$(cd "$(dirname "$0")" && pwd)
FB=${1:-${FLASHBENCH:-$here/../flashbench}}
RUNS=${FOOTPRINT_RUNS:-11}
W=$(mktemp -d /tmp/fbbench.XXXXXX)
zram=0

cleanup() {
	[ "$zram" = 1 ] && echo 1 >/sys/block/zram0/reset 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ -x "$FB" ] || { echo "footprint: skipped (no binary at $FB)"; exit 0; }
command -v python3 >/dev/null || { echo "footprint: skipped (needs python3)"; exit 0; }

dev="" what=""
if [ "$(id -u)" = 0 ] && [ -e /sys/block/zram0/disksize ] &&
	[ "$(cat /sys/block/zram0/disksize)" = 0 ] && echo 1G >/sys/block/zram0/disksize 2>/dev/null; then
	zram=1 dev=/dev/zram0 what="/dev/zram0 (1 GiB)"
else
	truncate -s 1G "$W/card"
	dev=$W/card what="a 1 GiB regular file (zram unavailable)"
fi

python3 - "$FB" "$dev" "$what" "$RUNS" <<'PY'
import os, re, resource, shutil, statistics, subprocess, sys, time

fb, dev, what, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cmd = [fb, "-a", dev]

def peak_rss_kib():
    gnu_time = "/usr/bin/time"
    if os.access(gnu_time, os.X_OK):
        p = subprocess.run([gnu_time, "-v", *cmd], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr)
        if p.returncode == 0 and m:
            return int(m.group(1)), "GNU time -v"
    subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "getrusage(RUSAGE_CHILDREN)"

def wall_ms():
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    t = (time.perf_counter() - t0) * 1e3
    if p.returncode != 0:
        sys.exit(f"footprint: {' '.join(cmd)}: exit {p.returncode}: {p.stderr.decode().strip()}")
    return t

walls = [wall_ms() for _ in range(runs)]
rss, how = peak_rss_kib()
wall = statistics.median(walls)
rss_mib = rss / 1024
print(f"footprint: -a on {what}: peak RSS {rss_mib:.2f} MiB ({how}); wall median {wall:.1f} ms, "
      f"min {min(walls):.1f} ms, max {max(walls):.1f} ms over {runs} runs")
print(f"footprint: -a peak RSS {rss_mib:.2f} MiB = {rss_mib / 8:.2f}x the 8 MiB target "
      f"({194 / rss_mib:.0f}x less than the original's ~194 MiB); wall {wall:.1f} ms = "
      f"{wall / 33.3:.2f}x the 33 ms target ({100 / wall:.1f}x faster than the original's ~0.1 s)")
PY
