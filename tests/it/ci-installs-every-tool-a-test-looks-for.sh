#!/usr/bin/env bash
# Every tool a test looks for (need_tool, have_tool, command -v) is in
# tests/ci-tools, the list .ci/run installs, so CI never skips it; and
# .ci/run installs from that list and sets CI=true.
. "$(dirname "$0")/../lib.sh"
list=$TESTS_DIR/ci-tools
ci=$TESTS_DIR/../.ci/run
[ -f "$list" ] && [ -f "$ci" ] || fail "no tests/ci-tools or .ci/run"
known=$(awk '!/^#/ && NF { print $1 }' "$list")
# the only tools a test may look for that CI does not install: alternatives
# to one it does (chromium renders SVG where rsvg-convert is missing)
alternatives="chromium chromium-browser"
used=$(grep -ohE '(need_tool|have_tool|command -v) +"?[a-z][a-z0-9.+-]*' "$TESTS_DIR"/it/*.sh "$TESTS_DIR"/*.sh |
	awk '{ gsub(/"/, "", $NF); print $NF }' | sort -u)
[ -n "$used" ] || fail "found no tool lookups in the tests"
for t in $used; do
	case " $alternatives " in *" $t "*) continue ;; esac
	printf '%s\n' "$known" | grep -qxF -- "$t" || fail "tests look for $t, but tests/ci-tools does not list it"
done
grep -q 'tests/ci-tools' "$ci" || fail ".ci/run does not install tests/ci-tools"
grep -qE '^export CI=true' "$ci" || fail ".ci/run does not set CI=true"
grep -qE 'apt-get update' "$ci" && grep -qE 'apt-get install -y' "$ci" || fail ".ci/run does not apt-get install"
exit 0
