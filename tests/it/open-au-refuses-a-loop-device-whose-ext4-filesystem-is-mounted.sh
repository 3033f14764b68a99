#!/usr/bin/env bash
# The original silently corrupted a mounted ext4 filesystem. Now: refused,
# exit 1, the mount point named, not one byte written to the device.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
img=$(make_file disk.img 32M)
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$img" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
loop=$(make_loop "$img")
mkdir "$T/mnt"
trap 'umount "$T/mnt" 2>/dev/null; _cleanup' EXIT
mount -o noatime "$loop" "$T/mnt" 2>/dev/null || skip "cannot mount ext4 here"
for i in $(seq 1 100); do head -c 20000 /dev/urandom > "$T/mnt/file$i"; done
sync
(cd "$T/mnt" && sha256sum file*) > "$T/files.sum"
writes_before=$(sectors_written "$loop")
before=$(cksum < "$img")

run "$FB" -O "$loop"
expect_rc 1
expect_err "^flashbench: $loop is mounted on $T/mnt; not writing to it$"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "more than one line on stderr: $errout"
[ -z "$out" ] || fail "printed results: $out"

[ "$(sectors_written "$loop")" = "$writes_before" ] || fail "sectors were written to $loop"
(cd "$T/mnt" && sha256sum --quiet -c "$T/files.sum") || fail "files changed"
sync
[ "$(cksum < "$img")" = "$before" ] || fail "the filesystem image changed"
exit 0
