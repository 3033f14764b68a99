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
_test_pid=$$

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() {
	echo "skip: $*" >&2
	[ "$BASHPID" = "$_test_pid" ] || kill -USR1 "$_test_pid"
	exit 77
}

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# make_file NAME SIZE: a sparse regular file of SIZE (truncate syntax) in $T
make_file() { truncate -s "$2" "$T/$1" && echo "$T/$1"; }

# random_image NAME SIZE: a file of random bytes (head -c size syntax) in $T
random_image() { head -c "$2" /dev/urandom > "$T/$1" && echo "$T/$1"; }

# sectors_written LOOP: the kernel's count of sectors written to a block device
sectors_written() { awk '{print $7}' "/sys/block/$(basename "$1")/stat"; }

# wait_for_writes LOOP PID: until PID has written to LOOP (or ended; 5 s at most).
# A reused loop device keeps its counts: make_loop noted where they stood.
wait_for_writes() {
	local _ base=0
	[ -f "$T/.writes0.${1##*/}" ] && base=$(cat "$T/.writes0.${1##*/}")
	for _ in $(seq 1 500); do
		[ "$(sectors_written "$1")" -gt "$base" ] && return 0
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.01
	done
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

# make_zram SIZE: configure /dev/zram0 if present and unused; reset at exit
make_zram() {
	need_root
	[ -e /sys/block/zram0/disksize ] || skip "no zram"
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
	command -v python3 >/dev/null || return 0
	python3 "$TESTS_DIR/validate_json.py" "$TESTS_DIR/../doc/flashbench.schema.json" "$1" >&2 ||
		fail "${2:-$1}: the JSON document breaks doc/flashbench.schema.json"
}

expect_rc() { [ "$rc" = "$1" ] || fail "exit $rc, want $1; stderr: $errout; stdout: $(printf '%s' "$out" | head -n 5)"; }
expect_out() { printf '%s\n' "$out" | grep -qE -- "$1" || fail "stdout lacks /$1/: $(printf '%s' "$out" | head -n 20)"; }
expect_err() { printf '%s\n' "$errout" | grep -qE -- "$1" || fail "stderr lacks /$1/: $errout"; }
