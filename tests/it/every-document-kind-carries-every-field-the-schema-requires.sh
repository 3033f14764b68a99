#!/usr/bin/env bash
# The schema (doc/flashbench.schema.json) marks what is required, and every
# kind of --json document carries all of it: each test, --auto read-only and
# destructive (with a capacity check), --capacity genuine and fake,
# --analyze, a run cut by an I/O error, and runs that failed before any I/O.
# A member that every document of the kind carries is required (or its
# description says when it is left out), and dropping any required member
# makes the document invalid (tests/required_fields.py): a field the tool
# stops writing, such as the positions of each -a row, fails here.
. "$(dirname "$0")/../lib.sh"
need_tool python3
dev=sim:sdhc-good
seed=$(ls "$TESTS_DIR"/data/seeds/*.txt | head -n 1)
img=$(make_file card.img 64M)
mkdir "$T/docs"
n=0
# doc WANT_RC ARGS...: one --json document of this kind, kept in $T/docs
doc() {
	local want=$1; shift
	run "$FB" --json "$@"
	expect_rc "$want"
	[ -n "$out" ] || fail "--json $*: no document"
	n=$((n + 1))
	printf '%s\n' "$out" >"$T/docs/$n.json"
}
doc 0 -a $dev
doc 0 -a -b 4K "$img"
doc 0 -O $dev
doc 0 -O -r --open-au-nr=3 $dev
doc 0 -f $dev
doc 0 -s $dev
doc 0 -i --interval-order=4 $dev
doc 0 -p $dev
doc 0 --discard=16M:4M $dev
doc 0 --discard=16M:4M "$img"
doc 0 --auto $dev
doc 0 --auto "$img"
doc 0 --auto --destructive --max-write=256M $dev
doc 1 --auto --destructive --max-write=2G "sim:size=2G,real-size=1G"
doc 0 --capacity $dev
doc 1 --capacity "sim:size=2G,real-size=1G"
doc 0 --analyze="$seed"
for s in "$TESTS_DIR"/data/seeds/*.txt; do doc 0 --analyze="$s"; done
doc 1 -O "sim:size=256M,erasesize=4M,fail-at=67108864"
doc 1 -a "$T/missing"
doc 2 -a -b 5Q $dev
doc 2 -e 4M $dev
doc 1 --analyze="$T/missing"
doc 2 --restore="$T/missing" "$img"
pyrun "$TESTS_DIR/required_fields.py" "$TESTS_DIR/../doc/flashbench.schema.json" "$T"/docs/*.json ||
	fail "the schema does not require what the documents carry"
exit 0
