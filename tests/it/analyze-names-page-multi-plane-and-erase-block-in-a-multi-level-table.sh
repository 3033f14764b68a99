#!/usr/bin/env bash
# Issue 11's real -a table (1 KiB blocks): <=2KiB ~3us, 4KiB ~40us, 8KiB..1MiB
# ~120us, >=2MiB ~250us, and on a large card a further rise from 2GiB. Experts
# read: 2 MiB erase block (the step into the top plateau within 128KiB..64MiB),
# 4 KiB pages read in pairs (8 KiB multi-plane), the 2 GiB rise an allocation
# group, not the erase size.
. "$(dirname "$0")/../lib.sh"

table() {	# table TOP GROUP_US
	local a=$1 d
	echo '$ sudo ./flashbench -a /dev/sdc --blocksize=1024'
	while [ "$a" -ge 2048 ]; do
		if [ "$a" -le 2048 ]; then d=3; elif [ "$a" -eq 4096 ]; then d=40
		elif [ "$a" -le 1048576 ]; then d=$((118 + a % 7))
		elif [ "$a" -lt 2147483648 ]; then d=$((245 + a % 11)); else d=$2; fi
		printf 'align %s\tpre 1ms\ton %sµs\tpost 1ms\tdiff %sµs\n' "$a" $((1000 + d)) "$d"
		a=$((a / 2))
	done
}

for top in 134217728 4294967296; do
	table $top 250 > "$T/t.txt"
	run "$FB" --analyze "$T/t.txt"; expect_rc 0
	expect_out "erase size: 2MiB \((high|medium) confidence\)"
	expect_out "page size: 4KiB \((high|medium) confidence\); reads pair pages to 8KiB"
done

table 34359738368 400 > "$T/big.txt"
run "$FB" --analyze "$T/big.txt"; expect_rc 0
expect_out "erase size: 2MiB \((high|medium)"
expect_out "allocation group: a further step at 2GiB"
run "$FB" --json --analyze "$T/big.txt"; expect_rc 0
expect_out '"allocation_group_bytes": 2147483648'
expect_out '"multiplane_bytes": 8192'
exit 0
