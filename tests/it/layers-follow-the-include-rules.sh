#!/usr/bin/env bash
# The layer rules (tests/layers.sh) hold on the sources, except those still
# marked pending; and the checker sees a broken rule (each kind of check is
# tried on a copy of the sources with one violation added).
. "$(dirname "$0")/../lib.sh"
SRC=$(cd "$TESTS_DIR/.." && pwd)
LAYERS=$TESTS_DIR/layers.sh

run bash "$LAYERS" "$SRC"
[ "$rc" = 0 ] || fail "layer rules broken:"$'\n'"$out"
printf '%s\n' "$out" | tail -n 1 | grep -qE '^layer rules: [1-9][0-9]* hold, 0 broken' ||
	fail "no rule checked: $out"
printf '%s\n' "$out" | grep '^pending' >&2	# what is left to do, in the log

# copy_with FILE LINE: a copy of the sources in $T/src with LINE appended to FILE
copy_with() {
	rm -rf "$T/src"; mkdir "$T/src"
	(cd "$SRC" && cp --parents *.c *.h */*.c */*.h */README "$T/src/")
	printf '%s\n' "$2" >> "$T/src/$1"
}
# expect_broken RULE FILE LINE: adding LINE to FILE breaks RULE, named with FILE
expect_broken() {
	copy_with "$2" "$3"
	run bash "$LAYERS" "$T/src"
	[ "$rc" = 1 ] || fail "$2 + '$3': exit $rc, want 1: $out"
	printf '%s\n' "$out" | grep -q "^FAIL    $1\$" || fail "$2 + '$3' does not break $1: $out"
	printf '%s\n' "$out" | grep -qF "$2" || fail "$2 + '$3': the offending file is not named: $out"
}
expect_broken device-includes-nothing-above-it dev.h '#include "vm.h"'
expect_broken simulator-knows-nothing-of-the-tests sim/sim.c '#include "measure/measure.h"'
expect_broken vm-prints-nothing vm.c 'static void hello(void) { fprintf(stderr, "hi\n"); }'
expect_broken analysis-renders-nothing analyze/post.h '#include "report/report.h"'	# through a header
expect_broken measurement-renders-and-interprets-nothing measure/measure.c '#include "analyze/analyze.h"'

# a print inside a comment is no print
copy_with vm.c '/* printf("not code"); */'
run bash "$LAYERS" "$T/src"
printf '%s\n' "$out" | grep -q '^ok      vm-prints-nothing$' || fail "a comment counted as printing: $out"

expect_broken vm-knows-no-progress-bar vm.c '#include "lib/progress.h"'
expect_broken analysis-sees-no-device analyze/post.h '#include "measure/measure.h"'
expect_broken renderers-run-no-analysis report/report_json.c '#include "analyze/analyze.h"'
expect_broken flashbench-c-only-parses-and-dispatches flashbench.c '#include "dev.h"'
expect_broken results-are-plain-data report/report.h '#include "measure/measure.h"'
# folders include only what their README allows
expect_broken analyze-uses-only-what-its-readme-allows analyze/post.c '#include "dev.h"'
expect_broken lib-uses-only-what-its-readme-allows lib/units.c '#include "results/results.h"'
expect_broken vm-uses-only-dev-and-results vm.c '#include "lib/msg.h"'
expect_broken dev-uses-only-lib dev.c '#include "sim/sim.h"'
# a source at the top that is not the user's
expect_broken the-top-level-holds-only-the-users-files helpers.c '/* a helper */'
# a folder that does not say what it owns and may use
copy_with lib/units.c ''
sed -i '/^May use:/d' "$T/src/report/README"
run bash "$LAYERS" "$T/src"
printf '%s\n' "$out" | grep -q '^FAIL    every-folder-says-what-it-owns-and-may-use$' &&
	printf '%s\n' "$out" | grep -qF 'report/README' ||
	fail "a README without 'May use:' is not caught: $out"

# a pending rule that comes to hold is reported, so it gets enforced
copy_with vm.c ''
sed 's/^PENDING=" .*"$/PENDING=" vm-knows-no-progress-bar "/' "$LAYERS" >"$T/layers.sh"
run bash "$T/layers.sh" "$T/src"
printf '%s\n' "$out" | grep -q '^ok      vm-knows-no-progress-bar (was pending' ||
	fail "a pending rule that holds is not reported: $out"
exit 0
