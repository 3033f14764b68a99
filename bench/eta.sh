#!/usr/bin/env bash
# How well the progress line's ETA holds: --class, --capacity and --auto
# --destructive on simulated cards that run in real time (realtime=PCT),
# drawn on a pseudo-terminal (script -T records when each line came). For
# every draw from the middle of the run on, with more than 5 s left, the
# ETA shown against the time that really was left: the median ratio's
# distance from 1, and how many draws were within 30%. Prints figures,
# never fails on them. (The random phases of --class are capped at 4 s of
# the card's time, which realtime shortens on the wall: the --auto cards
# here carry no A claim.)
set -u
FB=${1:-${FLASHBENCH:-$(cd "$(dirname "$0")/.." && pwd)/flashbench}}
command -v script >/dev/null || { echo "eta: needs script(1)"; exit 0; }
command -v python3 >/dev/null || { echo "eta: needs python3"; exit 0; }
tmp=$(mktemp -d /tmp/eta.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/eta.py" <<'PY'
import re, sys
timing, out, label = sys.argv[1], open(sys.argv[2], "rb").read(), sys.argv[3]
t, pos, ends = 0.0, 0, []	# when each chunk of the output was written
for line in open(timing):
    d, n = line.split()[:2]
    t += float(d); pos += int(n)
    ends.append((pos, t))
marks, k = [], 0
for m in re.finditer(rb"\r([^\r]*?)\x1b\[K", out):
    while k < len(ends) - 1 and ends[k][0] <= m.start():
        k += 1
    etas = re.findall(rb"ETA (\d+):(\d\d)(?::(\d\d))?", m.group(1))	# the last: the run's or test's
    if etas:
        g = [int(x) if x else None for x in etas[-1]]
        marks.append((ends[k][1], g[0] * 60 + g[1] if g[2] is None else g[0] * 3600 + g[1] * 60 + g[2]))
late = sorted(s / (t - w) for w, s in marks if w >= t / 2 and t - w > 5)
if not late:
    print("%-44s %5.0fs: no draw from the middle on with 5 s left" % (label, t)); sys.exit(0)
off = sorted(abs(r - 1) for r in late)
print("%-44s %5.0fs: from the middle on median ETA/left %.2f, %d of %d draws within 30%%" % (
    label, t, late[len(late) // 2], sum(x <= 0.3 for x in off), len(off)))
PY

within=0 all=0
for cmd in "--class sim:microsd-cheap,realtime=100" "--class sim:sdxc-tlc,realtime=100" \
	"--capacity sim:microsd-cheap,real-size=2G,realtime=100" \
	"--auto --destructive sim:microsd-cheap,realtime=2" "--auto --destructive sim:sdhc-good,realtime=10" \
	"--auto --destructive sim:sdxc-tlc,claims=C10,realtime=5" "--auto --destructive sim:su04g,realtime=5" \
	"--auto --destructive sim:rpi-a2,claims=C10,realtime=5"; do
	script -q -T "$tmp/t" -O "$tmp/o" -c "$FB $cmd >/dev/null" </dev/null >/dev/null 2>&1
	line=$(python3 "$tmp/eta.py" "$tmp/t" "$tmp/o" "$cmd")
	echo "$line"
	w=$(printf '%s\n' "$line" | sed -n 's/.*, \([0-9]*\) of \([0-9]*\) draws within 30%$/\1 \2/p')
	[ -n "$w" ] && { within=$((within + ${w% *})); all=$((all + ${w#* })); }
done
echo "eta: from the middle of each run on, $within of $all ETA figures within 30% of the time left"
