#!/usr/bin/env bash
# A backup only goes back where it came from: another device of the same size
# (a loop over another file, or a regular file), the same file under another
# loop device (same identity, other path), or another size is refused, exit 2,
# untouched. --force overrides identity and path, never the size.
. "$(dirname "$0")/../lib.sh"
need_root
random_image a.img 16M >/dev/null
random_image b.img 16M >/dev/null
random_image c.img 8M >/dev/null
random_image d.img 16M >/dev/null	# a regular file, attached to nothing
d_before=$(cksum < "$T/d.img")
a_before=$(cksum < "$T/a.img")
b_before=$(cksum < "$T/b.img")
c_before=$(cksum < "$T/c.img")
cp "$T/a.img" "$T/a.span"
b_head=$(head -c 8M "$T/b.img" | cksum)
a=$(make_loop "$T/a.img")
b=$(make_loop "$T/b.img")
c=$(make_loop "$T/c.img")
a2=$(make_loop "$T/a.img")

# a backup that stays behind: flashbench killed mid-test, at its third write (a finished run removes it)
at_write 3 KILL "$a" "$FB" -O --preserve --backup="$T/saved" -e 4M -b 4K --offset=8M "$a" \
	>/dev/null 2>"$T/err"
[ $? = 137 ] || fail "-O was not killed at its third write: $(cat "$T/err")"
grep -aqx end "$T/saved" || fail "no complete backup in $T/saved: $(cat "$T/err")"
cp "$T/saved" "$T/saved.copy"	# a verified restore removes the backup

run "$FB" --restore "$T/saved" "$b"
expect_rc 2
expect_err "^flashbench: --restore: $b is .*b\.img.* but $T/saved was taken from .*a\.img.*; not restoring \(--force: restore anyway\)$"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "more than one line: $errout"
run "$FB" --restore "$T/saved" "$T/d.img"
expect_rc 2
expect_err "^flashbench: --restore: $T/d\.img is \"file:.*\" but $T/saved was taken from"
run "$FB" --restore "$T/saved" "$a2"
expect_rc 2
expect_err "^flashbench: --restore: $T/saved was taken from $a, not $a2; not restoring \(--force: restore anyway\)$"
run "$FB" --restore "$T/saved" "$c"
expect_rc 2
expect_err "^flashbench: --restore: $c has 8388608 bytes but $T/saved was taken from $a with 16777216 bytes; not restoring$"
run "$FB" --restore "$T/saved" --force "$c"
expect_rc 2
[ "$(cksum < "$T/b.img")" = "$b_before" ] || fail "$b was written"
[ "$(cksum < "$T/c.img")" = "$c_before" ] || fail "$c was written"
[ "$(cksum < "$T/d.img")" = "$d_before" ] || fail "$T/d.img was written"

# --force: onto b anyway; b now has a's saved bytes there, and is untouched elsewhere
run "$FB" --restore "$T/saved" --force "$b"
expect_rc 0
cmp -s <(tail -c 8M "$T/a.span") <(tail -c 8M "$T/b.img") || fail "--force did not restore onto $b"
[ "$(head -c 8M "$T/b.img" | cksum)" = "$b_head" ] || fail "--force wrote outside the span"

# and where it came from, it goes back without --force
run "$FB" --restore "$T/saved.copy" "$a"
expect_rc 0
[ "$(cksum < "$T/a.img")" = "$a_before" ] || fail "$a differs from before after --restore"
exit 0
