# Sourced by the tests of two runs meeting one card (tests/it/two-runs-*.sh),
# after tests/lib.sh. hold LOCKED CMD... starts a run whose standard output
# is a pipe the test has filled: the run stops at its first line of output
# (a row, once it has locked, saved and begun to write) and stays there,
# holding its lock, while the test tries a second run; release reads the
# pipe, and the run goes on to its end. Nothing waits for a time: the lock
# and the blocked write are seen in /proc (the lock not by taking it: flock
# -n would take it for a moment, and a run starting then would rightly be
# refused).

# lock_id FILE: FILE's inode as /proc/locks names it (device numbers in hex)
lock_id() {
	local d
	d=$(stat -L -c '%Hd %Ld %i' "$1") || return 1
	set -- $d
	printf '%02x:%02x:%s' "$1" "$2" "$3"
}

# locks_of FILE: the /proc/locks lines of BSD locks held on FILE (a file or device node)
locks_of() {
	local id
	id=$(lock_id "$1") || return 1
	grep -E "^[0-9]+: FLOCK +ADVISORY +(READ|WRITE) +[0-9]+ $id " /proc/locks
}

need_tool python3
_held=""
_release_held() {	# at exit: a held run must not keep the lock and the loop device
	local p
	exec 8>&- 2>/dev/null
	for p in $_held; do
		kill -TERM "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
}
trap '_release_held; _cleanup' EXIT

# hold LOCKED CMD...: CMD in the background, its standard output a full pipe
# (stderr in $T/held.err), until it holds a lock on LOCKED and is blocked on
# its first line of output; held_pid is its pid. Fails if CMD ends first.
hold() {
	local locked=$1
	shift
	rm -f "$T/.hold"
	mkfifo "$T/.hold" || fail "mkfifo"
	exec 8<>"$T/.hold"	# a reader that does not read: the pipe fills and stays full
	python3 -c '
import os, sys
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_NONBLOCK)
try:
    while True:
        os.write(fd, b"\0" * 4096)
except BlockingIOError:
    pass' "$T/.hold" || fail "could not fill the pipe"
	"$@" >"$T/.hold" 2>"$T/held.err" 8>&- &
	held_pid=$!
	_held="$_held $held_pid"
	until locks_of "$locked" | grep -q " $held_pid " &&
	      grep -q '^State:.*S (sleeping)' "/proc/$held_pid/status" 2>/dev/null &&
	      grep -q pipe_write "/proc/$held_pid/wchan" 2>/dev/null; do
		if ! kill -0 "$held_pid" 2>/dev/null; then
			wait "$held_pid"
			fail "'$*' ended (exit $?) without locking $locked: $(cat "$T/held.err")"
		fi
		sleep 0.01
	done
}

# release: the held run's output is read, and it goes on to its end; held_rc is its exit status
release() {
	exec 9<"$T/.hold"	# a reader before the filling one goes: no broken pipe
	cat <&9 >"$T/held.out" 8>&- 9<&- &
	local reader=$!
	exec 8>&- 9<&-
	wait "$held_pid"
	held_rc=$?
	wait "$reader"
	_held=${_held/ $held_pid/}
}

# refused_beside_held SUM_OF CMD...: CMD, run while the held run holds its
# lock, exits 1 naming that run (its process id and command line) and changes
# nothing: SUM_OF (a file or device) reads the same before and after.
refused_beside_held() {
	local sum_of=$1 before after
	shift
	before=$(cksum < "$sum_of")
	run "$@"
	[ "$rc" = 1 ] || fail "'$*' beside the held run: exit $rc, want 1; stderr: $errout"
	expect_err "locked by process $held_pid \\([^)]*flashbench"
	[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "'$*': not one line: $errout"
	after=$(cksum < "$sum_of")
	[ "$before" = "$after" ] || fail "'$*' was refused, but $sum_of changed"
}
