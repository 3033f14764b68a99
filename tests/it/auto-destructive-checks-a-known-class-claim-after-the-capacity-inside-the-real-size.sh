#!/usr/bin/env bash
# --auto --destructive runs the --class check when a claim is known (the
# card's SD Status, or --claim): after the capacity check, inside the real
# size of a fake, within --max-write; its verdict is the Verdict block's
# line after the capacity and the JSON has it (the exit status stays the
# capacity check's). No claim: no check.
. "$(dirname "$0")/../lib.sh"
need_tool python3

verdict_lines() { printf '%s\n' "$out" | sed -n '/^Verdict$/,/^$/p' | sed -n '2,3p'; }

run "$FB" --auto --destructive sim:rpi-a2
expect_rc 0
lines=$(verdict_lines)
[[ $lines == "  capacity "*"genuine"*$'\n'"  class                  met: every claim kept: C10 "* ]] ||
	fail "Verdict block: $lines"
expect_err "^flashbench: sim:rpi-a2: --class writes at most [0-9.]+[MG]iB: 64MiB from offset"

run "$FB" --auto --destructive sim:sdxc-tlc
expect_rc 0
expect_out "^  class +short: A1: random 4KiB writes [0-9]+ IOPS, promised 500 IOPS; C10 met, U1 met$"

# a fake of 96MiB claiming C10: the check's area fits below 96MiB (its 64MiB area and the
# restore are more than the default budget of a card that stores 96MiB: --max-write lets it run)
real=$((96 << 20))
: > "$T/trace"
run "$FB" --auto --destructive --max-write=1G --json "sim:sdhc-good,size=8G,real-size=$real,trace=$T/trace"
printf '%s' "$out" | pyrun -c '
import json, sys
d = json.load(sys.stdin)
c = d["class"]
assert d["capacity"]["verdict"] == "counterfeit"
k = c["conditions"]
assert k["offset_bytes"] + k["area_bytes"] <= int(sys.argv[1]), k
assert c["claims"][0]["name"] == "C10" and c["claims"][0]["source"] == "sd_status"
' "$real" || fail "JSON of the fake: $(printf '%s' "$out" | head -c 400)"
# beyond the real size only the capacity check's one-sector probes
awk -v real="$real" '$1 == "W" && $2 + $3 > real && $3 > 512 { print; bad = 1 } END { exit bad }' \
	"$T/trace" || fail "wrote beyond the real size"

# a card without an SD Status: --claim names the label
run "$FB" --auto --destructive --json --claim=C4 sim:size=2G
printf '%s' "$out" | pyrun -c '
import json, sys
c = json.load(sys.stdin)["class"]
assert [(x["name"], x["source"], x["verdict"]) for x in c["claims"]] == [("C4", "claim_option", "met")], c["claims"]
' || fail "--claim with --auto"

# no claim known: no check
run "$FB" --auto --destructive sim:emmc
expect_rc 0
! printf '%s\n' "$out" | grep -q '^  class ' || fail "a class line without a claim"
[[ $errout != *"--class writes"* ]] || fail "checked a class without a claim"

# --max-write too small for it as well: not run, and said so; the cap holds
run "$FB" --auto --destructive --max-write=40M --json "sim:rpi-a2,record=$T/rec"
expect_err "^flashbench: --auto: class check not run: it writes up to 144MiB, --max-write leaves "
written=$(awk '$1 == "W" { n += $3 } END { print n + 0 }' "$T/rec")
[ "$written" -le $((40 << 20)) ] || fail "wrote $written bytes with --max-write=40M"
printf '%s' "$out" | pyrun -c 'import json, sys; assert "class" not in json.load(sys.stdin)' ||
	fail "a class member without a check"
exit 0
