#!/usr/bin/env bash
# Ctrl-C again and again during -O --preserve: the second one makes one
# restore attempt (or lets the one under way finish), says what state the
# device is in and exits; the later ones are answered, never start another
# restore nor cut this one short; the device is unchanged. Here a Ctrl-C
# comes with every write to the device from the test's third on, the
# restore's included.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

# 8 MiB erase blocks: 16 MiB to restore, in several writes
at_write 3+ INT "$loop" "$FB" -O --preserve -e 8M -b 4K "$loop" >"$T/out" 2>"$T/err"
rc=$?
out=$(cat "$T/out"); errout=$(cat "$T/err")
expect_rc 130
expect_err "restored and verified"
expect_err "^flashbench: $loop: restored and verified: as before the test$"
n=$(printf '%s\n' "$errout" | grep -c "restoring the preserved data$")
[ "$n" -le 1 ] || fail "$n restore attempts: $errout"
[ "$(printf '%s\n' "$errout" | grep -c "restored and verified")" = 1 ] || fail "not one state line: $errout"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs from before"
exit 0
