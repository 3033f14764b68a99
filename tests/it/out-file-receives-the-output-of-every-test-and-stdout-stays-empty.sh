#!/usr/bin/env bash
# -o/--out works for every test (each of the original's, --discard,
# --capacity, --auto with and without --destructive, several tests in one
# run), text or JSON: the file holds exactly what stdout would have shown,
# and stdout stays empty.
# (JSON envelopes differ only in the time and the argv they record, and
# --auto text in the command line it echoes first.)
. "$(dirname "$0")/../lib.sh"
dev=sim:emmc
same_run() { sed '1{/^\$ /d}; /^  "time": /d; /^  "argv": \[/,/^  \],/d'; }
# every test as text and as JSON, and several at once (text only: --json
# takes one test)
tests=("-a" "-O" "-f" "-s" "-i --interval-order=5" "-p" "--discard=16M:4M" "--capacity" "--auto"
       "--auto --destructive --max-write=256M")
for t in "${tests[@]}"; do tests+=("--json $t"); done
tests+=("-s -f -a -O -i --interval-order=5 -p")
for t in "${tests[@]}"; do
	# shellcheck disable=SC2086
	run "$FB" $t "$dev"
	expect_rc 0
	want=$(printf '%s\n' "$out" | same_run)
	rm -f "$T/out"
	# shellcheck disable=SC2086
	run "$FB" $t -o "$T/out" "$dev"
	expect_rc 0
	[ -z "$out" ] || fail "$t -o: stdout not empty: $(printf '%s' "$out" | head -n 2)"
	[ "$(same_run <"$T/out")" = "$want" ] || fail "$t -o: file differs from stdout: $(diff <(printf '%s\n' "$want") <(same_run <"$T/out") | head -n 4)"
	[ -n "$want" ] || fail "$t printed nothing"
done
run "$FB" -a --out="$T/long" "$dev"
expect_rc 0
[ -s "$T/long" ] || fail "--out=FILE wrote nothing"
exit 0
