#!/usr/bin/env bash
# --destructive means "let --auto write": alone or with another test it is a
# usage error (exit 2, nothing read or written) that says it belongs to
# --auto and gives the command that means it.
. "$(dirname "$0")/../lib.sh"
img=$(make_file card.img 64M)
for args in "--destructive" "-a --destructive" "-O --destructive" "--capacity --destructive"; do
	run "$FB" $args "$img"
	expect_rc 2
	case $errout in
	"flashbench: --destructive: belongs to --auto"*"(flashbench --auto --destructive $img)") ;;
	*) fail "$args: '$errout'" ;;
	esac
	[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "$args: more than one line: $errout"
done
run "$FB" -a --destructive "$img"
expect_err "belongs to --auto, not --align"
[ "$(stat -c %b "$img")" = 0 ] || fail "the image was written"
exit 0
