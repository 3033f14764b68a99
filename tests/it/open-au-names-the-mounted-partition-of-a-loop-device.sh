#!/usr/bin/env bash
# A disk whose partition is mounted is refused as a whole, naming the partition.
. "$(dirname "$0")/../lib.sh"
need_root
command -v python3 >/dev/null || skip "no python3"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
img=$(make_file disk.img 32M)
# an MBR with one Linux partition from sector 2048 to the end
pyrun - "$img" <<'PY'
import struct, sys
with open(sys.argv[1], "r+b") as f:
    start, count = 2048, 32 * 2048 - 2048
    entry = struct.pack("<B3sB3sII", 0, b"\0\0\0", 0x83, b"\0\0\0", start, count)
    f.seek(446); f.write(entry + b"\0" * 48 + b"\x55\xaa")
PY
loop=$(make_loop "$img" -P)
part=${loop}p1
# losetup -P reads the table before it returns (devtmpfs has the node then)
# kernels without the MBR parser: partx adds the partition from user space
[ -b "$part" ] || partx -a "$loop" 2>/dev/null
[ -b "$part" ] || skip "no partition device for $loop"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$part" >/dev/null 2>&1 || skip "mkfs.ext4 failed"
mkdir "$T/mnt"
trap 'umount "$T/mnt" 2>/dev/null; _cleanup' EXIT
mount "$part" "$T/mnt" 2>/dev/null || skip "cannot mount ext4 here"
echo data > "$T/mnt/keep"
sync
before=$(cksum < "$img")

run "$FB" -O "$loop"
expect_rc 1
expect_err "^flashbench: $loop: its partition $(basename "$part") is mounted on $T/mnt; not writing to it$"
sync
[ "$(cksum < "$img")" = "$before" ] || fail "the disk image changed"
exit 0
