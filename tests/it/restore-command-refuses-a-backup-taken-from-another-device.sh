#!/usr/bin/env bash
# A backup only goes back where it came from: another device of the same size
# (here: a loop over another file) or of another size is refused, exit 2, untouched.
. "$(dirname "$0")/../lib.sh"
need_root
random_image a.img 16M >/dev/null
random_image b.img 16M >/dev/null
random_image c.img 8M >/dev/null
b_before=$(sha256sum < "$T/b.img")
c_before=$(sha256sum < "$T/c.img")
a=$(make_loop "$T/a.img")
b=$(make_loop "$T/b.img")
c=$(make_loop "$T/c.img")

run "$FB" -O --preserve --backup="$T/saved" -e 1M -b 256K --offset=8M "$a"
expect_rc 0
[ -s "$T/saved" ] || fail "no backup written"

run "$FB" --restore "$T/saved" "$b"
expect_rc 2
expect_err "^flashbench: --restore: $b is .*b\.img.* but $T/saved was taken from .*a\.img.*; not restoring$"
[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "more than one line: $errout"
run "$FB" --restore "$T/saved" "$c"
expect_rc 2
expect_err "^flashbench: --restore: $c has 8388608 bytes but $T/saved was taken from $a with 16777216 bytes; not restoring$"
[ "$(sha256sum < "$T/b.img")" = "$b_before" ] || fail "$b was written"
[ "$(sha256sum < "$T/c.img")" = "$c_before" ] || fail "$c was written"
exit 0
