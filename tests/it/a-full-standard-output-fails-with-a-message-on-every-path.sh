#!/usr/bin/env bash
# Output that cannot be written (stdout on /dev/full) is an error on every
# path — --help, --version, --analyze, a test, --auto, JSON: one message
# naming standard output, exit 1.
. "$(dirname "$0")/../lib.sh"
[ -w /dev/full ] || skip "no /dev/full"
seed=$(ls "$TESTS_DIR"/data/seeds/*.txt | head -n 1)
for args in "--help" "--version" "--analyze=$seed" "--json --analyze=$seed" "-a sim:emmc" \
	    "--json -s sim:emmc" "--auto sim:emmc"; do
	# shellcheck disable=SC2086
	"$FB" $args >/dev/full 2>"$T/err"; rc=$?
	[ "$rc" = 1 ] || fail "$args >/dev/full: exit $rc, want 1"
	[ "$(grep -c 'standard output: No space left on device' "$T/err")" = 1 ] ||
		fail "$args >/dev/full: want one message, got: $(cat "$T/err")"
done
exit 0
