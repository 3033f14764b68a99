#!/usr/bin/env bash
# `flashbench -O --preserve DEV | head -0`: printing into a closed pipe must not
# kill flashbench (SIGPIPE) before it has put the saved data back.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(sha256sum < "$img")
loop=$(make_loop "$img")

"$FB" -O --preserve -e 1M -b 128K "$loop" 2>"$T/err" | true
[ "$(sha256sum < "$img")" = "$before" ] || fail "the device differs from before: $(cat "$T/err")"
exit 0
