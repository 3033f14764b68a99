# Sourced by the tests that run every line a --auto report prints
# (tests/it/auto-advice-*.sh), after tests/lib.sh. check_report SPEC MODE
# runs --auto [MODE] on SPEC and then every line its report prints: the
# partition script on a disk of the advertised size that already holds a
# GPT table (a used card), each mkfs alternative on its own partition that
# holds an old filesystem, every flashbench line on the same device. The
# lines name the card (a block device's own node, its partitions as the
# kernel names them: /dev/zram0p1), /dev/sdX where there is none (an image
# file, sim:): the test checks that, then runs them with the names standing
# for its images. With
# SECTOR=4096 the disk and its partitions are loop devices of 4096-byte
# sectors over files in $T; else image files in memory (/dev/shm, where
# there is room: mkfs writes some 100MiB on a 32GiB partition). ran counts
# the lines run.
PATH=$PATH:/sbin:/usr/sbin
need_tool sfdisk
need_tool mkfs.ext4
need_tool mkfs.f2fs
need_tool mkfs.vfat
need_tool blkid
need_tool python3
# the lines run literally, sudo included: the test runs as root, or as a user who owns the images
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
chmod +x "$T/bin/sudo"
PATH=$T/bin:$PATH
SECTOR=${SECTOR:-512}
ran=0
table= last_table=
declare -A already	# lines run, by what they ran on

I=$T/img	# the images
if [ "$SECTOR" = 512 ] && shm=$(mktemp -d /dev/shm/fbadvice.XXXXXX 2>/dev/null); then
	ln -s "$shm" "$I"
	trap 'rm -rf "$shm"; _cleanup' EXIT
else
	mkdir -p "$I"
fi

# what a table must be, against the report (check_table)
cat >"$T/table.py" <<'EOF'
import json, re, sys
rep = json.load(open(sys.argv[1])); text = re.sub(r"\s+", " ", open(sys.argv[2]).read())
table = json.load(open(sys.argv[3]))["partitiontable"]; real = int(sys.argv[4])
def bad(msg):
    open(sys.argv[5], "w").write(msg); sys.exit(1)
