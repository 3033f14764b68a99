#!/usr/bin/env bash
# -h and --help list every option, short and long (the original's help
# left out -a, -i and -p), and exit 0.
. "$(dirname "$0")/../lib.sh" || exit 1

for h in -h --help; do
	run "$FB" "$h"
	expect_rc 0
	for o in -a --align -O --open-au --open-au-nr -r --random --offset -f --find-fat --fat-nr \
		-s --scatter --scatter-order --scatter-span -o --out -i --interval --interval-order \
		-p --program -c --count -b --blocksize -e --erasesize -v --verbose -h --help \
		-V --version --discard; do
		printf '%s\n' "$out" | grep -qE -- "(^|[ ,])$o([ ,=]|$)" || fail "$h does not list $o"
	done
done
