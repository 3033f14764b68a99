#!/usr/bin/env bash
# Under nohup (SIGHUP ignored when flashbench starts) a SIGHUP in the middle
# of a write test changes nothing: the run goes on to its end, exit 0, no
# "stopping" line (it used to stop, exit 129). A signal that was not ignored
# (SIGINT, as from a terminal, beside it) still stops the run and restores
# what it overwrote.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/two_runs.bash"
need_tool nohup

img=$(random_image img 48M)
cp "$img" "$T/orig"
hold "$img" nohup "$FB" -O -e 1M -b 256K --preserve "$img"
grep -q '^SigIgn:' "/proc/$held_pid/status" || skip "no SigIgn in /proc/PID/status"
ign=$(awk '/^SigIgn:/ { print $2 }' "/proc/$held_pid/status")
(( 0x$ign & 1 )) || fail "SIGHUP is not ignored by the run under nohup (SigIgn $ign)"
kill -HUP "$held_pid"
release
[ "$held_rc" = 0 ] || fail "a SIGHUP under nohup ended the run: exit $held_rc: $(cat "$T/held.err")"
grep -q stopping "$T/held.err" && fail "a SIGHUP under nohup was answered: $(cat "$T/held.err")"
grep -q '^1MiB' "$T/held.out" || fail "the run under nohup did not print its rows"
cmp -s "$img" "$T/orig" || fail "the image differs after the run"

hold "$img" $INTERRUPTIBLE nohup "$FB" -O -e 1M -b 256K --preserve "$img"
kill -INT "$held_pid"
release
[ "$held_rc" = 130 ] || fail "SIGINT under nohup: exit $held_rc, want 130: $(cat "$T/held.err")"
cmp -s "$img" "$T/orig" || fail "the image differs after the interrupted run"
exit 0
