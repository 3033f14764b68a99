#!/usr/bin/env bash
# Claims come from the card's SD Status (a simulated card shows one built
# from claims=) or from --claim, for cards whose registers are hidden; the
# output says where each came from, and when both are given and disagree it
# says so and checks both.
. "$(dirname "$0")/../lib.sh"

# the SD Status only
run "$FB" --class sim:claims=C10,U1,A1
expect_out "^claims: +C10 U1 A1 from the card's SD Status$"
# --claim only: no SD Status (no claims= on a card without a preset's)
run "$FB" --class --claim=C4,V6 sim:size=1G
expect_out "^claims: +C4 V6 from --claim$"
expect_rc 0
# both, agreeing and not
run "$FB" --class --claim=c10,U3 sim:claims=C10,U1
expect_out "^claims: +C10 from the SD Status and --claim; U1 from the card's SD Status; U3 from --claim$"
expect_out "the label \(--claim C10,U3\) and the card's SD Status \(C10,U1\) differ: both are checked"
expect_out "^U1 +sustained"
expect_out "^U3 +sustained"
run "$FB" --class --json --claim=C10,U3 sim:claims=C10,U1
got=$(printf '%s' "$out" | pyrun -c '
import json, sys
c = json.load(sys.stdin)["class"]
print(c["claims_differ"], c["claim_option"], c["sd_status"]["claims"],
      " ".join(x["name"] + ":" + x["source"] for x in c["claims"]))')
[ "$got" = "True C10,U3 C10,U1 C10:both U1:sd_status U3:claim_option" ] || fail "JSON: $got"
# no claim at all: unknown, and nothing written
: > "$T/trace"
run "$FB" --class "sim:size=1G,trace=$T/trace"
expect_rc 1
expect_out "^unknown: no claim to check: no SD Status is visible here"
! grep -q '^W' "$T/trace" || fail "wrote without a claim"
exit 0