adv = rep["advice"]; sector = table.get("sectorsize", 512)
# the alignment the text advises (the JSON is another run: on a real device it may differ)
m = re.search(r"at a multiple of ([0-9.]+)(KiB|MiB|GiB) \(", text)
if not m: bad("the advice names no alignment")
unit = int(float(m.group(1)) * {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[m.group(2)])
if sys.argv[7] == "sim" and unit != adv["align_bytes"]: bad("the text aligns to %d, the JSON to %d" % (unit, adv["align_bytes"]))
if table["label"] != "dos": bad("label %s, not a new dos table" % table["label"])
parts = table.get("partitions", [])
if not parts: bad("no partition")
open(sys.argv[6], "w").write("".join("%d\n" % p["size"] for p in parts))
disk_end = rep["device"]["size_bytes"]
for i, p in enumerate(parts):
    start, size = p["start"] * sector, p["size"] * sector
    if start + size > real: bad("partition %d ends at %d, beyond the %d bytes the card stores" % (i + 1, start + size, real))
    if p["type"] == "83":
        if start % unit: bad("Linux partition %d starts at %d, not a multiple of %d" % (i + 1, start, unit))
        to_the_end = i == len(parts) - 1 and disk_end - (start + size) < unit
        if size % unit and not to_the_end: bad("Linux partition %d size %d is not a multiple of %d" % (i + 1, size, unit))
fat = rep.get("verdict", {}).get("fat_area")
fat_parts = [p for p in parts if p["type"] in ("1", "e", "c")]
if fat and fat["erase_blocks"] > 0 and fat["confidence"] in ("medium", "high"):
    if not fat_parts:
        if "leave no room for a FAT partition" not in text: bad("a FAT area of %d bytes but no FAT partition" % fat["size_bytes"])
    else:
        p = fat_parts[0]; start, end = p["start"] * sector, (p["start"] + p["size"]) * sector
        if start > 1 << 20 or end < min(fat["size_bytes"], real // unit * unit):
            bad("FAT partition %d..%d does not cover the fast area 0..%d" % (start, end, fat["size_bytes"]))
        if end % unit: bad("FAT partition ends at %d, not a multiple of %d" % (end, unit))
        want = {"1": "FAT12", "e": "FAT16", "c": "FAT32"}[p["type"]]
        if adv.get("fat_type") != want or "formatted %s" % want not in text:
            bad("partition type %s but the advice names %s" % (p["type"], adv.get("fat_type")))
elif fat_parts: bad("a FAT partition without a FAT area")
EOF

# the advertised size, what the card stores; the JSON advice holds the text's commands
cat >"$T/figures.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read().splitlines()
adv = d["advice"]
cmds = [v for v in adv.values() if isinstance(v, str) and ("sudo " in v or v.startswith("flashbench "))]
missing = [c for c in cmds if "    " + c not in text] if sys.argv[3] == "sim" else []
cap = d.get("capacity")
print(d["device"]["size_bytes"], cap["real_min_bytes"] if cap else d["device"]["size_bytes"], missing or "")
sys.exit(1 if not cmds or missing else 0)
EOF

# block_target IMG: IMG itself, or a loop device of SECTOR-byte sectors over it
block_target() {
	if [ "$SECTOR" = 512 ]; then echo "$1"; else make_loop "$1" -b "$SECTOR"; fi
}

drop_target() {
	[ "$1" = "$2" ] || losetup -d "$1"
}

# old_fs TYPE DEV: DEV starts with a filesystem of TYPE, as on a card used
# before (its first 64MiB at most: what mkfs finds is the same, and it is quick)
old_fs() {
	local kib=$(($(blockdev --getsize64 "$2" 2>/dev/null || stat -L -c %s "$2") / 1024))
	[ "$kib" -le 65536 ] || kib=65536
	case $1 in
	ext4) mkfs.ext4 -q -F "$2" "$kib" ;;
	f2fs) mkfs.f2fs -f "$2" $((kib * 1024 / SECTOR)) ;;
	esac >"$T/log.old" 2>&1 || fail "cannot put an old $1 on $2: $(tail -n 3 "$T/log.old")"
}

# check_table DISK: the partition table the script made, against the report;
# the partitions' sizes in sectors go to $T/parts, one a line
check_table() {
	sfdisk -J "$1" >"$T/table.json" 2>"$T/log" || fail "$what: no table after sfdisk: $(cat "$T/log")"
	pyrun "$T/table.py" "$T/report.json" "$T/report.txt" "$T/table.json" "$real" "$T/why" "$T/parts" \
		"${spec%%:*}" ||
		fail "$what: $(cat "$T/why")"
}

# part_image N: part$N.img, an image of partition N of the disk, of its size
part_image() {
	local sectors
	sectors=$(sed -n "${1}p" "$T/parts")
	[ -n "$sectors" ] || fail "$what: no partition $1 on the disk"
	rm -f "$I/part$1.img"
	truncate -s $((sectors * SECTOR)) "$I/part$1.img"
}

run_flashbench_line() {
	local r last
	( eval "exec \"\$FB\"${1#flashbench}" ) >"$T/log" 2>&1 </dev/null
	r=$?
	# on a fake, what the line writes (its --verbose says) stays inside what the card stores
	if [ -n "$fake" ] && [ "$r" = 0 ]; then
		last=$( ( eval "exec \"\$FB\" --verbose${1#flashbench}" ) 2>&1 >/dev/null </dev/null |
			sed -n 's/.*will overwrite bytes [0-9]* to \([0-9]*\)$/\1/p' | sort -n | tail -n 1)
		[ -z "$last" ] || [ "$last" -lt "$real" ] ||
			fail "$what: '$1' writes up to byte $last, past the $real bytes the card stores"
	fi
	[ "$r" = 0 ] && return 0
	[ "$r" = 1 ] && [ -n "$fake" ] && grep -q '^counterfeit: ' "$T/log" && return 0
	fail "$what: '$1' exits $r: $(grep -v '^align\|^[0-9]' "$T/log" | head -n 3)"
}

