#!/usr/bin/env bash
# -o/--out works for every test, text or JSON: the file holds exactly what
# stdout would have shown, and stdout stays empty.
# (JSON envelopes differ only in the time and the argv they record.)
. "$(dirname "$0")/../lib.sh"
dev=sim:emmc
same_run() { sed '/^  "time": /d; /^  "argv": \[/,/^  \],/d'; }
for t in "-a" "-O" "-f" "-s" "-i --interval-order=5" "-p" "--json -a" "--json -O"; do
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
