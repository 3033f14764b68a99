#!/usr/bin/env bash
# --auto --destructive on a simulated card whose sector at 4 MiB fails (in
# the area the capacity step overwrites, so it cannot save it): the run
# reports that failure with its cause and exits 1; it never opens with a
# capacity verdict ("counterfeit", "stores ...") nor runs tests "inside the
# first" anything. --json: one document, status failed, the cause named.
. "$(dirname "$0")/../lib.sh"
dev="sim:sdhc-good,fail-at=4M"

run "$FB" --auto --destructive "$dev"
printf '%s\n' "$out" | grep -Eq "counterfeit|stores|stayed inside the first" &&
	fail "a capacity verdict from a failed check: $(printf '%s\n' "$out" | head -n 4)"
expect_rc 1
expect_err "capacity check: .*sim:sdhc-good,fail-at=4M: reading .*Input/output error"
run "$FB" --auto --destructive --json "$dev"
expect_rc 1
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
assert d["status"]["state"] == "failed", d["status"]
assert "Input/output error" in d["status"]["error"]["message"], d["status"]
assert "capacity" not in d or d["capacity"]["verdict"] == "unknown", d.get("capacity")
' || fail "JSON: $out"
exit 0
