#!/usr/bin/env bash
# open(O_EXCL) fails with EBUSY: the message must not blame a process that
# merely has the device open. With a plain opener (a shell's redirection)
# and another process holding it exclusively, both are named as the ones
# of which one holds it (the kernel does not say which); a mount in another
# mount namespace is named as such, with its mount point.
. "$(dirname "$0")/../lib.sh"
need_root
need_tool python3
img=$(make_file disk.img 32M)
loop=$(make_loop "$img")
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; _cleanup' EXIT

sleep infinity < "$loop" &
plain=$!; pids+=("$plain")
python3 -c '
import os, signal, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
signal.pause()
' "$loop" >"$T/holder" &
holder=$!; pids+=("$holder")
wait_until "$holder" grep -q held "$T/holder" || skip "could not hold $loop exclusively"

run "$FB" -O "$loop"
expect_rc 1
expect_err "^flashbench: $loop is busy: "
expect_err "process $holder \(python3\)"
expect_err "process $plain \(sleep\)"
printf '%s\n' "$errout" | grep -q "process $plain (sleep) has it open exclusively" &&
	fail "blames the process that only has it open: $errout"
kill "$holder"; wait "$holder" 2>/dev/null

have_tool unshare "the mount in another namespace" && have_tool mkfs.ext4 "the mount in another namespace" || exit 0
mkfs.ext4 -q "$loop" || skip "mkfs.ext4 failed"
mkdir "$T/mnt"
unshare -m --propagation private sh -c 'mount "$1" "$2" && echo mounted && exec sleep infinity' sh "$loop" "$T/mnt" >"$T/ns" &
pids+=("$!")
wait_until "$!" grep -q mounted "$T/ns" || skip "could not mount $loop in another namespace"
run "$FB" -O "$loop"
expect_rc 1
expect_err "^flashbench: $loop is busy: mounted on $T/mnt in another mount namespace \(that of process [0-9]+ \(sleep\)\); not writing to it$"
exit 0
