#!/usr/bin/env bash
# Another program holds the device with O_EXCL (as a mount in another namespace
# would): the kernel's EBUSY becomes one clear line naming the holder's pid
# and command (from /proc/*/fd), exit 1, nothing written.
. "$(dirname "$0")/../lib.sh"
need_root
command -v python3 >/dev/null || skip "no python3"
img=$(make_file disk.img 32M)
loop=$(make_loop "$img")

python3 -c '
import os, signal, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
signal.pause()
' "$loop" >"$T/holder" &
holder=$!
trap 'kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; _cleanup' EXIT
wait_until "$holder" grep -q held "$T/holder" || skip "could not hold $loop exclusively"
writes_before=$(sectors_written "$loop")

run "$FB" -O "$loop"
expect_rc 1
expect_err "^flashbench: $loop is busy: process $holder \(python3\) has it open exclusively; not writing to it$"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "more than one line on stderr: $errout"
[ "$(sectors_written "$loop")" = "$writes_before" ] || fail "sectors were written"

run "$FB" -a -c 1 "$loop"	# reading needs no exclusive access
expect_rc 0
exit 0
