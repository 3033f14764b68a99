#!/usr/bin/env bash
# Runs the unit test binaries and every integration test; prints one
# "N passed, N failed, N skipped" line at the end. Exit 1 if anything failed.
# Lines a passing test prints starting with "# " are shown (reports such as
# the calibration table).
set -u
here=$(cd "$(dirname "$0")" && pwd)
: "${FLASHBENCH:?set FLASHBENCH to the binary under test}"
: "${UNIT_DIR:?set UNIT_DIR to the unit test binaries}"
export FLASHBENCH
passed=0 failed=0 skipped=0

for t in "$UNIT_DIR"/test_*; do
	[ -x "$t" ] || continue
	out=$("$t" 2>&1); rc=$?
	line=$(printf '%s\n' "$out" | tail -n 1)
	if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
	else
		p=0 f=1
	fi
	[ $rc -ne 0 ] && [ "$f" -eq 0 ] && f=1
	passed=$((passed + p)); failed=$((failed + f))
	if [ "$f" -ne 0 ]; then
		printf 'FAIL unit %s\n%s\n' "$(basename "$t")" "$out"
	else
		printf 'ok   unit %s (%d checks)\n' "$(basename "$t")" "$p"
	fi
done

for t in "$here"/it/*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	out=$(timeout 300 bash "$t" 2>&1 </dev/null); rc=$?
	case $rc in
	0) passed=$((passed + 1)); printf 'ok   %s\n' "$name"
	   printf '%s\n' "$out" | grep '^# ' ;;	# a report the test wants shown (calibration)
	77) skipped=$((skipped + 1)); printf 'skip %s: %s\n' "$name" "$(printf '%s\n' "$out" | tail -n 1)" ;;
	*) failed=$((failed + 1)); printf 'FAIL %s (exit %d)\n%s\n' "$name" "$rc" "$out" ;;
	esac
done

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
