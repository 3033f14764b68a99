# Sourced by tests/it/*.sh. One behaviour per test: exit 0 pass, 77 skip,
# anything else fails. Everything a test creates is removed by the trap.
set -u
FB=${FLASHBENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/flashbench}
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# $T: the test's own directory, in memory (/dev/shm) where O_DIRECT works
# there: loop devices over its files then wait for no disk, busy or not;
# else in /tmp (FB_TEST_TMP chooses another place)
_test_tmp() {
	local d t
	for d in ${FB_TEST_TMP:-} /dev/shm /tmp; do
		[ -d "$d" ] && [ -w "$d" ] || continue
		t=$(mktemp -d "$d/fbtest.XXXXXX") || continue
		# (tests/run.sh tried it once for the suite: FB_SHM_ODIRECT)
		if [ "$d" = /tmp ] || [ -n "${FB_TEST_TMP:-}" ] || { [ "$d" = /dev/shm ] && [ "${FB_SHM_ODIRECT:-}" = yes ]; } ||
		   { dd if=/dev/zero of="$t/.odirect" bs=4096 count=1 oflag=direct status=none 2>/dev/null &&
		     rm -f "$t/.odirect"; }; then
			echo "$t"
			return
		fi
		rm -rf "$t"
	done
}
T=$(_test_tmp)
[ -n "$T" ] && [ -d "$T" ] || { echo "FAIL: no directory for the test's files" >&2; exit 1; }

# Helpers below are often called as $(make_loop ...), in a subshell: what
# they set up is therefore found again by the cleanup from the files in $T,
# and a skip inside them signals the test's own shell.
_cleanup() {
	local l back bad=
	# the documents run --json kept: all against the schema in one python3
	# (the test fails here if one breaks it; the cleanup goes on)
	if [ "$BASHPID" = "$_test_pid" ] && compgen -G "$T/.docs/*.json" >/dev/null; then
		bad=$(check_documents) || true
	fi
	# the loop devices over its files (what losetup -l shows, read from sysfs without a process)
	for l in /sys/block/loop*/loop/backing_file; do
		[ -r "$l" ] && read -r back <"$l" 2>/dev/null || continue
		case $back in "$T"/*)
			l=${l%/loop/backing_file}
			l=/dev/${l##*/}
			umount "$l" 2>/dev/null
			losetup -d "$l" 2>/dev/null ;;
		esac
	done
	if [ -e "$T/.zram" ]; then echo 1 > /sys/block/zram0/reset 2>/dev/null; fi
	rm -rf "$T"
	if [ -n "$bad" ]; then
		printf 'FAIL: %s\n' "$bad" >&2
		exit 1
	fi
}
trap _cleanup EXIT
trap 'exit 130' INT TERM
trap 'exit 77' USR1
trap 'exit 1' USR2
_test_pid=$$

# python3 is the interpreter itself, found once (tests/run.sh exports
# FB_PYTHON): a version manager's shim first in PATH (pyenv's) costs a shell
# and half a second of CPU at every call, and the tests make hundreds
# (a link to it first in PATH: python3 stays a program, its pid and name its own)
# (tests/run.sh has put one first in PATH already: FB_PYBIN)
[ -n "${FB_PYTHON:-}" ] || FB_PYTHON=$(python3 -c 'import sys; print(sys.executable)' 2>/dev/null)
if [ -n "${FB_PYBIN:-}" ] && [[ :$PATH: == *:"$FB_PYBIN":* ]] && [ "$FB_PYBIN/python3" -ef "${FB_PYTHON:-}" ]; then
	:
elif [ -x "${FB_PYTHON:-}" ] && mkdir -p "$T/.bin" && ln -sf "$FB_PYTHON" "$T/.bin/python3"; then
	PATH=$T/.bin:$PATH
fi

