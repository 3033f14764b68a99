#!/usr/bin/env bash
# --preserve, then Ctrl-C in the middle of -O: the current I/O finishes, the
# partial results are printed, the saved data is written back, exit 130, and
# the device holds exactly what it held before.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(sha256sum < "$img")
loop=$(make_loop "$img")

$INTERRUPTIBLE "$FB" -O --preserve -b 4K "$loop" >"$T/out" 2>"$T/err" &
pid=$!
wait_for_writes "$loop" "$pid"
sleep 0.2
kill -0 "$pid" 2>/dev/null || fail "-O ended before it could be interrupted: $(cat "$T/err")"
kill -INT "$pid"
wait "$pid"; rc=$?
out=$(cat "$T/out"); errout=$(cat "$T/err")
expect_rc 130
expect_out "^4MiB +[0-9.]+[KMG]?/s"
printf '%s\n%s\n' "$out" "$errout" | grep -qi partial || fail "results not marked partial: $out $errout"
[ "$(printf '%s\n' "$out" | grep -c /s)" -lt 11 ] || fail "all rows printed: not interrupted"
[ "$(sha256sum < "$img")" = "$before" ] || fail "the device differs from before"
exit 0
