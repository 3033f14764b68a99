#!/usr/bin/env bash
# Every output is a write path. -o, --plot, --backup, or a standard stream
# that is the device under test, a file backing it (through one or two loop
# devices), a hard link to it, or any block device (the loop device itself,
# even with a mounted ext4 on it) is refused with exit 2 before any I/O:
# the image is unchanged, byte for byte.
. "$(dirname "$0")/../lib.sh"
need_root
img=$(random_image card.img 64M)
ln "$img" "$T/hardlink"
l=$(make_loop "$img")
l2=$(losetup -f --show "$l" 2>/dev/null) || skip "no second loop device"
# l2 is emptied once detached: tests run alongside may be given its name next
trap '[ -z "$l2" ] || losetup -d "$l2" 2>/dev/null; _cleanup' EXIT
before=$(cksum < "$img")

refused() {	# ARGS...: exit 2, one line naming the output, image unchanged
	run "$FB" "$@"
	expect_rc 2
	[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "$*: not one line: $errout"
	expect_err "not writing to it$"
	[ "$(cksum < "$img")" = "$before" ] || fail "$* changed the image"
}
refused -a -c 1 -o "$l" "$l"
ln -s "$l" "$T/loop.svg" && ln -s "$img" "$T/img.svg"	# a plot name must end in .svg
refused -a -c 1 --plot="$T/loop.svg" "$l"
refused -a -c 1 -o "$img" "$l"
refused -a -c 1 -o "$img" "$l2"
refused -a -c 1 -o "$img" "$img"
refused -a -c 1 -o "$T/hardlink" "$img"
refused -O --preserve -o "$img" "$img"
refused -O --preserve --plot="$T/img.svg" -e 1M "$img"
refused -O --preserve --backup="$img" -e 1M "$l"
refused -O --preserve --backup="$T/hardlink" -e 1M "$img"
refused -s -o "$l2" "$T/hardlink"
expect_err "^flashbench: --out=$l2 is a block device"
refused -a -c 1 -o "$img" "$l"
expect_err "^flashbench: --out=$img backs $l, the device under test; not writing to it$"
# a regular file as the device and as -o, with no loop device over it
plain=$(random_image plain.img 16M)
psum=$(cksum < "$plain")
run "$FB" -a -c 1 -o "$plain" "$plain"
expect_rc 2
expect_err "^flashbench: --out=$plain is $plain, the device under test; not writing to it$"
[ "$(cksum < "$plain")" = "$psum" ] || fail "-o onto the device file changed it"

# standard output appended to the image: refused; standard error: refused silently
run "$FB" -a -c 1 "$l2"
"$FB" -a -c 1 "$l2" >>"$img" 2>"$T/err"; rc=$?
[ "$rc" = 2 ] || fail "stdout onto the backing file: exit $rc"
grep -q "^flashbench: standard output backs $l2, the device under test" "$T/err" ||
	fail "stdout refusal not said: $(cat "$T/err")"
"$FB" -a -c 1 "$img" 2>>"$img" >"$T/out"; rc=$?
[ "$rc" = 2 ] || fail "stderr onto the image: exit $rc"
[ "$(cksum < "$img")" = "$before" ] || fail "a standard stream landed on the image"

# the issue's case: -o the loop device itself while it holds a mounted ext4
half="-o onto the loop device of a mounted ext4"
if have_tool mkfs.ext4 "$half"; then
	losetup -d "$l2"; l2=
	img2=$(random_image other.img 64M)
	l3=$(make_loop "$img2")
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$l3" >"$T/mkfs.log" 2>&1 ||
		fail "mkfs.ext4 failed on $l3: $(cat "$T/mkfs.log")"
	mkdir "$T/mnt"
	if mount -o ro "$l3" "$T/mnt" 2>/dev/null; then
		before2=$(cksum < "$img2")
		run "$FB" -a -c 1 -o "$l3" "$l3"
		expect_rc 2
		[ "$(cksum < "$img2")" = "$before2" ] || fail "-o onto the mounted loop device wrote it"
		umount "$T/mnt"
	else
		skip_part "$half: cannot mount ext4 here"
	fi
fi
exit 0
