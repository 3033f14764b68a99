#!/usr/bin/env bash
# A device that is neither a block device nor a regular file (a directory,
# /dev/null) gets that reason, exit 1; a user without access to the device
# is told it takes root; an unopenable -o names the output file.
. "$(dirname "$0")/../lib.sh"
mkdir "$T/dir"
for pair in "$T/dir|a directory" "/dev/null|a character device"; do
	dev=${pair%%|*} kind=${pair#*|}
	run "$FB" -a "$dev"
	expect_rc 1
	[ "$errout" = "flashbench: $dev: not a block device or regular file ($kind)" ] || fail "$dev: $errout"
done
run "$FB" -a -o "$T/no/such/dir/out" sim:emmc
expect_rc 1
expect_err "out: cannot open the output file: No such file or directory"
img=$(make_file card.img 16M)
chmod 600 "$img"
chmod 755 "$T"
half="the hint to a user who is not root"
if [ "$(id -u)" != 0 ]; then
	skip_part "$half: needs root (to become another user)"
elif have_tool setpriv "$half"; then
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$FB" -a "$img"
	expect_rc 1
	expect_err "card.img: Permission denied \(cards need root: try sudo\)$"
fi
exit 0
