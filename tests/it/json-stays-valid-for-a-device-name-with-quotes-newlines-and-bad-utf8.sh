#!/usr/bin/env bash
# --json escapes the device name as given: quotes, backslashes, control
# characters and bytes that are not UTF-8 still make a valid document.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"
name=$T/$'odd "card"\\\n\t\x01\xff\xc3(.img'
truncate -s 64M "$name" || skip "cannot create the file"
run "$FB" --json -a -c 1 "$name"
expect_rc 0
printf '%s\n' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
name = d["device"]["name"]
assert name.endswith("odd \"card\"\\\n\t\x01\ufffd\ufffd(.img"), repr(name)
assert d["device"]["kind"] == "regular_file" and d["device"]["size_bytes"] == 64 << 20, d["device"]
assert len(d["align"]["rows"]) > 5, d["align"]
' || fail "invalid JSON or wrong name: $(printf '%s' "$out" | head -n 8)"
exit 0
