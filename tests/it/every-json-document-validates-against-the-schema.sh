#!/usr/bin/env bash
# Every kind of document --json prints — each test, --auto (read-only and
# destructive), --analyze, I/O failures and errors before any I/O — has the
# envelope of doc/flashbench.schema.json, and its status matches the exit code.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || skip "no python3 to validate JSON with"
dev=sim:sdhc-good
seed=$(ls "$TESTS_DIR"/data/seeds/*.txt | head -n 1)

# doc WANT_RC STATE TEST ARGS...: run with --json, validate, check envelope
doc() {
	local want=$1 state=$2 test=$3; shift 3
	run "$FB" --json "$@"
	expect_rc "$want"
	[ -n "$out" ] || fail "--json $*: nothing on stdout"
	printf '%s\n' "$out" >"$T/doc.json"
	pyrun - "$T/doc.json" "$state" "$test" "$*" <<'PY' || fail "--json $*"
import json, re, sys
d = json.load(open(sys.argv[1]))
state, test, args = sys.argv[2], sys.argv[3], sys.argv[4]
assert list(d)[:7] == ["schema_version", "tool", "version", "time", "argv", "test", "device"], list(d)
assert d["argv"][1:] == ["--json"] + args.split(), d["argv"]
assert d["test"] == (None if test == "-" else test), d["test"]
assert d["status"]["state"] == state, d["status"]
assert (d["status"]["error"] is None) == (state == "complete"), d["status"]
if test not in ("-",) and state != "failed":
    assert test in d, "no member named like the test " + test
PY
	expect_schema "$T/doc.json" "--json $*"
}

doc 0 complete align -a $dev
doc 0 complete open_au -O $dev
doc 0 complete find_fat -f $dev
doc 0 complete scatter -s $dev
doc 0 complete interval -i --interval-order=4 $dev
doc 0 complete program -p $dev
doc 0 complete discard --discard=16M:4M $dev
doc 0 complete auto --auto $dev
doc 0 complete auto --auto --destructive --max-write=256M $dev
doc 0 complete analyze --analyze="$seed"
# an I/O failure: the data so far, and the error with its offset
doc 1 failed open_au -O "sim:size=256M,erasesize=4M,fail-at=67108864"	# the 2nd erase block, 12 erase sizes on
pyrun -c '
import json, sys
e = json.load(open(sys.argv[1]))["status"]["error"]
assert e["operation"] == "write" and e["offset_bytes"] == 67108864 and e["errno"] == 5, e
' "$T/doc.json" || fail "the failed write is not in status.error"
# errors before any I/O: still one document on stdout
doc 1 failed align -a "$T/missing"
doc 2 failed align -a -b 5Q $dev
doc 2 failed - -e 4M $dev
doc 1 failed analyze --analyze="$T/missing"
doc 2 failed restore --restore="$T/missing" "$T/card.img"
exit 0
