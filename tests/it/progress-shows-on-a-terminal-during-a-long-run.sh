#!/usr/bin/env bash
# On a terminal, a run longer than a second shows "test: block size,
# percent, ETA" on stderr, from its first second on, at most 5 times a
# second, rewritten in place with \r and cleared at the end. The run: -a on
# a simulated card paced on the virtual clock of tests/vclock.c (3.7 s),
# whose log says when each line was drawn.
. "$(dirname "$0")/../lib.sh"
need_tool script
script -qec "env $(vclock) VCLOCK_LOG=$T/times $FB -a sim:size=64M,realtime=100" /dev/null >"$T/tty" 2>&1
grep -qa "align 32768	" "$T/tty" || fail "the run did not end with its last row: $(tr '\r' '\n' <"$T/tty" | tail -n 2)"
grep -qaE 'align: [0-9.]+KiB blocks, [0-9]+%, ETA [0-9]+:[0-9]{2}' "$T/tty" ||
	fail "no progress line on the terminal: $(tr '\r' '\n' <"$T/tty" | cat -v | head -n 5)"
lines=$(grep -aoE 'align: [^,]*, [0-9]+%' "$T/tty" | wc -l)
# when each was drawn (the draws are the writes to stderr of more than a clear)
read -r ms first draws < <(awk '{ t += $1 } $2 > 4 && !first { first = t } $2 > 4 { n++ }
	END { printf "%d %d %d\n", t * 1000, first * 1000, n }' "$T/times")
[ "$ms" -ge 3000 ] || fail "the run took $ms ms on the virtual clock, not 3.7 s"
[ "$draws" = "$lines" ] || fail "$lines progress lines but $draws draws logged"
[ "$first" -ge 1000 ] && [ "$first" -le 1300 ] || fail "the first line came at $first ms, not from 1 s on"
# from 1 s on, at most 5 times a second
[ "$lines" -le $(((ms - 1000) / 200 + 2)) ] || fail "$lines progress updates in a $ms ms run"
[ "$lines" -ge $(((ms - 1000) / 500)) ] || fail "only $lines progress updates in a $ms ms run"
grep -qa $'\r\033\\[Kalign ' "$T/tty" || fail "the progress line is not cleared before the results: $(cat -v "$T/tty" | head -n 3)"
exit 0
