#!/usr/bin/env bash
# What --class costs per claim, and how it compares with checking a card by
# hand the way the Raspberry Pi diagnostics do (fio on a 64 MiB file:
# libaio, queue depth 4, direct I/O; a 512 KiB sequential write to prepare,
# one to measure, then 10 s each of 4 KiB random writes and reads:
# doc/speed-classes.md).
#  1. Per claim, on a simulated card (its virtual clock: what a real card of
#     that model would take): bytes written, the restore, device time.
#  2. As root, on a loop device over a 256 MiB file of this benchmark's
#     (in CLASS_COST_DIR, default /tmp; CLASS_COST_DIRECT=1 makes the loop
#     device bypass the page cache, slower and more like a card):
#     --class --claim=C10,A2 (wall time, bytes the kernel counted written,
#     and its figures), then, where fio is installed (apt-get install fio),
#     the same figures from the fio job run by hand on the same device, and
#     a fio job moving the same bytes as --class did, in the same requests
#     (its link reads, its sequential passes, 4 KiB random reads and writes
#     at depth 1 and 4, O_DIRECT, libaio; and the save, restore and verify
#     as plain reads and writes of the area): the ratio of wall times for
#     the same bytes.
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
img=$(mktemp "${CLASS_COST_DIR:-/tmp}/class-cost-card.XXXXXX")
trap 'cleanup; rm -f "$img"' EXIT
head -c 256M /dev/urandom > "$img"
loop=$(losetup -f --show ${CLASS_COST_DIRECT:+--direct-io=on} "$img") ||
	{ echo "class-cost: no free loop device"; exit 0; }
echo "class-cost: $loop over $img${CLASS_COST_DIRECT:+ (direct I/O)}"
stat_written() { echo $(($(awk '{print $7}' "/sys/block/${loop##*/}/stat") * 512)); }
# timed OUT CMD...: CMD's standard output to OUT; its wall time in ran_ms
# and the bytes the device counted written in ran_written; CMD's status
timed() {
	local out=$1 w0 t0 t1 rc=0; shift
	w0=$(stat_written)
	t0=$(date +%s%N)
	"$@" > "$out" 2>/dev/null || rc=$?
	t1=$(date +%s%N)
	ran_written=$(($(stat_written) - w0))
	ran_ms=$(((t1 - t0) / 1000000))
	return $rc
}

timed "$tmp/class.json" "$FB" --class --json --claim=C10,A2 --erasesize=4M "$loop" || true
class_written=$ran_written class_ms=$ran_ms
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
timed "$tmp/fio.json" fio --output-format=json "$tmp/pi.fio"
fio_written=$ran_written fio_ms=$ran_ms
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

# The same bytes as --class moved, in the same requests, by fio (no data kept).
python3 - "$tmp/class.json" "$loop" > "$tmp/same.fio" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["class"]
k, ph = c["conditions"], {p["phase"]: p for p in c["phases"]}
off, area, chunk = k["offset_bytes"], k["area_bytes"], k["sequential_request_bytes"]
print(f"[global]\nfilename={sys.argv[2]}\ndirect=1\nioengine=libaio\noffset={off}\nsize={area}\n")
def job(name, rw, bs, depth=1, io=None, size=None):
    print(f"[{name}]\nrw={rw}\nbs={bs}\niodepth={depth}\nstonewall")
    if io is not None:
        print(f"number_ios={io}")
    if size is not None:
        print(f"io_size={size}")
    print()
job("save", "read", chunk)
job("link", "read", chunk, size=ph["link_read"]["transferred_bytes"])
job("sequential", "write", chunk, size=ph["sequential_write"]["transferred_bytes"])
for name, rw in (("random_read", "randread"), ("random_write", "randwrite"),
                 ("queued_random_read", "randread"), ("queued_random_write", "randwrite")):
    if name in ph:
        job(name, rw, 4096, ph[name]["queue_depth"], io=ph[name]["io_count"])
job("restore", "write", chunk)
job("verify", "read", chunk)
PY
timed "$tmp/same.json" fio --output-format=json "$tmp/same.fio"
same_written=$ran_written same_ms=$ran_ms
# the same job with O_SYNC, as the original's options open a device they write (--class does not
# since 2026-12-02: doc/speed-classes.md)
sed 's/^direct=1$/direct=1\nsync=1/' "$tmp/same.fio" > "$tmp/sync.fio"
timed "$tmp/sync.json" fio --output-format=json "$tmp/sync.fio"
sync_ms=$ran_ms
python3 - "$tmp/same.json" "$same_written" "$same_ms" "$class_written" "$class_ms" "$tmp/class.json" \
	"$tmp/sync.json" "$sync_ms" <<'PY'
import json, sys
jobs = {j["jobname"]: j for j in json.load(open(sys.argv[1]))["jobs"]}
fw, fms, cw, cms = (int(x) for x in sys.argv[2:6])
c = json.load(open(sys.argv[6]))["class"]
moved = sum(j["read"]["io_bytes"] + j["write"]["io_bytes"] for j in jobs.values())
busy = sum(j["job_runtime"] for j in jobs.values())
print(f"fio moving the same bytes as --class (its requests; save, restore, verify as plain I/O): "
      f"{fms / 1000:.1f}s wall, {busy / 1000:.1f}s in its jobs, {moved / 2**20:.0f}MiB moved, "
      f"{fw / 2**20:.0f}MiB written")
if "queued_random_read" in jobs:
    print(f"  random read {jobs['random_read']['read']['iops']:.0f} IOPS (depth 1), "
          f"{jobs['queued_random_read']['read']['iops']:.0f} (depth 4); random write "
          f"{jobs['random_write']['write']['iops']:.0f} / "
          f"{jobs['queued_random_write']['write']['iops']:.0f} IOPS")
sync = {j["jobname"]: j for j in json.load(open(sys.argv[7]))["jobs"]}
sms = int(sys.argv[8])
print(f"the same fio job with O_SYNC (as the original's options open a device; --class does not): {sms / 1000:.1f}s wall, "
      f"random write {sync['random_write']['write']['iops']:.0f} IOPS (depth 1)"
      + (f", {sync['queued_random_write']['write']['iops']:.0f} (depth 4)" if "queued_random_write" in sync else ""))
print(f"class-cost: same bytes with O_SYNC: --class x{cms / max(sms, 1):.2f} the wall time of fio")
print(f"class-cost: same bytes: --class {cms / 1000:.1f}s, {cw / 2**20:.0f}MiB written; fio "
      f"{fms / 1000:.1f}s, {fw / 2**20:.0f}MiB written: wall time x{cms / max(fms, 1):.2f}, "
      f"bytes written x{cw / max(fw, 1):.2f} (--class device time {c['device_time_ns'] / 1e9:.1f}s)")
PY
