#!/usr/bin/env bash
# Ctrl-C in the middle of --capacity: no verdict, exit 130, and the loop
# device holds exactly what it held before. The run is frozen (SIGSTOP) as
# soon as it has written, so the signal lands mid-run; tried a few times in
# case a run ends before it can be frozen (a run that fails, or never could
# be frozen, fails the test).
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image card.img 256M)
before=$(md5sum < "$img")
loop=$(make_loop "$img")

for try in 1 2 3 4 5; do
	base=$(sectors_written "$loop")
	$INTERRUPTIBLE "$FB" --capacity "$loop" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_for_writes "$loop" "$pid" "$base"
	if kill -STOP "$pid" 2>/dev/null; then
		kill -INT "$pid"
		kill -CONT "$pid"
		wait "$pid"; rc=$?
		out=$(cat "$T/out"); errout=$(cat "$T/err")
		[ "$rc" = 0 ] && { [ "$(md5sum < "$img")" = "$before" ] || fail "differs"; continue; }
		expect_rc 130
		expect_out "^no verdict: interrupted"
		expect_out "^data: +every overwritten sector restored and verified"
		expect_out "^written: +[1-9][0-9]* bytes"
		[ "$(md5sum < "$img")" = "$before" ] || fail "the device differs after Ctrl-C"
		exit 0
	fi
	wait "$pid"; rc=$?
	[ "$rc" = 0 ] || fail "--capacity ended with exit $rc before it could be interrupted: $(cat "$T/err")"
done
# five whole runs ended before the first write could be seen: a run that no
# longer writes, or one far faster than the 0.3 s it takes
fail "--capacity ended 5 times before it could be interrupted: $(cat "$T/out")"
