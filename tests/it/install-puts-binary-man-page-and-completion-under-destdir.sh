#!/usr/bin/env bash
# `make install DESTDIR=... PREFIX=...` installs the binary under test (B=...
# respected), the man page and the bash completion; `make uninstall` removes them.
. "$(dirname "$0")/../lib.sh"
repo=$(cd "$TESTS_DIR/.." && pwd)
command -v make >/dev/null || skip "no make"
# The build directory the binary under test came from (top-level ./flashbench is B=build).
bdir=$(cd "$(dirname "$FB")" && pwd)
if [ "$bdir" = "$repo" ]; then b=build bin_target=flashbench; else b=$bdir bin_target=$bdir/flashbench; fi
# -o: install what was built and tested, never rebuild it here
mk() { run make -s -C "$repo" -o "$bin_target" "$@" B="$b"; }

mk install DESTDIR="$T/x" PREFIX=/usr
expect_rc 0
bin=$T/x/usr/bin/flashbench
man=$T/x/usr/share/man/man1/flashbench.1
comp=$T/x/usr/share/bash-completion/completions/flashbench
[ -x "$bin" ] || fail "no executable $bin"
cmp -s "$bin" "$FB" || fail "installed binary is not the one built with B=$b"
cmp -s "$man" "$repo/flashbench.1" || fail "man page not installed at $man"
cmp -s "$comp" "$repo/completion/flashbench" || fail "completion not installed at $comp"
[ "$(stat -c %a "$man")" = 644 ] || fail "man page mode $(stat -c %a "$man")"
run "$bin" --version
expect_rc 0
expect_out "[0-9]+\.[0-9]+"

# default PREFIX is /usr/local
mk install DESTDIR="$T/y"
expect_rc 0
[ -x "$T/y/usr/local/bin/flashbench" ] && [ -f "$T/y/usr/local/share/man/man1/flashbench.1" ] ||
	fail "default prefix is not /usr/local: $(cd "$T/y" && find . -type f)"

mk uninstall DESTDIR="$T/x" PREFIX=/usr
expect_rc 0
left=$(find "$T/x" -type f)
[ -z "$left" ] || fail "uninstall left: $left"
exit 0
