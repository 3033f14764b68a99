#!/usr/bin/env bash
# -O --preserve --json --backup=FILE where FILE cannot be created (its
# directory does not exist, or it exists): stdout still holds one JSON
# document, status failed, whose error names the backup and the cause;
# exit 1 and nothing written.
. "$(dirname "$0")/../lib.sh"
need_tool python3
: > "$T/exists"

for backup in "$T/no/such/dir/b" "$T/exists"; do
	rm -f "$T/rec"
	run "$FB" -O --preserve --json --backup="$backup" "sim:size=256M,record=$T/rec"
	expect_rc 1
	[ -s "$T/.out" ] || fail "--backup=$backup: no JSON document"
	printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"]["state"] == "failed", d["status"]
assert "--backup=" + sys.argv[1] in d["status"]["error"]["message"], d["status"]
' "$backup" || fail "--backup=$backup: $out"
	[ ! -s "$T/rec" ] || fail "--backup=$backup: the card was written"
done
exit 0
