#!/usr/bin/env bash
# The first line of a --backup file is the one line its checksum leaves out
# (it says what the file is: a backup, one restored, one still being
# written). A complete backup whose first line reads as the marker of a
# backup still being written, or as nothing at all, while its checksummed
# header and data check out, is restored (it used to be taken for a partial
# backup, deleted, exit 0: the only copy lost); a file that cannot be
# classified (the marker over a damaged header) is kept, exit 2, nothing
# written, and the message says not to delete it.
. "$(dirname "$0")/../lib.sh"
need_tool python3
img=$(random_image disk.img 32M)
cp "$img" "$T/orig"
loop=$(make_loop "$img")

# first_line BACKUP TEXT: the first line replaced by TEXT in place, the header
# shifted into its padding so that every later byte keeps its offset
first_line() {
	pyrun - "$1" "$2" <<'PY' || fail "could not rewrite the first line of $1"
import sys
path, text = sys.argv[1], sys.argv[2].encode() + b"\n"
data = open(path, "rb").read()
first = data.index(b"\n") + 1
end = data.index(b"\nend\n") + 5
grow = len(text) - first
assert data[end:end + max(grow, 0)] == b"\0" * max(grow, 0), "no room in the padding"
header = text + data[first:end]
new = header + data[end + grow:] if grow >= 0 else header + b"\0" * -grow + data[end:]
assert len(new) == len(data)
open(path, "r+b").write(new)
PY
}

for damage in flashbench-backup-being-written "flashbench-backuq 2" ""; do
	backup_of_killed_run "$loop" "$T/b"
	cmp -s "$loop" "$T/orig" && fail "the killed run left the device as it was: nothing to restore"
	first_line "$T/b" "$damage"
	run "$FB" --restore="$T/b" "$loop"
	expect_rc 0
	expect_err "first line is damaged .*check out"
	cmp -s "$loop" "$T/orig" || fail "first line '$damage': the device was not restored: $errout"
	[ ! -e "$T/b" ] || fail "first line '$damage': the restored backup is left behind"
done

# the marker over a header that does not parse: not a backup anyone can check, kept
backup_of_killed_run "$loop" "$T/b"
cp "$T/b" "$T/b.copy"
printf 'flashbench-backup-being-written\n' | dd of="$T/b" conv=notrunc status=none
sum=$(cksum < "$loop")
run "$FB" --restore="$T/b" "$loop"
expect_rc 2
expect_err "kept.*do not delete it"
[ -e "$T/b" ] || fail "a file that cannot be classified was removed"
[ "$(cksum < "$loop")" = "$sum" ] || fail "the refused restore wrote to the device"
exit 0