# pyrun SCRIPT ARGS...: python3 SCRIPT ARGS... (SCRIPT a file, -c CODE or -; one that reads
# only its arguments, files and standard input), run by the suite's one
# python3 (tests/pyserver.py, which tests/run.sh starts) when there is one:
# the same standard output, error and exit status, without the 50ms of CPU
# a python3 takes to start; else by python3 itself. The CPU it took goes
# to the test's figure (FB_PYCPU, a file tests/run.sh adds up).
_pyn=0
pyrun() {
	local r code cpu o= e=
	if [ -z "${FB_PYSERVER:-}" ] || ! kill -0 "${FB_PYSERVER_PID:-}" 2>/dev/null; then
		python3 "$@"
		return $?	# (a bare return in a trap, as _cleanup's, gives the status before the trap)
	fi
	_pyn=$((_pyn + 1))
	r=$T/.py.$BASHPID.$_pyn
	mkfifo -m 600 "$r" 2>/dev/null || { python3 "$@"; return $?; }
	# the request in a file of its own, whatever its size; then its name, one short line (one
	# write of less than PIPE_BUF bytes): requests of tests running at once never mix
	printf '%s\0' "$r" "$r.o" "$r.e" "$PWD" "/proc/$BASHPID/fd/0" "$@" >"$r.q" ||
		{ python3 "$@"; return $?; }
	printf '%s\n' "$r.q" >"$FB_PYSERVER"
	read -r code cpu <"$r"
	[ -s "$r.o" ] && { IFS= read -r -d '' o <"$r.o"; printf '%s' "$o"; }
	[ -s "$r.e" ] && { IFS= read -r -d '' e <"$r.e"; printf '%s' "$e" >&2; }
	[ -z "${FB_PYCPU:-}" ] || echo "${cpu:-0}" >>"$FB_PYCPU"
	return "${code:-1}"
}

fail() { echo "FAIL: $*" >&2; exit 1; }
# ci_fail MSG: fails the test, also from a subshell such as $(make_loop ...)
ci_fail() {
	echo "FAIL: $*" >&2
	[ "$BASHPID" = "$_test_pid" ] || kill -USR2 "$_test_pid"
	exit 1
}

# The tools .ci/run installs (tests/ci-tools: "tool package" lines). Under CI
# (CI=true) a skip naming one of them is a failure: CI could have run it.
_ci_tools=
while read -r _t _; do
	case $_t in '' | '#'*) ;; *) _ci_tools+=" $_t" ;; esac
done 2>/dev/null <"$TESTS_DIR/ci-tools"
_ci_would_run() {	# REASON: true if REASON says "no TOOL" or "TOOL failed"
	local t
	[ "${CI:-}" = true ] || return 1
	for t in $_ci_tools; do
		case " $1 " in
		*[!a-z0-9.-]"no $t"[!a-z0-9.-]* | *[!a-z0-9.-]"$t failed"*) return 0 ;;
		esac
	done
	return 1
}

# skip REASON: the whole test cannot run here (exit 77, counted as skipped)
skip() {
	_ci_would_run "$*" && ci_fail "skipped under CI, but .ci/run installs what it needs: $*"
	echo "skip: $*" >&2
	[ "$BASHPID" = "$_test_pid" ] || kill -USR1 "$_test_pid"
	exit 77
}

# skip_part REASON: a part of the test cannot run here; the rest goes on.
# tests/run.sh shows the line under the test and counts it in its summary.
skip_part() {
	_ci_would_run "$*" && ci_fail "part skipped under CI, but .ci/run installs what it needs: $*"
	echo "skip part: $*" >&2
}

# need_tool TOOL: skip the test unless TOOL is installed
need_tool() { command -v "$1" >/dev/null || PATH=$PATH:/sbin:/usr/sbin command -v "$1" >/dev/null || skip "no $1"; }

# have_tool TOOL WHAT: true if TOOL is installed; else WHAT is skipped (a
# skip_part line) and false
have_tool() {
	command -v "$1" >/dev/null && return 0
	skip_part "$2: no $1"
	return 1
}

# odirect_works FILE: a 4 KiB O_DIRECT read of FILE by dd, not by flashbench:
# tells whether the file system under FILE takes O_DIRECT at all
odirect_works() { dd if="$1" of=/dev/null bs=4096 count=1 iflag=direct status=none 2>/dev/null; }

# $INTERRUPTIBLE CMD... runs CMD with SIGINT and SIGQUIT at their defaults,
# as a command started from a terminal has them, to be stopped as Ctrl-C and
# Ctrl-\ would: a background job of a script ignores them, and flashbench
# keeps a signal ignored that was ignored when it started (nohup). A command
# (env), not a function, so that $! of CMD & is CMD's process id.
INTERRUPTIBLE="env --default-signal=INT,QUIT"

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# make_file NAME SIZE: a sparse regular file of SIZE (truncate syntax) in $T
make_file() { truncate -s "$2" "$T/$1" && echo "$T/$1"; }

