#!/usr/bin/env bash
# Redirected or piped, a long run prints no progress at all: saved output and
# mail posts stay clean, even when stdout is a terminal. The run: -a on a
# simulated card paced on the virtual clock of tests/vclock.c (3.7 s: the
# line would show from 1 s on).
. "$(dirname "$0")/../lib.sh"
need_tool script
vc=$(vclock)
card=sim:size=64M,realtime=100

# stderr to a file, stdout a terminal
script -qec "env $vc VCLOCK_LOG=$T/times $FB -a $card 2>$T/err" /dev/null >"$T/tty" 2>&1
# stderr through a pipe, no terminal at all
env $vc "$FB" -a "$card" 2>&1 >"$T/out" | cat >"$T/pipe"

awk '{ t += $1 } END { exit t < 3 }' "$T/times" || fail "the run took less than 3 s on the virtual clock"
# (the terminal turns each \n into \r\n, so \r counts only in err, pipe and out)
for f in err tty pipe out; do
	if grep -qaE 'ETA|%' "$T/$f" || { [ $f != tty ] && grep -qa $'\r' "$T/$f"; }; then
		fail "progress in $f: $(tr '\r' '\n' <"$T/$f" | cat -v | head -n 5)"
	fi
done
[ ! -s "$T/err" ] && [ ! -s "$T/pipe" ] || fail "stderr not empty: $(cat -v "$T/err" "$T/pipe" | head -n 3)"
grep -q "^align " "$T/tty" && grep -q "^align " "$T/out" || fail "no results on stdout"
exit 0
