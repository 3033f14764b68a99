#!/usr/bin/env bash
# On a terminal, a run longer than a second shows "test: block size,
# percent, ETA" on
# stderr, at most 5 times a second, rewritten in place with \r and cleared
# at the end.
. "$(dirname "$0")/../lib.sh"
need_tool script
img=$(make_file card.img 64M)
odirect_works "$img" || skip "O_DIRECT does not work on $(dirname "$img")"

# a --count that makes -a run about 2.5 s on this machine
count=$(align_count_for "$img" 2500)

# timed_tty_run COUNT: the run on a terminal, its output in tty, ms in $ms
timed_tty_run() {
	local t0
	t0=$(date +%s%N)
	script -qec "timeout -k 5 60 $FB -a --count=$1 $img" /dev/null >"$T/tty" 2>&1
	ms=$((($(date +%s%N) - t0) / 1000000))
}
timed_tty_run "$count"
# a busy machine can make the calibration run slow: once more, three times longer
[ "$ms" -ge 1300 ] || timed_tty_run $((count * 3))
[ "$ms" -ge 1300 ] || fail "a run asked to take 2.5 s took $ms ms: $(tr '\r' '\n' <"$T/tty" | tail -n 2)"
grep -qa "align 32768	" "$T/tty" || fail "the run did not end with its last row: $(tr '\r' '\n' <"$T/tty" | tail -n 2)"
grep -qaE 'align: [0-9.]+KiB blocks, [0-9]+%, ETA [0-9]+:[0-9]{2}' "$T/tty" ||
	fail "no progress line on the terminal: $(tr '\r' '\n' <"$T/tty" | cat -v | head -n 5)"
lines=$(grep -aoE 'align: [^,]*, [0-9]+%' "$T/tty" | wc -l)
# shown from 1 s on, at most 5 times a second
[ "$lines" -le $(((ms - 1000) / 200 + 2)) ] || fail "$lines progress updates in a $ms ms run"
grep -qa $'\r\033\\[Kalign ' "$T/tty" || fail "the progress line is not cleared before the results: $(cat -v "$T/tty" | head -n 3)"
exit 0
