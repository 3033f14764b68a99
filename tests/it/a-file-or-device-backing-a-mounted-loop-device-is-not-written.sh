#!/usr/bin/env bash
# The kernel reports no holder for what backs a loop device. A loop device L
# over an image file, a second loop L2 over L with a mounted ext4: a write test
# on L, or on the image file itself, is refused naming L2 and its mount point,
# and nothing changes; so is a write on L while another loop device over the
# same image is mounted. With those detached, a write on the image file is still
# refused naming L (a write under an attached loop device corrupts it).
# The image is no output file either (-o), whatever the device under test.
. "$(dirname "$0")/../lib.sh"
need_root
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
img=$(random_image card.img 64M)
l=$(make_loop "$img")
l2=$(losetup -f --show "$l" 2>/dev/null) || skip "no second loop device"
# make_loop's cleanup only knows loops over files in $T: this one is ours to detach
# l2 is emptied once detached: tests run alongside may be given its name next
trap 'umount "$T/mnt" 2>/dev/null; [ -z "$l2" ] || losetup -d "$l2" 2>/dev/null; _cleanup' EXIT
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$l2" >/dev/null 2>&1 ||
	skip "mkfs.ext4 failed"
mkdir "$T/mnt"
mount "$l2" "$T/mnt" 2>/dev/null || skip "cannot mount ext4"
echo precious > "$T/mnt/file"
# read-only from here on, so that only flashbench could change the image
umount "$T/mnt" && mount -o ro "$l2" "$T/mnt" || fail "cannot remount read-only"
before=$(cksum < "$img")

for target in "$l" "$img"; do
	for test in "-O --offset=0 -e 1M" "-f -e 1M" "-p" "--discard=0:1M"; do
		run "$FB" $test "$target"
		expect_rc 1
		expect_err "^flashbench: $target backs the loop device ($l2: $l2 is mounted on $T/mnt|$l: $l backs the loop device $l2: $l2 is mounted on $T/mnt); not writing to it$"
		[ "$(cksum < "$img")" = "$before" ] || fail "$test $target changed $img"
	done
done
run "$FB" --auto --destructive "$img"
expect_rc 1
expect_err "mounted on $T/mnt"
[ "$(cksum < "$img")" = "$before" ] || fail "--auto changed $img"
# reading is fine
run "$FB" -a -c 1 "$img"
expect_rc 0
# nor is it an output of any test, even one on another device
run "$FB" -a -c 1 -o "$img" sim:sdhc-good
expect_rc 2
expect_err "^flashbench: --out=$img backs the loop device $l: $l backs the loop device $l2: $l2 is mounted on $T/mnt; not writing to it$"
[ "$(cksum < "$img")" = "$before" ] || fail "-o changed $img"

umount "$T/mnt"
losetup -d "$l2"; l2=
# another loop device over the same image, mounted: L shares its backing file
l4=$(make_loop "$img")
mount -o ro "$l4" "$T/mnt" 2>/dev/null || fail "cannot mount the image through $l4"
run "$FB" -O --offset=0 -e 1M "$l"
expect_rc 1
expect_err "^flashbench: $l shares its backing file $img with the loop device $l4: $l4 is mounted on $T/mnt; not writing to it$"
[ "$(cksum < "$img")" = "$before" ] || fail "$l changed $img"
umount "$T/mnt"
losetup -d "$l4"
run "$FB" -O --offset=0 -e 1M "$img"
expect_rc 1
expect_err "^flashbench: $img backs the loop device $l \(losetup -d $l detaches it\); not writing to it$"
[ "$(cksum < "$img")" = "$before" ] || fail "$img changed"
exit 0
