#!/usr/bin/env bash
# Three loop devices over one file, one of them mounted: writing either of
# the others is refused in one line that names the mounted one and its
# mount point once, instead of going round the loop devices ("A shares
# ... with B: B shares ... with A: ...").
. "$(dirname "$0")/../lib.sh"
need_root
need_tool mkfs.ext4
img=$(make_file disk.img 64M)
mkfs.ext4 -q -F "$img" || skip "mkfs.ext4 failed"
a=$(make_loop "$img")
b=$(make_loop "$img")
c=$(make_loop "$img")
mkdir "$T/mnt"
mount "$c" "$T/mnt" || skip "cannot mount $c"
before=$(cksum < "$img")

for dev in "$a" "$b"; do
	run "$FB" -O "$dev"
	expect_rc 1
	expect_err "^flashbench: $dev shares its backing file $img with the loop device $c: $c is mounted on $T/mnt; not writing to it$"
	[ "$(printf '%s\n' "$errout" | grep -o "shares its backing file" | wc -l)" = 1 ] ||
		fail "the refusal repeats itself: $errout"
done
[ "$(cksum < "$img")" = "$before" ] || fail "the file was written"
exit 0
