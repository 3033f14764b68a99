#!/usr/bin/env bash
# Every command line a --auto report prints runs as printed and keeps the
# user's data, for every preset, a counterfeit card and a card whose page
# does not show, read-only and --destructive: the partition script on an
# image file of the advertised size that already holds a GPT table (a used
# card), each mkfs alternative on its own image of its partition that holds
# an old filesystem, every flashbench line on the same sim: card. On a fake
# every partition ends inside what it stores; the FAT partition covers the
# fast area, ends aligned and is of the FAT type the advice names.
. "$(dirname "$0")/../lib.sh"
PATH=$PATH:/sbin:/usr/sbin
# the lines run literally, sudo included: the test runs as root, or as a user who owns the images
mkdir -p "$T/bin"
printf '#!/bin/sh\nexec "$@"\n' >"$T/bin/sudo"
chmod +x "$T/bin/sudo"
PATH=$T/bin:$PATH
for tool in sfdisk mkfs.ext4 mkfs.f2fs mkfs.vfat blkid file python3; do
	command -v "$tool" >/dev/null || skip "no $tool (.ci/run installs it)"
done

presets=$("$FB" --help | sed -n '/^  Presets:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
[ "$(printf '%s\n' "$presets" | wc -l)" -ge 11 ] || fail "no preset list in --help: $presets"
specs="$(printf 'sim:%s\n' $presets)
sim:sdhc-good,real-size=8G
sim:sdhc-good,pagesize=1K"

# old_fs TYPE IMG: IMG starts with a filesystem of TYPE, as on a card used
# before (its first 64MiB at most: what mkfs finds is the same, and it is quick)
old_fs() {
	local kib=$(($(stat -c %s "$2") / 1024))
	[ "$kib" -le 65536 ] || kib=65536
	case $1 in
	ext4) mkfs.ext4 -q -F "$2" "$kib" ;;
	f2fs) mkfs.f2fs -f "$2" $((kib * 2)) ;;
	esac >"$T/log.old" 2>&1 || fail "cannot put an old $1 on $2: $(tail -n 3 "$T/log.old")"
}

