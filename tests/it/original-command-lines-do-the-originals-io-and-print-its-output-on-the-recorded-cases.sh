#!/usr/bin/env bash
# Every command line recorded from the original flashbench
# (tests/data/original, README there) runs on a loop device of the recorded
# size and sector size under the synthetic clock tests/fakeclock.c, and does
# the original's reads and writes, in its order, with its data, and prints
# its stdout, stderr, -o file and exit status, byte for byte - except where
# README's "Compatibility" section names a difference, listed here by case
# and part. Our 3*2^n -a rows and the original's failed reads on 4096-byte
# sectors are taken out before comparing (tests/original_compare.py); that we
# make no zero-length calls is checked on every case.
. "$(dirname "$0")/../lib.sh" || exit 1
need_root
command -v strace >/dev/null && strace -o /dev/null true 2>/dev/null || skip "no strace"
command -v losetup >/dev/null || skip "no losetup"
command -v python3 >/dev/null || skip "no python3"
${CC:-cc} -shared -fPIC -O2 -o "$T/fakeclock.so" "$TESTS_DIR/fakeclock.c" -ldl ||
	fail "cannot build tests/fakeclock.c"
probe=$(losetup -f 2>/dev/null) && [ -n "$probe" ] || skip "no free loop device"

# The devices' backing files live in tmpfs (fast writes); loop devices over
# them are detached by the comparison itself, and here on any exit.
SHM=$(mktemp -d /dev/shm/fborig.XXXXXX) || fail "no /dev/shm"
trap 'losetup -n -l -O NAME,BACK-FILE 2>/dev/null | while read -r l b; do
	case $b in "$SHM"/*) losetup -d "$l" ;; esac; done; rm -rf "$SHM"; _cleanup' EXIT

expect=(
	# the device opens: read-only for -a, -s, -i; O_EXCL for write tests
	# (a mounted or busy card is refused); O_CLOEXEC; the -o file created
	# without truncating it before the run starts
	a-default:opens O-default:opens f-default:opens s-out-file:opens i-order12:opens
	p-default:opens
	# -O with an erase size of 3*2^n: the original failed ("cannot fill")
	O-e3M:io,stdout
	# -O where 12 erase sizes apart do not fit: closer together, with a
	# note, instead of wrapping the second erase block onto offset 0
	O-64M-wrap:io,stderr
	# sizes below 4096-byte sectors: not read, no numbers from failed reads
	i-4k-sectors:stdout,stderr
	# usage errors: one line, exit 2, no help text (the original: exit 234)
	abbrev-open:stdout,stderr,exit
	no-action:stderr,exit
)
args=()
for e in "${expect[@]}"; do args+=(--expect "$e"); done
python3 "$TESTS_DIR/original_compare.py" --flashbench "$FB" --fakeclock "$T/fakeclock.so" \
	--work "$SHM" "${args[@]}" || fail "flashbench differs from the recorded original (see above)"
