#!/usr/bin/env bash
# `flashbench -O --preserve DEV | head -0`: printing into a closed pipe must not
# kill flashbench (SIGPIPE) before it has put the saved data back. The run
# did write (more than the 2 MiB the restore puts back), says standard output
# failed, exits 1, and the device holds what it held before.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img")
w0=$(sectors_written "$loop")

closed_stdout
"$FB" -O --preserve -e 1M -b 128K "$loop" 2>"$T/err" >&6
rc=$? errout=$(cat "$T/err")
written=$(( ($(sectors_written "$loop") - w0) * 512 ))
# two erase blocks of 1 MiB are saved and put back: the test itself wrote the rest
[ "$written" -gt $((2 << 20)) ] || fail "the run wrote $written bytes to the device: it did not run its test"
expect_rc 1
expect_err "standard output: Broken pipe"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs from before: $errout"
exit 0
