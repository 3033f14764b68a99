#!/usr/bin/env bash
# What --class costs per claim, and how it compares with checking a card by
# hand the way the Raspberry Pi diagnostics do (fio on a 64 MiB file:
# libaio, queue depth 4, direct I/O; a 512 KiB sequential write to prepare,
# one to measure, then 10 s each of 4 KiB random writes and reads:
# doc/speed-classes.md).
#  1. Per claim, on a simulated card (its virtual clock: what a real card of
#     that model would take): bytes written, the restore, device time.
#  2. As root, on a loop device over a 256 MiB file of this benchmark's:
#     --class --claim=C10,A2 (wall time, bytes the kernel counted written,
#     and its figures), then, where fio is installed (apt-get install fio),
#     the same figures from the fio job run by hand on the same device.
# Prints figures and ratios; never fails on the numbers.
set -eu
FB=${1:-${FLASHBENCH:-$(cd "$(dirname "$0")/.." && pwd)/flashbench}}
command -v python3 >/dev/null || { echo "class-cost: needs python3"; exit 0; }
tmp=$(mktemp -d /tmp/class-cost.XXXXXX)
loop=
cleanup() { [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

echo "per claim, on sim:sdhc-good,claims=none (no SD Status: the claim from --claim)"
python3 - "$FB" <<'PY'
import json, subprocess, sys
fb = sys.argv[1]
print(f"{'claim':>14} {'written':>9} {'restored':>9} {'read':>9} {'device time':>12}  verdict")
for claim in ("C4", "C10", "U3", "V30", "A1", "A2", "C10,U3,V30,A2"):
    p = subprocess.run([fb, "--class", "--json", "--claim=" + claim, "sim:sdhc-good,claims=none"],
                       capture_output=True, text=True)
    c = json.loads(p.stdout)["class"]
    k = c["conditions"]
    print(f"{claim:>14} {c['written_bytes'] / 2**20:>7.1f}Mi {k['area_bytes'] / 2**20:>7.1f}Mi "
          f"{c['read_bytes'] / 2**20:>7.1f}Mi {c['device_time_ns'] / 1e9:>11.2f}s  {c['verdict']}")
PY

if [ "$(id -u)" != 0 ] || ! command -v losetup >/dev/null; then
	echo "class-cost: the loop-device half needs root and losetup"
	echo "class-cost: per claim above; loop device and fio not run"
	exit 0
fi
head -c 256M /dev/urandom > "$tmp/card.img"
loop=$(losetup -f --show "$tmp/card.img") || { echo "class-cost: no free loop device"; exit 0; }
stat_written() { echo $(($(awk '{print $7}' "/sys/block/${loop##*/}/stat") * 512)); }

w0=$(stat_written)
t0=$(date +%s%N)
"$FB" --class --json --claim=C10,A2 --erasesize=4M "$loop" > "$tmp/class.json" 2>/dev/null || true
t1=$(date +%s%N)
class_written=$(($(stat_written) - w0))
class_ms=$(((t1 - t0) / 1000000))
python3 - "$tmp/class.json" "$class_written" "$class_ms" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["class"]
ph = {p["phase"]: p for p in c["phases"]}
print(f"--class on a loop device: {int(sys.argv[3]) / 1000:.1f}s, the kernel counted "
      f"{int(sys.argv[2]) / 2**20:.0f}MiB written (test data and restore)")
print(f"  sequential write {ph['sequential_write']['bytes_per_s'] / 1024:.0f} KiB/s, "
      f"random write {ph['random_write']['iops']:.0f} IOPS (depth 1), "
      f"{ph['queued_random_write']['iops']:.0f} IOPS (depth {ph['queued_random_write']['queue_depth']}), "
      f"random read {ph['random_read']['iops']:.0f} / {ph['queued_random_read']['iops']:.0f} IOPS")
PY

if ! command -v fio >/dev/null; then
	echo "class-cost: --class ${class_ms}ms, $((class_written >> 20))MiB; fio not installed (apt-get install fio): no comparison"
	exit 0
fi
# The Raspberry Pi test's conditions, written here from its published parameters.
cat > "$tmp/pi.fio" <<EOF
[global]
filename=$loop
size=64m
offset=64m
direct=1
ioengine=libaio
iodepth=4
group_reporting=0

[prepare]
rw=write
bs=512k
stonewall

[seq-write]
rw=write
bs=512k
stonewall

[rand-write]
rw=randwrite
bs=4k
runtime=10
time_based
stonewall

[rand-read]
rw=randread
bs=4k
runtime=10
time_based
stonewall
EOF
w0=$(stat_written)
t0=$(date +%s%N)
fio --output-format=json "$tmp/pi.fio" > "$tmp/fio.json" 2>/dev/null
t1=$(date +%s%N)
fio_written=$(($(stat_written) - w0))
fio_ms=$(((t1 - t0) / 1000000))
python3 - "$tmp/fio.json" "$fio_written" "$fio_ms" "$class_written" "$class_ms" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
fw, fms, cw, cms = (int(x) for x in sys.argv[2:6])
print(f"fio by hand (the Raspberry Pi job) on the same device: {fms / 1000:.1f}s, "
      f"{fw / 2**20:.0f}MiB written, and the card's data is gone (nothing saved or restored)")
print(f"  sequential write {jobs['seq-write']['write']['bw']:.0f} KiB/s, "
      f"random write {jobs['rand-write']['write']['iops']:.0f} IOPS (depth 4), "
      f"random read {jobs['rand-read']['read']['iops']:.0f} IOPS (depth 4)")
print(f"class-cost: --class {cms / 1000:.1f}s and {cw / 2**20:.0f}MiB written (restore included) "
      f"vs fio {fms / 1000:.1f}s and {fw / 2**20:.0f}MiB (data lost): time x{cms / max(fms, 1):.2f}, "
      f"bytes x{cw / max(fw, 1):.2f}")
PY