# check_table JSON_REPORT TEXT_REPORT REAL: the partition table sfdisk made on disk.img
check_table() {
	sfdisk -J "$T/disk.img" >"$T/table.json" 2>"$T/log" || fail "$what: no table after sfdisk: $(cat "$T/log")"
	python3 - "$1" "$2" "$T/table.json" "$3" "$T/why" <<'EOF' || fail "$what: $(cat "$T/why")"
import json, re, sys
rep = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
table = json.load(open(sys.argv[3]))["partitiontable"]; real = int(sys.argv[4])
def bad(msg):
    open(sys.argv[5], "w").write(msg); sys.exit(1)
adv = rep["advice"]; unit = adv["align_bytes"]
if table["label"] != "dos": bad("label %s, not a new dos table" % table["label"])
parts = table["partitions"]
if not parts: bad("no partition")
disk_end = rep["device"]["size_bytes"]
for i, p in enumerate(parts):
    start, size = p["start"] * 512, p["size"] * 512
    if start + size > real: bad("partition %d ends at %d, beyond the %d bytes the card stores" % (i + 1, start + size, real))
    last = i == len(parts) - 1
    if p["type"] == "83":
        if start % unit: bad("Linux partition %d starts at %d, not a multiple of %d" % (i + 1, start, unit))
        if size % unit and not (last and start + size == disk_end // unit * unit or last and start + size == disk_end):
            bad("Linux partition %d size %d is not a multiple of %d" % (i + 1, size, unit))
fat = rep.get("verdict", {}).get("fat_area")
fat_parts = [p for p in parts if p["type"] in ("1", "e", "c")]
if fat and fat["erase_blocks"] > 0 and fat["confidence"] in ("medium", "high"):
    if not fat_parts:
        if "too little for a FAT partition" not in text: bad("a FAT area of %d bytes but no FAT partition" % fat["size_bytes"])
    else:
        p = fat_parts[0]; start, end = p["start"] * 512, (p["start"] + p["size"]) * 512
        if start > 1 << 20 or end < min(fat["size_bytes"], real // unit * unit): bad("FAT partition %d..%d does not cover the fast area 0..%d" % (start, end, fat["size_bytes"]))
        if end % unit: bad("FAT partition ends at %d, not a multiple of %d" % (end, unit))
        want = {"1": "FAT12", "e": "FAT16", "c": "FAT32"}[p["type"]]
        if adv.get("fat_type") != want or "formatted %s" % want not in re.sub(r"\s+", " ", text):
            bad("partition type %s but the advice names %s" % (p["type"], adv.get("fat_type")))
elif fat_parts: bad("a FAT partition without a FAT area")
EOF
}

# part_image N: an image of partition N of disk.img, of its size
part_image() {
	local sectors
	sectors=$(sfdisk -d "$T/disk.img" | awk -v n="$T/disk.img$1" '$1 == n { sub(/.*size= */, ""); sub(/,.*/, ""); print }')
	[ -n "$sectors" ] || fail "$what: no partition $1 on the disk"
	rm -f "$T/part$1.img"
	truncate -s $((sectors * 512)) "$T/part$1.img"
}

# run_line LINE: runs one printed line as printed, /dev/sdX standing for disk.img
run_line() {
	local line=$1 cmd=$1 part want got key
	# a line already run on the same card and partition table runs the same way again
	key="$size|$table|$line"
	case $line in flashbench\ *) key=$line ;; printf\ *) key= ;; esac	# a table is always made anew
	[ -n "$key" ] && grep -qxF -- "$key" "$T/done" 2>/dev/null && return 0
	printf '%s\n' "$key" >>"$T/done"
	case $cmd in
	flashbench\ *)
		FB=$FB bash -c "\"\$FB\"${cmd#flashbench}" >"$T/log" 2>&1 </dev/null; local r=$?
		if [ "$r" != 0 ] && ! { [ "$r" = 1 ] && [ -n "$fake" ] && grep -q '^counterfeit: ' "$T/log"; }; then
			fail "$what: '$line' exits $r: $(grep -v '^align\|^[0-9]' "$T/log" | head -n 3)"
		fi ;;
	printf\ *sfdisk\ /dev/sdX)
		rm -f "$T/disk.img"
		truncate -s "$size" "$T/disk.img"
		printf 'label: gpt\n,64M\n,\n' | sfdisk -q "$T/disk.img" >/dev/null 2>&1 || fail "cannot make an old GPT table"
		bash -c "${cmd//\/dev\/sdX/$T/disk.img}" >"$T/log" 2>&1 </dev/null ||
			fail "$what: '$line' does not run as printed: $(tail -n 3 "$T/log")"
		check_table "$T/report.json" "$T/report.txt" "$real"
		table=$line ;;
	sudo\ mkfs.*\ /dev/sdX[0-9])
		part=${cmd##*/dev/sdX}
		want=${cmd#sudo mkfs.}; want=${want%% *}
		part_image "$part"
		case $want in ext4) old_fs f2fs "$T/part$part.img" ;; *) old_fs ext4 "$T/part$part.img" ;; esac
		bash -c "${cmd//\/dev\/sdX$part/$T/part$part.img}" >"$T/log" 2>&1 </dev/null ||
			fail "$what: '$line' does not run on a used partition: $(tail -n 3 "$T/log")"
		got=$(blkid -p -o value -s TYPE "$T/part$part.img")
		[ "$got" = "$want" ] || fail "$what: after '$line' the partition holds '$got'"
		if [ "$want" = vfat ]; then
			bits=$(file -s "$T/part$part.img" | grep -o 'FAT ([0-9]* bit)' | tr -dc 0-9)
			printf '%s\n' "$text" | tr -s ' \n' ' ' | grep -q "formatted FAT$bits\." ||
				fail "$what: '$line' made FAT$bits, not the type the advice names"
		fi
		rm -f "$T/part$part.img" ;;
	sudo\ mount\ -o\ active_logs=[246]\ /dev/sdX[0-9]\ /mnt)
		# the kernel here may lack f2fs: mount it where it can, else check what it names
		part=${cmd#*/dev/sdX}; part=${part%% *}
		printf '%s\n' "$text" | grep -q "^    sudo mkfs.f2fs .*/dev/sdX$part$" ||
			fail "$what: '$line' mounts a partition no f2fs line makes"
		if grep -qw f2fs /proc/filesystems && [ "$(id -u)" = 0 ]; then
			part_image "$part"
			mkfs.f2fs -q -f "$T/part$part.img" >/dev/null 2>&1
			mkdir -p "$T/mnt"
			dev=$(make_loop "$T/part$part.img")
			bash -c "${cmd//\/dev\/sdX$part/$dev}" | sed "s#/mnt#$T/mnt#" >"$T/log" 2>&1 &&
				umount "$T/mnt" || fail "$what: '$line' does not mount: $(cat "$T/log")"
		fi ;;
	*) fail "$what: '$line' is not a line this test knows how to run" ;;
	esac
	ran=$((ran + 1))
}

