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
why=$(python3 - "$T/timing" "$T/out" "$TESTS_DIR" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from eta_log import eta_figures
t, figures = eta_figures(sys.argv[1], sys.argv[2])
step = [shown / (t - when) for when, shown, line in figures if b", random writes:" in line and t - when > 0]
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
