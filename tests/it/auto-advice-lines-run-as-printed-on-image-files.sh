#!/usr/bin/env bash
# The partitioning and mkfs lines of the --auto advice run as printed once
# /dev/sdX names a card: here image files stand in for the card and its
# partitions (sudo dropped). Lines whose tool is not installed are skipped.
. "$(dirname "$0")/../lib.sh"
ran=0
for spec in sim:sdhc-good sim:emmc; do
	run "$FB" --auto --destructive --max-write=2G "$spec"
	expect_rc 0
	lines=$(printf '%s\n' "$out" | sed -n '/^What to do$/,/^Raw data$/p' | sed -n 's/^    //p')
	[ -n "$lines" ] || fail "$spec: no command lines in the advice: $out"
	truncate -s 64M "$T/disk.img" "$T/part1.img" "$T/part2.img"
	while IFS= read -r line; do
		case $line in *mount*) continue ;; esac	# needs a real block device
		cmd=${line//sudo /}
		cmd=${cmd//\/dev\/sdX1/$T/part1.img}
		cmd=${cmd//\/dev\/sdX2/$T/part2.img}
		cmd=${cmd//\/dev\/sdX/$T/disk.img}
		tool=$(printf '%s\n' "$cmd" | grep -oE '(sfdisk|mkfs\.[a-z0-9]+)' | head -n 1)
		[ -n "$tool" ] || fail "$spec: not a command: $line"
		command -v "$tool" >/dev/null || PATH=$PATH:/sbin:/usr/sbin command -v "$tool" >/dev/null || continue
		PATH=$PATH:/sbin:/usr/sbin bash -c "$cmd" >"$T/log" 2>&1 </dev/null ||
			fail "$spec: '$line' does not run as printed: $(tail -n 3 "$T/log")"
		ran=$((ran + 1))
	done <<<"$lines"
	rm -f "$T"/*.img
done
[ "$ran" -gt 0 ] || skip "none of sfdisk, mkfs.ext4, mkfs.f2fs, mkfs.vfat is installed"
exit 0
