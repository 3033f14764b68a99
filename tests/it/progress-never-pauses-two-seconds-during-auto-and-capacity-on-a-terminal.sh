#!/usr/bin/env bash
# On a terminal (a pseudo-terminal here), --auto --destructive shows one
# line from its first second to its end: "step N of 6, NAME: ...", the step's
# progress and the whole run's ETA, redrawn with never 2 seconds between two
# draws (also between steps and during long I/Os), at most 5 times a second,
# and cleared at the end; --capacity shows its rounds the same way. On a
# pipe neither prints anything to stderr. The sim: cards run in real time
# (realtime=PCT), so that the runs last seconds, on the virtual clock of
# tests/vclock.c: the same seconds on a busy machine, and no wait.
. "$(dirname "$0")/../lib.sh"
need_tool script
vc=$(vclock)

# watch NAME CMD: runs CMD on a pseudo-terminal and on the virtual clock of
# tests/vclock.c; NAME.out holds what it drew, NAME.timing when (the virtual
# seconds before each write to stderr, and the end); ms: how long it ran
watch() {
	script -q -O "$T/$1.out" -c "env $vc VCLOCK_LOG=$T/$1.timing $2 >$T/$1.report" </dev/null >/dev/null 2>&1
	ms=$(awk '{ t += $1 } END { printf "%d", t * 1000 }' "$T/$1.timing")
}

# gaps NAME FIRST: no draw later than FIRST ms after the start, never 2 s
# between draws, the last within 2 s of the end, at most 5 a second (a draw:
# a write of more than the 4 bytes that clear the line)
gaps() {
	awk -v first="$2" -v name="$1" '
		{ t += $1 * 1000 }
		$2 > 4 { n++
			if (n == 1 && t > first) { printf "%s: first draw after %d ms\n", name, t; bad = 1 }
			if (n > 1 && t - last > gap) gap = t - last
			last = t }
		END {
			if (n == 0) { print name ": nothing drawn"; exit 1 }
			if (t - last > gap) gap = t - last
			if (gap >= 2000) { printf "%s: %d ms without a redraw\n", name, gap; bad = 1 }
			if (n > t / 200 + 3) { printf "%s: %d draws in %d ms\n", name, n, t; bad = 1 }
			exit bad
		}' "$T/$1.timing"
}

watch auto "$FB --auto --destructive sim:sdhc-good,realtime=10"
[ "$ms" -ge 5000 ] || fail "--auto on sim:sdhc-good,realtime=10 took only $ms ms"
why=$(gaps auto 1600) || fail "$why"
lines=$(tr '\r' '\n' <"$T/auto.out" | sed 's/\x1b\[K//g' | grep -a '^step ')
printf '%s\n' "$lines" | grep -qE '^step [1-6] of 6, (capacity|alignment|FAT area|open blocks|random writes|speed class): .*run ETA [0-9]+:[0-9]{2}$' ||
	fail "no 'step N of 6' line with the run's ETA: $(printf '%s\n' "$lines" | head -n 3)"
printf '%s\n' "$lines" | grep -qE ', [0-9]+%, ETA [0-9]+:[0-9]{2}, run ETA ' || fail "no step progress: $(printf '%s\n' "$lines" | head -n 3)"
steps=$(printf '%s\n' "$lines" | sed -E 's/^step ([0-9]).*/\1/' | uniq | tr -d '\n')
[ "$steps" = "$(printf '%s' "$steps" | fold -w1 | sort -n | uniq | tr -d '\n')" ] || fail "steps out of order: $steps"
[ "${#steps}" -ge 3 ] || fail "only steps $steps were shown"
# the last line drawn is cleared again before anything else is printed
pyrun - "$T/auto.out" <<'PY' || fail "the line is not cleared at the end: $(tail -c 200 "$T/auto.out" | cat -v)"
import sys
out = open(sys.argv[1], "rb").read()
last = out.rindex(b"\rstep ")
end = out.index(b"\x1b[K", last)	# the end of that line
sys.exit(0 if out[end + 3:].startswith(b"\r\x1b[K") else 1)
PY
grep -q '^What to do' "$T/auto.report" || fail "no report on standard output"

watch capacity "$FB --capacity sim:sdhc-good,real-size=8G,realtime=100"
[ "$ms" -ge 2500 ] || fail "--capacity took only $ms ms"
why=$(gaps capacity 1600) || fail "$why"
tr '\r' '\n' <"$T/capacity.out" | grep -qaE '^capacity round [0-9]+: .*[0-9]+%' || fail "--capacity shows no rounds: $(cat -v "$T/capacity.out" | head -c 300)"

# on a pipe: no progress (messages, one a line, may be there)
env $vc "$FB" --auto --destructive sim:sdhc-good,realtime=10 2>&1 >/dev/null | cat >"$T/pipe"
! grep -qaE $'\r|ETA|^step ' "$T/pipe" || fail "--auto drew progress on a pipe: $(cat -v "$T/pipe" | head -c 200)"
env $vc "$FB" --capacity sim:sdhc-good,real-size=8G,realtime=100 2>&1 >/dev/null | cat >"$T/pipe"
[ ! -s "$T/pipe" ] || fail "--capacity wrote to a pipe: $(cat -v "$T/pipe" | head -c 200)"
exit 0
