#!/usr/bin/env bash
# --auto --destructive writes up to --max-write bytes all over the card, in
# many runs: no single saved copy covers that, so --preserve (with or without
# --backup) is refused with exit 2 before any I/O, on a file and on a loop
# device: nothing changes, no backup file appears, no output file either.
. "$(dirname "$0")/../lib.sh"
img=$(random_image card.img 64M)
targets=("$img")
if [ "$(id -u)" != 0 ]; then
	skip_part "the loop device half: needs root"
elif have_tool losetup "the loop device half"; then
	loop=$(losetup -f --show "$img" 2>/dev/null) && targets+=("$loop") ||
		skip_part "the loop device half: no free loop device"
fi
before=$(cksum < "$img")
for t in "${targets[@]}"; do
	for extra in "" "--backup=$T/saved" "--max-write=1G"; do
		run "$FB" --auto --destructive --preserve $extra -o "$T/report" "$t"
		expect_rc 2
		expect_err "^flashbench: --preserve: not with --auto"
		[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "not one line: $errout"
		[ -z "$out" ] || fail "stdout: $out"
		[ ! -e "$T/saved" ] || fail "a backup file appeared"
		[ ! -e "$T/report" ] || fail "an output file appeared"
		[ "$(cksum < "$img")" = "$before" ] || fail "--auto $extra on $t changed the data"
	done
done
exit 0
