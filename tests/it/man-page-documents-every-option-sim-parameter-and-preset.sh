#!/usr/bin/env bash
# flashbench.1 documents every option --help lists, every sim: parameter and
# preset, and the exit codes; groff formats it without a warning.
. "$(dirname "$0")/../lib.sh"
repo=$(cd "$TESTS_DIR/.." && pwd)
page=$repo/flashbench.1
run "$FB" --help
expect_rc 0
help=$out

# man source writes '-' in option names as '\-'
in_page() { sed 's/\\-/-/g' "$page" | grep -qF -- "$1"; }

opts=$(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]+' | sort -u)
[ "$(printf '%s\n' "$opts" | wc -l)" -ge 25 ] || fail "--help lists too few options: $opts"
for o in $opts; do in_page "$o" || fail "man page lacks $o"; done
for o in $(printf '%s\n' "$help" | grep -oE -- '^ +-[a-zA-Z],' | tr -d ' ,'); do
	in_page ".BR $o " || in_page ".B $o" || fail "man page lacks short option $o"
done

keys=$(printf '%s\n' "$help" | grep -oE '^ +[a-z][a-z-]*=' | tr -d ' =')
presets=$(printf '%s\n' "$help" | awk '/^ *Presets:/ {p = 1; next} p && /^ +[a-z0-9]/ {print $1; next} p {exit}')
[ -n "$keys" ] && [ -n "$presets" ] || fail "--help lists no sim: parameters or presets"
for k in $keys; do in_page ".BI $k=" || fail "man page lacks sim: parameter $k="; done
for p in $presets; do in_page ".B $p" || fail "man page lacks sim: preset $p"; done

for code in 0 1 2 130; do grep -qx ".B $code" "$page" || fail "EXIT STATUS lacks $code"; done

if have_tool groff "the groff warnings check"; then
	warnings=$(groff -man -w all -z "$page" 2>&1)
	[ -z "$warnings" ] || fail "groff: $warnings"
fi
if have_tool man "the rendering check (man -l, 80 columns)"; then
	text=$(MANWIDTH=80 man -l "$page" 2>/dev/null)
	printf '%s\n' "$text" | grep -q "^EXIT STATUS" || fail "man -l does not render the page"
	long=$(printf '%s\n' "$text" | LC_ALL=C.UTF-8 grep -E '^.{81,}')
	[ -z "$long" ] || fail "lines wider than 80 columns: $long"
fi
exit 0
