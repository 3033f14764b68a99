#!/usr/bin/env bash
# The byte counts of --capacity, --auto --destructive and --class are the device's
# own: what they report read and written (measuring, saving, restoring and
# verifying, split by purpose in text and JSON) equals the kernel's counts
# of the loop device (/sys/block/loopN/stat) within 1%; each purpose moves
# only what it can (what was saved is what went back and was read back, a
# label over each saved sector), and the text's figures are the JSON's.
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
	pyrun - "$1" "$2" "$s0" "$s1" <<'PY' || fail "$1: the figures are not the device's"
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
# each purpose on its own: what it cannot move is 0, and what was saved is
# what went back and what was read back (the restore succeeds at once)
for k, never in (("save", "written_bytes"), ("restore", "read_bytes"), ("verify", "written_bytes")):
    assert by[k][never] == 0, (k, never, by)
saved = by["save"]["read_bytes"]
assert saved > 0 and by["restore"]["written_bytes"] == saved and by["verify"]["read_bytes"] == saved, by
if what == "capacity":	# a label over every saved sector, each read back
    assert by["measure"]["written_bytes"] == saved and by["measure"]["read_bytes"] >= saved, by
else:			# --auto: its capacity step moved all it saved; its tests more
    cap = d["capacity"]["io_by_purpose"]
    for k in ("save", "restore", "verify"):
        assert by[k] == cap[k], (k, by, cap)
    for k in ("read_bytes", "written_bytes"):
        assert by["measure"][k] >= cap["measure"][k], (k, by, cap)
PY
}

# text_by_purpose DOC TEXT: the text's figures are the document's, purpose by purpose
text_by_purpose() {
	pyrun - "$1" "$2" <<'PY' || fail "the text's figures by purpose are not the JSON's"
import json, re, sys
d, text = json.load(open(sys.argv[1])), open(sys.argv[2]).read()
unit = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
def size(s):
    m = re.fullmatch(r"([0-9.]+)(B|KiB|MiB|GiB)", s)
    assert m, s
    return float(m.group(1)) * unit[m.group(2)]
def same(name, shown, bytes_):
    assert abs(size(shown) - bytes_) <= max(bytes_ / 100, 1), "%s: the text says %s, the JSON %d bytes" % (name, shown, bytes_)
if "capacity" in d and "auto" not in d:
    by = d["capacity"]["io_by_purpose"]
    w = re.search(r"^written: +[0-9]+ bytes \([^)]*\): (\S+) labels, (\S+) restoring", text, re.M)
    r = re.search(r"^read: +[0-9]+ bytes \([^)]*\): (\S+) checking, (\S+) saving, (\S+) verifying;", text, re.M)
    assert w and r, text
    same("labels", w.group(1), by["measure"]["written_bytes"]); same("restoring", w.group(2), by["restore"]["written_bytes"])
    same("checking", r.group(1), by["measure"]["read_bytes"]); same("saving", r.group(2), by["save"]["read_bytes"])
    same("verifying", r.group(3), by["verify"]["read_bytes"])
else:	# another run of --auto: its tests may move a little more or less; what it saved is the capacity step's
    by = d["auto"]["cost"]["io_by_purpose"]
    m = re.search(r"^Moved \S+ read \(\S+ testing, (\S+) saving, (\S+) verifying\), \S+ written \(\S+ testing, (\S+) restoring\)\.$", text, re.M)
    assert m, text
    same("saving", m.group(1), by["save"]["read_bytes"]); same("verifying", m.group(2), by["verify"]["read_bytes"])
    same("restoring", m.group(3), by["restore"]["written_bytes"])
PY
}

s0=$(awk '{print $3, $7}' "$stat_file")
"$FB" --capacity --json "$loop" >"$T/cap.json" || fail "--capacity failed"
compare capacity "$T/cap.json"
s0=$(awk '{print $3, $7}' "$stat_file")
"$FB" --auto --destructive --json --max-write=48M "$loop" >"$T/auto.json" || fail "--auto failed"
compare auto "$T/auto.json"

# --class: the test data, saving, restoring and verifying (exit 1: a verdict it cannot give);
# the erase size given, as -a on a loop device may find one too large for an area of 4 erase
# blocks here, which --class refuses before it writes
s0=$(awk '{print $3, $7}' "$stat_file")
"$FB" --class --claim=C10 --erasesize=4M --json "$loop" >"$T/class.json"
[ $? -le 1 ] || fail "--class failed"
s1=$(awk '{print $3, $7}' "$stat_file")
pyrun - "$T/class.json" "$s0" "$s1" <<'PY' || fail "--class: the figures are not the device's"
import json, sys
c, s0, s1 = json.load(open(sys.argv[1]))["class"], sys.argv[2].split(), sys.argv[3].split()
dev_read, dev_written = 512 * (int(s1[0]) - int(s0[0])), 512 * (int(s1[1]) - int(s0[1]))
assert dev_written > c["sustained_writes"]["written_bytes"], (dev_written, c)	# the restore wrote too
for name, ours, dev in (("read", c["read_bytes"], dev_read), ("written", c["written_bytes"], dev_written)):
    assert abs(ours - dev) <= dev / 100, "--class: %s %d bytes, the device counted %d" % (name, ours, dev)
PY

# the text says the same, by purpose
"$FB" --capacity "$loop" >"$T/cap.txt" || fail "--capacity failed"
text_by_purpose "$T/cap.json" "$T/cap.txt"
"$FB" --auto --destructive --max-write=48M "$loop" >"$T/auto.txt" || fail "--auto failed"
text_by_purpose "$T/auto.json" "$T/auto.txt"
exit 0
