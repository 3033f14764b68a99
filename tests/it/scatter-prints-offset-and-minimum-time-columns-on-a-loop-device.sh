#!/usr/bin/env bash
# -s: 2^order lines "%f\t%f", offset in MiB stepping by span x blocksize,
# minimum read time in ms.
. "$(dirname "$0")/../lib.sh" || exit 1
. "$TESTS_DIR/formats.sh" || exit 1

check_scatter() { # LINES STEP_BYTES
	local bad
	bad=$(printf '%s\n' "$out" | awk -v want="$1" -v step="$2" '
		function bad(why) { print "line " NR ": " why; failed = 1; exit }
		!/^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]\t[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/ { bad("not a scatter line: " $0) }
		{ split($0, f, "\t"); o = f[1] * 1048576; w = (NR - 1) * step }
		o < w - 1 || o > w + 1 { bad("offset " f[1] " MiB, want " w " bytes") }
		!(f[2] > 0 && f[2] < 1000) { bad("time " f[2] " ms") }
		END { if (!failed && NR != want) print NR " lines, want " want }')
	[ -z "$bad" ] || fail "$bad"
}

f=$(make_file card 32M)
use_loop "$f"
run "$FB" --scatter --scatter-order=5 "$LOOP"
expect_rc 0
check_scatter 32 16384
