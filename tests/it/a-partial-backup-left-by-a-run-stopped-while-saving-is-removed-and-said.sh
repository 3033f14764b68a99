#!/usr/bin/env bash
# A run stopped while it writes its --backup, before its first write to the
# device, leaves nothing anybody needs: Ctrl-C (twice), or SIGXFSZ (a file
# size limit), removes the partial backup and says so; after SIGKILL the
# next run with the same --backup removes it, says so, and runs. The device
# is never touched by the stopped runs.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img")
w0=$(sectors_written "$loop")

# SIGXFSZ: the backup passes a 2 MiB file size limit
(ulimit -f 2048; exec "$FB" -O --preserve --backup="$T/b1" -b 4K "$loop") >"$T/out" 2>"$T/err"
rc=$?; out=$(cat "$T/out"); errout=$(cat "$T/err")
[ "$rc" -ge 1 ] || fail "exit 0 with a backup that cannot be written"
[ ! -e "$T/b1" ] || fail "SIGXFSZ left the partial backup $T/b1: $errout"
expect_err "partial backup"
[ "$(sectors_written "$loop")" = "$w0" ] || fail "SIGXFSZ: the device was written"

# Ctrl-C at the backup's second write (its header is the first), again at
# the third (if there is one: a run that stops saving at once makes none)
have_tool strace "the Ctrl-C and SIGKILL cases" || exit 0
at_write 2..3 INT "$T/b2" "$FB" -O --preserve --backup="$T/b2" -b 4K "$loop" >"$T/out" 2>"$T/err"
rc=$?
errout=$(cat "$T/err")
[ "$rc" = 130 ] || fail "Ctrl-C while saving: exit $rc, want 130: $errout"
[ ! -e "$T/b2" ] || fail "Ctrl-C left the partial backup $T/b2: $errout"
expect_err "^flashbench: removed the partial backup $T/b2: nothing was written to $loop$"
[ "$(sectors_written "$loop")" = "$w0" ] || fail "Ctrl-C: the device was written"

# SIGKILL at the backup's second write: a partial backup stays
at_write 2 KILL "$T/b3" "$FB" -O --preserve --backup="$T/b3" -b 4K "$loop" >/dev/null 2>&1
rc=$?
[ "$rc" = 137 ] || fail "not killed while saving: exit $rc"
[ -e "$T/b3" ] || fail "SIGKILL left no file: the test proves nothing"
[ "$(sectors_written "$loop")" = "$w0" ] || fail "SIGKILL: the device was written"
run "$FB" -O --preserve --backup="$T/b3" -b 64K "$loop"
expect_rc 0
expect_err "^flashbench: --backup=$T/b3: removed the partial backup a stopped run left \(it had written nothing to the device\)$"
[ ! -e "$T/b3" ] || fail "the backup stays after a verified restore"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs from before"
exit 0
