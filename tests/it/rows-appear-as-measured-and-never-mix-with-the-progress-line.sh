#!/usr/bin/env bash
# Rows are written (flushed) as they are measured, not all at the end: each
# row of -a reaches standard output before the reads of the next one begin
# (strace shows the order). On a terminal the progress line is cleared
# before each row and drawn again after it (a simulated card paced on the
# virtual clock of tests/vclock.c: a 3.7 s run, on any machine).
. "$(dirname "$0")/../lib.sh"
need_tool strace
img=$(make_file card.img 32M)
odirect_works "$img" || skip "O_DIRECT does not work on $(dirname "$img")"

# the reads made before each write to standard output
traced -f -qq -o "$T/trace" -e trace=pread64,write "$FB" -a -c 2 "$img" >"$T/out" ||
	fail "-a failed under strace"
rows=$(grep -c '^align ' "$T/out")
[ "$rows" -ge 10 ] || fail "only $rows rows: $(head -n 3 "$T/out")"
awk '/pread64\(/ { reads++ } /write\(1, "align / { print reads }' "$T/trace" >"$T/before"
[ "$(wc -l <"$T/before")" = "$rows" ] ||
	fail "$rows rows in $(wc -l <"$T/before") writes: not one write per row as it is measured"
total=$(grep -c 'pread64(' "$T/trace")
awk -v total="$total" 'NR > 1 && $1 <= last { bad = 1 } { last = $1 }
	NR == 1 && $1 > total / 4 { bad = 1 } END { exit bad }' "$T/before" ||
	fail "rows are not written as they are measured (reads before each of $rows rows, of $total: $(tr '\n' ' ' <"$T/before"))"

have_tool script "the terminal half (rows and the progress line)" || exit 0
script -qec "env $(vclock) $FB -a sim:size=64M,realtime=100" /dev/null >"$T/tty" 2>&1
# a 3.7 s run shows its progress line from 1 s on
grep -qaE 'align: [^,]*, [0-9]+%' "$T/tty" ||
	fail "no progress line on the terminal in a 3.7 s run: $(cat -v "$T/tty" | head -n 3)"
# a row never follows progress text without a clear (every clear starts with \r)
if grep -qaE $'align: [^,]*, [0-9]+%[^\r]*align [0-9]' "$T/tty"; then
	fail "a row mixed into the progress line: $(cat -v "$T/tty" | head -n 5)"
fi
# the progress line comes back after a row: drawn at the start of the next
# line, then cleared for the next row
n=$(grep -caE $'^\ralign: [^,]*, [0-9]+%.*\r\033\\[Kalign [0-9]' "$T/tty")
[ "$n" -ge 2 ] || fail "the progress line is not drawn again between rows: $(cat -v "$T/tty" | head -n 8)"
exit 0
