#!/usr/bin/env bash
# --class writes without O_SYNC (doc/speed-classes.md), so what it writes
# back may sit in the card's write cache; stopped by Ctrl-C it flushes the
# restored area (fdatasync, or fsync, of the descriptor the restore wrote
# by, after its last write there) before it exits: a card pulled once the
# prompt is back keeps the user's data. Three ways to be stopped: Ctrl-C
# once (at the 5th write to the device: the run ends, restores, exits),
# twice before the restore (the second signal restores at once: the second
# comes as the first signal's handler returns), and again during the
# restore (a Ctrl-C at every write from the 5th on).
. "$(dirname "$0")/../lib.sh"
need_root
need_tool strace
img=$(random_image card.img 256M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

# stopped CASE INJECT...: --class under strace with INJECT (what stops it);
# every pwrite64 of the run is to $loop (no --backup: saved to memory)
stopped() {
	local name=$1; shift
	traced -f -qq -o "$T/trace-$name" -e trace=pwrite64,pwritev,pwritev2,fsync,fdatasync,rt_sigreturn \
		"$@" $INTERRUPTIBLE "$FB" --class --claim=C10 --erasesize=4M "$loop" >"$T/out" 2>"$T/err"
	rc=$?; out=$(cat "$T/out"); errout=$(cat "$T/err")
	[ "$rc" = 130 ] || fail "$name: exit $rc, want 130: $errout"
	[ "$(cksum < "$img")" = "$before" ] || fail "$name: the device differs after the restore"
	local t=$T/trace-$name sig fds fd last flush
	sig=$(grep -n -- '--- SIGINT' "$t" | head -n 1 | cut -d: -f1)
	[ -n "$sig" ] || fail "$name: no SIGINT in the trace: $(head -n 3 "$t")"
	# the restoring writes: those after the first Ctrl-C (a run stops after the current I/O)
	fds=$(tail -n +"$sig" "$t" | sed -nE 's/^[0-9]+ +pwrite(64|v2?)\(([0-9]+),.*/\2/p' | sort -u)
	[ -n "$fds" ] || fail "$name: no write after the Ctrl-C: the trace shows no restore"
	for fd in $fds; do
		last=$(grep -nE "^[0-9]+ +pwrite(64|v2?)\($fd," "$t" | tail -n 1 | cut -d: -f1)
		flush=$(grep -nE "^[0-9]+ +f(data)?sync\($fd\) += 0" "$t" | tail -n 1 | cut -d: -f1)
		[ -n "$flush" ] || fail "$name: the restore's writes by descriptor $fd are never flushed by it: $(grep -E 'sync\(' "$t")"
		[ "$flush" -gt "$last" ] || fail "$name: descriptor $fd flushed (trace line $flush) before its last write (line $last)"
	done
}

stopped once -e inject=pwrite64:signal=INT:when=5
expect_out "^data: +every overwritten byte restored and verified$"
stopped twice -e inject=pwrite64:signal=INT:when=5 -e inject=rt_sigreturn:signal=INT:when=1
expect_err "^flashbench: $loop: restored and verified: as before the test$"
stopped during-the-restore -e inject=pwrite64:signal=INT:when=5+
expect_err "^flashbench: exiting once the restore under way is done$"
expect_err "^flashbench: $loop: restored and verified: as before the test$"
exit 0
