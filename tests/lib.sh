# Sourced by tests/it/*.sh. One behaviour per test: exit 0 pass, 77 skip,
# anything else fails. Everything a test creates is removed by the trap.
set -u
FB=${FLASHBENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/flashbench}
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T=$(mktemp -d /tmp/fbtest.XXXXXX)

# Helpers below are often called as $(make_loop ...), in a subshell: what
# they set up is therefore found again by the cleanup from the files in $T,
# and a skip inside them signals the test's own shell.
_cleanup() {
	local l back
	while read -r l back; do
		case $back in "$T"/*)
			umount "$l" 2>/dev/null
			losetup -d "$l" 2>/dev/null ;;
		esac
	done < <(losetup -n -l -O NAME,BACK-FILE 2>/dev/null)
	if [ -e "$T/.zram" ]; then echo 1 > /sys/block/zram0/reset 2>/dev/null; fi
	rm -rf "$T"
}
trap _cleanup EXIT
trap 'exit 130' INT TERM
trap 'exit 77' USR1
trap 'exit 1' USR2
_test_pid=$$

fail() { echo "FAIL: $*" >&2; exit 1; }
# ci_fail MSG: fails the test, also from a subshell such as $(make_loop ...)
ci_fail() {
	echo "FAIL: $*" >&2
	[ "$BASHPID" = "$_test_pid" ] || kill -USR2 "$_test_pid"
	exit 1
}

# The tools .ci/run installs (tests/ci-tools: "tool package" lines). Under CI
# (CI=true) a skip naming one of them is a failure: CI could have run it.
_ci_tools=$(awk '!/^#/ && NF { print $1 }' "$TESTS_DIR/ci-tools" 2>/dev/null)
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
random_image() { head -c "$2" /dev/urandom > "$T/$1" && echo "$T/$1"; }

# sectors_written LOOP: the kernel's count of sectors written to a block device
sectors_written() { awk '{print $7}' "/sys/block/$(basename "$1")/stat"; }

# wait_for_writes LOOP PID [BASE]: until PID has written to LOOP past BASE
# sectors (or ended; 5 s at most). Without BASE, since make_loop made it (a
# reused loop device keeps its counts: make_loop noted where they stood).
wait_for_writes() {
	local _ base=${3:-0}
	[ -z "${3:-}" ] && [ -f "$T/.writes0.${1##*/}" ] && base=$(cat "$T/.writes0.${1##*/}")
	for _ in $(seq 1 500); do
		[ "$(sectors_written "$1")" -gt "$base" ] && return 0
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.01
	done
}

# backup_of_killed_run LOOP FILE [OPTIONS]: -O --preserve --backup=FILE -b 4K
# [OPTIONS] on LOOP, killed (SIGKILL) mid-test; FILE is the complete backup it left
backup_of_killed_run() {
	local loop=$1 file=$2 pid; shift 2
	"$FB" -O --preserve --backup="$file" -b 4K "$@" "$loop" >/dev/null 2>"$T/.killed.err" &
	pid=$!
	wait_for_writes "$loop" "$pid"
	sleep 0.2
	kill -KILL "$pid" 2>/dev/null || fail "-O ended before it could be killed: $(cat "$T/.killed.err")"
	{ wait "$pid"; } 2>/dev/null
	grep -aqx end "$file" || fail "no complete backup in $file: $(cat "$T/.killed.err")"
}

# align_count_for DEV MS: an -a --count that makes -a on DEV run about MS ms here
align_count_for() {
	local t0 ms
	t0=$(date +%s%N)
	"$FB" -a -c 400 "$1" >/dev/null || fail "-a -c 400 $1 failed"
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo $((400 * $2 / (ms > 0 ? ms : 1)))
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
	  flock -w 240 9 || exit 1
	  : > "$T/.zramlock"
	  while [ -d "$T" ] && kill -0 "$_test_pid" 2>/dev/null; do sleep 0.2; done
	  [ -e "$T/.zram" ] && echo 1 > /sys/block/zram0/reset	# the test was killed
	) </dev/null >/dev/null 2>&1 &
	local holder=$! _
	for _ in $(seq 1 2500); do
		[ -e "$T/.zramlock" ] && return 0
		kill -0 "$holder" 2>/dev/null || break
		sleep 0.1
	done
	skip "zram0 stayed locked by another test run ($ZRAM_LOCK)"
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
# With --json among the arguments, stdout must be a document of the schema.
run() {
	"$@" >"$T/.out" 2>"$T/.err"; rc=$?
	out=$(cat "$T/.out"); errout=$(cat "$T/.err")
	case " $* " in *" --json "*) [ -s "$T/.out" ] && expect_schema "$T/.out" "$*" ;; esac
	return 0
}

# expect_schema FILE [WHAT]: FILE holds one JSON document valid against
# doc/flashbench.schema.json (checked with python3 when there is one)
expect_schema() {
	have_tool python3 "the schema check of ${2:-$1}" || return 0
	python3 "$TESTS_DIR/validate_json.py" "$TESTS_DIR/../doc/flashbench.schema.json" "$1" >&2 ||
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
