#!/usr/bin/env bash
# A block device of size 0 — an unattached loop device, a card reader with
# no card — is a runtime error naming the device (exit 1), not a usage
# error. The loop device is one this test brings into existence (a node of
# an unused minor in $T) and removes again; the options make any other
# device a usage error before I/O, so nothing is ever read.
. "$(dirname "$0")/../lib.sh"
need_root
[ -e /dev/loop-control ] || skip "no /dev/loop-control"
command -v python3 >/dev/null || skip "no python3 to remove the loop device again"
minor=
for m in 251 252 253 254; do
	[ -e "/sys/block/loop$m" ] || { minor=$m; break; }
done
[ -n "$minor" ] || skip "no unused loop minor"
mknod "$T/loop" b 7 "$minor" || skip "cannot make a device node"
remove_loop() {
	python3 -c 'import fcntl, os, sys; fcntl.ioctl(os.open("/dev/loop-control", os.O_RDWR), 0x4C81, int(sys.argv[1]))' \
		"$minor" 2>/dev/null
}
trap 'remove_loop; _cleanup' EXIT
run "$FB" -s --scatter-order=24 --scatter-span=1048576 "$T/loop"
expect_rc 1
expect_err "^flashbench: $T/loop: size 0: no medium \(an unattached loop device"
exit 0
