#!/usr/bin/env bash
# --auto --destructive on a fake card: the capacity check runs first, the
# counterfeit line comes right after the title, exit 1, the JSON carries
# it, and no later test writes beyond the real size (the only writes there
# are the check's one-sector labels). On a genuine card the verdict says
# genuine and the exit status is 0.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"
real=$((40 << 20))	# below where the write tests would otherwise go

run "$FB" --auto --destructive "sim:sdhc-good,size=8G,real-size=40M,record=$T/rec"
expect_rc 1
[ "$(printf '%s\n' "$out" | sed -n 2p)" = "counterfeit: advertises 8GiB, stores 40MiB (wraps to offset 0 beyond)" ] ||
	fail "line 2 (after the command): $(printf '%s\n' "$out" | head -n 4)"
expect_out "open erase blocks"
beyond=$(awk -v r=$real '$1 == "W" && $2 + $3 > r && $3 != 512' "$T/rec" | head -n 3)
[ -z "$beyond" ] || fail "tests wrote beyond the real size: $beyond"
awk -v r=$real '$1 == "W" && $2 + $3 > r' "$T/rec" | grep -q . || fail "the capacity check wrote no label beyond"

run "$FB" --auto --destructive --json sim:sdhc-good,size=8G,real-size=3G,fake=drop
expect_rc 1
printf '%s\n' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
c = d["capacity"]
assert c["verdict"] == "counterfeit" and c["real_min_bytes"] == 3 << 30, c
assert d["device"]["size_bytes"] == 8 << 30, d["device"]
' || fail "bad JSON: $(printf '%s' "$out" | head -c 600)"

run "$FB" --auto --destructive sim:sdhc-good,size=8G
expect_rc 0
expect_out "^  capacity +genuine: stores all of its advertised 8GiB"
exit 0
