#!/usr/bin/env bash
# Redirected or piped, a long run prints no progress at all: saved output and
# mail posts stay clean, even when stdout is a terminal.
. "$(dirname "$0")/../lib.sh"
need_tool script
img=$(make_file card.img 64M)
odirect_works "$img" || skip "O_DIRECT does not work on $(dirname "$img")"

# a --count that makes -a run about 1.5 s on this machine
count=$(align_count_for "$img" 1500)

# stderr to a file, stdout a terminal
script -qec "timeout -k 5 60 $FB -a --count=$count $img 2>$T/err" /dev/null >"$T/tty" 2>&1
# stderr through a pipe, no terminal at all
timeout -k 5 60 "$FB" -a --count=$count "$img" 2>&1 >"$T/out" | cat >"$T/pipe"

# (the terminal turns each \n into \r\n, so \r counts only in err, pipe and out)
for f in err tty pipe out; do
	if grep -qaE 'ETA|%' "$T/$f" || { [ $f != tty ] && grep -qa $'\r' "$T/$f"; }; then
		fail "progress in $f: $(tr '\r' '\n' <"$T/$f" | cat -v | head -n 5)"
	fi
done
[ ! -s "$T/err" ] && [ ! -s "$T/pipe" ] || fail "stderr not empty: $(cat -v "$T/err" "$T/pipe" | head -n 3)"
grep -q "^align " "$T/tty" && grep -q "^align " "$T/out" || fail "no results on stdout"
exit 0
