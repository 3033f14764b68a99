#!/usr/bin/env bash
# The byte counts of --capacity, --auto --destructive and --class are the device's
# own: what they report read and written (measuring, saving, restoring and
# verifying, split by purpose in text and JSON) equals the kernel's counts
# of the loop device (/sys/block/loopN/stat) within 1%.
. "$(dirname "$0")/../lib.sh"
need_root
need_tool python3
img=$(random_image disk.img 64M)
loop=$(make_loop "$img")
stat_file=/sys/block/${loop##*/}/stat

# compare WHAT DOC: the document's figures against the device's counts since $s0
compare() {
	local s1
	s1=$(awk '{print $3, $7}' "$stat_file")
	python3 - "$1" "$2" "$s0" "$s1" <<'PY' || fail "$1: the figures are not the device's"
import json, sys
what, doc, s0, s1 = sys.argv[1], sys.argv[2], sys.argv[3].split(), sys.argv[4].split()
dev_read, dev_written = 512 * (int(s1[0]) - int(s0[0])), 512 * (int(s1[1]) - int(s0[1]))
d = json.load(open(doc))
c = d["capacity"] if what == "capacity" else d["auto"]["cost"]
by = c["io_by_purpose"]
read = sum(p["read_bytes"] for p in by.values())
written = sum(p["written_bytes"] for p in by.values())
assert read == c["read_bytes"] and written == c["written_bytes"], (c, by)
for name, ours, dev in (("read", read, dev_read), ("written", written, dev_written)):
    assert dev > 0, (name, dev)
    assert abs(ours - dev) <= dev / 100, "%s: %s %d bytes, the device counted %d" % (what, name, ours, dev)
assert by["save"]["read_bytes"] > 0 and by["restore"]["written_bytes"] > 0 and by["verify"]["read_bytes"] > 0, by
PY
}

s0=$(awk '{print $3, $7}' "$stat_file")
"$FB" --capacity --json "$loop" >"$T/cap.json" || fail "--capacity failed"
compare capacity "$T/cap.json"
s0=$(awk '{print $3, $7}' "$stat_file")
"$FB" --auto --destructive --json --max-write=48M "$loop" >"$T/auto.json" || fail "--auto failed"
compare auto "$T/auto.json"

# --class: its -a, the test data, saving, restoring and verifying (exit 1: a verdict it cannot give)
s0=$(awk '{print $3, $7}' "$stat_file")
"$FB" --class --claim=C10 --json "$loop" >"$T/class.json"
[ $? -le 1 ] || fail "--class failed"
s1=$(awk '{print $3, $7}' "$stat_file")
python3 - "$T/class.json" "$s0" "$s1" <<'PY' || fail "--class: the figures are not the device's"
import json, sys
c, s0, s1 = json.load(open(sys.argv[1]))["class"], sys.argv[2].split(), sys.argv[3].split()
dev_read, dev_written = 512 * (int(s1[0]) - int(s0[0])), 512 * (int(s1[1]) - int(s0[1]))
assert dev_written > c["sustained_writes"]["written_bytes"], (dev_written, c)	# the restore wrote too
for name, ours, dev in (("read", c["read_bytes"], dev_read), ("written", c["written_bytes"], dev_written)):
    assert abs(ours - dev) <= dev / 100, "--class: %s %d bytes, the device counted %d" % (name, ours, dev)
PY

# the text says the same, by purpose
run "$FB" --capacity "$loop"
expect_out "^written: +[0-9]+ bytes \([0-9.]+MiB\): [0-9.]+MiB labels, [0-9.]+MiB restoring "
expect_out "^read: +[0-9]+ bytes \([0-9.]+MiB\): [0-9.]+MiB checking, [0-9.]+MiB saving, [0-9.]+MiB verifying;"
run "$FB" --auto --destructive --max-write=48M "$loop"
expect_out "^Moved [0-9.]+MiB read \(.*saving.*verifying\), [0-9.]+MiB written \(.*testing.*restoring\)\.$"
exit 0
