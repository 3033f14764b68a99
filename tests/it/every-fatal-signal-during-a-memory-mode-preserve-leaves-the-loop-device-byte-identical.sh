#!/usr/bin/env bash
# Not only INT, TERM and HUP: every catchable signal whose default is to end
# the process (Ctrl-\ is SIGQUIT, `ulimit -t` sends XCPU, a file size limit
# XFSZ, ...) stops a memory-mode -O --preserve run after the current I/O,
# puts the saved data back, and exits 128 + the signal, the loop device
# byte-identical. (SIGKILL cannot be caught: that needs --backup.) Each
# signal comes at the run's third write to the device.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

for sig in QUIT USR1 USR2 ALRM VTALRM PROF XCPU XFSZ PWR IO RTMIN+3 INT; do
	num=$(kill -l "$sig")
	at_write 3 "$num" "$loop" "$FB" -O --preserve -e 8M -b 4K "$loop" >"$T/out" 2>"$T/err"
	rc=$?
	out=$(cat "$T/out"); errout=$(cat "$T/err")
	[ "$rc" = $((128 + num)) ] || fail "SIG$sig: exit $rc, want $((128 + num)); stderr: $errout"
	expect_err "stopping after the current I/O"
	[ "$(cksum < "$img")" = "$before" ] || fail "SIG$sig: the device differs from before"
done
exit 0
