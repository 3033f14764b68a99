#!/usr/bin/env bash
# On a terminal, a run longer than a second shows "test: percent ETA" on
# stderr, rewritten in place with \r and cleared at the end.
. "$(dirname "$0")/../lib.sh"
command -v script >/dev/null || skip "no script(1)"
command -v timeout >/dev/null || skip "no timeout(1)"
img=$(make_file card.img 64M)
"$FB" -a -c 1 "$img" >/dev/null 2>&1 || skip "O_DIRECT does not work on $(dirname "$img")"

# -a with a huge count runs for minutes; SIGINT ends it after 1.8 s
t0=$(date +%s%N)
script -qec "timeout --foreground -s INT -k 5 1.8 $FB -a --count=1000000 $img" /dev/null >"$T/tty" 2>&1
ms=$((($(date +%s%N) - t0) / 1000000))
grep -qaE 'align: [0-9]+% ETA [0-9]+:[0-9]{2}' "$T/tty" ||
	fail "no progress line on the terminal: $(tr '\r' '\n' <"$T/tty" | cat -v | head -n 5)"
lines=$(grep -aoE 'align: [0-9]+%' "$T/tty" | wc -l)
# shown from 1 s on, at most 5 times a second
[ "$lines" -le $(((ms - 1000) / 200 + 2)) ] || fail "$lines progress updates in a $ms ms run"
grep -qa $'\r\033\\[K' "$T/tty" || fail "the progress line is never cleared: $(cat -v "$T/tty")"
exit 0