# random_image NAME SIZE: a file of random bytes (head -c size syntax) in $T
# (tests/random_bytes.c where make check built it: /dev/urandom is slow)
random_image() {
	if [ -x "${UNIT_DIR:-}/random_bytes" ] && "$UNIT_DIR/random_bytes" "$2" >"$T/$1"; then
		echo "$T/$1"
	else
		head -c "$2" /dev/urandom >"$T/$1" && echo "$T/$1"
	fi
}

# sectors_written LOOP: the kernel's count of sectors written to a block device
sectors_written() { awk '{print $7}' "/sys/block/$(basename "$1")/stat"; }

# traced ARGS...: strace ARGS with LeakSanitizer off (it cannot run under
# ptrace; the ASan build would fail every traced run).
traced() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}

# at_write N SIG DEV CMD...: runs CMD with signal SIG (a name or number)
# delivered to it as it makes its Nth write to DEV (a pwrite64 on a
# descriptor of DEV; strace counts only those): an interrupt at a known point
# of the run, never at a time. N may be "N+" (that write and every one
# after it). SIG=error:ERRNO makes those writes fail with ERRNO instead.
# The exit status is CMD's (128 + the signal when it dies of one).
# CMD runs with SIGINT and SIGQUIT at their defaults ($INTERRUPTIBLE): the
# signal must reach it even where this script runs as a background job.
at_write() {
	local n=$1 sig=$2 dev=$3 what; shift 3
	need_tool strace
	case $sig in
	error:*) what=error=${sig#error:} ;;
	[0-9]*) what=signal=$sig ;;
	*) what=signal=$(kill -l "${sig#SIG}") || fail "no signal $sig" ;;	# strace knows no RTMIN+N
	esac
	traced -f -qq -o /dev/null -e trace=pwrite64 -P "$dev" -e inject=pwrite64:$what:when=$n $INTERRUPTIBLE "$@"
}

# hold_stdout: $T/held, a FIFO whose buffer this shell has filled: a command
# whose standard output is $T/held stops at its first write there (after
# the first row it prints) until release_stdout. The output is in
# $T/held.out then.
hold_stdout() {
	mkfifo "$T/held" || fail "cannot make a FIFO"
	exec 8<>"$T/held" 9<"$T/held"
	# writes of one page until the buffer takes no more (its size: 64KiB, less when pipes are scarce)
	dd if=/dev/zero of="$T/held" bs=4096 count=4096 oflag=nonblock status=none 2>/dev/null
	exec 8>&-
}

# release_stdout PID: lets the held command go on; waits for it (its exit status in $rc)
release_stdout() {
	cat <&9 >"$T/held.raw" &
	local reader=$!
	wait "$1"; rc=$?
	wait "$reader"
	exec 9<&-
	tr -d '\0' <"$T/held.raw" >"$T/held.out"
}

# closed_stdout: fd 6, the write end of a FIFO whose only reader is already
# closed: a command whose standard output is >&6 gets EPIPE (and SIGPIPE)
# at its first write, on any machine (a `| true` pipe closes whenever true
# gets to run, so a short output may all fit in the pipe before it does).
closed_stdout() {
	mkfifo "$T/closed" || fail "cannot make a FIFO"
	exec 5<>"$T/closed" 6>"$T/closed" 5<&-
}

# wait_until PID CMD...: until CMD succeeds (the event it looks for) or PID
# ends; false if PID ended first and CMD still fails. Never a time limit.
wait_until() {
	local pid=$1; shift
	until "$@"; do
		kill -0 "$pid" 2>/dev/null || { "$@"; return $?; }
		sleep 0.01
	done
}

# written_since LOOP BASE: the kernel counted writes to LOOP past BASE sectors
written_since() { [ "$(sectors_written "$1")" -gt "$2" ]; }

