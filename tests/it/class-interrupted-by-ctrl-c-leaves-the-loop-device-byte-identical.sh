#!/usr/bin/env bash
# Ctrl-C in the middle of --class: no verdict, exit 130, and the loop device
# holds exactly what it held before. The run is frozen (SIGSTOP) as soon as
# it has written, so the signal lands mid-run; tried a few times in case a
# run ends before it can be frozen.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image card.img 256M)
before=$(md5sum < "$img")
loop=$(make_loop "$img")

for try in 1 2 3 4 5; do
	base=$(sectors_written "$loop")
	$INTERRUPTIBLE "$FB" --class --claim=C10,A2 --erasesize=4M "$loop" >"$T/out" 2>"$T/err" &
	pid=$!
	wait_for_writes "$loop" "$pid" "$base"
	if kill -STOP "$pid" 2>/dev/null; then
		kill -INT "$pid"
		kill -CONT "$pid"
		wait "$pid"; rc=$?
		out=$(cat "$T/out"); errout=$(cat "$T/err")
		[ "$(md5sum < "$img")" = "$before" ] || fail "the device differs (exit $rc)"
		[ "$rc" = 0 ] || [ "$rc" = 1 ] && continue	# ended before the signal came
		expect_rc 130
		expect_out "^no verdict: interrupted$"
		expect_out "^data: +every overwritten byte restored and verified$"
		exit 0
	fi
	wait "$pid"
done
skip "--class always ended before it could be interrupted"
