#!/usr/bin/env bash
# Rows are written (flushed) as they are measured, not all at the end: a long
# -a run's first row arrives while it is still running. On a terminal the
# progress line is cleared before each row and drawn again after it.
. "$(dirname "$0")/../lib.sh"
img=$(make_file card.img 64M)
odirect_works "$img" || skip "O_DIRECT does not work on $(dirname "$img")"
count=$(align_count_for "$img" 3000)	# about 3 s, some 40 rows

# when the first row arrives, and when the output ends (a buffered run
# delivers both at once)
coproc FBRUN { exec "$FB" -a --count="$count" "$img" 2>/dev/null; }
exec 3<&"${FBRUN[0]}"	# bash drops FBRUN when the run ends
IFS= read -r first <&3 || fail "no output"
t_first=$(date +%s%N)
cat <&3 >/dev/null
t_end=$(date +%s%N)
wait
[[ $first == align\ * ]] || fail "first line: $first"
[ $(((t_end - t_first) / 1000000)) -ge 1000 ] ||
	fail "the first row came $(((t_end - t_first) / 1000000)) ms before the end of a 3 s run"

have_tool script "the terminal half (rows and the progress line)" || exit 0
script -qec "timeout -k 5 60 $FB -a --count=$count $img" /dev/null >"$T/tty" 2>&1
# a 3 s run shows its progress line from 1 s on
grep -qaE 'align: [^,]*, [0-9]+%' "$T/tty" ||
	fail "no progress line on the terminal in a 3 s run: $(cat -v "$T/tty" | head -n 3)"
# a row never follows progress text without a clear (every clear starts with \r)
if grep -qaE $'align: [^,]*, [0-9]+%[^\r]*align [0-9]' "$T/tty"; then
	fail "a row mixed into the progress line: $(cat -v "$T/tty" | head -n 5)"
fi
# the progress line comes back after a row: drawn at the start of the next
# line, then cleared for the next row
n=$(grep -caE $'^\ralign: [^,]*, [0-9]+%.*\r\033\\[Kalign [0-9]' "$T/tty")
[ "$n" -ge 2 ] || fail "the progress line is not drawn again between rows: $(cat -v "$T/tty" | head -n 8)"
exit 0
