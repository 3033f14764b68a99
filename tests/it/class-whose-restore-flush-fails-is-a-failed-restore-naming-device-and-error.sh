#!/usr/bin/env bash
# A flush of the restored area that fails (fdatasync made to fail with EIO
# by strace) is a failed restore: --class says so naming the device and the
# error, keeps the saved data for --restore, and exits 1; stopped by Ctrl-C
# twice (the signal handler's restore) it says the restore FAILED.
. "$(dirname "$0")/../lib.sh"
need_root
need_tool strace
img=$(random_image card.img 256M)
loop=$(make_loop "$img")

TMPDIR=$T run traced -f -qq -o /dev/null -e trace=fdatasync -e inject=fdatasync:error=EIO \
	"$FB" --class --claim=C10 --erasesize=4M "$loop"
expect_rc 1
expect_err "^flashbench: --class: $loop: flushing the restored data to the medium: Input/output error; the saved data is in $T/flashbench-rescue-"
expect_out "^data: +$loop: flushing the restored data to the medium: Input/output error"

TMPDIR=$T run traced -f -qq -o /dev/null -e trace=fdatasync,pwrite64,rt_sigreturn \
	-e inject=fdatasync:error=EIO -e inject=pwrite64:signal=INT:when=5 -e inject=rt_sigreturn:signal=INT:when=1 \
	$INTERRUPTIBLE "$FB" --class --claim=C10 --erasesize=4M "$loop"
expect_rc 130
expect_err "^flashbench: $loop: restoring FAILED: written back and verified, but flushing it to the medium failed$"
exit 0
