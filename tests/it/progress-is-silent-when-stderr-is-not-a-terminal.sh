#!/usr/bin/env bash
# Redirected or piped, a long run prints no progress at all: saved output and
# mail posts stay clean, even when stdout is a terminal.
. "$(dirname "$0")/../lib.sh"
command -v script >/dev/null || skip "no script(1)"
command -v timeout >/dev/null || skip "no timeout(1)"
img=$(make_file card.img 64M)
"$FB" -a -c 1 "$img" >/dev/null 2>&1 || skip "O_DIRECT does not work on $(dirname "$img")"

# stderr to a file, stdout a terminal
script -qec "timeout --foreground -s INT -k 5 1.5 $FB -a --count=1000000 $img 2>$T/err" /dev/null >"$T/tty" 2>&1
# stderr through a pipe, no terminal at all
timeout --foreground -s INT -k 5 1.5 "$FB" -a --count=1000000 "$img" 2>&1 >"$T/out" | cat >"$T/pipe"

# (the terminal turns each \n into \r\n, so \r counts only in err, pipe and out)
for f in err tty pipe out; do
	if grep -qaE 'ETA|%' "$T/$f" || { [ $f != tty ] && grep -qa $'\r' "$T/$f"; }; then
		fail "progress in $f: $(tr '\r' '\n' <"$T/$f" | cat -v | head -n 5)"
	fi
done
grep -q "^align " "$T/tty" || fail "no results on stdout: $(head -n 3 "$T/tty")"
exit 0
