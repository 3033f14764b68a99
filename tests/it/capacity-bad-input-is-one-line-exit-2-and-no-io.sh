#!/usr/bin/env bash
# --capacity with options it would ignore, or a bad sim: fake, is a one-line
# usage error, exit 2, and the card is not touched (record= stays empty).
. "$(dirname "$0")/../lib.sh"

for args in "-b 4K" "-c 3" "--offset=1M" "--on-error=continue" "--plot=$T/x.svg" \
	    "--max-write=1G" "--destructive" "-a"; do
	: > "$T/rec"
	# shellcheck disable=SC2086
	run "$FB" --capacity $args "sim:size=1G,real-size=100M,record=$T/rec"
	expect_rc 2
	[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "$args: not one line: $errout"
	[ ! -s "$T/rec" ] || fail "$args: wrote to the card"
done
for spec in "size=1G,real-size=1G" "size=1G,real-size=1000" "size=1G,real-size=100M,fake=mirror" \
	    "size=1G,cache=2G"; do
	run "$FB" --capacity "sim:$spec"
	expect_rc 2
	expect_err "^flashbench: sim: (real-size|fake|cache)="
done
exit 0
