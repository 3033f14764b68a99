#!/usr/bin/env bash
# -O --preserve --backup=B: once the data is restored and verified, B has done
# its job and is removed (said under -v), so the same command runs again; the
# file is unchanged after both runs.
. "$(dirname "$0")/../lib.sh"
img=$(random_image card.img 32M)
before=$(cksum < "$img")
for i in 1 2; do
	run "$FB" -v -O --preserve --backup="$T/saved" -e 1M -b 64K "$img"
	expect_rc 0
	expect_err "^flashbench: --backup=$T/saved: restored and verified, so removed$"
	[ ! -e "$T/saved" ] || fail "run $i left $T/saved behind"
	[ "$(cksum < "$img")" = "$before" ] || fail "run $i changed the file"
done
run "$FB" -O --preserve --backup="$T/saved" -e 1M -b 64K "$img"
expect_rc 0
[ -z "$errout" ] || fail "without -v the removal is silent, got: $errout"
[ ! -e "$T/saved" ] || fail "a run without -v left $T/saved behind"
exit 0
