#!/usr/bin/env bash
# -a only reads, so it opens read-only: it works on a file nobody may write.
# As root, permissions do not stop writes; an immutable file does.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

f=$(make_file card 32M)
chmod 0444 "$f"
if [ "$(id -u)" = 0 ]; then
	command -v chattr >/dev/null || skip "no chattr"
	chattr +i "$f" 2>/dev/null || skip "cannot make $f immutable here"
	trap 'chattr -i "$f" 2>/dev/null; _cleanup' EXIT
	# the file really cannot be opened for writing now
	( exec 3>>"$f" ) 2>/dev/null && fail "immutable file still writable"
fi
run "$FB" -a -c 2 "$f"
expect_rc 0
check_align_table 16384 $((32 << 20))
