#!/usr/bin/env bash
# On /dev/zram0 (4096-byte logical blocks) every line --auto prints runs as
# printed: the flashbench lines on zram0 itself (no block size -a refuses
# there), the partition script and the mkfs lines on loop devices of
# 4096-byte sectors (sfdisk's numbers count those sectors).
. "$(dirname "$0")/../lib.sh"
SECTOR=4096
. "$(dirname "$0")/advice_lines.bash"
need_root
dev=$(make_zram 256M)
check_report "$dev" --destructive
printf '%s\n' "$text" | grep -q "sectors of 4096 bytes" || fail "the advice counts sectors of 512 bytes on zram"
check_report "$dev" ""
echo "$ran lines ran as printed"
exit 0