# blocked_on_fifo PID: PID (any thread) waits for a FIFO's other end, or on a pipe
blocked_on_fifo() { cat /proc/"$1"/task/*/stack 2>/dev/null | grep -qE 'wait_for_partner|pipe_read|pipe_write|fifo_open'; }

# backup_of_killed_run LOOP FILE [OPTIONS]: -O --preserve --backup=FILE -b 4K
# [OPTIONS] on LOOP, killed (SIGKILL) at its third write to LOOP; FILE is
# the complete backup it left
backup_of_killed_run() {
	local loop=$1 file=$2 rc; shift 2
	at_write 3 KILL "$loop" "$FB" -O --preserve --backup="$file" -b 4K "$@" "$loop" >/dev/null 2>"$T/.killed.err"
	rc=$?
	[ "$rc" = 137 ] || fail "-O was not killed at its third write (exit $rc): $(cat "$T/.killed.err")"
	grep -aqx end "$file" || fail "no complete backup in $file: $(cat "$T/.killed.err")"
}

# vclock: the environment (NAME=VALUE words) that runs a command on the
# virtual clock tests/vclock.c (built once per test): its clocks move only
# while all its threads sleep, so what it shows over time is the same on a
# busy machine and a quiet one, and sim:...,realtime=PCT runs take no time
vclock() {
	local so=${UNIT_DIR:-}/vclock.so	# make check builds it beside the unit tests
	if [ ! -f "$so" ]; then
		so=$T/vclock.so
		[ -f "$so" ] || ${CC:-cc} -shared -fPIC -O2 -o "$so" "$TESTS_DIR/vclock.c" -ldl -pthread ||
			fail "cannot build tests/vclock.c"
	fi
	echo "LD_PRELOAD=$so ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
}

# make_loop FILE [losetup options]: attach a free loop device over FILE (in $T)
make_loop() {
	need_root
	command -v losetup >/dev/null || skip "no losetup"
	local f=$1; shift
	case $f in "$T"/*) ;; *) fail "make_loop: $f is not a file of this test" ;; esac
	local dev
	dev=$(losetup -f --show "$@" "$f" 2>/dev/null) || skip "no free loop device"
	sectors_written "$dev" > "$T/.writes0.${dev##*/}" 2>/dev/null
	echo "$dev"
}

# The lock on /dev/zram0 that every suite on this machine takes (flock on a
# file named for the device), so that two suites never share the device. A
# holder process keeps it until this test has reset zram0 and removed $T
# (make_zram often runs in a subshell, whose own descriptors close at once).
ZRAM_LOCK=${ZRAM_LOCK:-/run/lock/flashbench.zram0.lock}
_lock_zram() {
	[ -e "$T/.zramlock" ] && return 0
	[ -d "${ZRAM_LOCK%/*}" ] || ZRAM_LOCK=/tmp/${ZRAM_LOCK##*/}
	( exec 9>>"$ZRAM_LOCK"
	  flock 9 || exit 1	# as long as another suite's test needs it: no time limit
	  : > "$T/.zramlock"
	  while [ -d "$T" ] && kill -0 "$_test_pid" 2>/dev/null; do sleep 0.2; done
	  [ -e "$T/.zram" ] && echo 1 > /sys/block/zram0/reset	# the test was killed
	) </dev/null >/dev/null 2>&1 &
	local holder=$!
	wait_until "$holder" test -e "$T/.zramlock" || skip "cannot lock zram0 ($ZRAM_LOCK)"
}

# make_zram SIZE: configure /dev/zram0 if present and unused; reset at exit
make_zram() {
	need_root
	[ -e /sys/block/zram0/disksize ] || skip "no zram"
	command -v flock >/dev/null || skip "no flock to lock zram0 with"
	_lock_zram
	[ "$(cat /sys/block/zram0/disksize)" = 0 ] || skip "zram0 in use"
	: > "$T/.zram"
	echo "$1" > /sys/block/zram0/disksize || skip "cannot size zram0"
	echo /dev/zram0
}

# run CMD...: runs, stores stdout in $out, stderr in $errout, exit code in $rc.
# With --json among the arguments, stdout must be a document of the schema
# (none only after a usage error).
run() {
	"$@" >"$T/.out" 2>"$T/.err"; rc=$?
	out=$(<"$T/.out"); errout=$(<"$T/.err")	# $(<F): no cat to start
	# with --json, only a usage error (exit 2, nothing read or written) prints
	# no document (on stdout, or in the -o/--out file)
	case " $* " in *" --json "*)
		local doc=$T/.out a prev=
		for a in "$@"; do
			case $prev in -o | --out) doc=$a ;; esac
			case $a in --out=*) doc=${a#--out=} ;; esac
			prev=$a
		done
		[ "$doc" = - ] && doc=$T/.out
		if [ -s "$doc" ]; then
			keep_document "$doc" "$*"
		elif [ "$rc" != 2 ]; then
			fail "$*: exit $rc and no JSON document in $( [ "$doc" = "$T/.out" ] && echo stdout || echo "$doc"); stderr: $errout"
		fi ;;
	esac
	return 0
}

