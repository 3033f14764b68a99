#!/usr/bin/env bash
# Posts come with "- " list markers, "> " quotes, lost line breaks and units
# damaged by encoding ("308s" for 308µs, mojibake). --analyze reads through the
# markers (quote marks with a warning), takes an impossible "308s" read as µs
# and says so, and with --json
# a failure is still a JSON document naming the error.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3"

rows() {	# the clean table: 4 MiB erase block, 16 KiB page
	local a=1073741824 d
	while [ "$a" -ge 2048 ]; do
		if [ "$a" -ge 4194304 ]; then d=$((300 + a % 13)); elif [ "$a" -ge 16384 ]; then d=$((60 + a % 5)); else d=4; fi
		printf 'align %s pre 900µs on %sµs post 900µs diff %sµs\n' "$a" $((900 + d)) "$d"
		a=$((a / 2))
	done
}
{ echo '$ sudo ./flashbench -a /dev/sdc'; rows; } > "$T/clean.txt"

sed 's/^/- /' "$T/clean.txt" > "$T/dash.txt"
sed 's/^/> > /' "$T/clean.txt" > "$T/quote.txt"
tr '\n' ' ' < "$T/clean.txt" > "$T/oneline.txt"
pyrun -c 'import sys; t=open(sys.argv[1],encoding="utf-8").read(); open(sys.argv[2],"w",encoding="utf-8").write(t.encode("utf-8").decode("latin-1"))' "$T/clean.txt" "$T/mojibake.txt"
for f in dash quote oneline mojibake; do
	run "$FB" --analyze "$T/$f.txt"; expect_rc 0
	expect_out "erase size: 4MiB \(high"
	expect_out "page size: 16KiB"
	# quote marks before rows are junk stripped with a warning (issue 20); the rest is clean
	if [ $f = quote ]; then expect_out "^warning: [0-9]+ pieces of junk .* stripped"
	else printf '%s\n' "$out" | grep -q warning && fail "$f: unexpected warning: $out"; fi
done

sed 's/µs/s/g' "$T/clean.txt" > "$T/lostmu.txt"
run "$FB" --analyze "$T/lostmu.txt"; expect_rc 0
expect_out "^warning: .* bare 's' .*read as µs"
expect_out "erase size: 4MiB"
run "$FB" --json --analyze "$T/lostmu.txt"; expect_rc 0
printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); assert d["status"]["state"] == "complete" and d["analyze"]["warnings"], d' ||
	fail "no warning in the JSON: $out"

run "$FB" --json --analyze "$T/missing.txt"; expect_rc 1
printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); assert d["status"]["state"] == "failed" and "No such file" in d["status"]["error"]["message"], d' ||
	fail "failure is not a JSON document: $out"
echo 'no output here' > "$T/prose.txt"
run "$FB" --json --analyze "$T/prose.txt"; expect_rc 1
printf '%s' "$out" | pyrun -c 'import json,sys; d=json.load(sys.stdin); assert d["status"]["state"] == "failed" and "no flashbench" in d["status"]["error"]["message"], d' ||
	fail "failure is not a JSON document: $out"
exit 0
