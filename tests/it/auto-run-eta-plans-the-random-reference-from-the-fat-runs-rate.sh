#!/usr/bin/env bash
# --auto --destructive's run ETA through the random writes step on a cheap
# card with no random slot (microsd-cheap): its random reference (random
# writes at N=1, each row in a fresh block) runs four times the linear
# runs' time per byte there, and is planned, until measured, at the cube
# root of the FAT run's time per byte against theirs (a card that pays for
# each out-of-order page pays for the reference's out-of-order chunks too;
# doc/card-facts.md, "The ETA's random reference"), not at twice the linear
# rate: at least 4 in 5 of the step's figures within 30% of the time left
# (58 of 59 on 2026-12-03, 39 of 59 at twice the linear rate). On the
# virtual clock of tests/vclock.c: the same times on a busy machine.
. "$(dirname "$0")/../lib.sh"
need_tool script
need_tool python3
vc=$(vclock)

card=microsd-cheap
script -q -O "$T/out" -c "env $vc VCLOCK_LOG=$T/timing $FB --auto --destructive sim:$card,realtime=100 >$T/report" \
	</dev/null >/dev/null 2>&1
grep -q '^What to do' "$T/report" || fail "no report: $(head -c 300 "$T/report")"
why=$(python3 - "$T/timing" "$T/out" <<'PY'
import re, sys
out = open(sys.argv[2], "rb").read()
out = out[out.index(b"\n") + 1:]	# script's header line
end = out.rfind(b"\nScript done")
out = (out[:end + 1] if end >= 0 else out).replace(b"\r\n", b"\n")	# the terminal's onlcr
t, pos, ends = 0.0, 0, []	# the virtual time at the end of each write to stderr
for line in open(sys.argv[1]):
    d, n = line.split()[:2]
    t += float(d); pos += int(n)
    ends.append((pos, t))
k, step = 0, []
for m in re.finditer(rb"\r([^\r]*?)\x1b\[K", out):
    while k < len(ends) - 1 and ends[k][0] <= m.start():
        k += 1
    eta = re.search(rb"run ETA (\d+):(\d\d)(?::(\d\d))?$", m.group(1))
    if not eta or b", random writes:" not in m.group(1):
        continue
    g = [int(x) if x else None for x in eta.groups()]
    shown = g[0] * 60 + g[1] if g[2] is None else g[0] * 3600 + g[1] * 60 + g[2]
    if t - ends[k][1] > 0:
        step.append(shown / (t - ends[k][1]))
if len(step) < 20:
    print("only %d run ETA figures in the random writes step" % len(step))
    sys.exit(1)
within = sum(abs(r - 1) <= 0.3 for r in step)
if 5 * within < 4 * len(step):
    step.sort()
    print("%d of %d run ETA figures in the random writes step within 30%% of the time left, fewer than 4 in 5 "
          "(ETA / time left from %.2f to %.2f, median %.2f)" % (within, len(step), step[0], step[-1], step[len(step) // 2]))
    sys.exit(1)
PY
) || fail "$card: $why"
exit 0
