#!/usr/bin/env bash
# Two loop devices over one image file are one storage: while a
# -O --preserve run on the one holds its lock (flock on the loop device's
# node and on its backing file), a run on the other (-p --preserve, -O,
# --capacity, or read-only -a) is refused in one line, exit 1, naming the
# backing file and the first run's process id and command line, and writes
# nothing; the first run ends normally and the file holds what it held
# before (the second used to save what the first had written and restore
# it last: 4 MB of the file lost, both exit 0). So are they once the file
# is deleted and another put in its place.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/two_runs.bash"

img=$(random_image img 64M)
cp "$img" "$T/orig"
a=$(make_loop "$img")
b=$(make_loop "$img")
hold "$img" "$FB" -O -e 1M -b 256K --preserve "$a"
for cmd in "-p --preserve" "-O -b 64K" "--capacity" "-a"; do
	refused_beside_held "$img" "$FB" $cmd "$b"
	expect_err "^flashbench: $b: $img, the backing file of $b, is locked by process $held_pid"
done
release
[ "$held_rc" = 0 ] || fail "the first run: exit $held_rc: $(cat "$T/held.err")"
cmp -s "$img" "$T/orig" || fail "the image differs from what it held before both runs"

# the file deleted (and another put in its place): the loop devices are still one
# storage, and meet on a lock file named for its device and inode
rm "$img"
printf 'another file\n' > "$img"
hold "$a" "$FB" -O -e 1M -b 256K --preserve "$a"
refused_beside_held "$a" "$FB" -p --preserve "$b"
expect_err "the lock file for the backing file of $b .*is locked by process $held_pid"
release
[ "$held_rc" = 0 ] || fail "the first run over the deleted file: exit $held_rc: $(cat "$T/held.err")"
cmp -s "$b" "$T/orig" || fail "the deleted image differs from what it held before"
exit 0