# run_or_hang CMD...: as run, but a CMD that waits for a FIFO's other end
# (or on a pipe) is killed there: exit status 124, as timeout(1) gives
run_or_hang() {
	local pid hung=0
	"$@" >"$T/.out" 2>"$T/.err" </dev/null &
	pid=$!
	wait_until "$pid" blocked_on_fifo "$pid" && { hung=1; kill -KILL "$pid"; }
	wait "$pid"; rc=$?
	[ "$hung" = 0 ] || rc=124
	out=$(<"$T/.out"); errout=$(<"$T/.err")	# $(<F): no cat to start
}

# keep_document FILE WHAT: FILE's document is checked against the schema at
# the test's end, with every other kept (check_documents: one python3 for all)
keep_document() {
	local k
	mkdir -p "$T/.docs"
	k=$(mktemp "$T/.docs/XXXXXX") || fail "cannot keep the document of $2"
	cp "$1" "$k.json" && printf '%s\n' "$2" >"$k.what" && rm -f "$k"
}

# check_documents: the kept documents against doc/flashbench.schema.json;
# prints what broke it (naming the command) and is false if any did
check_documents() {
	local f
	have_tool python3 "the schema check of the JSON documents" || return 0
	pyrun "$TESTS_DIR/validate_json.py" "$TESTS_DIR/../doc/flashbench.schema.json" "$T"/.docs/*.json \
		>"$T/.docs/errors" 2>&1 && return 0
	for f in "$T"/.docs/*.json; do
		grep -q "^$f: " "$T/.docs/errors" || continue
		printf '%s: the JSON document breaks doc/flashbench.schema.json: %s\n' "$(cat "${f%.json}.what")" \
			"$(grep -m 3 "^$f: " "$T/.docs/errors" | sed "s|^$f: ||" | tr '\n' ' ')"
	done
	return 1
}

# expect_schema FILE [WHAT]: FILE holds one JSON document valid against
# doc/flashbench.schema.json (checked with python3 when there is one)
expect_schema() {
	have_tool python3 "the schema check of ${2:-$1}" || return 0
	pyrun "$TESTS_DIR/validate_json.py" "$TESTS_DIR/../doc/flashbench.schema.json" "$1" >&2 ||
		fail "${2:-$1}: the JSON document breaks doc/flashbench.schema.json"
}

expect_rc() { [ "$rc" = "$1" ] || fail "exit $rc, want $1; stderr: $errout; stdout: $(printf '%s' "$out" | head -n 5)"; }
expect_out() { printf '%s\n' "$out" | grep -qE -- "$1" || fail "stdout lacks /$1/: $(printf '%s' "$out" | head -n 20)"; }
expect_err() { printf '%s\n' "$errout" | grep -qE -- "$1" || fail "stderr lacks /$1/: $errout"; }

# expect_usage_error NAMED...: exit 2, nothing on stdout, and stderr is exactly
# one line "flashbench: ..." holding each NAMED text (the option and the value
# as typed, e.g. --blocksize=4K)
expect_usage_error() {
	local n
	expect_rc 2
	[ -z "$out" ] || fail "usage error printed on stdout: $(printf '%s' "$out" | head -n 3)"
	[ -n "$errout" ] && [ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] ||
		fail "want one line on stderr, got: '$errout'"
	case $errout in flashbench:\ *) ;; *) fail "not a flashbench: message: $errout" ;; esac
	for n in "$@"; do
		case $errout in *"$n"*) ;; *) fail "the message does not name '$n': $errout" ;; esac
	done
}
