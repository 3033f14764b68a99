#!/usr/bin/env bash
# --class with a bad --claim (the item named), options it would not honour,
# or a bad claims=/link=/queue= of a sim: card: one line, exit 2, nothing
# done to the card (its trace stays empty).
. "$(dirname "$0")/../lib.sh"

bad() {	# want-stderr-regex args...
	local want=$1; shift
	: > "$T/trace"
	run "$FB" "$@"
	expect_rc 2
	[ "$(printf '%s\n' "$errout" | wc -l)" = 1 ] || fail "$*: not one line: $errout"
	expect_err "$want"
	[ ! -s "$T/trace" ] || fail "$*: did I/O"
}
dev="sim:rpi-a2,trace=$T/trace"
bad "^flashbench: --claim=C10,X7: X7: not a mark" --class --claim=C10,X7 "$dev"
bad "^flashbench: --claim=C10,C4: C4: a second speed class \(already C10\)" --class --claim=C10,C4 "$dev"
bad "^flashbench: --claim=U1,U1: U1: given twice" --class --claim=U1,U1 "$dev"
bad "^flashbench: --claim=C10,: .*an empty item" --class --claim=C10, "$dev"
bad "^flashbench: --claim=A3: A3: not a mark" --class --claim=A3 "$dev"
bad "^flashbench: --claim=C10: given twice" --class --claim=C10 --claim=C10 "$dev"
bad "^flashbench: --claim=C10: only with --class or --auto --destructive" -a --claim=C10 "$dev"
bad "^flashbench: --blocksize=4K: --class does not use it" --class -b 4K "$dev"
bad "^flashbench: --count=3: --class does not use it" --class -c 3 "$dev"
bad "^flashbench: --on-error=continue: --class stops" --class --on-error=continue "$dev"
bad "^flashbench: --erasesize=5M: " --class --erasesize=5M "$dev"
bad "^flashbench: --erasesize=768: must be a multiple of the logical block size" --class --erasesize=768 "$dev"
bad "^flashbench: sim: claims=C10\+X1: X1: not a mark" --class "sim:claims=C10+X1,trace=$T/trace"
bad "^flashbench: sim: link=20M: not a rate" --class "sim:link=20M,trace=$T/trace"
bad "^flashbench: sim: queue=1: " --class "sim:queue=1,trace=$T/trace"
bad "^flashbench: sim: queue=33: " --class "sim:queue=33,trace=$T/trace"
exit 0
