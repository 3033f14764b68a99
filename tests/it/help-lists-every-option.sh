#!/usr/bin/env bash
# -h and --help list every option, short and long (the original's help
# left out -a, -i and -p), and exit 0. The list is the option table in
# flashbench.c (long_options and the getopt string), so an option added
# there and not to the help fails here. The exit status line says that 1
# also means a counterfeit card or an unmet claim, as the man page does.
. "$(dirname "$0")/../lib.sh" || exit 1
src=$TESTS_DIR/../flashbench.c
[ -f "$src" ] || fail "no $src"

longs=$(sed -n '/^static const struct option long_options\[\] = {/,/^};/p' "$src" |
	grep -oE '^[[:space:]]*\{ *"[a-z][a-z0-9-]*"' | grep -oE '[a-z][a-z0-9-]*')
shorts=$(grep -oE 'getopt_long\(argc, argv, "[^"]*"' "$src" | sed -E 's/.*"(.*)"/\1/' | tr -d ':')
[ "$(printf '%s\n' "$longs" | wc -l)" -ge 30 ] || fail "found only these long options in $src: $longs"
[ "${#shorts}" -ge 10 ] || fail "found no getopt string in $src: '$shorts'"

opts=$(printf -- '--%s\n' $longs; printf '%s' "$shorts" | sed 's/./-&\n/g')
for h in -h --help; do
	run "$FB" "$h"
	expect_rc 0
	for o in $opts; do
		printf '%s\n' "$out" | grep -qE -- "(^|[ ,])$o([ ,=]|$)" || fail "$h does not list $o"
	done
	printf '%s\n' "$out" | grep -q "same size than" && fail "$h: 'same size than'"
	printf '%s\n' "$out" | tr -s ' \n' ' ' | grep -q -- "--force with --restore: restore onto another device or path of the same size as the one the backup is from" ||
		fail "$h: --force is not explained"
	printf '%s\n' "$out" | grep -q "^Exit 1 also means a counterfeit or damaged card, or a --class claim not met\.$" ||
		fail "$h: exit 1 for a counterfeit card or an unmet claim is not said"
done
exit 0
