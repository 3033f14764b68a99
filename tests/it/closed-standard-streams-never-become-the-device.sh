#!/usr/bin/env bash
# Started with stdout, stderr or stdin closed, flashbench must not open the
# device as fd 0-2: its results and -v lines would land at the device's offset
# 0. -O --preserve on a random file, once per closed stream: the file is the
# same afterwards, byte for byte.
. "$(dirname "$0")/../lib.sh"

img=$(random_image card.img 64M)
before=$(cksum < "$img")
for closed in 1 2 0 12; do
	case $closed in
	1) "$FB" -v -O --preserve -e 1M -b 64K --offset=16M "$img" >&- 2>"$T/err" ;;
	2) "$FB" -v -O --preserve -e 1M -b 64K --offset=16M "$img" >"$T/out" 2>&- ;;
	0) "$FB" -v -O --preserve -e 1M -b 64K --offset=16M "$img" <&- >"$T/out" 2>"$T/err" ;;
	12) "$FB" -v -O --preserve -e 1M -b 64K --offset=16M "$img" >&- 2>&- ;;
	esac
	rc=$?
	[ "$rc" = 0 ] || fail "with fd $closed closed: exit $rc: $(cat "$T/err" 2>/dev/null)"
	[ "$(cksum < "$img")" = "$before" ] || fail "with fd $closed closed the file changed"
done
# the streams that stayed open still got their text
"$FB" -v -O --preserve -e 1M -b 64K --offset=16M "$img" <&- >"$T/out" 2>"$T/err"
grep -q '^1MiB' "$T/out" || fail "no results on stdout with stdin closed: $(head -n 3 "$T/out")"
grep -q 'bytes read' "$T/err" || fail "no -v summary on stderr with stdin closed: $(cat "$T/err")"
exit 0