ran=0
table=
while IFS= read -r spec; do
	real=
	fake=
	case $spec in *real-size=*) fake=1 ;; esac
	for mode in "" --destructive; do
		what="--auto $mode $spec"
		"$FB" --auto $mode ${mode:+--max-write=2G} "$spec" >"$T/report.txt" 2>"$T/err"
		rc=$?
		"$FB" --auto $mode ${mode:+--max-write=2G} --json "$spec" >"$T/report.json" 2>/dev/null
		[ "$rc" = 0 ] || { [ -n "$fake" ] && [ "$rc" = 1 ]; } || fail "$what exits $rc: $(cat "$T/err")"
		text=$(cat "$T/report.txt")
		size=$(python3 -c "import json; print(json.load(open('$T/report.json'))['device']['size_bytes'])")
		real=$size
		if [ -n "$fake" ] && [ -n "$mode" ]; then
			real=$(python3 -c "import json; print(json.load(open('$T/report.json'))['capacity']['real_min_bytes'])") ||
				fail "$what: no real size in the JSON"
			[ "$real" -lt "$size" ] || fail "$what: the fake stores all it advertises?"
			printf '%s\n' "$text" | tr -s ' \n' ' ' | grep -q "This card is counterfeit: it advertises 32GiB but stores only 8GiB" ||
				fail "$what: the advice does not say plainly that the card is counterfeit"
			printf '%s\n' "$text" | grep -q "Return it to the seller" || fail "$what: no word on returning it"
		fi
		if [ -z "$mode" ]; then
			printf '%s\n' "$text" | grep -q "^  The capacity was not checked" ||
				fail "$what: the read-only advice does not say that the capacity was not checked"
			printf '%s\n' "$text" | grep -qx "    flashbench --capacity $spec" ||
				fail "$what: no --capacity command in the read-only advice"
		fi
		lines=$(printf '%s\n' "$text" | sed -nE 's/^ *(\$ )?((sudo|printf|flashbench) .*)/\2/p')
		printf '%s\n' "$lines" | grep -q sfdisk || fail "$what: no partition script: $text"
		while IFS= read -r line; do
			run_line "$line"
		done <<<"$lines"
		# the JSON advice holds the same commands
		python3 - "$T/report.json" "$T/report.txt" <<'EOF' || fail "$what: the JSON advice and the text differ"
import json, sys
adv = json.load(open(sys.argv[1]))["advice"]; text = open(sys.argv[2]).read().splitlines()
cmds = [v for k, v in adv.items() if isinstance(v, str) and ("sudo " in v or v.startswith("flashbench "))]
missing = [c for c in cmds if "    " + c not in text]
sys.exit(1 if missing or not cmds else 0)
EOF
	done
done <<<"$specs"
[ "$ran" -gt 100 ] || fail "only $ran lines ran"
echo "$ran lines ran as printed"
exit 0
