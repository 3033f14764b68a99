# Sourced by tests/it/*.sh. One behaviour per test: exit 0 pass, 77 skip,
# anything else fails. Everything a test creates is removed by the trap.
set -u
FB=${FLASHBENCH:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/flashbench}
TESTS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
T=$(mktemp -d /tmp/fbtest.XXXXXX)
_loops=()
_zram=0

_cleanup() {
	local l
	for l in "${_loops[@]}"; do
		umount "$l" 2>/dev/null
		losetup -d "$l" 2>/dev/null
	done
	if [ "$_zram" = 1 ]; then echo 1 > /sys/block/zram0/reset 2>/dev/null; fi
	rm -rf "$T"
}
trap _cleanup EXIT
trap 'exit 130' INT TERM

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*"; exit 77; }

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# make_file NAME SIZE: a sparse regular file of SIZE (truncate syntax) in $T
make_file() { truncate -s "$2" "$T/$1" && echo "$T/$1"; }

# make_loop FILE [losetup options]: attach a free loop device over FILE (ours)
make_loop() {
	need_root
	command -v losetup >/dev/null || skip "no losetup"
	local f=$1; shift
	local l
	l=$(losetup -f --show "$@" "$f" 2>/dev/null) || skip "no free loop device"
	_loops+=("$l")
	echo "$l"
}

# make_zram SIZE: configure /dev/zram0 if present and unused
make_zram() {
	need_root
	[ -e /sys/block/zram0/disksize ] || skip "no zram"
	[ "$(cat /sys/block/zram0/disksize)" = 0 ] || skip "zram0 in use"
	echo "$1" > /sys/block/zram0/disksize || skip "cannot size zram0"
	_zram=1
	echo /dev/zram0
}

# run CMD...: runs, stores stdout in $out, stderr in $errout, exit code in $rc
run() {
	"$@" >"$T/.out" 2>"$T/.err"; rc=$?
	out=$(cat "$T/.out"); errout=$(cat "$T/.err")
}

expect_rc() { [ "$rc" = "$1" ] || fail "exit $rc, want $1; stderr: $errout; stdout: $(printf '%s' "$out" | head -n 5)"; }
expect_out() { printf '%s\n' "$out" | grep -qE -- "$1" || fail "stdout lacks /$1/: $(printf '%s' "$out" | head -n 20)"; }
expect_err() { printf '%s\n' "$errout" | grep -qE -- "$1" || fail "stderr lacks /$1/: $errout"; }
