#!/usr/bin/env bash
# -O --preserve --json on a card that fails while the saved data goes back
# (every write to the loop device fails from the third on, as on a card
# turned read-only mid-run): the document's status is
# failed, and its "preserve" member says the data was not restored, that
# the card still holds test data, and names the rescue file with the
# command that puts it back, which works.
. "$(dirname "$0")/../lib.sh"
need_root
need_tool python3
img=$(random_image disk.img 32M)
before=$(cksum < "$img")
loop=$(make_loop "$img")

# from its third write on, every write to the device fails as on a card
# turned read-only (EROFS): the test stops, and the restore cannot write
TMPDIR=$T at_write 3+ error:EROFS "$loop" "$FB" -O --preserve --json -e 8M -b 4K "$loop" \
	>"$T/doc.json" 2>"$T/err"
rc=$?
errout=$(cat "$T/err")
expect_rc 1
expect_schema "$T/doc.json" "-O --preserve --json"
rescue=$(pyrun - "$T/doc.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d.get("preserve")
assert p, "no preserve member"
assert d["status"]["state"] == "failed", d["status"]
assert "restoring" in d["status"]["error"]["message"], d["status"]
assert p["data_restored"] is False and p["device_holds_test_data"] is True, p
assert p["backup_file"] and p["restore_command"].endswith(p["backup_file"] + " " + d["device"]["name"]), p
print(p["backup_file"])
PY
) || fail "the document does not tell: $(cat "$T/doc.json")"
[ -f "$rescue" ] || fail "no rescue file $rescue"
expect_err "the saved data is in $rescue"
run "$FB" --restore "$rescue" "$loop"
expect_rc 0
[ "$(cksum < "$img")" = "$before" ] || fail "the device differs after --restore of the rescue file"
exit 0