run_sfdisk_line() {
	local disk
	rm -f "$I/disk.img"
	truncate -s "$size" "$I/disk.img"
	disk=$(block_target "$I/disk.img")
	printf 'label: gpt\n,64M\n,\n' | sfdisk -q --no-reread --no-tell-kernel "$disk" >/dev/null 2>&1 ||
		fail "cannot make an old GPT table"
	( eval "${1//"$named"/$disk}" ) >"$T/log" 2>&1 </dev/null ||
		fail "$what: '$1' does not run as printed: $(tail -n 3 "$T/log")"
	check_table "$disk"
	drop_target "$disk" "$I/disk.img"
}

run_mkfs_line() {
	local part=${1##*"$pfx"} want got dev bits
	want=${1#sudo mkfs.}
	want=${want%% *}
	part_image "$part"
	dev=$(block_target "$I/part$part.img")
	case $want in ext4) old_fs f2fs "$dev" ;; *) old_fs ext4 "$dev" ;; esac
	( eval "${1//"$pfx$part"/$dev}" ) >"$T/log" 2>&1 </dev/null ||
		fail "$what: '$1' does not run on a used partition: $(tail -n 3 "$T/log")"
	got=$(blkid -p -o value -s TYPE "$dev")
	[ "$got" = "$want" ] || fail "$what: after '$1' the partition holds '$got'"
	if [ "$want" = vfat ]; then
		# the boot sector names its type: "FAT12   " / "FAT16   " at byte 54, "FAT32   " at 82
		bits=$(dd if="$dev" bs=512 count=1 2>/dev/null | od -An -c -j54 -N5 | tr -d ' ' | sed -n 's/^FAT\(1[26]\)$/\1/p')
		[ -n "$bits" ] || bits=$(dd if="$dev" bs=512 count=1 2>/dev/null | od -An -c -j82 -N5 | tr -d ' ' | sed -n 's/^FAT\(32\)$/\1/p')
		printf '%s\n' "$text" | tr -s ' \n' ' ' | grep -q "formatted FAT$bits\." ||
			fail "$what: '$1' made FAT$bits, not the type the advice names"
	fi
	drop_target "$dev" "$I/part$part.img"
	rm -f "$I/part$part.img"
}

# The kernel may lack f2fs: mount where it can, else check what the line
# names and say (once) that the mount lines did not run. False: not run.
run_mount_line() {
	local part=${1#*"$pfx"} dev cmd
	part=${part%% *}
	printf '%s\n' "$text" | grep -qF -- " $pfx$part" ||
		fail "$what: '$1' mounts a partition no f2fs line makes"
	if [ "$(id -u)" != 0 ]; then
		[ -n "${mount_skip_said:-}" ] || skip_part "the 'sudo mount -o active_logs=' lines: needs root"
		mount_skip_said=1
		return 1
	fi
	grep -qw f2fs /proc/filesystems || modprobe -q f2fs 2>/dev/null
	if ! grep -qw f2fs /proc/filesystems; then
		[ -n "${mount_skip_said:-}" ] ||
			skip_part "the 'sudo mount -o active_logs=' lines: this kernel has no f2fs filesystem"
		mount_skip_said=1
		return 1
	fi
	part_image "$part"
	rm -f "$T/part.img"
	truncate -s "$(stat -L -c %s "$I/part$part.img")" "$T/part.img"	# a loop device needs it in $T
	dev=$(make_loop "$T/part.img" -b "$SECTOR")
	mkfs.f2fs -q -f "$dev" >/dev/null 2>&1
	mkdir -p "$T/mnt"
	cmd=${1//"$pfx$part"/$dev}
	( eval "${cmd% /mnt} $T/mnt" ) >"$T/log" 2>&1 && umount "$T/mnt" ||
		fail "$what: '$1' does not mount: $(cat "$T/log")"
	losetup -d "$dev"
	rm -f "$T/part.img"
}

# run_line LINE: one printed line, as printed, $named (the card, or /dev/sdX) standing for the disk
run_line() {
	local key="$size|$table|$1"
	# a line already run on the same card and partition table runs the same way again;
	# a flashbench line the report prints more than once (its runs: "# ..., run 2 of 4")
	# is one command, run once
	case $1 in
	flashbench\ *) key=${1%%   \#*} ;;
	printf\ *) [ "$size|$1" = "$last_table" ] && return 0	# the table just made: its sizes are in $T/parts
		key= ;;
	esac
	[ -n "$key" ] && [ -n "${already[$key]-}" ] && return 0
	[ -n "$key" ] && already[$key]=1
	case $1 in
	flashbench\ *) run_flashbench_line "$1" ;;
	printf\ *\ sudo\ sfdisk\ "$named") run_sfdisk_line "$1"; table=$1 last_table="$size|$1" ;;
	sudo\ mkfs.*\ "$pfx"[0-9]) run_mkfs_line "$1" ;;
	sudo\ mount\ -o\ active_logs=[246]\ "$pfx"[0-9]\ /mnt) run_mount_line "$1" || return 0 ;;
	*) fail "$what: '$1' is not a line this test knows how to run" ;;
	esac
	ran=$((ran + 1))
}

