#!/usr/bin/env bash
# On a device whose size is no multiple of the alignment unit (100,000,256
# bytes; a 4096-byte-sector loop device of 100,003,840), --auto's advice
# says "start every partition at a multiple of 4MiB and make its size a
# multiple of 4MiB (N sectors)", and the sfdisk line it prints (naming
# the device measured), run on a copy, makes exactly that: every partition starts and ends on a multiple
# of N sectors (it used to run the last one to the end of the card: 187,121
# sectors). The JSON's line makes what the JSON's alignment says, and when
# the two runs align alike (a loop device is measured anew by each, and
# on a busy machine the two may see other erase sizes) it is the text's
# line.
. "$(dirname "$0")/../lib.sh"
need_tool sfdisk
need_tool python3
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
chmod +x "$T/bin/sudo"

# makes LINE UNIT DISK WHAT: LINE, run on DISK, makes a table whose last partition
# starts and ends on a multiple of UNIT sectors (what WHAT says)
makes() {
	local line=$1 unit=$2 disk=$3
	( PATH=$T/bin:$PATH; eval "${line% *} \"\$disk\"" ) >"$T/log" 2>&1 ||
		fail "$dev: '$line' failed: $(tail -n 3 "$T/log")"
	sfdisk -J "$disk" >"$T/table.json" || fail "$dev: no table after the line"
	pyrun - "$T/table.json" "$unit" <<'PY' || fail "$dev: '$line' makes a partition off the unit of $unit sectors $4 advice says"
import json, sys
parts = json.load(open(sys.argv[1]))["partitiontable"]["partitions"]
unit = int(sys.argv[2])
assert parts, "no partition"
last = parts[-1]
assert last["start"] % unit == 0 and last["size"] % unit == 0, (last, unit)
PY
}

# check_line DEV DISK: --auto's partition script for DEV, run on DISK, makes what the text says
check_line() {
	local dev=$1 disk=$2 line unit ss json
	run "$FB" --auto "$dev"
	expect_rc 0
	unit=$(printf '%s\n' "$out" | tr '\n' ' ' | sed -n 's/.*make its *size a multiple of [0-9.]*[KMG]iB (\([0-9]*\) *sectors.*/\1/p')
	[ -n "$unit" ] || fail "$dev: the advice names no unit in sectors: $out"
	line=$(printf '%s\n' "$out" | sed -n "s#^    \(printf .*| sudo sfdisk /dev/[^ ]*\)\$#\1#p")
	[ -n "$line" ] || fail "$dev: no sfdisk line: $out"
	makes "$line" "$unit" "$disk" "the text's"
	# the JSON: its own line and alignment (in sectors of the disk)
	ss=512
	[ -b "$disk" ] && ss=$(blockdev --getss "$disk")
	run "$FB" --auto --json "$dev"
	json=$(printf '%s' "$out" | pyrun -c '
import json, sys
a = json.load(sys.stdin)["advice"]
print(a["align_bytes"] // int(sys.argv[1]))
print(a["sfdisk"])' "$ss") || fail "$dev: no alignment or sfdisk line in the JSON's advice"
	if [ "${json%%$'\n'*}" = "$unit" ]; then
		[ "${json#*$'\n'}" = "$line" ] ||
			fail "$dev: the JSON's sfdisk line differs from the text's (both align to $unit sectors): ${json#*$'\n'} vs $line"
	else
		makes "${json#*$'\n'}" "${json%%$'\n'*}" "$disk" "the JSON's"
	fi
}

img=$(make_file disk.img 100000256)
check_line "sim:size=100000256" "$img"
sec4k=$(make_file sec4k.img 100003840)
loop=$(make_loop "$sec4k" -b 4096)
[ "$(blockdev --getss "$loop" 2>/dev/null)" = 4096 ] || skip "no loop device of 4096-byte sectors"
check_line "$loop" "$loop"
exit 0
