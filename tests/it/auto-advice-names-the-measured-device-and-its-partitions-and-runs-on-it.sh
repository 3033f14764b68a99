#!/usr/bin/env bash
# The partition and mkfs lines of --auto name the device measured: a loop
# device (with partition scanning, as a card reader's disk) is /dev/loopN
# and its partitions /dev/loopNp1 (a "p" after a name ending in a digit, as
# the kernel names them: /dev/mmcblk0p1, /dev/nvme0n1p1; /dev/sdb1), in the
# text and the JSON alike; run as printed, on that very device, the
# partition script makes the table and the mkfs line the filesystem on the
# partition it names. Measured through one of its partitions, the lines
# name the whole disk. An image file or a sim: card has no device name:
# the placeholder /dev/sdX stays.
. "$(dirname "$0")/../lib.sh"
need_root
need_tool sfdisk
need_tool mkfs.ext4
need_tool blkid
need_tool partx
need_tool python3
PATH=$PATH:/sbin:/usr/sbin
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"	# the lines run literally, sudo included
chmod +x "$T/bin/sudo"
PATH=$T/bin:$PATH

loop=$(make_loop "$(make_file card.img 512M)" -P)
run "$FB" --auto "$loop"
expect_rc 0
sfdisk_line=$(printf '%s\n' "$out" | sed -n 's/^ *\(printf .* | sudo sfdisk .*\)$/\1/p')
ext4_line=$(printf '%s\n' "$out" | sed -n 's/^ *\(sudo mkfs.ext4 .*\)$/\1/p')
[[ $sfdisk_line == *"| sudo sfdisk $loop" ]] || fail "the partition script names not $loop: $sfdisk_line"
[[ $ext4_line == *" ${loop}p1" ]] || fail "the ext4 line names not ${loop}p1: $ext4_line"
! printf '%s\n' "$out" | grep -q '/dev/sdX' || fail "a placeholder where the device is known: $out"
run "$FB" --auto --json "$loop"
printf '%s' "$out" | pyrun -c '
import json, sys
a = json.load(sys.stdin)["advice"]
assert a["sfdisk"].endswith("sudo sfdisk " + sys.argv[1]) and a["ext4"].endswith(" " + sys.argv[1] + "p1"), a
' "$loop" || fail "the JSON advice names another device"

# as printed, on the device itself: the table, then the filesystem on the partition named
( eval "$sfdisk_line" ) >"$T/log" 2>&1 || fail "'$sfdisk_line': $(tail -n 3 "$T/log")"
# sfdisk asks the kernel to re-read the table; where a loop device ignores that, partx adds
# the partitions (a card's own disk re-reads); devtmpfs makes the node a moment later
partx -u "$loop" 2>/dev/null
part=/sys/class/block/$(basename "$loop")p1
[ -e "$part" ] || fail "no ${loop}p1 after the partition script: $(cat "$T/log")"
# the kernel has the partition (partx returns after adding it): its node comes, however long it takes
while [ ! -b "${loop}p1" ]; do sleep 0.05; done
( eval "$ext4_line" ) >"$T/log" 2>&1 || fail "'$ext4_line': $(tail -n 3 "$T/log")"
[ "$(blkid -p -o value -s TYPE "${loop}p1")" = ext4 ] || fail "no ext4 on ${loop}p1"

# measured through its partition: the lines name the whole disk
run "$FB" --auto "${loop}p1"
expect_rc 0
printf '%s\n' "$out" | grep -q "| sudo sfdisk $loop$" || fail "through ${loop}p1, not the disk: $out"

# an image file and a sim: card: the placeholder
run "$FB" --auto "$(make_file image.img 512M)"
expect_out "\| sudo sfdisk /dev/sdX$"
run "$FB" --auto sim:sdhc-good
expect_out "sudo mkfs.ext4 .* /dev/sdX1$"
exit 0