# check_report DEV MODE: --auto [MODE] DEV, what its advice says, and every line it prints
check_report() {
	local spec=$1 mode=$2 rc lines line figures
	fake=
	case $spec in *real-size=*) fake=1 ;; esac
	what="--auto $mode $spec"
	"$FB" --auto $mode "$spec" >"$T/report.txt" 2>"$T/err"
	rc=$?
	"$FB" --auto $mode --json "$spec" >"$T/report.json" 2>/dev/null
	already["flashbench --auto${mode:+ $mode} $spec"]=1	# as the reports print it: just run
	[ "$rc" = 0 ] || { [ -n "$fake" ] && [ "$rc" = 1 ]; } || fail "$what exits $rc: $(cat "$T/err")"
	text=$(cat "$T/report.txt")
	# the advertised size and what the card stores; the JSON advice holds the text's commands
	# (a real device measures a little differently each time: the text and JSON are two runs)
	figures=$(pyrun "$T/figures.py" "$T/report.json" "$T/report.txt" "${spec%%:*}") ||
		fail "$what: the JSON advice and the text differ: $figures"
	read -r size real _ <<<"$figures"
	if [ -n "$fake" ] && [ -n "$mode" ]; then
		[ "$real" -lt "$size" ] || fail "$what: the fake stores all it advertises?"
		printf '%s\n' "$text" | tr -s ' \n' ' ' | grep -q "This card is counterfeit: it advertises [0-9.]*[GMT]iB but stores only [0-9.]*[GMT]iB" ||
			fail "$what: the advice does not say plainly that the card is counterfeit"
		printf '%s\n' "$text" | grep -q "Return it to the seller" || fail "$what: no word on returning it"
	fi
	if [ -z "$mode" ]; then
		printf '%s\n' "$text" | grep -q "^  The capacity was not checked" ||
			fail "$what: the read-only advice does not say that the capacity was not checked"
		printf '%s\n' "$text" | grep -qxF "    flashbench --capacity $spec" ||
			fail "$what: no --capacity command in the read-only advice"
	fi
	# the card by its name: a block device's own node and partitions, else the placeholder
	case $spec in
	/dev/*) named=$(realpath "$spec") ;;
	*) named=/dev/sdX ;;
	esac
	pfx=$named
	[[ $named != /dev/sdX && $named == *[0-9] ]] && pfx=${named}p
	lines=$(printf '%s\n' "$text" | sed -nE 's/^ *(\$ )?((sudo|printf|flashbench) .*)/\2/p')
	printf '%s\n' "$lines" | grep -q "sudo sfdisk $named\$" || fail "$what: the partition script does not name $named: $lines"
	! printf '%s\n' "$lines" | grep -E '^sudo (mkfs|mount)' | grep -qvF -- " $pfx" ||
		fail "$what: a filesystem line that does not name a partition of $named: $lines"
	printf '%s\n' "$lines" | grep -q sfdisk || fail "$what: no partition script: $text"
	while IFS= read -r line; do
		run_line "$line"
	done <<<"$lines"
}
