#!/usr/bin/env bash
# Issue 22: a device whose write rate does not depend on the pattern (a RAM
# disk: sim:ram, and a loop device over a file in /dev/shm, whose rows a
# busy host scatters by 2-5x) gets "no flash translation effects seen" from
# --auto --destructive, not an erase-block limit, a random-write limit or a
# mapping unit, not even at low confidence: the counts are not determinable
# (no visible geometry, issue 26).
. "$(dirname "$0")/../lib.sh"

check() {	# check WHAT: the report in $out
	expect_rc 0
	expect_out "^  No flash translation effects seen: writes ran alike in order and out of order,$"
	expect_out "^  open erase blocks +not determinable on this card \(no visible geometry\)$"
	expect_out "^  open, random writes +not determinable on this card \(no visible geometry\)$"
	for bad in "copy whole blocks" "mapping unit" "slow even in one place"; do
		printf '%s\n' "$out" | grep -q "$bad" && fail "$1: \"$bad\" in: $(printf '%s\n' "$out" | sed -n '/^Verdict/,/^What/p')"
	done
	return 0
}

run "$FB" --auto --destructive sim:ram
check sim:ram

loop_part() {
	[ "$(id -u)" = 0 ] || { skip_part "the loop device over /dev/shm needs root"; return; }
	command -v losetup >/dev/null || { skip_part "no losetup"; return; }
	ram=$(mktemp /dev/shm/fbtest-ram.XXXXXX 2>/dev/null) || { skip_part "no /dev/shm"; return; }
	trap ram_cleanup EXIT
	truncate -s 256M "$ram"
	loop=$(losetup -f --show "$ram" 2>/dev/null) || { skip_part "no free loop device"; return; }
	# A loop device's timing is the host's: where other I/O runs beside it
	# (a parallel test suite), a run may take that noise for a limit, which
	# it says at low confidence with the rerun "on a quiet host", or as not
	# determinable (under a load of 6: "a write cache takes the writes", no
	# limit either). That rerun is the answer: a second run decides, and it
	# must see no effects.
	run "$FB" --auto --destructive --max-write=1G "$loop"
	if [ "$rc" = 0 ] && ! printf '%s\n' "$out" | grep -q '^  No flash translation effects seen'; then
		printf '%s\n' "$out" | grep -E '^  open(, random writes| erase blocks) ' |
			grep -vqE '((low confidence|unknown)\)?|not determinable on this card \([^()]*\))$' &&
			fail "a limit on a RAM disk above low confidence: $(printf '%s\n' "$out" | sed -n '/^Verdict/,/^What/p')"
		printf '%s\n' "$out" | grep -q '^  rerun .*second run on a$' || fail "an uncertain limit without the rerun"
		echo "# first run on a busy host took noise for a limit (low confidence); running again"
		run "$FB" --auto --destructive --max-write=1G "$loop"
	fi
	check "$loop over /dev/shm"
}
ram= loop=
ram_cleanup() { [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null; [ -n "$ram" ] && rm -f "$ram"; _cleanup; }
loop_part
exit 0
