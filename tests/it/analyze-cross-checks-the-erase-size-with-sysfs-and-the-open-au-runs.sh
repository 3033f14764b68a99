#!/usr/bin/env bash
# Issue 11 §3: sysfs preferred_erase_size and the --erasesize the poster gave
# --open-au are second witnesses. A table whose only step is a 16KiB page says
# no erase size of its own: the witnesses give it (low confidence, "agrees");
# a witness that disagrees with a clean -a step lowers the confidence; one
# that is two erase blocks (an AU) does not.
. "$(dirname "$0")/../lib.sh"

table() {	# table STEP: diff 150us from STEP up, 5us below
	local a=1073741824
	echo '$ sudo ./flashbench -a /dev/sdc --blocksize=1024'
	while [ "$a" -ge 2048 ]; do
		if [ "$a" -ge "$1" ]; then d=$((150 + a % 7)); else d=$((4 + a % 3)); fi
		printf 'align %s pre 1ms on %sµs post 1ms diff %sµs\n' "$a" $((1000 + d)) "$d"
		a=$((a / 2))
	done
}
sysfs() { echo "==> /sys/block/mmcblk0/device/preferred_erase_size <== $1"; }
openau() {
	echo '$ sudo ./flashbench --open-au --erasesize=$[4*1024*1024] --blocksize=16384 --open-au-nr=1 /dev/sdc'
	echo '4MiB 5M/s 2MiB 5M/s 1MiB 5M/s 512KiB 5M/s 256KiB 4.9M/s 128KiB 5M/s 64KiB 4.9M/s 32KiB 4.8M/s 16KiB 4.7M/s'
}

{ sysfs 4194304; table 16384; openau; } > "$T/page-only.txt"
run "$FB" --analyze "$T/page-only.txt"; expect_rc 0
expect_out "erase size: 4MiB \(low confidence\)"
expect_out "taken from --erasesize of the --open-au runs 4MiB \(no -a step\); sysfs preferred_erase_size agrees"
expect_out "page size: 16KiB"

{ sysfs 3145728; table 2097152; } > "$T/disagree.txt"
run "$FB" --analyze "$T/disagree.txt"; expect_rc 0
expect_out "erase size: 2MiB \(medium confidence\)"
expect_out "sysfs preferred_erase_size says 3MiB, -a says 2MiB: they disagree"

{ sysfs 4194304; table 2097152; } > "$T/au.txt"
run "$FB" --analyze "$T/au.txt"; expect_rc 0
expect_out "erase size: 2MiB \(high confidence\)"
expect_out "preferred_erase_size 4MiB is 2 erase blocks"
exit 0
