#!/usr/bin/env bash
# Output that cannot be written (stdout on /dev/full) is an error on every
# path — --help, --version, --analyze, every test (--auto with and without
# --destructive, --capacity, --discard), several tests in one run, each as
# text and as JSON, and the JSON document of a failed run: one message naming
# standard output, exit 1.
. "$(dirname "$0")/../lib.sh"
[ -w /dev/full ] || skip "no /dev/full"
seed=$(ls "$TESTS_DIR"/data/seeds/*.txt | head -n 1)
paths=("--help" "--version" "--analyze=$seed")
# every test, as text and as JSON
for t in "-a" "-O" "-f" "-s" "-i --interval-order=4" "-p" "--discard=16M:4M" "--capacity" "--auto" \
	 "--auto --destructive --max-write=256M"; do
	paths+=("$t sim:emmc" "--json $t sim:emmc")
done
# several tests in one run; a JSON document of a run that failed before any I/O
paths+=("--json --analyze=$seed" "-s -f -a -O -i --interval-order=4 -p sim:emmc" "--json -a $T/missing")
for args in "${paths[@]}"; do
	# shellcheck disable=SC2086
	"$FB" $args >/dev/full 2>"$T/err"; rc=$?
	[ "$rc" = 1 ] || fail "$args >/dev/full: exit $rc, want 1"
	[ "$(grep -c 'standard output: No space left on device' "$T/err")" = 1 ] ||
		fail "$args >/dev/full: want one message, got: $(cat "$T/err")"
done
exit 0
