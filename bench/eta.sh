#!/usr/bin/env bash
# How well the progress line's ETA holds: --class, --capacity and --auto
# (--destructive, with and without a class claim, and read-only) on
# simulated cards of real cards' kinds that run in real time (realtime=100:
# each access lasts its model time on the wall), drawn on a pseudo-terminal
# (script -T records when each line came). For every draw from the middle
# of the run on, with more than 5 s left, the ETA shown against the time
# that really was left: the median ratio, the worst, and how many draws
# were within 30% (issue 30's target); and the "step N of M" counts drawn
# against the steps the run went through. Prints figures, never fails on
# them.
#   bench/eta.sh [FLASHBENCH]   ETA_JOBS=N runs N at a time (default 2:
#   the runs mostly sleep); ETA_ONLY=REGEX keeps the command lines matching;
#   ETA_KEEP=DIR keeps each run's terminal output and timing there (N.o, N.t);
#   ETA_VCLOCK=1 runs them on the virtual clock of tests/vclock.c (preloaded:
#   its clocks move only while every thread sleeps, so the cards' realtime=
#   pacing takes no wall time and the figures are the same on every run and
#   machine; the time the host's CPU takes counts as nothing there).
set -u
FB=${1:-${FLASHBENCH:-$(cd "$(dirname "$0")/.." && pwd)/flashbench}}
command -v script >/dev/null || { echo "eta: needs script(1)"; exit 0; }
command -v python3 >/dev/null || { echo "eta: needs python3"; exit 0; }
tmp=$(mktemp -d /tmp/eta.XXXXXX)
trap 'if [ -n "${ETA_KEEP:-}" ]; then mkdir -p "$ETA_KEEP" && cp "$tmp"/*.[ot] "$ETA_KEEP"/ 2>/dev/null; fi; rm -rf "$tmp"' EXIT

cat >"$tmp/eta.py" <<'PY'
import re, sys
timing, out, label = sys.argv[1], open(sys.argv[2], "rb").read(), sys.argv[3]
if len(sys.argv) > 4:	# the virtual clock's log: bytes written to stderr, not to the terminal
	out = out[out.index(b"\n") + 1:]	# script's header line
	end = out.rfind(b"\nScript done")
	out = (out[:end + 1] if end >= 0 else out).replace(b"\r\n", b"\n")	# the terminal's onlcr
t, pos, ends = 0.0, 0, []	# when each chunk of the output was written
for line in open(timing):
    d, n = line.split()[:2]
    t += float(d); pos += int(n)
    ends.append((pos, t))
marks, steps, k = [], [], 0
for m in re.finditer(rb"\r([^\r]*?)\x1b\[K", out):
    while k < len(ends) - 1 and ends[k][0] <= m.start():
        k += 1
    s = re.match(rb"step (\d+) of (\d+), ([^:]*):", m.group(1))
    if s and (not steps or steps[-1] != s.groups()):
        steps.append(s.groups())
    etas = re.findall(rb"ETA (\d+):(\d\d)(?::(\d\d))?", m.group(1))	# the last: the run's or test's
    if etas:
        g = [int(x) if x else None for x in etas[-1]]
        marks.append((ends[k][1], g[0] * 60 + g[1] if g[2] is None else g[0] * 3600 + g[1] * 60 + g[2]))
# steps: every "of M" the same, and M the number of step names drawn
names = []
for n, of, name in steps:
    if name not in names:
        names.append(name)
ofs = sorted({int(of) for n, of, name in steps})
step_text = ("steps: %s of %s drawn" % (len(names), "/".join(map(str, ofs)))) if steps else "steps: none drawn"
if steps and (len(ofs) > 1 or ofs[0] != len(names)):
    step_text += " (MISMATCH: " + ", ".join(b"%s of %s %s".decode() % (n.decode(), o.decode(), nm.decode()) for n, o, nm in steps) + ")"
early = sorted(s / (t - w) for w, s in marks if w < t / 2 and t - w > 5)
late = sorted(s / (t - w) for w, s in marks if w >= t / 2 and t - w > 5)
if not late:
    print("%-52s %5.0fs: no draw from the middle on with 5 s left; %s" % (label, t, step_text)); sys.exit(0)
off = sorted(abs(r - 1) for r in late)
worst = max(late, key=lambda r: abs(r - 1))
print("%-52s %5.0fs: first half median %.2f; from the middle on median %.2f, worst %.2f, "
      "%d of %d draws within 30%%; %s" % (label, t, early[len(early) // 2] if early else float("nan"),
      late[len(late) // 2], worst, sum(x <= 0.3 for x in off), len(off), step_text))
PY

cmds=(
	"--class sim:microsd-cheap,realtime=100"
	"--class sim:sdxc-tlc,realtime=100"
	"--class sim:rpi-a2,realtime=100"
	"--capacity sim:microsd-cheap,real-size=2G,realtime=100"
	"--auto sim:sdhc-good,realtime=100"
	"--auto --destructive sim:microsd-cheap,realtime=100"
	"--auto --destructive sim:sdhc-good,realtime=100"
	"--auto --destructive sim:sdhc-good,claims=none,realtime=100"
	"--auto --destructive sim:sdxc-tlc,realtime=100"
	"--auto --destructive sim:su04g,realtime=100"
	"--auto --destructive sim:rpi-a2,realtime=100"
	"--auto --destructive sim:sa04g,real-size=1G,realtime=100"
)
vc=
if [ "${ETA_VCLOCK:-0}" = 1 ]; then
	cc -shared -fPIC -O2 -std=gnu11 -o "$tmp/vclock.so" "$(dirname "$0")/../tests/vclock.c" -ldl -pthread ||
		{ echo "eta: cannot build tests/vclock.c"; exit 0; }
	vc="env LD_PRELOAD=$tmp/vclock.so"
fi
one() {	# one NUMBER COMMAND: its line into $tmp/NUMBER.line
	if [ -n "$vc" ]; then
		script -q -O "$tmp/$1.o" -c "$vc VCLOCK_LOG=$tmp/$1.t $FB $2 >/dev/null" </dev/null >/dev/null 2>&1
		python3 "$tmp/eta.py" "$tmp/$1.t" "$tmp/$1.o" "$2" vclock > "$tmp/$1.line"
	else
		script -q -T "$tmp/$1.t" -O "$tmp/$1.o" -c "$FB $2 >/dev/null" </dev/null >/dev/null 2>&1
		python3 "$tmp/eta.py" "$tmp/$1.t" "$tmp/$1.o" "$2" > "$tmp/$1.line"
	fi
}
jobs_max=${ETA_JOBS:-2}
for i in "${!cmds[@]}"; do
	[ -n "${ETA_ONLY:-}" ] && ! [[ ${cmds[$i]} =~ $ETA_ONLY ]] && continue
	while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
	one "$i" "${cmds[$i]}" &
done
wait
within=0 all=0
for i in "${!cmds[@]}"; do
	[ -f "$tmp/$i.line" ] || continue
	line=$(cat "$tmp/$i.line")
	echo "$line"
	w=$(printf '%s\n' "$line" | sed -n 's/.* \([0-9]*\) of \([0-9]*\) draws within 30%.*/\1 \2/p')
	[ -n "$w" ] && { within=$((within + ${w% *})); all=$((all + ${w#* })); }
done
echo "eta: from the middle of each run on, $within of $all ETA figures within 30% of the time left"
