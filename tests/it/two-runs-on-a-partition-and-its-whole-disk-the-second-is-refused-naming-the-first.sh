#!/usr/bin/env bash
# A partition and its whole disk are one card: while an -O --preserve run on
# a partition of a loop device with partitions (losetup -P) holds its lock
# (flock on the whole-disk node, as systemd and util-linux lock disks), a
# run on the whole disk (-p --preserve, --capacity, read-only -a) is refused
# in one line, exit 1, naming the disk and the first run's process id and
# command line, and writes nothing; and the other way round, a run on the
# disk keeps runs on its partitions out. Each first run ends normally and the
# disk holds what it held before. (The held runs are -O: -p takes minutes on a loop device.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/two_runs.bash"
need_tool sfdisk

img=$(random_image img 64M)
printf 'label: dos\nstart=2048, size=100000\nstart=102400\n' | sfdisk -q "$img" >/dev/null ||
	fail "sfdisk could not partition the image"
cp "$img" "$T/orig"
disk=$(make_loop "$img" -P)
part=${disk}p1
[ -b "$part" ] || partx -a "$disk" 2>/dev/null	# the kernel's scan may not have run yet
[ -b "$part" ] || skip "no partition nodes for $disk (losetup -P)"

hold "$disk" "$FB" -O -e 1M -b 256K --preserve "$part"
for cmd in "-p --preserve" "--capacity" "-a"; do
	refused_beside_held "$img" "$FB" $cmd "$disk"
	expect_err "^flashbench: $disk is locked by process $held_pid"
done
refused_beside_held "$img" "$FB" -O -b 64K "${disk}p2"
expect_err "^flashbench: ${disk}p2: $disk, the disk ${disk}p2 is on, is locked by process $held_pid"
release
[ "$held_rc" = 0 ] || fail "the run on $part: exit $held_rc: $(cat "$T/held.err")"

hold "$disk" "$FB" -O -e 1M -b 256K --preserve "$disk"
refused_beside_held "$img" "$FB" -p --preserve "$part"
expect_err "^flashbench: $part: $disk, the disk $part is on, is locked by process $held_pid"
refused_beside_held "$img" "$FB" -a "$part"
release
[ "$held_rc" = 0 ] || fail "the run on $disk: exit $held_rc: $(cat "$T/held.err")"
cmp -s "$img" "$T/orig" || fail "the image differs from what it held before the runs"
exit 0
