#!/usr/bin/env bash
# Does the scheduling flashbench asks for change the times it measures?
# The original asks for SCHED_FIFO priority 10 and does not pin; earlier
# versions of ours asked for priority 99 and pinned to one CPU. This times
# 4 KiB O_DIRECT reads (bench/schedread.c, timed as flashbench times them)
# under each setting, on /dev/zram0 (when free) and a loop device over a
# file in /dev/shm, on an idle machine and with two busy CPU hogs, the
# settings interleaved over ROUNDS rounds. Prints the median and 99th
# percentile per setting (the median over the rounds) and each against the
# original's setting. Figures, never pass/fail. Needs root.
# Env: SCHED_ROUNDS (default 5), SCHED_COUNT (reads per run, default 20000).
set -u
here=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${SCHED_ROUNDS:-5} COUNT=${SCHED_COUNT:-20000}
W=$(mktemp -d /tmp/fbsched.XXXXXX)
SHM="" zram=0 loop="" hogs=()
cleanup() {
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done
	[ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
	[ "$zram" = 1 ] && echo 1 >/sys/block/zram0/reset 2>/dev/null
	[ -n "$SHM" ] && rm -rf "$SHM"
	rm -rf "$W"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
say_skip() { echo "sched: skipped: $*"; exit 0; }

[ "$(id -u)" = 0 ] || say_skip "needs root for SCHED_FIFO, zram and loop devices"
${CC:-cc} -O2 -Wall -Wextra -o "$W/schedread" "$here/schedread.c" || say_skip "cannot build schedread"
targets=()
if [ -e /sys/block/zram0/disksize ] && [ "$(cat /sys/block/zram0/disksize)" = 0 ] &&
   echo 256M >/sys/block/zram0/disksize 2>/dev/null; then
	zram=1
	dd if=/dev/urandom of=/dev/zram0 bs=1M count=256 oflag=direct status=none
	targets+=("zram0=/dev/zram0")
fi
if command -v losetup >/dev/null && SHM=$(mktemp -d /dev/shm/fbsched.XXXXXX 2>/dev/null); then
	head -c 256M /dev/urandom >"$SHM/card"
	loop=$(losetup -f --show --direct-io=off "$SHM/card" 2>/dev/null) && targets+=("loop=$loop")
fi
[ ${#targets[@]} -gt 0 ] || say_skip "neither /dev/zram0 nor a loop device is available"

settings=("other 0" "fifo10 0" "fifo10 1" "fifo99 0" "fifo99 1")
summary=()
for load in idle busy; do
	if [ $load = busy ]; then
		for _ in 1 2; do (while :; do :; done) & hogs+=($!); done
	fi
	for t in "${targets[@]}"; do
		name=${t%%=*} dev=${t#*=}
		: >"$W/runs"
		for ((r = 0; r < ROUNDS; r++)); do
			for s in "${settings[@]}"; do
				# shellcheck disable=SC2086
				res=$("$W/schedread" "$dev" 4096 "$COUNT" $s) || say_skip "schedread $dev $s failed"
				echo "$s $res" >>"$W/runs"
			done
		done
		line=$(python3 - "$W/runs" <<'PY'
import statistics, sys
runs = {}
for l in open(sys.argv[1]):
    f = l.split()
    runs.setdefault(f"{f[0]}{'+pin' if f[1] == '1' else ''}", []).append(
        (int(f[3]), int(f[7])))
base = runs["fifo10"]
bmed = statistics.median(m for m, _ in base)
bp99 = statistics.median(p for _, p in base)
out = []
for k, v in runs.items():
    med = statistics.median(m for m, _ in v)
    p99 = statistics.median(p for _, p in v)
    out.append(f"{k} {med / 1000:.2f}/{p99 / 1000:.1f}us ({med / bmed - 1:+.1%}/{p99 / bp99 - 1:+.0%})")
print("; ".join(out))
PY
)
		echo "$name, $load: median/p99 per read, against fifo10 (the original's): $line"
		summary+=("$name $load: $line")
	done
	for p in "${hogs[@]}"; do kill "$p" 2>/dev/null; done
	hogs=()
done
echo "sched: ${summary[*]}"
