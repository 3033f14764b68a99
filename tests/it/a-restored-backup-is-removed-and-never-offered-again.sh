#!/usr/bin/env bash
# After `flashbench --restore FILE DEV` has put a backup back and verified
# it, the backup is gone: the next run with the same --backup=FILE runs
# (instead of advising to restore FILE again, which would undo everything
# written since), and a second --restore of it has nothing to restore.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

backup_of_killed_run "$loop" "$T/saved"

run "$FB" --restore "$T/saved" "$loop"
expect_rc 0
expect_err "^flashbench: --restore: $T/saved: restored and verified, so removed$"
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs from before"
[ ! -e "$T/saved" ] || fail "the restored backup is still there"

# newer data on the card, then the same command again: it runs, and keeps the newer data
head -c 1M /dev/urandom | dd of="$loop" bs=1M seek=20 oflag=direct conv=notrunc status=none
newer=$(cksum < "$img")
run "$FB" -O --preserve --backup="$T/saved" -b 64K "$loop"
expect_rc 0
printf '%s\n' "$errout" | grep -q "restore" && fail "the next run mentions a restore: $errout"
[ "$(cksum < "$img")" = "$newer" ] || fail "the next run did not leave the newer data"
run "$FB" --restore "$T/saved" "$loop"
expect_rc 2
[ "$(cksum < "$img")" = "$newer" ] || fail "a second --restore rolled the device back"
exit 0
