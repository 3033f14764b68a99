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
	# (issue 31) sizes take suffixes: 16K is 16 KiB (the original: 16 bytes,
	# its reads or writes failed); -e 64K is 64 KiB; --offset=32M is 32 MiB
	a-b16K:io,stdout,stderr O-e64K:io,stdout O-offset-32M-suffix:io,stdout,stderr,exit
	# values that gave numbers from no I/O, or the original's internal error
	# trace on stdout and exit 0, are refused (one line, exit 2): -c 0,
	# --open-au-nr=0, -F 0, --scatter-span=0 with -s, an erase size that is
	# not 2^n or 3*2^n, -i without --interval-order, a negative --offset
	a-c0:stdout,stderr,exit O-n0:stdout,stderr,exit f-F0:stdout,stderr,exit
	s-span0:stdout,stderr,exit O-e80K:stdout,stderr,exit i-no-order:stdout,stderr,exit
	O-offset-minus1:io,stdout,stderr,exit
	# a parameter no chosen test reads: any value, one line saying it has no effect
	a-span0:stderr
	# trailing junk is refused (the original read the leading 8)
	s-order-8x:io,stdout,stderr,exit
	# -s orders below 8 run (the original: "internal error" after one read);
	# above 16 it refused with another message, we where they do not fit
	s-order3:io,stdout,stderr,exit s-order17:stderr,exit
	# --findfat: the seeds' version had it, d783b1b refuses it
	findfat:io,stdout,stderr,exit
	# --offset=0 writes at 0 (the original: an internal error, no writes)
	O-offset-0:io,stdout
	# the default offset (16 MiB) past the end of a small device: refused
	# (the original wrote at 16 MiB modulo the size, here offset 0)
	O-small-device:io,stdout,stderr,exit
	# --offset moves -i too (the original read from 0 whatever it said)
	i-offset:io
	# -v: device facts on stderr (the original: its VM's trace on stdout;
	# -vv also "filename:" and "filesize:" lines)
	O-v:stdout,stderr a-vv:stdout,stderr
)
args=()
for e in "${expect[@]}"; do args+=(--expect "$e"); done
pyrun "$TESTS_DIR/original_compare.py" --flashbench "$FB" --fakeclock "$T/fakeclock.so" \
	--work "$SHM" "${args[@]}" || fail "flashbench differs from the recorded original (see above)"
